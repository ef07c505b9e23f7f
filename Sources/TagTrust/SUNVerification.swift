// SPDX-License-Identifier: Apache-2.0
/// The SDM keys a SUN message is checked with (AN12196 §3.3): both AES-128.
///
/// Held both as given and as inline ``AESBlock`` values, which the checks use (so a check
/// copies no key into heap storage).
public struct SUNKeys: Sendable, Hashable {
  /// SDMMetaReadKey: decrypts the PICC data (unused for a plain mirror).
  public var metaReadKey: [UInt8] {
    didSet {
      metaBlock = AESBlock(metaReadKey)
      metaLRP = nil
    }
  }
  /// SDMFileReadKey: the session keys for the SDMMAC and the encrypted file data.
  public var fileReadKey: [UInt8] {
    didSet {
      fileBlock = AESBlock(fileReadKey)
      fileLRP = nil
    }
  }
  /// The keys inline; nil for one that is not 16 bytes (the check then throws).
  private(set) var metaBlock: AESBlock?
  private(set) var fileBlock: AESBlock?
  /// Each key's LRP plaintexts and updated keys, once ``preparedForLRP(crypto:)`` made them.
  private(set) var metaLRP: LRPKeyMaterial?
  private(set) var fileLRP: LRPKeyMaterial?

  /// Creates a key pair.
  public init(metaReadKey: [UInt8], fileReadKey: [UInt8]) {
    self.metaReadKey = metaReadKey
    self.fileReadKey = fileReadKey
    self.metaBlock = AESBlock(metaReadKey)
    self.fileBlock = AESBlock(fileReadKey)
  }

  /// Creates a key pair from inline keys.
  public init(metaReadKey: AESBlock, fileReadKey: AESBlock) {
    self.init(metaReadKey: metaReadKey.array, fileReadKey: fileReadKey.array)
  }

  /// One key for both roles (as in NXP's examples, where both are key 0 set to zeros).
  public init(key: [UInt8]) { self.init(metaReadKey: key, fileReadKey: key) }

  /// The same keys with each one's LRP plaintexts and updated keys (AN12304 §2.1
  /// Algorithms 1 and 2) made once, so an LRP-mode check does not derive them again per
  /// request (two of its three LRP key setups; the session key's is per tap). AES-mode
  /// checks do not use them.
  ///
  /// - Throws: ``TagTrustError/Code/invalidKeyLength`` for a key that is not 16 bytes;
  ///   ``TagTrustError/Code/cryptoFailure`` from the provider.
  public func preparedForLRP<C: TagTrustCrypto>(crypto: C) throws(TagTrustError) -> SUNKeys {
    let (meta, file) = try blocks()
    var prepared = self
    prepared.metaLRP = try LRPKeyMaterial(key: meta, crypto: crypto)
    prepared.fileLRP = try LRPKeyMaterial(key: file, crypto: crypto)
    return prepared
  }

  /// Both keys, or ``TagTrustError/Code/invalidKeyLength`` when one is not 16 bytes.
  func blocks() throws(TagTrustError) -> (meta: AESBlock, file: AESBlock) {
    guard let metaBlock, let fileBlock else { throw TagTrustError(.invalidKeyLength) }
    return (metaBlock, fileBlock)
  }

  /// Equal when the keys are (prepared or not).
  public static func == (a: SUNKeys, b: SUNKeys) -> Bool {
    a.metaReadKey == b.metaReadKey && a.fileReadKey == b.fileReadKey
  }

  /// Hashes the keys.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(metaReadKey)
    hasher.combine(fileReadKey)
  }
}

/// What a valid SUN message says (AN12196 §3.3), held inline: making one allocates nothing;
/// the array properties (``uid``, ``fileData``) copy when read.
public struct SUNData: Sendable, Hashable {
  /// The most file data a tag can mirror: NTAG 424 DNA's SDM file is 256 bytes and each byte
  /// of encrypted file data takes two hex digits of it (AN12196 §3.4.3). A URL with more is
  /// ``TagTrustError/Code/invalidParameterLength``.
  public static let maximumFileDataSize = 128

  /// The encryption mode of the PICC data (AES for a plain mirror).
  public let mode: SUNMode
  /// The PICCDataTag byte (AN12196 Table 3), nil for a plain mirror.
  public let piccDataTag: UInt8?
  /// The UID, 7 bytes, when mirrored (inline).
  public let uidBytes: InlineArray<7, UInt8>?
  /// The SDM read counter, when mirrored.
  public let counter: UInt32?
  /// The decrypted file data's length, nil when the URL carries no encrypted file data.
  public let fileDataCount: Int?
  /// The decrypted file data, the first ``fileDataCount`` bytes.
  let fileDataStorage: InlineArray<128, UInt8>

  /// The UID, 7 bytes, when mirrored.
  public var uid: [UInt8]? { uidBytes.map { uid in (0..<7).map { uid[$0] } } }

  /// The decrypted file data, when the URL carries encrypted file data.
  public var fileData: [UInt8]? { fileDataCount.map { count in (0..<count).map { fileDataStorage[$0] } } }

  /// Calls `body` with the decrypted file data in place (no copy); nil without file data.
  public func withFileData<Result, Failure: Error>(_ body: (Span<UInt8>) throws(Failure) -> Result)
    throws(Failure) -> Result?
  {
    guard let fileDataCount else { return nil }
    let span = fileDataStorage.span
    return try body(span.extracting(0..<fileDataCount))
  }

  /// The data of a check, all inline.
  init(
    mode: SUNMode, piccDataTag: UInt8?, uidBytes: InlineArray<7, UInt8>?, counter: UInt32?,
    fileDataCount: Int?, fileDataStorage: InlineArray<128, UInt8>
  ) {
    self.mode = mode
    self.piccDataTag = piccDataTag
    self.uidBytes = uidBytes
    self.counter = counter
    self.fileDataCount = fileDataCount
    self.fileDataStorage = fileDataStorage
  }

  /// Data from arrays (a UID of 7 bytes, at most ``maximumFileDataSize`` bytes of file data).
  init(mode: SUNMode, piccDataTag: UInt8?, uid: [UInt8]?, counter: UInt32?, fileData: [UInt8]?) {
    var uidBytes: InlineArray<7, UInt8>?
    if let uid, uid.count == 7 {
      var bytes = InlineArray<7, UInt8>(repeating: 0)
      for index in 0..<7 { bytes[index] = uid[index] }
      uidBytes = bytes
    }
    var storage = InlineArray<128, UInt8>(repeating: 0)
    let count = fileData.map { min($0.count, Self.maximumFileDataSize) }
    for index in 0..<(count ?? 0) { storage[index] = fileData![index] }
    self.init(
      mode: mode, piccDataTag: piccDataTag, uidBytes: uidBytes, counter: counter, fileDataCount: count,
      fileDataStorage: storage)
  }

  /// Whether ``counter`` is above `lastSeen`, the highest counter accepted before for this
  /// UID (AN12196 §3.3: the counter increments on every read, so a counter not above the last
  /// one is a replayed URL). Nil when the message mirrors no counter.
  public func counterVerdict(lastSeen: UInt32?) -> SUNCounterVerdict? {
    guard let counter else { return nil }
    guard let lastSeen else { return .fresh }
    return counter > lastSeen ? .fresh : .replayed(lastSeen: lastSeen)
  }

  /// Equal when every field and the file data bytes are.
  public static func == (a: SUNData, b: SUNData) -> Bool {
    guard a.mode == b.mode, a.piccDataTag == b.piccDataTag, a.counter == b.counter,
      a.fileDataCount == b.fileDataCount, (a.uidBytes == nil) == (b.uidBytes == nil)
    else { return false }
    if let x = a.uidBytes, let y = b.uidBytes {
      for index in 0..<7 where x[index] != y[index] { return false }
    }
    for index in 0..<(a.fileDataCount ?? 0) where a.fileDataStorage[index] != b.fileDataStorage[index] {
      return false
    }
    return true
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(mode)
    hasher.combine(piccDataTag)
    hasher.combine(counter)
    hasher.combine(fileDataCount)
    if let uidBytes { for index in 0..<7 { hasher.combine(uidBytes[index]) } }
    for index in 0..<(fileDataCount ?? 0) { hasher.combine(fileDataStorage[index]) }
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
    try Self.check(url.span, query, keys: keys, macInput: macInput, crypto: crypto)
  }

  /// Parses and checks the SUN URL `url` in one step, reading it in place: the call a server
  /// makes per request. Allocates nothing when `crypto` answers
  /// ``TagTrustCrypto/aesBlock(encrypting:key:block:)`` and
  /// ``TagTrustCrypto/aesCMAC(key:bytes:)`` without allocating (as `OpenSSLTagTrustCrypto`
  /// does); the verdict holds the UID and file data inline.
  ///
  /// - Parameters:
  ///   - url: the URL's UTF-8 bytes.
  ///   - keys: the SDMMetaReadKey and SDMFileReadKey.
  ///   - names: the parameter names of each SUN value (default ``SUNParameterNames/standard``).
  ///   - macInput: where the MAC input starts (default ``SUNMACInput/automatic``).
  ///   - crypto: the AES and CMAC provider.
  /// - Throws: the errors of ``init(parsingURL:names:)`` and of
  ///   ``verify(keys:macInput:crypto:)``.
  public static func verify<C: TagTrustCrypto>(
    url: Span<UInt8>, keys: SUNKeys, names: SUNParameterNames = .standard, macInput: SUNMACInput = .automatic,
    crypto: C
  ) throws(TagTrustError) -> SUNVerdict {
    let query = try SUNQuery(parsing: url, names: names)
    return try check(url, query, keys: keys, macInput: macInput, crypto: crypto)
  }

  /// ``verify(url:keys:names:macInput:crypto:)-(Span<UInt8>,_,_,_,_)`` over a string's
  /// UTF-8 bytes in place.
  public static func verify<C: TagTrustCrypto>(
    url: String, keys: SUNKeys, names: SUNParameterNames = .standard, macInput: SUNMACInput = .automatic,
    crypto: C
  ) throws(TagTrustError) -> SUNVerdict {
    let utf8 = url.utf8
    return try verify(url: utf8.span, keys: keys, names: names, macInput: macInput, crypto: crypto)
  }

  /// The check itself over `url`'s bytes and the places `query` found, all on the stack.
  static func check<C: TagTrustCrypto>(
    _ url: Span<UInt8>, _ query: SUNQuery, keys: SUNKeys, macInput: SUNMACInput, crypto: C
  ) throws(TagTrustError) -> SUNVerdict {
    let (metaKey, fileKey) = try keys.blocks()
    let input = url.extracting(try query.macInputRange(macInput))
    let mode = query.mode
    var piccDataTag: UInt8?
    var uid: InlineArray<7, UInt8>?
    var counterLE: InlineArray<3, UInt8>?
    if let picc = query.piccData {
      var position = picc.lowerBound
      let plain: AESBlock
      if mode == .lrp {
        var random = InlineArray<8, UInt8>(repeating: 0)
        for index in 0..<8 { random[index] = HexDigits.byte(url, at: position + 2 * index) }
        position += 16
        let lrp: LRPKeyMaterial
        if let prepared = keys.metaLRP {
          lrp = prepared
        } else {
          lrp = try LRPKeyMaterial(key: metaKey, crypto: crypto)
        }
        plain = try lrp.decrypt(
          Self.block(url, at: position), counter: random.span, keyIndex: 0, crypto: crypto)
      } else {
        plain = try crypto.aesBlock(encrypting: false, key: metaKey, block: Self.block(url, at: position))
      }
      let tag = plain[0]
      guard tag & PICCDataTag.reserved == 0, Int(tag & PICCDataTag.uidLengthMask) == Self.uidLength else {
        return .invalid(.piccDataUnreadable)
      }
      piccDataTag = tag
      var offset = 1
      if tag & PICCDataTag.uidMirrored != 0 {
        var bytes = InlineArray<7, UInt8>(repeating: 0)
        for index in 0..<7 { bytes[index] = plain[offset + index] }
        uid = bytes
        offset += Self.uidLength
      }
      if tag & PICCDataTag.counterMirrored != 0 {
        var bytes = InlineArray<3, UInt8>(repeating: 0)
        for index in 0..<3 { bytes[index] = plain[offset + index] }
        counterLE = bytes
      }
    } else {
      if let range = query.uid {
        var bytes = InlineArray<7, UInt8>(repeating: 0)
        for index in 0..<7 { bytes[index] = HexDigits.byte(url, at: range.lowerBound + 2 * index) }
        uid = bytes
      }
      if let range = query.counter {
        // Printed most significant first; the session vectors take it least significant first.
        var bytes = InlineArray<3, UInt8>(repeating: 0)
        for index in 0..<3 { bytes[2 - index] = HexDigits.byte(url, at: range.lowerBound + 2 * index) }
        counterLE = bytes
      }
    }
    if query.fileData != nil, counterLE == nil { return .invalid(.counterMissing) }
    var mac = InlineArray<8, UInt8>(repeating: 0)
    if let range = query.mac {
      for index in 0..<8 { mac[index] = HexDigits.byte(url, at: range.lowerBound + 2 * index) }
    }
    var fileData = InlineArray<128, UInt8>(repeating: 0)
    var fileDataCount: Int?
    if mode == .lrp {
      // AN12321 §3.3: SV = 00 01 00 80 ‖ UID ‖ SDMReadCtr ‖ zero padding ‖ 1E E1, one block
      // (4 + at most 10 + 2 bytes).
      var vector = Self.sessionVector([0x00, 0x01, 0x00, 0x80], uid: uid, counter: counterLE)
      vector[14] = 0x1E
      vector[15] = 0xE1
      let fileLRP: LRPKeyMaterial
      if let prepared = keys.fileLRP {
        fileLRP = prepared
      } else {
        fileLRP = try LRPKeyMaterial(key: fileKey, crypto: crypto)
      }
      let master = try fileLRP.cmac(vector.bytes.span, crypto: crypto)
      let session = try LRPKeyMaterial(key: master, crypto: crypto)
      let computed = try session.cmac(input, crypto: crypto)
      guard Self.macMatches(computed, mac) else { return .invalid(.macMismatch) }
      if let range = query.fileData, let counterLE {
        // The LRICB counter: SDMReadCtr ‖ 00 00 00, incremented per block.
        var counter = InlineArray<6, UInt8>(repeating: 0)
        for index in 0..<3 { counter[index] = counterLE[index] }
        var offset = 0
        for position in stride(from: range.lowerBound, to: range.upperBound, by: 32) {
          let plain = try session.decrypt(
            Self.block(url, at: position), counter: counter.span, keyIndex: 1, crypto: crypto)
          for index in 0..<16 { fileData[offset + index] = plain[index] }
          offset += 16
          Self.increment(&counter)
        }
        fileDataCount = offset
      }
    } else {
      // AN12196 §3.3: SV2 = 3C C3 00 01 00 80 ‖ UID ‖ SDMReadCtr ‖ zero padding (one block).
      let macVector = Self.sessionVector([0x3C, 0xC3, 0x00, 0x01, 0x00, 0x80], uid: uid, counter: counterLE)
      let macKey = try crypto.aesCMAC(key: fileKey, bytes: macVector.bytes.span)
      let computed = try crypto.aesCMAC(key: macKey, bytes: input)
      guard Self.macMatches(computed, mac) else { return .invalid(.macMismatch) }
      if let range = query.fileData, let counterLE {
        // SV1 = C3 3C 00 01 00 80 ‖ UID ‖ SDMReadCtr ‖ zero padding; IV = E(K, SDMReadCtr ‖ 0…).
        let encryptionVector = Self.sessionVector(
          [0xC3, 0x3C, 0x00, 0x01, 0x00, 0x80], uid: uid, counter: counterLE)
        let encryptionKey = try crypto.aesCMAC(key: fileKey, bytes: encryptionVector.bytes.span)
        var ivInput = AESBlock()
        for index in 0..<3 { ivInput[index] = counterLE[index] }
        var previous = try crypto.aesBlock(encrypting: true, key: encryptionKey, block: ivInput)
        var offset = 0
        for position in stride(from: range.lowerBound, to: range.upperBound, by: 32) {
          let cipherBlock = Self.block(url, at: position)
          let plain = try crypto.aesBlock(encrypting: false, key: encryptionKey, block: cipherBlock)
          for index in 0..<16 { fileData[offset + index] = plain[index] ^ previous[index] }
          previous = cipherBlock
          offset += 16
        }
        fileDataCount = offset
      }
    }
    let counter = counterLE.map { UInt32($0[0]) | UInt32($0[1]) << 8 | UInt32($0[2]) << 16 }
    return .valid(
      SUNData(
        mode: mode, piccDataTag: piccDataTag, uidBytes: uid, counter: counter, fileDataCount: fileDataCount,
        fileDataStorage: fileData))
  }

  /// The 16 bytes the 32 hex digits at `offset` of `url` spell.
  static func block(_ url: Span<UInt8>, at offset: Int) -> AESBlock {
    var block = AESBlock()
    for index in 0..<16 { block[index] = HexDigits.byte(url, at: offset + 2 * index) }
    return block
  }

  /// `prefix` ‖ UID ‖ SDMReadCtr (least significant first), zero-padded to one block (the
  /// longest, 6 + 7 + 3 bytes, fills it).
  static func sessionVector<let count: Int>(
    _ prefix: InlineArray<count, UInt8>, uid: InlineArray<7, UInt8>?, counter: InlineArray<3, UInt8>?
  ) -> AESBlock {
    var vector = AESBlock()
    for index in 0..<count { vector[index] = prefix[index] }
    var position = count
    if let uid {
      for index in 0..<7 { vector[position + index] = uid[index] }
      position += 7
    }
    if let counter {
      for index in 0..<3 { vector[position + index] = counter[index] }
    }
    return vector
  }

  /// Whether the odd-indexed bytes (1, 3, …, 15) of the CMAC are the 8-byte SDMMAC
  /// (AN12196 §3.4.4), every byte compared whatever the first difference.
  static func macMatches(_ computed: AESBlock, _ mac: InlineArray<8, UInt8>) -> Bool {
    var difference: UInt8 = 0
    for index in 0..<8 { difference |= computed[2 * index + 1] ^ mac[index] }
    return difference == 0
  }

  /// Adds one to the LRICB counter, big-endian, wrapping to zeros.
  static func increment(_ counter: inout InlineArray<6, UInt8>) {
    var index = 5
    while index >= 0 {
      counter[index] &+= 1
      if counter[index] != 0 { return }
      index -= 1
    }
  }
}
