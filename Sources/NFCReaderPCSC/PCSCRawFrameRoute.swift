// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCReader
import NFCTags
import NFCWire
import PCSCControl
import Type3NDEF

/// How raw tag frames (a tag command without its CRC: NTAG's GET_VERSION, FAST_READ or
/// PWD_AUTH, FeliCa's Check and Update) reach the tag in a contactless PC/SC reader. PC/SC
/// Part 3 has pseudo-APDUs for reading, writing and authenticating only, so each reader
/// family passes other commands its own way; the Type 2 and Type 3 transports both send
/// their frames through ``PCSCCard/exchangeRawFrame(_:on:what:)``.
public enum PCSCRawFrameRoute: Sendable, Hashable {
  /// The PC/SC Part 3 supplement's transparent session: Start Session (`FF C2 00 00 02 81
  /// 00`) once, then one Transparent Exchange `FF C2 00 01 Lc 95 L frame` per frame, whose
  /// answer is the generic status `C0 03 00 90 00` and the tag's answer in `97`.
  case transparentSession
  /// Direct transmit `FF 00 00 00 Lc frame`, answered with the tag's answer and 9000: the
  /// reader's firmware passes the frame to the tag (ACS ACR1252U, ACM1252U-Y3 manual p.45).
  case directTransmit
  /// Direct transmit to an ACR122U, whose direct transmit reaches its PN532 (ACR122T API
  /// §7.3): the frame inside InDataExchange for target 1, `D4 40 01 frame`, answered `D5 41
  /// status answer` and 9000 (PN532 user manual §7.3.8; status 00 is success, 01 a
  /// timeout).
  case pn532InDataExchange

  /// The route a reader offers: the transparent session where the profile has it (the
  /// standard one), else direct transmit, through the PN532 when the reader name says
  /// ACR122; `nil` when the profile has neither.
  ///
  /// - Parameters:
  ///   - profile: the reader's profile.
  ///   - readerName: the PC/SC reader name.
  public static func route(for profile: StorageCardReaderProfile, readerName: String) -> PCSCRawFrameRoute? {
    if profile.hasTransparentSession { return .transparentSession }
    guard profile.hasDirectTransmit else { return nil }
    return readerName.lowercased().contains("acr122") ? .pn532InDataExchange : .directTransmit
  }
}

extension PCSCCard {
  /// Sends one raw tag frame on `route` and returns the tag's answer. The frame (a PWD_AUTH
  /// holds a password) is never put into an error; errors name `what`.
  ///
  /// - Parameters:
  ///   - frame: the tag command, command code first, without CRC.
  ///   - route: how the reader passes it.
  ///   - what: the command's name for errors.
  /// - Throws: `ReaderError.Code.unsupportedFeature` when the reader answers 6A81 (function
  ///   not supported), `ReaderError.Code.tagError` for a NAK, no answer or another status,
  ///   `ReaderError.Code.invalidArgument` for a frame too long for the route,
  ///   `ReaderError.Code.tagLost` when the tag left.
  public func exchangeRawFrame(_ frame: [UInt8], on route: PCSCRawFrameRoute, what: String)
    async throws(ReaderError) -> [UInt8]
  {
    switch route {
    case .directTransmit, .pn532InDataExchange:
      let pn532 = route == .pn532InDataExchange
      var payload = frame
      if pn532 {
        do throws(NFCTagError) { payload = try PN532DataExchange.command(frame) } catch {
          throw ReaderError(frame: error, what)
        }
      }
      let command: [UInt8]
      do {
        command = try DirectTransmitPseudoAPDU(payload: payload).encodedBytes()
      } catch {
        throw ReaderError(.invalidArgument, "\(what) does not fit direct transmit: \(error.code)")
      }
      let response = try await transmit(command)
      guard response.count >= 2 else {
        throw ReaderError(.tagError, "direct transmit of \(what): no status word")
      }
      let sw = StatusWord(sw1: response[response.count - 2], sw2: response[response.count - 1])
      guard sw == .success else { throw refusal(sw, "direct transmit of \(what)") }
      let answer = Array(response.dropLast(2))
      guard pn532 else { return answer }
      do throws(NFCTagError) { return try PN532DataExchange.answer(parsing: answer) } catch {
        guard error.code == .pn532Error else {
          throw ReaderError(.tagError, "\(what): the PN532 answered no InDataExchange response")
        }
        throw ReaderError(
          .tagError,
          "\(what): the PN532 reports status \(Hex.uppercaseString([answer[2]])) (a NAK or no answer)")
      }
    case .transparentSession:
      let response = try await transparentSession(.transceive(frame), "transparent exchange of \(what)")
      guard let answer = response.cardData else {
        throw ReaderError(.tagError, "transparent exchange of \(what): no card data (97)")
      }
      return answer
    }
  }

  /// One transparent-session command carrying `object` (Manage Session for Start and End
  /// Session, Transparent Exchange for a transceive); its response objects.
  ///
  /// - Throws: as ``exchangeRawFrame(_:on:what:)``.
  func transparentSession(_ object: TransparentDataObject, _ what: String) async throws(ReaderError)
    -> TransparentSessionResponse
  {
    let function: TransparentSessionPseudoAPDU.Function =
      object.tag == TransparentDataObject.transceive([]).tag ? .transparentExchange : .manageSession
    let command: [UInt8]
    do {
      command = try TransparentSessionPseudoAPDU(function: function, objects: [object]).encodedBytes()
    } catch {
      throw ReaderError(.invalidArgument, "\(what) does not fit the transparent session: \(error.code)")
    }
    let answer: TransparentSessionPseudoAPDU.Answer
    do { answer = try TransparentSessionPseudoAPDU.answer(parsing: try await transmit(command)) } catch {
      throw ReaderError(.tagError, "\(what): malformed transparent-session answer (\(error))")
    }
    switch answer {
    case .completed(let response): return response
    case .failed(let sw): throw refusal(sw, what)
    case .objectFailed(_, let sw) where sw.rawValue == 0x6A81: throw refusal(sw, what)
    case .objectFailed(_, let sw):
      throw ReaderError(
        .tagError, "\(what): the reader reports \(Hex.uppercaseString([sw.sw1, sw.sw2])) (a NAK or no answer)"
      )
    }
  }

  /// `unsupportedFeature` for 6A81 (the reader cannot do it), `tagError` otherwise.
  private func refusal(_ sw: StatusWord, _ what: String) -> ReaderError {
    if sw.rawValue == 0x6A81 {
      return ReaderError(.unsupportedFeature, "\(reader) answers 6A81 (function not supported) to \(what)")
    }
    return ReaderError(
      .tagError, "\(what) answered \(Hex.uppercaseString([sw.sw1, sw.sw2])) (a NAK or no answer)")
  }
}
