// SPDX-License-Identifier: Apache-2.0
/// P1 of GET STATUS: which part of the GlobalPlatform registry to report (Card
/// Specification 2.3 §11.4.2.1, Table 11-34).
public struct GlobalPlatformStatusSubset: RawRepresentable, Sendable, Hashable {
  /// The P1 byte.
  public let rawValue: UInt8
  /// Wraps a P1 byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 80: the issuer security domain only.
  public static let issuerSecurityDomain = GlobalPlatformStatusSubset(rawValue: 0x80)
  /// 40: applications, including security domains.
  public static let applications = GlobalPlatformStatusSubset(rawValue: 0x40)
  /// 20: executable load files only.
  public static let loadFiles = GlobalPlatformStatusSubset(rawValue: 0x20)
  /// 10: executable load files and their executable modules.
  public static let loadFilesAndModules = GlobalPlatformStatusSubset(rawValue: 0x10)
}
