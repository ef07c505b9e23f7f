// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The page writes that set or remove password protection on an NTAG21x or Ultralight EV1
/// in an order that is safe against tearing (NTAG213/215/216 data sheet §8.8, §8.5.7):
///
/// - protect: PWD, then PACK, then CFG1 (PROT, AUTHLIM), then CFG0 (AUTH0) last. Until
///   AUTH0 is written nothing is protected, so a write cut early leaves an open tag, never
///   one locked behind a password that was not fully written.
/// - unprotect (after PWD_AUTH): CFG0 with AUTH0 = FFh first, which ends the protection at
///   once, then CFG1 (PROT and AUTHLIM cleared), then PWD and PACK back to their defaults.
///
/// Other bits and bytes of CFG0 and CFG1 (MIRROR, NFC counter...) keep the values read from
/// the tag. ``description`` names the pages but never shows the password.
public struct NtagProtectionPlan: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
  /// The page writes in the order they must be sent; the PWD write holds the password.
  public let writes: [TagWrite]
  /// The pages the plan writes.
  public let pages: NtagConfigurationPages
  /// AUTH0 the plan writes (FFh when unprotecting).
  public let firstProtectedPage: UInt8

  /// AUTH0 that turns protection off.
  public static let unprotectedPage: UInt8 = 0xFF

  /// The plan that protects pages `firstProtectedPage` to the end with `password`.
  ///
  /// - Parameters:
  ///   - variant: the chip, which fixes the configuration pages.
  ///   - current: CFG0 and CFG1 as read from the tag.
  ///   - password: PWD, the 4-byte password.
  ///   - acknowledge: PACK, the 2 bytes the tag answers a right PWD_AUTH with.
  ///   - firstProtectedPage: AUTH0, the first page the password guards.
  ///   - readProtected: PROT: the password guards reads too, not only writes.
  ///   - attemptLimit: AUTHLIM, 0 (no limit) to 7.
  /// - Throws: ``NFCTagError/Code/passwordProtectionNotSupported`` (offset 0),
  ///   ``NFCTagError/Code/configurationLocked`` (offset: CFG1's first byte),
  ///   ``NFCTagError/Code/invalidAuthenticationLimit`` (offset 0),
  ///   ``NFCTagError/Code/invalidPageRange`` (offset 0: AUTH0 past the last page protects
  ///   nothing).
  public static func protect(
    _ variant: Type2TagVariant, current: NtagConfiguration, password: NtagPassword,
    acknowledge: NtagPasswordAcknowledge, firstProtectedPage: UInt8, readProtected: Bool, attemptLimit: UInt8
  ) throws(NFCTagError) -> NtagProtectionPlan {
    let pages = try check(variant, current)
    guard attemptLimit <= 7 else { throw NFCTagError(.invalidAuthenticationLimit, offset: 0) }
    guard Int(firstProtectedPage) < variant.pageCount else { throw NFCTagError(.invalidPageRange, offset: 0) }
    var next = current
    next.access = current.access.with(readProtected: readProtected, authenticationLimit: attemptLimit)
    next.firstProtectedPage = firstProtectedPage
    return NtagProtectionPlan(
      writes: [
        write(pages.password, password.bytes),
        write(pages.passwordAcknowledge, acknowledge.bytes + [0x00, 0x00]),
        write(pages.configuration1, next.configuration1),
        write(pages.configuration0, next.configuration0),
      ], pages: pages, firstProtectedPage: firstProtectedPage)
  }

  /// The plan that removes protection (send it after a successful PWD_AUTH).
  ///
  /// - Throws: ``NFCTagError/Code/passwordProtectionNotSupported`` (offset 0),
  ///   ``NFCTagError/Code/configurationLocked`` (offset: CFG1's first byte).
  public static func unprotect(_ variant: Type2TagVariant, current: NtagConfiguration) throws(NFCTagError)
    -> NtagProtectionPlan
  {
    let pages = try check(variant, current)
    var next = current
    next.firstProtectedPage = unprotectedPage
    next.access = current.access.with(readProtected: false, authenticationLimit: 0)
    return NtagProtectionPlan(
      writes: [
        write(pages.configuration0, next.configuration0),
        write(pages.configuration1, next.configuration1),
        write(pages.password, NtagPassword.factoryDefault.bytes),
        write(pages.passwordAcknowledge, NtagPasswordAcknowledge.factoryDefault.bytes + [0x00, 0x00]),
      ], pages: pages, firstProtectedPage: unprotectedPage)
  }

  /// "protect: PWD 0x2B (hidden), PACK 0x2C, CFG1 0x2A, CFG0 0x29 (AUTH0 0x04)".
  public var description: String {
    let names = writes.map { write -> String in
      switch write.block {
      case pages.password: "PWD \(Self.hex(write.block)) (hidden)"
      case pages.passwordAcknowledge: "PACK \(Self.hex(write.block))"
      case pages.configuration1: "CFG1 \(Self.hex(write.block))"
      default: "CFG0 \(Self.hex(write.block)) (AUTH0 \(Self.hex(Int(firstProtectedPage))))"
      }
    }
    let kind = firstProtectedPage == Self.unprotectedPage ? "unprotect" : "protect"
    var text = kind + ":"
    for (i, name) in names.enumerated() { text += (i == 0 ? " " : ", ") + name }
    return text
  }

  /// The same as ``description``: the password never appears in debug output either.
  public var debugDescription: String { description }

  private static func check(_ variant: Type2TagVariant, _ current: NtagConfiguration) throws(NFCTagError)
    -> NtagConfigurationPages
  {
    guard let pages = variant.passwordConfigurationPages else {
      throw NFCTagError(.passwordProtectionNotSupported, offset: 0)
    }
    guard !current.access.configurationLocked else {
      throw NFCTagError(.configurationLocked, offset: pages.configuration1 &* Type2Tag.pageSize)
    }
    return pages
  }

  private static func write(_ page: Int, _ bytes: [UInt8]) -> TagWrite {
    TagWrite(block: page, offset: page &* Type2Tag.pageSize, bytes: bytes)
  }

  private static func hex(_ value: Int) -> String {
    "0x" + Hex.uppercaseString([UInt8(truncatingIfNeeded: value)])
  }
}

#if !hasFeature(Embedded)
  extension NtagProtectionPlan: CustomReflectable {
    /// A mirror without the writes (the PWD write holds the password), so `dump` does not
    /// show it (Embedded Swift has no reflection).
    public var customMirror: Mirror {
      Mirror(
        self,
        children: ["pages": pages, "firstProtectedPage": firstProtectedPage, "writeCount": writes.count])
    }
  }
#endif
