#!/bin/bash -eu
# SPDX-License-Identifier: Apache-2.0
# Builds Tapwire's fuzz targets the way OSS-Fuzz builds Swift projects: inside the
# base-builder-swift image `precompile_swift` sets SWIFTFLAGS (sanitizer, static stdlib,
# -parse-as-library); each target lands in $OUT as <Name>Fuzzer with its seed corpus
# (<Name>Fuzzer_seed_corpus.zip), dictionary (<Name>Fuzzer.dict) and options.
#
# Outside OSS-Fuzz it runs as is (OUT defaults to .build/oss-fuzz-out, SWIFTFLAGS to the
# equivalent libFuzzer + AddressSanitizer flags):
#   Fuzz/oss-fuzz/build.sh [TARGET...]        e.g. Fuzz/oss-fuzz/build.sh FuzzNDEF
cd "${TAPWIRE_ROOT:-$(dirname "$0")/../..}"
if command -v precompile_swift >/dev/null 2>&1; then
  . precompile_swift
fi
: "${SWIFTFLAGS:=-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld}"
: "${OUT:=$PWD/.build/oss-fuzz-out}"
scratch=${TAPWIRE_OSSFUZZ_SCRATCH:-.build/oss-fuzz}
mkdir -p "$OUT"

# C libraries: the fuzz targets link only zlib (FuzzOracles -> ZlibInflate -> CZlib, `link "z"`),
# headers from zlib1g-dev (Dockerfile). It is linked statically, so the fuzzers need nothing
# on the runner: -lz is looked up first in a folder that holds only libz.a.
static_libs=$(mkdir -p "$scratch/static-libs" && cd "$scratch/static-libs" && pwd)
zlib_archive=$(find /usr/lib /usr/lib64 /usr/local/lib -name libz.a 2>/dev/null | head -n 1)
if [ -z "$zlib_archive" ]; then
  echo "libz.a not found: install zlib1g-dev" >&2
  exit 1
fi
ln -sf "$zlib_archive" "$static_libs/libz.a"
SWIFTFLAGS="$SWIFTFLAGS -Xlinker -L$static_libs"

# Target, corpus folders under Corpus/, dictionary under Fuzz/Dictionaries/.
table="FuzzNDEF ndef ndef
FuzzNDEFRecordTypes ndefrecord ndef
FuzzCommandAPDU capdu capdu
FuzzResponseAPDU rapdu rapdu
FuzzBERTLV bertlv bertlv
FuzzAPDUScript apduscript apduscript
FuzzAdvertisingData adv adv
FuzzHCIEvent hci hci
FuzzBTSnoop btsnoop btsnoop
FuzzTagImages tags tags
FuzzMifareClassic mfc mfc
FuzzType4Procedure type4 type4
FuzzReaderDiscovery discovery discovery
FuzzPN532Frame pn532 pn532
FuzzAnswerToReset atr atr
FuzzPCSCControl pcsccontrol pcsccontrol
FuzzAdminSession admin admin
FuzzSecureChannel securechannel securechannel
FuzzStorageCard storagecard storagecard
FuzzCAPFile cap cap
FuzzTrust trust trust"

selected=("$@")
while read -r target folder dict; do
  if [ ${#selected[@]} -gt 0 ] && [[ ! " ${selected[*]} " == *" $target "* ]]; then continue; fi
  name="${target#Fuzz}Fuzzer"
  # shellcheck disable=SC2086 # SWIFTFLAGS is a list of flags.
  swift build -c release --product "$target" --scratch-path "$scratch" $SWIFTFLAGS -Xswiftc -DFUZZING
  cp "$scratch/release/$target" "$OUT/$name"
  rm -f "$OUT/${name}_seed_corpus.zip"
  python3 - "$OUT/${name}_seed_corpus.zip" "Corpus/$folder" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as archive:
    for root, _, files in os.walk(sys.argv[2]):
        for f in sorted(files):
            archive.write(os.path.join(root, f), os.path.relpath(os.path.join(root, f), sys.argv[2]))
PY
  cp "Fuzz/Dictionaries/$dict.dict" "$OUT/$name.dict"
  printf '[libfuzzer]\ndict = %s.dict\nmalloc_limit_mb = 64\nrss_limit_mb = 2560\n' "$name" >"$OUT/$name.options"
  if [ "$target" = FuzzReaderDiscovery ]; then echo "max_len = 128" >>"$OUT/$name.options"; fi
  echo "built $OUT/$name"
done <<<"$table"
