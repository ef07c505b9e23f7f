// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An application identifier (AID): 5 to 16 bytes, a registered application provider
/// identifier (RID, 5 bytes) and an optional proprietary extension (PIX)
/// (ISO/IEC 7816-5; ISO/IEC 7816-4:2013 §8.2.1.2).
public struct ApplicationIdentifier: Sendable, Hashable {
  /// The AID bytes.
  public let bytes: [UInt8]

  /// Wraps AID bytes.
  ///
  /// - Throws: ``APDUError/Code/invalidAIDLength`` unless `bytes` holds 5...16 bytes.
  public init(_ bytes: [UInt8]) throws(APDUError) {
    guard bytes.count >= 5, bytes.count <= 16 else {
      throw APDUError(.invalidAIDLength, offset: 0)
    }
    self.bytes = bytes
  }

  init(unchecked bytes: [UInt8]) { self.bytes = bytes }

  /// The registered application provider identifier: the first five bytes.
  public var rid: [UInt8] { Array(bytes[0..<5]) }
  /// The proprietary application identifier extension: the bytes after the RID.
  public var pix: [UInt8] { Array(bytes[5...]) }

  /// Lowercase hex of the bytes.
  public var hexString: String { Hex.string(bytes) }

  /// A000000151000000: the GlobalPlatform issuer security domain (GP 2.3 §F.1, the
  /// default ISD AID of GlobalPlatform cards).
  public static let globalPlatformIssuerSecurityDomain = ApplicationIdentifier(
    unchecked: [0xA0, 0x00, 0x00, 0x01, 0x51, 0x00, 0x00, 0x00])
}

extension ApplicationIdentifier: CustomStringConvertible {
  /// Lowercase hex of the bytes.
  public var description: String { hexString }
}
