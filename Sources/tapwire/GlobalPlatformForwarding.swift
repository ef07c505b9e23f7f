// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `tapwire gp ...`: checked here, run by `tapwire-nfc gp` (which links pcsc-lite and OpenSSL).
extension ReaderCommands {
  static let gpUsage = """
    usage: tapwire gp info|list (--pcsc READER | --device CONNSTRING)
                      (--key HEX|test | --key-enc HEX --key-mac HEX --key-dek HEX)
                      [--kvn N] [--kdf emv|visa2|kdf3] [--scp 02|03]
                      [--security mac|mac+enc|mac+rmac|mac+enc+rmac|all|none] [--timeout SECONDS] [--json]
           tapwire gp install FILE.cap [--applet AID] [--instance AID] [--privileges HEX] [--params HEX]
                      [--block-size N] [--hash] [--load-only]  (then the options above)
           tapwire gp delete AID [--related] | lock AID | unlock AID  (then the options above)
           tapwire gp put-key (--new-key HEX | --new-key-enc HEX --new-key-mac HEX --new-key-dek HEX)
                      [--new-kvn N]  (then the options above)

      list    open a GlobalPlatform secure channel (SCP02 or SCP03, GPCS 2.3 Appendix E,
              Amendment D) to the card's issuer security domain and list the registry (GET
              STATUS): the ISD, every application and every load file with its modules, each
              with its life cycle and privileges
      info    the same, with the card production life cycle data (GET DATA 9F7F) and the
              card recognition data (GET DATA 0066: GlobalPlatform version, SCPs with i)
      install INSTALL [for load] of the CAP file's package, LOAD of its load file data block
              (Header, Directory, Import, Applet, Class, Method, StaticField, Export,
              ConstantPool, RefLocation; never Descriptor or Debug) in blocks that fit a
              255-byte Lc at the security level and the card's maximum (FCI tag 9F65), one
              progress line per block on standard error, then INSTALL [for install and make
              selectable] of every applet (or --applet AID) as instance --instance AID
              (default: the applet's AID) with --privileges (1 or 3 bytes, default 00) and
              --params (the C9 application parameters); --load-only stops after LOAD;
              --hash sends the load file data block hash (SHA-256 with SCP03, SHA-1 with
              SCP02); --block-size N caps the plain bytes of a LOAD block. A failure names
              the command, and for LOAD the block and how many of how many blocks the card
              acknowledged (a card removed mid-LOAD: loadBlockExchangeFailed ... tagLost)
      delete  DELETE the load file or application AID (--related: a load file with its
              applications)
      lock, unlock  SET STATUS of the application AID to locked, or back to selectable
      put-key replace the key set in use with new keys (PUT KEY, encrypted under the DEK, the
              card's check values verified) as key version --new-kvn (default: the same);
              prints the new keys' check values
      KEY OPTIONS: --key HEX (one key for ENC, MAC and DEK; `--key test` is the well-known test
      key 404142...4F, never used otherwise) or --key-enc, --key-mac and --key-dek, with --kvn,
      --kdf (emv: EMV CPS, visa2 or kdf3, as GlobalPlatformPro names them), --scp and --security
      (the options below list each value's range and default).
      Keys never appear in the output, only their check values. The card cryptogram is
      checked before EXTERNAL AUTHENTICATE: wrong keys stop there (cardCryptogramMismatch)
      and the card counts nothing; a card answering 6982/6983 has its key set blocked
      (keySetBlocked). Never retry with other keys: cards lock after a few failures.
      Exit status: 0 done, 1 no pcscd, reader or card, a transport or secure-channel failure,
      a CAP file that does not read, a command the card refused (named, with its status
      word and what GlobalPlatform says it means), 2 bad usage.

    examples:
      tapwire gp list --pcsc "ACS ACR122U PICC Interface 00 00" --key test
      tapwire gp info --pcsc "Virtual PCD 00 00" --key test --scp 03 --security all --json
      tapwire gp install hello.cap --pcsc "Virtual PCD 00 00" --key test --security mac+enc --hash
      tapwire gp list --device pn532_uart:/dev/ttyUSB0 --key test
      tapwire gp list --pcsc "Virtual PCD 00 00" --key-enc HEX --key-mac HEX --key-dek HEX --kvn 0x30
    """

  /// `tapwire gp`: checks the subcommand and options, runs `tapwire-nfc gp`.
}
