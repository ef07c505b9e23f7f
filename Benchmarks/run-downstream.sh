#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Tapwire's distance from the C header-walk limit as users get it: the NDEF workloads built in
# a separate package that depends on Tapwire by path (Benchmarks/Downstream, release), beside
# the same workloads inside the root package (TapwireBenchmarks). Each run samples the strict
# decoders and the C walk in interleaved rounds (SAMPLES rounds, default 21) and reports the
# median of the per-round time ratios; RUNS runs (default 5) alternate the two binaries, and
# the table shows the median of the runs' ratios with the lowest and highest run.
# Not run in CI (minutes of release builds and sampling). Run from anywhere:
#
#   Benchmarks/run-downstream.sh            RUNS=9 SAMPLES=41 Benchmarks/run-downstream.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
samples=${SAMPLES:-21}
swift build -c release --product TapwireBenchmarks >/dev/null
swift build -c release --package-path Benchmarks/Downstream >/dev/null
inside=.build/release/TapwireBenchmarks
downstream=Benchmarks/Downstream/.build/release/DownstreamBenchmarks
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for run in $(seq "$runs"); do
  "$inside" --json --samples "$samples" --filter .mixed-corpus,uri-100-into-buffer 2>/dev/null >"$out/inside-$run.json"
  "$downstream" --json --samples "$samples" --filter .mixed-corpus,uri-100-into-buffer 2>/dev/null \
    >"$out/downstream-$run.json"
done
python3 - "$out" "$runs" "$samples" <<'PY'
import json, statistics, sys
folder, runs, samples = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def load(side):
    return [{b["name"]: b for b in json.load(open(f"{folder}/{side}-{r}.json"))} for r in range(1, runs + 1)]
sides = {"TapwireBenchmarks": load("inside"), "Downstream": load("downstream")}
targets = {"ndef.validate.mixed-corpus": None, "ndef.checked.mixed-corpus": 2.0, "ndef.view.mixed-corpus": 3.0}
print(f"Distance from the C header walk: time ratio, median of {runs} runs (each the median of {samples} "
      "per-round ratios) [lowest-highest run]")
print(f"{'workload':28} {'package':18} {'items/s':>13} {'C walk items/s':>15} {'ratio':>7}  range        target")
walk = "ndef.limit.c-header-walk.mixed-corpus"
for name, target in targets.items():
    for side, results in sides.items():
        ours = statistics.median(r[name]["itemsPerSec"] for r in results)
        limit = statistics.median(r[walk]["itemsPerSec"] for r in results)
        ratios = [r[name]["ratioToReference"] for r in results]
        ratio = statistics.median(ratios)
        verdict = "-" if target is None else f"{target:.0f}x {'met' if ratio <= target else 'NOT met'}"
        print(f"{name:28} {side:18} {ours:13,.0f} {limit:15,.0f} {ratio:6.2f}x  "
              f"[{min(ratios):.2f}-{max(ratios):.2f}]  {verdict}")
print()
print("Allocations per operation (counted by the interposed malloc counter over one extra sample)")
for side, results in sides.items():
    for name in [walk, *targets, "ndef.typed.uri-100-into-buffer"]:
        print(f"{name:40} {side:18} {max(r[name]['allocsPerOp'] for r in results):.2f}")
PY
