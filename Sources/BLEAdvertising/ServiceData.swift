// SPDX-License-Identifier: Apache-2.0
/// Owned Service Data: a service UUID and its data (CSS Part A §1.11).
public struct ServiceData: Sendable, Hashable {
  /// The service UUID.
  public var uuid: BluetoothUUID
  /// The data after the UUID.
  public var data: [UInt8]
  /// Creates service data.
  public init(uuid: BluetoothUUID, data: [UInt8]) {
    self.uuid = uuid
    self.data = data
  }
}
