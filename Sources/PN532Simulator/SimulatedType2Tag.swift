// SPDX-License-Identifier: Apache-2.0
/// An NFC Forum Type 2 tag product: memory size, GET_VERSION answer and default
/// capability container (NXP NTAG213/215/216 data sheet 8.5 and 10.1; MF0ICU1 7.5).
public struct Type2Product: Sendable, Hashable {
  /// The product name, such as `NTAG213`.
  public var name: String
  /// Pages of 4 bytes, configuration pages included.
  public var pageCount: Int
  /// The 8-byte GET_VERSION (0x60) answer; nil when the product has no GET_VERSION.
  public var version: [UInt8]?
  /// Page 3: the NFC Forum capability container (T2T 1.0 section 6.1).
  public var capabilityContainer: [UInt8]

  /// Creates a product description.
  public init(name: String, pageCount: Int, version: [UInt8]?, capabilityContainer: [UInt8]) {
    self.name = name
    self.pageCount = pageCount
    self.version = version
    self.capabilityContainer = capabilityContainer
  }

  /// NTAG213: 45 pages, 144 bytes of user memory (data sheet 8.5, GET_VERSION table 28).
  public static let ntag213 = Type2Product(
    name: "NTAG213", pageCount: 45, version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03],
    capabilityContainer: [0xE1, 0x10, 0x12, 0x00])
  /// NTAG215: 135 pages, 504 bytes of user memory.
  public static let ntag215 = Type2Product(
    name: "NTAG215", pageCount: 135, version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03],
    capabilityContainer: [0xE1, 0x10, 0x3E, 0x00])
  /// NTAG216: 231 pages, 888 bytes of user memory.
  public static let ntag216 = Type2Product(
    name: "NTAG216", pageCount: 231, version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03],
    capabilityContainer: [0xE1, 0x10, 0x6D, 0x00])
  /// MIFARE Ultralight (MF0ICU1): 16 pages, no GET_VERSION.
  public static let ultralight = Type2Product(
    name: "MIFARE Ultralight", pageCount: 16, version: nil,
    capabilityContainer: [0xE1, 0x10, 0x06, 0x00])
  /// MIFARE Ultralight EV1 (MF0UL11): 20 pages.
  public static let ultralightEV1 = Type2Product(
    name: "MIFARE Ultralight EV1", pageCount: 20,
    version: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03],
    capabilityContainer: [0xE1, 0x10, 0x06, 0x00])
}

/// A Type 2 tag served by the simulator: a 7-byte UID and a memory image that READ,
/// WRITE, COMPATIBILITY WRITE and FAST_READ act on.
public struct SimulatedType2Tag: Sendable, Hashable {
  /// The product.
  public var product: Type2Product
  /// The 7-byte UID (ISO/IEC 14443-3 double size).
  public var uid: [UInt8]
  /// The memory image, `product.pageCount * 4` bytes.
  public var memory: [UInt8]
  /// ATQA as sent by the PN532 (`00 44`).
  public var atqa: [UInt8] = [0x00, 0x44]
  /// SAK (`00`: not ISO-DEP).
  public var sak: UInt8 = 0x00

  /// A tag from a whole memory image; the UID is read from pages 0 and 1.
  public init(product: Type2Product, memory: [UInt8]) throws(SimulatorError) {
    guard memory.count == product.pageCount * 4 else {
      throw SimulatorError(
        .invalidTag, "memory has \(memory.count) bytes, \(product.name) has \(product.pageCount * 4)")
    }
    self.product = product
    self.memory = memory
    self.uid = Array(memory[0..<3]) + Array(memory[4..<8])
  }

  /// A blank formatted tag (UID, BCC bytes, capability container) holding `tlvArea` from
  /// page 4 on (for NDEF: `03 len message FE`; the default is an empty NDEF TLV).
  public init(product: Type2Product, uid: [UInt8], tlvArea: [UInt8] = [0x03, 0x00, 0xFE])
    throws(SimulatorError)
  {
    guard uid.count == 7 else {
      throw SimulatorError(.invalidTag, "Type 2 UIDs here have 7 bytes, got \(uid.count)")
    }
    guard 16 + tlvArea.count <= product.pageCount * 4 else {
      throw SimulatorError(.invalidTag, "\(tlvArea.count) bytes do not fit in \(product.name)")
    }
    var image = [UInt8](repeating: 0, count: product.pageCount * 4)
    image[0] = uid[0]
    image[1] = uid[1]
    image[2] = uid[2]
    image[3] = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
    for i in 0..<4 { image[4 + i] = uid[3 + i] }
    image[8] = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
    image[9] = 0x48
    for i in 0..<4 { image[12 + i] = product.capabilityContainer[i] }
    for (i, byte) in tlvArea.enumerated() { image[16 + i] = byte }
    self.product = product
    self.uid = uid
    self.memory = image
  }

  /// Answers one Type 2 command (without CRC; T2T 1.0 §5, NTAG213/215/216 data sheet §10):
  /// the tag's answer bytes (empty for an ACK), nil for a NAK or no answer. Public so that
  /// another simulated reader (the PC/SC virtual card's storage-card firmware) serves the
  /// same tag.
  ///
  /// - Parameter command: the command frame, command code first, without CRC_A.
  public mutating func answer(_ command: [UInt8]) -> [UInt8]? {
    guard let code = command.first else { return nil }
    let pages = product.pageCount
    switch code {
    case 0x30 where command.count == 2:  // READ: 4 pages, rolling over to page 0
      let start = Int(command[1])
      guard start < pages else { return nil }
      return (0..<16).map { memory[((start * 4) + $0) % (pages * 4)] }
    case 0x3A where command.count == 3 && product.version != nil:  // FAST_READ
      let start = Int(command[1])
      let end = Int(command[2])
      guard start <= end, end < pages else { return nil }
      return Array(memory[(start * 4)..<((end + 1) * 4)])
    case 0xA2 where command.count == 6:  // WRITE one page
      return write(page: Int(command[1]), Array(command[2..<6])) ? [] : nil
    case 0xA0 where command.count == 18:  // COMPATIBILITY WRITE: first 4 of 16 bytes
      return write(page: Int(command[1]), Array(command[2..<6])) ? [] : nil
    case 0x60 where command.count == 1:  // GET_VERSION
      return product.version
    default:
      return nil
    }
  }

  /// Pages 0 and 1 are read-only; page 2's lock bytes and page 3 (one-time programmable)
  /// are OR-ed; other pages are overwritten.
  private mutating func write(page: Int, _ bytes: [UInt8]) -> Bool {
    guard page >= 2, page < product.pageCount else { return false }
    for i in 0..<4 {
      let index = page * 4 + i
      if page == 2 {
        if i >= 2 { memory[index] |= bytes[i] }
      } else if page == 3 {
        memory[index] |= bytes[i]
      } else {
        memory[index] = bytes[i]
      }
    }
    return true
  }
}
