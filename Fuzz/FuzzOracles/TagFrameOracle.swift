// SPDX-License-Identifier: Apache-2.0
import NFCTags

/// The tag frame codecs of NFCTags: Type 1 commands and answers (``Type1Command``), FeliCa
/// Check and Update (``FeliCaCommand``) and the PN532 InDataExchange wrap
/// (``PN532DataExchange``). The input is read as an answer by every parser and as arguments
/// by every encoder. Checks, besides "no trap": each parser accepts exactly what a rule
/// written here from the specification accepts, and returns exactly the bytes that rule
/// names (scan against validation); every error's offset lies within the answer or the
/// stated limit; every frame built is laid out as its command says, and the answer a tag
/// would give to it parses back to the data put in (round trip).
public enum TagFrameOracle {
  /// Runs the oracle on one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    try type1Answers(bytes)
    try type1Commands(bytes)
    try feliCaAnswers(bytes)
    try feliCaFrames(bytes)
    try pn532(bytes)
  }

  /// The codec's result, its error typed.
  static func attempt<T>(_ body: () throws(NFCTagError) -> T) -> Result<T, NFCTagError> {
    do throws(NFCTagError) { return .success(try body()) } catch { return .failure(error) }
  }

  static func offsetWithin(_ error: NFCTagError, _ limit: Int, _ what: String) throws(OracleFailure) {
    try require(
      error.offset >= 0 && error.offset <= limit, "\(what): offset \(error.offset) outside 0...\(limit)")
  }

  static func type1Answers(_ bytes: [UInt8]) throws(OracleFailure) {
    switch attempt({ () throws(NFCTagError) in try Type1Command.identification(parsing: bytes) }) {
    case .success(let (rom, uid)):
      try require(bytes.count == 6 && [rom.hr0, rom.hr1] + uid == bytes, "RID answer not returned whole")
    case .failure(let error):
      try require(bytes.count != 6, "a 6-byte RID answer refused: \(error)")
      try offsetWithin(error, 6, "RID")
    }
    let parsers: [(Int, ([UInt8]) throws(NFCTagError) -> [UInt8])] = [
      (1, { (answer) throws(NFCTagError) in [try Type1Command.byte(parsing: answer)] }),
      (
        Type1Command.segmentSize,
        { (answer) throws(NFCTagError) in try Type1Command.segment(parsing: answer) }
      ),
      (Type1Command.blockSize, { (answer) throws(NFCTagError) in try Type1Command.block(parsing: answer) }),
    ]
    for (length, parse) in parsers {
      switch attempt({ () throws(NFCTagError) in try parse(bytes) }) {
      case .success(let value):
        try require(bytes.count == length && value == bytes, "a \(length)-byte answer not returned whole")
      case .failure(let error):
        try require(bytes.count != length, "a \(length)-byte answer refused: \(error)")
        let expected: NFCTagError.Code = bytes.count < length ? .responseTooShort : .unexpectedResponse
        try require(error.code == expected, "a \(length)-byte answer parser: \(error)")
      }
    }
    // A WRITE-E8 answer checked against itself passes; against a copy with one byte changed,
    // it fails at that byte.
    guard bytes.count == Type1Command.blockSize else { return }
    if case .failure(let error) = attempt({ () throws(NFCTagError) in
      try Type1Command.writeEraseBlockAnswer(bytes, written: bytes)
    }) {
      throw OracleFailure("an echoed WRITE-E8 block refused: \(error)")
    }
    let index = Int(bytes[0]) % bytes.count
    var other = bytes
    other[index] ^= 0x01
    switch attempt({ () throws(NFCTagError) in try Type1Command.writeEraseBlockAnswer(bytes, written: other) }
    ) {
    case .success: throw OracleFailure("a WRITE-E8 answer of other bytes accepted")
    case .failure(let error):
      try require(error.code == .writeNotConfirmed && error.offset == index, "WRITE-E8 mismatch: \(error)")
    }
  }

  static func type1Commands(_ bytes: [UInt8]) throws(OracleFailure) {
    guard bytes.count >= 2 else { return }
    let address = Int(Int16(bitPattern: UInt16(bytes[0]) << 8 | UInt16(bytes[1])))
    let value = bytes[1]
    let encoders: [(UInt8, Bool, (Int) throws(NFCTagError) -> [UInt8])] = [
      (
        Type1Command.readByteCode, Type1Command.byteAddresses.contains(address),
        { (address) throws(NFCTagError) in try Type1Command.readByte(at: address) }
      ),
      (
        Type1Command.readSegmentCode, (0..<Type1Command.segmentCount).contains(address),
        { (address) throws(NFCTagError) in try Type1Command.readSegment(address) }
      ),
      (
        Type1Command.readBlockCode, (0...0xFF).contains(address),
        { (address) throws(NFCTagError) in try Type1Command.readBlock(address) }
      ),
      (
        Type1Command.writeEraseByteCode, Type1Command.writableByteAddresses.contains(address),
        { (address) throws(NFCTagError) in try Type1Command.writeEraseByte(value, at: address) }
      ),
    ]
    for (code, valid, encode) in encoders {
      switch attempt({ () throws(NFCTagError) in try encode(address) }) {
      case .success(let frame):
        try require(valid, "command \(code) built for address \(address)")
        let addressByte = code == Type1Command.readSegmentCode ? address << 4 : address
        try require(
          frame.count >= 2 && frame[0] == code && Int(frame[1]) == addressByte, "command \(code): \(frame)")
      case .failure(let error):
        try require(!valid, "command \(code) refused address \(address): \(error)")
        try require(error.code == .invalidAddress && error.offset == 1, "command \(code): \(error)")
      }
    }
    let data = Array(bytes.dropFirst(2).prefix(9))
    let valid = Type1Command.writableBlocks.contains(address) && data.count == Type1Command.blockSize
    switch attempt({ () throws(NFCTagError) in try Type1Command.writeEraseBlock(address, data) }) {
    case .success(let frame):
      try require(valid, "WRITE-E8 built for block \(address) with \(data.count) bytes")
      try require(
        frame == [Type1Command.writeEraseBlockCode, UInt8(address)] + data, "WRITE-E8 frame \(frame)")
    case .failure(let error):
      try require(!valid, "WRITE-E8 refused block \(address): \(error)")
    }
  }

  /// The rule for an answer to `code` from `idm`, written from JIS X 6319-4 §7.3 apart from
  /// the codec: the length byte is the length, the code is the command's plus one, the IDm
  /// is the tag's, both status flags are 00.
  static func answerAccepted(_ answer: [UInt8], code: UInt8, idm: [UInt8]) -> Bool {
    answer.count >= 12 && Int(answer[0]) == answer.count && answer[1] == code &+ 1
      && Array(answer[2..<10]) == idm && answer[10] == 0 && answer[11] == 0
  }

  static func feliCaAnswers(_ bytes: [UInt8]) throws(OracleFailure) {
    let idm = bytes.count >= 10 ? Array(bytes[2..<10]) : [UInt8](repeating: 0, count: 8)
    let blockCount = bytes.count > 12 ? Int(bytes[12]) : 1
    let wellFormedCheck =
      answerAccepted(bytes, code: FeliCaCommand.checkCode, idm: idm) && bytes.count == 13 + 16 * blockCount
    switch attempt({ () throws(NFCTagError) in
      try FeliCaCommand.checkAnswer(bytes, idm: idm, blockCount: blockCount)
    }) {
    case .success(let data):
      try require(
        wellFormedCheck && data == Array(bytes.dropFirst(13)), "a Check answer outside the rule accepted")
    case .failure(let error):
      try require(!wellFormedCheck, "a well-formed Check answer refused: \(error)")
      try offsetWithin(error, max(bytes.count, 12), "Check answer")
      if error.code == .feliCaStatusFlags {
        try require(
          error.statusWord?.sw1 == bytes[10] && error.statusWord?.sw2 == bytes[11], "status flags lost")
      }
    }
    let wellFormedUpdate = answerAccepted(bytes, code: FeliCaCommand.updateCode, idm: idm)
    switch attempt({ () throws(NFCTagError) in try FeliCaCommand.updateAnswer(bytes, idm: idm) }) {
    case .success: try require(wellFormedUpdate, "an Update answer outside the rule accepted")
    case .failure(let error):
      try require(!wellFormedUpdate, "a well-formed Update answer refused: \(error)")
      try offsetWithin(error, max(bytes.count, 12), "Update answer")
    }
  }

  static func feliCaFrames(_ bytes: [UInt8]) throws(OracleFailure) {
    guard bytes.count >= 12 else { return }
    let idm = Array(bytes[0..<8])
    let service = UInt16(bytes[8]) | UInt16(bytes[9]) << 8
    let first = Int(bytes[10]) << 8 | Int(bytes[11])
    let count = bytes.count > 12 ? Int(bytes[12] % 17) : 1
    let blocks = first..<(first + count)
    let inRange = blocks.upperBound <= 0x1_0000
    let elementBytes = blocks.reduce(0) { $0 + ($1 < 0x100 ? 2 : 3) }
    switch attempt({ () throws(NFCTagError) in
      try FeliCaCommand.check(idm: idm, service: service, blocks: blocks)
    }) {
    case .success(let frame):
      try require((1...15).contains(count) && inRange, "Check built for blocks \(blocks)")
      try require(
        frame.count == 14 + elementBytes && Int(frame[0]) == frame.count
          && frame[1] == FeliCaCommand.checkCode
          && Array(frame[2..<10]) == idm && frame[10] == 1 && frame[11] == UInt8(service & 0xFF)
          && frame[12] == UInt8(service >> 8) && Int(frame[13]) == count, "Check frame \(frame)")
      // The answer a tag would give, made from the frame: parses back to the data.
      let data = (0..<(16 * count)).map { UInt8(truncatingIfNeeded: $0 &+ Int(bytes[0])) }
      let answer = [UInt8(13 + data.count), FeliCaCommand.checkCode + 1] + idm + [0, 0, UInt8(count)] + data
      switch attempt({ () throws(NFCTagError) in
        try FeliCaCommand.checkAnswer(answer, idm: idm, blockCount: count)
      })
      {
      case .success(let back): try require(back == data, "Check round trip")
      case .failure(let error): throw OracleFailure("a Check answer made from the frame refused: \(error)")
      }
    case .failure(let error):
      try require(!((1...15).contains(count) && inRange), "Check refused blocks \(blocks): \(error)")
      try offsetWithin(error, 255, "Check")
    }
    let data = Array(bytes.dropFirst(13))
    let fits = 14 + elementBytes + data.count < 256
    switch attempt({ () throws(NFCTagError) in
      try FeliCaCommand.update(idm: idm, service: service, blocks: blocks, data: data)
    }) {
    case .success(let frame):
      try require(count >= 1 && data.count == 16 * count && inRange && fits, "Update built")
      try require(Array(frame.suffix(data.count)) == data && Int(frame[0]) == frame.count, "Update frame")
    case .failure(let error):
      try require(!(count >= 1 && data.count == 16 * count && inRange && fits), "Update refused: \(error)")
      try offsetWithin(error, 255, "Update")
    }
  }

  static func pn532(_ bytes: [UInt8]) throws(OracleFailure) {
    let accepted = bytes.count >= 3 && bytes[0] == 0xD5 && bytes[1] == 0x41 && bytes[2] & 0x3F == 0
    switch attempt({ () throws(NFCTagError) in try PN532DataExchange.answer(parsing: bytes) }) {
    case .success(let data):
      try require(
        accepted && data == Array(bytes.dropFirst(3)), "an InDataExchange answer outside the rule accepted")
    case .failure(let error):
      try require(!accepted, "a well-formed InDataExchange answer refused: \(error)")
      try offsetWithin(error, 3, "InDataExchange answer")
    }
    switch attempt({ () throws(NFCTagError) in try PN532DataExchange.command(bytes, target: 1) }) {
    case .success(let command):
      try require(bytes.count <= 262 && command == [0xD4, 0x40, 0x01] + bytes, "InDataExchange command")
      // The chip's answer carrying the same bytes back parses to them.
      let back = attempt({ () throws(NFCTagError) in
        try PN532DataExchange.answer(parsing: [0xD5, 0x41, 0x00] + bytes)
      })
      try require(back == .success(bytes), "InDataExchange round trip")
    case .failure(let error):
      try require(
        bytes.count > 262 && error.code == .frameTooLong, "InDataExchange refused \(bytes.count) bytes")
    }
  }
}
