// SPDX-License-Identifier: Apache-2.0

import ISO7816

/// One data object of the transparent session (PC/SC Part 3 supplement, `FF C2`): a BER
/// tag of 1 or 2 bytes, a length (1 byte, `81 L` or `82 LL`) and a value.
public struct TransparentDataObject: Sendable, Hashable {
  /// The tag (1 byte, or 2 bytes when the first byte's low 5 bits are all set: `5F 46`,
  /// `FF 6E`).
  public var tag: UInt16
  /// The value.
  public var value: [UInt8]

  /// Creates a data object.
  public init(tag: UInt16, value: [UInt8]) {
    self.tag = tag
    self.value = value
  }

  /// Manage Session 81: start a transparent session.
  public static let startSession = TransparentDataObject(tag: 0x81, value: [])
  /// Manage Session 82: end the transparent session.
  public static let endSession = TransparentDataObject(tag: 0x82, value: [])
  /// Manage Session 83: turn the RF field off.
  public static let rfOff = TransparentDataObject(tag: 0x83, value: [])
  /// Manage Session 84: turn the RF field on.
  public static let rfOn = TransparentDataObject(tag: 0x84, value: [])
  /// Manage Session 5F46: the timer, in microseconds (4 bytes, most significant first).
  public static func timer(microseconds: UInt32) -> TransparentDataObject {
    TransparentDataObject(
      tag: 0x5F46, value: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: microseconds >> UInt32($0)) })
  }
  /// Transparent Exchange 90: transmission and reception flags (2 bytes: CRC, parity...).
  public static func transmissionFlags(_ flags: UInt16) -> TransparentDataObject {
    TransparentDataObject(
      tag: 0x90, value: [UInt8(truncatingIfNeeded: flags >> 8), UInt8(truncatingIfNeeded: flags)])
  }
  /// Transparent Exchange 91: the number of valid bits in the last transmitted byte.
  public static func transmitBitFraming(_ bits: UInt8) -> TransparentDataObject {
    TransparentDataObject(tag: 0x91, value: [bits])
  }
  /// Transparent Exchange 92: the number of valid bits in the last received byte.
  public static func receiveBitFraming(_ bits: UInt8) -> TransparentDataObject {
    TransparentDataObject(tag: 0x92, value: [bits])
  }
  /// Transparent Exchange 95: send `frame` to the card and receive its answer.
  public static func transceive(_ frame: [UInt8]) -> TransparentDataObject {
    TransparentDataObject(tag: 0x95, value: frame)
  }
  /// Switch Protocol 8F: switch to `standard` at `layer` (supplement Table: standard 00
  /// ISO 14443 A, 01 B, 02 ISO 15693, 03 FeliCa...; layer 00 none, 02/03/04 the
  /// standard's part, 20/30/40 high level).
  public static func switchProtocol(standard: UInt8, layer: UInt8) -> TransparentDataObject {
    TransparentDataObject(tag: 0x8F, value: [standard, layer])
  }

  /// Encoded bytes of a sequence of objects.
  ///
  /// - Throws: ``PCSCControlError/Code/valueTooLong`` (offset: the object's index) for a
  ///   value over 65535 bytes.
  public static func encode(_ objects: [TransparentDataObject]) throws(PCSCControlError) -> [UInt8] {
    var bytes: [UInt8] = []
    for (index, object) in objects.enumerated() {
      if object.tag > 0xFF { bytes.append(UInt8(truncatingIfNeeded: object.tag >> 8)) }
      bytes.append(UInt8(truncatingIfNeeded: object.tag))
      let count = object.value.count
      switch count {
      case 0..<0x80: bytes.append(UInt8(count))
      case 0x80...0xFF: bytes += [0x81, UInt8(count)]
      case 0x100...0xFFFF:
        bytes += [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
      default: throw PCSCControlError(.valueTooLong, offset: index)
      }
      bytes += object.value
    }
    return bytes
  }

  /// Parses a sequence of objects, each error at its absolute offset in `bytes`.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedDataObject``,
  ///   ``PCSCControlError/Code/invalidDataObjectLength``,
  ///   ``PCSCControlError/Code/dataObjectExceedsInput``.
  public static func parse(_ bytes: [UInt8]) throws(PCSCControlError) -> [TransparentDataObject] {
    try parseWithOffsets(bytes).map { $0.object }
  }

  /// ``parse(_:)`` with each object's offset (its tag's first byte).
  static func parseWithOffsets(_ bytes: [UInt8]) throws(PCSCControlError) -> [(
    object: TransparentDataObject, offset: Int
  )] {
    var objects: [(object: TransparentDataObject, offset: Int)] = []
    var i = 0
    while i < bytes.count {
      let start = i
      var tag = UInt16(bytes[i])
      i &+= 1
      if bytes[start] & 0x1F == 0x1F {
        guard i < bytes.count else { throw PCSCControlError(.truncatedDataObject, offset: start) }
        tag = tag << 8 | UInt16(bytes[i])
        i &+= 1
      }
      guard i < bytes.count else { throw PCSCControlError(.truncatedDataObject, offset: start) }
      var length = Int(bytes[i])
      let lengthOffset = i
      i &+= 1
      if length >= 0x80 {
        let extra = length & 0x7F
        guard length == 0x81 || length == 0x82 else {
          throw PCSCControlError(.invalidDataObjectLength, offset: lengthOffset)
        }
        guard bytes.count &- i >= extra else { throw PCSCControlError(.truncatedDataObject, offset: start) }
        length = 0
        for _ in 0..<extra {
          length = length << 8 | Int(bytes[i])
          i &+= 1
        }
      }
      guard bytes.count &- i >= length else {
        throw PCSCControlError(.dataObjectExceedsInput, offset: lengthOffset)
      }
      objects.append((TransparentDataObject(tag: tag, value: Array(bytes[i..<(i &+ length)])), start))
      i &+= length
    }
    return objects
  }
}

/// PC/SC Part 3 supplement `FF C2 00 function Lc dataObjects`: the transparent session
/// that carries raw card commands (NTAG GET_VERSION, FeliCa frames) through a storage-card
/// reader. Facts from wsrf2009/contactless-driver `pcsc.h`/`pcsc.c` and Microsoft's
/// storage-card page (the supplement itself was not available).
public struct TransparentSessionPseudoAPDU: Sendable, Hashable {
  /// The transparent session's instruction byte.
  public static let instruction: UInt8 = 0xC2

  /// P2: which function the data objects belong to.
  public struct Function: RawRepresentable, Sendable, Hashable {
    /// P2.
    public let rawValue: UInt8
    /// Creates a function from P2.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// 00: Manage Session (start, end, RF field, timer, parameters).
    public static let manageSession = Function(rawValue: 0x00)
    /// 01: Transparent Exchange (framing flags, transmit, receive, transceive).
    public static let transparentExchange = Function(rawValue: 0x01)
    /// 02: Switch Protocol.
    public static let switchProtocol = Function(rawValue: 0x02)
  }

  /// P2.
  public var function: Function
  /// The data objects.
  public var objects: [TransparentDataObject]

  /// Creates a command.
  public init(function: Function, objects: [TransparentDataObject]) {
    self.function = function
    self.objects = objects
  }

  /// Parses `FF C2 00 P2 Lc dataObjects`.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedCommand``, ``PCSCControlError/Code/wrongClass``
  ///   (offset 0), ``PCSCControlError/Code/wrongInstruction`` (offset 1),
  ///   ``PCSCControlError/Code/invalidParameters`` (offset 2: P1 not 00),
  ///   ``PCSCControlError/Code/emptyValue`` and ``PCSCControlError/Code/lengthMismatch``
  ///   (offset 4), the data-object errors of ``TransparentDataObject/parse(_:)`` (offsets in
  ///   the command).
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    let (p1, p2) = try StorageCardCommandParsing.header(bytes, instruction: Self.instruction)
    guard p1 == 0 else { throw PCSCControlError(.invalidParameters, offset: 2) }
    let data = try StorageCardCommandParsing.data(bytes)
    do {
      objects = try TransparentDataObject.parse(data)
    } catch {
      throw PCSCControlError(error.code, offset: error.offset &+ 5)
    }
    function = Function(rawValue: p2)
  }

  /// The command bytes.
  ///
  /// - Throws: ``PCSCControlError/Code/emptyValue`` (no objects),
  ///   ``PCSCControlError/Code/valueTooLong`` (over 255 bytes of objects).
  public func encodedBytes() throws(PCSCControlError) -> [UInt8] {
    try StorageCardCommandParsing.command(
      instruction: Self.instruction, p1: 0x00, p2: function.rawValue,
      data: TransparentDataObject.encode(objects))
  }

  /// A transparent exchange that sends one raw frame: `FF C2 00 01 Lc 95 L frame`.
  public static func transceive(_ frame: [UInt8]) -> TransparentSessionPseudoAPDU {
    TransparentSessionPseudoAPDU(function: .transparentExchange, objects: [.transceive(frame)])
  }

  /// The reader's answer to a transparent-session command.
  public enum Answer: Sendable, Hashable {
    /// Outer 9000 and `C0 03 00 90 00`: the data objects that follow (see
    /// ``TransparentSessionResponse``).
    case completed(TransparentSessionResponse)
    /// Outer 9000, but `C0 03 index SW1 SW2` reports that data object `index` failed with
    /// SW1 SW2 (6A81 unsupported, 6400 no answer from the card...).
    case objectFailed(index: UInt8, StatusWord)
    /// An outer status word other than 9000.
    case failed(StatusWord)
  }

  /// Interprets the reader's answer: the outer status word must be 9000 and the data
  /// objects must include the generic error status `C0 03`.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedResponse``, the data-object errors of
  ///   ``TransparentDataObject/parse(_:)``, ``PCSCControlError/Code/missingGenericErrorStatus``
  ///   (offset: the data's end), ``PCSCControlError/Code/invalidGenericErrorStatus``
  ///   (offset: the object's tag).
  public static func answer(parsing response: [UInt8]) throws(PCSCControlError) -> Answer {
    let (data, sw) = try StorageCardCommandParsing.response(response)
    guard sw == 0x90_00 else { return .failed(StatusWord(rawValue: sw)) }
    let parsed = try TransparentDataObject.parseWithOffsets(data)
    guard let generic = parsed.first(where: { $0.object.tag == 0xC0 }) else {
      throw PCSCControlError(.missingGenericErrorStatus, offset: data.count)
    }
    let status = generic.object.value
    guard status.count == 3 else {
      throw PCSCControlError(.invalidGenericErrorStatus, offset: generic.offset)
    }
    let inner = StatusWord(sw1: status[1], sw2: status[2])
    guard status[0] == 0, inner == .success else { return .objectFailed(index: status[0], inner) }
    return .completed(TransparentSessionResponse(objects: parsed.map { $0.object }))
  }
}

/// The data objects of a successful transparent-session answer.
public struct TransparentSessionResponse: Sendable, Hashable {
  /// Every object, the generic error status included.
  public var objects: [TransparentDataObject]

  /// Creates a response from its objects.
  public init(objects: [TransparentDataObject]) { self.objects = objects }

  /// 97: the card's answer.
  public var cardData: [UInt8]? { objects.first { $0.tag == 0x97 }?.value }
  /// 92: the number of valid bits in the last received byte.
  public var receivedBits: UInt8? { objects.first { $0.tag == 0x92 && $0.value.count == 1 }?.value[0] }
  /// 96: the reception status (2 bytes: CRC, collision, parity, framing errors).
  public var responseStatus: UInt16? {
    guard let value = objects.first(where: { $0.tag == 0x96 })?.value, value.count == 2 else { return nil }
    return UInt16(value[0]) << 8 | UInt16(value[1])
  }
}
