// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCReader
import NFCWire
import PCSCControl
import Type3NDEF

/// Check and Update of a FeliCa (Type 3) tag's NDEF blocks in a contactless PC/SC reader.
/// FeliCa has no portable Part 3 pseudo-APDU (PC/SC storage-card notes rule 16), so the raw
/// FeliCa frames of `FeliCaBlockFrame` travel the way the reader profile says:
///
/// - ``Route/transparentSession``: the Part 3 supplement's transparent session, `FF C2 00 00`
///   Start Session (`81 00`) once, then one Transparent Exchange `FF C2 00 01 Lc 95 L frame`
///   per command, whose answer is `C0 03 00 90 00` and `97 L answer`; End Session (`82 00`)
///   at ``close()``.
/// - ``Route/directTransmit``: direct transmit `FF 00 00 00 Lc frame`, the answer frame and
///   9000 (ACS ACR1252U, ACM1252U-Y3 manual p.45).
/// - ``Route/pn532InDataExchange``: direct transmit to an ACR122U's PN532, the frame inside
///   InDataExchange `D4 40 01 frame`, answered `D5 41 00 frame` and 9000 (ACR122T API §7.3).
///
/// The IDm every frame carries is the UID that GET DATA `FF CA 00 00 00` answers. A profile
/// with neither route, and a reader that answers 6A81 to the route, give
/// `ReaderError.Code.unsupportedFeature` saying why.
public struct PCSCType3Transport: Type3BlockTransport {
  /// How FeliCa frames reach the tag.
  public enum Route: Sendable, Hashable {
    /// Direct transmit `FF 00 00 00` (ACS).
    case directTransmit
    /// The transparent session `FF C2` (PC/SC Part 3 supplement), Transceive object `95`.
    case transparentSession
    /// Direct transmit carrying a PN532 InDataExchange for target 1 (ACR122U).
    case pn532InDataExchange
  }

  /// The connected card.
  public let card: PCSCCard
  /// The route the frames take.
  public let route: Route
  /// The tag's IDm (8 bytes, from GET DATA).
  public let idm: [UInt8]

  /// The most blocks per command: 15 through direct transmit (a 253-byte Check answer and
  /// 9000), 14 through the transparent session (the answer's `C0 03 00 90 00 97 81 L`
  /// wrapping must fit a short response of 256 bytes) and through a PN532 (`D5 41 00` and
  /// the answer in a normal frame of 254 bytes, PN532 user manual §6.2.1.1).
  public var maximumBlocksPerCommand: Int {
    route == .directTransmit ? FeliCaBlockFrame.maximumCheckBlocks : 14
  }

  /// The route `profile` offers for FeliCa frames: the transparent session when the
  /// profile has it (the standard one), else direct transmit (wrapped in a PN532
  /// InDataExchange when the reader name says ACR122), else nil.
  ///
  /// - Parameters:
  ///   - profile: the reader's profile.
  ///   - readerName: the PC/SC reader name.
  public static func route(for profile: StorageCardReaderProfile, readerName: String = "") -> Route? {
    if profile.hasTransparentSession { return .transparentSession }
    guard profile.hasDirectTransmit else { return nil }
    return readerName.lowercased().contains("acr122") ? .pn532InDataExchange : .directTransmit
  }

  /// A transport with a known route and IDm; sends nothing.
  ///
  /// - Parameters:
  ///   - card: the card, a FeliCa tag by its storage-card ATR.
  ///   - route: how frames reach the tag.
  ///   - idm: the tag's 8-byte IDm.
  public init(card: PCSCCard, route: Route, idm: [UInt8]) {
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
    guard let route = route(for: profile, readerName: card.reader) else {
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
      _ = try await transport.session(.startSession, "Start Session")
    }
    return transport
  }

  /// Ends the transparent session (nothing on direct transmit); failures are ignored, the
  /// card may have left.
  public func close() async {
    guard route == .transparentSession else { return }
    _ = try? await session(.endSession, "End Session")
  }

  /// Check of `blocks` of service `000B`.
  ///
  /// - Throws: as `Type3BlockTransport.check(_:)`.
  public func check(_ blocks: Range<Int>) async throws(ReaderError) -> [UInt8] {
    let answer = try await exchange(FeliCaBlockFrame.check(idm: idm, blocks: blocks), "Check")
    return try FeliCaBlockFrame.checkAnswer(answer, idm: idm, blockCount: blocks.count)
  }

  /// Update of `blocks` of service `0009`.
  ///
  /// - Throws: as `Type3BlockTransport.update(_:_:)`.
  public func update(_ blocks: Range<Int>, _ data: [UInt8]) async throws(ReaderError) {
    let answer = try await exchange(FeliCaBlockFrame.update(idm: idm, blocks: blocks, data: data), "Update")
    try FeliCaBlockFrame.updateAnswer(answer, idm: idm)
  }

  /// Sends one FeliCa frame on the route and returns the tag's answer frame.
  private func exchange(_ frame: [UInt8], _ what: String) async throws(ReaderError) -> [UInt8] {
    switch route {
    case .directTransmit, .pn532InDataExchange:
      let pn532 = route == .pn532InDataExchange
      let command: [UInt8]
      do {
        command = try DirectTransmitPseudoAPDU(payload: pn532 ? Self.inDataExchange + frame : frame)
          .encodedBytes()
      } catch {
        throw ReaderError(.invalidArgument, "direct transmit: \(error)")
      }
      let response = try await card.transmit(command)
      guard response.count >= 2 else {
        throw ReaderError(.tagError, "\(what): a response without status word")
      }
      let sw = StatusWord(sw1: response[response.count - 2], sw2: response[response.count - 1])
      guard sw == .success else { throw refusal(sw, "\(what) through direct transmit") }
      guard pn532 else { return Array(response.dropLast(2)) }
      guard response.count >= 5, response[0] == 0xD5, response[1] == 0x41 else {
        throw ReaderError(.tagError, "\(what): the PN532 answered no InDataExchange response")
      }
      guard response[2] & 0x3F == 0 else {
        throw ReaderError(
          .tagError,
          "\(what): the PN532 reports status \(Hex.uppercaseString([response[2]])) (no answer from the tag?)")
      }
      return Array(response[3..<(response.count - 2)])
    case .transparentSession:
      let response = try await session(.transceive(frame), "\(what) through the transparent session")
      guard let answer = response.cardData else {
        throw ReaderError(.tagError, "\(what): the transparent session answered no card data (97)")
      }
      return answer
    }
  }

  /// One transparent-session command carrying `object`.
  private func session(_ object: TransparentDataObject, _ what: String) async throws(ReaderError)
    -> TransparentSessionResponse
  {
    let function: TransparentSessionPseudoAPDU.Function =
      object.tag == TransparentDataObject.transceive([]).tag ? .transparentExchange : .manageSession
    let command: [UInt8]
    do {
      command = try TransparentSessionPseudoAPDU(function: function, objects: [object]).encodedBytes()
    } catch {
      throw ReaderError(.invalidArgument, "transparent session: \(error)")
    }
    let answer: TransparentSessionPseudoAPDU.Answer
    do { answer = try TransparentSessionPseudoAPDU.answer(parsing: try await card.transmit(command)) } catch {
      throw ReaderError(.tagError, "\(what): malformed transparent-session answer (\(error))")
    }
    switch answer {
    case .completed(let response): return response
    case .failed(let sw): throw refusal(sw, what)
    case .objectFailed(_, let sw) where sw.rawValue == 0x6A81: throw refusal(sw, what)
    case .objectFailed(_, let sw):
      throw ReaderError(.tagError, "\(what): the reader reports \(Self.hex(sw)) (no answer from the tag?)")
    }
  }

  /// `unsupportedFeature` for 6A81 (the reader cannot do it), `tagError` otherwise.
  private func refusal(_ sw: StatusWord, _ what: String) -> ReaderError {
    if sw.rawValue == 0x6A81 {
      return ReaderError(
        .unsupportedFeature, "\(card.reader) answers 6A81 (function not supported) to \(what)")
    }
    return ReaderError(.tagError, "\(what) answered \(Self.hex(sw))")
  }

  /// PN532 InDataExchange for target 1 (PN532 user manual §7.3.8).
  static let inDataExchange: [UInt8] = [0xD4, 0x40, 0x01]

  private static func hex(_ sw: StatusWord) -> String { Hex.uppercaseString([sw.sw1, sw.sw2]) }
}
