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
max_ms=${FUZZ_MAX_MS:-10}
# Targets whose oracle does more work per byte get more: FuzzTagImages decodes an image as
# every tag type, strict and lenient, scanned and validated, and a 5 KiB image took 5.5 ms
# of CPU under ASan on an idle core and 10.0 ms with the other core busy (CI, 2026-12-07).
# FuzzMifareClassic decodes a whole card (up to 4 KiB) strict, lenient and scanned, then
# writes, locks and formats it and decodes each result again.
# FuzzTrust checks a SUN URL under three MAC inputs, and in LRP mode (24-byte PICC data) each
# CMAC block costs 33 AES evaluations (AN12304 §2.3): a 1.4 KB URL took 15 ms under ASan.
declare -A max_ms_for=( [FuzzTagImages]=30 [FuzzMifareClassic]=30 [FuzzTrust]=30 )
# libFuzzer's -timeout is wall time in whole seconds: only a hang detector here (the CPU-time
# bound above is the real one). Raise it for long campaigns on a busy machine, where a niced
# fuzzer can wait over a second for the CPU (seen: 0.2 ms inputs reported as timeouts).
timeout_s=${FUZZ_TIMEOUT_S:-1}
shift || true
all_targets=(FuzzNDEF FuzzNDEFRecordTypes FuzzCommandAPDU FuzzResponseAPDU FuzzBERTLV FuzzAPDUScript FuzzAdvertisingData FuzzHCIEvent FuzzBTSnoop FuzzTagImages FuzzMifareClassic FuzzType4Procedure FuzzReaderDiscovery FuzzPN532Frame FuzzAnswerToReset FuzzPCSCControl FuzzAdminSession FuzzReaderConnection FuzzSecureChannel FuzzStorageCard FuzzCAPFile FuzzTrust)
targets=("${@:-${all_targets[@]}}")
# Each target's corpus folders under Corpus/ and its dictionary.
declare -A corpus=( [FuzzNDEF]="ndef" [FuzzNDEFRecordTypes]="ndefrecord" [FuzzCommandAPDU]="capdu" [FuzzResponseAPDU]="rapdu"
  [FuzzBERTLV]="bertlv" [FuzzAPDUScript]="apduscript" [FuzzAdvertisingData]="adv" [FuzzHCIEvent]="hci"
  [FuzzBTSnoop]="btsnoop" [FuzzTagImages]="tags" [FuzzMifareClassic]="mfc" [FuzzType4Procedure]="type4" [FuzzReaderDiscovery]="discovery" [FuzzPN532Frame]="pn532" [FuzzAnswerToReset]="atr" [FuzzPCSCControl]="pcsccontrol" [FuzzAdminSession]="admin" [FuzzReaderConnection]="connection" [FuzzSecureChannel]="securechannel" [FuzzStorageCard]="storagecard" [FuzzCAPFile]="cap" [FuzzTrust]="trust" )
declare -A dictionary=( [FuzzNDEF]="ndef" [FuzzNDEFRecordTypes]="ndef" [FuzzCommandAPDU]="capdu" [FuzzResponseAPDU]="rapdu"
  [FuzzBERTLV]="bertlv" [FuzzAPDUScript]="apduscript" [FuzzAdvertisingData]="adv" [FuzzHCIEvent]="hci"
  [FuzzBTSnoop]="btsnoop" [FuzzTagImages]="tags" [FuzzMifareClassic]="mfc" [FuzzType4Procedure]="type4" [FuzzReaderDiscovery]="discovery" [FuzzPN532Frame]="pn532" [FuzzAnswerToReset]="atr" [FuzzPCSCControl]="pcsccontrol" [FuzzAdminSession]="admin" [FuzzReaderConnection]="connection" [FuzzSecureChannel]="securechannel" [FuzzStorageCard]="storagecard" [FuzzCAPFile]="cap" [FuzzTrust]="trust" )

# Longest input per target where the default (libFuzzer's: the largest seed, at least 4096)
# is not right: a reader-discovery input is a sequence of 4-byte steps, and 32 steps cover
# every transition the engine has while keeping each input inside the time bound under ASan.
declare -A max_len=( [FuzzReaderDiscovery]=128 [FuzzReaderConnection]=192 )

scratch=.build/fuzz
mkdir -p .build  # the build logs go beside the scratch folder, also on a fresh clone
products=()
for t in "${targets[@]}"; do products+=(--product "$t"); done
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
status=0
printf '%-16s %10s %12s %8s %8s %s\n' target "exec/s" execs cov ft result
for t in "${targets[@]}"; do
  out="Fuzz/out/$t"
  rm -rf "$out"
  mkdir -p "$out/corpus" "$out/artifacts"
  seeds=()
  for c in ${corpus[$t]}; do
    for d in Corpus/$c/seeds Corpus/$c/regressions; do [ -d "$d" ] && seeds+=("$d"); done
  done
  limits=()
  [ -n "${max_len[$t]:-}" ] && limits=(-max_len="${max_len[$t]}")
  dict=()
  [ -f "Fuzz/Dictionaries/${dictionary[$t]}.dict" ] && dict=(-dict="Fuzz/Dictionaries/${dictionary[$t]}.dict")
  # ASan's quarantine is kept small so -rss_limit_mb measures the target, not the sanitizer.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=quarantine_size_mb=8:detect_leaks=1 TAPWIRE_FUZZ_MAX_MS="${max_ms_for[$t]:-$max_ms}" \
    "$bin/$t" -max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb=256 -malloc_limit_mb=64 \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/" "${dict[@]}" "${limits[@]}" \
    "$out/corpus" "${seeds[@]}" >"$out/log.txt" 2>&1
  rc=$?
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$out/log.txt" | tail -1)
  execs=$(grep -E 'stat::number_of_executed_units' "$out/log.txt" | awk '{print $2}')
  rate=$(grep -E 'stat::average_exec_per_sec' "$out/log.txt" | awk '{print $2}')
  cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$done_line")
  ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$done_line")
  if [ $rc -eq 0 ] && [ -n "$done_line" ]; then result=ok; else result="FAILED (exit $rc)"; status=1; fi
  printf '%-16s %10s %12s %8s %8s %s\n' "$t" "${rate:-?}" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$result"
  if [ "$result" != ok ]; then
    grep -E "ERROR|SUMMARY|oracle|slow input|Fatal error|==[0-9]+==" "$out/log.txt" | head -20
    for a in "$out"/artifacts/*; do
      [ -f "$a" ] || continue
      echo "input $a:"; xxd "$a" | head -20
    done
  fi
done
exit $status
