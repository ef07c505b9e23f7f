// SPDX-License-Identifier: Apache-2.0
/// How a card's static keys are derived from a master key and the card's key
/// diversification data (the first 10 bytes of its INITIALIZE UPDATE response), named as
/// GlobalPlatformPro names them (`--kdf emv|visa2|kdf3`).
public struct KeyDiversification: Sendable, Hashable, CustomStringConvertible {
  fileprivate enum Value: UInt8, Sendable, Hashable { case none, emv, visa2, kdf3 }
  fileprivate let value: Value

  /// No diversification: the keys are the card's keys.
  public static let none = KeyDiversification(value: .none)
  /// EMV CPS 1.1 §5.4.2.1: 3DES-ECB(master, KDD[4..9] ‖ F0 ‖ k ‖ KDD[4..9] ‖ 0F ‖ k), k = 01
  /// ENC, 02 MAC, 03 DEK; 16-byte master keys.
  public static let emv = KeyDiversification(value: .emv)
  /// VISA2 (GlobalPlatformPro `visa2`): 3DES-ECB(master, KDD[0..1] ‖ KDD[4..7] ‖ F0 ‖ k ‖
  /// KDD[0..1] ‖ KDD[4..7] ‖ 0F ‖ k); 16-byte master keys.
  public static let visa2 = KeyDiversification(value: .visa2)
  /// KDF3 (GlobalPlatformPro `kdf3`, for SCP03): AES-CMAC(master, i ‖ 00 00 00 ‖ k ‖ 00 ‖
  /// KDD[0..9]) for i = 01, 02… until the output is as long as the master key.
  public static let kdf3 = KeyDiversification(value: .kdf3)

  /// The method's name as GlobalPlatformPro spells it (`none` for no diversification).
  public var description: String {
    switch value {
    case .none: "none"
    case .emv: "emv"
    case .visa2: "visa2"
    case .kdf3: "kdf3"
    }
  }

  /// The method named `name` (`none`, `emv`, `visa2`, `kdf3`), or `nil`.
  public init?(name: String) {
    switch name {
    case "none": value = .none
    case "emv": value = .emv
    case "visa2": value = .visa2
    case "kdf3": value = .kdf3
    default: return nil
    }
  }

  private init(value: Value) { self.value = value }

  /// The card keys derived from `master` with the card's key diversification data `kdd`.
  ///
  /// - Throws: ``SecureChannelError/Code/invalidKeyDiversificationData`` unless `kdd` is 10
  ///   bytes and the master keys are 16 bytes (EMV, VISA2), and the provider's
  ///   ``SecureChannelError/Code/cryptoFailure``.
  public func diversify<Crypto: SecureChannelCrypto>(
    _ master: SecureChannelKeys, keyDiversificationData kdd: [UInt8], crypto: Crypto
  ) throws(SecureChannelError) -> SecureChannelKeys {
    if value == .none { return master }
    guard kdd.count == 10 else { throw SecureChannelError(.invalidKeyDiversificationData) }
    let masters = [master.encryption, master.mac, master.dataEncryption]
    var derived: [[UInt8]] = []
    for (index, key) in masters.enumerated() {
      let k = UInt8(index + 1)
      switch value {
      case .none: derived.append(key)
      case .emv, .visa2:
        guard key.count == 16 else { throw SecureChannelError(.invalidKeyDiversificationData) }
        let part = value == .emv ? Array(kdd[4..<10]) : [kdd[0], kdd[1]] + Array(kdd[4..<8])
        let block = part + [0xF0, k] + part + [0x0F, k]
        derived.append(try crypto.desECB(encrypting: true, key: key, data: block))
      case .kdf3:
        var output: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < key.count {
          output += try crypto.aesCMAC(key: key, message: [counter, 0, 0, 0, k, 0] + kdd)
          counter += 1
        }
        derived.append(Array(output[0..<key.count]))
      }
    }
    return try SecureChannelKeys(encryption: derived[0], mac: derived[1], dataEncryption: derived[2])
  }
}
