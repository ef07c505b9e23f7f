// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TagTrust

/// NXP AN12304's LRP vectors (as sdm-backend's tests/test_lrp.py and test_lrp_cmac_vectors.py
/// quote them).
@Suite("Leakage Resilient Primitive (AN12304)")
struct LeakageResilientPrimitiveTests {
  @Test("plaintexts and updated keys (Algorithms 1 and 2)")
  func derivation() throws {
    let lrp = try LeakageResilientPrimitive(key: hex("567826B8DA8E768432A9548DBE4AA3A0"), crypto: crypto)
    #expect(lrp.plaintexts.count == 16)
    #expect(lrp.plaintexts[0] == hex("AC20D39F5341FE98DFCA21DA86BA7914"))
    #expect(lrp.plaintexts[15] == hex("71B444AF257A93215311D758DD333247"))
    #expect(lrp.updatedKeys[0] == hex("163D14ED24ED935373568EC521E96CF4"))
    #expect(lrp.updatedKeys[2] == hex("FE30AB50467E61783BFE6B5E0560160E"))
  }

  @Test(
    "evaluation (Algorithm 3)",
    arguments: [
      ("567826B8DA8E768432A9548DBE4AA3A0", 2, "1359", true, "1BA2C0C578996BC497DD181C6885A9DD"),
      ("88B95581002057A93E421EFE4076338B", 2, "77299D", true, "E9C04556A214AC3297B83E4BDF46F142"),
      (
        "9AFF3EF56FFEC3153B1CADB48B445409", 3, "4B073B247CD48F7E0A", false, "909415E5C8BE77563050F2227E17C0E4"
      ),
    ])
  func evaluation(key: String, index: Int, input: String, final: Bool, expected: String) throws {
    let lrp = try LeakageResilientPrimitive(key: hex(key), crypto: crypto)
    #expect(try lrp.evaluate(hex(input), keyIndex: index, final: final, crypto: crypto) == hex(expected))
  }

  @Test("LRICB decryption (padding left on)")
  func decryption() throws {
    let lrp = try LeakageResilientPrimitive(key: hex("E0C4935FF0C254CD2CEF8FDDC32460CF"), crypto: crypto)
    let plain = try lrp.decrypt(
      hex("FCBBACAA4F29182464F99DE41085266F480E863E487BAAF687B43ED1ECE0D623"), counter: hex("C3315DBF"),
      keyIndex: 0, crypto: crypto)
    #expect(plain == hex("012D7F1653CAF6503C6AB0C1010E8CB0") + [0x80] + [UInt8](repeating: 0, count: 15))
  }

  @Test(
    "CMAC over LRP",
    arguments: [
      ("63A0169B4D9FE42C72B2784C806EAC21", "", "0E07C601970814A4176FDA633C6FC3DE"),
      ("8195088CE6C393708EBBE6C7914ECB0B", "BBD5B85772C7", "AD8595E0B49C5C0DB18E77355F5AAFF6"),
      ("59242F9365E79E5F155B1430D8BA2E56", "", "B8306666C22F9FF3B53A074C6004ABB5"),
    ])
  func cmac(key: String, message: String, expected: String) throws {
    let lrp = try LeakageResilientPrimitive(key: hex(key), crypto: crypto)
    #expect(try lrp.cmac(hex(message), crypto: crypto) == hex(expected))
  }

  @Test("CMAC subkey: K0 times 4 in GF(2^128)")
  func subkey() throws {
    let lrp = try LeakageResilientPrimitive(key: hex("8195088CE6C393708EBBE6C7914ECB0B"), crypto: crypto)
    let k0 = try lrp.evaluate([UInt8](repeating: 0, count: 16), keyIndex: 0, crypto: crypto)
    #expect(
      LeakageResilientPrimitive.doubled(LeakageResilientPrimitive.doubled(k0))
        == hex("2D22571A33B2965A9B49FF4395A43046"))
  }

  @Test("the counter increments big-endian and wraps")
  func counter() {
    for (before, after) in [
      ("00", "01"), ("FF", "00"), ("1211", "1212"), ("FFFF", "0000"), ("FFFFFFFF", "00000000"),
    ] {
      var counter = hex(before)
      LeakageResilientPrimitive.increment(&counter)
      #expect(counter == hex(after))
    }
  }
}
