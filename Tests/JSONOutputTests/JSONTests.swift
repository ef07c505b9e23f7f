// SPDX-License-Identifier: Apache-2.0
import JSONOutput
import Testing

/// The bytes both executables print: member order as given, the two layouts, the escapes.
@Suite struct JSONTests {
  static let value: JSON = .object([
    ("ok", .bool(true)), ("format", .string("atr")), ("count", .int(-3)), ("none", .null),
    ("list", .array([.int(1), .object([("name", .string("TA1"))]), .array([])])), ("empty", .object([])),
  ])

  @Test func compactHasNoSpaces() {
    #expect(
      Self.value.serialized
        == #"{"ok":true,"format":"atr","count":-3,"none":null,"list":[1,{"name":"TA1"},[]],"empty":{}}"#)
  }

  @Test func spacedHasOneSpaceAfterEachCommaAndColon() {
    #expect(
      Self.value.serialized(.spaced)
        == #"{"ok": true, "format": "atr", "count": -3, "none": null, "list": [1, {"name": "TA1"}, []], "empty": {}}"#
    )
  }

  @Test(arguments: [
    ("plain", #""plain""#),
    ("a\"b\\c", #""a\"b\\c""#),
    ("line\nreturn\rtab\t", #""line\nreturn\rtab\t""#),
    ("\u{0}\u{1F}\u{7F}", #""\u0000\u001f\#u{7F}""#),
    ("é ✓ 🙂", #""é ✓ 🙂""#),
  ])
  func stringEscapes(text: String, expected: String) {
    #expect(JSON.string(text).serialized == expected)
  }

  @Test func optionalsBecomeNull() {
    #expect(JSON(nil as String?).serialized == "null")
    #expect(JSON(nil as Int?).serialized == "null")
    #expect(JSON("x" as String?).serialized == #""x""#)
    #expect(JSON(7 as Int?).serialized == "7")
  }
}
