#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times Tapwire and the peer libraries on the same inputs, interleaved, and prints JSON.

usage: peers.py ROOT TAPWIRE_BENCHMARKS_BINARY [ROUNDS [MIXED_CORPUS_DIR]]

The peers: ndeflib (nfcpy) decoding the messages of Corpus/ndef/seeds (records/s) and
turning the URI records of uri-100-records.ndef into strings, and decoding the mixed corpus
that `TapwireBenchmarks --write-mixed-corpus DIR` wrote; bluetooth-data-tools' compiled,
uncached AD parser over Corpus/adv/seeds (the public entry point caches results, which
would time a dict lookup). Tapwire runs the workloads of the same names in
`TapwireBenchmarks --serve`. Each round takes one ~20 ms sample of Tapwire and one of the
peer per workload, back to back (the order alternating between rounds), so both sides of a
ratio see the same machine; the ratio reported is the median of the per-round ratios.
Called by run-peers.sh; not used by the tests.
"""
import glob, json, os, statistics, subprocess, sys, time
import ndef
from bluetooth_data_tools import gap

root = sys.argv[1]
binary = sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 101
# The mixed NDEF corpus, written by `TapwireBenchmarks --write-mixed-corpus DIR`.
mixed_folder = sys.argv[4] if len(sys.argv) > 4 else None
sample_seconds = 0.02


def files(pattern, folder=root):
    return [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(folder, pattern)))]


def record_count(messages):
    return sum(len(list(ndef.message_decoder(m))) for m in messages)


def decoder(messages):
    """ndeflib decoding every record of `messages`."""

    def decode():
        for m in messages:
            for _ in ndef.message_decoder(m):
                pass

    return decode


seeds = files("Corpus/ndef/seeds/*.ndef")
hundred = open(os.path.join(root, "Corpus/ndef/seeds/uri-100-records.ndef"), "rb").read()


def uri_strings():
    for record in ndef.message_decoder(hundred):
        record.iri


mixed = files("*.ndef", mixed_folder) if mixed_folder else []

adv = files("Corpus/adv/seeds/*.bin")


def parse_adv():
    for data in adv:
        gap._uncached_parse_advertisement_bytes(data)


# (Tapwire workload, peer name, peer function, items per call)
workloads = [
    ("ndef.view.seeds", "ndeflib", decoder(seeds), record_count(seeds)),
    ("ndef.typed.uri-100-to-string", "ndeflib", uri_strings, 100),
    ("adv.parse.corpus", "bluetooth-data-tools", parse_adv, len(adv)),
] + [
    # ndeflib yields every record; Tapwire's validation alone, its single-pass checked
    # iterator and its validated view (records handed out), on the same messages.
    (name, "ndeflib", decoder(mixed), record_count(mixed))
    for name in ["ndef.validate.mixed-corpus", "ndef.checked.mixed-corpus", "ndef.view.mixed-corpus"]
    if mixed
]

tapwire = subprocess.Popen(
    [binary, "--serve", "--filter", ",".join(w[0] for w in workloads)],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def tapwire_sample(name, iterations):
    """Seconds per operation and items per operation of one Tapwire sample."""
    tapwire.stdin.write(f"{name} {iterations}\n")
    tapwire.stdin.flush()
    answer = tapwire.stdout.readline().split()
    if len(answer) != 3 or answer[0] == "error:":
        sys.exit(f"TapwireBenchmarks --serve: {' '.join(answer) or 'no answer'}")
    return float(answer[0]) * 1e-9, int(answer[1])


def peer_sample(function, calls):
    """Seconds per call of one peer sample."""
    start = time.perf_counter()
    for _ in range(calls):
        function()
    return (time.perf_counter() - start) / calls


def calibrate(sample):
    """The count for which `count` operations take about sample_seconds, after a warm-up;
    sample(count) returns the seconds per operation."""
    count = 1
    while True:
        elapsed = sample(count) * count
        if elapsed > sample_seconds / 4:
            return max(1, round(count * sample_seconds / elapsed))
        count *= 4


results = {}
for name, peer, function, items in workloads:
    ours_count = calibrate(lambda n: tapwire_sample(name, n)[0])
    theirs_count = calibrate(lambda n: peer_sample(function, n))
    ours_items = tapwire_sample(name, 1)[1]
    ours, theirs, ratios = [], [], []
    for index in range(rounds):
        # Seconds per pass over the same input, Tapwire (a) and the peer (b): the ratio
        # compares the same work even where the two count items differently (Tapwire
        # counts a chunked record once, ndeflib each chunk).
        if index % 2 == 0:
            a = tapwire_sample(name, ours_count)[0]
            b = peer_sample(function, theirs_count)
        else:
            b = peer_sample(function, theirs_count)
            a = tapwire_sample(name, ours_count)[0]
        ours.append(ours_items / a)
        theirs.append(items / b)
        ratios.append(b / a)
    ratios.sort()
    results[name] = {
        "peer": peer, "rounds": rounds,
        "tapwireItemsPerSec": statistics.median(ours), "peerItemsPerSec": statistics.median(theirs),
        "ratio": statistics.median(ratios),
        "ratioP10": ratios[len(ratios) // 10], "ratioP90": ratios[len(ratios) * 9 // 10],
        "ratioMin": ratios[0], "ratioMax": ratios[-1],
    }
tapwire.stdin.close()
tapwire.wait()
print(json.dumps(results))
