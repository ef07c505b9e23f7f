#!/bin/bash -eu
# SPDX-License-Identifier: Apache-2.0
# Builds Tapwire's fuzz targets for OSS-Fuzz and ClusterFuzzLite (one script for both:
# .clusterfuzzlite/build.sh runs it, and a copy of it as projects/tapwire/build.sh in
# google/oss-fuzz runs the checkout's own version). For each executable target under Fuzz/
# (read from `swift package dump-package`, Fuzz/fuzz-targets.sh) it writes
#   $OUT/<target>                      the libFuzzer binary (static Swift runtime and zlib)
#   $OUT/<target>_seed_corpus.zip      every input under Corpus/<folder>/
#   $OUT/<target>.dict                 Fuzz/Dictionaries/<folder>.dict
#   $OUT/<target>.options              [libfuzzer] dict, max_len where needed, memory bounds
# (file names as in https://google.github.io/oss-fuzz/getting-started/new-project-guide/ and
# https://google.github.io/clusterfuzzlite/build-integration/).
#
# Flags: like swift-protobuf's build.sh in google/oss-fuzz (projects/swift-protobuf/build.sh,
# April 2026), it does not take the `SWIFTFLAGS` that `precompile_swift` sets: the right flags
# depend on the toolchain and on the package's tools version, so it sets them itself. It still
# sources `precompile_swift` when present, for the Swift-aware llvm-symbolizer it copies to $OUT.
#   address    -sanitize=fuzzer,address (Swift) and $CFLAGS/$CXXFLAGS for clang (-Xcc/-Xcxx)
#   undefined  -sanitize=fuzzer (Swift has no -sanitize=undefined on Linux: "unsupported
#              option"; its own overflow, bounds and exclusivity checks trap in release builds)
#              and $CFLAGS/$CXXFLAGS, which carry -fsanitize=... for clang
#   coverage   -profile-generate -profile-coverage-mapping -sanitize=fuzzer (as precompile_swift)
# Always: -c release, -DFUZZING (the targets' libFuzzer entry point), -static-stdlib and
# --static-swift-stdlib (the runner image has no Swift runtime), lld as the linker.
#
# Outside the image it runs as is, with the defaults below (OUT=.build/oss-fuzz-out, ...):
#   Fuzz/oss-fuzz/build.sh [TARGET...]        e.g. SANITIZER=undefined Fuzz/oss-fuzz/build.sh FuzzNDEF
# Fuzz/oss-fuzz/check-build.sh runs it with OSS-Fuzz's environment and checks $OUT.
set -euo pipefail

# A copy of this file outside the checkout (OSS-Fuzz's projects/tapwire/build.sh, copied to
# $SRC/build.sh) hands over to the checkout's version, so the two never drift apart.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ ! -f "$here/../../Package.swift" ] && [ -f "${SRC:-/src}/tapwire/Fuzz/oss-fuzz/build.sh" ]; then
  exec bash "${SRC:-/src}/tapwire/Fuzz/oss-fuzz/build.sh" "$@"
fi
# The physical path, so SwiftPM's build folder stays valid when the checkout is reached through
# a symbolic link (check-build.sh links it into a temporary $SRC).
cd -P "$here/../.."
root=$PWD

: "${SANITIZER:=address}"
: "${FUZZING_ENGINE:=libfuzzer}"
: "${ARCHITECTURE:=$(uname -m)}"
: "${OUT:=$root/.build/oss-fuzz-out}"
: "${WORK:=$root/.build/oss-fuzz-work}"
: "${CFLAGS:=}"
: "${CXXFLAGS:=}"
export SANITIZER OUT

if [ "$FUZZING_ENGINE" != libfuzzer ]; then
  echo "build.sh: Swift fuzz targets link libFuzzer only (FUZZING_ENGINE=$FUZZING_ENGINE)" >&2
  exit 1
fi
if [ "$ARCHITECTURE" != x86_64 ] && [ "$ARCHITECTURE" != aarch64 ]; then
  echo "build.sh: no Swift toolchain for ARCHITECTURE=$ARCHITECTURE" >&2
  exit 1
fi
mkdir -p "$OUT" "$WORK"

if command -v precompile_swift >/dev/null 2>&1; then
  # Copies the Swift-aware llvm-symbolizer to $OUT; its SWIFTFLAGS are replaced below.
  # shellcheck disable=SC1091
  . precompile_swift
fi

flags=(-c release --scratch-path "${TAPWIRE_OSSFUZZ_SCRATCH:-$WORK/swiftpm-$SANITIZER}"
  -Xswiftc -DFUZZING -Xswiftc -use-ld=lld -Xswiftc -static-stdlib --static-swift-stdlib)
# shellcheck disable=SC2054 # -sanitize=fuzzer,address is one flag
case "$SANITIZER" in
  address) flags+=(-Xswiftc -sanitize=fuzzer,address) ;;
  undefined) flags+=(-Xswiftc -sanitize=fuzzer) ;;
  coverage) flags+=(-Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping -Xswiftc -sanitize=fuzzer) ;;
  *)
    echo "build.sh: SANITIZER=$SANITIZER is not supported for Swift here (address, undefined, coverage)" >&2
    exit 1
    ;;
esac
if [ "$SANITIZER" != coverage ]; then
  # OSS-Fuzz's C flags for whatever clang compiles or imports (the zlib module map).
  for f in $CFLAGS; do flags+=("-Xcc=$f"); done
  for f in $CXXFLAGS; do flags+=("-Xcxx=$f"); done
fi

# C libraries: the fuzz targets link only zlib (FuzzOracles -> ZlibInflate -> CZlib, `link "z"`),
# headers from zlib1g-dev (Dockerfile). It is linked statically, so the fuzzers need nothing
# on the runner: -lz is looked up first in a folder that holds only libz.a.
static_libs="$WORK/static-libs"
mkdir -p "$static_libs"
zlib_archive=$(find /usr/lib /usr/lib64 /usr/local/lib -name libz.a 2>/dev/null | head -n 1)
if [ -z "$zlib_archive" ]; then
  echo "build.sh: libz.a not found: install zlib1g-dev" >&2
  exit 1
fi
ln -sf "$zlib_archive" "$static_libs/libz.a"
flags+=(-Xlinker "-L$static_libs")

# shellcheck source=Fuzz/fuzz-targets.sh
. Fuzz/fuzz-targets.sh
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(fuzz_targets); fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "build.sh: no fuzz targets found in the package" >&2
  exit 1
fi

for target in "${targets[@]}"; do
  folder=$(fuzz_corpus_folder "$target")
  dict=$(fuzz_dictionary "$target")
  swift build --product "$target" "${flags[@]}"
  bin_dir=$(swift build --show-bin-path "${flags[@]}")
  cp "$bin_dir/$target" "$OUT/$target"

  # Seed corpus: every file under Corpus/<folder>/ (seeds, regressions, dumps, fuzzed),
  # flattened as <subfolder>-<name> so names from different subfolders cannot collide.
  rm -f "$OUT/${target}_seed_corpus.zip"
  python3 - "$OUT/${target}_seed_corpus.zip" "Corpus/$folder" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as archive:
    for root, dirs, files in os.walk(sys.argv[2]):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            archive.write(path, os.path.relpath(path, sys.argv[2]).replace(os.sep, "-"))
PY
  # A target without a dictionary still builds here (check-build.sh fails on it in CI).
  has_dict=false
  if [ -f "$dict" ]; then
    cp "$dict" "$OUT/$target.dict"
    has_dict=true
  else
    echo "build.sh: warning: $target has no dictionary ($dict)" >&2
  fi
  {
    echo "[libfuzzer]"
    if $has_dict; then echo "dict = $target.dict"; fi
    max_len=$(fuzz_max_len "$target")
    if [ -n "$max_len" ]; then echo "max_len = $max_len"; fi
    echo "malloc_limit_mb = 64"
    echo "rss_limit_mb = 2560"
  } >"$OUT/$target.options"
  echo "build.sh: $OUT/$target ($SANITIZER)"
done
