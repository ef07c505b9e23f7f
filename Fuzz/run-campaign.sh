#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A fuzzing campaign that grows the checked-in corpora: runs every fuzz target (or the ones
# named) for SECONDS each with libFuzzer's fork mode, then merges what it found with
# `-merge=1` into Corpus/<folder>/fuzzed/, minimised against the hand-kept seeds,
# regressions and dumps beside it, and trimmed to the size budget (Fuzz/fuzz-targets.sh:
# 256 KiB and 400 files per target). Prints, per target, executions, exec/s, coverage (cov:
# edges) and features (ft:) at the start and the end, what the merge kept, and findings.
#
#   Fuzz/run-campaign.sh SECONDS [TARGET...]   e.g. nice -n 10 Fuzz/run-campaign.sh 90
#   Fuzz/run-campaign.sh --check               fails when a Corpus/<folder>/fuzzed/ is over budget
#
# FUZZ_JOBS (default 1) is libFuzzer's -fork=N (parallel child processes); FUZZ_TIMEOUT_S
# (default 10: a niced fuzzer can wait long for the CPU) is its wall-clock hang bound, and
# FUZZ_MAX_MS the per-input CPU-time bound the targets check (as in Fuzz/run-fuzzers.sh).
# Crashes, timeouts and out-of-memory inputs do not stop the campaign (-ignore_crashes etc.);
# they are kept in Fuzz/out/campaign/<target>/artifacts/ and make the script exit 1.
# Uses the build of Fuzz/run-fuzzers.sh (.build/fuzz, -sanitize=fuzzer,address), built here
# when missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=Fuzz/fuzz-targets.sh
. Fuzz/fuzz-targets.sh

budget_bytes=$(($(fuzz_corpus_budget_kib) * 1024))
budget_files=$(fuzz_corpus_budget_files)

# field NAME LINE: the value after "NAME:" in a libFuzzer progress line
field() { sed -nE "s|.* $1: ([0-9/]+).*|\\1|p" <<<"$2"; }

# bytes and file count of a folder's regular files (content sizes, not disk blocks)
folder_size() { find "$1" -type f -printf '%s\n' 2>/dev/null | awk '{s+=$1; n++} END {printf "%d %d\n", s, n}'; }

check_budgets() {
  local status=0 folder bytes files
  for folder in Corpus/*/; do
    folder=${folder%/}
    [ -d "$folder/fuzzed" ] || continue
    read -r bytes files < <(folder_size "$folder/fuzzed")
    if [ "$bytes" -gt "$budget_bytes" ] || [ "$files" -gt "$budget_files" ]; then
      echo "corpus budget: $folder/fuzzed holds $files files, $((bytes / 1024)) KiB (budget $budget_files files, $((budget_bytes / 1024)) KiB)"
      status=1
    fi
  done
  [ $status -eq 0 ] && echo "corpus budget: every Corpus/<folder>/fuzzed/ within $budget_files files and $((budget_bytes / 1024)) KiB"
  return $status
}

if [ "${1:-}" = --check ]; then
  check_budgets
  exit
fi
if ! [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  echo "usage: Fuzz/run-campaign.sh SECONDS [TARGET...] | --check" >&2
  exit 2
fi
seconds=$1
shift
jobs=${FUZZ_JOBS:-1}
timeout_s=${FUZZ_TIMEOUT_S:-10}
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(fuzz_targets); fi

scratch=.build/fuzz
bin="$scratch/release"
mkdir -p .build
for t in "${targets[@]}"; do
  if ! timeout 1800 swift build -c release --product "$t" --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld >"$scratch-$t.log" 2>&1; then
    grep -E "error" "$scratch-$t.log" | head -20
    echo "campaign: build of $t failed"
    exit 1
  fi
done

status=0
summary=()
printf '%-21s %6s %11s %8s %13s %13s %15s %9s %s\n' target secs execs "exec/s" "cov start/end" "ft start/end" "fuzzed files/KiB" "findings" result
for t in "${targets[@]}"; do
  folder=$(fuzz_corpus_folder "$t")
  out="Fuzz/out/campaign/$t"
  rm -rf "$out"
  mkdir -p "$out/new" "$out/artifacts" "$out/base" "$out/merged" "Corpus/$folder/fuzzed"
  # The hand-kept inputs: what the merge counts as already there.
  base_dirs=()
  for d in seeds regressions dumps; do [ -d "Corpus/$folder/$d" ] && base_dirs+=("Corpus/$folder/$d"); done
  options=(-timeout="$timeout_s" -rss_limit_mb=512 -malloc_limit_mb=64)
  max_len=$(fuzz_max_len "$t")
  [ -n "$max_len" ] && options+=(-max_len="$max_len")
  dict=$(fuzz_dictionary "$t")
  [ -f "$dict" ] && options+=(-dict="$dict")
  export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=quarantine_size_mb=8:detect_leaks=1
  export TAPWIRE_FUZZ_MAX_MS
  TAPWIRE_FUZZ_MAX_MS=$(fuzz_max_ms "$t")

  # 1. Fuzz: new inputs land in $out/new; the existing corpus is read, not written.
  started=$(date +%s)
  rc=0
  timeout --kill-after=30 $((seconds + 120)) "$bin/$t" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 -max_total_time="$seconds" "${options[@]}" -artifact_prefix="$out/artifacts/" \
    "$out/new" "${base_dirs[@]}" "Corpus/$folder/fuzzed" >"$out/fuzz-log.txt" 2>&1 || rc=$?
  elapsed=$(($(date +%s) - started))
  # Fork mode's progress lines: "#<execs>: cov: N ft: N corp: N exec/s: N oom/timeout/crash: a/b/c ..."
  first=$(grep -E '^#[0-9]+: cov: ' "$out/fuzz-log.txt" | head -n 1 || true)
  last=$(grep -E '^#[0-9]+: cov: ' "$out/fuzz-log.txt" | tail -n 1 || true)
  execs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")
  cov0=$(field cov "$first") cov1=$(field cov "$last") ft0=$(field ft "$first") ft1=$(field ft "$last")
  findings=$(field oom/timeout/crash "$last")
  rate=$((${execs:-0} / (elapsed > 0 ? elapsed : 1)))

  # 2. Merge: everything fuzzed/ had plus what this run found, minimised against the
  # hand-kept inputs (copied into the output first, so the merge adds only inputs with
  # features they lack), then the additions become the new fuzzed/.
  for d in "${base_dirs[@]}"; do find "$d" -type f -exec cp -t "$out/base" {} +; done
  cp -a "$out/base/." "$out/merged/"
  timeout --kill-after=30 $((seconds + 600)) "$bin/$t" -merge=1 "${options[@]}" \
    -artifact_prefix="$out/artifacts/merge-" "$out/merged" "$out/new" "Corpus/$folder/fuzzed" \
    >"$out/merge-log.txt" 2>&1 || rc=$?
  rm -f "Corpus/$folder/fuzzed"/*
  comm -23 <(find "$out/merged" -type f -printf '%f\n' | sort) <(find "$out/base" -type f -printf '%f\n' | sort) |
    while read -r f; do
      cp "$out/merged/$f" "Corpus/$folder/fuzzed/$f"
    done

  # 3. Budget: drop the largest inputs until within it (the merge keeps the smallest input
  # for each feature, so the large ones are the least economical).
  read -r bytes files < <(folder_size "Corpus/$folder/fuzzed")
  while [ "$bytes" -gt "$budget_bytes" ] || [ "$files" -gt "$budget_files" ]; do
    largest=$(find "Corpus/$folder/fuzzed" -type f -printf '%s %p\n' | sort -n | tail -n 1 | cut -d' ' -f2-)
    rm -f "$largest"
    read -r bytes files < <(folder_size "Corpus/$folder/fuzzed")
  done

  artifacts=$(find "$out/artifacts" -type f | wc -l)
  if [ "$rc" -ne 0 ] || [ -z "$last" ]; then
    result="FAILED (exit $rc)"
    status=1
  elif [ "$artifacts" -gt 0 ]; then
    result="FINDINGS ($artifacts inputs in $out/artifacts)"
    status=1
  else
    result=ok
  fi
  line=$(printf '%-21s %6s %11s %8s %13s %13s %15s %9s %s' "$t" "$elapsed" "${execs:-?}" "$rate" \
    "${cov0:-?}/${cov1:-?}" "${ft0:-?}/${ft1:-?}" "$files/$((bytes / 1024))" "${findings:-?}" "$result")
  echo "$line"
  summary+=("$line")
  if [ "$result" != ok ]; then
    grep -E "ERROR|SUMMARY|oracle|slow input|Fatal error|CRASH|==[0-9]+==" "$out/fuzz-log.txt" | head -20 || true
  fi
done
check_budgets || status=1
exit $status
