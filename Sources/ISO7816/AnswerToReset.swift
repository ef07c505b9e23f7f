// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A card's answer to reset (ATR, ISO/IEC 7816-3:2006 §8): the initial character TS, the
/// format character T0, the interface bytes TAi TBi TCi TDi, the historical bytes and the
/// check character TCK.
///
/// PC/SC readers report it for contact cards and build one for contactless cards (PC/SC
/// part 3 §3.1.3.2.3: `3B 8n 80 01` + historical bytes + TCK). Parsing checks every length
/// the format bytes announce, the 33-byte bound and TCK (§8.2.5: absent when only T=0 is
/// indicated, present otherwise).
public struct AnswerToReset: Sendable, Hashable {
  /// The initial character TS (§8.1): the coding convention.
  public struct Convention: RawRepresentable, Sendable, Hashable {
    /// The TS byte as the reader reports it.
    public let rawValue: UInt8
    /// Creates a convention from TS; any value is kept, parsing rejects all but two.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// TS = 0x3B: direct convention.
    public static let direct = Convention(rawValue: 0x3B)
    /// TS = 0x3F: inverse convention.
    public static let inverse = Convention(rawValue: 0x3F)
  }

  /// One group of interface bytes, TAi TBi TCi (§8.2.2-§8.2.3). TDi is not stored: it is
  /// derived from the next group (which bytes it has, its ``protocolType``).
  public struct InterfaceGroup: Sendable, Hashable {
    /// The protocol the previous TD(i-1) named for this group (its low nibble; 0 for group 1,
    /// whose bytes are global). 15 means global interface bytes (T=15).
    public var protocolType: UInt8
    /// TAi, if present.
    public var ta: UInt8?
    /// TBi, if present.
    public var tb: UInt8?
    /// TCi, if present.
    public var tc: UInt8?

    /// Creates a group.
    public init(protocolType: UInt8, ta: UInt8? = nil, tb: UInt8? = nil, tc: UInt8? = nil) {
      self.protocolType = protocolType
      self.ta = ta
      self.tb = tb
      self.tc = tc
    }

    /// The Y nibble announcing this group's bytes (b5 TA, b6 TB, b7 TC; TD is added by the caller).
    var presence: UInt8 {
      (ta == nil ? 0 : 0x1) | (tb == nil ? 0 : 0x2) | (tc == nil ? 0 : 0x4)
    }
  }

  /// The largest answer to reset: TS and 32 further characters (§8.2).
  public static let maximumSize = 33
  /// The largest number of historical bytes (K is a nibble).
  public static let maximumHistoricalCount = 15

  /// TS.
  public var convention: Convention
  /// The interface byte groups, group 1 first (empty when T0's Y1 is 0).
  public var interfaceGroups: [InterfaceGroup]
  /// The historical bytes T1...TK (§8.2.4; their content is ISO/IEC 7816-4 §12.1.1).
  public var historicalBytes: [UInt8]

  /// Creates an answer to reset; ``checkCharacter`` is computed when one is needed.
  public init(convention: Convention = .direct, interfaceGroups: [InterfaceGroup], historicalBytes: [UInt8]) {
    self.convention = convention
    self.interfaceGroups = interfaceGroups
    self.historicalBytes = historicalBytes
  }

  /// The protocols indicated by TD1, TD2, ... in order without repeats (T=15, global
  /// bytes, included), or `[0]` when there is no TD1 (§8.2.3: T=0 by default).
  public var protocols: [UInt8] {
    var result: [UInt8] = []
    for group in interfaceGroups.dropFirst() where !result.contains(group.protocolType) {
      result.append(group.protocolType)
    }
    return result.isEmpty ? [0] : result
  }

  /// Whether TCK is present: unless only T=0 is indicated (§8.2.5).
  public var hasCheckCharacter: Bool { protocols != [0] }

  /// TA1's Fi (high nibble) and Di (low nibble) indices, nil without TA1 (§8.3).
  public var clockRateConversion: (fi: UInt8, di: UInt8)? {
    guard let ta1 = interfaceGroups.first?.ta else { return nil }
    return (ta1 >> 4, ta1 & 0x0F)
  }

  /// The format character T0 (Y1 and K).
  public var formatCharacter: UInt8 {
    let y1 = interfaceGroups.first.map { $0.presence | (interfaceGroups.count > 1 ? 0x8 : 0) } ?? 0
    return y1 << 4 | UInt8(truncatingIfNeeded: historicalBytes.count & 0x0F)
  }

  /// TCK: the XOR of T0 through the last historical byte, nil when only T=0 is indicated.
  public var checkCharacter: UInt8? {
    guard hasCheckCharacter else { return nil }
    let bytes = bodyBytes()
    return bytes.dropFirst().reduce(0, ^)
  }

  /// The encoded size in bytes, TCK included when present.
  public var encodedCount: Int { bodyBytes().count + (hasCheckCharacter ? 1 : 0) }

  /// TS, T0, the interface bytes and the historical bytes, without TCK.
  private func bodyBytes() -> [UInt8] {
    var bytes: [UInt8] = [convention.rawValue, formatCharacter]
    for (i, group) in interfaceGroups.enumerated() {
      if let ta = group.ta { bytes.append(ta) }
      if let tb = group.tb { bytes.append(tb) }
      if let tc = group.tc { bytes.append(tc) }
      guard i &+ 1 < interfaceGroups.count else { continue }
      // TD(i+1) announces the next group's bytes (and its own TD when a group follows it).
      let next = interfaceGroups[i &+ 1]
      let more: UInt8 = i &+ 2 < interfaceGroups.count ? 0x8 : 0
      bytes.append((next.presence | more) << 4 | (next.protocolType & 0x0F))
    }
    return bytes + historicalBytes
  }

  /// The encoded answer to reset (TCK computed).
  ///
  /// - Throws: ``APDUError/Code/answerToResetTooLong`` for more than 33 bytes or more than
  ///   15 historical bytes, ``APDUError/Code/invalidDataObject`` for a protocol type above 15.
  public func encodedBytes() throws(APDUError) -> [UInt8] {
    guard historicalBytes.count <= Self.maximumHistoricalCount else {
      throw APDUError(.answerToResetTooLong, offset: 0)
    }
    guard interfaceGroups.allSatisfy({ $0.protocolType <= 0x0F }) else {
      throw APDUError(.invalidDataObject, offset: 0)
    }
    var bytes = bodyBytes()
    if let tck = checkCharacter { bytes.append(tck) }
    guard bytes.count <= Self.maximumSize else {
      throw APDUError(.answerToResetTooLong, offset: Self.maximumSize)
    }
    return bytes
  }

  /// Parses an answer to reset from `bytes` (TS first).
  ///
  /// - Throws: ``APDUError`` with the absolute offset: ``APDUError/Code/invalidInitialCharacter``
  ///   (TS), ``APDUError/Code/answerToResetTooLong`` (byte 33),
  ///   ``APDUError/Code/truncatedAnswerToReset`` (where the missing byte should be),
  ///   ``APDUError/Code/invalidCheckCharacter`` (TCK), ``APDUError/Code/trailingData``
  ///   (the first byte after the answer).
  public init(parsing bytes: RawSpan, baseOffset: Int = 0) throws(APDUError) {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    guard bytes.byteCount <= Self.maximumSize else {
      throw APDUError(.answerToResetTooLong, offset: baseOffset &+ Self.maximumSize)
    }
    guard let ts = reader.readUInt8() else { throw APDUError(.truncatedAnswerToReset, offset: reader.offset) }
    guard ts == Convention.direct.rawValue || ts == Convention.inverse.rawValue else {
      throw APDUError(.invalidInitialCharacter, offset: baseOffset)
    }
    guard let t0 = reader.readUInt8() else { throw APDUError(.truncatedAnswerToReset, offset: reader.offset) }
    var check = t0
    var groups: [InterfaceGroup] = []
    var y = t0 >> 4
    var protocolType: UInt8 = 0
    var announced = true
    // At most 32 bytes follow TS, so at most 32 groups: the loop ends.
    while announced {
      var group = InterfaceGroup(protocolType: protocolType)
      if y == 0 && groups.isEmpty { break }
      func next(_ reader: inout ByteReader) throws(APDUError) -> UInt8 {
        guard let byte = reader.readUInt8() else {
          throw APDUError(.truncatedAnswerToReset, offset: reader.offset)
        }
        return byte
      }
      if y & 0x1 != 0 { group.ta = try next(&reader) }
      if y & 0x2 != 0 { group.tb = try next(&reader) }
      if y & 0x4 != 0 { group.tc = try next(&reader) }
      check ^= (group.ta ?? 0) ^ (group.tb ?? 0) ^ (group.tc ?? 0)
      groups.append(group)
      if y & 0x8 != 0 {
        let td = try next(&reader)
        check ^= td
        y = td >> 4
        protocolType = td & 0x0F
      } else {
        announced = false
      }
    }
    let historicalCount = Int(t0 & 0x0F)
    var historical: [UInt8] = []
    for _ in 0..<historicalCount {
      guard let byte = reader.readUInt8() else {
        throw APDUError(.truncatedAnswerToReset, offset: reader.offset)
      }
      check ^= byte
      historical.append(byte)
    }
    self.init(convention: Convention(rawValue: ts), interfaceGroups: groups, historicalBytes: historical)
    if hasCheckCharacter {
      let tckOffset = reader.offset
      guard let tck = reader.readUInt8() else { throw APDUError(.truncatedAnswerToReset, offset: tckOffset) }
      guard check ^ tck == 0 else { throw APDUError(.invalidCheckCharacter, offset: tckOffset) }
    }
    guard reader.isAtEnd else { throw APDUError(.trailingData, offset: reader.offset) }
  }

  /// Parses an answer to reset from an array (offsets from its start).
  ///
  /// - Throws: as ``init(parsing:baseOffset:)``.
  public init(parsing bytes: [UInt8]) throws(APDUError) {
    try self.init(parsing: bytes.span.bytes)
  }
}
