// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions
import Foundation

/// `tapwire admin ...`: checked here, run by `tapwire-nfc admin` (which links pcsc-lite,
/// libnfc and FoundationNetworking).
extension ReaderCommands {
  static let adminUsage = """
    usage: tapwire admin URL (--pcsc READER | --device CONNSTRING) [--aid AID] [--json]
           tapwire admin --script FILE (--pcsc READER | --device CONNSTRING) [--json]

      Runs a GlobalPlatform Amendment B (RAM over HTTP) remote management session as a
      required card update: POSTs to URL (http or https), runs each command script the
      server returns on the card (selecting the targeted application, or AID: by default
      the issuer security domain A000000151000000), posts the response script to
      X-Admin-Next-URI, until the server answers 204 No Content. With --script, runs a
      local applet-update script through the same update path instead.
      One progress line per round trip and per command on standard error.

    exit status: 0 the update is done, 1 it failed (the round trip and command are named)
      or no reader or card, 2 bad usage

    examples:
      tapwire admin https://ram.example/start --pcsc "Virtual PCD 00 00"
      tapwire admin --script update.apdu --device pn532_uart:/dev/ttyUSB0 --json
    """

  /// `tapwire admin`: checks the options, runs `tapwire-nfc admin`.
  /// `tapwire admin`: one URL or --script, one reader; runs `tapwire-nfc admin`.
  static func admin(_ options: ParsedCommand, _ arguments: [String]) -> Int32 {
    let script = options.has("--script")
    guard script != (options.operands.count == 1) else {
      Tapwire.fail("admin needs one URL or --script FILE")
    }
    guard
      [options.has("--pcsc") || options.has("--reader"), options.has("--device")].filter({ $0 }).count <= 1
    else { Tapwire.fail("admin takes --pcsc READER or --device CONNSTRING, not both") }
    return passThrough(arguments)
  }
}
