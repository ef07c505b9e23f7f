// SPDX-License-Identifier: Apache-2.0
import JavaCardCAP
import Testing
import ZlibInflate

/// Reads `bytes` as a CAP file and returns the error (nil when it reads).
func capError(_ bytes: [UInt8], options: CAPFileOptions = CAPFileOptions()) -> CAPFileError? {
  do {
    _ = try CAPFile(parsing: bytes, inflater: ZlibRawInflater(), options: options)
    return nil
  } catch { return error }
}

@Suite struct ZIPArchiveTests {
  /// Every prefix of a valid CAP (stored, deflated, with data descriptors) fails with a typed
  /// error: no field is read past the end.
  @Test func everyTruncationFails() throws {
    for options in [["--method", "mixed"], ["--method", "deflated", "--descriptors"]] {
      let (bytes, _) = try pythonCAP(options, seed: 21)
      for count in 0..<bytes.count { #expect(capError(Array(bytes.prefix(count))) != nil) }
    }
  }

  @Test func endOfCentralDirectory() throws {
    var builder = minimalCAP()
    let good = builder.build()
    let end = builder.endOffset
    #expect(capError(good) == nil)
    #expect(capError([]) == CAPFileError(.missingEndOfCentralDirectory, offset: 0))
    var bad = good
    bad[end] = 0x51
    #expect(capError(bad) == CAPFileError(.missingEndOfCentralDirectory, offset: good.count))
    // A comment length that does not reach the end exactly.
    bad = good
    poke16(&bad, end + 20, 1)
    #expect(capError(bad) == CAPFileError(.missingEndOfCentralDirectory, offset: good.count))
    #expect(capError(good + [0]) == CAPFileError(.missingEndOfCentralDirectory, offset: good.count + 1))
    // A real comment is fine.
    builder.comment = Array("built by hand".utf8)
    #expect(capError(builder.build()) == nil)
    // Disks, counts.
    bad = good
    poke16(&bad, end + 4, 1)
    #expect(capError(bad) == CAPFileError(.multipleDisksNotSupported, offset: end + 4))
    bad = good
    poke16(&bad, end + 6, 1)
    #expect(capError(bad) == CAPFileError(.multipleDisksNotSupported, offset: end + 6))
    bad = good
    poke16(&bad, end + 8, 3)
    #expect(capError(bad) == CAPFileError(.entryCountMismatch, offset: end + 8))
    bad = good
    poke16(&bad, end + 8, 10)
    poke16(&bad, end + 10, 10)
    #expect(capError(bad) == CAPFileError(.entryCountMismatch, offset: builder.centralOffsets[10]))
    bad = good
    poke16(&bad, end + 8, 12)
    poke16(&bad, end + 10, 12)
    #expect(capError(bad) == CAPFileError(.truncatedCentralDirectoryHeader, offset: end))
    #expect(
      capError(good, options: CAPFileOptions(maximumEntryCount: 10))
        == CAPFileError(.tooManyEntries, offset: end + 10))
    // Central directory bounds.
    bad = good
    poke32(&bad, end + 12, UInt32(end - builder.centralStart + 1))
    #expect(capError(bad) == CAPFileError(.centralDirectoryOutOfBounds, offset: end + 12))
    bad = good
    poke32(&bad, end + 16, 0xFFFF_FFF0)
    #expect(capError(bad) == CAPFileError(.centralDirectoryOutOfBounds, offset: end + 12))
  }

  @Test func zip64Rejected() {
    var builder = minimalCAP()
    let good = builder.build()
    let end = builder.endOffset
    for (field, width) in [(8, 2), (10, 2), (12, 4), (16, 4)] {
      var bad = good
      if width == 2 { poke16(&bad, end + field, 0xFFFF) } else { poke32(&bad, end + field, 0xFFFF_FFFF) }
      let offset = field == 10 ? end + 8 : end + field
      #expect(capError(bad) == CAPFileError(.zip64NotSupported, offset: offset))
    }
    // A ZIP64 end of central directory locator before the end record.
    var locator = Array(good[..<end])
    locator += ZIPBuilder.le32(0x0706_4B50) + [UInt8](repeating: 0, count: 16)
    locator += Array(good[end...])
    poke32(&locator, locator.count - 22 + 16, UInt32(builder.centralStart))
    #expect(capError(locator) == CAPFileError(.zip64NotSupported, offset: end))
    // Sizes and offsets of all ones in a central header.
    let central = builder.centralOffsets[0]
    for (field, offset) in [(20, 20), (24, 24), (42, 42)] {
      var bad = good
      poke32(&bad, central + field, 0xFFFF_FFFF)
      #expect(capError(bad) == CAPFileError(.zip64NotSupported, offset: central + offset))
    }
  }

  @Test func centralDirectoryHeaders() {
    var builder = minimalCAP()
    let good = builder.build()
    let central = builder.centralOffsets[3]
    var bad = good
    bad[central] = 0
    #expect(capError(bad) == CAPFileError(.invalidCentralDirectorySignature, offset: central))
    // The last header's name, extra field and comment lengths past the central directory.
    let last = builder.centralOffsets[10]
    let nameLength = builder.endOffset - last - 46
    for (field, code) in [
      (28, CAPFileError.Code.nameExceedsInput), (30, .extraFieldExceedsInput), (32, .commentExceedsInput),
    ] {
      bad = good
      poke16(&bad, last + field, UInt16(field == 28 ? nameLength + 1 : 1))
      #expect(capError(bad) == CAPFileError(code, offset: last + field))
    }
    bad = good
    poke16(&bad, last + 34, 1)
    #expect(capError(bad) == CAPFileError(.multipleDisksNotSupported, offset: last + 34))
  }

  @Test func localHeaders() {
    var builder = minimalCAP()
    let good = builder.build()
    // Entry 10 is Header.cap (the list is reversed), entry 0 Debug.cap.
    let index = 10
    let local = builder.localOffsets[index]
    let central = builder.centralOffsets[index]
    var bad = good
    bad[local + 1] = 0
    #expect(capError(bad) == CAPFileError(.invalidLocalHeaderSignature, offset: local))
    bad = good
    poke32(&bad, central + 42, UInt32(builder.centralStart - 10))
    #expect(capError(bad) == CAPFileError(.truncatedLocalHeader, offset: builder.centralStart - 10))
    bad = good
    poke32(&bad, central + 42, 0xFFFF_FFF0)
    #expect(capError(bad) == CAPFileError(.truncatedLocalHeader, offset: good.count))
    // Name length in the local header past the central directory.
    bad = good
    poke16(&bad, local + 26, 0xFFFF)
    #expect(capError(bad) == CAPFileError(.truncatedLocalHeader, offset: local + 26))
    bad = good
    bad[local + 30] ^= 0x20
    #expect(capError(bad) == CAPFileError(.localHeaderMismatch, offset: local + 26))
    for (field, offset) in [(8, 8), (14, 14), (18, 18), (22, 22), (6, 6)] {
      bad = good
      bad[local + field] ^= field == 6 ? 0x08 : 0x01
      #expect(capError(bad) == CAPFileError(.localHeaderMismatch, offset: local + offset))
    }
    // Sizes lying in the central directory.
    bad = good
    poke32(&bad, central + 20, UInt32(good.count))
    poke32(&bad, central + 24, UInt32(good.count))
    #expect(capError(bad) == CAPFileError(.localHeaderMismatch, offset: local + 18))
    bad = good
    poke32(&bad, central + 20, 100)
    #expect(capError(bad) == CAPFileError(.storedSizeMismatch, offset: central + 20))
    bad = good
    bad[central + 8] |= 0x01
    #expect(capError(bad) == CAPFileError(.encryptedEntry, offset: central + 8))
    bad = good
    bad[central + 10] = 12
    #expect(capError(bad) == CAPFileError(.unsupportedCompressionMethod, offset: central + 10))
    bad = good
    bad[builder.dataOffsets[index] + 4] ^= 0xFF
    #expect(capError(bad) == CAPFileError(.crcMismatch, offset: central + 16))
    // Header.cap (18 bytes) is extracted first.
    let small = CAPFileOptions(maximumEntrySize: 10)
    #expect(capError(good, options: small) == CAPFileError(.entryTooLarge, offset: central + 24))
  }

  /// Sizes lying past the end of the data, with data descriptors so the local header cannot catch it.
  @Test func dataDescriptors() throws {
    let components = minimalComponents()
    func build(_ descriptor: (UInt32, [UInt8]) -> [UInt8]) -> ([UInt8], ZIPBuilder) {
      var builder = ZIPBuilder()
      for (name, data) in components {
        var entry = ZIPBuilder.Entry("p/javacard/" + name, data)
        entry.flags = 0x0008
        entry.descriptor = descriptor(CRC32.checksum(data), ZIPBuilder.le32(UInt32(data.count)))
        builder.add(entry)
      }
      return (builder.build(), builder)
    }
    let (signed, _) = build { ZIPBuilder.le32(0x0807_4B50) + ZIPBuilder.le32($0) + $1 + $1 }
    #expect(capError(signed) == nil)
    let (unsigned, _) = build { ZIPBuilder.le32($0) + $1 + $1 }
    #expect(capError(unsigned) == nil)
    let (wrongCRC, builder) = build { ZIPBuilder.le32(0x0807_4B50) + ZIPBuilder.le32($0 ^ 1) + $1 + $1 }
    // Header.cap is entry 0 here; its descriptor follows its data.
    let headerDescriptor = builder.dataOffsets[0] + components[0].1.count
    #expect(capError(wrongCRC) == CAPFileError(.dataDescriptorMismatch, offset: headerDescriptor + 4))
    let (wrongSize, _) = build { crc, size in ZIPBuilder.le32(crc) + size + ZIPBuilder.le32(0) }
    #expect(capError(wrongSize) == CAPFileError(.dataDescriptorMismatch, offset: headerDescriptor + 8))
    // The last entry's descriptor cut short by the central directory.
    var shortBuilder = ZIPBuilder()
    for (index, (name, data)) in components.enumerated() {
      var entry = ZIPBuilder.Entry("p/javacard/" + name, data)
      if index == components.count - 1 {
        entry.flags = 0x0008
        entry.descriptor = [0x50, 0x4B]
      }
      shortBuilder.add(entry)
    }
    let short = shortBuilder.build()
    let last = shortBuilder.dataOffsets[components.count - 1] + components[components.count - 1].1.count
    #expect(capError(short) == CAPFileError(.truncatedDataDescriptor, offset: last))
    // Compressed size past the central directory.
    var bad = signed
    poke32(&bad, builder.centralOffsets[0] + 20, UInt32(signed.count))
    poke32(&bad, builder.centralOffsets[0] + 24, UInt32(signed.count))
    #expect(capError(bad) == CAPFileError(.entryDataExceedsInput, offset: builder.centralOffsets[0] + 20))
  }

  /// Deflated entries: garbage, bombs, sizes lying either way, all bounded by the declared size.
  @Test func deflatedEntries() throws {
    let components = minimalComponents()
    func build(_ method: (String, [UInt8]) throws -> ZIPBuilder.Entry) rethrows -> ([UInt8], ZIPBuilder) {
      var builder = ZIPBuilder()
      for (name, data) in components { builder.add(try method(name, data)) }
      return (builder.build(), builder)
    }
    func deflated(_ name: String, _ data: [UInt8], stream: [UInt8]? = nil, size: UInt32? = nil) throws
      -> ZIPBuilder.Entry
    {
      var entry = ZIPBuilder.Entry("p/javacard/" + name, data)
      entry.method = 8
      entry.stored = try stream ?? pythonDeflate(data)
      entry.uncompressedSize = size
      return entry
    }
    let (good, _) = try build { try deflated($0, $1) }
    #expect(capError(good) == nil)
    let (handStored, _) = try build { try deflated($0, $1, stream: storedDeflate($1)) }
    #expect(capError(handStored) == nil)
    // Method.cap (entry 6) replaced by garbage, a bomb, or lying sizes.
    let method = components[6].1
    func with(_ entry: ZIPBuilder.Entry) throws -> ([UInt8], ZIPBuilder) {
      try build { name, data in name == "Method.cap" ? entry : try deflated(name, data) }
    }
    var (bad, builder) = try with(try deflated("Method.cap", method, stream: [0xFF, 0xFF, 0xFF]))
    #expect(capError(bad) == CAPFileError(.invalidDeflateData, offset: builder.dataOffsets[6]))
    let bomb = try pythonDeflate([UInt8](repeating: 0, count: 1 << 20))
    #expect(bomb.count < 2048)
    var bombEntry = try deflated("Method.cap", method, stream: bomb)
    bombEntry.crc = CRC32.checksum(method)
    (bad, builder) = try with(bombEntry)
    #expect(capError(bad) == CAPFileError(.inflatedSizeMismatch, offset: builder.centralOffsets[6] + 24))
    bombEntry.uncompressedSize = 1 << 20
    (bad, builder) = try with(bombEntry)
    #expect(capError(bad) == CAPFileError(.entryTooLarge, offset: builder.centralOffsets[6] + 24))
    (bad, builder) = try with(try deflated("Method.cap", method, size: UInt32(method.count + 1)))
    #expect(capError(bad) == CAPFileError(.inflatedSizeMismatch, offset: builder.centralOffsets[6] + 24))
    (bad, builder) = try with(
      try deflated("Method.cap", method, stream: Array(try pythonDeflate(method).dropLast())))
    #expect(capError(bad) == CAPFileError(.invalidDeflateData, offset: builder.dataOffsets[6]))
  }
}
