#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs Tapwire's command-line tool: builds it with `swift build -c release` and copies
# `tapwire` and the reader back-end it runs (`tapwire-nfc`, found next to `tapwire`) into
# PREFIX/bin. On a machine without the C libraries' -dev packages (libnfc-dev,
# libpcsclite-dev, libdbus-1-dev, libssl-dev, zlib1g-dev), only `tapwire` is built: the
# codec commands (decode, encode) work, the reader commands say what to install.
#
#   Scripts/install.sh [--prefix DIR] [--with-vcard]
#
#   --prefix DIR   where to install (DIR/bin); default /usr/local
#   --with-vcard   also install tapwire-vcard (the virtual card for pcscd's vpcd driver)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
products=(tapwire tapwire-nfc)
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --with-vcard) products+=(tapwire-vcard); shift ;;
    -h|--help) sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$prefix/bin"
installed=()
for product in "${products[@]}"; do
  if swift build -c release --product "$product"; then
    install -m 0755 ".build/release/$product" "$prefix/bin/$product"
    installed+=("$product")
  elif [ "$product" = tapwire ]; then
    echo "install.sh: tapwire did not build" >&2
    exit 1
  else
    echo "install.sh: $product did not build (its -dev packages are missing?); tapwire's reader commands will say so" >&2
  fi
done
echo "installed into $prefix/bin: ${installed[*]}"
