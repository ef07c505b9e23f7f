// SPDX-License-Identifier: Apache-2.0

/// Typed builders for ACS readers' vendor commands, from the ACS reference manuals
/// (facts only): the ACR1252U-family escape commands (`E0 00 00 ...`, sent with
/// `SCardControl` on the escape code: ``ControlCode/ccidEscape`` through pcsc-lite's CCID
/// driver, ``ControlCode/acsEscapeWindows`` on Windows), and the ACR122U's pseudo-APDUs
/// (`FF 00 ...`, sent with `SCardTransmit`).
public enum ACSEscapeCommand {
  /// ACR1252U escape "Get Firmware Version": `E0 00 00 18 00`.
  public static let getFirmwareVersion: [UInt8] = [0xE0, 0x00, 0x00, 0x18, 0x00]

  /// ACR1252U escape "LED Control": `E0 00 00 29 01 XX`, bit 0 red, bit 1 green.
  public static func ledControl(red: Bool, green: Bool) -> [UInt8] {
    [0xE0, 0x00, 0x00, 0x29, 0x01, (red ? 0x01 : 0x00) | (green ? 0x02 : 0x00)]
  }

  /// ACR1252U escape "Buzzer Control": `E0 00 00 28 01 XX`, XX the duration in units of
  /// 10 ms (00 off; clamped to 0xFF = 2.55 s).
  public static func buzzer(milliseconds: Int) -> [UInt8] {
    [0xE0, 0x00, 0x00, 0x28, 0x01, UInt8(min(max(milliseconds / 10, 0), 0xFF))]
  }

  /// ACR122U pseudo-APDU "Bi-Color LED and Buzzer Control": `FF 00 40 P2 04 T1 T2 N B`,
  /// P2 the LED state control byte, T1/T2 the blink on/off durations in units of 100 ms,
  /// N the repetitions, B the buzzer link (0 off, 1 during T1, 2 during T2, 3 both).
  public static func acr122LEDAndBuzzer(
    ledState: UInt8, onDuration: UInt8, offDuration: UInt8, repetitions: UInt8, buzzer: UInt8
  ) -> [UInt8] {
    [0xFF, 0x00, 0x40, ledState, 0x04, onDuration, offDuration, repetitions, buzzer & 0x03]
  }

  /// ACR122U pseudo-APDU "Direct Transmit" of the PN532 command RFConfiguration (item 1,
  /// RF field): `FF 00 00 00 04 D4 32 01 0X`, X 1 on, 0 off.
  public static func acr122Antenna(on: Bool) -> [UInt8] {
    [0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x32, 0x01, on ? 0x01 : 0x00]
  }
}
