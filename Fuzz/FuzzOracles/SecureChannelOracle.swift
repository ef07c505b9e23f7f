// SPDX-License-Identifier: Apache-2.0
import ISO7816
import SecureChannel

/// A stand-in crypto provider for fuzzing, and NOT cryptography: ciphers XOR with the key in
/// CBC chaining, CMAC is all zeros, random bytes are zeros. It lets the fuzzer reach every
/// branch of the card-answer and response parsing (a zero MAC is easy to forge), which is
/// what the target checks; the real primitives are tested against published vectors.
struct FuzzCrypto: SecureChannelCrypto {
  private func cbc(_ encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8], block: Int)
    throws(SecureChannelError) -> [UInt8]
  {
    guard key.count >= block, iv.count == block, data.count % block == 0 else {
      throw SecureChannelError(.cryptoFailure)
    }
    var previous = iv
    var out: [UInt8] = []
    out.reserveCapacity(data.count)
    for start in stride(from: 0, to: data.count, by: block) {
      let chunk = Array(data[start..<(start + block)])
      var result = [UInt8](repeating: 0, count: block)
      for index in 0..<block { result[index] = chunk[index] ^ key[index] ^ previous[index] }
      out += result
      previous = encrypting ? result : chunk
    }
    return out
  }
  func aesECB(encrypting: Bool, key: [UInt8], data: [UInt8]) throws(SecureChannelError) -> [UInt8] {
    var out: [UInt8] = []
    for start in stride(from: 0, to: data.count, by: 16) {
      out += try cbc(
        encrypting, key: key, iv: [UInt8](repeating: 0, count: 16),
        data: Array(data[start..<min(start + 16, data.count)]),
        block: 16)
    }
    return out
  }
  func aesCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(SecureChannelError)
    -> [UInt8]
  {
    try cbc(encrypting, key: key, iv: iv, data: data, block: 16)
  }
  func aesCMAC(key: [UInt8], message: [UInt8]) throws(SecureChannelError) -> [UInt8] {
    [UInt8](repeating: 0, count: 16)
  }
  func desCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(SecureChannelError)
    -> [UInt8]
  {
    try cbc(encrypting, key: key, iv: iv, data: data, block: 8)
  }
  func sha1(_ message: [UInt8]) throws(SecureChannelError) -> [UInt8] { [UInt8](repeating: 0, count: 20) }
  func sha256(_ message: [UInt8]) throws(SecureChannelError) -> [UInt8] { [UInt8](repeating: 0, count: 32) }
  func randomBytes(count: Int) throws(SecureChannelError) -> [UInt8] { [UInt8](repeating: 0, count: count) }
}

/// Secure-channel answers: the INITIALIZE UPDATE answer and the responses a session unwraps.
///
/// Input: byte 0 chooses the security level (bits 0-2: 00, 01, 03, 11, 13, 33), S16 mode
/// (bit 3), the key length (bits 4-5: 16, 24, 32) and whether the oracle writes the right
/// card cryptogram into the answer (bit 6, so sessions open); byte 1 is the length of the
/// INITIALIZE UPDATE answer that follows; then responses, each a length byte, that many
/// data bytes and two status-word bytes, each unwrapped after wrapping one command.
///
/// Checks: a parsed answer re-encodes byte for byte; a session never wraps beyond 255
/// bytes; unwrapping keeps the status word, returns the input unchanged without response
/// protection and never more data than it got; only a MAC mismatch closes the channel, and
/// a closed channel refuses everything with ``SecureChannelError/Code/channelClosed``.
public enum SecureChannelOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    guard bytes.count >= 2 else { return }
    let levels: [UInt8] = [0x00, 0x01, 0x03, 0x11, 0x13, 0x33, 0x01, 0x03]
    let level = SecurityLevel(rawValue: levels[Int(bytes[0] & 0x07)])
    let s16 = bytes[0] & 0x08 != 0
    let keyLength = [16, 24, 32, 16][Int((bytes[0] >> 4) & 0x03)]
    let fixCryptogram = bytes[0] & 0x40 != 0
    let count = min(Int(bytes[1]), bytes.count - 2)
    var answer = Array(bytes[2..<(2 + count)])
    var rest = bytes[(2 + count)...]

    if let parsed = try? InitializeUpdateResponse(parsing: answer) {
      try require(parsed.encodedBytes == answer, "an INITIALIZE UPDATE answer did not re-encode")
      try require(parsed.cardCryptogram.count == (parsed.isS16Mode ? 16 : 8), "cryptogram length")
      if fixCryptogram { answer = patched(answer, parsed, keyLength: keyLength) }
    }
    let crypto = FuzzCrypto()
    let keys: SecureChannelKeys
    do { keys = try SecureChannelKeys(key: [UInt8](repeating: 0x40, count: keyLength)) } catch {
      throw OracleFailure("key set refused")
    }
    let configuration = SecureChannelConfiguration(keys: keys, securityLevel: level, s16Mode: s16)
    guard var opening = try? SecureChannelOpening(configuration: configuration, crypto: crypto) else {
      throw OracleFailure("opening refused a valid configuration")
    }
    guard (try? opening.receiveInitializeUpdate(ResponseAPDU(data: answer, statusWord: .success))) != nil,
      var session = try? opening.receiveExternalAuthenticate(ResponseAPDU(statusWord: .success))
    else { return }
    try require(session.securityLevel == level, "the session's level differs from the one asked")

    while let length = rest.first {
      rest = rest.dropFirst()
      let take = min(Int(length), rest.count)
      let data = Array(rest.prefix(take))
      rest = rest.dropFirst(take)
      let sw = StatusWord(rawValue: UInt16(rest.first ?? 0x90) << 8 | UInt16(rest.dropFirst().first ?? 0x00))
      rest = rest.dropFirst(2)
      let command = CommandAPDU(
        cla: 0x80, ins: 0xCA, p1: 0x00, p2: 0x66, data: data.count > 200 ? [] : data, ne: 256)
      let closed = session.isClosed
      let wrapped = Result { () throws(SecureChannelError) in try session.wrap(command) }
      switch wrapped {
      case .success(let command):
        try require(!closed, "a closed channel wrapped a command")
        try require(command.data.count <= 255, "a wrapped command exceeds 255 bytes")
      case .failure(let error):
        try require(closed == (error.code == .channelClosed), "wrap: \(error.code) with closed \(closed)")
      }
      let response = ResponseAPDU(data: data, statusWord: sw)
      let unwrapped = Result { () throws(SecureChannelError) in try session.unwrap(response) }
      switch unwrapped {
      case .success(let plain):
        try require(!closed, "a closed channel unwrapped a response")
        try require(plain.statusWord == sw, "the status word changed")
        try require(plain.data.count <= data.count, "unwrapping added data")
        if !level.hasResponseMAC { try require(plain == response, "an unprotected response changed") }
      case .failure(let error):
        if closed {
          try require(error.code == .channelClosed, "a closed channel answered \(error.code)")
        } else {
          try require(session.isClosed == (error.code == .responseMACMismatch), "closed on \(error.code)")
        }
      }
    }
  }

  /// The answer with the card cryptogram the stand-in provider computes for it.
  static func patched(_ answer: [UInt8], _ parsed: InitializeUpdateResponse, keyLength: Int) -> [UInt8] {
    var out = answer
    if parsed.secureChannelProtocol == .scp03 {
      // CMAC is zero, so is every KDF output.
      let start = 13 + parsed.cardChallenge.count
      for index in start..<(start + parsed.cardCryptogram.count) { out[index] = 0 }
    } else if keyLength == 16 {
      let crypto = FuzzCrypto()
      let key = [UInt8](repeating: 0x40, count: 16)
      let counter = parsed.sequenceCounter
      guard
        let sEnc = try? crypto.desCBC(
          encrypting: true, key: key, iv: [UInt8](repeating: 0, count: 8),
          data: [0x01, 0x82] + counter + [UInt8](repeating: 0, count: 12)),
        let mac = try? crypto.desCBC(
          encrypting: true, key: sEnc, iv: [UInt8](repeating: 0, count: 8),
          data: [UInt8](repeating: 0, count: 8) + counter + parsed.cardChallenge + [
            0x80, 0, 0, 0, 0, 0, 0, 0,
          ])
      else { return out }
      for index in 0..<8 { out[20 + index] = mac[mac.count - 8 + index] }
    }
    return out
  }
}
