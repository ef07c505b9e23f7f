// SPDX-License-Identifier: Apache-2.0
/// The most octets of advertising data a PDU (or chain of PDUs) may carry.
public struct AdvertisingBudget: Sendable, Hashable {
  /// The budget in octets.
  public let maximumSize: Int
  /// Creates a budget of `maximumSize` octets.
  public init(maximumSize: Int) { self.maximumSize = maximumSize }

  /// Legacy advertising or scan response data: 31 octets (Core Vol 6 Part B §2.3.1).
  public static let legacy = AdvertisingBudget(maximumSize: 31)
  /// Extended advertising data in one PDU: 254 octets (Core Vol 6 Part B §2.3.4).
  public static let extended = AdvertisingBudget(maximumSize: 254)
  /// Extended advertising data chained over AUX_CHAIN_IND PDUs: 1650 octets
  /// (Core Vol 4 Part E §7.8.54, Vol 6 Part B §2.3.4.9).
  public static let chained = AdvertisingBudget(maximumSize: 1650)
}
