// SPDX-License-Identifier: Apache-2.0
/// A fault the simulator injects into the next exchanges with the tag.
public enum SimulatorFault: Sendable, Hashable {
  /// The next `count` InDataExchange/InCommunicateThru commands are acknowledged but never
  /// answered (the host times out).
  case noAnswer(count: Int)
  /// The tag leaves the field after `exchanges` more successful exchanges (a tag leaving
  /// mid-read); the PN532 then reports a timeout (status 0x01).
  case tagLeaves(afterExchanges: Int)
  /// The next `count` APDUs to a Type 4 tag are answered with this status word only.
  case statusWord(UInt16, count: Int)
  /// From now on the device acknowledges and answers nothing (a hung reader).
  case silentDevice
  /// From now on the device answers this command code with the syntax-error frame
  /// (a PN53x that does not support it; libnfc reports `NFC_EIO`).
  case refuse(command: UInt8)
}
