// SPDX-License-Identifier: Apache-2.0
/// Owned Manufacturer Specific Data: a company identifier and its data (CSS Part A §1.4).
public struct ManufacturerData: Sendable, Hashable {
  /// The company identifier.
  public var companyID: CompanyIdentifier
  /// The data after the company identifier.
  public var data: [UInt8]
  /// Creates manufacturer data.
  public init(companyID: CompanyIdentifier, data: [UInt8]) {
    self.companyID = companyID
    self.data = data
  }
}
