// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// A GlobalPlatform card content manager in memory: INSTALL [for load], numbered LOAD
/// blocks, INSTALL [for install], DELETE, GET STATUS; wrong order gets 6985.
struct InMemoryCard: APDUTransport {
  var loadFileAID: [UInt8]? = nil
  var loading: [UInt8] = []
  var nextBlock = 0
  var loadedFiles: [[UInt8]: [UInt8]] = [:]
  var applications: [[UInt8]] = []
  var commandCount = 0
  /// Fails the command with this index (0-based) with 6A80.
  var failAt: Int? = nil

  mutating func transmit(_ bytes: [UInt8]) async -> [UInt8] {
    defer { commandCount += 1 }
    if commandCount == failAt { return [0x6A, 0x80] }
    guard let command = try? CommandAPDU(parsing: bytes) else { return [0x67, 0x00] }
    return answer(command).encodedBytes()
  }

  mutating func answer(_ command: CommandAPDU) -> ResponseAPDU {
    switch (command.cla.rawValue & 0x80, command.ins) {
    case (0x00, .select): return ResponseAPDU(data: BERTLVTests.fci, statusWord: .success)
    case (0x80, .gpInstall) where command.p1 == 0x02:
      let length = Int(command.data[0])
      loadFileAID = Array(command.data[1..<(1 + length)])
      loading = []
      nextBlock = 0
      return ResponseAPDU(data: [0x00], statusWord: .success)
    case (0x80, .gpLoad):
      guard let aid = loadFileAID, Int(command.p2) == nextBlock & 0xFF else {
        return ResponseAPDU(statusWord: .conditionsOfUseNotSatisfied)
      }
      loading += command.data
      nextBlock += 1
      if command.p1 == 0x80 {
        let assembled = loading
        guard let objects = try? BERTLV.parseSequence(assembled),
          let file = objects.first(where: { $0.tag == .loadFileDataBlock })?.value
        else { return ResponseAPDU(statusWord: .incorrectData) }
        loadedFiles[aid] = file
        loadFileAID = nil
      }
      return ResponseAPDU(data: [0x00], statusWord: .success)
    case (0x80, .gpInstall) where command.p1 & 0x04 != 0:
      var index = 0
      var fields: [[UInt8]] = []
      while index < command.data.count && fields.count < 3 {
        let length = Int(command.data[index])
        fields.append(Array(command.data[(index + 1)..<(index + 1 + length)]))
        index += 1 + length
      }
      guard fields.count == 3, loadedFiles[fields[0]] != nil else {
        return ResponseAPDU(statusWord: .referencedDataNotFound)
      }
      applications.append(fields[2])
      return ResponseAPDU(data: [0x00], statusWord: .success)
    default:
      return ResponseAPDU(statusWord: .instructionNotSupported)
    }
  }
}
