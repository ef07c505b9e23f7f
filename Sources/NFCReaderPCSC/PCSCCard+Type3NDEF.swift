// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCReader
import NFCTags
import PCSCControl
import Type3NDEF

/// NDEF on a FeliCa (Type 3) storage card: `Type3NDEFProcedure` over ``PCSCType3Transport``
/// (T3T 1.0 §7.4), the same procedure libnfc runs. ``readNDEF(options:access:)``,
/// ``writeNDEF(bytes:access:options:)``, ``formatNDEF(keyB:access:)`` and
/// ``readMemoryImage(access:)`` come here for a card whose ATR names FeliCa.
extension PCSCCard {
  /// The Type 3 procedure for the FeliCa card in this reader, its transport opened (the
  /// transparent session started where that is the route; close it with
  /// ``PCSCType3Transport/close()``).
  ///
  /// - Parameters:
  ///   - access: the reader profile (nil: from the reader name).
  ///   - options: strict or lenient reading of the AIB and the message.
  /// - Throws: ``PCSCNDEFError/reader(_:)`` with the errors of
  ///   ``PCSCType3Transport/open(card:profile:)`` (`ReaderError.Code.unsupportedFeature`
  ///   when the reader cannot pass FeliCa frames, saying why).
  public func type3Procedure(access: PCSCStorageCardAccess, options: TagDecodingOptions = .strict)
    async throws(PCSCNDEFError) -> Type3NDEFProcedure<PCSCType3Transport>
  {
    let profile = access.profile ?? .matching(readerName: reader)
    do {
      return Type3NDEFProcedure(
        transport: try await PCSCType3Transport.open(card: self, profile: profile), options: options)
    } catch { throw .reader(error) }
  }

  /// The message of a FeliCa card (nil for Ln 0).
  func readType3NDEF(options: TagDecodingOptions, access: PCSCStorageCardAccess) async throws(PCSCNDEFError)
    -> NDEFMessage?
  {
    try await withType3(access, options) { procedure throws(Type3NDEFError) in
      try await procedure.readMessage()
    }
  }

  /// Writes encoded NDEF bytes to a FeliCa card in the WriteFlag order (empty: Ln 0, the
  /// Type 3 format of a card that already has an AIB).
  func writeType3NDEF(bytes: [UInt8], access: PCSCStorageCardAccess, options: TagDecodingOptions)
    async throws(PCSCNDEFError)
  {
    _ = try await withType3(access, options) { procedure throws(Type3NDEFError) in
      try await procedure.write(bytes)
    }
  }

  /// A FeliCa card's AIB and Nmaxb blocks.
  func readType3Memory(access: PCSCStorageCardAccess) async throws(PCSCNDEFError) -> [UInt8] {
    try await withType3(access, .strict) { procedure throws(Type3NDEFError) in
      try await procedure.readMemory()
    }
  }

  /// Runs `body` over an opened procedure, then closes its transport (ending a
  /// transparent session) whether `body` failed or not.
  private func withType3<Result: Sendable>(
    _ access: PCSCStorageCardAccess, _ options: TagDecodingOptions,
    _ body: (Type3NDEFProcedure<PCSCType3Transport>) async throws(Type3NDEFError) -> Result
  ) async throws(PCSCNDEFError) -> Result {
    let procedure = try await type3Procedure(access: access, options: options)
    let outcome: Swift.Result<Result, Type3NDEFError>
    do { outcome = .success(try await body(procedure)) } catch { outcome = .failure(error) }
    await procedure.transport.close()
    switch outcome {
    case .success(let value): return value
    case .failure(let error): throw Self.pcscError(error)
    }
  }

  private static func pcscError(_ error: Type3NDEFError) -> PCSCNDEFError {
    switch error {
    case .reader(let failure): .reader(failure)
    case .tag(let failure): .tag(failure)
    }
  }
}
