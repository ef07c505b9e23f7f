// SPDX-License-Identifier: Apache-2.0
/// Manufacturer Specific Data (CSS Part A §1.4): a company identifier and the data that
/// follows it, a view.
public struct ManufacturerDataView: ~Escapable {
  /// The company identifier (Assigned Numbers §7.1), sent little-endian.
  public let companyID: CompanyIdentifier
  /// The data after the company identifier.
  public let data: RawSpan
  /// Absolute offset of the data after the company identifier.
  public let dataOffset: Int

  @usableFromInline @_lifetime(copy data)
  init(companyID: CompanyIdentifier, data: RawSpan, dataOffset: Int) {
    self.companyID = companyID
    self.data = data
    self.dataOffset = dataOffset
  }
}
