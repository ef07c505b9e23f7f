// SPDX-License-Identifier: Apache-2.0
import NFCTags
import PCSCControl
import PN532Simulator

/// A FeliCa card (NFC Forum Type 3) behind the reader firmware: the tag is the PN532
/// simulator's ``SimulatedFeliCaTag`` (Check and Update of the NDEF services), reached with
/// raw FeliCa frames the way each profile passes them: ACS through direct transmit
/// `FF 00 00 00` (ACM1252U-Y3 p.45), the `transparent` profile through the transparent
/// session `FF C2` (PC/SC Part 3 supplement: Start Session, then Transceive `95`, answered
/// `C0 03 00 90 00` and `97 L` the tag's answer). Every other profile answers 6A81.
extension StorageCardReader {
  /// A reader holding a FeliCa card: `image` (AIB and data blocks) or a blank NDEF-formatted
  /// card of 13 data blocks (Nbr 4, Nbw 1). The ATR is the Part 3 storage-card ATR with
  /// standard 11 (FeliCa) and card name 003B.
  static func makeFeliCa(profile: Profile, uid: [UInt8]?, image: [UInt8]?) -> StorageCardReader? {
    let idm = uid ?? [0x01, 0x2E, 0x4C, 0x7A, 0x10, 0x20, 0x30, 0x40]
    let tag: SimulatedFeliCaTag
    if let image {
      guard let made = try? SimulatedFeliCaTag(idm: idm, memory: image) else { return nil }
      tag = made
    } else {
      guard let made = try? SimulatedFeliCaTag(idm: idm) else { return nil }
      tag = made
    }
    return StorageCardReader(
      profile: profile, tag: .felica(tag), uid: idm, cardName: .felica, standard: .felica)
  }

  /// A raw FeliCa frame through direct transmit: the tag's answer frame and 9000; silence
  /// (a frame for another IDm, a malformed one) is 6300. A payload that is a PN532
  /// InDataExchange `D4 40 01 frame` is answered as an ACR122U's PN532 does: `D5 41 00
  /// answer`, or status 01 (timeout) for silence (PN532 user manual §7.3.8, ACR122T §7.3).
  mutating func feliCaDirectTransmit(_ payload: [UInt8]) -> [UInt8] {
    let pn532 = payload.starts(with: [0xD4, 0x40, 0x01])
    guard case .felica(var felica) = tag,
      let answer = felica.answer(pn532 ? Array(payload.dropFirst(3)) : payload)
    else { return pn532 ? [0xD5, 0x41, 0x01] + Self.ok : failure(0x6300) }
    tag = .felica(felica)
    return (pn532 ? [0xD5, 0x41, 0x00] : []) + answer + Self.ok
  }

  /// `FF C2 00 P2 Lc objects` on the `transparent` profile: Manage Session (Start `81`, End
  /// `82`; other objects 6A81 in the generic error status), Transparent Exchange with one
  /// Transceive (`95`) inside an open session, Switch Protocol accepted. The answer is the
  /// data objects with the generic error status `C0 03 index SW1 SW2` and outer 9000; no
  /// answer from the tag is `C0 03 00 64 01`.
  mutating func transparentSession(_ bytes: [UInt8]) -> [UInt8] {
    guard profile == .transparent else { return [0x6A, 0x81] }
    guard let command = try? TransparentSessionPseudoAPDU(parsing: bytes) else { return [0x67, 0x00] }
    func status(_ index: Int, _ sw: UInt16, _ more: [TransparentDataObject] = []) -> [UInt8] {
      let generic = TransparentDataObject(
        tag: 0xC0, value: [UInt8(truncatingIfNeeded: index), UInt8(sw >> 8), UInt8(truncatingIfNeeded: sw)])
      guard let encoded = try? TransparentDataObject.encode([generic] + more) else { return [0x6F, 0x00] }
      return encoded + Self.ok
    }
    switch command.function {
    case .manageSession:
      for (index, object) in command.objects.enumerated() {
        switch object.tag {
        case TransparentDataObject.startSession.tag: transparentSessionOpen = true
        case TransparentDataObject.endSession.tag: transparentSessionOpen = false
        default: return status(index, 0x6A81)
        }
      }
      return status(0, 0x9000)
    case .transparentExchange:
      guard transparentSessionOpen else { return [0x69, 0x85] }
      guard command.objects.count == 1, let object = command.objects.first,
        object.tag == TransparentDataObject.transceive([]).tag
      else { return status(0, 0x6A81) }
      guard case .felica(var felica) = tag, let answer = felica.answer(object.value) else {
        return status(0, 0x6401)
      }
      tag = .felica(felica)
      return status(0, 0x9000, [TransparentDataObject(tag: 0x97, value: answer)])
    case .switchProtocol:
      return status(0, 0x9000)
    default:
      return [0x6A, 0x81]
    }
  }
}
