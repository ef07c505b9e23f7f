// SPDX-License-Identifier: Apache-2.0
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

    options:
      --pcsc READER               a PC/SC reader (pcscd)
      --device CONNSTRING         a libnfc reader
      --aid AID                   the security domain for scripts that name no application
      --timeout SECONDS           wait this long for the card (default 10)
      --round-trip-timeout SECS   wait this long for each HTTP response (default 30)
      --retries N                 send a failed POST again up to N times (default 2)
      --max-rounds N              accept at most N command scripts (default 64)
      --from ID                   the X-Admin-From value (default //tapwire)
      --resume URI                resume an interrupted session: POST to URI (the
                                  "resumeURI" of the failure) with X-Admin-Resume: true
      --json                      the result as one JSON object (format "admin")

    exit status: 0 the update is done, 1 it failed (the round trip and command are named)
      or no reader or card, 2 bad usage

    examples:
      tapwire admin https://ram.example/start --pcsc "Virtual PCD 00 00"
      tapwire admin --script update.apdu --device pn532_uart:/dev/ttyUSB0 --json
    """

  /// `tapwire admin`: checks the options, runs `tapwire-nfc admin`.
  static func admin(_ arguments: [String]) -> Int32 {
    if arguments.contains("-h") || arguments.contains("--help") {
      print(adminUsage)
      return 0
    }
    let valued = [
      "--pcsc", "--device", "--aid", "--script", "--timeout", "--round-trip-timeout", "--retries",
      "--max-rounds",
      "--from", "--resume",
    ]
    var rest = arguments[...]
    var operands = 0
    var script = false
    var readers = 0
    while let argument = rest.popFirst() {
      switch argument {
      case _ where valued.contains(argument):
        guard rest.popFirst() != nil else { Tapwire.fail("\(argument) needs a value") }
        script = script || argument == "--script"
        if argument == "--pcsc" || argument == "--device" { readers += 1 }
      case "--json": continue
      case _ where argument.hasPrefix("--"):
        failUnknownOption(argument, among: valued + ["--json"])
      default:
        operands += 1
      }
    }
    guard script != (operands == 1), operands <= 1 else {
      Tapwire.fail("admin needs one URL or --script FILE")
    }
    guard readers <= 1 else { Tapwire.fail("admin takes --pcsc READER or --device CONNSTRING, not both") }
    return passThrough(["admin"] + arguments)
  }
}
