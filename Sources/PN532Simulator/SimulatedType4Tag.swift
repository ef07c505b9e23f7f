// SPDX-License-Identifier: Apache-2.0
/// A small ISO/IEC 7816-4 file system behind one application: SELECT (by name and by file
/// identifier), READ BINARY and UPDATE BINARY on transparent files, as the NFC Forum Type 4
/// Tag NDEF procedure uses them (T4T 2.0 section 5).
public struct Type4FileSystem: Sendable, Hashable {
  /// The application identifier answered by SELECT by name.
  public var applicationID: [UInt8]
  /// Transparent files by identifier; each file's size is fixed (its capacity).
  public var files: [UInt16: [UInt8]]
  var applicationSelected = false
  var selectedFile: UInt16?

  /// Creates a file system.
  public init(applicationID: [UInt8], files: [UInt16: [UInt8]]) {
    self.applicationID = applicationID
    self.files = files
  }

  /// The NDEF Tag Application (`D2760000850101`) with a capability container file `E103`
  /// and an NDEF file `E104` of `capacity` bytes holding `message` (T4T 2.0 5.1, 5.2).
  public static func ndef(message: [UInt8], capacity: Int = 1024) -> Type4FileSystem {
    let size = max(capacity, message.count + 2)
    var cc: [UInt8] = [0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34]
    cc += [
      0x04, 0x06, 0xE1, 0x04, UInt8(truncatingIfNeeded: size >> 8), UInt8(truncatingIfNeeded: size), 0x00,
      0x00,
    ]
    var file = [UInt8](repeating: 0, count: size)
    file[0] = UInt8(truncatingIfNeeded: message.count >> 8)
    file[1] = UInt8(truncatingIfNeeded: message.count)
    for (i, byte) in message.enumerated() { file[2 + i] = byte }
    return Type4FileSystem(
      applicationID: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01], files: [0xE103: cc, 0xE104: file])
  }

  /// Answers one short command APDU with a response APDU (data and status word).
  mutating func answer(_ apdu: [UInt8]) -> [UInt8] {
    guard apdu.count >= 4 else { return [0x67, 0x00] }
    let ins = apdu[1]
    let p1 = apdu[2]
    let p2 = apdu[3]
    var data: [UInt8] = []
    var le = 0
    if apdu.count == 5 {
      le = apdu[4] == 0 ? 256 : Int(apdu[4])
    } else if apdu.count > 5 {
      let lc = Int(apdu[4])
      guard apdu.count == 5 + lc || apdu.count == 6 + lc else { return [0x67, 0x00] }
      data = Array(apdu[5..<(5 + lc)])
      if apdu.count == 6 + lc { le = apdu[5 + lc] == 0 ? 256 : Int(apdu[5 + lc]) }
    }
    guard apdu[0] == 0x00 else { return [0x6E, 0x00] }
    switch ins {
    case 0xA4 where p1 == 0x04:
      guard data == applicationID else { return [0x6A, 0x82] }
      applicationSelected = true
      selectedFile = nil
      return [0x90, 0x00]
    case 0xA4 where p1 == 0x00:
      guard applicationSelected, data.count == 2 else { return [0x6A, 0x82] }
      let id = UInt16(data[0]) << 8 | UInt16(data[1])
      guard files[id] != nil else { return [0x6A, 0x82] }
      selectedFile = id
      return [0x90, 0x00]
    case 0xB0:
      guard let id = selectedFile, let file = files[id] else { return [0x69, 0x86] }
      let offset = Int(p1) << 8 | Int(p2)
      guard offset <= file.count else { return [0x6B, 0x00] }
      return Array(file[offset..<min(file.count, offset + le)]) + [0x90, 0x00]
    case 0xD6:
      guard let id = selectedFile, var file = files[id] else { return [0x69, 0x86] }
      let offset = Int(p1) << 8 | Int(p2)
      guard offset + data.count <= file.count else { return [0x6A, 0x84] }
      for (i, byte) in data.enumerated() { file[offset + i] = byte }
      files[id] = file
      return [0x90, 0x00]
    default:
      return [0x6D, 0x00]
    }
  }
}

/// A Type 4 tag (ISO/IEC 14443-4 over type A) served by the simulator.
public struct SimulatedType4Tag: Sendable {
  /// What answers the APDUs.
  public enum Applet: Sendable {
    /// An in-memory file system (its state survives across exchanges).
    case fileSystem(Type4FileSystem)
    /// A closure from command APDU to response APDU.
    case handler(@Sendable ([UInt8]) -> [UInt8])
  }

  /// The UID (4 or 7 bytes).
  public var uid: [UInt8]
  /// ATQA as sent by the PN532.
  public var atqa: [UInt8] = [0x03, 0x44]
  /// SAK: bit 6 (0x20) says ISO/IEC 14443-4 compliant.
  public var sak: UInt8 = 0x20
  /// The answer to select without its length byte (T0 TA TB TC and historical bytes).
  public var ats: [UInt8] = [0x78, 0x80, 0x70, 0x02]
  /// The applet.
  public var applet: Applet

  /// Creates a Type 4 tag.
  public init(uid: [UInt8], applet: Applet) throws(SimulatorError) {
    guard uid.count == 4 || uid.count == 7 else {
      throw SimulatorError(.invalidTag, "ISO-DEP UIDs here have 4 or 7 bytes, got \(uid.count)")
    }
    self.uid = uid
    self.applet = applet
  }

  /// The file system, when the applet is one.
  public var fileSystem: Type4FileSystem? {
    if case .fileSystem(let system) = applet { return system }
    return nil
  }

  mutating func answer(_ apdu: [UInt8]) -> [UInt8] {
    switch applet {
    case .fileSystem(var system):
      let response = system.answer(apdu)
      applet = .fileSystem(system)
      return response
    case .handler(let handler):
      return handler(apdu)
    }
  }
}
