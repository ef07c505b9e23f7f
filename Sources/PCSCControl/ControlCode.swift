// SPDX-License-Identifier: Apache-2.0

/// A reader control code, the `dwControlCode` of `SCardControl` (PC/SC Part 5 §3.1.10).
///
/// pcsc-lite and Windows build codes from a function number differently (compare
/// pcsc-lite's `reader.h` with the Windows DDK's `winsmcrd.h`): see ``pcscLite(_:)`` and
/// ``windows(_:)``. A value from a reader's feature list is already a complete code.
public struct ControlCode: RawRepresentable, Sendable, Hashable {
  /// The 32-bit code as `SCardControl` takes it.
  public let rawValue: UInt32

  /// Creates a code from its value.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The pcsc-lite base of `SCARD_CTL_CODE`.
  public static let pcscLiteBase: UInt32 = 0x4200_0000
  /// `FILE_DEVICE_SMARTCARD` (0x31) in bits 16-31, as Windows' `CTL_CODE` places it.
  public static let windowsBase: UInt32 = 0x0031_0000

  /// pcsc-lite's `SCARD_CTL_CODE(code)`: `0x42000000 + code` (pcsc-lite `reader.h`).
  public static func pcscLite(_ function: UInt16) -> ControlCode {
    ControlCode(rawValue: pcscLiteBase &+ UInt32(function))
  }

  /// Windows' `SCARD_CTL_CODE(code)`: `CTL_CODE(FILE_DEVICE_SMARTCARD, code,
  /// METHOD_BUFFERED, FILE_ANY_ACCESS)` = `(0x31 << 16) + (code << 2)` (`winsmcrd.h`;
  /// pcsc-lite's `reader.h` notes the difference). Function numbers above 4095 do not fit
  /// the 12-bit function field and are masked to it.
  public static func windows(_ function: UInt16) -> ControlCode {
    ControlCode(rawValue: windowsBase | (UInt32(function & 0x0FFF) << 2))
  }

  /// The function number when this is a pcsc-lite `SCARD_CTL_CODE`, else nil.
  public var pcscLiteFunction: UInt16? {
    guard rawValue >= Self.pcscLiteBase, rawValue - Self.pcscLiteBase <= 0xFFFF else { return nil }
    return UInt16(rawValue - Self.pcscLiteBase)
  }

  /// The function number when this is a Windows smart-card `CTL_CODE` (device type 0x31,
  /// `METHOD_BUFFERED`, `FILE_ANY_ACCESS`), else nil.
  public var windowsFunction: UInt16? {
    guard rawValue & 0xFFFF_C003 == Self.windowsBase else { return nil }
    return UInt16((rawValue >> 2) & 0x0FFF)
  }

  /// `CM_IOCTL_GET_FEATURE_REQUEST`, `SCARD_CTL_CODE(3400)` on pcsc-lite (PC/SC Part 10
  /// §2.2; `reader.h`): asks the reader for its feature list.
  public static let getFeatureRequest = ControlCode.pcscLite(3400)
  /// `IOCTL_SMARTCARD_VENDOR_IFD_EXCHANGE`, `SCARD_CTL_CODE(1)` on pcsc-lite: the CCID
  /// driver's escape code (`PC_to_RDR_Escape`), the usual value of
  /// ``ReaderFeature/ccidEscapeCommand``.
  public static let ccidEscape = ControlCode.pcscLite(1)
  /// `SCARD_CTL_CODE(3500)` as Windows computes it (0x003136B0): the escape code the ACS
  /// reference manuals give for their readers' `E0 00 00 ...` commands on Windows.
  public static let acsEscapeWindows = ControlCode.windows(3500)
}
