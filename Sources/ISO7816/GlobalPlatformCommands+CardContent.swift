// SPDX-License-Identifier: Apache-2.0
extension GlobalPlatformCommands {
  /// The LOAD block size when none is given: 223 plain bytes, which fit a short Lc (255) at
  /// every SCP02 and SCP03 security level, S16 C-MAC + C-DECRYPTION included (223 bytes pad
  /// to 224, plus a 16-byte MAC: 240). 240, the usual default, pads to 256 under
  /// C-DECRYPTION and overflows.
  public static let defaultLoadBlockSize = 223

  /// The LOAD block size (plain bytes) to use: at most `maximum` (what the caller's secure
  /// channel says fits a 255-byte Lc), and small enough that the wrapped block fits the card's
  /// maximum command data length when its FCI gives one (tag 9F65 in `A5`,
  /// ``FileControlInformation/maximumCommandDataLength``; GP 2.3 §11.9.3.1, Table 11-69).
  ///
  /// - Throws: ``APDUError/Code/invalidBlockSize`` when no byte fits (a card maximum below the
  ///   overhead, or `maximum` below 1).
  public static func loadBlockSize(
    maximum: Int = defaultLoadBlockSize, overhead: GlobalPlatformCommandOverhead = .none,
    cardMaximumCommandDataLength: Int? = nil
  ) throws(APDUError) -> Int {
    var size = min(maximum, 255)
    if let card = cardMaximumCommandDataLength {
      size = min(size, overhead.maximumPlainLength(fitting: min(card, 255)))
    }
    guard size >= 1 else { throw APDUError(.invalidBlockSize, offset: 0) }
    return size
  }

  /// SET STATUS (GP 2.3 §11.10): `80 F0 P1 P2 Lc AID`, P1 the kind of entry, P2 the new
  /// state. For the issuer security domain the AID may be omitted (then no data field).
  public static func setStatus(
    _ target: GlobalPlatformSetStatusTarget, state: UInt8, aid: ApplicationIdentifier? = nil,
    cla: CommandClass = .globalPlatform
  ) -> CommandAPDU {
    CommandAPDU(cla: cla, ins: .gpSetStatus, p1: target.rawValue, p2: state, data: aid?.bytes ?? [])
  }

  /// SET STATUS locking an application or supplementary security domain (GP 2.3 §11.10.2.2,
  /// Table 11-5: LOCKED sets b8): `80 F0 40 80 Lc AID`.
  public static func lockApplication(_ aid: ApplicationIdentifier, cla: CommandClass = .globalPlatform)
    -> CommandAPDU
  {
    setStatus(.application, state: 0x80, aid: aid, cla: cla)
  }

  /// SET STATUS unlocking an application or supplementary security domain (GP 2.3
  /// §11.10.2.2: b8 cleared, the card restores the previous state): `80 F0 40 00 Lc AID`.
  public static func unlockApplication(_ aid: ApplicationIdentifier, cla: CommandClass = .globalPlatform)
    -> CommandAPDU
  {
    setStatus(.application, state: 0x00, aid: aid, cla: cla)
  }

  /// SET STATUS locking the card (GP 2.3 §5.1.1.4: SECURED to CARD_LOCKED 7F): `80 F0 80 7F`.
  public static func lockCard(cla: CommandClass = .globalPlatform) -> CommandAPDU {
    setStatus(.issuerSecurityDomain, state: GlobalPlatformLifeCycle.cardLocked.rawValue, cla: cla)
  }

  /// SET STATUS unlocking the card (GP 2.3 §5.1.1.4: CARD_LOCKED back to SECURED 0F):
  /// `80 F0 80 0F`.
  public static func unlockCard(cla: CommandClass = .globalPlatform) -> CommandAPDU {
    setStatus(.issuerSecurityDomain, state: GlobalPlatformLifeCycle.personalized.rawValue, cla: cla)
  }

  /// Whether GET STATUS has more entries to send (GP 2.3 §11.4.2.2, §11.4.3.3): 6310 asks for
  /// the same command again with P2 b1 set ("next occurrence"); nil when it does not.
  public static func getStatusContinuation(
    of command: CommandAPDU, after statusWord: StatusWord
  ) -> CommandAPDU? {
    guard statusWord == .moreDataAvailable, command.ins == .gpGetStatus else { return nil }
    return CommandAPDU(
      cla: command.cla, ins: command.ins, p1: command.p1, p2: command.p2 | 0x01, data: command.data,
      ne: command.ne)
  }
}

/// P1 of SET STATUS: the kind of registry entry whose state changes (GlobalPlatform Card
/// Specification 2.3 §11.10.2.1).
public struct GlobalPlatformSetStatusTarget: RawRepresentable, Sendable, Hashable {
  /// The P1 byte.
  public let rawValue: UInt8
  /// Wraps a P1 byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 80: the issuer security domain (the card life cycle).
  public static let issuerSecurityDomain = GlobalPlatformSetStatusTarget(rawValue: 0x80)
  /// 40: an application or supplementary security domain.
  public static let application = GlobalPlatformSetStatusTarget(rawValue: 0x40)
  /// 60: a security domain and its associated applications.
  public static let securityDomainAndApplications = GlobalPlatformSetStatusTarget(rawValue: 0x60)
}
