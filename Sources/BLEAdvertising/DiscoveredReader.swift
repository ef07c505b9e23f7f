// SPDX-License-Identifier: Apache-2.0
/// A reader found by ``ReaderDiscovery``: what is known about it at one moment.
public struct DiscoveredReader: Sendable, Hashable {
  /// The serial number, from the matching profile's ``ReaderProfile/serial`` field.
  public var serial: String
  /// The ``ReaderProfile/name`` of the profile that matched.
  public var profileName: String
  /// The address it advertises from.
  public var address: BluetoothAddress
  /// The address type.
  public var addressType: BluetoothAddressType
  /// The local name, if advertised.
  public var localName: String?
  /// Battery level in percent: advertised, or fed back by the caller
  /// (``ReaderDiscovery/supplyBatteryLevel(_:serial:at:)``, which wins). `nil` until known.
  public var batteryLevel: Int?
  /// Smoothed RSSI in dBm (see ``ReaderDiscovery``).
  public var rssi: Int
  /// TX power in dBm when advertised (controller report or TX Power Level AD).
  public var txPower: Int?
  /// Estimated path loss in dB: TX power (or the configured assumption) minus smoothed
  /// RSSI; smaller is nearer.
  public var pathLoss: Int
  /// When it was first heard, on the clock the caller feeds the discovery.
  public var firstSeen: MonotonicInstant
  /// When it was last heard.
  public var lastSeen: MonotonicInstant

  /// Creates a reader snapshot.
  public init(
    serial: String, profileName: String, address: BluetoothAddress,
    addressType: BluetoothAddressType, localName: String?, batteryLevel: Int?, rssi: Int,
    txPower: Int?, pathLoss: Int, firstSeen: MonotonicInstant, lastSeen: MonotonicInstant
  ) {
    self.serial = serial
    self.profileName = profileName
    self.address = address
    self.addressType = addressType
    self.localName = localName
    self.batteryLevel = batteryLevel
    self.rssi = rssi
    self.txPower = txPower
    self.pathLoss = pathLoss
    self.firstSeen = firstSeen
    self.lastSeen = lastSeen
  }

  /// Whether the details beyond the serial (battery level) are known.
  public var hasDetails: Bool { batteryLevel != nil }
}
