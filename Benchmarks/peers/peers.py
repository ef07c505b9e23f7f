#!/usr/bin/env python3
"""Times the peer libraries on the same inputs as Tapwire's benchmarks and prints JSON.

ndeflib (nfcpy): message decode (records/s) over Corpus/ndef/seeds, and URI records to
strings over uri-100-records.ndef. bluetooth-data-tools: its compiled, uncached AD parser
over Corpus/adv/seeds (the public entry point caches results, which would time a dict
lookup). Called by run-peers.sh; not used by the tests.
"""
import glob, json, os, statistics, sys, time
import ndef
from bluetooth_data_tools import gap

root = sys.argv[1] if len(sys.argv) > 1 else "."

def files(pattern):
    return [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(root, pattern)))]

def rate(function, items, samples=11, seconds=0.02):
    """Items per second of function() (which processes `items` items): the median of
    `samples` samples of about `seconds` each after a warm-up, as Tapwire's harness does."""
    function()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        function()
        count += 1
    per_sample = max(1, count)
    rates = []
    for _ in range(samples):
        start = time.perf_counter()
        for _ in range(per_sample):
            function()
        rates.append(per_sample * items / (time.perf_counter() - start))
    return statistics.median(rates)

seeds = files("Corpus/ndef/seeds/*.ndef")
seed_records = sum(len(list(ndef.message_decoder(m))) for m in seeds)
def decode_seeds():
    for m in seeds:
        for _ in ndef.message_decoder(m):
            pass

hundred = open(os.path.join(root, "Corpus/ndef/seeds/uri-100-records.ndef"), "rb").read()
def uri_strings():
    for record in ndef.message_decoder(hundred):
        record.iri

adv = files("Corpus/adv/seeds/*.bin")
def parse_adv():
    for data in adv:
        gap._uncached_parse_advertisement_bytes(data)

print(json.dumps({
    "ndef.view.seeds": rate(decode_seeds, seed_records),
    "ndef.typed.uri-100-to-string": rate(uri_strings, 100),
    "adv.parse.corpus": rate(parse_adv, len(adv)),
}))
