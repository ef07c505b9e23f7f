// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions
import Testing

@testable import TagTrust

/// One published UID and signature pair, with the key family that signed it.
struct SignedUID: Sendable, CustomStringConvertible {
  let family: String
  let uid: String
  let signature: String
  var description: String { "\(family) \(uid)" }
}

/// proxmark3's `tools/recover_pk.py` self-test pairs (real chips; the script recovers each
/// family's public key from them). ISO/IEC 15693 UIDs are written here as printed (`E0`
/// first), the script's reversed ones turned back; VivoKey's signature as the tag returns it
/// (the script's bytes reversed, as its comment says).
let publishedPairs: [SignedUID] = [
  SignedUID(
    family: "UltralightEV1", uid: "04C1285A373080",
    signature: "CEA2EB0B3C95D0844A95B824A7553703B3702378033BF0987899DB70151A19E7"),
  SignedUID(
    family: "UltralightEV1", uid: "04C2285A373080",
    signature: "A561506723D422D29ED9F93E60D20B9ED1E05CC1BF81DA19FE500CA0B81CC0ED"),
  SignedUID(
    family: "NTAG21x", uid: "04E10CDA993C80",
    signature: "8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3"),
  SignedUID(
    family: "NTAG21x", uid: "04DB0BDA993C80",
    signature: "6048EFD9417CD10F6B7F1818D471A7FE5B46868D2EABDC6307A1E0AAE139D8D0"),
  SignedUID(
    family: "NTAG5", uid: "E00401582AFC0300",
    signature: "A2AF1B088305152EA9197BA9446647BD8195EB75F3A19B31A2B9AE2274FA29A3"),
  SignedUID(
    family: "NTAG5", uid: "E0040158CEEE0300",
    signature: "D29D7B55B2F90494E9A886B939B580857BE5C1471D448D56D40ACD38143010C8"),
  SignedUID(
    family: "MIFAREClassicEV1", uid: "0433619AB35780",
    signature: "B9FAE369EC21C980650D87ED9AE9B1610E859131B4B8699C647548AB68D249BB"),
  SignedUID(
    family: "MIFAREClassicEV1", uid: "524374E2",
    signature: "F8758CE30A58553A9985C458FB9C7D340FCFB04847B928A0667939272BC58B5E"),
  SignedUID(
    family: "MIFAREClassicEV1", uid: "53424B8A",
    signature: "B4F533E8C06C021E242EFE8558C1672ED7022E5AE4E7AA2D46113B0AB6928AFC"),
  SignedUID(
    family: "MIFAREClassicEV1", uid: "BD2A4146",
    signature: "19505576ED327D8F8870C86B1ED00898BFEDFFF27CC82FC515BA2EEC26050873"),
  SignedUID(
    family: "DESFireLight", uid: "0439556ACB6480",
    signature:
      "D5BD0978106E1E38B513642335966AB21E9F950DCFCFAB45FF13D0DC3CA4C2AE7E0D671DF1240937D040DAC4601C5F66ED62C546EE03ED08"
  ),
  SignedUID(
    family: "DESFireLight", uid: "043B156ACB6480",
    signature:
      "76B46932BF2FCF4931A24C755F5CB1686B914F1856177686B864BDAD58EFA6A7493E5C2232F3ADDAA434EA4647BFD1D385BDA6115E77D74C"
  ),
  SignedUID(
    family: "DESFireEV2", uid: "042A41CAE45380",
    signature:
      "B2769F8DDB575AEA2A680ADCA8FFED4FAB81A1E9908E2B82FE0FABB697BBD9B23835C416970E75768F12902ACA491349E94E6589EAF4F508"
  ),
  SignedUID(
    family: "DESFireEV2", uid: "045640CAE45380",
    signature:
      "D34B53A8C2C100D700DEA1C4C0D0DE4409F3A418CD8D57C4F41F146E42AD9A55F014199ABBF5CA259C7799DB0AE20D5E77D4950AC7E95D33"
  ),
  SignedUID(
    family: "DESFireEV2", uid: "040D259A965B80",
    signature:
      "B158073A7100C88C3726F4299FA58311FC3CB18744686DE3F234928AD74578F5CAD7FCEC1DCB962ECC7CC000B8557B37F45B76DC6573A58F"
  ),
  SignedUID(
    family: "DESFireEV2XL", uid: "044ca092806480",
    signature:
      "9d86dacd3866058b1cf122ff5fc80e997251d99179bc1f996acf6ed7d495da5c39dde699e2760c08d747ef08487b9897d48957e5afd755e2"
  ),
  SignedUID(
    family: "DESFireEV2XL", uid: "045793d28a6380",
    signature:
      "e509576a484b4f93b5b97ffa04cb297cae97cff1071bdefd23d5054513e3036203fdd1cdd2cdead0aead88df24ffe7cdaafee1e58a55a745"
  ),
  SignedUID(
    family: "DESFireEV3", uid: "04448BD2DB6B80",
    signature:
      "5CBB5632795C8F15263FEFB095B51C7B541AFD914A1AE44EF6FB8AF605EDF13DBFEE6C3A2DB372245E671DFE0D42CB1F0D0B8FE67A89D2F6"
  ),
  SignedUID(
    family: "DESFireEV3", uid: "04445DD2DB6B80",
    signature:
      "166BFD9F9BFAA451172566101580DF9894F582C4A4E258C15037AD2F35A475CF1D7FB817618623A6569F991931AFB2766984E21A18512A6D"
  ),
  SignedUID(
    family: "MIFAREPlusEV1", uid: "042A2B221C5080",
    signature:
      "BAC40CD88E9193C58ADA5055350C4F648EB5A7AEC4FCF9BD4CDD7B1C558DE5F59C6636F26286ED48622AAA2331D4DF1CEE23B57B94BDA631"
  ),
  SignedUID(
    family: "MIFAREPlusEV1", uid: "12817C48",
    signature:
      "3351979A3449CACD9EE113A75B862917F03EFAE68DA399C06342BF8583C88DFE769DF49754A96F7C28B57189FB05B9C10E2305D41423A6EB"
  ),
  SignedUID(
    family: "DESFireEV1", uid: "042468222F5C80",
    signature:
      "B9211E320F321BD1D0E158E10FF15109B389638BAE15D9909D7725BF1250ED236D66F1AF75C94D60330E4E92535F5E6997675281A5687173"
  ),
  SignedUID(
    family: "DESFireEV1", uid: "042938222F5C80",
    signature:
      "18B642797D1FD71806146A7A6EC778D3FDD04F39C4A3B36A592BD1A114DC44E5528380FA766C0B7EA32B284AFBE84300B620369F0686D8CC"
  ),
  SignedUID(
    family: "NTAG424DNA", uid: "0463474AA26A80",
    signature:
      "27E9A50E6CA4BA9037C02F7D20A80D0284D0C1D83C67F5A5AC1D8A4EF86C9508417E4E9C6F85AA7920F0ABDED984CAF20467D66EA54BBF08"
  ),
  SignedUID(
    family: "NTAG424DNA", uid: "04C46C222A6380",
    signature:
      "344A806EBF704C05C19215D2F840529CE365AAD2D08A469A95896D75D477D9FAB02A0C827E9F215BD8EB0E56A3A9A008FB75D706AABBD4DA"
  ),
  SignedUID(
    family: "VivoKeySpark1", uid: "E0040118009C870C",
    signature: "3BBF9C9A6CD19A9F77A88CDF0C9D54D7D48C21AB849D5F6AEF521921E1034E4B"),
  SignedUID(
    family: "VivoKeySpark1", uid: "E0040118009B4D62",
    signature: "ABD7BE4C493B88B1CF518BC71C5178495847376E91DE8978EC89337C7413CF25"),
  SignedUID(
    family: "ICODE", uid: "E0040118009B5FEE",
    signature: "32D9E7579CD77E6F1FA11419231E874826984C5F189FDE1421684563A9663377"),
  SignedUID(
    family: "ICODE", uid: "E00401082AD28E83",
    signature: "CAE8183CB4823C765AFDEB78C9D66C959990FD52A5820E76E1D6E025D76EAD79"),
  SignedUID(
    family: "ICODE", uid: "E00401086FC2621F",
    signature: "9F47BF33D9ED62A62AFEF5685BC4006CFB290C344EAD5C5B49BF976804A9EE62"),
  SignedUID(
    family: "MIFAREPlusTroika", uid: "04B59F6A226F82",
    signature:
      "6F577EB7F570D74DB6250477427F68A0088762BD318767537122919A7916597149F9D16D8B135E9BF826FB28AE293F3168661CD4A049FAED"
  ),
  SignedUID(
    family: "MIFAREPlusTroika", uid: "04B44A82D80F92",
    signature:
      "A0868ECF26733D3C3C838D055968B4559F77693CC3E346E3A4741BC826801F8360FD88857BEC440AAD3A21153D64302DEB6F5ED40B15C3F7"
  ),
  SignedUID(
    family: "UltralightAES", uid: "045E4CC2451390",
    signature:
      "C9BBDA1B99EB6634CDFD8E3251AC5C4742EA5FA507B8A8A8B39B19AB7340D173331589C54C56C49F0CCA6DDBAC1E492A"),
  SignedUID(
    family: "UltralightAES", uid: "043F88C2451390",
    signature:
      "5C2055A7373F119C3FDD9843020B06AA0E6DE18C16496C425C4AD971A50F05FA1A67B9E39CA60C355EEEEBF8214A84A5"),
  SignedUID(
    family: "UltralightAESAlt", uid: "04A31232241C90",
    signature:
      "057595DCC601CA7E21341F1F978FA134F0204D87A33749C56DDB4ABD6F1F26194341DB10093B34C42F524A30DCC5CE54"),
  SignedUID(
    family: "UltralightAESAlt", uid: "041BC1D2F31B90",
    signature:
      "FB5CF8F1B3CC39984BCA54A50FCF47ACFDC8C969010C1F4599554AF9A8E4F2B8371524855E45AD7EE71179A660D27667"),
  SignedUID(
    family: "MIFAREClassicQL88", uid: "30933C61",
    signature: "AEA4DD0B800FAC63D4DE08EE91F4650ED825FD6B4D7DEEE98DBC9BAE10BE003E"),
  SignedUID(
    family: "MIFAREClassicQL88", uid: "20593261",
    signature: "F762CDD59EEDC075F4DDBA7ECD529FEEE5135C65A84D12EF0A250A321B2012F5"),
  SignedUID(
    family: "NTAG22xDNA", uid: "043302218D3D00",
    signature:
      "6A5D5E034F4FC823CACAB56C1A77A409B8DB345F89BD3FD59ED1F9C0093518609BE62D0A20764D2011E47EFA187F29AA"),
  SignedUID(
    family: "NTAG22xDNA", uid: "046910EA841390",
    signature:
      "5A424A22BE320B86CB2576D4E0112B28F21D5F994B72AD25788F5B5EAE5ADF2592B773CF3F68DE4585A1D084EC879FA6"),
  SignedUID(
    family: "ST25TA", uid: "02E3002FCD4038",
    signature: "E71B844BCE76C8110B36E5B1E1C0410381BD994F226D5C11D84CA6697A5EB572"),
  SignedUID(
    family: "ST25TA", uid: "02E3002FCD4205",
    signature: "5BE94577A06BC3030B1B3CECDC846E8128DDF81008DDEECBAF78CE91CDA27DBD"),
  SignedUID(
    family: "ST25TA", uid: "02E3002FCD44BE",
    signature: "895EE509DE9D98E2FDAC7ADCC976F24B085D73D063986EF59FE260D9BE08D28C"),
  SignedUID(
    family: "ST25TN", uid: "020339A5940000",
    signature: "A5E968CEDD7278C46F0FF7ECABAD649C229BCA444915D307E69C1945FA95C9C6"),
  SignedUID(
    family: "ST25TN", uid: "02643AFD04A000",
    signature: "0938D86193C603E1B30B17C8117A930205CAC1A8CE88F0EA269FCE2A44244D7B"),
  SignedUID(
    family: "ST25TV", uid: "E00208000A227AAA",
    signature: "FE458A550ACD30B45B9C4D10676FC63E30AC69027217547FBDF04A8F7942AD3B"),
  SignedUID(
    family: "ST25TV", uid: "E00208000A17DB6E",
    signature: "B3ED5025F16455AAC6012CA1C1FC5F94F8C805AF1EF6A86B646081C9916CDD2E"),
  SignedUID(
    family: "ST25TV", uid: "E00208000A174F60",
    signature: "AB42F1FA68D7470F91D4ED77C4D951B1B4AAB006812BE194BFEB7AAE48E4FA45"),
]

@Suite("Originality signatures")
struct OriginalitySignatureTests {
  @Test("a published pair is genuine, and the key found names its family", arguments: publishedPairs)
  func genuineFound(pair: SignedUID) throws {
    let verdict = try OriginalitySignature.verify(
      uid: hex(pair.uid), signature: hex(pair.signature), crypto: crypto)
    guard case .genuine(let family, let key) = verdict else {
      Issue.record("\(pair): \(verdict)")
      return
    }
    #expect(family == pair.family)
    #expect(key.family == pair.family)
  }

  @Test("a published pair is genuine when its family is named", arguments: publishedPairs)
  func genuineNamed(pair: SignedUID) throws {
    let verdict = try OriginalitySignature.verify(
      uid: hex(pair.uid), signature: hex(pair.signature), family: pair.family.lowercased(), crypto: crypto)
    guard case .genuine(let family, _) = verdict else {
      Issue.record("\(pair): \(verdict)")
      return
    }
    #expect(family == pair.family)
  }

  @Test("one bit flipped in the signature is not genuine", arguments: publishedPairs)
  func signatureBitFlipped(pair: SignedUID) throws {
    let signature = hex(pair.signature)
    var generator = SystemRandomNumberGenerator()
    let bit = Int.random(in: 0..<(signature.count * 8), using: &generator)
    let verdict = try OriginalitySignature.verify(
      uid: hex(pair.uid), signature: flipped(signature, bit: bit), crypto: crypto)
    #expect(!verdict.isGenuine, "bit \(bit)")
    if case .notGenuine(let tried) = verdict {
      #expect(tried == OriginalityKey.all.filter { $0.curve.signatureSize == signature.count }.count)
    } else {
      Issue.record("bit \(bit): \(verdict)")
    }
  }

  @Test("one bit flipped in the UID is not genuine", arguments: publishedPairs)
  func uidBitFlipped(pair: SignedUID) throws {
    let uid = hex(pair.uid)
    for bit in [0, uid.count * 8 - 1, uid.count * 4] {
      let verdict = try OriginalitySignature.verify(
        uid: flipped(uid, bit: bit), signature: hex(pair.signature), crypto: crypto)
      #expect(!verdict.isGenuine, "bit \(bit): \(verdict)")
    }
  }

  @Test(
    "the wrong family named is not genuine (same curve) or unknown (other curve)", arguments: publishedPairs)
  func wrongFamily(pair: SignedUID) throws {
    let signature = hex(pair.signature)
    for other in OriginalityKey.all where !other.belongs(to: pair.family) {
      // Keys the pair's own key also answers for (shared keys) are not "wrong".
      let verdict = try OriginalitySignature.verify(
        uid: hex(pair.uid), signature: signature, family: other.family, crypto: crypto)
      let sameKey = OriginalityKey.all.contains {
        $0.belongs(to: other.family) && $0.belongs(to: pair.family)
      }
      if sameKey { continue }
      if other.curve.signatureSize == signature.count
        || OriginalityKey.all.contains(where: {
          $0.belongs(to: other.family) && $0.curve.signatureSize == signature.count
        })
      {
        guard case .notGenuine = verdict else {
          Issue.record("\(pair) as \(other.family): \(verdict)")
          continue
        }
      } else {
        #expect(verdict == .unknownFamily, "\(pair) as \(other.family)")
      }
    }
  }

  @Test(
    "every family named, its key included, refuses a signature it did not make",
    arguments: OriginalityKey.familyNames)
  func everyFamilyRefusesAForgery(family: String) throws {
    // Keys without a published pair (NXPTagInfo, MIFAREPlusEV2) get their negative here too:
    // a well-formed r‖s (each scalar below every curve's order) that no maker key made.
    let keys = OriginalityKey.all.filter { $0.belongs(to: family) }
    try #require(!keys.isEmpty)
    for key in keys {
      let forged = [UInt8](repeating: 0x11, count: key.curve.signatureSize)
      let verdict = try OriginalitySignature.verify(
        uid: hex("04E10CDA993C80"), signature: forged, family: family, crypto: crypto)
      guard case .notGenuine(let tried) = verdict else {
        Issue.record("\(family): \(verdict)")
        continue
      }
      #expect(tried >= 1)
    }
  }

  @Test("an all-zero or empty signature is no signature, whatever its length")
  func noSignature() throws {
    for count in [0, 32, 48, 56, 7] {
      let verdict = try OriginalitySignature.verify(
        uid: hex("04E10CDA993C80"), signature: [UInt8](repeating: 0, count: count), crypto: crypto)
      #expect(verdict == .noSignature)
    }
  }

  @Test("a signature length no curve has, or a family nobody has, checks nothing")
  func unknownFamily() throws {
    let uid = hex("04E10CDA993C80")
    let signature = hex("8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3")
    #expect(
      try OriginalitySignature.verify(uid: uid, signature: signature + [1], crypto: crypto) == .unknownFamily)
    #expect(
      try OriginalitySignature.verify(uid: uid, signature: signature, family: "NTAG999", crypto: crypto)
        == .unknownFamily)
    // A curve the family does not use: an NTAG21x signature checked as DESFire EV3.
    #expect(
      try OriginalitySignature.verify(uid: uid, signature: signature, family: "DESFireEV3", crypto: crypto)
        == .unknownFamily)
  }

  @Test("a UID that is empty or longer than ten bytes is an error")
  func uidLength() {
    #expect(throws: TagTrustError(.invalidUIDLength, offset: 0)) {
      try OriginalitySignature.verify(uid: [], signature: [1, 2], crypto: crypto)
    }
    #expect(throws: TagTrustError(.invalidUIDLength, offset: 10)) {
      try OriginalitySignature.verify(
        uid: [UInt8](repeating: 4, count: 11), signature: [1, 2], crypto: crypto)
    }
  }

  @Test(
    "every table key is a point of its curve's size, and every family is tested",
    arguments: OriginalityKey.all)
  func table(key: OriginalityKey) {
    #expect(key.publicKey.count == 1 + 2 * key.curve.scalarSize)
    #expect(key.publicKey.first == 0x04)
    #expect(!key.source.isEmpty)
    if !["NXPTagInfo", "MIFAREPlusEV2"].contains(key.family) {
      #expect(publishedPairs.contains { $0.family == key.family }, "no published pair for \(key.family)")
    }
  }

  /// `tapwire` does not link TagTrust, so its option table keeps the names itself.
  @Test("the option table's --family choices are the key table's family names")
  func optionTableFamilies() {
    #expect(CommandTable.signatureFamilies == OriginalityKey.familyNames)
  }

  @Test("family names are unique per key and listed once")
  func familyNames() {
    let names = OriginalityKey.familyNames
    #expect(Set(names).count == names.count)
    #expect(Set(OriginalityKey.all.map(\.family)).count == OriginalityKey.all.count)
    for key in OriginalityKey.all { #expect(names.contains(key.family)) }
  }
}
