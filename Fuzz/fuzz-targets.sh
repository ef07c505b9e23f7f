# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# Sourced by the fuzzing scripts (Fuzz/oss-fuzz/build.sh, Fuzz/run-campaign.sh, Fuzz/coverage.sh,
# Fuzz/oss-fuzz/check-build.sh): what each fuzz target is, read from the package rather than
# kept in a hand table, so a new target is picked up by every script.
#
#   fuzz_targets                 every executable target whose path is under Fuzz/ (from
#                                `swift package dump-package`), one a line
#   fuzz_corpus_folder TARGET    its folder under Corpus/ (the `corpus: ["..."]` argument of its
#                                fuzzMain call, Fuzz/<TARGET>/<TARGET>.swift)
#   fuzz_dictionary TARGET       Fuzz/Dictionaries/<folder>.dict
#   fuzz_max_len TARGET          libFuzzer -max_len when the default is not right, else empty
#   fuzz_max_ms TARGET           the per-input CPU-time bound (TAPWIRE_FUZZ_MAX_MS) in ms
#   fuzz_corpus_budget_kib       the size budget of one Corpus/<folder>/fuzzed/ (see below)
#
# Expects the current directory to be the package root.

fuzz_targets() {
  # dump-package prints JSON; python3 is in every image these scripts run in (OSS-Fuzz's
  # base-builder included), jq is not.
  swift package dump-package | python3 -c '
import json, sys
for t in json.load(sys.stdin)["targets"]:
    if t["type"] == "executable" and (t.get("path") or "").startswith("Fuzz/"):
        print(t["name"])'
}

fuzz_corpus_folder() {
  local source="Fuzz/$1/$1.swift" folder
  folder=$(sed -nE 's/.*corpus: \["([a-z0-9]+)"\].*/\1/p' "$source" | head -n 1)
  if [ -z "$folder" ]; then
    echo "fuzz-targets: no corpus: [\"...\"] in $source" >&2
    return 1
  fi
  echo "$folder"
}

fuzz_dictionary() {
  echo "Fuzz/Dictionaries/$(fuzz_corpus_folder "$1").dict"
}

# A reader-discovery input is a sequence of 4-byte steps: 32 steps cover every transition the
# engine has and keep each input inside the time bound under ASan; a reader-connection input is
# a step sequence too (the bounds Fuzz/run-fuzzers.sh has always used).
fuzz_max_len() {
  case "$1" in
    FuzzReaderDiscovery) echo 128 ;;
    FuzzReaderConnection) echo 192 ;;
    *) echo "" ;;
  esac
}

# FuzzTagImages decodes an image as every tag type, strict and lenient, scanned and validated;
# FuzzMifareClassic decodes a whole card, writes, locks and formats it (see Fuzz/run-fuzzers.sh);
# FuzzTrust checks a SUN URL under three MAC inputs, and in LRP mode (24-byte PICC data) each
# CMAC block costs 33 AES evaluations (AN12304 §2.3): a 1.4 KB URL took 15 ms under ASan.
fuzz_max_ms() {
  case "$1" in
    FuzzTagImages | FuzzMifareClassic | FuzzTrust) echo 30 ;;
    *) echo "${FUZZ_MAX_MS:-10}" ;;
  esac
}

# Corpus budget: what a campaign adds lives in Corpus/<folder>/fuzzed/, at most 256 KiB of
# file contents and 400 files per target (the seeds, regressions and dumps beside it are kept
# by hand and are not counted). Fuzz/run-campaign.sh trims to it (largest inputs first, since
# the merge keeps the smallest input for each feature) and `Fuzz/run-campaign.sh --check`
# fails when a folder is over it.
fuzz_corpus_budget_kib() { echo 256; }
fuzz_corpus_budget_files() { echo 400; }
