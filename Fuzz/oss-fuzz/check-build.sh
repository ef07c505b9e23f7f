#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks Fuzz/oss-fuzz/build.sh the way OSS-Fuzz and ClusterFuzzLite run it, without their
# images: for each sanitizer, runs it with the environment their `compile` step gives build.sh
# (SRC holding the checkout as $SRC/tapwire, OUT, WORK, SANITIZER, FUZZING_ENGINE=libfuzzer,
# ARCHITECTURE, and CFLAGS/CXXFLAGS assembled as google/oss-fuzz's
# infra/base-images/base-clang/Dockerfile, base-builder/Dockerfile and base-builder/compile
# do) into temporary folders, then checks $OUT:
#   - every fuzz target of the package is there, executable, named as ClusterFuzz accepts
#     (^[a-zA-Z0-9_-]+$), with <target>_seed_corpus.zip, <target>.dict and <target>.options
#     (whose dict line names that dictionary);
#   - no Swift runtime or zlib shared library is needed at run time (the runner has neither);
#   - the address build is instrumented as OSS-Fuzz's bad_build_check wants (at least 1000
#     calls to __asan_* in the first target's code; infra/base-images/base-runner/bad_build_check)
#     and every build has at least 100 coverage counters ("INFO: Loaded 1 modules (N inline
#     8-bit counters)", the same script's edge threshold);
#   - each binary runs its whole unzipped seed corpus once (-runs=0, with its dictionary and
#     max_len) and exits 0, and libFuzzer reports coverage instrumentation (cov: > 0).
#
#   Fuzz/oss-fuzz/check-build.sh [SANITIZER...]      default: address undefined
# TAPWIRE_CHECK_TARGETS="FuzzNDEF FuzzBERTLV" checks only those targets (default: all);
# TAPWIRE_OSSFUZZ_SCRATCH=<folder> keeps SwiftPM's build folders there, as <folder>/<sanitizer>
# (default: in the temporary WORK, removed afterwards), so a second run only relinks; TAPWIRE_CHECK_OUT=<folder>
# keeps each sanitizer's $OUT as <folder>/<sanitizer> (for FUZZ_BIN_DIR of Fuzz/run-fuzzers.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
# shellcheck source=Fuzz/fuzz-targets.sh
. Fuzz/fuzz-targets.sh

sanitizers=("$@")
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address undefined)
if [ -n "${TAPWIRE_CHECK_TARGETS:-}" ]; then
  read -r -a targets <<<"$TAPWIRE_CHECK_TARGETS"
else
  mapfile -t targets < <(fuzz_targets)
fi

# OSS-Fuzz's flags (google/oss-fuzz, infra/base-images): base-clang's CFLAGS, the
# SANITIZER_FLAGS_<sanitizer> and COVERAGE_FLAGS of base-builder, put together by `compile`.
base_cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -Wno-error=incompatible-function-pointer-types \
-Wno-error=int-conversion -Wno-error=deprecated-declarations -Wno-error=implicit-function-declaration \
-Wno-error=implicit-int -Wno-error=unknown-warning-option -Wno-error=vla-cxx-extension \
-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
ubsan_checks="array-bounds,bool,builtin,enum,function,integer-divide-by-zero,null,object-size,return,\
returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr"
ubsan_fatal="array-bounds,bool,builtin,enum,function,integer-divide-by-zero,null,object-size,return,\
returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr"
sanitizer_flags() {
  case "$1" in
    address) echo "-fsanitize=address -fsanitize-address-use-after-scope" ;;
    undefined) echo "-fsanitize=$ubsan_checks -fno-sanitize-recover=$ubsan_fatal" ;;
    *) echo "" ;;
  esac
}

status=0
report=()
for sanitizer in "${sanitizers[@]}"; do
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/tapwire-ossfuzz-$sanitizer.XXXXXX")
  mkdir -p "$tmp/src" "$tmp/work" "$tmp/corpus"
  if [ -n "${TAPWIRE_CHECK_OUT:-}" ]; then
    rm -rf "${TAPWIRE_CHECK_OUT:?}/$sanitizer"
    mkdir -p "$TAPWIRE_CHECK_OUT/$sanitizer"
    ln -s "$(cd "$TAPWIRE_CHECK_OUT/$sanitizer" && pwd)" "$tmp/out"
  else
    mkdir -p "$tmp/out"
  fi
  ln -s "$root" "$tmp/src/tapwire"
  cflags="$base_cflags $(sanitizer_flags "$sanitizer") -fsanitize=fuzzer-no-link"
  [ "$sanitizer" = undefined ] && cflags="$cflags -fno-sanitize=function"
  echo "check-build: $sanitizer: building ${#targets[@]} targets into $tmp/out"
  started=$(date +%s)
  scratch=()
  [ -n "${TAPWIRE_OSSFUZZ_SCRATCH:-}" ] && scratch=(TAPWIRE_OSSFUZZ_SCRATCH="$TAPWIRE_OSSFUZZ_SCRATCH/$sanitizer")
  if ! env "${scratch[@]}" SRC="$tmp/src" OUT="$tmp/out" WORK="$tmp/work" SANITIZER="$sanitizer" FUZZING_ENGINE=libfuzzer \
    ARCHITECTURE=x86_64 FUZZING_LANGUAGE=swift CFLAGS="$cflags" CXXFLAGS="$cflags -stdlib=libc++" \
    bash -eu "$tmp/src/tapwire/Fuzz/oss-fuzz/build.sh" "${targets[@]}" >"$tmp/build-log.txt" 2>&1; then
    grep -E "error|build.sh:" "$tmp/build-log.txt" | head -20 || tail -20 "$tmp/build-log.txt"
    echo "check-build: $sanitizer: build.sh failed (log: $tmp/build-log.txt)"
    exit 1
  fi
  built=$(($(date +%s) - started))

  failures=0
  fail() {
    echo "check-build: $sanitizer: $*"
    failures=$((failures + 1))
  }
  replay_started=$(date +%s)
  for t in "${targets[@]}"; do
    bin="$tmp/out/$t"
    [[ "$t" =~ ^[a-zA-Z0-9_-]+$ ]] || fail "$t: not a name ClusterFuzz accepts (^[a-zA-Z0-9_-]+\$)"
    [ -x "$bin" ] || { fail "$t: no executable in \$OUT"; continue; }
    for f in "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do
      [ -s "$tmp/out/$f" ] || fail "$t: no $f in \$OUT"
    done
    grep -qx "dict = $t.dict" "$tmp/out/$t.options" || fail "$t: $t.options does not name $t.dict"
    if ldd "$bin" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libz\.so'; then
      fail "$t: needs shared libraries the runner image does not have (above)"
    fi
    if [ "$sanitizer" = address ] && [ "$t" = "${targets[0]}" ]; then
      # bad_build_check's count (x86_64 call instructions to __asan_*); once, it takes a while.
      asan_calls=$(objdump -dC "$bin" | grep -cE 'callq?\s+[0-9a-f]+\s+<__asan' || true)
      echo "check-build: $sanitizer: $t makes $asan_calls calls to __asan_* (bad_build_check wants >= 1000)"
      [ "$asan_calls" -ge 1000 ] || fail "$t: not instrumented with AddressSanitizer ($asan_calls __asan calls)"
    fi
    # Replay the seed corpus once, as the fuzzer will find it: unzipped, with its options.
    mkdir -p "$tmp/corpus/$t"
    unzip -q -o "$tmp/out/${t}_seed_corpus.zip" -d "$tmp/corpus/$t"
    options=(-dict="$tmp/out/$t.dict")
    max_len=$(sed -nE 's/^max_len = ([0-9]+)$/\1/p' "$tmp/out/$t.options")
    [ -n "$max_len" ] && options+=(-max_len="$max_len")
    rc=0
    SWIFT_BACKTRACE=enable=no timeout 600 "$bin" -runs=0 -rss_limit_mb=2560 -malloc_limit_mb=64 "${options[@]}" \
      "$tmp/corpus/$t" >"$tmp/corpus/$t.log" 2>&1 || rc=$?
    inputs=$(find "$tmp/corpus/$t" -type f | wc -l)
    [ "$inputs" -gt 0 ] || fail "$t: its seed corpus is empty (Corpus/<folder>/seeds/)"
    cov=$(sed -nE 's/.*INITED cov: ([0-9]+).*/\1/p' "$tmp/corpus/$t.log" | tail -n 1)
    counters=$(sed -nE 's/^INFO: Loaded [0-9]+ modules +\(([0-9]+) inline 8-bit counters\).*/\1/p' "$tmp/corpus/$t.log" | head -n 1)
    if [ "$rc" -ne 0 ]; then
      fail "$t: -runs=0 over its $inputs seed inputs exited $rc"
      grep -E "ERROR|SUMMARY|oracle|Fatal error|==[0-9]+==" "$tmp/corpus/$t.log" | head -10 || true
    elif [ -z "$cov" ] || [ "$cov" -eq 0 ] || [ "${counters:-0}" -lt 100 ]; then
      fail "$t: no coverage instrumentation (INITED cov: ${cov:-none}, ${counters:-no} counters)"
    fi
    printf 'check-build: %-9s %-21s %5s seeds  cov %6s  counters %6s  exit %s\n' "$sanitizer" "$t" "$inputs" \
      "${cov:-?}" "${counters:-?}" "$rc"
  done
  replayed=$(($(date +%s) - replay_started))
  report+=("$sanitizer: ${#targets[@]} targets, build.sh ${built} s, seed replay ${replayed} s, $failures failures")
  if [ "$failures" -eq 0 ]; then
    rm -rf "$tmp"
  else
    echo "check-build: $sanitizer: kept $tmp"
    status=1
  fi
done
printf 'check-build: %s\n' "${report[@]}"
exit $status
