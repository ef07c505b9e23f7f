// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A validated command APDU over the caller's bytes, without copying (ISO/IEC 7816-4:2013
/// §5.1).
///
/// `init(validating:)` finds the case from the length fields exactly as §5.1 describes and
/// rejects every inconsistent combination:
///
/// ```swift
/// let command = try CommandAPDUView(validating: bytes.span.bytes)
/// print(command.apduCase.name, command.data.byteCount, command.ne ?? 0)
/// ```
public struct CommandAPDUView: ~Escapable {
  /// Every byte of the command.
  public let bytes: RawSpan
  /// Absolute offset of the CLA byte in the caller's input.
  public let baseOffset: Int
  /// The class byte.
  public let cla: CommandClass
  /// The instruction byte.
  public let ins: Instruction
  /// Parameter P1.
  public let p1: UInt8
  /// Parameter P2.
  public let p2: UInt8
  /// The command data field (Nc bytes); empty in cases 1 and 2.
  public let data: RawSpan
  /// Absolute offset of the data field (of where it would start when empty).
  public let dataOffset: Int
  /// Ne, the maximum number of response bytes expected: 1...65536, `nil` without a Le field.
  /// A short Le of 0x00 means 256, an extended Le of 0x0000 means 65536.
  public let ne: Int?
  /// The case the length fields encode.
  public let apduCase: APDUCase

  /// Validates `bytes` as exactly one command APDU.
  ///
  /// - Throws: ``APDUError`` with ``APDUError/Code/truncatedHeader`` (fewer than 4 bytes;
  ///   offset: end of input), ``APDUError/Code/truncatedExtendedLength`` (offset: end of
  ///   input), ``APDUError/Code/invalidExtendedLc`` (offset: the Lc field),
  ///   ``APDUError/Code/dataExceedsInput`` (offset: the Lc field) or
  ///   ``APDUError/Code/invalidLengthFields`` (offset: the first byte that cannot belong to
  ///   a Le field).
  @_lifetime(copy bytes)
  public init(validating bytes: RawSpan, baseOffset: Int = 0) throws(APDUError) {
    let n = bytes.byteCount
    guard n >= 4, let cla = bytes.byte(at: 0), let ins = bytes.byte(at: 1),
      let p1 = bytes.byte(at: 2), let p2 = bytes.byte(at: 3)
    else { throw APDUError(.truncatedHeader, offset: baseOffset &+ n) }
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.cla = CommandClass(rawValue: cla)
    self.ins = Instruction(rawValue: ins)
    self.p1 = p1
    self.p2 = p2
    var dataStart = 4
    var dataCount = 0
    var ne: Int? = nil
    var apduCase = APDUCase.case1
    if n > 4, let b1 = bytes.byte(at: 4) {
      if n == 5 {
        apduCase = .case2Short
        ne = b1 == 0 ? 256 : Int(b1)
      } else if b1 != 0 {
        dataStart = 5
        dataCount = Int(b1)
        let dataEnd = 5 &+ dataCount
        if n < dataEnd { throw APDUError(.dataExceedsInput, offset: baseOffset &+ 4) }
        if n == dataEnd {
          apduCase = .case3Short
        } else if n == dataEnd &+ 1, let le = bytes.byte(at: dataEnd) {
          apduCase = .case4Short
          ne = le == 0 ? 256 : Int(le)
        } else {
          throw APDUError(.invalidLengthFields, offset: baseOffset &+ dataEnd &+ 1)
        }
      } else {
        guard n >= 7, let b2 = bytes.byte(at: 5), let b3 = bytes.byte(at: 6) else {
          throw APDUError(.truncatedExtendedLength, offset: baseOffset &+ n)
        }
        let value = Int(b2) << 8 | Int(b3)
        if n == 7 {
          apduCase = .case2Extended
          ne = value == 0 ? 65536 : value
        } else {
          guard value != 0 else { throw APDUError(.invalidExtendedLc, offset: baseOffset &+ 4) }
          dataStart = 7
          dataCount = value
          let dataEnd = 7 &+ value
          if n < dataEnd { throw APDUError(.dataExceedsInput, offset: baseOffset &+ 4) }
          if n == dataEnd {
            apduCase = .case3Extended
          } else if n == dataEnd &+ 2, let l1 = bytes.byte(at: dataEnd),
            let l2 = bytes.byte(at: dataEnd &+ 1)
          {
            apduCase = .case4Extended
            let le = Int(l1) << 8 | Int(l2)
            ne = le == 0 ? 65536 : le
          } else if n == dataEnd &+ 1 {
            throw APDUError(.truncatedExtendedLength, offset: baseOffset &+ n)
          } else {
            throw APDUError(.invalidLengthFields, offset: baseOffset &+ dataEnd &+ 2)
          }
        }
      }
    }
    self.data = bytes.extracting(dataStart..<(dataStart &+ dataCount))
    self.dataOffset = baseOffset &+ dataStart
    self.ne = ne
    self.apduCase = apduCase
  }

  /// Validates the bytes of a `Span<UInt8>` (from `[UInt8].span`, `ArraySlice.span`, ...).
  @_lifetime(copy bytes)
  public init(validating bytes: Span<UInt8>, baseOffset: Int = 0) throws(APDUError) {
    try self.init(validating: bytes.bytes, baseOffset: baseOffset)
  }

  /// Nc, the number of data bytes.
  public var nc: Int { data.byteCount }

  /// The command name for well-known INS values under this class (e.g. `SELECT`,
  /// GlobalPlatform `INSTALL`), or `nil`.
  public var commandName: String? { ins.commandName(class: cla) }
}
