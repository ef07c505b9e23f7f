// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCWire

/// The Type 4 tag NDEF read and write procedures as a sans-IO state machine: it produces
/// each command APDU and consumes each response, and never touches a transport
/// (T4T 3.0 §5.4 NDEF read, §5.5 NDEF update).
///
/// ```swift
/// var procedure = Type4NDEFProcedure(operation: .read)
/// var command: CommandAPDU? = procedure.start()
/// while let next = command {
///   command = try procedure.receive(transport.respond(to: next))
/// }
/// let message = procedure.message
/// ```
///
/// Every unexpected status word, short or oversized response throws an ``NFCTagError``
/// naming the ``Type4Step``; the procedure is then finished.
public struct Type4NDEFProcedure: Sendable {
  /// What the procedure does.
  public enum Operation: Sendable, Hashable {
    /// Read the NDEF message.
    case read
    /// Write the encoded NDEF message (empty: set NLEN to 0).
    case write([UInt8])
  }

  /// Limits of the procedure.
  public struct Options: Sendable, Hashable {
    /// Whether the mapping 1.0 AID is selected when the 2.0/3.0 AID is not found.
    public var triesVersion1Application: Bool
    /// Whether commands may use extended length fields (Le past 256, Lc past 255).
    public var allowsExtendedLength: Bool
    /// The largest message the read procedure accepts, in bytes.
    public var maximumMessageSize: Int

    /// Creates options.
    public init(
      triesVersion1Application: Bool = true, allowsExtendedLength: Bool = false,
      maximumMessageSize: Int = 1 << 20
    ) {
      self.triesVersion1Application = triesVersion1Application
      self.allowsExtendedLength = allowsExtendedLength
      self.maximumMessageSize = maximumMessageSize
    }
  }

  /// The operation.
  public let operation: Operation
  /// The options.
  public let options: Options
  /// The step whose command was sent last.
  public private(set) var step: Type4Step
  /// The CC file, once read.
  public private(set) var capabilityContainer: Type4CapabilityContainer?
  /// Whether the mapping 1.0 AID was selected.
  public private(set) var usesVersion1Application: Bool
  /// The NDEF length read (NLEN or ENLEN).
  public private(set) var ndefLength: Int?
  /// The message read so far (the whole message once finished).
  public private(set) var message: [UInt8]
  /// Whether the procedure has finished (successfully or with an error).
  public private(set) var isFinished: Bool
  /// The number of commands produced.
  public private(set) var commandCount: Int

  private var offset: Int
  private var requested: Int
  private var ccBytes: [UInt8]
  private var usesOddInstruction: Bool

  /// Creates a procedure.
  public init(operation: Operation, options: Options = Options()) {
    self.operation = operation
    self.options = options
    self.step = .selectApplication
    self.capabilityContainer = nil
    self.usesVersion1Application = false
    self.ndefLength = nil
    self.message = []
    self.isFinished = false
    self.commandCount = 0
    self.offset = 0
    self.requested = 0
    self.ccBytes = []
    self.usesOddInstruction = false
  }

  /// The first command: SELECT of the NDEF Tag Application.
  public mutating func start() -> CommandAPDU {
    step = .selectApplication
    commandCount = 1
    return CommandAPDU(
      cla: .interindustry, ins: .select, p1: 0x04, p2: 0x00, data: Type4Tag.applicationIdentifier,
      ne: 256)
  }

  /// Consumes the response to the last command and returns the next command, or `nil`
  /// when the procedure has finished. Call ``start()`` first.
  ///
  /// - Throws: ``NFCTagError`` with the failing ``NFCTagError/step``:
  ///   ``NFCTagError/Code/unexpectedStatusWord`` (with the status word),
  ///   ``NFCTagError/Code/responseTooShort``, ``NFCTagError/Code/unexpectedResponse`` (also
  ///   for a response before ``start()``),
  ///   the CC file errors of ``Type4CapabilityContainer/init(parsing:)-(RawSpan)``,
  ///   ``NFCTagError/Code/ndefFileNotReadable``, ``NFCTagError/Code/ndefFileNotWritable``,
  ///   ``NFCTagError/Code/ndefLengthExceedsFile``, ``NFCTagError/Code/messageTooLarge``,
  ///   ``NFCTagError/Code/procedureFinished``.
  public mutating func receive(_ response: ResponseAPDU) throws(NFCTagError) -> CommandAPDU? {
    guard !isFinished else { throw NFCTagError(.procedureFinished, offset: 0, step: step) }
    guard commandCount > 0 else { throw NFCTagError(.unexpectedResponse, offset: 0, step: step) }
    do {
      let next = try advance(response)
      if next == nil { isFinished = true } else { commandCount &+= 1 }
      return next
    } catch {
      isFinished = true
      throw error
    }
  }

  /// Runs the whole procedure over `exchange`, which sends one command and returns the
  /// tag's response.
  ///
  /// - Throws: as ``receive(_:)``.
  public mutating func run(_ exchange: (CommandAPDU) -> ResponseAPDU) throws(NFCTagError) {
    var command: CommandAPDU? = start()
    while let next = command { command = try receive(exchange(next)) }
  }

  // MARK: Steps

  private func fail(_ code: NFCTagError.Code, offset: Int = 0, _ response: ResponseAPDU? = nil) -> NFCTagError
  {
    NFCTagError(
      code, offset: offset, step: step,
      statusWord: code == .unexpectedStatusWord ? response?.statusWord : nil)
  }

  private func expectSuccess(_ response: ResponseAPDU, allowingData: Bool = false) throws(NFCTagError) {
    guard response.statusWord == .success else { throw fail(.unexpectedStatusWord, response) }
    if !allowingData && !response.data.isEmpty {
      throw fail(.unexpectedResponse, offset: 0, response)
    }
  }

  private var filesP2: UInt8 { usesVersion1Application ? 0x00 : 0x0C }

  private func selectFile(_ id: UInt16) -> CommandAPDU {
    CommandAPDU(
      cla: .interindustry, ins: .select, p1: 0x00, p2: filesP2,
      data: [UInt8(id >> 8), UInt8(truncatingIfNeeded: id)])
  }

  private var readChunk: Int {
    let mle = capabilityContainer?.maximumReadLength ?? 0x0F
    return min(mle, options.allowsExtendedLength ? 65536 : 256)
  }

  private var writeChunk: Int {
    let mlc = capabilityContainer?.maximumWriteLength ?? 1
    return min(mlc, options.allowsExtendedLength ? 65535 : 255)
  }

  /// READ BINARY of `count` bytes at `offset` (odd INS past 0x7FFF).
  private mutating func readBinary(at offset: Int, count: Int) -> CommandAPDU {
    self.offset = offset
    if offset <= Type4Tag.largestShortOffset {
      usesOddInstruction = false
      requested = count
      return CommandAPDU(
        cla: .interindustry, ins: .readBinary, p1: UInt8(offset >> 8), p2: UInt8(truncatingIfNeeded: offset),
        ne: count)
    }
    usesOddInstruction = true
    // The response wraps the bytes in 53 L (L up to 3 bytes): leave room for 4.
    requested = max(1, count)
    return CommandAPDU(
      cla: .interindustry, ins: .readBinaryBERTLV, p1: 0x00, p2: 0x00,
      data: [Type4Tag.offsetDataObjectTag, 0x03] + Self.offsetBytes(offset), ne: count &+ 4)
  }

  /// UPDATE BINARY of `bytes` at `offset` (odd INS past 0x7FFF).
  private static func updateBinary(at offset: Int, _ bytes: [UInt8]) -> CommandAPDU {
    if offset <= Type4Tag.largestShortOffset {
      return CommandAPDU(
        cla: .interindustry, ins: .updateBinary, p1: UInt8(offset >> 8),
        p2: UInt8(truncatingIfNeeded: offset),
        data: bytes)
    }
    var data: [UInt8] = [Type4Tag.offsetDataObjectTag, 0x03] + offsetBytes(offset)
    data.append(Type4Tag.discretionaryDataObjectTag)
    data += berLength(bytes.count)
    data += bytes
    return CommandAPDU(cla: .interindustry, ins: .updateBinaryBERTLV, p1: 0x00, p2: 0x00, data: data)
  }

  private static func offsetBytes(_ offset: Int) -> [UInt8] {
    [
      UInt8(truncatingIfNeeded: offset >> 16), UInt8(truncatingIfNeeded: offset >> 8),
      UInt8(truncatingIfNeeded: offset),
    ]
  }

  static func berLength(_ count: Int) -> [UInt8] {
    if count < 0x80 { return [UInt8(count)] }
    if count <= 0xFF { return [0x81, UInt8(count)] }
    return [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
  }

  /// The data of a READ BINARY response, unwrapped from 53 L for the odd INS.
  private func readData(_ response: ResponseAPDU) throws(NFCTagError) -> [UInt8] {
    guard response.statusWord == .success else { throw fail(.unexpectedStatusWord, response) }
    let raw = response.data
    var data = raw
    if usesOddInstruction {
      let bytes = raw.span.bytes
      var reader = ByteReader(bytes)
      guard let tag = reader.readUInt8(), let first = reader.readUInt8() else {
        throw fail(.responseTooShort, offset: raw.count, response)
      }
      guard tag == Type4Tag.discretionaryDataObjectTag else {
        throw fail(.unexpectedResponse, offset: 0, response)
      }
      var length = Int(first)
      if first == 0x81 || first == 0x82 {
        guard let value = reader.readBigEndian(UInt32.self, width: Int(first & 0x03)) else {
          throw fail(.responseTooShort, offset: 1, response)
        }
        length = Int(value)
      } else if first > 0x82 || first == 0x80 {
        throw fail(.unexpectedResponse, offset: 1, response)
      }
      guard length == reader.remaining else {
        throw fail(length > reader.remaining ? .responseTooShort : .unexpectedResponse, offset: 1, response)
      }
      data = reader.readRemaining().copiedBytes()
    }
    if data.count < requested { throw fail(.responseTooShort, offset: data.count, response) }
    if data.count > requested { throw fail(.unexpectedResponse, offset: requested, response) }
    return data
  }

  private mutating func advance(_ response: ResponseAPDU) throws(NFCTagError) -> CommandAPDU? {
    switch step {
    case .selectApplication:
      if response.statusWord != .success && options.triesVersion1Application {
        step = .selectApplicationVersion1
        return CommandAPDU(
          cla: .interindustry, ins: .select, p1: 0x04, p2: 0x00, data: Type4Tag.version1ApplicationIdentifier)
      }
      try expectSuccess(response, allowingData: true)
      step = .selectCCFile
      return selectFile(Type4Tag.ccFileIdentifier)
    case .selectApplicationVersion1:
      try expectSuccess(response, allowingData: true)
      usesVersion1Application = true
      step = .selectCCFile
      return selectFile(Type4Tag.ccFileIdentifier)
    case .selectCCFile:
      try expectSuccess(response, allowingData: true)
      step = .readCCFile
      ccBytes = []
      return readBinary(at: 0, count: Type4CapabilityContainer.minimumLength)
    case .readCCFile:
      ccBytes += try readData(response)
      return try readCapabilityContainer()
    case .selectNDEFFile:
      try expectSuccess(response, allowingData: true)
      guard let control = capabilityContainer?.fileControl else { throw fail(.missingNDEFFileControl) }
      switch operation {
      case .read:
        step = .readNDEFLength
        message = []
        return readBinary(at: 0, count: control.lengthFieldSize)
      case .write(let bytes):
        step = .writeZeroLength
        _ = bytes
        return Self.updateBinary(at: 0, [UInt8](repeating: 0, count: control.lengthFieldSize))
      }
    case .readNDEFLength:
      let data = try readData(response)
      guard let control = capabilityContainer?.fileControl else { throw fail(.missingNDEFFileControl) }
      var length = 0
      for byte in data { length = length << 8 | Int(byte) }
      guard length <= control.maximumMessageSize else { throw fail(.ndefLengthExceedsFile, offset: 0) }
      guard length <= options.maximumMessageSize else { throw fail(.ndefLengthExceedsCapacity, offset: 0) }
      ndefLength = length
      guard length > 0 else { return nil }
      message.reserveCapacity(length)
      step = .readNDEFMessage
      return nextMessageRead(control)
    case .readNDEFMessage:
      message += try readData(response)
      guard let control = capabilityContainer?.fileControl else { throw fail(.missingNDEFFileControl) }
      return nextMessageRead(control)
    case .writeZeroLength:
      try expectSuccess(response)
      guard case .write(let bytes) = operation, !bytes.isEmpty else { return nil }
      step = .writeNDEFMessage
      offset = 0
      return try nextMessageWrite(bytes)
    case .writeNDEFMessage:
      try expectSuccess(response)
      guard case .write(let bytes) = operation else { return nil }
      if offset < bytes.count { return try nextMessageWrite(bytes) }
      step = .writeNDEFLength
      ndefLength = bytes.count
      let size = capabilityContainer?.fileControl.lengthFieldSize ?? 2
      var length: [UInt8] = []
      for i in stride(from: size &- 1, through: 0, by: -1) {
        length.append(UInt8(truncatingIfNeeded: bytes.count >> (i &* 8)))
      }
      return Self.updateBinary(at: 0, length)
    case .writeNDEFLength:
      try expectSuccess(response)
      return nil
    default:
      throw fail(.procedureFinished)
    }
  }

  private mutating func readCapabilityContainer() throws(NFCTagError) -> CommandAPDU? {
    let declared = (Int(ccBytes[0]) << 8) | Int(ccBytes[1])
    let needed = min(max(declared, Type4CapabilityContainer.minimumLength), 7 &+ 10)
    if ccBytes.count < needed, ccBytes.count >= 9, ccBytes[7] == Type4NDEFFileControl.extendedTag {
      // The Extended NDEF File Control TLV needs two bytes more than the first read.
      return readBinary(at: ccBytes.count, count: min(needed &- ccBytes.count, readChunk))
    }
    let cc: Type4CapabilityContainer
    do { cc = try Type4CapabilityContainer(parsing: ccBytes) } catch {
      throw NFCTagError(error.code, offset: error.offset, step: step)
    }
    capabilityContainer = cc
    switch operation {
    case .read:
      guard cc.fileControl.isReadable else { throw fail(.ndefFileNotReadable, offset: cc.readAccessOffset) }
    case .write(let bytes):
      guard cc.fileControl.isWritable else { throw fail(.ndefFileNotWritable, offset: cc.writeAccessOffset) }
      guard bytes.count <= cc.fileControl.maximumMessageSize else { throw fail(.messageTooLarge, offset: 0) }
      if bytes.count &+ cc.fileControl.lengthFieldSize > Type4Tag.largestShortOffset &+ 1 && writeChunk <= 9 {
        throw fail(.invalidCCFile, offset: 5)
      }
    }
    step = .selectNDEFFile
    return selectFile(cc.fileControl.fileIdentifier)
  }

  private mutating func nextMessageRead(_ control: Type4NDEFFileControl) -> CommandAPDU? {
    let done = message.count
    let total = ndefLength ?? 0
    guard done < total else { return nil }
    let fileOffset = control.lengthFieldSize &+ done
    let chunk = fileOffset > Type4Tag.largestShortOffset ? max(1, readChunk &- 4) : readChunk
    return readBinary(at: fileOffset, count: min(total &- done, chunk))
  }

  private mutating func nextMessageWrite(_ bytes: [UInt8]) throws(NFCTagError) -> CommandAPDU {
    let size = capabilityContainer?.fileControl.lengthFieldSize ?? 2
    let fileOffset = size &+ offset
    let chunk = fileOffset > Type4Tag.largestShortOffset ? writeChunk &- 9 : writeChunk
    guard chunk > 0 else { throw fail(.invalidCCFile, offset: 5) }
    let count = min(bytes.count &- offset, chunk)
    let command = Self.updateBinary(at: fileOffset, Array(bytes[offset..<(offset &+ count)]))
    offset &+= count
    return command
  }
}
