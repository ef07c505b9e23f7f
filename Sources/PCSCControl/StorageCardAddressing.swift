// SPDX-License-Identifier: Apache-2.0

/// How READ BINARY and UPDATE BINARY put a block number into P1-P2 for a card kind (PC/SC
/// Part 3 §3.2.2.1.8 and the readers' manuals; ISO/IEC 15693 has no single convention).
public enum StorageCardAddressing: Sendable, Hashable {
  /// Type 2 (Ultralight, NTAG): P1 00, P2 the 4-byte page. A read of Le 10 returns 4 pages,
  /// Le 04 one page; a write carries one page (ACR122T API §5.3, Microsoft "UL WRITE 4").
  case type2Page
  /// MIFARE Classic: P1 00, P2 the absolute block (1K 00-3F, 4K 00-FF), 16 bytes.
  case mifareClassicBlock
  /// ISO/IEC 15693: the block in P1, P2 00 (Microsoft storage-card requirements).
  case blockInP1
  /// ISO/IEC 15693: the block in P1-P2, most significant byte first (liblogicalaccess
  /// `ISO15693PCSCCommands::readBlock`).
  case blockInP1P2
  /// ISO/IEC 15693: the byte address of the block's first byte in P1-P2 (ubisys 7047
  /// manual p.29); `blockSize` is the tag's block size from GET SYSTEM INFORMATION or the CC.
  case byteAddress(blockSize: Int)

  /// Type 2 read length: 16 bytes (4 pages) per READ BINARY.
  public static let type2ReadLength = 16
  /// Type 2 write length: 4 bytes (1 page) per UPDATE BINARY.
  public static let type2WriteLength = 4
  /// MIFARE Classic block length.
  public static let mifareClassicBlockLength = 16

  /// P1-P2 for `block`, or `nil` when the block does not fit this addressing (negative,
  /// over 255 where P2 alone carries it, over FFFF, or a block size under 1).
  public func parameters(forBlock block: Int) -> UInt16? {
    guard block >= 0 else { return nil }
    switch self {
    case .type2Page, .mifareClassicBlock: return block <= 0xFF ? UInt16(block) : nil
    case .blockInP1: return block <= 0xFF ? UInt16(block) << 8 : nil
    case .blockInP1P2: return block <= 0xFFFF ? UInt16(block) : nil
    case .byteAddress(let blockSize):
      guard blockSize > 0 else { return nil }
      let (address, overflow) = block.multipliedReportingOverflow(by: blockSize)
      return !overflow && address <= 0xFFFF ? UInt16(address) : nil
    }
  }

  /// The block P1-P2 names (the inverse of ``parameters(forBlock:)``), or `nil` when P1-P2
  /// is not a block start under this addressing (P1 not 00 for a page or MIFARE block, P2
  /// not 00 for block-in-P1, a byte address inside a block).
  public func block(forParameters parameters: UInt16) -> Int? {
    switch self {
    case .type2Page, .mifareClassicBlock: return parameters <= 0xFF ? Int(parameters) : nil
    case .blockInP1: return parameters & 0xFF == 0 ? Int(parameters >> 8) : nil
    case .blockInP1P2: return Int(parameters)
    case .byteAddress(let blockSize):
      guard blockSize > 0, Int(parameters) % blockSize == 0 else { return nil }
      return Int(parameters) / blockSize
    }
  }
}
