// SPDX-License-Identifier: Apache-2.0
import NFCTags
import Testing

@Suite("MIFARE Classic keys and key dictionaries")
struct MifareClassicKeyTests {
  @Test func wellKnownKeys() {
    #expect(MifareClassicKey.transport.bytes == hex("FF FF FF FF FF FF"))
    #expect(MifareClassicKey.madKeyA.bytes == hex("A0 A1 A2 A3 A4 A5"))
    #expect(MifareClassicKey.nfcForumKeyA.bytes == hex("D3 F7 D3 F7 D3 F7"))
    #expect(MifareClassicKey(hex: "a0a1a2a3a4a5") == .madKeyA)
    #expect(MifareClassicKey(hex: "D3:F7:D3:F7:D3:F7") == .nfcForumKeyA)
    #expect("\(MifareClassicKey.madKeyA)" == "MAD key A")
    #expect("\(MifareClassicKey.transport)" == "transport")
    #expect("\(MifareClassicKey.nfcForumKeyA)" == "NFC Forum key A")
  }

  @Test func badKeyText() {
    #expect(MifareClassicKey(hex: "A0A1A2A3A4") == nil)
    #expect(MifareClassicKey(hex: "A0A1A2A3A4A5A6") == nil)
    #expect(MifareClassicKey(hex: "A0A1A2A3A4AG") == nil)
    #expect(MifareClassicKey(bytes: [1, 2, 3]) == nil)
  }

  /// A secret key never shows its bytes in text, only a check value.
  @Test func secretKeysShowOnlyACheckValue() throws {
    let key = try #require(MifareClassicKey(hex: "4A6352684677"))
    let texts = ["\(key)", String(reflecting: key), "\([key])", "\(Optional(key) as Any)"]
    var dumped = ""
    dump(key, to: &dumped)
    for text in texts + [dumped] {
      #expect(!text.lowercased().contains("4a6352684677"), "\(text)")
      #expect(!text.contains(String(0x4A63_5268_4677)), "\(text)")
    }
    #expect("\(key)" == "key check " + hexString(key.checkValue))
    #expect(key.checkValue != MifareClassicKey(hex: "4A6352684678")!.checkValue)
    #expect(key.wellKnownName == nil)
  }

  @Test func dictionaryParsing() throws {
    let text = """
      \u{FEFF}# Proxmark-style dictionary
      FFFFFFFFFFFF
        a0a1a2a3a4a5   # MAD key A\r
      \t
      D3F7D3F7D3F7#NFC
      ffffffffffff
      4A6352684677
      """
    let dictionary = try MifareClassicKeyDictionary(parsing: text)
    #expect(
      dictionary.keys == [.transport, .madKeyA, .nfcForumKeyA, MifareClassicKey(hex: "4A6352684677")!])
    #expect("\(dictionary)" == "4 keys")
    #expect(try MifareClassicKeyDictionary(parsing: "").keys.isEmpty)
    #expect(try MifareClassicKeyDictionary(parsing: "\n\n#\n").keys.isEmpty)
  }

  @Test(
    arguments: [
      ("FFFFFFFFFFFF\nFFFFFFFFFFF\n", 2, 13),
      ("FFFFFFFFFFFF\nFFFFFFFFFFFFF\n", 2, 13),
      ("# x\n\nFFFFFF FFFFFF\n", 3, 5),
      ("FFFFFFFFFFFG", 1, 0),
      ("key FFFFFFFFFFFF", 1, 0),
      ("FFFFFFFFFFFF\r\nA0A1A2A3A4A5 extra\r\n", 2, 14),
    ] as [(String, Int, Int)])
  func dictionaryErrors(text: String, line: Int, offset: Int) {
    let error = tagError { () throws(NFCTagError) in _ = try MifareClassicKeyDictionary(parsing: text) }
    #expect(error == NFCTagError(.invalidKeyDictionaryLine, offset: offset, line: line))
    #expect(error?.line == line)
    #expect(error?.description.hasSuffix("(line \(line))") == true)
  }
}

private func hexString(_ value: UInt16) -> String {
  let digits = Array("0123456789abcdef")
  return String((0..<4).map { digits[Int(value >> UInt16(12 - 4 * $0)) & 0xF] })
}
