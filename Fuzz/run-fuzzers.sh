#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds every fuzz target with libFuzzer and AddressSanitizer and runs each for SECONDS on
# its seed corpus and dictionary; prints execs/s, coverage and features per target.
# Exits non-zero when any target crashes, leaks, times out, is slow or breaks its oracle; the
# offending input is printed in hex and kept in Fuzz/out/<target>/.
#
#   Fuzz/run-fuzzers.sh [SECONDS] [TARGET...]      (default: 30 s, every target)
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
# Per-input bounds: FUZZ_MAX_MS per input (checked by the targets' driver: the fastest of
# three runs must be within it), 64 MB per allocation (-malloc_limit_mb); total RSS is capped
# at 256 MB because AddressSanitizer's shadow memory alone puts a target near 70 MB.
# Targets whose oracle does more work per byte get more (fuzz_max_ms in Fuzz/fuzz-targets.sh):
# FuzzTagImages decodes an image as every tag type, strict and lenient, scanned and validated,
# and a 5 KiB image took 5.5 ms of CPU under ASan on an idle core and 10.0 ms with the other
# core busy (CI, 2026-12-07). FuzzMifareClassic decodes a whole card (up to 4 KiB) strict,
# lenient and scanned, then writes, locks and formats it and decodes each result again.
# libFuzzer's -timeout is wall time in whole seconds: only a hang detector here (the CPU-time
# bound above is the real one). Raise it for long campaigns on a busy machine, where a niced
# fuzzer can wait over a second for the CPU (seen: 0.2 ms inputs reported as timeouts).
timeout_s=${FUZZ_TIMEOUT_S:-1}
shift || true
# The targets, their corpus folders, dictionaries and max_len come from the package
# (Fuzz/fuzz-targets.sh), as for the OSS-Fuzz build and the campaigns.
# shellcheck source=Fuzz/fuzz-targets.sh
. Fuzz/fuzz-targets.sh
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(fuzz_targets); fi

# FUZZ_BIN_DIR: run the binaries already there instead of building (CI passes the $OUT of
# Fuzz/oss-fuzz/check-build.sh's address build, the same sanitizers with OSS-Fuzz's flags).
if [ -n "${FUZZ_BIN_DIR:-}" ]; then
  bin=$FUZZ_BIN_DIR
  echo "fuzz: running the builds in $bin"
else
  scratch=.build/fuzz
  mkdir -p .build  # the build logs go beside the scratch folder, also on a fresh clone
  echo "fuzz: building ${targets[*]} with -sanitize=fuzzer,address"
  for t in "${targets[@]}"; do
    if ! swift build -c release --product "$t" --scratch-path "$scratch" \
      -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld >"$scratch-$t.log" 2>&1; then
      grep -E "error" "$scratch-$t.log" | head -20
      echo "fuzz: build of $t failed"
      exit 1
    fi
  done
  bin="$scratch/release"
fi
# run_target TARGET: fuzzes one target for SECONDS and prints its row (and, when it fails, the
# evidence); exits non-zero when it fails. FUZZ_JOBS targets run at once (default: one per
# core; each fuzzer is one process on one core), their rows printed in target order.
run_target() {
  local t=$1 out seeds folder d limits max_len dict rc done_line execs rate cov ft result a
  out="Fuzz/out/$t"
  rm -rf "$out"
  mkdir -p "$out/corpus" "$out/artifacts"
  seeds=()
  folder=$(fuzz_corpus_folder "$t")
  for d in "Corpus/$folder/seeds" "Corpus/$folder/regressions" "Corpus/$folder/fuzzed"; do
    [ -d "$d" ] && seeds+=("$d")
  done
  limits=()
  max_len=$(fuzz_max_len "$t")
  [ -n "$max_len" ] && limits=(-max_len="$max_len")
  dict=()
  [ -f "$(fuzz_dictionary "$t")" ] && dict=(-dict="$(fuzz_dictionary "$t")")
  # ASan's quarantine is kept small so -rss_limit_mb measures the target, not the sanitizer.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=quarantine_size_mb=8:detect_leaks=1 TAPWIRE_FUZZ_MAX_MS="$(fuzz_max_ms "$t")" \
    "$bin/$t" -max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb=256 -malloc_limit_mb=64 \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/" "${dict[@]}" "${limits[@]}" \
    "$out/corpus" "${seeds[@]}" >"$out/log.txt" 2>&1
  rc=$?
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$out/log.txt" | tail -1)
  execs=$(grep -E 'stat::number_of_executed_units' "$out/log.txt" | awk '{print $2}')
  rate=$(grep -E 'stat::average_exec_per_sec' "$out/log.txt" | awk '{print $2}')
  cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$done_line")
  ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$done_line")
  if [ $rc -eq 0 ] && [ -n "$done_line" ]; then result=ok; else result="FAILED (exit $rc)"; fi
  printf '%-16s %10s %12s %8s %8s %s\n' "$t" "${rate:-?}" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$result"
  if [ "$result" != ok ]; then
    grep -E "ERROR|SUMMARY|oracle|slow input|Fatal error|==[0-9]+==" "$out/log.txt" | head -20
    for a in "$out"/artifacts/*; do
      [ -f "$a" ] || continue
      echo "input $a:"; xxd "$a" | head -20
    done
  fi
  [ "$result" = ok ]
}

jobs_max=${FUZZ_JOBS:-$(nproc)}
mkdir -p Fuzz/out
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  {
    rc=0
    run_target "$t" >"Fuzz/out/$t.row" 2>&1 || rc=$?
    echo "$rc" >"Fuzz/out/$t.status"
  } &
done
wait
status=0
printf '%-16s %10s %12s %8s %8s %s\n' target "exec/s" execs cov ft result
for t in "${targets[@]}"; do
  cat "Fuzz/out/$t.row"
  [ "$(cat "Fuzz/out/$t.status" 2>/dev/null)" = 0 ] || status=1
done
exit $status
