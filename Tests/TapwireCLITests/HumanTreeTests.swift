// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The human tree (`tshark -V` style): each field's offset, raw bytes, name and meaning,
/// checked line by line against the bytes of real inputs; the JSON stays as the contract says.
@Suite("tapwire decode: the human tree")
struct HumanTreeTests {
  /// The lines of `tapwire decode ARGS` (plain: a pipe gets no colour).
  static func lines(_ arguments: [String]) throws -> [String] {
    let result = try CLI.run(["decode"] + arguments)
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    #expect(!result.stdout.contains("\u{1B}["))
    return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// `d1 01 08 55 01 "nfc.com"`: header flags, TNF, lengths, type, URI prefix 0x01.
  @Test func ndefURIRecord() throws {
    let lines = try Self.lines(["--as", "ndef", "d1010855016e66632e636f6d"])
    #expect(
      lines == [
        "NFC Forum NDEF message (ndef), 12 bytes, 1 record",
        "0000  d1 01 08 55 01 6e 66 …   Record 0: wellKnown \"U\" (URI record)",
        "0000  d1                         header: 0xd1 = MB=1 ME=1 CF=0 SR=1 IL=0",
        "0000  d1                           TNF: 1 = wellKnown (NFC Forum RTD type)",
        "0001  01                         type length: 1",
        "0002  08                         payload length: 8",
        "0003  55                         type: \"U\" = URI record",
        "0004  01 6e 66 63 2e 63 6f 6d    payload: 8 bytes",
        "0004  01                           URI prefix: 0x01 = \"http://www.\"",
        "0005  6e 66 63 2e 63 6f 6d         URI field: \"nfc.com\"",
        "                                   URI: \"http://www.nfc.com\"",
        "",
      ])
  }

  /// A chunked record: each chunk's header at its own offset (13 + 3, then 19 + 3 bytes).
  @Test func ndefChunks() throws {
    let lines = try Self.lines(["--as", "ndef", "Corpus/ndef/seeds/chunked-text-plain.ndef"])
    #expect(lines.contains("0000  b2                         header: 0xb2 = MB=1 ME=0 CF=1 SR=1 IL=0"))
    #expect(lines.contains("000d  61 62 63                   payload: 8 bytes in 3 chunks"))
    #expect(
      lines.contains(
        "0010  36                           chunk 1: 0x36 = MB=0 ME=0 CF=1, 3 bytes at offset 19"))
    #expect(
      lines.contains(
        "0016  56                           chunk 2: 0x56 = MB=0 ME=1 CF=0, 2 bytes at offset 25"))
  }

  /// Lenient mode lists the warning after the tree.
  @Test func warningsFollowTheTree() throws {
    let lines = try Self.lines(["--as", "ndef", "--lenient", "51010058"])
    #expect(lines.contains("0000  51                         header: 0x51 = MB=0 ME=1 CF=0 SR=1 IL=0"))
    #expect(lines.contains("warning: missingMessageBegin at offset 0: the first record does not have MB set"))
  }

  /// A Type 2 image: CC bytes at 12-15, the NDEF TLV at 16, a Smart Poster with its URI
  /// and Text records nested at their absolute offsets.
  @Test func type2SmartPoster() throws {
    let lines = try Self.lines(["--as", "t2t", "Corpus/tags/seeds/t2t-ntag215-smartposter.bin"])
    for line in [
      "NFC Forum Type 2 tag memory (t2t), 540 bytes",
      "000a  00 00                    static lock bytes: 0x0000 = unlocked",
      "000c  e1 10 3e 00              capability container: matches NTAG215",
      "000c  e1                         magic: 0xe1 = NDEF data present",
      "000e  3e                         size: 62 = 496 bytes data area",
      "000f  00                         access: 0x00 = read granted, write granted",
      "0010  03                         T: 0x03 = ndef",
      "0011  2b                         L: 43",
      "0015  53 70                          type: \"Sp\" = Smart Poster",
      "001b  04                                   URI prefix: 0x04 = \"https://\"",
      "0033  02                                   status: 0x02 = UTF-8, language code 2 bytes",
      "0034  65 6e                                language: \"en\"",
      "0036  54 61 70 77 69 72 65                 text: \"Tapwire\"",
      "003d  fe                       TLV terminator",
      "                               read-only: no",
    ] {
      #expect(lines.contains(line), "\(line)")
    }
  }

  /// Type 1 with Lock and Memory Control TLVs: the areas they describe are listed.
  @Test func type1Areas() throws {
    let lines = try Self.lines(["--as", "t1t", "Corpus/tags/seeds/t1t-dynamic-topaz512-spanning.bin"])
    #expect(lines.contains("000a  3f                         size: 63 = 512 bytes of memory, dynamic layout"))
    #expect(lines.contains("000c  01 03 f2 30 33           TLV lockControl: length 3"))
    #expect(
      lines.contains(
        "0018  d2 0a bb 74 65 78 74 …     NDEF message: 200 bytes, around lock or reserved areas"))
    #expect(
      lines.contains("0068  00 00 00 00 00 00 00 00  reserved area: reserved, skipped by the data area"))
    #expect(lines.contains("0070  00 00                    lock area: 15 lock bits, each locks 8 bytes"))
  }

  @Test func type3AttributeBlock() throws {
    let lines = try Self.lines(["--as", "t3t", "Corpus/tags/seeds/t3t-uri.bin"])
    #expect(lines.contains("0003  00 0d                      Nmaxb: 13 blocks = 208 bytes"))
    #expect(lines.contains("000a  01                         RWFlag: 0x01 = read/write"))
    #expect(lines.contains("000b  00 00 13                   Ln: 19 bytes of NDEF"))
    #expect(lines.contains("0010  d1 01 0f 55 04 66 65 …   NDEF message: 19 bytes"))
  }

  @Test func type4CCFile() throws {
    let lines = try Self.lines(["--as", "t4t", "000F20003B00340406E10400FF0000"])
    #expect(
      Array(lines.prefix(10)) == [
        "NFC Forum Type 4 tag CC file (t4t), 15 bytes",
        "0000  00 0f                    CCLEN: 15",
        "0002  20                       versionText: 2.0 (0x20)",
        "0003  00 3b                    mle: 59 = largest R-APDU data",
        "0005  00 34                    mlc: 52 = largest C-APDU data",
        "0007  04 06 e1 04 00 ff 00 00  TLV ndefFileControl: length 6",
        "0009  e1 04                      fileIdentifier: e104",
        "000b  00 ff                      maxFileSize: 255",
        "000d  00                         readAccess: 0 = granted",
        "000e  00                         writeAccess: 0 = granted",
      ])
  }

  @Test func type5CapabilityContainer() throws {
    let lines = try Self.lines(["--as", "t5t", "Corpus/tags/seeds/t5t-slix-uri.bin"])
    #expect(
      lines.contains(
        "0001  40                         version and access: 0x40 = version 1.0, read granted, write granted"
      ))
    #expect(lines.contains("0002  0e                         MLEN: 14 = 112 bytes data area"))
    #expect(lines.contains("0003  01                         features: 0x01 = READ MULTIPLE BLOCKS"))
  }

  /// SELECT by AID, case 4S: CLA decoded, INS named, P1/P2 explained, Lc, data, Le.
  @Test func commandAPDU() throws {
    let lines = try Self.lines(["--as", "capdu", "00A4040007D276000085010100"])
    #expect(
      lines == [
        "ISO 7816-4 command APDU (capdu), 13 bytes",
        "0000  00                       CLA: 0x00 = interindustry, channel 0, no SM, last or only command",
        "0001  a4                       INS: 0xa4 = SELECT",
        "0002  04                       P1: 0x04 = select by DF name (AID)",
        "0003  00                       P2: 0x00 = first or only occurrence, return FCI",
        "0004  07                       Lc: 7 = Nc, data bytes",
        "0005  d2 76 00 00 85 01 01     data: 7 bytes, AID D2760000850101",
        "000c  00                       Le: 256 = Ne, at most 256 response bytes",
        "                               case: 4S (short length)",
        "",
      ])
    let read = try Self.lines(["--as", "capdu", "00B0810004"])
    #expect(read.contains("0002  81                       P1: 0x81 = short EF identifier 1"))
    #expect(read.contains("0004  04                       Le: 4 = Ne, at most 4 response bytes"))
  }

  @Test func responseAPDU() throws {
    let lines = try Self.lines(["--as", "rapdu", "0102 63C2"])
    #expect(lines.contains("0000  01 02                    data: 2 bytes"))
    #expect(lines.contains("0002  63 c2                    SW: 63C2 = counter: 2"))
    #expect(lines.contains("                                 category: warning"))
  }

  /// BER-TLV: tag class, constructed bit and number; known tag names; nested values.
  @Test func bertlv() throws {
    let lines = try Self.lines(["--as", "bertlv", "Corpus/bertlv/seeds/fci.bin"])
    #expect(lines.contains("0000  6f 10 84 08 a0 00 00 …   TLV 6F: file control information (FCI)"))
    #expect(lines.contains("0000  6f                         tag: 6F = application, constructed, number 15"))
    #expect(lines.contains("0004  a0 00 00 01 51 00 00 00      value: a000000151000000"))
    #expect(
      lines.contains(
        "000e  9f 65                          tag: 9F65 = contextSpecific, primitive, number 101"))
  }

  @Test func advertisingData() throws {
    let lines = try Self.lines(["--as", "adv", "020106030309180409545741"])
    #expect(
      lines.contains(
        "0002  06                         flags: 0x06 = LE general discoverable, BR/EDR not supported"))
    #expect(lines.contains("0005  09 18                      UUID: 00001809-0000-1000-8000-00805f9b34fb"))
    #expect(lines.contains("0009  54 57 41                   complete local name: \"TWA\""))
  }

  /// An HCI LE Advertising Report: address bytes in wire order, shown most significant first.
  @Test func hciReport() throws {
    let lines = try Self.lines(["--as", "hci", "Corpus/hci/seeds/legacy-adv-ind.bin"])
    for line in [
      "0002  02                       subevent: 0x02 = LE Advertising Report",
      "0006  55 44 33 22 11 c0          address: C0:11:22:33:44:55",
      "0012  ff ff                          company: 0xffff = reserved for testing",
      "001f  04                             TX power: 4 dBm",
      "0026  c4                         RSSI: -60 dBm",
    ] {
      #expect(lines.contains(line), "\(line)")
    }
  }

  @Test func btsnoopRecords() throws {
    let lines = try Self.lines(["--as", "btsnoop", "Corpus/btsnoop/seeds/h4-advertising.btsnoop"])
    #expect(lines.contains("000c  00 00 03 ea              datalink: 1002 = h4"))
    #expect(lines.contains("0018  00 00 00 02                flags: 2 = sent, command/event"))
    #expect(lines.contains(where: { $0.hasSuffix("subevent: 0x02 = LE Advertising Report") }))
  }

  /// The JSON is the contract: these objects are pinned byte for byte.
  @Test(arguments: [
    (
      ["--as", "capdu", "00A4040007D276000085010100"],
      #"{"ok":true,"format":"capdu","cla":"00","ins":"a4","p1":"04","p2":"00","case":"4S","data":"d2760000850101","ne":256,"chaining":false,"secureMessaging":"none","channel":0,"command":"SELECT","warnings":[]}"#
    ),
    (
      ["--as", "rapdu", "6A82"],
      #"{"ok":true,"format":"rapdu","data":"","sw":"6a82","category":"checkingError","meaning":"file or application not found","warnings":[]}"#
    ),
  ])
  func jsonUnchanged(_ entry: ([String], String)) throws {
    let result = try CLI.run(["decode", "--json"] + entry.0)
    #expect(result.stdout == entry.1 + "\n")
  }

  /// Every corpus seed still decodes the same way in both views: the tree exits as the JSON does.
  @Test func treeAndJSONAgreeOnEverySeed() throws {
    for folder in ["ndef", "capdu", "rapdu", "bertlv", "adv", "hci", "btsnoop", "tags"] {
      let path = CLI.root.appendingPathComponent("Corpus/\(folder)/seeds").path
      for file in try FileManager.default.contentsOfDirectory(atPath: path).sorted() {
        let input = "Corpus/\(folder)/seeds/\(file)"
        let tree = try CLI.run(["decode", "--lenient", input])
        let json = try CLI.run(["decode", "--lenient", "--json", input])
        #expect(tree.status == json.status, "\(input)")
        #expect(tree.stdout.split(separator: "\n").count > 1 || tree.status != 0, "\(input)")
      }
    }
  }
}

/// On a terminal the tree's columns are dim and the field names cyan; in a pipe, plain.
@Suite("tapwire decode: the tree in colour")
struct HumanTreeColourTests {
  @Test func columnsDimNamesCyan() throws {
    let command = "\(CLI.executable.path) decode --as rapdu 6A82"
    let shown = try ProgressTests.onTerminal(command)
    #expect(shown.contains("\u{1B}[1mISO 7816-4 response APDU (rapdu), 2 bytes\u{1B}[0m"))
    #expect(
      shown.contains(
        "\u{1B}[2m0000  6a 82                    \u{1B}[0m\u{1B}[36mSW\u{1B}[0m: 6A82 = file or application not found"
      ))
    let plain = try ProgressTests.onTerminal(command, noColor: "1")
    #expect(!plain.contains("\u{1B}["))
    #expect(plain.contains("0000  6a 82                    SW: 6A82 = file or application not found"))
  }
}

/// Record types whose fields the tree places at their offsets inside the payload.
@Suite("tapwire decode: record type trees")
struct RecordTypeTreeTests {
  /// Hs 1.2 with one ac (active, reference "0"), then a media record with id "0".
  @Test func handoverSelect() throws {
    let lines = try HumanTreeTests.lines([
      "--as", "ndef", "91 02 0A 48 73 12 D1 02 04 61 63 01 01 30 00 5A 03 02 01 61 2F 62 30 01 02",
    ])
    for line in [
      "0003  48 73                      type: \"Hs\" = Handover Select",
      "0005  12                           version: 0x12 = 1.2",
      "0009  61 63                          type: \"ac\" = Alternative Carrier",
      "000b  01                               power state: 1 = active",
      "000c  01                               carrier data reference length: 1",
      "000d  30                               carrier data reference: \"0\"",
      "000e  00                               auxiliary data references: 0",
      "0012  01                         id length: 1",
      "0016  30                         id: \"0\"",
    ] {
      #expect(lines.contains(line), "\(line)")
    }
  }

  /// A Wi-Fi token as `tapwire encode wifi` writes it: each WSC attribute at its offset,
  /// the Credential's attributes nested, authentication and encryption named.
  @Test func wifiSimpleConfig() throws {
    let encoded = try CLI.run(["encode", "wifi", "MyNet", "pass phrase"]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let lines = try HumanTreeTests.lines(["--as", "ndef", encoded])
    for line in [
      "001f  10 0e 00 33 10 26 00 …       Credential: 51 bytes",
      "0028  10 45 00 05 4d 79 4e …         SSID: \"MyNet\"",
      "0031  10 03 00 02 00 20              Authentication Type: 0020 = WPA2-Personal",
      "0037  10 0f 00 02 00 08              Encryption Type: 0008 = AES",
      "003d  10 27 00 0b 70 61 73 …         Network Key: \"pass phrase\"",
      "                                   WFA version: 2.0",
    ] {
      #expect(lines.contains(line), "\(line)")
    }
  }

  /// Signature 2.0 with a 3-byte signature and an empty certificate chain.
  @Test func signature() throws {
    let lines = try HumanTreeTests.lines(["--as", "ndef", "d10309536967200b02000301020300"])
    for line in [
      "0006  20                           version: 0x20 = 2.0",
      "0007  0b                           signature type: 11",
      "0009  00 03                        signature length: 3",
      "000b  01 02 03                     signature: 3 bytes",
      "000e  00                           certificate chain: format 0, 0 certificates",
    ] {
      #expect(lines.contains(line), "\(line)")
    }
  }

  /// Bluetooth BR/EDR OOB: length and address little-endian, then AD structures.
  @Test func bluetoothOOB() throws {
    let encoded = try CLI.run(["encode", "bluetooth", "00:0D:3C:12:34:56", "Reader"]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let lines = try HumanTreeTests.lines(["--as", "ndef", encoded])
    for line in [
      "0023  10 00                        OOB data length: 16",
      "0025  56 34 12 3c 0d 00            address: 00:0D:3C:12:34:56",
      "002d  52 65 61 64 65 72              complete local name: \"Reader\"",
    ] {
      #expect(lines.contains(line), "\(line)")
    }
  }
}

/// Device Information data elements at their offsets, each with its type and length bytes.
@Suite("tapwire decode: Device Information tree")
struct DeviceInformationTreeTests {
  @Test func elementsAtTheirOffsets() throws {
    // D1 02 0C "Di": manufacturer "AB", model "C", firmware "1.0".
    let result = try CLI.run(["decode", "--as", "ndef", "d1020c4469" + "00024142" + "010143" + "0403312e30"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("0005  00 02 41 42") && $0.hasSuffix("manufacturer: \"AB\"") })
    #expect(lines.contains { $0.hasPrefix("0006  02") && $0.hasSuffix("length: 2") })
    #expect(lines.contains { $0.hasPrefix("0009  01 01 43") && $0.hasSuffix("model: \"C\"") })
    #expect(
      lines.contains { $0.hasPrefix("000c  04 03 31 2e 30") && $0.hasSuffix("firmware version: \"1.0\"") })
  }
}
