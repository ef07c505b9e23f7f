// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ISO7816

@Suite("StatusWord")
struct StatusWordTests {
  @Test(
    "category and meaning from ISO/IEC 7816-4 Tables 5 and 6",
    arguments: [
      (0x9000, "normal", "no further qualification"),
      (0x6110, "normal", "response bytes still available: 16"),
      (0x6100, "normal", "response bytes still available: 256 or more"),
      (0x6282, "warning", "end of file or record reached before reading Ne bytes"),
      (0x63C2, "warning", "counter: 2"),
      (0x6581, "executionError", "memory failure"),
      (0x6700, "checkingError", "wrong length; no further indication"),
      (0x6982, "checkingError", "security status not satisfied"),
      (0x6985, "checkingError", "conditions of use not satisfied"),
      (0x6A82, "checkingError", "file or application not found"),
      (0x6A86, "checkingError", "incorrect parameters P1-P2"),
      (0x6C20, "checkingError", "wrong Le field: 32 bytes available"),
      (0x6D00, "checkingError", "instruction code not supported or invalid"),
      (0x6E00, "checkingError", "class not supported"),
      (0x9100, "proprietary", "proprietary"),
      (0x6000, "invalid", "not a valid status word"),
    ] as [(UInt16, String, String)])
  func categoryAndMeaning(raw: UInt16, category: String, meaning: String) {
    let sw = StatusWord(rawValue: raw)
    #expect(sw.category.name == category)
    #expect(sw.meaning == meaning)
  }

  @Test("61XX, 6CXX and 63CX decode their SW2 without confusing one for another")
  func parameterisedStatusWords() {
    #expect(StatusWord(rawValue: 0x6100).bytesAvailable == 256)
    #expect(StatusWord(rawValue: 0x61FF).bytesAvailable == 255)
    #expect(StatusWord(rawValue: 0x6C00).exactLength == 256)
    #expect(StatusWord(rawValue: 0x6C05).exactLength == 5)
    #expect(StatusWord(rawValue: 0x63C3).counterValue == 3)
    #expect(StatusWord(rawValue: 0x63C3).bytesAvailable == nil)
    #expect(StatusWord(rawValue: 0x6310).counterValue == nil)
    #expect(StatusWord.counter(15).rawValue == 0x63CF)
    #expect(StatusWord.bytesAvailable(256).rawValue == 0x6100)
    #expect(StatusWord.wrongLe(exact: 9).rawValue == 0x6C09)
  }

  @Test("SW1/SW2 split and text forms")
  func bytesAndText() {
    let sw = StatusWord(sw1: 0x6A, sw2: 0x82)
    #expect(sw == .fileNotFound)
    #expect(sw.sw1 == 0x6A && sw.sw2 == 0x82)
    #expect(sw.description == "6A82")
    #expect(sw.hexString == "6a82")
    #expect(StatusWord.success.isSuccess)
    #expect(!StatusWord.counterZero.isSuccess)
  }

  @Test("every 16-bit value has a category and a non-empty meaning")
  func total() {
    var names: Set<String> = []
    for raw in 0...0xFFFF {
      let sw = StatusWord(rawValue: UInt16(raw))
      names.insert(sw.category.name)
      #expect(!sw.meaning.isEmpty)
    }
    #expect(names.count == 6)
  }
}
