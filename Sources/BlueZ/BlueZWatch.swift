// SPDX-License-Identifier: Apache-2.0

/// What ends a scan or a link on BlueZ's side mid-flow, as a typed error: the owner of
/// `org.bluez` leaving the bus (`org.freedesktop.DBus.NameOwnerChanged`, D-Bus specification
/// §"Message Bus Messages": bluetoothd exited or restarted, and with it every discovery and
/// connection it ran for us), the adapter removed (`InterfacesRemoved` of
/// `org.bluez.Adapter1`, BlueZ `doc/org.bluez.Adapter.rst`: unplugged, or its driver
/// unbound) or powered off (its `Powered` property false).
enum BlueZWatch {
  /// The match rules for the signals ``failure(_:adapter:)`` reads: NameOwnerChanged of
  /// `org.bluez`, the adapter's PropertiesChanged, and ObjectManager's InterfacesRemoved.
  static func addMatches(_ connection: BusConnection, adapter path: String) throws(BlueZError) {
    try connection.addMatch(
      "type='signal',sender='\(busDaemon)',interface='\(busDaemon)',member='NameOwnerChanged',arg0='\(bluez)'"
    )
    try connection.addMatch(
      "type='signal',sender='\(bluez)',interface='\(propertiesInterface)',member='PropertiesChanged',path='\(path)'"
    )
    try connection.addMatch(
      "type='signal',sender='\(bluez)',interface='\(objectManager)',member='InterfacesRemoved',path='/'")
  }

  /// The typed end `message` reports for the adapter at `path` (`/org/bluez/hci0`), or nil:
  /// ``BlueZError/Code/blueZExited``, ``BlueZError/Code/adapterRemoved``,
  /// ``BlueZError/Code/poweredOff``.
  static func failure(_ message: BusMessage, adapter path: String) -> BlueZError? {
    guard message.type == DBUS_MESSAGE_TYPE_SIGNAL else { return nil }
    let name = String(path.split(separator: "/").last ?? "")
    switch (message.interface, message.member) {
    case (busDaemon, "NameOwnerChanged"):
      // (name, old owner, new owner); an old owner of "" is BlueZ arriving, not leaving.
      guard message.arguments.count == 3, message.arguments[0].stringValue == bluez,
        let old = message.arguments[1].stringValue, !old.isEmpty
      else { return nil }
      let new = message.arguments[2].stringValue ?? ""
      let what =
        new.isEmpty
        ? "\(bluez) lost its owner \(old) (bluetoothd exited)"
        : "\(bluez) changed owner from \(old) to \(new) (bluetoothd restarted)"
      return BlueZError(.blueZExited, name: "NameOwnerChanged", message: what)
    case (objectManager, "InterfacesRemoved"):
      guard message.arguments.count == 2, message.arguments[0].stringValue == path,
        message.arguments[1].arrayValue?.contains(where: { $0.stringValue == adapterInterface }) == true
      else { return nil }
      return BlueZError(.adapterRemoved, name: "InterfacesRemoved", message: "\(name) was removed")
    case (propertiesInterface, "PropertiesChanged"):
      guard message.path == path, message.arguments.count >= 2,
        message.arguments[0].stringValue == adapterInterface,
        message.arguments[1].propertyMap?["Powered"]?.boolValue == false
      else { return nil }
      return BlueZError(.poweredOff, name: "PropertiesChanged", message: "\(name) was powered off")
    default:
      return nil
    }
  }
}

let busDaemon = "org.freedesktop.DBus"
