// SPDX-License-Identifier: Apache-2.0
/// An NFC Forum Type 1 tag: a Topaz 96 (120 bytes of static memory, blocks 0-E of 8
/// bytes) or a Topaz 512 (dynamic memory, 64 blocks), answering the commands as libnfc
/// 1.8 sends them through InDataExchange (its `utils/jewel.h`): RID, RALL, READ, WRITE-E
/// and WRITE-NE on every tag, RSEG, READ8, WRITE-E8 and WRITE-NE8 on dynamic ones (NFC
/// Forum T1T 1.0 section 5; the PN532 adds the padding, the UID echo and CRC_B itself).
public struct SimulatedJewelTag: Sendable, Hashable {
  /// The 4-byte Jewel ID (UID0-3), as detection reports it.
  public var id: [UInt8]
  /// SENS_RES (ATQA) as the PN532 reports it.
  public var sensRes: [UInt8] = [0x0C, 0x00]
  /// Header ROM bytes HR0 HR1 (Topaz 96: 11 48; Topaz 512: 12 4C).
  public var headerROM: [UInt8]
  /// The memory from block 0: 120 bytes (static) or 8 × blocks (dynamic). Block 0 holds
  /// the UID, block 1 the capability container at 08-0B, D is reserved, E holds the
  /// static lock and OTP bytes, F (dynamic) reserved, dynamic lock and reserved bytes.
  public var memory: [UInt8]

  /// Header ROM of a Topaz 96 (static memory).
  public static let topaz96HeaderROM: [UInt8] = [0x11, 0x48]
  /// Header ROM of a Topaz 512 (dynamic memory).
  public static let topaz512HeaderROM: [UInt8] = [0x12, 0x4C]
  /// The static memory size: blocks 0-E.
  static let staticSize = 120
  /// The block size.
  static let blockSize = 8
  /// RSEG reads one segment of 16 blocks.
  static let segmentSize = 128

  /// A formatted Topaz 96 with `tlvArea` from byte 0x0C on (default: an empty NDEF TLV).
  public init(id: [UInt8], tlvArea: [UInt8] = [0x03, 0x00, 0xFE]) throws(SimulatorError) {
    guard id.count == 4 else { throw SimulatorError(.invalidTag, "a Jewel ID has 4 bytes, got \(id.count)") }
    guard tlvArea.count <= 0x68 - 0x0C else {
      throw SimulatorError(.invalidTag, "\(tlvArea.count) bytes do not fit")
    }
    self.id = id
    self.headerROM = Self.topaz96HeaderROM
    var image = [UInt8](repeating: 0, count: Self.staticSize)
    for i in 0..<4 { image[i] = id[i] }
    image[8] = 0xE1
    image[9] = 0x10
    image[10] = 0x0E
    image[11] = 0x00
    for (i, byte) in tlvArea.enumerated() { image[12 + i] = byte }
    memory = image
  }

  /// A tag from a whole memory image: 120 bytes makes a Topaz 96, a multiple of 8 from 136
  /// to 2048 a dynamic tag (Topaz 512 header ROM unless `headerROM` says otherwise). The
  /// ID is bytes 0-3.
  public init(memory: [UInt8], headerROM: [UInt8]? = nil) throws(SimulatorError) {
    let isStatic = memory.count == Self.staticSize
    guard isStatic || (memory.count >= 136 && memory.count <= 2048 && memory.count % Self.blockSize == 0)
    else {
      throw SimulatorError(
        .invalidTag, "a Type 1 image has 120 bytes or 136...2048 in blocks of 8, got \(memory.count)")
    }
    let rom = headerROM ?? (isStatic ? Self.topaz96HeaderROM : Self.topaz512HeaderROM)
    guard rom.count == 2 else { throw SimulatorError(.invalidTag, "the header ROM has 2 bytes") }
    self.id = Array(memory[0..<4])
    self.headerROM = rom
    self.memory = memory
  }

  /// Whether the tag has dynamic memory (answers the 8-byte commands).
  public var isDynamic: Bool { memory.count != Self.staticSize }

  /// Answers one Type 1 command as libnfc passes it (without padding, UID or CRC); nil is
  /// silence (the PN532 reports a timeout).
  mutating func answer(_ command: [UInt8]) -> [UInt8]? {
    guard let code = command.first else { return nil }
    switch code {
    case 0x78 where command.count == 1:  // RID
      return headerROM + id
    case 0x00 where command.count == 1:  // RALL: HR0 HR1, blocks 0-E
      return headerROM + memory.prefix(Self.staticSize)
    case 0x01 where command.count == 2:  // READ: ADD bits 6-3 block, 2-0 byte
      let address = Int(command[1])
      return address < min(memory.count, 0x80) ? [memory[address]] : nil
    case 0x53 where command.count == 3, 0x1A where command.count == 3:  // WRITE-E, WRITE-NE
      let address = Int(command[1])
      guard address < min(memory.count, 0x80), isWritable(block: address / Self.blockSize) else { return nil }
      write(code == 0x53 ? .erase : .or, byte: command[2], at: address)
      return [memory[address]]
    case 0x10 where command.count == 2 && isDynamic:  // RSEG: ADDS bits 7-4 the segment
      let start = Int(command[1] >> 4) * Self.segmentSize
      guard start < memory.count else { return nil }
      return Array(memory[start..<min(memory.count, start + Self.segmentSize)])
        + [UInt8](repeating: 0, count: max(0, start + Self.segmentSize - memory.count))
    case 0x02 where command.count == 2 && isDynamic:  // READ8
      let start = Int(command[1]) * Self.blockSize
      guard start < memory.count else { return nil }
      return Array(memory[start..<(start + Self.blockSize)])
    case 0x54 where command.count == 10 && isDynamic, 0x1B where command.count == 10 && isDynamic:
      // WRITE-E8, WRITE-NE8
      let block = Int(command[1])
      let start = block * Self.blockSize
      guard start < memory.count, isWritable(block: block) else { return nil }
      for i in 0..<Self.blockSize { write(code == 0x54 ? .erase : .or, byte: command[2 + i], at: start + i) }
      return Array(memory[start..<(start + Self.blockSize)])
    default:
      return nil
    }
  }

  private enum WriteMode { case erase, or }

  /// Block 0 (UID) and block D (reserved) refuse writes.
  private func isWritable(block: Int) -> Bool { block != 0 && block != 0x0D }

  /// Blocks E and F (lock, OTP, reserved) only ever gain bits; other bytes are replaced
  /// (WRITE-E) or OR-ed (WRITE-NE).
  private mutating func write(_ mode: WriteMode, byte: UInt8, at address: Int) {
    if mode == .erase && !(0x70..<0x80).contains(address) {
      memory[address] = byte
    } else {
      memory[address] |= byte
    }
  }
}
