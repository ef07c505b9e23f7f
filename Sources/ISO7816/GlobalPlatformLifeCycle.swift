// SPDX-License-Identifier: Apache-2.0
/// A life cycle state byte from the GlobalPlatform registry (Card Specification 2.3
/// §11.1.1, Tables 11-3 to 11-6). The same value names different states for the card, a
/// load file, an application and a security domain, so ``name(for:)`` takes the kind.
public struct GlobalPlatformLifeCycle: RawRepresentable, Sendable, Hashable {
  /// The state byte.
  public let rawValue: UInt8
  /// Wraps a state byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 01: executable load file LOADED; card OP_READY.
  public static let loaded = GlobalPlatformLifeCycle(rawValue: 0x01)
  /// 03: application INSTALLED; security domain INSTALLED.
  public static let installed = GlobalPlatformLifeCycle(rawValue: 0x03)
  /// 07: application SELECTABLE; security domain SELECTABLE; card INITIALIZED.
  public static let selectable = GlobalPlatformLifeCycle(rawValue: 0x07)
  /// 0F: security domain PERSONALIZED; card SECURED.
  public static let personalized = GlobalPlatformLifeCycle(rawValue: 0x0F)
  /// 7F: card CARD_LOCKED.
  public static let cardLocked = GlobalPlatformLifeCycle(rawValue: 0x7F)
  /// FF: card TERMINATED.
  public static let terminated = GlobalPlatformLifeCycle(rawValue: 0xFF)

  /// Whether b8 is set: the application or security domain is LOCKED (Tables 11-5, 11-6).
  public var isLocked: Bool { rawValue & 0x80 != 0 && rawValue != 0xFF }

  /// The GET STATUS subset an entry came from (P1 of GET STATUS, GP 2.3 §11.4.2.1).
  public func name(for subset: GlobalPlatformStatusSubset) -> String {
    switch subset {
    case .issuerSecurityDomain:
      switch rawValue {
      case 0x01: return "OP_READY"
      case 0x07: return "INITIALIZED"
      case 0x0F: return "SECURED"
      case 0x7F: return "CARD_LOCKED"
      case 0xFF: return "TERMINATED"
      default: return "UNKNOWN"
      }
    case .loadFiles, .loadFilesAndModules:
      return rawValue == 0x01 ? "LOADED" : "UNKNOWN"
    default:
      if isLocked { return "LOCKED" }
      switch rawValue {
      case 0x03: return "INSTALLED"
      case 0x07: return "SELECTABLE"
      case 0x0F: return "PERSONALIZED"
      default: return rawValue & 0x07 == 0x07 ? "SELECTABLE (application specific)" : "UNKNOWN"
      }
    }
  }
}
