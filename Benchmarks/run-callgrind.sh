#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Instructions per item, counted: the NDEF and advertising-data workloads over the shared
# field-shaped corpora (Benchmarks/data) run under valgrind's callgrind, each counting only
# its measured pass (`--toggle-collect` on the pass functions, NDEFBenchmarks.cWalkPass,
# validatePass, viewPass, checkedPass and BLEBenchmarks.adCWalkPass, adCheckedPass,
# adParsePass: setup, calibration and the harness are not counted), printed per NDEF record /
# AD structure beside the C walks' counts and beside the wall-clock ratio of the same
# workloads measured natively (interleaved rounds, one run). Instruction counts do not move
# with the machine's load; wall clock does.
#
# Two C references: the walk in the benchmark binary (Benchmarks/CNDEFLimit, compiled by
# SwiftPM's clang, the one the wall-clock ratios are taken against) and the same C source
# compiled by gcc -O2 on its own (Benchmarks/limit-driver/walk-driver.c), which executes
# about a fifth fewer instructions.
#
# The release binary is built as usual and a copy stripped of its debug info (valgrind's
# reader chokes on Swift's DWARF; the symbol table stays, so the passes are found by name).
# Each workload runs alone (`--filter NAME --samples 1 --iterations ITERATIONS`: the pass runs
# ITERATIONS times in the timed sample and ITERATIONS times in the allocation count).
#
#   Benchmarks/run-callgrind.sh            ITERATIONS=20 SAMPLES=31 Benchmarks/run-callgrind.sh
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${ITERATIONS:-10}
samples=${SAMPLES:-21}
command -v valgrind >/dev/null || { echo "valgrind missing: apt-get install -y valgrind" >&2; exit 1; }
swift build -c release --product TapwireBenchmarks >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
objcopy --strip-debug .build/release/TapwireBenchmarks "$out/TapwireBenchmarks"
binary="$out/TapwireBenchmarks"
gcc -O2 -I Benchmarks/CNDEFLimit/include -o "$out/walk-driver" Benchmarks/limit-driver/walk-driver.c \
  Benchmarks/CNDEFLimit/NDEFLimit.c

# Wall clock first, natively, every workload of both corpora interleaved in one run.
"$binary" --json --samples "$samples" --filter shared-field 2>/dev/null >"$out/wall.json"

workloads=(
  "ndef.limit.c-header-walk.shared-field"
  "ndef.validate.shared-field"
  "ndef.view.shared-field"
  "ndef.checked.shared-field"
  "adv.limit.c-ad-walk.shared-field"
  "adv.checked.shared-field"
  "adv.parse.shared-field"
)
for name in "${workloads[@]}"; do
  # Every pass function's name ends in `Pass` (the optimizer merges some into one body, so
  # the pattern names them all; only the filtered workload runs).
  timeout 1200 valgrind --tool=callgrind --callgrind-out-file="$out/$name.callgrind" \
    --toggle-collect='$s17TapwireBenchmarks*Benchmarks*Pass*' \
    "$binary" --filter "$name" --iterations "$iterations" --samples 1 >/dev/null 2>"$out/$name.log" \
    || { cat "$out/$name.log" >&2; exit 1; }
done
for kind in ndef ad; do
  file=$([ "$kind" = ndef ] && echo ndef-field-mixed.hex || echo ble-field-all.hex)
  timeout 600 valgrind --tool=callgrind --callgrind-out-file="$out/gcc-$kind.callgrind" --toggle-collect=walk_pass \
    "$out/walk-driver" "$kind" "Benchmarks/data/$file" "$((2 * iterations))" >/dev/null 2>"$out/gcc-$kind.log" \
    || { cat "$out/gcc-$kind.log" >&2; exit 1; }
done

python3 - "$out" "$iterations" "$(uptime)" "${workloads[@]}" <<'PY'
import json, sys
folder, iterations, load, names = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
wall = {b["name"]: b for b in json.load(open(f"{folder}/wall.json"))}
passes = 2 * iterations  # the timed sample and the allocation count
def instructions(file):
    for line in open(f"{folder}/{file}.callgrind"):
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise SystemExit(f"no instruction total in {file}")
print(f"Instructions per item (callgrind, the measured pass only, {passes} passes); wall-clock time ratio to "
      f"the C walk in the same binary (native, median of {wall[names[0]]['samples']} interleaved per-round "
      f"ratios; load:{load.split('load average:')[-1]})")
print(f"{'workload':40} {'items/pass':>10} {'instr/item':>10} {'vs C walk':>10} {'vs gcc -O2':>10} "
      f"{'wall vs C':>10} {'allocs/op':>9}")
for name in names:
    items = wall[name]["itemsPerOp"]
    per_item = instructions(name) / (passes * items)
    if ".limit." in name:
        reference = per_item
        kind = "ndef" if name.startswith("ndef.") else "ad"
        gcc = instructions(f"gcc-{kind}") / (passes * items)
    ratio = wall[name].get("ratioToReference")
    print(f"{name:40} {items:10d} {per_item:10.1f} {per_item / reference:9.2f}x {per_item / gcc:9.2f}x "
          f"{(f'{ratio:.2f}x' if ratio else '1x'):>10} {wall[name]['allocsPerOp']:9.2f}")
    if ".limit." in name:
        print(f"{'  the same C walk, gcc -O2, alone':40} {items:10d} {gcc:10.1f} {gcc / reference:9.2f}x "
              f"{1:9.2f}x {'-':>10} {'-':>9}")
print("items: NDEF logical records (a chunk sequence counts once; the C walk, which counts every chunk, is "
      "divided by the same number), AD structures")
PY
