// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A ZIP archive read through its central directory (PKWARE APPNOTE 6.3.10 §4.3), as a CAP
/// file is (Java Card Virtual Machine Specification 3.0.5 §6.1: a JAR file). Stored and
/// deflated entries, data descriptors; no ZIP64, no encryption, no multi-disk archives.
///
/// The central directory is read when the archive is created; an entry's local header, data,
/// data descriptor and CRC-32 are checked when ``contents(of:inflater:)`` extracts it.
public struct ZIPArchive: Sendable, Hashable {
  /// The central directory's entries, in directory order.
  public let entries: [ZIPEntry]
  /// The offset of the central directory's first header.
  public let centralDirectoryOffset: Int
  /// The offset of the end of central directory record.
  public let endOfCentralDirectoryOffset: Int
  /// The bounds entries are read with.
  public let options: CAPFileOptions
  /// The whole archive.
  private let bytes: [UInt8]

  // Signatures (§4.3.7, §4.3.9, §4.3.12, §4.3.15, §4.3.16), little-endian as read.
  private static let localHeaderSignature: UInt32 = 0x0403_4B50
  private static let dataDescriptorSignature: UInt32 = 0x0807_4B50
  private static let centralHeaderSignature: UInt32 = 0x0201_4B50
  private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
  private static let endRecordSignature: UInt32 = 0x0605_4B50
  /// Fixed sizes of the end record, a central header, a local header, the ZIP64 locator.
  private static let endRecordSize = 22
  private static let centralHeaderSize = 46
  private static let localHeaderSize = 30
  private static let zip64LocatorSize = 20
  /// The largest end record comment (a u2 length).
  private static let maximumCommentLength = 0xFFFF

  /// Reads the end of central directory record and every central directory file header.
  ///
  /// - Throws: ``CAPFileError`` (component nil, offsets in `bytes`):
  ///   ``CAPFileError/Code/missingEndOfCentralDirectory``, ``CAPFileError/Code/zip64NotSupported``,
  ///   ``CAPFileError/Code/multipleDisksNotSupported``, ``CAPFileError/Code/entryCountMismatch``,
  ///   ``CAPFileError/Code/tooManyEntries``, ``CAPFileError/Code/centralDirectoryOutOfBounds``,
  ///   ``CAPFileError/Code/truncatedCentralDirectoryHeader``,
  ///   ``CAPFileError/Code/invalidCentralDirectorySignature``, ``CAPFileError/Code/nameExceedsInput``,
  ///   ``CAPFileError/Code/extraFieldExceedsInput``, ``CAPFileError/Code/commentExceedsInput``.
  public init(parsing bytes: [UInt8], options: CAPFileOptions = CAPFileOptions()) throws(CAPFileError) {
    self.bytes = bytes
    self.options = options
    var reader = ByteReader(bytes.span.bytes)
    // §4.3.16: the end record is the last thing in the file; its comment reaches the end.
    let count = bytes.count
    var endOffset: Int?
    if count >= Self.endRecordSize {
      var candidate = count - Self.endRecordSize
      let lowest = max(0, candidate - Self.maximumCommentLength)
      while candidate >= lowest {
        _ = reader.move(to: candidate)
        if reader.readUInt32LE() == Self.endRecordSignature, reader.skip(16),
          let commentLength = reader.readUInt16LE(),
          Int(commentLength) == count - candidate - Self.endRecordSize
        {
          endOffset = candidate
          break
        }
        candidate -= 1
      }
    }
    guard let endOffset else { throw CAPFileError(.missingEndOfCentralDirectory, offset: count) }
    self.endOfCentralDirectoryOffset = endOffset
    // §4.3.15: a ZIP64 locator sits right before the end record.
    if endOffset >= Self.zip64LocatorSize {
      _ = reader.move(to: endOffset - Self.zip64LocatorSize)
      if reader.readUInt32LE() == Self.zip64LocatorSignature {
        throw CAPFileError(.zip64NotSupported, offset: endOffset - Self.zip64LocatorSize)
      }
    }
    _ = reader.move(to: endOffset + 4)
    // Within the end record (checked above): 18 fixed bytes after the signature.
    let disk = reader.readUInt16LE() ?? 0
    let centralDisk = reader.readUInt16LE() ?? 0
    let entriesOnDisk = reader.readUInt16LE() ?? 0
    let totalEntries = reader.readUInt16LE() ?? 0
    let centralSize = reader.readUInt32LE() ?? 0
    let centralOffset = reader.readUInt32LE() ?? 0
    if entriesOnDisk == 0xFFFF || totalEntries == 0xFFFF {
      throw CAPFileError(.zip64NotSupported, offset: endOffset + 8)
    }
    if centralSize == 0xFFFF_FFFF { throw CAPFileError(.zip64NotSupported, offset: endOffset + 12) }
    if centralOffset == 0xFFFF_FFFF { throw CAPFileError(.zip64NotSupported, offset: endOffset + 16) }
    guard disk == 0 else { throw CAPFileError(.multipleDisksNotSupported, offset: endOffset + 4) }
    guard centralDisk == 0 else { throw CAPFileError(.multipleDisksNotSupported, offset: endOffset + 6) }
    guard entriesOnDisk == totalEntries else {
      throw CAPFileError(.entryCountMismatch, offset: endOffset + 8)
    }
    guard Int(totalEntries) <= options.maximumEntryCount else {
      throw CAPFileError(.tooManyEntries, offset: endOffset + 10)
    }
    // Int(exactly:) fails only where Int is 32 bits wide.
    guard let start = Int(exactly: centralOffset), let size = Int(exactly: centralSize) else {
      throw CAPFileError(.centralDirectoryOutOfBounds, offset: endOffset + 12)
    }
    let (end, overflow) = start.addingReportingOverflow(size)
    guard !overflow, end <= endOffset else {
      throw CAPFileError(.centralDirectoryOutOfBounds, offset: endOffset + 12)
    }
    self.centralDirectoryOffset = start

    var entries: [ZIPEntry] = []
    entries.reserveCapacity(Int(totalEntries))
    var position = start
    for _ in 0..<Int(totalEntries) {
      guard end - position >= Self.centralHeaderSize else {
        throw CAPFileError(.truncatedCentralDirectoryHeader, offset: position)
      }
      _ = reader.move(to: position)
      guard reader.readUInt32LE() == Self.centralHeaderSignature else {
        throw CAPFileError(.invalidCentralDirectorySignature, offset: position)
      }
      // 42 fixed bytes remain (checked above).
      _ = reader.skip(4)  // version made by, version needed to extract
      let flags = reader.readUInt16LE() ?? 0
      let method = reader.readUInt16LE() ?? 0
      _ = reader.skip(4)  // last modification time and date
      let crc = reader.readUInt32LE() ?? 0
      let compressedSize = reader.readUInt32LE() ?? 0
      let uncompressedSize = reader.readUInt32LE() ?? 0
      let nameLength = Int(reader.readUInt16LE() ?? 0)
      let extraLength = Int(reader.readUInt16LE() ?? 0)
      let commentLength = Int(reader.readUInt16LE() ?? 0)
      let diskStart = reader.readUInt16LE() ?? 0
      _ = reader.skip(6)  // internal and external attributes
      let localOffset = reader.readUInt32LE() ?? 0
      if compressedSize == 0xFFFF_FFFF { throw CAPFileError(.zip64NotSupported, offset: position + 20) }
      if uncompressedSize == 0xFFFF_FFFF { throw CAPFileError(.zip64NotSupported, offset: position + 24) }
      if diskStart == 0xFFFF || localOffset == 0xFFFF_FFFF {
        throw CAPFileError(.zip64NotSupported, offset: diskStart == 0xFFFF ? position + 34 : position + 42)
      }
      guard diskStart == 0 else { throw CAPFileError(.multipleDisksNotSupported, offset: position + 34) }
      guard let compressed = Int(exactly: compressedSize) else {
        throw CAPFileError(.entryDataExceedsInput, offset: position + 20)
      }
      guard let uncompressed = Int(exactly: uncompressedSize) else {
        throw CAPFileError(.entryTooLarge, offset: position + 24)
      }
      guard let local = Int(exactly: localOffset) else {
        throw CAPFileError(.truncatedLocalHeader, offset: position + 42)
      }
      var field = position + Self.centralHeaderSize
      guard end - field >= nameLength else { throw CAPFileError(.nameExceedsInput, offset: position + 28) }
      let name = Array(bytes[field..<(field + nameLength)])
      field += nameLength
      guard end - field >= extraLength else {
        throw CAPFileError(.extraFieldExceedsInput, offset: position + 30)
      }
      field += extraLength
      guard end - field >= commentLength else {
        throw CAPFileError(.commentExceedsInput, offset: position + 32)
      }
      entries.append(
        ZIPEntry(
          name: name, flags: flags, method: method, crc32: crc, compressedSize: compressed,
          uncompressedSize: uncompressed, localHeaderOffset: local,
          centralHeaderOffset: position))
      position = field + commentLength
    }
    // §4.4.21-4.4.24: the headers fill the central directory exactly.
    guard position == end else { throw CAPFileError(.entryCountMismatch, offset: position) }
    self.entries = entries
  }

  /// Extracts an entry: checks its local header against the central directory, inflates a
  /// deflated entry through `inflater` (never past the declared size), checks the size and
  /// CRC-32, and with flag bit 3 checks the data descriptor (with or without its signature).
  ///
  /// - Throws: ``CAPFileError`` (component nil, offsets in the archive):
  ///   ``CAPFileError/Code/encryptedEntry``, ``CAPFileError/Code/unsupportedCompressionMethod``,
  ///   ``CAPFileError/Code/entryTooLarge``, ``CAPFileError/Code/storedSizeMismatch``,
  ///   ``CAPFileError/Code/truncatedLocalHeader``, ``CAPFileError/Code/invalidLocalHeaderSignature``,
  ///   ``CAPFileError/Code/localHeaderMismatch``, ``CAPFileError/Code/entryDataExceedsInput``,
  ///   ``CAPFileError/Code/truncatedDataDescriptor``, ``CAPFileError/Code/dataDescriptorMismatch``,
  ///   ``CAPFileError/Code/invalidDeflateData``, ``CAPFileError/Code/inflatedSizeMismatch``,
  ///   ``CAPFileError/Code/invalidInflaterOutput``, ``CAPFileError/Code/crcMismatch``.
  public func contents<Inflater: RawInflater>(of entry: ZIPEntry, inflater: Inflater) throws(CAPFileError)
    -> [UInt8]
  {
    let central = entry.centralHeaderOffset
    guard entry.flags & ZIPEntry.encryptionFlags == 0 else {
      throw CAPFileError(.encryptedEntry, offset: central + 8)
    }
    guard entry.method == ZIPEntry.stored || entry.method == ZIPEntry.deflated else {
      throw CAPFileError(.unsupportedCompressionMethod, offset: central + 10)
    }
    guard entry.uncompressedSize <= options.maximumEntrySize else {
      throw CAPFileError(.entryTooLarge, offset: central + 24)
    }
    if entry.method == ZIPEntry.stored, entry.compressedSize != entry.uncompressedSize {
      throw CAPFileError(.storedSizeMismatch, offset: central + 20)
    }
    // §4.3.7: the local header, before the central directory.
    let local = entry.localHeaderOffset
    let limit = centralDirectoryOffset
    guard local <= limit, limit - local >= Self.localHeaderSize else {
      throw CAPFileError(.truncatedLocalHeader, offset: min(local, bytes.count))
    }
    var reader = ByteReader(bytes.span.bytes)
    _ = reader.move(to: local)
    guard reader.readUInt32LE() == Self.localHeaderSignature else {
      throw CAPFileError(.invalidLocalHeaderSignature, offset: local)
    }
    _ = reader.skip(2)  // version needed to extract
    let flags = reader.readUInt16LE() ?? 0
    let method = reader.readUInt16LE() ?? 0
    _ = reader.skip(4)  // time and date
    let crc = reader.readUInt32LE() ?? 0
    let compressedSize = reader.readUInt32LE() ?? 0
    let uncompressedSize = reader.readUInt32LE() ?? 0
    let nameLength = Int(reader.readUInt16LE() ?? 0)
    let extraLength = Int(reader.readUInt16LE() ?? 0)
    let nameStart = local + Self.localHeaderSize
    guard limit - nameStart >= nameLength + extraLength else {
      throw CAPFileError(.truncatedLocalHeader, offset: local + 26)
    }
    guard bytes[nameStart..<(nameStart + nameLength)].elementsEqual(entry.name) else {
      throw CAPFileError(.localHeaderMismatch, offset: local + 26)
    }
    guard method == entry.method else { throw CAPFileError(.localHeaderMismatch, offset: local + 8) }
    let descriptor = entry.flags & ZIPEntry.dataDescriptorFlag != 0
    guard (flags & ZIPEntry.dataDescriptorFlag != 0) == descriptor else {
      throw CAPFileError(.localHeaderMismatch, offset: local + 6)
    }
    if !descriptor {
      guard crc == entry.crc32 else { throw CAPFileError(.localHeaderMismatch, offset: local + 14) }
      guard Int(exactly: compressedSize) == entry.compressedSize else {
        throw CAPFileError(.localHeaderMismatch, offset: local + 18)
      }
      guard Int(exactly: uncompressedSize) == entry.uncompressedSize else {
        throw CAPFileError(.localHeaderMismatch, offset: local + 22)
      }
    }
    // §4.3.8: the data, then (flag bit 3) the data descriptor, all before the central directory.
    let dataStart = nameStart + nameLength + extraLength
    guard limit - dataStart >= entry.compressedSize else {
      throw CAPFileError(.entryDataExceedsInput, offset: central + 20)
    }
    let dataEnd = dataStart + entry.compressedSize
    if descriptor { try checkDataDescriptor(at: dataEnd, of: entry) }
    let data: [UInt8]
    if entry.method == ZIPEntry.stored {
      data = Array(bytes[dataStart..<dataEnd])
    } else {
      switch inflater.inflate(Array(bytes[dataStart..<dataEnd]), maximumCount: entry.uncompressedSize) {
      case .inflated(let output):
        guard output.count <= entry.uncompressedSize else {
          throw CAPFileError(.invalidInflaterOutput, offset: dataStart)
        }
        guard output.count == entry.uncompressedSize else {
          throw CAPFileError(.inflatedSizeMismatch, offset: central + 24)
        }
        data = output
      case .exceedsMaximum: throw CAPFileError(.inflatedSizeMismatch, offset: central + 24)
      case .invalidData: throw CAPFileError(.invalidDeflateData, offset: dataStart)
      }
    }
    guard CRC32.checksum(data) == entry.crc32 else { throw CAPFileError(.crcMismatch, offset: central + 16) }
    return data
  }

  /// Checks a data descriptor (§4.3.9) at `offset`: an optional signature 08074B50, then
  /// CRC-32, compressed and uncompressed size (4 bytes each), equal to the central directory's.
  private func checkDataDescriptor(at offset: Int, of entry: ZIPEntry) throws(CAPFileError) {
    let limit = centralDirectoryOffset
    var reader = ByteReader(bytes.span.bytes)
    _ = reader.move(to: offset)
    guard limit - offset >= 12 else { throw CAPFileError(.truncatedDataDescriptor, offset: offset) }
    var first = reader.readUInt32LE() ?? 0
    var fields = offset
    // With the signature, unless the "signature" is the CRC-32 of a descriptor without one.
    if first == Self.dataDescriptorSignature, limit - offset >= 16 {
      let next = reader.readUInt32LE() ?? 0
      if next == entry.crc32 || entry.crc32 != Self.dataDescriptorSignature {
        first = next
        fields = offset + 4
      } else {
        _ = reader.move(to: offset + 4)
      }
    }
    guard first == entry.crc32 else { throw CAPFileError(.dataDescriptorMismatch, offset: fields) }
    guard reader.readUInt32LE().flatMap({ Int(exactly: $0) }) == entry.compressedSize else {
      throw CAPFileError(.dataDescriptorMismatch, offset: fields + 4)
    }
    guard reader.readUInt32LE().flatMap({ Int(exactly: $0) }) == entry.uncompressedSize else {
      throw CAPFileError(.dataDescriptorMismatch, offset: fields + 8)
    }
  }
}
