// SPDX-License-Identifier: Apache-2.0

/// The Type 1 tag commands (Topaz, NFC Forum T1T 1.2 §5; Digital Protocol §9.6) as a PN53x
/// carries them: InDataExchange to a Jewel target takes the command code, the address and the
/// data, and adds the four UID bytes and CRC_B itself; its answer omits the address the tag
/// echoes (PN533 user manual §8.4.7). libnfc's `nfc_initiator_transceive_bytes` and an ACR122U's
/// PN532 both take these frames.
public enum Type1Command {
  /// RID's command code (T1T §5.1).
  public static let readIdentificationCode: UInt8 = 0x78
  /// READ's command code: one byte of blocks 0-F (T1T §5.4).
  public static let readByteCode: UInt8 = 0x01
  /// WRITE-E's command code: erase, then write one byte (T1T §5.5).
  public static let writeEraseByteCode: UInt8 = 0x53
  /// RSEG's command code: one segment of 128 bytes (T1T §5.6).
  public static let readSegmentCode: UInt8 = 0x10
  /// READ8's command code: one block of 8 bytes (T1T §5.7).
  public static let readBlockCode: UInt8 = 0x02
  /// WRITE-E8's command code: erase, then write one block (T1T §5.8).
  public static let writeEraseBlockCode: UInt8 = 0x54

  /// Bytes in a block.
  public static let blockSize = 8
  /// Bytes in a segment (16 blocks).
  public static let segmentSize = 128
  /// Segments of the largest dynamic memory (TMS 0xFF: 2048 bytes).
  public static let segmentCount = 16
  /// The byte addresses READ reaches: blocks 0-F, 8 bytes each (T1T §5.4: ADD is block in
  /// bits 6-3, byte in bits 2-0).
  public static let byteAddresses = 0..<0x80
  /// The byte addresses WRITE-E may change: block 0 holds the UID (read-only).
  public static let writableByteAddresses = 0x08..<0x80
  /// The blocks WRITE-E8 may change: 1-255 (block 0 holds the UID).
  public static let writableBlocks = 1...0xFF

  /// RID: `78`; answered with HR0 HR1 and UID0-3 (``identification(parsing:)``).
  public static let readIdentification: [UInt8] = [readIdentificationCode]

  /// The header ROM and the first four UID bytes of a RID answer.
  ///
  /// - Throws: ``NFCTagError/Code/responseTooShort`` (offset: the answer's end) or
  ///   ``NFCTagError/Code/unexpectedResponse`` (offset 6) for an answer of other than 6 bytes.
  public static func identification(parsing answer: [UInt8]) throws(NFCTagError)
    -> (headerROM: Type1HeaderROM, uid: [UInt8])
  {
    try checkLength(answer, 6)
    return (Type1HeaderROM(hr0: answer[0], hr1: answer[1]), Array(answer[2..<6]))
  }

  /// READ: `01 ADD`, one byte at `address` (0-127).
  ///
  /// - Throws: ``NFCTagError/Code/invalidAddress`` (offset 1) outside ``byteAddresses``.
  public static func readByte(at address: Int) throws(NFCTagError) -> [UInt8] {
    guard byteAddresses.contains(address) else { throw NFCTagError(.invalidAddress, offset: 1) }
    return [readByteCode, UInt8(address)]
  }

  /// The byte of a READ answer.
  ///
  /// - Throws: ``NFCTagError/Code/responseTooShort`` or ``NFCTagError/Code/unexpectedResponse``
  ///   for an answer of other than 1 byte.
  public static func byte(parsing answer: [UInt8]) throws(NFCTagError) -> UInt8 {
    try checkLength(answer, 1)
    return answer[0]
  }

  /// WRITE-E: `53 ADD DATA`, erases and writes `value` at `address` (8-127).
  ///
  /// - Throws: ``NFCTagError/Code/invalidAddress`` (offset 1) outside
  ///   ``writableByteAddresses``.
  public static func writeEraseByte(_ value: UInt8, at address: Int) throws(NFCTagError) -> [UInt8] {
    guard writableByteAddresses.contains(address) else { throw NFCTagError(.invalidAddress, offset: 1) }
    return [writeEraseByteCode, UInt8(address), value]
  }

  /// Checks a WRITE-E answer: the byte as written.
  ///
  /// - Throws: ``NFCTagError/Code/responseTooShort``, ``NFCTagError/Code/unexpectedResponse``,
  ///   or ``NFCTagError/Code/writeNotConfirmed`` (offset 0) when the tag answers another byte.
  public static func writeEraseByteAnswer(_ answer: [UInt8], written value: UInt8) throws(NFCTagError) {
    try checkLength(answer, 1)
    guard answer[0] == value else { throw NFCTagError(.writeNotConfirmed, offset: 0) }
  }

  /// RSEG: `10 ADDS`, segment `segment` (0-15) in bits 7-4 of ADDS.
  ///
  /// - Throws: ``NFCTagError/Code/invalidAddress`` (offset 1) for a segment outside 0-15.
  public static func readSegment(_ segment: Int) throws(NFCTagError) -> [UInt8] {
    guard (0..<segmentCount).contains(segment) else { throw NFCTagError(.invalidAddress, offset: 1) }
    return [readSegmentCode, UInt8(segment << 4)]
  }

  /// The 128 bytes of an RSEG answer.
  ///
  /// - Throws: ``NFCTagError/Code/responseTooShort`` or ``NFCTagError/Code/unexpectedResponse``
  ///   for an answer of other than 128 bytes.
  public static func segment(parsing answer: [UInt8]) throws(NFCTagError) -> [UInt8] {
    try checkLength(answer, segmentSize)
    return answer
  }

  /// READ8: `02 ADD8`, block `block` (0-255).
  ///
  /// - Throws: ``NFCTagError/Code/invalidAddress`` (offset 1) outside 0-255.
  public static func readBlock(_ block: Int) throws(NFCTagError) -> [UInt8] {
    guard (0...0xFF).contains(block) else { throw NFCTagError(.invalidAddress, offset: 1) }
    return [readBlockCode, UInt8(block)]
  }

  /// The 8 bytes of a READ8 answer.
  ///
  /// - Throws: ``NFCTagError/Code/responseTooShort`` or ``NFCTagError/Code/unexpectedResponse``
  ///   for an answer of other than 8 bytes.
  public static func block(parsing answer: [UInt8]) throws(NFCTagError) -> [UInt8] {
    try checkLength(answer, blockSize)
    return answer
  }

  /// WRITE-E8: `54 ADD8 DATA(8)`, erases and writes block `block` (1-255).
  ///
  /// - Throws: ``NFCTagError/Code/invalidAddress`` (offset 1) outside ``writableBlocks``,
  ///   ``NFCTagError/Code/invalidImageSize`` (offset: the data's length) for other than 8 bytes.
  public static func writeEraseBlock(_ block: Int, _ bytes: [UInt8]) throws(NFCTagError) -> [UInt8] {
    guard writableBlocks.contains(block) else { throw NFCTagError(.invalidAddress, offset: 1) }
    guard bytes.count == blockSize else { throw NFCTagError(.invalidImageSize, offset: bytes.count) }
    return [writeEraseBlockCode, UInt8(block)] + bytes
  }

  /// Checks a WRITE-E8 answer: the block as written.
  ///
  /// - Throws: ``NFCTagError/Code/responseTooShort``, ``NFCTagError/Code/unexpectedResponse``,
  ///   or ``NFCTagError/Code/writeNotConfirmed`` (offset: the first byte that differs).
  public static func writeEraseBlockAnswer(_ answer: [UInt8], written bytes: [UInt8]) throws(NFCTagError) {
    try checkLength(answer, blockSize)
    if let index = answer.indices.first(where: { index in
      index >= bytes.count || answer[index] != bytes[index]
    }) {
      throw NFCTagError(.writeNotConfirmed, offset: index)
    }
  }

  static func checkLength(_ answer: [UInt8], _ length: Int) throws(NFCTagError) {
    guard answer.count >= length else { throw NFCTagError(.responseTooShort, offset: answer.count) }
    guard answer.count == length else { throw NFCTagError(.unexpectedResponse, offset: length) }
  }
}
