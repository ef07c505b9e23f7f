#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Side-by-side: Tapwire and the peer libraries (nfcpy's ndeflib, Home Assistant's
# bluetooth-data-tools, from PyPI in a virtual environment under .build/) on the same inputs,
# then Tapwire's distance from the C header-walk limit reference.
#
# Peers: Benchmarks/peers/peers.py drives `TapwireBenchmarks --serve` and the peer in one
# loop, one ~20 ms sample of each per workload and round (ROUNDS, default 101), and reports
# the median of the per-round ratios with the 10th-90th percentile range: the two sides of
# each ratio are measured milliseconds apart, so a machine that changes speed between
# seconds (this VM does, by up to 1.7x) moves both alike. Limit: the strict decoders and
# the C walk sampled in interleaved rounds inside TapwireBenchmarks, RUNS runs (default 5).
#
# Then Benchmarks/run-downstream.sh (RUNS runs): the same distance measured from a separate
# package that depends on Tapwire by path, as users build it.
#
#   Benchmarks/run-peers.sh            ROUNDS=301 RUNS=9 Benchmarks/run-peers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-101}
runs=${RUNS:-5}
venv=.build/peers-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q ndeflib==0.3.3 bluetooth-data-tools
fi
swift build -c release --product TapwireBenchmarks >/dev/null
binary=.build/release/TapwireBenchmarks
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir "$out/mixed"
"$binary" --write-mixed-corpus "$out/mixed"
"$venv/bin/python" Benchmarks/peers/peers.py . "$binary" "$rounds" "$out/mixed" >"$out/peers.json"
for run in $(seq "$runs"); do
  "$binary" --json --filter .mixed-corpus 2>/dev/null >"$out/limit-$run.json"
done
python3 - "$out" "$runs" <<'PY'
import json, statistics, sys
folder, runs = sys.argv[1], int(sys.argv[2])
peers = json.load(open(f"{folder}/peers.json"))
print(f"Tapwire/peer: items/s are medians (each side counting its own items); the ratio is of the time per "
      f"pass over the same input, the median of {next(iter(peers.values()))['rounds']} per-round ratios "
      "[10th-90th percentile]")
print(f"{'workload':32} {'peer':22} {'Tapwire items/s':>16} {'peer items/s':>14} {'ratio':>9}  range")
for name, r in peers.items():
    print(f"{name:32} {r['peer']:22} {r['tapwireItemsPerSec']:16,.0f} {r['peerItemsPerSec']:14,.0f}"
          f" {r['ratio']:8.1f}x  [{r['ratioP10']:.1f}-{r['ratioP90']:.1f}]")
tapwire = [{b["name"]: b for b in json.load(open(f"{folder}/limit-{r}.json"))} for r in range(1, runs + 1)]
print()
print(f"Distance from the C header walk: time ratio, median of the {runs} runs' interleaved medians [min-max]")
walk = "ndef.limit.c-header-walk.mixed-corpus"
limit = [t[walk]["itemsPerSec"] for t in tapwire]
for name in ["ndef.validate.mixed-corpus", "ndef.checked.mixed-corpus", "ndef.view.mixed-corpus"]:
    ours = [t[name]["itemsPerSec"] for t in tapwire]
    ratios = [t[name]["ratioToReference"] for t in tapwire]
    print(f"{name:32} {'C header walk (limit)':22} {statistics.median(ours):16,.0f} {statistics.median(limit):14,.0f}"
          f" {statistics.median(ratios):8.2f}x slower  [{min(ratios):.2f}-{max(ratios):.2f}]")
PY
echo
RUNS=$runs Benchmarks/run-downstream.sh
