// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

/// A card of `kind` formatted for NDEF from transport configuration.
func formattedMifareClassic(_ kind: MifareClassicCardKind, keyB: MifareClassicKey = .transport) throws
  -> [UInt8]
{
  var image = MifareClassic.blankImage(kind)
  let plan = try MifareClassic.formatPlan(image, keyB: keyB)
  plan.apply(to: &image)
  #expect(image == plan.finalImage)
  return image
}

/// The message of a MIFARE Classic image, as bytes (`[]` for an empty NDEF TLV).
func mifareClassicMessage(_ image: [UInt8], options: TagDecodingOptions = .strict) throws(NFCTagError)
  -> [UInt8]
{
  let view = try MifareClassicTagView(validating: image.span.bytes, options: options)
  return view.tlvArea.assembledNDEFBytes()
}

@Suite("MIFARE Classic NDEF images")
struct MifareClassicTagTests {
  /// A 1K card formatted by hand (AN1304 §6.4.1, AN10787): block 1 `14 01 03E1…`, block 2
  /// `03E1…`, block 3 `A0A1A2A3A4A5 78 77 88 C1 keyB`, block 4 `03 00 FE`, every NFC
  /// trailer `D3F7D3F7D3F7 7F 07 88 40 keyB`.
  @Test func oneKLayoutByHand() throws {
    let keyB = try #require(MifareClassicKey(hex: "0102030405 06"))
    let image = try formattedMifareClassic(.classic1K, keyB: keyB)
    func block(_ n: Int) -> [UInt8] { Array(image[n * 16..<(n + 1) * 16]) }
    #expect(block(0) == hex("01 02 03 04 04 08 04 00 00 00 00 00 00 00 00 00"))
    #expect(block(1) == hex("14 01 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1"))
    #expect(block(2) == hex("03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1"))
    #expect(block(3) == hex("A0 A1 A2 A3 A4 A5 78 77 88 C1 01 02 03 04 05 06"))
    #expect(block(4) == hex("03 00 FE 00 00 00 00 00 00 00 00 00 00 00 00 00"))
    for sector in 1..<16 {
      #expect(block(sector * 4 + 3) == hex("D3 F7 D3 F7 D3 F7 7F 07 88 40 01 02 03 04 05 06"))
    }
    let view = try MifareClassicTagView(validating: image.span.bytes)
    #expect(view.kind == .classic1K)
    #expect(view.manufacturerBlock?.uid == [1, 2, 3, 4])
    #expect(view.madGeneralPurposeByte == .mad1)
    #expect(view.ndefSectors == Array(1...15))
    #expect(view.tlvArea.area.dataByteCount == 15 * 48)
    #expect(view.maximumNDEFSize == 720 - 4)
    #expect(view.tlvArea.area.ndefTLV?.offset == 64)
    #expect(view.tlvArea.area.ndefMessageLength == 0)
    #expect(view.isReadOnly == false)
    #expect(view.warnings.isEmpty)
    #expect(try view.tlvArea.message() == nil)
  }

  /// A 4K card: sectors 0 and 16 hold the MAD (GPB C2, MAD2 CRC E8), 30 small NFC sectors
  /// of 48 bytes and 8 large of 240: 3360 data bytes.
  @Test func fourKLayoutByHand() throws {
    let image = try formattedMifareClassic(.classic4K)
    func block(_ n: Int) -> [UInt8] { Array(image[n * 16..<(n + 1) * 16]) }
    #expect(block(0) == hex("01 02 03 04 04 18 02 00 00 00 00 00 00 00 00 00"))
    #expect(block(3) == hex("A0 A1 A2 A3 A4 A5 78 77 88 C2 FF FF FF FF FF FF"))
    #expect(block(64) == hex("E8 01 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1"))
    #expect(block(66) == hex("03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1"))
    #expect(block(67) == hex("A0 A1 A2 A3 A4 A5 78 77 88 C2 FF FF FF FF FF FF"))
    #expect(block(143) == hex("D3 F7 D3 F7 D3 F7 7F 07 88 40 FF FF FF FF FF FF"))
    #expect(block(255) == block(143))
    let view = try MifareClassicTagView(validating: image.span.bytes)
    #expect(view.mad.hasMAD2)
    #expect(view.ndefSectors == Array(1...15) + Array(17...39))
    #expect(view.tlvArea.area.dataByteCount == 30 * 48 + 8 * 240)
    #expect(view.maximumNDEFSize == 3360 - 4)
  }

  @Test func miniLayout() throws {
    let image = try formattedMifareClassic(.mini)
    let view = try MifareClassicTagView(validating: image.span.bytes)
    #expect(view.kind == .mini)
    #expect(view.ndefSectors == [1, 2, 3, 4])
    #expect(view.maximumNDEFSize == 4 * 48 - 2)
  }

  /// A 100-byte message in a 1K card: `03 64` at 64, 46 bytes in blocks 4-6, the trailer
  /// (block 7) skipped, then sectors 2 and 3. The body goes first, the length block last.
  @Test func writePlanSkipsTrailersInTearingSafeOrder() throws {
    let image = try formattedMifareClassic(.classic1K)
    let message = sizedMessage(100)
    let plan = try MifareClassic.writePlan(message, into: image)
    #expect(plan.writes.map(\.block) == [5, 6, 8, 9, 10, 12, 4])
    #expect(plan.writes.map(\.sector) == [1, 1, 2, 2, 2, 3, 1])
    #expect(plan.writes.allSatisfy { $0.keySlot == .a && $0.key == .nfcForumKeyA })
    #expect(Array(plan.finalImage[64..<66]) == [0x03, 100])
    #expect(Array(plan.finalImage[112..<128]) == Array(image[112..<128]))
    var written = image
    plan.apply(to: &written)
    #expect(written == plan.finalImage)
    #expect(try mifareClassicMessage(written) == message)
    let view = try MifareClassicTagView(validating: written.span.bytes)
    #expect(view.tlvArea.area.isNDEFContiguous == false)  // the message spans a trailer
    #expect(try view.tlvArea.message()?.records.count == 1)
    // The terminator follows at logical byte 102: sector 3, byte 6.
    #expect(written[192 + 6] == 0xFE)
  }

  /// Every prefix of the plan reads back as the old message, an empty one, or the new one.
  @Test(arguments: [MifareClassicCardKind.mini, .classic1K, .classic4K] as [MifareClassicCardKind])
  func tearingLeavesAValidImage(kind: MifareClassicCardKind) throws {
    var image = try formattedMifareClassic(kind)
    let first = sizedMessage(60, seed: 0x61)
    let written = try MifareClassic.writePlan(first, into: image)
    written.apply(to: &image)
    let size = min(kind.memorySize / 2, 1500)
    let second = sizedMessage(
      min(size, try MifareClassicTagView(validating: image.span.bytes).maximumNDEFSize))
    let plan = try MifareClassic.writePlan(second, into: image)
    for count in 0...plan.writes.count {
      var torn = image
      plan.apply(to: &torn, count: count)
      let read = try mifareClassicMessage(torn)
      #expect(read == first || read == [] || read == second, "after \(count) writes")
      if count == plan.writes.count { #expect(read == second) }
    }
  }

  @Test(arguments: [MifareClassicCardKind.mini, .classic1K, .classic4K] as [MifareClassicCardKind])
  func largestMessageRoundTrips(kind: MifareClassicCardKind) throws {
    var image = try formattedMifareClassic(kind)
    let maximum = try MifareClassicTagView(validating: image.span.bytes).maximumNDEFSize
    let message = sizedMessage(maximum)
    let written = try MifareClassic.writePlan(message, into: image)
    written.apply(to: &image)
    #expect(try mifareClassicMessage(image) == message)
    let tooLarge = tagError { () throws(NFCTagError) in
      _ = try MifareClassic.writePlan(sizedMessage(maximum + 1), into: image)
    }
    #expect(tooLarge?.code == .messageTooLarge)
  }

  @Test func writesAnNDEFModel() throws {
    var image = try formattedMifareClassic(.classic1K)
    let message = try NDEFMessage(parsing: uriMessage("tapwire.example/mfc"))
    let written = try MifareClassic.writePlan(message, into: image)
    written.apply(to: &image)
    #expect(try MifareClassicTagView(validating: image.span.bytes).tlvArea.message() == message)
  }

  /// AN1304 READ-ONLY: `07 8F 0F` with GPB 43 on NFC sectors, the MAD locked with its GPB
  /// kept; written with key B, the NDEF sectors first, MAD1 last.
  @Test func readOnly() throws {
    let keyB = try #require(MifareClassicKey(hex: "B0B1B2B3B4B5"))
    var image = try formattedMifareClassic(.classic4K, keyB: keyB)
    let written = try MifareClassic.writePlan(uriMessage("locked.example"), into: image)
    written.apply(to: &image)
    let plan = try MifareClassic.readOnlyPlan(image, keyB: keyB)
    #expect(plan.writes.count == 40)
    #expect(plan.writes.first?.sector == 39 && plan.writes.last?.sector == 0)
    #expect(plan.writes[plan.writes.count - 2].sector == 16)
    #expect(plan.writes.allSatisfy { $0.keySlot == .b && $0.key == keyB })
    plan.apply(to: &image)
    #expect(Array(image[112..<128]) == hex("D3 F7 D3 F7 D3 F7 07 8F 0F 43 B0 B1 B2 B3 B4 B5"))
    #expect(Array(image[48..<64]) == hex("A0 A1 A2 A3 A4 A5 07 8F 0F C2 B0 B1 B2 B3 B4 B5"))
    for write in plan.writes {
      let trailer = try MifareClassicSectorTrailer(validating: write.write.bytes.span.bytes)
      #expect(trailer.accessBits.isConsistent)
    }
    let view = try MifareClassicTagView(validating: image.span.bytes)
    #expect(view.isReadOnly == true)
    #expect(try view.tlvArea.message() == NDEFMessage(parsing: uriMessage("locked.example")))
    let error = tagError { () throws(NFCTagError) in
      _ = try MifareClassic.writePlan(uriMessage("again"), into: image)
    }
    #expect(error == NFCTagError(.readOnly, offset: 112 + 9))
    let again = tagError { () throws(NFCTagError) in _ = try MifareClassic.readOnlyPlan(image, keyB: keyB) }
    #expect(again == NFCTagError(.readOnly, offset: 255 * 16))
  }

  /// A card that is not in transport configuration is not formatted over.
  @Test func formatRefusesALockedCard() throws {
    var image = MifareClassic.blankImage(.classic1K)
    // Sector 1's trailer (block 7) read-only: block 4 cannot be written.
    image.replaceSubrange(118..<121, with: MifareClassicAccessBits.readOnly.bytes)
    let error = tagError { () throws(NFCTagError) in _ = try MifareClassic.formatPlan(image) }
    #expect(error == NFCTagError(.readOnly, offset: 112))
    let size = tagError { () throws(NFCTagError) in _ = try MifareClassic.formatPlan([0, 1, 2]) }
    #expect(size == NFCTagError(.invalidImageSize, offset: 3))
  }

  /// Formatting writes the NFC sectors first and the MAD1 trailer (DA) last, all with the
  /// transport key A; no trailer it writes has inconsistent access bits.
  @Test func formatOrder() throws {
    let plan = try MifareClassic.formatPlan(MifareClassic.blankImage(.classic1K))
    #expect(plan.writes.map(\.block) == [4, 7] + (2...15).map { $0 * 4 + 3 } + [1, 2, 3])
    #expect(plan.writes.allSatisfy { $0.keySlot == .a && $0.key == .transport })
    for write in plan.writes where MifareClassicCardKind.classic1K.isTrailer(block: write.block) {
      #expect(
        try MifareClassicSectorTrailer(validating: write.write.bytes.span.bytes).accessBits.isConsistent)
    }
    // A format torn before its last write has no MAD: the card reads as not formatted.
    var torn = MifareClassic.blankImage(.classic1K)
    plan.apply(to: &torn, count: plan.writes.count - 1)
    let error = tagError { () throws(NFCTagError) in _ = try MifareClassicTagView(validating: torn.span.bytes)
    }
    #expect(error == NFCTagError(.missingMAD, offset: 57))
  }
}

@Suite("MIFARE Classic malformed images")
struct MifareClassicMalformedTests {
  static func formatted1K() -> [UInt8] {
    (try? formattedMifareClassic(.classic1K)) ?? []
  }

  static func decode(_ image: [UInt8], options: TagDecodingOptions = .strict) -> NFCTagError? {
    tagError { () throws(NFCTagError) in
      _ = try MifareClassicTagView(validating: image.span.bytes, options: options)
    }
  }

  @Test func imageSizes() {
    for size in [0, 16, 319, 321, 1000, 1023, 1025, 4095, 8192] {
      let image = [UInt8](repeating: 0, count: size)
      #expect(Self.decode(image) == NFCTagError(.invalidImageSize, offset: size), "size \(size)")
    }
    let mini = MifareClassic.blankImage(.mini)
    let error = tagError { () throws(NFCTagError) in
      _ = try MifareClassicTagView(validating: mini.span.bytes, kind: .classic1K)
    }
    #expect(error == NFCTagError(.invalidImageSize, offset: 320))
  }

  /// Each field broken on its own: strict throws at the field, lenient reads on with the
  /// same code as a warning (where the rest can still be read).
  @Test(
    arguments: [
      ("BCC", 4, UInt8(0x05), NFCTagError.Code.bccMismatch, 4, true),
      ("MAD CRC", 16, 0x15, .madCRCMismatch, 16, true),
      ("MAD info 0x10", 17, 0x10, .invalidMADInfo, 17, true),
      ("MAD info past MAD1", 17, 0x11, .invalidMADInfo, 17, true),
      ("MAD trailer access bits", 55, 0x17, .inconsistentAccessBits, 54, true),
      ("NFC trailer access bits", 120, 0x89, .inconsistentAccessBits, 118, true),
      ("NFC GPB version", 121, 0x80, .unsupportedVersion, 121, true),
      ("GPB without DA", 57, 0x41, .missingMAD, 57, false),
      ("GPB ADV 0", 57, 0xC0, .unsupportedVersion, 57, true),
      ("GPB ADV 2 on a 1K card", 57, 0xC2, .unsupportedVersion, 57, true),
      ("GPB ADV 3", 57, 0xC3, .unsupportedVersion, 57, true),
    ] as [(String, Int, UInt8, NFCTagError.Code, Int, Bool)])
  func brokenField(
    name: String, offset: Int, value: UInt8, code: NFCTagError.Code, at: Int, lenientReads: Bool
  ) throws {
    var image = Self.formatted1K()
    image[offset] = value
    // A changed info byte gets its CRC fixed, so that only the info byte is wrong.
    if offset == 17 { image[16] = MifareClassicMAD.crc(Array(image[17..<48])) }
    #expect(Self.decode(image) == NFCTagError(code, offset: at), "\(name)")
    if lenientReads {
      let view = try MifareClassicTagView(validating: image.span.bytes, options: .lenient)
      #expect(view.warnings.contains(NFCTagWarning(code, offset: at)), "\(name)")
      #expect(view.tlvArea.area.ndefMessageLength == 0)
    } else {
      #expect(Self.decode(image, options: .lenient) == NFCTagError(code, offset: at), "\(name)")
    }
  }

  /// The MAD assigns sector 16 nothing and sector 0 nothing; on a Mini it cannot assign
  /// sectors 5-15 to an application.
  @Test func madSectorsOutOfRange() throws {
    var image = try formattedMifareClassic(.mini)
    // MAD1 AID of sector 7 (offset 16 + 2 × 7) becomes NDEF; the CRC is fixed up.
    image[30] = 0x03
    image[31] = 0xE1
    image[16] = MifareClassicMAD.crc(Array(image[17..<48]))
    #expect(Self.decode(image) == NFCTagError(.madSectorOutOfRange, offset: 30))
    let view = try MifareClassicTagView(validating: image.span.bytes, options: .lenient)
    #expect(view.ndefSectors == [1, 2, 3, 4])
  }

  @Test func noNDEFSectors() throws {
    var image = Self.formatted1K()
    for i in 18..<48 { image[i] = 0 }
    image[16] = MifareClassicMAD.crc(Array(image[17..<48]))
    #expect(Self.decode(image) == NFCTagError(.missingNDEFTLV, offset: 64))
    let view = try MifareClassicTagView(validating: image.span.bytes, options: .lenient)
    #expect(view.ndefSectors.isEmpty && view.isReadOnly)
  }

  @Test func tlvErrors() throws {
    var image = Self.formatted1K()
    // An NDEF TLV of 0x0FFF bytes: past the 720-byte area.
    image.replaceSubrange(64..<68, with: [0x03, 0xFF, 0x0F, 0xFF])
    #expect(Self.decode(image) == NFCTagError(.tlvLengthExceedsDataArea, offset: 65))
    // A Lock Control TLV type is reserved here (AN1304 has no control TLVs).
    image.replaceSubrange(64..<72, with: [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x00, 0xFE])
    #expect(Self.decode(image) == NFCTagError(.unknownTLVType, offset: 64))
    let lenient = try MifareClassicTagView(validating: image.span.bytes, options: .lenient)
    #expect(lenient.tlvArea.area.ndefTLV?.offset == 69)
    #expect(lenient.tlvArea.area.map.areaCount == 0)
    // A TLV header cut by a trailer is read across it: `03` at the last data byte of
    // sector 1, its length in sector 2.
    var split = Self.formatted1K()
    split.replaceSubrange(64..<66, with: [0x00, 0x00])
    for i in 64..<111 { split[i] = 0x00 }
    split[111] = 0x03
    split[128] = 0x00
    split[129] = 0xFE
    let view = try MifareClassicTagView(validating: split.span.bytes)
    #expect(view.tlvArea.area.ndefTLV?.offset == 111)
    #expect(view.tlvArea.area.ndefTLV?.valueOffset == 129)
  }

  /// Android's formatter on a 4K card: GPB `C1` in blocks 3 and 67, MAD2 with MAD1's CRC
  /// 0x14 (AOSP rw_mfc.cc). Strict reads MAD1 only (a long message runs past sector 15);
  /// lenient reads the MAD2 with two warnings.
  @Test func androidFourK() throws {
    var image = try formattedMifareClassic(.classic4K)
    let message = sizedMessage(1000)
    let written = try MifareClassic.writePlan(message, into: image)
    written.apply(to: &image)
    image[57] = 0xC1
    image[67 * 16 + 9] = 0xC1
    image[1024] = 0x14
    #expect(Self.decode(image) == NFCTagError(.tlvLengthExceedsDataArea, offset: 65))
    let view = try MifareClassicTagView(validating: image.span.bytes, options: .lenient)
    #expect(
      view.warnings == [
        NFCTagWarning(.undeclaredMAD2, offset: 57), NFCTagWarning(.madCRCMismatch, offset: 1024),
      ])
    #expect(view.tlvArea.assembledNDEFBytes() == message)
    // A 4K card with GPB C1 and a free sector 16 is a valid MAD1-only card.
    var plain = try formattedMifareClassic(.classic4K)
    plain[57] = 0xC1
    for i in 1024..<1072 { plain[i] = 0 }
    let mad1Only = try MifareClassicTagView(validating: plain.span.bytes, options: .lenient)
    #expect(mad1Only.ndefSectors == Array(1...15) && mad1Only.warnings.isEmpty)
  }

  /// A MAD2 whose CRC is wrong under GPB C2 is an error in strict mode only.
  @Test func mad2CRC() throws {
    var image = try formattedMifareClassic(.classic4K)
    image[1024] = 0x14
    #expect(Self.decode(image) == NFCTagError(.madCRCMismatch, offset: 1024))
    image[1024] = 0xE8
    image[1025] = 0x10  // MAD2 card publisher sector 0x10
    image[1024] = MifareClassicMAD.crc(Array(image[1025..<1072]))
    #expect(Self.decode(image) == NFCTagError(.invalidMADInfo, offset: 1025))
  }

  @Test func sevenByteUID() throws {
    var image = Self.formatted1K()
    image.replaceSubrange(0..<10, with: hex("04 11 22 33 44 55 66 08 44 00"))
    #expect(Self.decode(image) == NFCTagError(.bccMismatch, offset: 4))
    let view = try MifareClassicTagView(validating: image.span.bytes, uidSize: .double)
    #expect(view.manufacturerBlock?.uid.count == 7 && view.manufacturerBlock?.atqa == 0x0044)
  }

  /// Every single-byte change of a formatted image with a message never traps, and strict
  /// validation agrees with the scan: what validates also scans to the same NDEF TLV.
  @Test func everyByteFlipIsHandled() throws {
    var image = Self.formatted1K()
    let plan = try MifareClassic.writePlan(
      uriMessage("flip.example/" + String(repeating: "x", count: 60)), into: image)
    plan.apply(to: &image)
    for offset in stride(from: 0, to: image.count, by: 3) {
      var flipped = image
      flipped[offset] ^= 0x5A
      let strict = try? MifareClassicTagView(validating: flipped.span.bytes)
      let scan = try? MifareClassicTagView(scanning: flipped.span.bytes)
      if let strict {
        #expect(scan?.tlvArea.area.ndefTLV == strict.tlvArea.area.ndefTLV, "offset \(offset)")
      }
      _ = try? MifareClassicTagView(validating: flipped.span.bytes, options: .lenient)
    }
  }
}
