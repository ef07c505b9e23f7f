// SPDX-License-Identifier: Apache-2.0

/// Direct transmit `FF 00 00 00 Lc payload` (ACS): the payload goes to the reader's
/// contactless chip unchanged. On an ACR122U it is a PN532 command (`D4 40 01 ...`
/// InDataExchange, libnfc `acr122_pcsc.c`); on an ACR1252U a raw FeliCa frame (ACM1252U-Y3
/// p.45). The answer is the chip's, followed by SW1 SW2.
public struct DirectTransmitPseudoAPDU: Sendable, Hashable {
  /// Direct transmit's instruction byte.
  public static let instruction: UInt8 = 0x00

  /// The bytes for the reader's chip.
  public var payload: [UInt8]

  /// Creates a command.
  public init(payload: [UInt8]) { self.payload = payload }

  /// Parses `FF 00 00 00 Lc payload`.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedCommand``, ``PCSCControlError/Code/wrongClass``
  ///   (offset 0), ``PCSCControlError/Code/wrongInstruction`` (offset 1),
  ///   ``PCSCControlError/Code/invalidParameters`` (offset 2 or 3),
  ///   ``PCSCControlError/Code/emptyValue`` and ``PCSCControlError/Code/lengthMismatch``
  ///   (offset 4).
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    let (p1, p2) = try StorageCardCommandParsing.header(bytes, instruction: Self.instruction)
    guard p1 == 0 else { throw PCSCControlError(.invalidParameters, offset: 2) }
    guard p2 == 0 else { throw PCSCControlError(.invalidParameters, offset: 3) }
    payload = try StorageCardCommandParsing.data(bytes)
  }

  /// The command bytes.
  ///
  /// - Throws: ``PCSCControlError/Code/emptyValue``, ``PCSCControlError/Code/valueTooLong``.
  public func encodedBytes() throws(PCSCControlError) -> [UInt8] {
    try StorageCardCommandParsing.command(instruction: Self.instruction, p1: 0x00, p2: 0x00, data: payload)
  }
}
