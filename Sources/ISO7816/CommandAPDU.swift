// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An owned command APDU, for building and encoding (ISO/IEC 7816-4:2013 §5.1).
///
/// The case is not stored: it follows from ``data``, ``ne`` and the
/// ``LengthEncoding`` chosen when encoding (the shortest valid form by default).
public struct CommandAPDU: Sendable, Hashable {
  /// The class byte.
  public var cla: CommandClass
  /// The instruction byte.
  public var ins: Instruction
  /// Parameter P1.
  public var p1: UInt8
  /// Parameter P2.
  public var p2: UInt8
  /// The command data field; empty for none (Nc = 0).
  public var data: [UInt8]
  /// Ne: the maximum number of response bytes expected, 1...65536, or `nil` for no Le field.
  public var ne: Int?

  /// Creates a command.
  public init(
    cla: CommandClass, ins: Instruction, p1: UInt8, p2: UInt8, data: [UInt8] = [],
    ne: Int? = nil
  ) {
    self.cla = cla
    self.ins = ins
    self.p1 = p1
    self.p2 = p2
    self.data = data
    self.ne = ne
  }

  /// Creates a command from raw header bytes.
  public init(
    cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], ne: Int? = nil
  ) {
    self.init(
      cla: CommandClass(rawValue: cla), ins: Instruction(rawValue: ins), p1: p1, p2: p2,
      data: data, ne: ne)
  }

  /// Copies a validated view.
  public init(_ view: borrowing CommandAPDUView) {
    self.init(
      cla: view.cla, ins: view.ins, p1: view.p1, p2: view.p2, data: view.data.copiedBytes(),
      ne: view.ne)
  }

  /// Parses one command APDU from `bytes`.
  ///
  /// - Throws: the errors of ``CommandAPDUView/init(validating:baseOffset:)-(RawSpan,_)``.
  public init(parsing bytes: [UInt8]) throws(APDUError) {
    let view = try CommandAPDUView(validating: bytes.span.bytes)
    self.init(view)
  }

  /// How the length fields are written (§5.1).
  public struct LengthEncoding: Sendable, Hashable {
    fileprivate enum Value: UInt8, Sendable, Hashable { case shortest, extended, shortOnly }
    fileprivate let value: Value
    /// Short fields when Nc ≤ 255 and Ne ≤ 256, extended otherwise (both fields extended
    /// together, as §5.1 requires).
    public static let shortest = LengthEncoding(value: .shortest)
    /// Extended fields whenever a length field is present.
    public static let extended = LengthEncoding(value: .extended)
    /// Short fields only; a command that needs extended ones is an error.
    public static let shortOnly = LengthEncoding(value: .shortOnly)
  }

  /// The number of data bytes, Nc.
  public var nc: Int { data.count }

  /// The command name for well-known INS values under this class, or `nil`.
  public var commandName: String? { ins.commandName(class: cla) }

  /// Whether the command needs extended length fields: Nc > 255 or Ne > 256.
  public var requiresExtendedLength: Bool {
    data.count > 255 || (ne ?? 0) > 256
  }

  /// The case the command is encoded as with `lengthEncoding`.
  ///
  /// - Throws: ``APDUError/Code/dataTooLong`` (Nc > 65535),
  ///   ``APDUError/Code/invalidExpectedLength`` (Ne outside 1...65536) or
  ///   ``APDUError/Code/extendedLengthRequired`` (``LengthEncoding/shortOnly`` and the
  ///   command needs extended fields).
  public func apduCase(lengthEncoding: LengthEncoding = .shortest) throws(APDUError) -> APDUCase {
    guard data.count <= 65535 else { throw APDUError(.dataTooLong, offset: 0) }
    if let ne { guard ne >= 1, ne <= 65536 else { throw APDUError(.invalidExpectedLength, offset: 0) } }
    let extended: Bool
    switch lengthEncoding.value {
    case .shortest: extended = requiresExtendedLength
    case .extended: extended = true
    case .shortOnly:
      guard !requiresExtendedLength else { throw APDUError(.extendedLengthRequired, offset: 0) }
      extended = false
    }
    switch (data.isEmpty, ne == nil) {
    case (true, true): return .case1
    case (true, false): return extended ? .case2Extended : .case2Short
    case (false, true): return extended ? .case3Extended : .case3Short
    case (false, false): return extended ? .case4Extended : .case4Short
    }
  }

  /// The exact number of bytes ``encode(into:lengthEncoding:)`` writes.
  ///
  /// - Throws: as ``apduCase(lengthEncoding:)``.
  public func encodedCount(lengthEncoding: LengthEncoding = .shortest) throws(APDUError) -> Int {
    let apduCase = try apduCase(lengthEncoding: lengthEncoding)
    switch apduCase {
    case .case1: return 4
    case .case2Short: return 5
    case .case3Short: return 5 + data.count
    case .case4Short: return 6 + data.count
    case .case2Extended: return 7
    case .case3Extended: return 7 + data.count
    default: return 9 + data.count
    }
  }

  /// Writes the command into `output`.
  ///
  /// - Throws: as ``apduCase(lengthEncoding:)``, and ``APDUError/Code/bufferTooSmall`` when
  ///   `output` has less free capacity than ``encodedCount(lengthEncoding:)`` (nothing is
  ///   written then).
  public func encode(
    into output: inout OutputSpan<UInt8>, lengthEncoding: LengthEncoding = .shortest
  ) throws(APDUError) {
    let apduCase = try apduCase(lengthEncoding: lengthEncoding)
    let count = try encodedCount(lengthEncoding: lengthEncoding)
    guard output.freeCapacity >= count else { throw APDUError(.bufferTooSmall, offset: 0) }
    output.appendByte(cla.rawValue)
    output.appendByte(ins.rawValue)
    output.appendByte(p1)
    output.appendByte(p2)
    // Ne 256 is a short Le of 0x00, Ne 65536 an extended Le of 0x0000 (§5.1).
    let le = UInt16(truncatingIfNeeded: ne ?? 0)
    switch apduCase {
    case .case1: break
    case .case2Short: output.appendByte(UInt8(truncatingIfNeeded: le))
    case .case3Short, .case4Short:
      output.appendByte(UInt8(data.count))
      output.appendBytes(data)
      if apduCase == .case4Short { output.appendByte(UInt8(truncatingIfNeeded: le)) }
    case .case2Extended:
      output.appendByte(0)
      output.appendBigEndian(le)
    default:
      output.appendByte(0)
      output.appendBigEndian(UInt16(data.count))
      output.appendBytes(data)
      if apduCase == .case4Extended { output.appendBigEndian(le) }
    }
  }

  /// The encoded command as a new array.
  ///
  /// - Throws: as ``apduCase(lengthEncoding:)``.
  public func encodedBytes(lengthEncoding: LengthEncoding = .shortest) throws(APDUError)
    -> [UInt8]
  {
    let count = try encodedCount(lengthEncoding: lengthEncoding)
    return try encodeToArray(count: count) { (output: inout OutputSpan<UInt8>) throws(APDUError) in
      try encode(into: &output, lengthEncoding: lengthEncoding)
    }
  }
}
