// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions
import Foundation

/// `tapwire discover ...` and `tapwire connect ...`: checked here, run by `tapwire-nfc`
/// (which links libdbus), so `tapwire` itself needs no system library.
extension ReaderCommands {
  static let discoverUsage = """
    usage: tapwire discover --bluez [--adapter hci0] [--bus ADDRESS] [--scan|--proximity|--serial S]
                            [--timeout SECONDS] [--profile FILE]... [--json]
           tapwire discover --btsnoop FILE [--scan|--proximity|--serial S] [--timeout SECONDS]
                            [--profile FILE]... [--json]
           tapwire connect --bluez --serial S [--adapter hci0] [--bus ADDRESS] [--timeout SECONDS]
                           [--profile FILE]... [--json]

      discover  find card readers (the example profile, or --profile) with BlueZ over D-Bus, or in a
                btsnoop capture (the same engine, on the capture's timestamps):
                --scan (default) prints the refreshed list as it changes, until the timeout;
                --proximity the nearest reader, chosen, then its details; --serial S the
                reader with serial S (reconnect mode). Default timeout 10 s.
      connect   reconnect at launch: discover serial S, connect, print lifecycle events
                (reconnections included) until interrupted (Ctrl-C disconnects).
      --bus     a D-Bus address instead of the system bus (DBUS_SYSTEM_BUS_ADDRESS also works).
      --profile a reader-profile file (JSON: {"version": 1, "profiles": [...]}; see
                Documentation/cli.md) to recognize readers by instead of the example profile;
                repeatable, profiles tried in order. A bad file exits 2 naming the field.
      Exit status: 0 found / connected and disconnected on request, 1 not found or failed
      (the typed reason on standard error or in the last event), 2 bad usage.

    examples:
      tapwire discover --bluez --scan --timeout 5
      tapwire discover --bluez --proximity --json
      tapwire discover --btsnoop capture.btsnoop --serial TW000001
      tapwire discover --btsnoop capture.btsnoop --profile readers.json --json
      tapwire connect --bluez --serial TW000001 --json
    """

  /// `tapwire discover` and `connect`: one source; connect needs --bluez --serial.
  static func discover(_ options: ParsedCommand, _ arguments: [String]) -> Int32 {
    guard options.has("--bluez") != options.has("--btsnoop") else {
      Tapwire.fail("give one of --bluez and --btsnoop FILE")
    }
    if options.spec.name == "connect" && (!options.has("--serial") || options.has("--btsnoop")) {
      Tapwire.fail("connect needs --bluez --serial S")
    }
    return passThrough(arguments)
  }
}
