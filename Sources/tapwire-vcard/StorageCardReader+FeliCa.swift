// SPDX-License-Identifier: Apache-2.0
import NFCTags
import PCSCControl
import PN532Simulator

/// A FeliCa card (NFC Forum Type 3) behind the reader firmware: the tag is the PN532
/// simulator's ``SimulatedFeliCaTag`` (Check and Update of the NDEF services), reached with
/// raw FeliCa frames the way each profile passes them: ACS through direct transmit
/// `FF 00 00 00` (ACM1252U-Y3 p.45), the `transparent` profile through the transparent
/// session `FF C2` (`transparentSession`, shared with Type 2 tags). Every other profile
/// answers 6A81.
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
}
