// SPDX-License-Identifier: Apache-2.0

import NFCTags
import PCSCControl

/// The PC/SC Part 3 storage-card layer and the NTAG answers: the first byte picks what the
/// rest is (a storage-card ATR, a pseudo-APDU command, a reader's answer, an NTAG answer).
/// Whatever parses must re-encode to bytes that parse to the same value (byte for byte where
/// the encoding is canonical); answers must classify every status word; nothing may trap.
public enum StorageCardOracle {
  /// Checks one input.
  public static func check(_ input: [UInt8]) throws(OracleFailure) {
    guard let selector = input.first else { return }
    let bytes = Array(input.dropFirst())
    switch selector % 8 {
    case 0: try atr(bytes)
    case 1: try loadKeys(bytes)
    case 2: try authenticate(bytes)
    case 3: try binary(bytes)
    case 4: try transparent(bytes)
    case 5: try answers(bytes)
    case 6: try ntag(bytes)
    default: try protection(bytes)
    }
  }

  static func atr(_ bytes: [UInt8]) throws(OracleFailure) {
    // Also as a storage ATR: the fuzzer's bytes after the fixed prefix, TCK fixed up.
    var candidates = [bytes]
    if bytes.count >= 7 {
      var built = StorageCardATR.prefix + bytes.prefix(7)
      built.append(StorageCardATR.checkCharacter(built[1...]))
      candidates.append(built)
    }
    for candidate in candidates {
      guard let atr = try? StorageCardATR(parsing: candidate) else {
        try require(
          candidate.count != 20 || !StorageCardATR.hasStorageCardPrefix(candidate)
            || StorageCardATR.checkCharacter(candidate[1..<19]) != candidate[19],
          "a well-formed storage-card ATR was refused")
        continue
      }
      try require(atr.encodedBytes() == candidate, "storage-card ATR did not re-encode")
      _ = (atr.cardName.name, atr.cardName.kind, atr.cardName.sak, atr.standard.label)
    }
  }

  static func loadKeys(_ bytes: [UInt8]) throws(OracleFailure) {
    guard let command = try? LoadKeysPseudoAPDU(parsing: bytes) else { return }
    try require((try? command.encodedBytes()) == bytes, "LOAD KEYS did not re-encode")
    try require(!command.description.isEmpty, "LOAD KEYS has no description")
    let profile = StorageCardReaderProfile.all[Int(command.keyNumber) % StorageCardReaderProfile.all.count]
    let plan = profile.loadKeysPlan(key: command.key, keyType: .keyA, slot: command.keyNumber)
    try require(plan.attempts.count == 2, "LOAD KEYS plan is not two attempts")
  }

  static func authenticate(_ bytes: [UInt8]) throws(OracleFailure) {
    if let command = try? GeneralAuthenticatePseudoAPDU(parsing: bytes) {
      try require(command.encodedBytes() == bytes, "GENERAL AUTHENTICATE did not re-encode")
    }
    if let command = try? LegacyAuthenticatePseudoAPDU(parsing: bytes) {
      try require(command.encodedBytes() == bytes, "AUTHENTICATE did not re-encode")
    }
  }

  static func binary(_ bytes: [UInt8]) throws(OracleFailure) {
    if let read = try? ReadBinaryPseudoAPDU(parsing: bytes) {
      try require(read.encodedBytes() == bytes, "READ BINARY did not re-encode")
    }
    if let update = try? UpdateBinaryPseudoAPDU(parsing: bytes) {
      try require((try? update.encodedBytes()) == bytes, "UPDATE BINARY did not re-encode")
    }
    guard bytes.count >= 3 else { return }
    let parameters = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    let addressings: [StorageCardAddressing] = [
      .type2Page, .mifareClassicBlock, .blockInP1, .blockInP1P2, .byteAddress(blockSize: Int(bytes[2] % 64)),
    ]
    for addressing in addressings {
      if let block = addressing.block(forParameters: parameters) {
        try require(addressing.parameters(forBlock: block) == parameters, "addressing does not round-trip")
      }
    }
  }

  static func transparent(_ bytes: [UInt8]) throws(OracleFailure) {
    if let command = try? TransparentSessionPseudoAPDU(parsing: bytes) {
      let again = try? command.encodedBytes()
      try require(
        again.flatMap { try? TransparentSessionPseudoAPDU(parsing: $0) } == command,
        "transparent session command did not round-trip")
    }
    if let objects = try? TransparentDataObject.parse(bytes),
      let encoded = try? TransparentDataObject.encode(objects)
    {
      try require((try? TransparentDataObject.parse(encoded)) == objects, "data objects did not round-trip")
    }
    if let command = try? DirectTransmitPseudoAPDU(parsing: bytes) {
      try require((try? command.encodedBytes()) == bytes, "direct transmit did not re-encode")
    }
  }

  static func answers(_ bytes: [UInt8]) throws(OracleFailure) {
    let refused = bytes.count < 2
    try require(
      (try? LoadKeysPseudoAPDU.answer(parsing: bytes)) == nil || !refused, "short LOAD KEYS answer taken")
    try require(
      (try? LoadKeysPseudoAPDU.answer(parsing: bytes)) != nil || refused, "LOAD KEYS answer refused")
    try require(
      (try? GeneralAuthenticatePseudoAPDU.answer(parsing: bytes)) != nil || refused,
      "authenticate answer refused")
    if let answer = try? BinaryPseudoAPDUAnswer(parsing: bytes), let data = answer.bytes {
      try require(data.count == bytes.count - 2, "binary answer data length is wrong")
    } else {
      try require(refused || (try? BinaryPseudoAPDUAnswer(parsing: bytes)) != nil, "binary answer refused")
    }
    if case .completed(let response)? = try? TransparentSessionPseudoAPDU.answer(parsing: bytes) {
      _ = (response.cardData, response.receivedBits, response.responseStatus)
    }
  }

  static func ntag(_ bytes: [UInt8]) throws(OracleFailure) {
    if let version = try? NtagVersion(parsing: bytes) {
      try require(version.encodedBytes() == bytes, "GET_VERSION did not re-encode")
      try require(!version.storageSizeRange.isEmpty, "storage size range is empty")
      if let chip = version.chip { _ = (chip.hasFastRead, chip.hasPasswordProtection) }
    }
    _ = try? NtagCommand.signature(parsing: bytes)
    if let counter = try? NtagCommand.counter(parsing: bytes) {
      try require(counter <= 0xFF_FFFF, "counter over 24 bits")
    }
    _ = try? NtagCommand.passwordAcknowledge(parsing: bytes, expected: .factoryDefault)
  }

  static func protection(_ bytes: [UInt8]) throws(OracleFailure) {
    guard bytes.count >= 12, let configuration = try? NtagConfiguration(parsing: Array(bytes.prefix(8)))
    else { return }
    let variants = Type2TagVariant.all
    let variant = variants[Int(bytes[8]) % variants.count]
    guard let password = NtagPassword(Array(bytes[8..<12])) else { return }
    try require(
      "\(password)" == "NtagPassword(4 bytes, hidden)", "the password's description shows its bytes")
    if let plan = try? NtagProtectionPlan.protect(
      variant, current: configuration, password: password,
      acknowledge: NtagPasswordAcknowledge(bytes[9], bytes[10]),
      firstProtectedPage: bytes[11], readProtected: bytes[10] & 1 == 1, attemptLimit: bytes[9] & 0x0F)
    {
      try require(plan.writes.last?.block == plan.pages.configuration0, "AUTH0 is not written last")
      try require(plan.writes.last?.bytes[3] == bytes[11], "AUTH0 is not the one asked for")
      try require(plan.description.contains("(hidden)"), "the plan's description shows the password page")
    }
    if let plan = try? NtagProtectionPlan.unprotect(variant, current: configuration) {
      try require(plan.writes.first?.bytes[3] == 0xFF, "AUTH0 FF is not written first")
    }
  }
}
