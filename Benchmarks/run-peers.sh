#!/usr/bin/env bash
# Side-by-side: Tapwire's benchmarks and the peer libraries (nfcpy's ndeflib, Home
# Assistant's bluetooth-data-tools, from PyPI in a virtual environment under .build/) on the
# same inputs; prints items/s for both, the ratio Tapwire/peer, and Tapwire's distance from
# the C header-walk limit reference. Tapwire and the peers run alternately for ROUNDS rounds
# (default 3); each ratio is the median of the per-round ratios, with their range, so a
# busy machine moves both sides of a ratio alike.
#
#   Benchmarks/run-peers.sh            ROUNDS=5 Benchmarks/run-peers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
venv=.build/peers-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q ndeflib==0.3.3 bluetooth-data-tools
fi
swift build -c release --product TapwireBenchmarks >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for round in $(seq "$rounds"); do
  .build/release/TapwireBenchmarks --json 2>/dev/null >"$out/tapwire-$round.json"
  "$venv/bin/python" Benchmarks/peers/peers.py . >"$out/peers-$round.json"
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
folder, rounds = sys.argv[1], int(sys.argv[2])
tapwire = [{b["name"]: b for b in json.load(open(f"{folder}/tapwire-{r}.json"))} for r in range(1, rounds + 1)]
peers = [json.load(open(f"{folder}/peers-{r}.json")) for r in range(1, rounds + 1)]
names = {"ndef.view.seeds": "ndeflib", "ndef.typed.uri-100-to-string": "ndeflib",
         "adv.parse.corpus": "bluetooth-data-tools"}
print(f"{rounds} rounds; items/s are medians over the rounds, the ratio is the median of the per-round ratios [min-max]")
print(f"{'workload':32} {'peer':22} {'Tapwire items/s':>16} {'peer items/s':>14} {'ratio':>9}  range")
for name in peers[0]:
    ours = [t[name]["itemsPerSec"] for t in tapwire]
    theirs = [p[name] for p in peers]
    ratios = [a / b for a, b in zip(ours, theirs)]
    print(f"{name:32} {names[name]:22} {statistics.median(ours):16,.0f} {statistics.median(theirs):14,.0f}"
          f" {statistics.median(ratios):8.0f}x  [{min(ratios):.0f}-{max(ratios):.0f}]")
# The distance from the limit: each run measures the strict decoders and the C walk in
# interleaved rounds and prints the median per-round ratio (ratioToReference); the range
# here is over the runs.
for name in ["ndef.validate.mixed-corpus", "ndef.checked.mixed-corpus", "ndef.view.mixed-corpus"]:
    limit = [t["ndef.limit.c-header-walk.mixed-corpus"]["itemsPerSec"] for t in tapwire]
    ours = [t[name]["itemsPerSec"] for t in tapwire]
    ratios = [t[name].get("ratioToReference", l / o) for t, l, o in zip(tapwire, limit, ours)]
    print(f"{name:32} {'C header walk (limit)':22} {statistics.median(ours):16,.0f} {statistics.median(limit):14,.0f}"
          f" {statistics.median(ratios):8.2f}x slower  [{min(ratios):.2f}-{max(ratios):.2f}]")
for name, b in sorted(tapwire[-1].items()):
    if b["allocsPerOp"] > 0 and (".view" in name or "decode" in name or "parse" in name or "walk" in name):
        print(f"note: {name} allocates {b['allocsPerOp']} times per operation")
PY
