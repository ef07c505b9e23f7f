// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A secure channel protocol identifier: the SCP byte at offset 11 of the INITIALIZE UPDATE
/// response (GPCS 2.3 §E.5.1.4, Amendment D §7.1.1.6).
public struct SecureChannelProtocol: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The SCP identifier byte.
  public let rawValue: UInt8
  /// Wraps an SCP identifier byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// SCP02: 3DES, GPCS 2.3 Appendix E.
  public static let scp02 = SecureChannelProtocol(rawValue: 0x02)
  /// SCP03: AES, GPCS 2.3 Amendment D.
  public static let scp03 = SecureChannelProtocol(rawValue: 0x03)

  /// `SCP02`, `SCP03`, or `SCP` and the hex byte.
  public var description: String { "SCP" + Hex.uppercaseString([rawValue]) }
}
