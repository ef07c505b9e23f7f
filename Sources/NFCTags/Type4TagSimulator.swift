// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// A simulated Type 4 tag: a small in-memory ISO-DEP file system that answers SELECT,
/// READ BINARY and UPDATE BINARY (plain and odd INS with offset data objects) as an NDEF
/// Tag Application does, with faults on request (T4T 3.0 §5, ISO/IEC 7816-4 §11.2-§11.3).
public struct Type4TagSimulator: Sendable {
  /// An elementary file.
  public struct File: Sendable, Hashable {
    /// The file identifier.
    public var identifier: UInt16
    /// The file's bytes (its whole size).
    public var bytes: [UInt8]
    /// Whether UPDATE BINARY may change it.
    public var isWritable: Bool

    /// Creates a file.
    public init(identifier: UInt16, bytes: [UInt8], isWritable: Bool) {
      self.identifier = identifier
      self.bytes = bytes
      self.isWritable = isWritable
    }
  }

  /// The application identifiers the tag answers to.
  public var applicationIdentifiers: [[UInt8]]
  /// The files of the NDEF Tag Application.
  public var files: [File]
  /// The faults to inject.
  public var faults: [Type4Fault]
  /// The number of commands answered.
  public private(set) var commandCount: Int
  /// Whether a ``Type4Fault/Kind/leaveField`` fault has fired.
  public private(set) var hasLeftField: Bool
  private var applicationSelected: Bool
  private var selectedFile: Int?

  /// Creates a tag with the given files.
  public init(applicationIdentifiers: [[UInt8]], files: [File], faults: [Type4Fault] = []) {
    self.applicationIdentifiers = applicationIdentifiers
    self.files = files
    self.faults = faults
    self.commandCount = 0
    self.hasLeftField = false
    self.applicationSelected = false
    self.selectedFile = nil
  }

  /// An NDEF tag holding `message` in an NDEF file of `maximumFileSize` bytes (NLEN, or
  /// ENLEN with `extended`), answering the 2.0/3.0 AID (or only the 1.0 AID).
  public init(
    message: [UInt8], maximumFileSize: Int = 1024, mappingVersion: UInt8 = 0x20,
    maximumReadLength: Int = 0xFF, maximumWriteLength: Int = 0xFF, extended: Bool = false,
    readAccess: UInt8 = 0x00, writeAccess: UInt8 = 0x00, version1Only: Bool = false,
    faults: [Type4Fault] = []
  ) {
    let control = Type4NDEFFileControl(
      maximumFileSize: maximumFileSize, readAccess: readAccess, writeAccess: writeAccess, isExtended: extended
    )
    let cc = Type4CapabilityContainer(
      mappingVersion: version1Only ? 0x10 : mappingVersion, maximumReadLength: maximumReadLength,
      maximumWriteLength: maximumWriteLength, fileControl: control)
    var ndef = [UInt8](repeating: 0, count: max(maximumFileSize, control.lengthFieldSize))
    let size = control.lengthFieldSize
    for i in 0..<size {
      ndef[i] = UInt8(truncatingIfNeeded: message.count >> ((size &- 1 &- i) &* 8))
    }
    for (i, byte) in message.enumerated() where size &+ i < ndef.count { ndef[size &+ i] = byte }
    self.init(
      applicationIdentifiers: [
        version1Only ? Type4Tag.version1ApplicationIdentifier : Type4Tag.applicationIdentifier
      ],
      files: [
        File(identifier: Type4Tag.ccFileIdentifier, bytes: cc.bytes, isWritable: false),
        File(identifier: control.fileIdentifier, bytes: ndef, isWritable: writeAccess == 0x00),
      ], faults: faults)
  }

  /// The NDEF message the NDEF file holds now (by NLEN, or ENLEN when `extended`).
  public func storedMessage(extended: Bool = false) -> [UInt8]? {
    guard files.count > 1 else { return nil }
    let bytes = files[1].bytes
    let size = extended ? 4 : 2
    guard bytes.count >= size else { return nil }
    var length = 0
    for i in 0..<size { length = length << 8 | Int(bytes[i]) }
    guard size &+ length <= bytes.count else { return nil }
    return Array(bytes[size..<(size &+ length)])
  }

  /// Answers one command.
  public mutating func respond(to command: CommandAPDU) -> ResponseAPDU {
    let index = commandCount
    commandCount &+= 1
    if hasLeftField { return ResponseAPDU(statusWord: .executionError) }
    var fault: Type4Fault.Kind? = nil
    for f in faults where f.commandIndex == index { fault = f.kind }
    switch fault {
    case .statusWord(let sw)?: return ResponseAPDU(statusWord: sw)
    case .leaveField?:
      hasLeftField = true
      return ResponseAPDU(statusWord: .executionError)
    default: break
    }
    var response = answer(command)
    switch fault {
    case .dropResponseBytes(let count)?:
      response.data = Array(response.data.dropLast(max(0, count)))
    case .appendResponseBytes(let bytes)?:
      response.data += bytes
    case .replaceResponseData(let bytes)?:
      response.data = bytes
    default: break
    }
    return response
  }

  /// Answers one encoded command with an encoded response (6700 when it does not parse).
  public mutating func respond(to bytes: [UInt8]) -> [UInt8] {
    guard let command = try? CommandAPDU(parsing: bytes) else {
      commandCount &+= 1
      return ResponseAPDU(statusWord: .wrongLength).encodedBytes()
    }
    return respond(to: command).encodedBytes()
  }

  private mutating func answer(_ command: CommandAPDU) -> ResponseAPDU {
    guard command.cla.rawValue == 0x00 else { return ResponseAPDU(statusWord: .classNotSupported) }
    switch command.ins {
    case .select: return select(command)
    case .readBinary, .readBinaryBERTLV: return read(command)
    case .updateBinary, .updateBinaryBERTLV: return update(command)
    default: return ResponseAPDU(statusWord: .instructionNotSupported)
    }
  }

  private mutating func select(_ command: CommandAPDU) -> ResponseAPDU {
    switch command.p1 {
    case 0x04:
      for aid in applicationIdentifiers where aid == command.data {
        applicationSelected = true
        selectedFile = nil
        return ResponseAPDU(statusWord: .success)
      }
      applicationSelected = false
      return ResponseAPDU(statusWord: .fileNotFound)
    case 0x00:
      guard applicationSelected, command.data.count == 2 else {
        return ResponseAPDU(statusWord: .fileNotFound)
      }
      let id = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
      for (i, file) in files.enumerated() where file.identifier == id {
        selectedFile = i
        return ResponseAPDU(statusWord: .success)
      }
      return ResponseAPDU(statusWord: .fileNotFound)
    default:
      return ResponseAPDU(statusWord: .incorrectParameters)
    }
  }

  /// The offset of an odd-INS command's 54 03 data object, and the bytes after it.
  private static func offsetObject(_ data: [UInt8]) -> (offset: Int, rest: [UInt8])? {
    guard data.count >= 5, data[0] == Type4Tag.offsetDataObjectTag, data[1] == 3 else { return nil }
    return (Int(data[2]) << 16 | Int(data[3]) << 8 | Int(data[4]), Array(data[5...]))
  }

  private func read(_ command: CommandAPDU) -> ResponseAPDU {
    guard let selected = selectedFile else { return ResponseAPDU(statusWord: .noCurrentEF) }
    let file = files[selected]
    let offset: Int
    var ne = command.ne ?? 256
    let odd = command.ins == .readBinaryBERTLV
    if odd {
      guard let object = Self.offsetObject(command.data) else {
        return ResponseAPDU(statusWord: .incorrectData)
      }
      offset = object.offset
      ne = max(0, ne &- 4)
    } else {
      guard command.p1 & 0x80 == 0 else { return ResponseAPDU(statusWord: .functionNotSupported) }
      offset = Int(command.p1) << 8 | Int(command.p2)
    }
    guard offset < file.bytes.count else { return ResponseAPDU(statusWord: .wrongParameters) }
    let count = min(ne, file.bytes.count &- offset)
    let data = Array(file.bytes[offset..<(offset &+ count)])
    guard odd else { return ResponseAPDU(data: data, statusWord: .success) }
    return ResponseAPDU(
      data: [Type4Tag.discretionaryDataObjectTag] + Type4NDEFProcedure.berLength(count) + data,
      statusWord: .success)
  }

  private mutating func update(_ command: CommandAPDU) -> ResponseAPDU {
    guard let selected = selectedFile else { return ResponseAPDU(statusWord: .noCurrentEF) }
    guard files[selected].isWritable else { return ResponseAPDU(statusWord: .securityStatusNotSatisfied) }
    var offset = Int(command.p1) << 8 | Int(command.p2)
    var data = command.data
    if command.ins == .updateBinaryBERTLV {
      guard let object = Self.offsetObject(command.data), object.rest.count >= 2,
        object.rest[0] == Type4Tag.discretionaryDataObjectTag
      else { return ResponseAPDU(statusWord: .incorrectData) }
      offset = object.offset
      var body = Array(object.rest.dropFirst())
      let first = body[0]
      let lengthSize = first == 0x81 ? 2 : first == 0x82 ? 3 : 1
      guard body.count >= lengthSize else { return ResponseAPDU(statusWord: .incorrectData) }
      body.removeFirst(lengthSize)
      data = body
    } else if command.p1 & 0x80 != 0 {
      return ResponseAPDU(statusWord: .functionNotSupported)
    }
    guard offset &+ data.count <= files[selected].bytes.count else {
      return ResponseAPDU(statusWord: .wrongParameters)
    }
    for (i, byte) in data.enumerated() { files[selected].bytes[offset &+ i] = byte }
    return ResponseAPDU(statusWord: .success)
  }
}
