// SPDX-License-Identifier: Apache-2.0
/// What a secure channel adds to a command's data field, as arithmetic only (no keys): a MAC
/// of `macLength` bytes and, with command encryption, padding `80 00…` up to a multiple of
/// `encryptionBlockLength`, always at least one byte (GlobalPlatform Card Specification 2.3
/// §E.4.6 for SCP02; Amendment D §6.2.6 for SCP03). LOAD blocks are sized with it so that the
/// wrapped Lc stays within 255 and the card's maximum (tag 9F65).
public struct GlobalPlatformCommandOverhead: Sendable, Hashable {
  /// The C-MAC appended to the data: 0 (no secure messaging), 8 (SCP02, SCP03) or 16 (SCP03 S16).
  public var macLength: Int
  /// The cipher block of C-DECRYPTION: nil (none), 8 (SCP02, 3DES) or 16 (SCP03, AES).
  public var encryptionBlockLength: Int?

  /// Describes an overhead.
  public init(macLength: Int, encryptionBlockLength: Int? = nil) {
    self.macLength = macLength
    self.encryptionBlockLength = encryptionBlockLength
  }

  /// No secure messaging (plain commands, or a security level without C-MAC).
  public static let none = GlobalPlatformCommandOverhead(macLength: 0)

  /// The data field length after wrapping `plainLength` bytes (0 stays unencrypted: an empty
  /// data field is never padded).
  public func wrappedLength(_ plainLength: Int) -> Int {
    guard let block = encryptionBlockLength, block > 0, plainLength > 0 else {
      return plainLength + macLength
    }
    return (plainLength / block + 1) * block + macLength
  }

  /// The most plain bytes whose wrapped form fits `commandDataLength` (0 when none fits):
  /// 247 for SCP03 C-MAC, 239 for SCP03 C-MAC + C-DECRYPTION and for SCP02 C-MAC +
  /// C-DECRYPTION, 223 for SCP03 S16 C-MAC + C-DECRYPTION, at 255.
  public func maximumPlainLength(fitting commandDataLength: Int) -> Int {
    let room = commandDataLength - macLength
    guard room > 0 else { return 0 }
    guard let block = encryptionBlockLength, block > 0 else { return room }
    // The padded length is the largest multiple of `block` within `room`; one pad byte at least.
    return max(0, room / block * block - 1)
  }
}
