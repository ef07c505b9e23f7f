// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// Block 0 of sector 0, written by the manufacturer (MF1S50 §8.6.1, MF1S70 §8.6.1).
///
/// With a 4-byte UID (NUID): UID (bytes 0-3), BCC (4: the XOR of the UID bytes), SAK (5),
/// ATQA (6-7, low byte first), manufacturer data (8-15). With a 7-byte UID: UID (0-6),
/// SAK (7), ATQA (8-9), manufacturer data (10-15); there is no BCC in the block. The block
/// does not say which it holds: the caller names the UID size (the anticollision tells
/// it), and 4 bytes is the default, as on most cards.
public struct MifareClassicManufacturerBlock: Sendable, Hashable {
  /// The UID size, as ISO/IEC 14443-3 names it.
  public enum UIDSize: Sendable, Hashable {
    /// Single size: 4 bytes, followed by the BCC.
    case single
    /// Double size: 7 bytes, no BCC in block 0.
    case double

    /// 4 or 7.
    public var byteCount: Int { self == .single ? 4 : 7 }
  }

  /// The UID (4 or 7 bytes).
  public let uid: [UInt8]
  /// The BCC byte (4-byte UID only), equal to ``bcc(of:)`` of the UID.
  public let bcc: UInt8?
  /// The SAK stored in the block.
  public let sak: UInt8
  /// The ATQA stored in the block, as a value (byte 6 low, byte 7 high; 0x0004 on a 1K).
  public let atqa: UInt16
  /// The manufacturer data (8 or 6 bytes).
  public let manufacturerData: [UInt8]

  /// Reads block 0 from `offset` of `image`.
  ///
  /// - Throws: ``NFCTagError/Code/truncatedImage`` (offset: the image end) when fewer than
  ///   16 bytes remain, ``NFCTagError/Code/bccMismatch`` (offset: `offset + 4`) when a
  ///   4-byte UID's BCC is not the XOR of its bytes.
  public init(validating image: RawSpan, at offset: Int = 0, uidSize: UIDSize = .single)
    throws(NFCTagError)
  {
    guard offset >= 0, offset <= image.byteCount &- MifareClassic.blockSize else {
      throw NFCTagError(.truncatedImage, offset: image.byteCount)
    }
    func byte(_ i: Int) -> UInt8 { image.byte(at: offset &+ i) ?? 0 }
    let n = uidSize.byteCount
    let uid = (0..<n).map(byte)
    var next = n
    if uidSize == .single {
      let bcc = byte(n)
      guard bcc == Self.bcc(of: uid) else { throw NFCTagError(.bccMismatch, offset: offset &+ n) }
      self.bcc = bcc
      next &+= 1
    } else {
      self.bcc = nil
    }
    self.uid = uid
    self.sak = byte(next)
    self.atqa = UInt16(byte(next &+ 1)) | UInt16(byte(next &+ 2)) << 8
    self.manufacturerData = (next &+ 3..<MifareClassic.blockSize).map(byte)
  }

  /// The BCC of a UID part: the XOR of its bytes (ISO/IEC 14443-3 §6.5.3.2).
  public static func bcc(of uid: [UInt8]) -> UInt8 { uid.reduce(0, ^) }

  /// The card kind the stored SAK names (see ``MifareClassicCardKind/init(sak:)``).
  public var kind: MifareClassicCardKind? { MifareClassicCardKind(sak: sak) }
}
