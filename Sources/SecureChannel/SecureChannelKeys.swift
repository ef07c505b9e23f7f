// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A static key set of a security domain: the encryption, MAC and data-encryption keys
/// (GPCS 2.3 §E.1.2 for SCP02's 3DES keys, Amendment D §4.1 for SCP03's AES keys).
///
/// Key bytes never appear in ``description``, ``debugDescription`` or reflection: only their
/// lengths. Show a key as its key check value (``checkValues(for:crypto:)``).
public struct SecureChannelKeys: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// Key-ENC: derives the session encryption key (and SCP03's pseudo-random card challenge).
  public let encryption: [UInt8]
  /// Key-MAC: derives the session MAC keys (C-MAC and R-MAC).
  public let mac: [UInt8]
  /// Key-DEK: encrypts sensitive data such as keys in PUT KEY (SCP03 directly; SCP02
  /// through its session DEK).
  public let dataEncryption: [UInt8]

  /// Creates a key set.
  ///
  /// - Throws: ``SecureChannelError/Code/invalidKeyLength`` unless the three keys have the
  ///   same length, 16, 24 or 32 bytes.
  public init(encryption: [UInt8], mac: [UInt8], dataEncryption: [UInt8]) throws(SecureChannelError) {
    guard [16, 24, 32].contains(encryption.count), mac.count == encryption.count,
      dataEncryption.count == encryption.count
    else { throw SecureChannelError(.invalidKeyLength) }
    self.encryption = encryption
    self.mac = mac
    self.dataEncryption = dataEncryption
  }

  /// Creates a key set whose three keys are `key` (how test cards are delivered).
  ///
  /// - Throws: ``SecureChannelError/Code/invalidKeyLength`` unless `key` is 16, 24 or 32 bytes.
  public init(key: [UInt8]) throws(SecureChannelError) {
    try self.init(encryption: key, mac: key, dataEncryption: key)
  }

  /// The well-known GlobalPlatform test key `40 41 … 4F` as all three keys, the default of
  /// many development cards. Use it only when the user names it: on a production card,
  /// failed authentications with it count towards locking the key set.
  public static var wellKnownTestKeys: SecureChannelKeys {
    let key: [UInt8] = (0..<16).map { UInt8(0x40 + $0) }
    return SecureChannelKeys(unchecked: key, key, key)
  }

  private init(unchecked encryption: [UInt8], _ mac: [UInt8], _ dataEncryption: [UInt8]) {
    self.encryption = encryption
    self.mac = mac
    self.dataEncryption = dataEncryption
  }

  /// The length of each key in bytes.
  public var keyLength: Int { encryption.count }

  /// The key set without its key bytes.
  public var description: String {
    "SecureChannelKeys(3 × \(keyLength)-byte keys, shown only as check values)"
  }

  /// As ``description``: key bytes are never printed.
  public var debugDescription: String { description }

  /// The key check values of Key-ENC, Key-MAC and Key-DEK, in that order, for keys used as
  /// `algorithm` (``KeyCheckValue/compute(of:algorithm:crypto:)``).
  ///
  /// - Throws: ``SecureChannelError/Code/invalidKeyLength`` for a 32-byte key used as 3DES,
  ///   and the provider's ``SecureChannelError/Code/cryptoFailure``.
  public func checkValues<Crypto: SecureChannelCrypto>(for algorithm: KeyCheckValue.Algorithm, crypto: Crypto)
    throws(SecureChannelError) -> [KeyCheckValue]
  {
    [
      try KeyCheckValue.compute(of: encryption, algorithm: algorithm, crypto: crypto),
      try KeyCheckValue.compute(of: mac, algorithm: algorithm, crypto: crypto),
      try KeyCheckValue.compute(of: dataEncryption, algorithm: algorithm, crypto: crypto),
    ]
  }
}

#if !hasFeature(Embedded)
  extension SecureChannelKeys: CustomReflectable {
    /// A mirror without the key bytes (so `dump` and `print` of containing values hide them).
    public var customMirror: Mirror { Mirror(self, children: ["keyLength": keyLength]) }
  }
#endif

/// A key check value: the first three bytes of a known block encrypted under the key, which
/// identifies a key without revealing it (GPCS 2.3 §B.6 for 3DES, Amendment D §6.2.8 for AES).
public struct KeyCheckValue: Sendable, Hashable, CustomStringConvertible {
  /// The three check-value bytes.
  public let bytes: [UInt8]

  /// Wraps three check-value bytes (e.g. from a PUT KEY response).
  public init(bytes: [UInt8]) { self.bytes = bytes }

  /// The algorithm a key is used with, which decides how its check value is computed.
  public struct Algorithm: Sendable, Hashable {
    fileprivate enum Value: UInt8, Sendable, Hashable { case tripleDES, aes }
    fileprivate let value: Value
    /// GPCS 2.3 §B.6: 3DES-ECB of eight `00` bytes (SCP02 keys).
    public static let tripleDES = Algorithm(value: .tripleDES)
    /// Amendment D §6.2.8: AES-ECB of sixteen `01` bytes (SCP03 keys).
    public static let aes = Algorithm(value: .aes)
  }

  /// The check value of `key` used as `algorithm`.
  ///
  /// - Throws: ``SecureChannelError/Code/invalidKeyLength`` for a 3DES key that is not 16 or
  ///   24 bytes or an AES key that is not 16, 24 or 32, and the provider's
  ///   ``SecureChannelError/Code/cryptoFailure``.
  public static func compute<Crypto: SecureChannelCrypto>(
    of key: [UInt8], algorithm: Algorithm, crypto: Crypto
  ) throws(SecureChannelError) -> KeyCheckValue {
    switch algorithm.value {
    case .tripleDES:
      guard key.count == 16 || key.count == 24 else { throw SecureChannelError(.invalidKeyLength) }
      let block = try crypto.desCBC(encrypting: true, key: key, iv: zeros(8), data: zeros(8))
      return KeyCheckValue(bytes: Array(block[0..<3]))
    case .aes:
      guard [16, 24, 32].contains(key.count) else { throw SecureChannelError(.invalidKeyLength) }
      let block = try crypto.aesECB(
        encrypting: true, key: key, data: [UInt8](repeating: 0x01, count: 16))
      return KeyCheckValue(bytes: Array(block[0..<3]))
    }
  }

  /// The check value in upper-case hex, e.g. `C35280`.
  public var description: String { Hex.uppercaseString(bytes) }
}
