// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// What the Header component says about the package (Java Card Virtual Machine Specification
/// 3.0.5 §6.4): `magic u4 (DECAFFED) | minor_version u1 | major_version u1 | flags u1 |
/// package_info | package_name_info` (the name from CAP format 2.2 on).
public struct CAPHeader: Sendable, Hashable {
  /// The CAP file format's minor version (`minor_version`).
  public let formatMinorVersion: UInt8
  /// The CAP file format's major version (`major_version`), 2 for Java Card 2.1 to 3.0.5.
  public let formatMajorVersion: UInt8
  /// `flags`: 01 ACC_INT, 02 ACC_EXPORT, 04 ACC_APPLET.
  public let flags: UInt8
  /// The package's minor version (`package_info.minor_version`).
  public let packageMinorVersion: UInt8
  /// The package's major version (`package_info.major_version`).
  public let packageMajorVersion: UInt8
  /// The package AID (`package_info.AID`), the executable load file AID INSTALL [for load] names.
  public let packageAID: ApplicationIdentifier
  /// The package's fully qualified name in internal form (`package_name_info`, e.g.
  /// `com/example/hello`), present from CAP format 2.2 on; nil before.
  public let packageName: [UInt8]?

  /// `flags` bit ACC_EXTENDED (JCVM 3.1 §6.4): an extended CAP file, not read here.
  public static let extendedFlag: UInt8 = 0x08
  /// The Header magic (§6.4).
  public static let magic: UInt32 = 0xDECA_FFED

  /// Parses a Header component (its whole file).
  ///
  /// - Throws: ``CAPFileError`` with `component` ``CAPComponentTag/header`` and offsets from its
  ///   tag byte: ``CAPFileError/Code/truncatedComponent``, ``CAPFileError/Code/invalidMagic``,
  ///   ``CAPFileError/Code/extendedCAPNotSupported``, ``CAPFileError/Code/invalidAIDLength``,
  ///   ``CAPFileError/Code/trailingComponentData``.
  public init(_ component: CAPComponent) throws(CAPFileError) {
    var cursor = ComponentCursor(component)
    let magic = try cursor.readUInt32()
    guard magic == Self.magic else { throw CAPFileError(.invalidMagic, offset: 3, component: .header) }
    formatMinorVersion = try cursor.readUInt8()
    formatMajorVersion = try cursor.readUInt8()
    flags = try cursor.readUInt8()
    guard flags & Self.extendedFlag == 0 else {
      throw CAPFileError(.extendedCAPNotSupported, offset: 9, component: .header)
    }
    packageMinorVersion = try cursor.readUInt8()
    packageMajorVersion = try cursor.readUInt8()
    packageAID = try cursor.readAID()
    if formatMajorVersion > 2 || (formatMajorVersion == 2 && formatMinorVersion >= 2) {
      let length = try cursor.readUInt8()
      packageName = try cursor.readBytes(Int(length))
    } else {
      packageName = nil
    }
    try cursor.finish()
  }
}

/// A package a CAP file imports (Import component, JCVM 3.0.5 §6.7; `package_info`, §6.4):
/// the card must hold it in a compatible version, or INSTALL and LOAD fail.
public struct CAPPackageReference: Sendable, Hashable {
  /// The package's minor version.
  public let minorVersion: UInt8
  /// The package's major version.
  public let majorVersion: UInt8
  /// The package AID.
  public let aid: ApplicationIdentifier

  /// Creates a reference.
  public init(minorVersion: UInt8, majorVersion: UInt8, aid: ApplicationIdentifier) {
    self.minorVersion = minorVersion
    self.majorVersion = majorVersion
    self.aid = aid
  }

  /// Parses an Import component (its whole file): `count u1 | package_info[count]`.
  ///
  /// - Throws: ``CAPFileError`` with `component` ``CAPComponentTag/import``:
  ///   ``CAPFileError/Code/truncatedComponent``, ``CAPFileError/Code/invalidAIDLength``,
  ///   ``CAPFileError/Code/trailingComponentData``.
  public static func imports(_ component: CAPComponent) throws(CAPFileError) -> [CAPPackageReference] {
    var cursor = ComponentCursor(component)
    let count = try cursor.readUInt8()
    var packages: [CAPPackageReference] = []
    for _ in 0..<count {
      let minor = try cursor.readUInt8()
      let major = try cursor.readUInt8()
      packages.append(
        CAPPackageReference(minorVersion: minor, majorVersion: major, aid: try cursor.readAID()))
    }
    try cursor.finish()
    return packages
  }
}

/// An applet a CAP file defines (Applet component, JCVM 3.0.5 §6.6): the module AID of
/// INSTALL [for install].
public struct CAPApplet: Sendable, Hashable {
  /// The applet's AID.
  public let aid: ApplicationIdentifier
  /// The offset of its `install` method in the Method component.
  public let installMethodOffset: UInt16

  /// Creates an applet entry.
  public init(aid: ApplicationIdentifier, installMethodOffset: UInt16) {
    self.aid = aid
    self.installMethodOffset = installMethodOffset
  }

  /// Parses an Applet component (its whole file): `count u1 | { AID_length u1 | AID |
  /// install_method_offset u2 }[count]`.
  ///
  /// - Throws: ``CAPFileError`` with `component` ``CAPComponentTag/applet``:
  ///   ``CAPFileError/Code/truncatedComponent``, ``CAPFileError/Code/invalidAIDLength``,
  ///   ``CAPFileError/Code/trailingComponentData``.
  public static func applets(_ component: CAPComponent) throws(CAPFileError) -> [CAPApplet] {
    var cursor = ComponentCursor(component)
    let count = try cursor.readUInt8()
    var applets: [CAPApplet] = []
    for _ in 0..<count {
      let aid = try cursor.readAID()
      applets.append(CAPApplet(aid: aid, installMethodOffset: try cursor.readUInt16()))
    }
    try cursor.finish()
    return applets
  }
}

/// Reads a component's info field, throwing the component's errors with offsets from its tag.
struct ComponentCursor {
  let bytes: [UInt8]
  let tag: CAPComponentTag
  private(set) var offset = 3

  init(_ component: CAPComponent) {
    bytes = component.bytes
    tag = component.tag
  }

  mutating func readUInt8() throws(CAPFileError) -> UInt8 {
    guard offset < bytes.count else {
      throw CAPFileError(.truncatedComponent, offset: offset, component: tag)
    }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func readUInt16() throws(CAPFileError) -> UInt16 {
    let high = try readUInt8()
    return UInt16(high) << 8 | UInt16(try readUInt8())
  }

  mutating func readUInt32() throws(CAPFileError) -> UInt32 {
    let high = try readUInt16()
    return UInt32(high) << 16 | UInt32(try readUInt16())
  }

  mutating func readBytes(_ count: Int) throws(CAPFileError) -> [UInt8] {
    guard bytes.count - offset >= count else {
      throw CAPFileError(.truncatedComponent, offset: bytes.count, component: tag)
    }
    defer { offset += count }
    return Array(bytes[offset..<(offset + count)])
  }

  /// `AID_length u1 | AID` with the length 5...16.
  mutating func readAID() throws(CAPFileError) -> ApplicationIdentifier {
    let lengthOffset = offset
    let length = try readUInt8()
    guard length >= 5, length <= 16 else {
      throw CAPFileError(.invalidAIDLength, offset: lengthOffset, component: tag)
    }
    let bytes = try readBytes(Int(length))
    do { return try ApplicationIdentifier(bytes) } catch {
      throw CAPFileError(.invalidAIDLength, offset: lengthOffset, component: tag)
    }
  }

  func finish() throws(CAPFileError) {
    guard offset == bytes.count else {
      throw CAPFileError(.trailingComponentData, offset: offset, component: tag)
    }
  }
}
