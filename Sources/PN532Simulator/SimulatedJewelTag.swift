/// A Topaz 96 (NFC Forum Type 1) tag: 120 bytes of static memory (blocks 0-E of 8 bytes)
/// answering RID, RALL, READ, WRITE-E and WRITE-NE (NFC Forum T1T 1.0 section 5; the
/// PN532 adds the UID and CRC_B itself).
public struct SimulatedJewelTag: Sendable, Hashable {
  /// The 4-byte Jewel ID (UID0-3), as detection reports it.
  public var id: [UInt8]
  /// SENS_RES (ATQA) as the PN532 reports it.
  public var sensRes: [UInt8] = [0x0C, 0x00]
  /// Header ROM bytes HR0 HR1 (Topaz 96: 11 48).
  public var headerROM: [UInt8] = [0x11, 0x48]
  /// The 120-byte static memory: block 0 the UID, 1-C data (the capability container at
  /// 08-0B), D reserved, E lock and OTP bytes.
  public var memory: [UInt8]

  /// A formatted tag with `tlvArea` from byte 0x0C on (default: an empty NDEF TLV).
  public init(id: [UInt8], tlvArea: [UInt8] = [0x03, 0x00, 0xFE]) throws(SimulatorError) {
    guard id.count == 4 else { throw SimulatorError(.invalidTag, "a Jewel ID has 4 bytes, got \(id.count)") }
    guard tlvArea.count <= 0x68 - 0x0C else {
      throw SimulatorError(.invalidTag, "\(tlvArea.count) bytes do not fit")
    }
    self.id = id
    var image = [UInt8](repeating: 0, count: 120)
    for i in 0..<4 { image[i] = id[i] }
    image[8] = 0xE1
    image[9] = 0x10
    image[10] = 0x0E
    image[11] = 0x00
    for (i, byte) in tlvArea.enumerated() { image[12 + i] = byte }
    memory = image
  }

  mutating func answer(_ command: [UInt8]) -> [UInt8]? {
    guard let code = command.first else { return nil }
    switch code {
    case 0x78 where command.count == 1: return headerROM + id
    case 0x00 where command.count == 1: return headerROM + memory
    case 0x01 where command.count == 2:
      return Int(command[1]) < memory.count ? [memory[Int(command[1])]] : nil
    case 0x53 where command.count == 3, 0x1A where command.count == 3:
      let address = Int(command[1])
      // Block 0 (UID) and block D are read-only; block E lock/OTP bytes are OR-ed.
      guard address >= 8, address < memory.count, !(0x68..<0x70).contains(address) else { return nil }
      if code == 0x53 && address < 0x70 {
        memory[address] = command[2]
      } else {
        memory[address] |= command[2]
      }
      return [memory[address]]
    default:
      return nil
    }
  }
}
