// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCTags

/// The NTAG21x and MIFARE Ultralight EV1 commands over any ``Type2PageTransport``:
/// GET_VERSION, READ_SIG, READ_CNT, PWD_AUTH with the PACK check, and setting or removing
/// password protection in the tearing-safe order of `NtagProtectionPlan` (NTAG213/215/216
/// data sheet §8.8, §10; MF0ULX1 §8.6, §9).
///
/// Passwords only travel in PWD_AUTH frames and the PWD page write; no error or
/// description here holds one.
public struct Ntag<Transport: Type2PageTransport>: Sendable {
  /// The transport.
  public let transport: Transport

  /// The commands over `transport`.
  ///
  /// - Parameter transport: the page operations and raw frames.
  public init(transport: Transport) { self.transport = transport }

  /// GET_VERSION (`60`, §10.1); `nil` when the tag refused (MIFARE Ultralight, Ultralight C
  /// and NTAG203 have none; the tag then needs selecting again, which the libnfc
  /// transport does itself).
  ///
  /// - Throws: ``Type2NDEFError/reader(_:)`` when the tag left;
  ///   ``Type2NDEFError/tag(_:)`` for an answer that is not 8 bytes.
  public func version() async throws(Type2NDEFError) -> NtagVersion? {
    let answer: [UInt8]
    do { answer = try await transport.transceive(NtagCommand.getVersion) } catch {
      guard error.code == .tagError else { throw .reader(error) }
      return nil
    }
    do { return try NtagVersion(parsing: answer) } catch { throw .tag(error) }
  }

  /// READ_SIG (`3C 00`, §10.8): the 32-byte ECC originality signature (not verified here).
  ///
  /// - Throws: ``Type2NDEFError/reader(_:)``, ``Type2NDEFError/tag(_:)``.
  public func signature() async throws(Type2NDEFError) -> [UInt8] {
    let answer = try await send(NtagCommand.readSignature)
    do { return try NtagCommand.signature(parsing: answer) } catch { throw .tag(error) }
  }

  /// READ_CNT (`39 counter`, §10.6): the 24-bit counter (NTAG21x: the NFC counter, 02).
  ///
  /// - Parameter counter: the counter's address.
  /// - Throws: ``Type2NDEFError/reader(_:)`` (`ReaderError.Code.tagError` when the tag
  ///   refused: NFC_CNT_PWD_PROT without authentication, or another address),
  ///   ``Type2NDEFError/tag(_:)``.
  public func counter(_ counter: UInt8 = NtagCommand.ntagCounterAddress) async throws(Type2NDEFError)
    -> UInt32
  {
    let answer = try await send(NtagCommand.readCounter(counter))
    do { return try NtagCommand.counter(parsing: answer) } catch { throw .tag(error) }
  }

  /// PWD_AUTH (`1B pwd`, §10.7) and the PACK check.
  ///
  /// - Parameters:
  ///   - password: PWD.
  ///   - acknowledge: the PACK the tag must answer, `nil` to accept any.
  /// - Returns: the tag's PACK.
  /// - Throws: ``Type2NDEFError/reader(_:)`` with `ReaderError.Code.tagError` for a wrong
  ///   password (a NAK; the tag counts it against AUTHLIM) or a tag past its AUTHLIM;
  ///   ``Type2NDEFError/tag(_:)`` with `NFCTagError.Code.passwordAcknowledgeMismatch`.
  @discardableResult
  public func authenticate(_ password: NtagPassword, acknowledge: NtagPasswordAcknowledge? = nil)
    async throws(Type2NDEFError) -> NtagPasswordAcknowledge
  {
    let answer = try await send(NtagCommand.passwordAuthentication(password))
    do { return try NtagCommand.passwordAcknowledge(parsing: answer, expected: acknowledge) } catch {
      throw .tag(error)
    }
  }

  /// CFG0 and CFG1 of `variant` (one READ at CFG0; PWD and PACK read as zeros).
  ///
  /// - Parameter variant: the chip.
  /// - Throws: ``Type2NDEFError/tag(_:)`` with
  ///   `NFCTagError.Code.passwordProtectionNotSupported` (offset 0) for a chip without
  ///   configuration pages, ``Type2NDEFError/reader(_:)`` when the tag refused (the
  ///   configuration pages are read-protected: authenticate first).
  public func configuration(of variant: Type2TagVariant) async throws(Type2NDEFError) -> NtagConfiguration {
    guard let pages = variant.passwordConfigurationPages else {
      throw .tag(NFCTagError(.passwordProtectionNotSupported, offset: 0))
    }
    let bytes: [UInt8]
    do { bytes = try await transport.readPages(pages.configuration0..<pages.configuration0 + 2) } catch {
      throw .reader(error)
    }
    do { return try NtagConfiguration(parsing: bytes) } catch { throw .tag(error) }
  }

  /// Protects pages `firstProtectedPage` to the end: reads CFG0/CFG1, then writes PWD,
  /// PACK, CFG1 (PROT, AUTHLIM) and CFG0 (AUTH0) last (`NtagProtectionPlan`). On a tag
  /// already protected, authenticate first.
  ///
  /// - Parameters:
  ///   - variant: the chip.
  ///   - password: PWD.
  ///   - acknowledge: PACK.
  ///   - firstProtectedPage: AUTH0.
  ///   - readProtected: PROT.
  ///   - attemptLimit: AUTHLIM, 0 (none) to 7.
  /// - Returns: the plan written (its description hides the password).
  /// - Throws: ``Type2NDEFError/tag(_:)`` with the plan's errors (nothing written),
  ///   ``Type2NDEFError/reader(_:)`` for a refused read or write (before CFG0 is written the
  ///   tag stays unprotected).
  @discardableResult
  public func protect(
    _ variant: Type2TagVariant, password: NtagPassword, acknowledge: NtagPasswordAcknowledge,
    firstProtectedPage: UInt8, readProtected: Bool, attemptLimit: UInt8
  ) async throws(Type2NDEFError) -> NtagProtectionPlan {
    let current = try await configuration(of: variant)
    let plan: NtagProtectionPlan
    do {
      plan = try NtagProtectionPlan.protect(
        variant, current: current, password: password, acknowledge: acknowledge,
        firstProtectedPage: firstProtectedPage, readProtected: readProtected, attemptLimit: attemptLimit)
    } catch { throw .tag(error) }
    try await apply(plan)
    return plan
  }

  /// Removes the protection after authenticating with `password`: CFG0 (AUTH0 FFh) first,
  /// then CFG1, PWD and PACK back to their defaults.
  ///
  /// - Parameters:
  ///   - variant: the chip.
  ///   - password: PWD.
  ///   - acknowledge: the expected PACK, `nil` to accept any.
  /// - Returns: the plan written.
  /// - Throws: as ``authenticate(_:acknowledge:)`` and ``protect(_:password:acknowledge:firstProtectedPage:readProtected:attemptLimit:)``.
  @discardableResult
  public func unprotect(
    _ variant: Type2TagVariant, password: NtagPassword, acknowledge: NtagPasswordAcknowledge? = nil
  ) async throws(Type2NDEFError) -> NtagProtectionPlan {
    try await authenticate(password, acknowledge: acknowledge)
    let current = try await configuration(of: variant)
    let plan: NtagProtectionPlan
    do { plan = try NtagProtectionPlan.unprotect(variant, current: current) } catch { throw .tag(error) }
    try await apply(plan)
    return plan
  }

  private func apply(_ plan: NtagProtectionPlan) async throws(Type2NDEFError) {
    for write in plan.writes {
      do { try await transport.writePage(write.block, write.bytes) } catch { throw .reader(error) }
    }
  }

  private func send(_ frame: [UInt8]) async throws(Type2NDEFError) -> [UInt8] {
    do { return try await transport.transceive(frame) } catch { throw .reader(error) }
  }
}
