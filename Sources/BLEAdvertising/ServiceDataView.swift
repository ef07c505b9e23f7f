// SPDX-License-Identifier: Apache-2.0
/// Service Data (CSS Part A §1.11): a service UUID and the data that follows, a view.
public struct ServiceDataView: ~Escapable {
  /// The service UUID.
  public let uuid: BluetoothUUID
  /// The width the UUID was sent in: 2, 4 or 16 octets.
  public let uuidWidth: Int
  /// The service data after the UUID.
  public let data: RawSpan
  /// Absolute offset of the data after the UUID.
  public let dataOffset: Int

  @usableFromInline @_lifetime(copy data)
  init(uuid: BluetoothUUID, uuidWidth: Int, data: RawSpan, dataOffset: Int) {
    self.uuid = uuid
    self.uuidWidth = uuidWidth
    self.data = data
    self.dataOffset = dataOffset
  }
}
