// SPDX-License-Identifier: Apache-2.0

import NFCReader
import PCSCControl

/// Typed reader control on a connection: PC/SC Part 10 feature discovery and properties,
/// Part 3 GET DATA pseudo-APDUs, control codes as `ControlCode`.
extension PCSCCard {
  /// Sends `code` with `input` (`SCardControl`).
  ///
  /// - Throws: `ReaderError` with the PC/SC code (`SCARD_E_UNSUPPORTED_FEATURE`,
  ///   as `ReaderError.Code.unsupportedFeature`, for a code the driver does not know).
  public func control(_ code: ControlCode, _ input: [UInt8] = []) async throws(ReaderError) -> [UInt8] {
    try await control(UInt(code.rawValue), input)
  }

  /// The reader's features (`CM_IOCTL_GET_FEATURE_REQUEST`, PC/SC Part 10 §2.2). A reader
  /// whose driver does not know the request has none: the list is empty.
  ///
  /// - Throws: `ReaderError`: the PC/SC code of another failure, or
  ///   `ReaderError.Code.tagError` when the answer does not parse (the
  ///   `PCSCControlError` named in the message).
  public func features() async throws(ReaderError) -> FeatureList {
    let answer: [UInt8]
    do {
      answer = try await control(.getFeatureRequest)
    } catch  where error.code == .unsupportedFeature {
      return FeatureList(entries: [])
    }
    do throws(PCSCControlError) {
      return try FeatureList(parsing: answer)
    } catch {
      throw ReaderError(.tagError, "feature list does not parse: \(error.code) at byte \(error.offset)")
    }
  }

  /// The reader's TLV properties (`FEATURE_GET_TLV_PROPERTIES`, PC/SC Part 10 §2.6.14), or
  /// nil when `features` lacks that feature.
  ///
  /// - Throws: as ``features()``.
  public func tlvProperties(features: FeatureList) async throws(ReaderError) -> TLVProperties? {
    guard let code = features.controlCode(for: .getTLVProperties) else { return nil }
    let answer = try await control(code)
    do throws(PCSCControlError) {
      return try TLVProperties(parsing: answer)
    } catch {
      throw ReaderError(.tagError, "TLV properties do not parse: \(error.code) at byte \(error.offset)")
    }
  }

  /// PC/SC Part 3 GET DATA (`FF CA P1 00 Le`) through `SCardTransmit`, interpreted.
  ///
  /// - Throws: `ReaderError` with the PC/SC code of a failed exchange.
  public func getData(_ item: GetDataPseudoAPDU.Item, expectedLength: UInt8 = 0) async throws(ReaderError)
    -> GetDataPseudoAPDU.Answer
  {
    let response = try await transmit(GetDataPseudoAPDU.command(item, expectedLength: expectedLength))
    do throws(PCSCControlError) {
      return try GetDataPseudoAPDU.answer(parsing: response)
    } catch {
      throw ReaderError(.tagError, "GET DATA answer too short (\(response.count) bytes)")
    }
  }
}
