// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCReader
import NFCWire
import PCSCControl
import Type3NDEF

/// Check and Update of a FeliCa (Type 3) tag's NDEF blocks in a contactless PC/SC reader.
/// FeliCa has no portable Part 3 pseudo-APDU (PC/SC storage-card notes rule 16), so the raw
/// FeliCa frames of `FeliCaBlockFrame` travel on the reader's ``PCSCRawFrameRoute``, as the
/// Type 2 transport's NTAG commands do: the transparent session (started at ``open(card:profile:)``,
/// ended at ``close()``), direct transmit, or an ACR122U's PN532.
///
/// The IDm every frame carries is the UID that GET DATA `FF CA 00 00 00` answers. A profile
/// with no route, and a reader that answers 6A81 to the route, give
/// `ReaderError.Code.unsupportedFeature` saying why.
public struct PCSCType3Transport: Type3BlockTransport {
  /// The connected card.
  public let card: PCSCCard
  /// The route the frames take.
  public let route: PCSCRawFrameRoute
  /// The tag's IDm (8 bytes, from GET DATA).
  public let idm: [UInt8]

  /// The most blocks per command: 15 through direct transmit (a 253-byte Check answer and
  /// 9000), 14 through the transparent session (the answer's `C0 03 00 90 00 97 81 L`
  /// wrapping must fit a short response of 256 bytes) and through a PN532 (`D5 41 00` and
  /// the answer in a normal frame of 254 bytes, PN532 user manual §6.2.1.1).
  public var maximumBlocksPerCommand: Int {
    route == .directTransmit ? FeliCaBlockFrame.maximumCheckBlocks : 14
  }

  /// A transport with a known route and IDm; sends nothing.
  ///
  /// - Parameters:
  ///   - card: the card, a FeliCa tag by its storage-card ATR.
  ///   - route: how frames reach the tag.
  ///   - idm: the tag's 8-byte IDm.
  public init(card: PCSCCard, route: PCSCRawFrameRoute, idm: [UInt8]) {
    self.card = card
    self.route = route
    self.idm = idm
  }

  /// Opens the transport: picks the profile's route, reads the IDm with GET DATA and, on
  /// the transparent-session route, starts the session.
  ///
  /// - Parameters:
  ///   - card: the card, a FeliCa tag by its storage-card ATR.
  ///   - profile: the reader's profile.
  /// - Throws: `ReaderError.Code.unsupportedFeature` when the profile has neither direct
  ///   transmit nor the transparent session, or the reader answers 6A81 to GET DATA or to
  ///   Start Session; `ReaderError.Code.tagError` for an IDm of other than 8 bytes or a
  ///   refused session; `ReaderError.Code.tagLost` when the tag left.
  public static func open(card: PCSCCard, profile: StorageCardReaderProfile) async throws(ReaderError)
    -> PCSCType3Transport
  {
    guard let route = PCSCRawFrameRoute.route(for: profile, readerName: card.reader) else {
      throw ReaderError(
        .unsupportedFeature,
        "FeliCa Check/Update need raw frames, and \(card.reader) (profile \(profile.identifier)) has neither "
          + "direct transmit (FF 00 00 00) nor the transparent session (FF C2)")
    }
    let idm: [UInt8]
    switch try await card.getData(.uid) {
    case .complete(let bytes) where bytes.count == 8: idm = bytes
    case .notSupported:
      throw ReaderError(
        .unsupportedFeature, "\(card.reader) answers 6A81 (function not supported) to GET DATA UID")
    case let answer:
      throw ReaderError(.tagError, "GET DATA UID answered \(answer), not an 8-byte IDm")
    }
    let transport = PCSCType3Transport(card: card, route: route, idm: idm)
    if route == .transparentSession {
      _ = try await card.transparentSession(.startSession, "Start Session")
    }
    return transport
  }

  /// Ends the transparent session (nothing on direct transmit); failures are ignored, the
  /// card may have left.
  public func close() async {
    guard route == .transparentSession else { return }
    _ = try? await card.transparentSession(.endSession, "End Session")
  }

  /// Check of `blocks` of service `000B`.
  ///
  /// - Throws: as `Type3BlockTransport.check(_:)`.
  public func check(_ blocks: Range<Int>) async throws(ReaderError) -> [UInt8] {
    let answer = try await card.exchangeRawFrame(
      FeliCaBlockFrame.check(idm: idm, blocks: blocks), on: route, what: "Check")
    return try FeliCaBlockFrame.checkAnswer(answer, idm: idm, blockCount: blocks.count)
  }

  /// Update of `blocks` of service `0009`.
  ///
  /// - Throws: as `Type3BlockTransport.update(_:_:)`.
  public func update(_ blocks: Range<Int>, _ data: [UInt8]) async throws(ReaderError) {
    let answer = try await card.exchangeRawFrame(
      FeliCaBlockFrame.update(idm: idm, blocks: blocks, data: data), on: route, what: "Update")
    try FeliCaBlockFrame.updateAnswer(answer, idm: idm)
  }
}
