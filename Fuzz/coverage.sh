#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Line coverage of the fuzzed code by the checked-in corpora: builds every fuzz target (or the
# ones named) as OSS-Fuzz's coverage build does (Fuzz/oss-fuzz/build.sh with
# SANITIZER=coverage: -profile-generate -profile-coverage-mapping -sanitize=fuzzer), replays
# all of Corpus/<folder>/ through each once (-runs=0), merges the profiles with llvm-profdata
# and prints, with llvm-cov, the line coverage of each module under Sources/ and the files
# with the lowest coverage. The toolchain's own llvm-cov and llvm-profdata are used (next to
# swiftc; the Debian ones are too old for its profiles).
#
#   Fuzz/coverage.sh [TARGET...]
# COVERAGE_LOWEST (default 15) is how many files the lowest-coverage list shows;
# COVERAGE_SUBFOLDERS="seeds regressions dumps" replays only those subfolders of each
# Corpus/<folder>/ (for example, to see what the campaigns' fuzzed/ adds). The report
# and the merged profile stay in .build/fuzz-coverage/ (report.txt, merged.profdata); for an
# HTML report: llvm-cov show -format=html -output-dir=... with the same arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# shellcheck source=Fuzz/fuzz-targets.sh
. Fuzz/fuzz-targets.sh
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(fuzz_targets); fi
lowest=${COVERAGE_LOWEST:-15}
tools=$(dirname "$(command -v swiftc)")
dir="$root/.build/fuzz-coverage"
rm -rf "$dir/out" "$dir/profiles"
mkdir -p "$dir/out" "$dir/profiles"

started=$(date +%s)
if ! SANITIZER=coverage OUT="$dir/out" WORK="$dir/work" timeout 3600 Fuzz/oss-fuzz/build.sh "${targets[@]}" \
  >"$dir/build-log.txt" 2>&1; then
  grep -E "error|build.sh:" "$dir/build-log.txt" | head -20
  echo "coverage: build failed (log: $dir/build-log.txt)"
  exit 1
fi
echo "coverage: built ${#targets[@]} targets in $(($(date +%s) - started)) s"

objects=()
for t in "${targets[@]}"; do
  folder=$(fuzz_corpus_folder "$t")
  inputs=("Corpus/$folder")
  if [ -n "${COVERAGE_SUBFOLDERS:-}" ]; then
    inputs=()
    for sub in $COVERAGE_SUBFOLDERS; do [ -d "Corpus/$folder/$sub" ] && inputs+=("Corpus/$folder/$sub"); done
  fi
  rc=0
  SWIFT_BACKTRACE=enable=no LLVM_PROFILE_FILE="$dir/profiles/$t.profraw" timeout 900 "$dir/out/$t" -runs=0 \
    -rss_limit_mb=2560 "${inputs[@]}" >"$dir/profiles/$t.log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "coverage: $t exited $rc replaying Corpus/$folder (log: $dir/profiles/$t.log)"
    exit 1
  fi
  objects+=(-object "$dir/out/$t")
done
"$tools/llvm-profdata" merge -sparse "$dir"/profiles/*.profraw -o "$dir/merged.profdata"

# Only the library code under Sources/ counts (not the fuzz harness, not SwiftPM's folders).
"$tools/llvm-cov" export -summary-only -instr-profile "$dir/merged.profdata" "${objects[@]:1}" \
  -ignore-filename-regex='(/Fuzz/|/\.build/|/Tests/)' >"$dir/summary.json"
python3 - "$dir/summary.json" "$root/Sources/" "$lowest" <<'PY' | tee "$dir/report.txt"
import json, sys
summary, sources, lowest = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = [f for f in json.load(open(summary))["data"][0]["files"] if f["filename"].startswith(sources)]
modules = {}
rows = []
for f in files:
    rel = f["filename"][len(sources):]
    module = rel.split("/")[0]
    lines = f["summary"]["lines"]
    m = modules.setdefault(module, [0, 0, 0])
    m[0] += lines["covered"]; m[1] += lines["count"]; m[2] += 1
    rows.append((lines["percent"], lines["count"] - lines["covered"], rel, lines["covered"], lines["count"]))
total = [sum(m[0] for m in modules.values()), sum(m[1] for m in modules.values())]
print(f"{'module':<20} {'files':>5} {'lines':>7} {'covered':>8} {'line cov':>9}")
for name, (covered, count, n) in sorted(modules.items()):
    print(f"{name:<20} {n:>5} {count:>7} {covered:>8} {100.0 * covered / max(count, 1):>8.1f}%")
print(f"{'all':<20} {len(rows):>5} {total[1]:>7} {total[0]:>8} {100.0 * total[0] / max(total[1], 1):>8.1f}%")
print()
print(f"lowest line coverage (files with at least 20 lines), {lowest} files:")
print(f"{'line cov':>9} {'missed':>7}  file")
for percent, missed, rel, covered, count in sorted(r for r in rows if r[4] >= 20)[:lowest]:
    print(f"{percent:>8.1f}% {missed:>7}  Sources/{rel}")
PY
