#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Instructions per item, counted: the NDEF and advertising-data workloads over the shared
# field-shaped corpora (Benchmarks/data) run under valgrind's callgrind, each counting only
# its measured pass (`--toggle-collect` on the pass function: NDEFBenchmarks.cWalkPass,
# validatePass, ... BLEBenchmarks.adCWalkPass, ...; setup, calibration and the harness are
# not counted), printed per NDEF record / AD structure beside the C walk's count and beside
# the wall-clock ratio of the same workloads measured natively (interleaved rounds, in one
# run). Instruction counts do not move with the machine's load; wall clock does.
#
# The release binary is built as usual and a copy stripped of its debug info (valgrind's
# reader chokes on Swift's DWARF; the symbol table stays, so the passes are found by name).
# Each workload runs alone (`--filter NAME`), its pass ITERATIONS times in each of the
# harness's 1 + 1 samples (one timed, one counting allocations).
#
#   Benchmarks/run-callgrind.sh            ITERATIONS=20 SAMPLES=21 Benchmarks/run-callgrind.sh
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${ITERATIONS:-10}
samples=${SAMPLES:-15}
command -v valgrind >/dev/null || { echo "valgrind missing: apt-get install -y valgrind" >&2; exit 1; }
swift build -c release --product TapwireBenchmarks >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
objcopy --strip-debug .build/release/TapwireBenchmarks "$out/TapwireBenchmarks"
binary="$out/TapwireBenchmarks"

# Wall clock first, natively, every workload of both corpora interleaved in one run.
"$binary" --json --samples "$samples" --filter shared-field 2>/dev/null >"$out/wall.json"

# (workload, reference, item): the reference is the C walk the ratio is taken against.
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
  # Every pass function's name ends in `Pass` (some are merged into one body by the
  # optimizer, so the pattern names them all; only the filtered workload runs).
  timeout 1200 valgrind --tool=callgrind --callgrind-out-file="$out/$name.callgrind" \
    --toggle-collect='$s17TapwireBenchmarks*Benchmarks*Pass*' \
    "$binary" --filter "$name" --iterations "$iterations" --samples 1 >/dev/null 2>"$out/$name.log" \
    || { cat "$out/$name.log" >&2; exit 1; }
done

python3 - "$out" "$iterations" "${workloads[@]}" <<'PY'
import json, sys
folder, iterations, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
wall = {b["name"]: b for b in json.load(open(f"{folder}/wall.json"))}
passes = 2 * iterations  # one timed sample and one allocation-counting run
def instructions(name):
    for line in open(f"{folder}/{name}.callgrind"):
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"no instruction total for {name}")
print(f"Instructions per item (callgrind, the measured pass only, {passes} passes) and wall-clock time ratio "
      f"to the C walk (native, median of {wall[names[0]]['samples']} interleaved per-round ratios)")
print(f"{'workload':40} {'items/pass':>10} {'instr/item':>11} {'vs C walk':>10} {'wall vs C':>10} {'allocs/op':>10}")
reference = None
for name in names:
    items = wall[name]["itemsPerOp"]
    per_item = instructions(name) / (passes * items)
    if ".limit." in name:
        reference = per_item
    ratio = wall[name].get("ratioToReference")
    print(f"{name:40} {items:10d} {per_item:11.1f} {per_item / reference:9.2f}x "
          f"{(f'{ratio:.2f}x' if ratio else '1x'):>10} {wall[name]['allocsPerOp']:10.2f}")
print("items: NDEF logical records (a chunk sequence counts once; the C walk counts every chunk but is "
      "divided by the same number), AD structures")
PY
