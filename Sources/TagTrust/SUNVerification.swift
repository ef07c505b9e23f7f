// SPDX-License-Identifier: Apache-2.0
/// The SDM keys a SUN message is checked with (AN12196 §3.3): both AES-128.
public struct SUNKeys: Sendable, Hashable {
  /// SDMMetaReadKey: decrypts the PICC data (unused for a plain mirror).
  public var metaReadKey: [UInt8]
  /// SDMFileReadKey: the session keys for the SDMMAC and the encrypted file data.
  public var fileReadKey: [UInt8]

  /// Creates a key pair.
  public init(metaReadKey: [UInt8], fileReadKey: [UInt8]) {
    self.metaReadKey = metaReadKey
    self.fileReadKey = fileReadKey
  }

  /// One key for both roles (as in NXP's examples, where both are key 0 set to zeros).
  public init(key: [UInt8]) { self.init(metaReadKey: key, fileReadKey: key) }
}

/// What a valid SUN message says (AN12196 §3.3).
public struct SUNData: Sendable, Hashable {
  /// The encryption mode of the PICC data (AES for a plain mirror).
  public let mode: SUNMode
  /// The PICCDataTag byte (AN12196 Table 3), nil for a plain mirror.
  public let piccDataTag: UInt8?
  /// The UID, 7 bytes, when mirrored.
  public let uid: [UInt8]?
  /// The SDM read counter, when mirrored.
  public let counter: UInt32?
  /// The decrypted file data, when the URL carries encrypted file data.
  public let fileData: [UInt8]?

  /// Whether ``counter`` is above `lastSeen`, the highest counter accepted before for this
  /// UID (AN12196 §3.3: the counter increments on every read, so a counter not above the last
  /// one is a replayed URL). Nil when the message mirrors no counter.
  public func counterVerdict(lastSeen: UInt32?) -> SUNCounterVerdict? {
    guard let counter else { return nil }
    guard let lastSeen else { return .fresh }
    return counter > lastSeen ? .fresh : .replayed(lastSeen: lastSeen)
  }
}

/// Whether a SUN message's read counter is new (``SUNData/counterVerdict(lastSeen:)``).
public enum SUNCounterVerdict: Sendable, Hashable {
  /// Above the last counter seen, or the first one seen.
  case fresh
  /// Not above `lastSeen`: the URL was seen before (or copied).
  case replayed(lastSeen: UInt32)
}

/// Why a SUN message is not valid.
public struct SUNFailure: Sendable, Hashable, CustomStringConvertible {
  fileprivate enum Value: UInt8, Sendable, Hashable {
    case piccDataUnreadable, macMismatch, counterMissing
  }
  fileprivate let value: Value

  /// AN12196 Table 3: the decrypted PICC data's tag byte has reserved bits set or a UID
  /// length other than 7: the SDMMetaReadKey is wrong, or the PICC data was changed.
  public static let piccDataUnreadable = SUNFailure(value: .piccDataUnreadable)
  /// AN12196 §3.4.4: the SDMMAC does not match: a wrong SDMFileReadKey, a wrong MAC input, or
  /// a changed UID, counter, file data or MAC.
  public static let macMismatch = SUNFailure(value: .macMismatch)
  /// AN12196 §3.4.3: the URL carries encrypted file data but no read counter, which its IV
  /// needs.
  public static let counterMissing = SUNFailure(value: .counterMissing)

  /// The failure's name, e.g. `macMismatch`.
  public var description: String {
    switch value {
    case .piccDataUnreadable: "piccDataUnreadable"
    case .macMismatch: "macMismatch"
    case .counterMissing: "counterMissing"
    }
  }
}

/// The outcome of a SUN check. Only ``valid(_:)`` after every check ran and passed.
public enum SUNVerdict: Sendable, Hashable {
  /// The SDMMAC verifies; the data the message carries.
  case valid(SUNData)
  /// The message does not verify, and why.
  case invalid(SUNFailure)

  /// Whether the verdict is ``valid(_:)``.
  public var isValid: Bool {
    if case .valid = self { return true }
    return false
  }
}

extension SUNMessage {
  /// The PICCDataTag bits (AN12196 Table 3).
  enum PICCDataTag {
    static let uidMirrored: UInt8 = 0x80
    static let counterMirrored: UInt8 = 0x40
    static let reserved: UInt8 = 0x30
    static let uidLengthMask: UInt8 = 0x0F
  }
  /// The UID length the PICCDataTag announces (the only one NTAG 424 DNA has).
  static let uidLength = 7
  /// The SDM read counter's length (3 bytes, least significant first in the PICC data).
  static let counterLength = 3

  /// Checks the message with `keys`: decrypts the PICC data (or takes the plain mirror),
  /// derives the session keys, compares the SDMMAC (AN12196 §3.4.4: the odd-numbered bytes
  /// of the CMAC, compared in constant time), then decrypts the file data.
  ///
  /// - Parameters:
  ///   - keys: the SDMMetaReadKey and SDMFileReadKey.
  ///   - macInput: where the MAC input starts (default ``SUNMACInput/automatic``).
  ///   - crypto: the AES and CMAC provider.
  /// - Throws: ``TagTrustError/Code/invalidKeyLength`` for a key that is not 16 bytes;
  ///   errors of ``macInput(_:)``; ``TagTrustError/Code/cryptoFailure`` from the provider.
  public func verify<C: TagTrustCrypto>(keys: SUNKeys, macInput: SUNMACInput = .automatic, crypto: C)
    throws(TagTrustError) -> SUNVerdict
  {
    guard keys.metaReadKey.count == 16, keys.fileReadKey.count == 16 else {
      throw TagTrustError(.invalidKeyLength)
    }
    let input = try self.macInput(macInput)
    var piccDataTag: UInt8?
    var uid: [UInt8]?
    var counterLE: [UInt8]?
    if let encryptedPICCData {
      let plain: [UInt8]
      if mode == .lrp {
        let lrp = try LeakageResilientPrimitive(key: keys.metaReadKey, crypto: crypto)
        plain = try lrp.decrypt(
          Array(encryptedPICCData[8...]), counter: Array(encryptedPICCData[0..<8]), keyIndex: 0,
          crypto: crypto)
      } else {
        plain = try crypto.aesCBC(
          encrypting: false, key: keys.metaReadKey, iv: [UInt8](repeating: 0, count: 16),
          data: encryptedPICCData)
      }
      let tag = plain[0]
      guard tag & PICCDataTag.reserved == 0, Int(tag & PICCDataTag.uidLengthMask) == Self.uidLength else {
        return .invalid(.piccDataUnreadable)
      }
      piccDataTag = tag
      var position = 1
      if tag & PICCDataTag.uidMirrored != 0 {
        uid = Array(plain[position..<(position + Self.uidLength)])
        position += Self.uidLength
      }
      if tag & PICCDataTag.counterMirrored != 0 {
        counterLE = Array(plain[position..<(position + Self.counterLength)])
      }
    } else {
      uid = plainUID
      counterLE = plainCounter.map { Array($0.reversed()) }
    }
    if encryptedFileData != nil, counterLE == nil { return .invalid(.counterMissing) }
    let dynamic = (uid ?? []) + (counterLE ?? [])
    let computed: [UInt8]
    var fileData: [UInt8]?
    if mode == .lrp {
      // AN12321 §3.3: SV = 00 01 00 80 ‖ UID ‖ SDMReadCtr ‖ zero padding ‖ 1E E1.
      var vector: [UInt8] = [0x00, 0x01, 0x00, 0x80] + dynamic
      while (vector.count + 2) % 16 != 0 { vector.append(0) }
      vector += [0x1E, 0xE1]
      let master = try LeakageResilientPrimitive(key: keys.fileReadKey, crypto: crypto).cmac(
        vector, crypto: crypto)
      let session = try LeakageResilientPrimitive(key: master, crypto: crypto)
      computed = try session.cmac(input, crypto: crypto)
      if constantTimeEqual(Self.oddBytes(computed), mac), let encryptedFileData, let counterLE {
        fileData = try session.decrypt(
          encryptedFileData, counter: counterLE + [0, 0, 0], keyIndex: 1, crypto: crypto)
      }
    } else {
      // AN12196 §3.3: SV2 = 3C C3 00 01 00 80 ‖ UID ‖ SDMReadCtr ‖ zero padding.
      let macKey = try crypto.aesCMAC(
        key: keys.fileReadKey, message: Self.padded([0x3C, 0xC3, 0x00, 0x01, 0x00, 0x80] + dynamic))
      computed = try crypto.aesCMAC(key: macKey, message: input)
      if constantTimeEqual(Self.oddBytes(computed), mac), let encryptedFileData, let counterLE {
        // SV1 = C3 3C 00 01 00 80 ‖ UID ‖ SDMReadCtr ‖ zero padding; IV = E(K, SDMReadCtr ‖ 0…).
        let encryptionKey = try crypto.aesCMAC(
          key: keys.fileReadKey, message: Self.padded([0xC3, 0x3C, 0x00, 0x01, 0x00, 0x80] + dynamic))
        let iv = try crypto.aesECB(
          encrypting: true, key: encryptionKey, data: counterLE + [UInt8](repeating: 0, count: 13))
        fileData = try crypto.aesCBC(encrypting: false, key: encryptionKey, iv: iv, data: encryptedFileData)
      }
    }
    guard constantTimeEqual(Self.oddBytes(computed), mac) else { return .invalid(.macMismatch) }
    let counter = counterLE.map { UInt32($0[0]) | UInt32($0[1]) << 8 | UInt32($0[2]) << 16 }
    return .valid(
      SUNData(mode: mode, piccDataTag: piccDataTag, uid: uid, counter: counter, fileData: fileData))
  }

  /// The bytes at odd indices (1, 3, …, 15) of a 16-byte CMAC: the 8-byte SDMMAC.
  static func oddBytes(_ mac: [UInt8]) -> [UInt8] {
    stride(from: 1, to: mac.count, by: 2).map { mac[$0] }
  }

  /// `bytes` with zeros to a multiple of 16.
  static func padded(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    while out.count % 16 != 0 { out.append(0) }
    return out
  }
}
