// SPDX-License-Identifier: Apache-2.0
/// The header ROM of a Type 1 tag, HR0 and HR1, returned by RID and RALL before the
/// memory (T1T 1.2 §2.1, Digital Protocol §9.6).
public struct Type1HeaderROM: Sendable, Hashable {
  /// HR0: 0x11 for static memory, 0x12 (or 0x1x, x ≠ 1) for dynamic memory.
  public var hr0: UInt8
  /// HR1: reserved by the NFC Forum.
  public var hr1: UInt8

  /// Creates a header ROM.
  public init(hr0: UInt8, hr1: UInt8 = 0x00) {
    self.hr0 = hr0
    self.hr1 = hr1
  }

  /// Whether HR0's upper nibble is 0x1: the tag is NDEF capable (T1T §2.1).
  public var isNDEFCapable: Bool { hr0 & 0xF0 == 0x10 }
  /// Whether HR0 announces the static layout (lower nibble 0x1).
  public var isStatic: Bool { hr0 & 0x0F == 0x01 }
}
