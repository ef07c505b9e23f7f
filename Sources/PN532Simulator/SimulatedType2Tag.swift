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

  /// CFG0, the first of the four configuration pages (CFG0, CFG1, PWD, PACK) that products
  /// with GET_VERSION end with (NTAG213/215/216 §8.5.7, MF0ULX1 §8.5.7); nil without them.
  public var configurationPage: Int? { version == nil || pageCount < 8 ? nil : pageCount - 4 }

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
/// WRITE, COMPATIBILITY WRITE and FAST_READ act on; products with GET_VERSION also answer
/// READ_SIG, READ_CNT and PWD_AUTH, and enforce AUTH0, PROT and AUTHLIM (NTAG213/215/216
/// §8.8, §10). A READ or FAST_READ of a read-protected page is refused (NAK); a READ that
/// starts before AUTH0 and rolls into protected pages answers them as zeros (unverified on
/// a real tag: the data sheet does not say).
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
  /// The 32-byte originality signature READ_SIG answers (NTAG21x §10.8; made up here).
  public var signature: [UInt8] = (0..<32).map { UInt8(0xA0 &+ $0) }
  /// The NFC counter READ_CNT 02 answers (NTAG21x §8.7; 24 bits). On an Ultralight EV1,
  /// counters 0-2 are ``counters``.
  public var counters: [UInt32] = [0, 0, 0]
  /// Whether a PWD_AUTH succeeded since the tag was selected (NTAG21x §8.8).
  public private(set) var isAuthenticated = false
  /// Wrong PWD_AUTH attempts counted against AUTHLIM (kept across selections; NTAG21x
  /// §8.8.2: the counter survives power loss).
  public private(set) var failedAuthentications = 0

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

  /// A blank formatted tag (UID, BCC bytes, capability container, configuration pages as
  /// shipped) holding `tlvArea` from page 4 on (for NDEF: `03 len message FE`; the default
  /// is an empty NDEF TLV).
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
    if let config = product.configurationPage {
      // As shipped (NTAG213/215/216 §8.5.7, MF0ULX1 §8.5.7): AUTH0 FFh (no protection),
      // ACCESS 00h, PWD FFFFFFFFh, PACK 0000h; NTAG MIRROR byte 04h, CFG1 byte 1 05h.
      let isNTAG = product.version?[2] == 0x04
      let defaults: [UInt8] = [
        isNTAG ? 0x04 : 0x00, 0, 0, 0xFF, 0, 0x05, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0,
      ]
      for (i, byte) in defaults.enumerated() where config * 4 + i < image.count {
        image[config * 4 + i] = byte
      }
    }
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
      guard start < pages, !isReadProtected(start) else { return nil }
      return (0..<4).flatMap { i in
        isReadProtected((start + i) % pages) ? [0, 0, 0, 0] : readablePage((start + i) % pages)
      }
    case 0x3A where command.count == 3 && product.version != nil:  // FAST_READ
      let start = Int(command[1])
      let end = Int(command[2])
      guard start <= end, end < pages, !(start...end).contains(where: isReadProtected) else { return nil }
      return (start...end).flatMap { readablePage($0) }
    case 0xA2 where command.count == 6:  // WRITE one page
      return write(page: Int(command[1]), Array(command[2..<6])) ? [] : nil
    case 0xA0 where command.count == 18:  // COMPATIBILITY WRITE: first 4 of 16 bytes
      return write(page: Int(command[1]), Array(command[2..<6])) ? [] : nil
    case 0x60 where command.count == 1:  // GET_VERSION
      return product.version
    case 0x3C where command.count == 2 && product.version != nil:  // READ_SIG
      return command[1] == 0x00 ? signature : nil
    case 0x39 where command.count == 2 && product.version != nil:  // READ_CNT
      return readCounter(Int(command[1]))
    case 0x1B where command.count == 5 && product.configurationPage != nil:  // PWD_AUTH
      return authenticate(Array(command[1..<5]))
    default:
      return nil
    }
  }

  /// The memory as READ shows it to an authenticated reader: PWD and PACK as zeros
  /// (NTAG213/215/216 §8.8.1: they can never be read).
  public var readableMemory: [UInt8] {
    (0..<product.pageCount).flatMap { readablePage($0) }
  }

  /// Forgets the authentication (the tag went back to IDLE or was selected again).
  public mutating func halt() { isAuthenticated = false }

  // MARK: Password protection (NTAG213/215/216 §8.8, MF0ULX1 §8.6)

  /// AUTH0 (CFG0 byte 3), ACCESS (CFG1 byte 0), nil without configuration pages.
  private var configuration: (auth0: Int, access: UInt8)? {
    guard let page = product.configurationPage else { return nil }
    return (Int(memory[page * 4 + 3]), memory[(page + 1) * 4])
  }

  /// Whether `page` needs the password for writing: at or after AUTH0, not authenticated.
  private func isWriteProtected(_ page: Int) -> Bool {
    guard let configuration, !isAuthenticated else { return false }
    return page >= configuration.auth0
  }

  /// Whether `page` needs the password for reading: PROT set, at or after AUTH0.
  private func isReadProtected(_ page: Int) -> Bool {
    guard let configuration, configuration.access & 0x80 != 0 else { return false }
    return isWriteProtected(page)
  }

  /// A page as READ and FAST_READ answer it: PWD and PACK read as zeros (§8.8.1).
  private func readablePage(_ page: Int) -> [UInt8] {
    if let config = product.configurationPage, page == config + 2 || page == config + 3 {
      return [0, 0, 0, 0]
    }
    return Array(memory[(page * 4)..<(page * 4 + 4)])
  }

  /// PWD_AUTH: PACK for the right password; a NAK for a wrong one, counted against AUTHLIM
  /// (ACCESS bits 2-0), and for every attempt once the limit is reached (§8.8.2). A right
  /// password resets the count.
  private mutating func authenticate(_ password: [UInt8]) -> [UInt8]? {
    guard let page = product.configurationPage, let configuration else { return nil }
    let limit = Int(configuration.access & 0x07)
    if limit > 0 && failedAuthentications >= limit { return nil }
    guard Array(memory[((page + 2) * 4)..<((page + 3) * 4)]) == password else {
      failedAuthentications += 1
      isAuthenticated = false
      return nil
    }
    failedAuthentications = 0
    isAuthenticated = true
    return Array(memory[((page + 3) * 4)..<((page + 3) * 4 + 2)])
  }

  /// READ_CNT: NTAG21x has counter 02 only (NFC_CNT_PWD_PROT asks for the password);
  /// Ultralight EV1 counters 00-02. 24 bits, least significant byte first.
  private func readCounter(_ index: Int) -> [UInt8]? {
    let isNTAG = product.version?[2] == 0x04
    guard index < counters.count, !isNTAG || index == 2 else { return nil }
    if isNTAG, let configuration, configuration.access & 0x08 != 0, !isAuthenticated { return nil }
    let value = counters[index]
    return [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF)]
  }

  /// Pages 0 and 1 are read-only; page 2's lock bytes and page 3 (one-time programmable)
  /// are OR-ed; other pages are overwritten.
  private mutating func write(page: Int, _ bytes: [UInt8]) -> Bool {
    guard page >= 2, page < product.pageCount, !isWriteProtected(page) else { return false }
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
