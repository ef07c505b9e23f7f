#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Soak: each flow many times in one process on the test daemons, with the process's resident
# memory (VmRSS), open file descriptors (/proc/self/fd) and threads (/proc/self/task) sampled
# at the start, after the warm-up (the first tenth of the cycles) and at the end; fails when
# they are not flat (no more descriptors, no more threads, memory within 8 MiB + 64 B a cycle;
# Tests/DaemonStack/Soak.swift says why). Each flow runs alone in its own test process, so no
# other test moves the counts:
#   bluez   reconnect cycles on the mock bus (BlueZReaderConnection: the radio drops the link,
#           the session reconnects; a new session every 100 cycles)       full 10,000  short 300
#   pcsc    card insert, NDEF read and remove through pcscd and TapwireIFD full 10,000  short 1,000
#   admin   remote management sessions against ram-server.py, each with
#           a fault drawn at random (seed printed)                        full 1,000   short 50
#
#   Benchmarks/run-soak.sh short              CI's counts (about a minute; CI's step runs all three)
#   Benchmarks/run-soak.sh full               the issue's counts (about 5 min: bluez ~270 s,
#                                             pcsc ~30 s, admin ~15 s)
#   Benchmarks/run-soak.sh full bluez admin   some flows only
#   TAPWIRE_SOAK_CYCLES=N ...                 N cycles of each flow run
#
# Needs root (pcscd in a mount namespace), dbus, python3-dbusmock, pcscd, vsmartcard-vpcd
# (.ci/install-packages), and the tests built (`swift build --build-tests`, debug as `swift
# test`; not built here, so the flags of the build already there are kept).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-short}
case "$mode" in
  short | full) shift || true ;;
  *) echo "usage: Benchmarks/run-soak.sh [short|full] [bluez] [pcsc] [admin]" >&2; exit 2 ;;
esac
flows=("$@")
[ ${#flows[@]} -eq 0 ] && flows=(bluez pcsc admin)
if ! ls .build/debug/*PackageTests.xctest >/dev/null 2>&1; then
  echo "build the tests first: swift build --build-tests" >&2
  exit 2
fi
export TAPWIRE_SOAK=$mode TAPWIRE_REQUIRE_PCSC=1 TAPWIRE_REQUIRE_BLUEZ=1
status=0
for flow in "${flows[@]}"; do
  case "$flow" in
    bluez) suite=BlueZSoakTests ;;
    pcsc) suite=PCSCSoakTests ;;
    admin) suite=AdminSoakTests ;;
    *) echo "unknown flow $flow (bluez, pcsc, admin)" >&2; exit 2 ;;
  esac
  out=$(mktemp)
  if ! swift test --skip-build --filter "$suite" >"$out" 2>&1; then status=1; fi
  grep -E '^soak ' "$out" || true
  if ! grep -qE 'Test run with 1 test in 1 suite passed' "$out"; then
    echo "soak $flow: FAILED"
    grep -E 'recorded an issue|error:|Expectation failed' "$out" | head -20 || true
    status=1
  fi
  rm -f "$out"
done
exit $status
