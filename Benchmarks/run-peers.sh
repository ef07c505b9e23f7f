#!/usr/bin/env bash
# Side-by-side: Tapwire's benchmarks and the peer libraries (nfcpy's ndeflib, Home
# Assistant's bluetooth-data-tools, from PyPI in a virtual environment under .build/) on the
# same inputs, in the same run; prints items/s for both and the ratio Tapwire/peer, and
# Tapwire's distance from the C header-walk limit reference.
#
#   Benchmarks/run-peers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/peers-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q ndeflib==0.3.3 bluetooth-data-tools
fi
swift build -c release --product TapwireBenchmarks >/dev/null
tapwire=$(.build/release/TapwireBenchmarks --json 2>/dev/null)
peers=$("$venv/bin/python" Benchmarks/peers/peers.py .)
python3 - "$tapwire" "$peers" <<'PY'
import json, sys
tapwire = {b["name"]: b for b in json.loads(sys.argv[1])}
peers = json.loads(sys.argv[2])
names = {"ndef.view.seeds": "ndeflib", "ndef.typed.uri-100-to-string": "ndeflib",
         "adv.parse.corpus": "bluetooth-data-tools"}
print(f"{'workload':32} {'peer':22} {'Tapwire items/s':>16} {'peer items/s':>14} {'ratio':>9}")
for name, peer in peers.items():
    ours = tapwire[name]["itemsPerSec"]
    print(f"{name:32} {names[name]:22} {ours:16,.0f} {peer:14,.0f} {ours / peer:8.0f}x")
limit = tapwire["ndef.limit.c-header-walk.mixed-corpus"]["itemsPerSec"]
for name in ["ndef.validate.mixed-corpus", "ndef.view.mixed-corpus"]:
    ours = tapwire[name]["itemsPerSec"]
    print(f"{name:32} {'C header walk (limit)':22} {ours:16,.0f} {limit:14,.0f} {limit / ours:8.2f}x slower")
for name, b in sorted(tapwire.items()):
    if b["allocsPerOp"] > 0 and (".view." in name or "decode" in name or "parse" in name or "walk" in name):
        print(f"note: {name} allocates {b['allocsPerOp']} times per operation")
PY
