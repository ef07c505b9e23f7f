// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The CC file of a Type 4 tag: CCLEN, mapping version, MLe, MLc and the NDEF File
/// Control TLV (T4T 3.0 §5.1).
public struct Type4CapabilityContainer: Sendable, Hashable {
  /// CCLEN: the CC file size in bytes (0x000F-0xFFFE).
  public var length: Int
  /// The mapping version: major in bits 7-4 (0x20 is 2.0, 0x30 is 3.0).
  public var mappingVersion: UInt8
  /// MLe: the most data a READ BINARY response carries (at least 0x000F).
  public var maximumReadLength: Int
  /// MLc: the most data an UPDATE BINARY command carries (at least 0x0001).
  public var maximumWriteLength: Int
  /// The NDEF File Control TLV.
  public var fileControl: Type4NDEFFileControl

  /// Creates a CC.
  public init(
    mappingVersion: UInt8 = 0x20, maximumReadLength: Int = 0xFF, maximumWriteLength: Int = 0xFF,
    fileControl: Type4NDEFFileControl, length: Int? = nil
  ) {
    self.mappingVersion = mappingVersion
    self.maximumReadLength = maximumReadLength
    self.maximumWriteLength = maximumWriteLength
    self.fileControl = fileControl
    self.length = length ?? (7 &+ fileControl.bytes.count)
  }

  /// The smallest valid CC file (CCLEN 0x000F).
  public static let minimumLength = 15

  /// Parses a CC file.
  ///
  /// - Throws: ``NFCTagError/Code/responseTooShort`` (offset: the byte count, fewer than
  ///   15 bytes or fewer than the TLV needs), ``NFCTagError/Code/invalidCCFile`` (offset 0
  ///   CCLEN, 3 MLe, 5 MLc), ``NFCTagError/Code/unsupportedVersion`` (offset 2),
  ///   ``NFCTagError/Code/missingNDEFFileControl`` (offset 7),
  ///   ``NFCTagError/Code/invalidNDEFFileControl`` (offset 8 length, 9 file id, 11 size).
  public init(parsing bytes: RawSpan) throws(NFCTagError) {
    var errors: [NFCTagError] = []
    do throws(NFCTagError) {
      try self.init(scanning: bytes, errors: &errors)
    } catch {
      throw errors.first ?? error
    }
    if let first = errors.first { throw first }
  }

  /// Parses a CC file, keeping each field whose value breaks a rule (T4T 3.0 §5.1: every
  /// field has a fixed place, so one bad value hides none of the others).
  ///
  /// The value errors go to `errors` in offset order, and their fields keep the values
  /// read: ``NFCTagError/Code/invalidCCFile`` (offset 0 CCLEN, 3 MLe, 5 MLc),
  /// ``NFCTagError/Code/unsupportedVersion`` (offset 2) and
  /// ``NFCTagError/Code/invalidNDEFFileControl`` (offset 9 file id, 11 size). The first of
  /// them is what ``init(parsing:)-(RawSpan)`` throws.
  ///
  /// - Throws: what leaves the fields unplaced: ``NFCTagError/Code/responseTooShort``,
  ///   ``NFCTagError/Code/missingNDEFFileControl`` (offset 7) and
  ///   ``NFCTagError/Code/invalidNDEFFileControl`` at offset 8 (the TLV's length).
  public init(scanning bytes: RawSpan, errors: inout [NFCTagError]) throws(NFCTagError) {
    var reader = ByteReader(bytes)
    guard bytes.byteCount >= Self.minimumLength, let length = reader.readUInt16BE(),
      let version = reader.readUInt8(), let mle = reader.readUInt16BE(), let mlc = reader.readUInt16BE(),
      let t = reader.readUInt8(), let l = reader.readUInt8()
    else { throw NFCTagError(.responseTooShort, offset: bytes.byteCount) }
    if length < 0x000F || length == 0xFFFF { errors.append(NFCTagError(.invalidCCFile, offset: 0)) }
    if !(1...3).contains(version >> 4) { errors.append(NFCTagError(.unsupportedVersion, offset: 2)) }
    if mle < 0x000F { errors.append(NFCTagError(.invalidCCFile, offset: 3)) }
    if mlc < 0x0001 { errors.append(NFCTagError(.invalidCCFile, offset: 5)) }
    let extended: Bool
    switch t {
    case Type4NDEFFileControl.tag: extended = false
    case Type4NDEFFileControl.extendedTag: extended = true
    default: throw NFCTagError(.missingNDEFFileControl, offset: 7)
    }
    guard Int(l) == (extended ? 8 : 6) else { throw NFCTagError(.invalidNDEFFileControl, offset: 8) }
    guard let id = reader.readUInt16BE(),
      let size = reader.readBigEndian(UInt32.self, width: extended ? 4 : 2),
      let read = reader.readUInt8(), let write = reader.readUInt8()
    else { throw NFCTagError(.responseTooShort, offset: bytes.byteCount) }
    switch id {
    case 0x0000, 0xE102, 0xE103, 0x3F00, 0x3FFF, 0xFFFF:
      errors.append(NFCTagError(.invalidNDEFFileControl, offset: 9))
    default: break
    }
    let sizeRange: ClosedRange<UInt32> = extended ? 0x0000_FFFF...0xFFFF_FFFE : 0x0005...0xFFFE
    if !sizeRange.contains(size) { errors.append(NFCTagError(.invalidNDEFFileControl, offset: 11)) }
    self.length = Int(length)
    self.mappingVersion = version
    self.maximumReadLength = Int(mle)
    self.maximumWriteLength = Int(mlc)
    self.fileControl = Type4NDEFFileControl(
      fileIdentifier: id, maximumFileSize: Int(size), readAccess: read, writeAccess: write,
      isExtended: extended)
  }

  /// Parses a CC file from an array, keeping each field whose value breaks a rule in `errors`.
  public init(scanning bytes: [UInt8], errors: inout [NFCTagError]) throws(NFCTagError) {
    try self.init(scanning: bytes.span.bytes, errors: &errors)
  }

  /// Parses a CC file from an array.
  public init(parsing bytes: [UInt8]) throws(NFCTagError) { try self.init(parsing: bytes.span.bytes) }

  /// Major mapping version: bits 7-4.
  public var majorVersion: Int { Int(mappingVersion >> 4) }
  /// Minor mapping version: bits 3-0.
  public var minorVersion: Int { Int(mappingVersion & 0x0F) }
  /// Absolute offset of the read access byte in the CC file.
  public var readAccessOffset: Int { fileControl.isExtended ? 15 : 13 }
  /// Absolute offset of the write access byte in the CC file.
  public var writeAccessOffset: Int { readAccessOffset &+ 1 }

  /// The CC file bytes.
  public var bytes: [UInt8] {
    var bytes: [UInt8] = [
      UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length), mappingVersion,
    ]
    bytes += [
      UInt8(truncatingIfNeeded: maximumReadLength >> 8), UInt8(truncatingIfNeeded: maximumReadLength),
    ]
    bytes += [
      UInt8(truncatingIfNeeded: maximumWriteLength >> 8), UInt8(truncatingIfNeeded: maximumWriteLength),
    ]
    bytes += fileControl.bytes
    while bytes.count < length { bytes.append(0) }
    return bytes
  }
}
