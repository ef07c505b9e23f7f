// SPDX-License-Identifier: Apache-2.0

/// The PN532's InDataExchange command and answer (PN532 user manual §7.3.8), the wrap a reader
/// built on a PN532 (ACS ACR122U: ACR122T API §7.3) puts around a tag frame in its direct
/// transmit: `D4 40 Tg DataOut` to the chip, `D5 41 Status DataIn` back.
public enum PN532DataExchange {
  /// The frame identifier of a command from the host (TFI `D4`).
  public static let hostToChip: UInt8 = 0xD4
  /// The frame identifier of an answer from the chip (TFI `D5`).
  public static let chipToHost: UInt8 = 0xD5
  /// InDataExchange's command code; its answer's code is `41`.
  public static let commandCode: UInt8 = 0x40
  /// The most DataOut bytes one InDataExchange takes (§7.3.8: 262).
  public static let maximumDataLength = 262

  /// `D4 40 Tg frame`: `frame` for logical target `target` (1 for the first target found).
  ///
  /// - Throws: ``NFCTagError/Code/frameTooLong`` (offset 262) for a frame over 262 bytes.
  public static func command(_ frame: [UInt8], target: UInt8 = 1) throws(NFCTagError) -> [UInt8] {
    guard frame.count <= maximumDataLength else {
      throw NFCTagError(.frameTooLong, offset: maximumDataLength)
    }
    return [hostToChip, commandCode, target] + frame
  }

  /// The tag's answer inside `D5 41 Status DataIn`.
  ///
  /// - Throws: ``NFCTagError/Code/responseTooShort`` (offset: the answer's end) for fewer than
  ///   3 bytes, ``NFCTagError/Code/unexpectedResponse`` (offset 0 or 1) for another frame
  ///   identifier or answer code, ``NFCTagError/Code/pn532Error`` (offset 2) when the status
  ///   byte's error code (bits 5-0) is not 0: the tag did not answer (01), a CRC or parity
  ///   error (02, 03), a NAK or another failure (§7.1 error codes).
  public static func answer(parsing answer: [UInt8]) throws(NFCTagError) -> [UInt8] {
    guard answer.count >= 3 else { throw NFCTagError(.responseTooShort, offset: answer.count) }
    guard answer[0] == chipToHost else { throw NFCTagError(.unexpectedResponse, offset: 0) }
    guard answer[1] == commandCode &+ 1 else { throw NFCTagError(.unexpectedResponse, offset: 1) }
    guard answer[2] & 0x3F == 0 else { throw NFCTagError(.pn532Error, offset: 2) }
    return Array(answer[3...])
  }
}
