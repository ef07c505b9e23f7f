// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `tapwire pcsc ...`: checked here, run by `tapwire-nfc pcsc` (which links pcsc-lite).
extension ReaderCommands {
  static let pcscUsage = """
    usage: tapwire pcsc list [--json]
           tapwire pcsc atr [--reader NAME] [--timeout SECONDS] [--json]
           tapwire pcsc apdu [--reader NAME] [--timeout SECONDS] [--json] HEX...
           tapwire pcsc script [--reader NAME] [--timeout SECONDS] [--json] [CHANNEL OPTIONS] FILE
           tapwire pcsc features [--reader NAME] [--json]
           tapwire pcsc control [--reader NAME] [--json] CODE [HEX]
           tapwire pcsc uid [--reader NAME] [--timeout SECONDS] [--json]

      list    the readers pcscd knows, each with its card's ATR when one is present
      atr     wait for a card (in NAME, or in any reader) and decode its answer to reset
              (ISO/IEC 7816-3: TS, T0, interface bytes, protocols, historical bytes, TCK)
      apdu    send each command APDU and print its response
      script  run an applet-update script (the format of `tapwire apdu --script`), one
              progress line per step on standard error, stopping at the first failed step;
              with the `gp` key options (--key ..., --kvn, --kdf, --scp, --security) inside a
              GlobalPlatform secure channel to the issuer security domain
      features  the reader's PC/SC Part 10 features (CM_IOCTL_GET_FEATURE_REQUEST) with their
              control codes, and its FEATURE_GET_TLV_PROPERTIES properties
      control send one control code (SCardControl on a direct connection): CODE is 0x... or
              decimal, below 0x10000 a function number for SCARD_CTL_CODE (3400 = 0x42000D48);
              prints the answer in hex
      uid     wait for a card and print its UID and historical bytes (PC/SC Part 3 GET DATA,
              FF CA 00 00 00 and FF CA 01 00 00)
      The card's ATR is shown on standard error when apdu and script connect.
      Exit status: 0 done, 1 no pcscd or reader, no card, a transport failure or a failed
      step (named), 2 bad usage.

    examples:
      tapwire pcsc list
      tapwire pcsc atr --json
      tapwire pcsc apdu --reader "ACS ACR122U 00 00" 00A4040007D276000085010100
      tapwire pcsc script --reader "Virtual PCD 00 00" update.apdu
      tapwire read --pcsc "ACS ACR122U PICC Interface 00 00" --json
      tapwire pcsc features --reader "Tapwire NFC 00 00" --json
      tapwire pcsc control 3400
      tapwire pcsc uid --json
    """

  /// `tapwire pcsc`: checks the subcommand and options, runs `tapwire-nfc pcsc`.
}
