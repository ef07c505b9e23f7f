#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Reproduces the Swift 6.3.1 optimizer crash that stopped `swift build -c release` of
# tapwire-nfc (Documentation/compiler-crash.md): builds a copy of this checkout in which
# GlobalPlatformInstall.swift is the version from before the workaround. Exit 0 when the
# toolchain still crashes (signal 11 in SimplifyCFG), 1 when it builds (the workaround can go).
#
#   Documentation/compiler-crash/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
copy=$(mktemp -d /tmp/tapwire-crash.XXXXXX)
trap 'rm -rf "$copy"' EXIT
git archive HEAD | tar -x -C "$copy"
# The last version before the workaround (commit 3da3484 split it).
git show 90d4178:Sources/tapwire-nfc/GlobalPlatformInstall.swift >"$copy/Sources/tapwire-nfc/GlobalPlatformInstall.swift"
swift --version 2>&1 | head -1
if (cd "$copy" && swift build -c release --product tapwire-nfc) >"$copy/build.log" 2>&1; then
  echo "reproduce.sh: the old code builds in release with this toolchain: the crash is fixed"
  exit 1
fi
if grep -q "SimplifyCFG" "$copy/build.log" && grep -q "loadFailure" "$copy/build.log"; then
  grep -m3 -E "signal 11|SimplifyCFG|loadFailure" "$copy/build.log"
  echo "reproduce.sh: still crashes"
  exit 0
fi
tail -20 "$copy/build.log"
echo "reproduce.sh: the build failed otherwise (above)"
exit 2
