// SPDX-License-Identifier: Apache-2.0
import BlueZ
import Testing

/// The D-Bus error names BlueZ and the bus daemon answer with, and the code each becomes.
/// The name and message are kept as given.
@Suite struct BlueZErrorNameTests {
  @Test(arguments: [
    ("org.freedesktop.DBus.Error.ServiceUnknown", BlueZError.Code.noBlueZ),
    ("org.freedesktop.DBus.Error.NameHasNoOwner", .noBlueZ),
    ("org.freedesktop.DBus.Error.AccessDenied", .permissionDenied),
    ("org.freedesktop.DBus.Error.AuthFailed", .permissionDenied),
    ("org.bluez.Error.NotAuthorized", .permissionDenied),
    ("org.bluez.Error.NotPermitted", .permissionDenied),
    ("org.bluez.Error.NotReady", .poweredOff),
    ("org.bluez.Error.InProgress", .inProgress),
    ("org.bluez.Error.DoesNotExist", .unknownDevice),
    ("org.freedesktop.DBus.Error.UnknownObject", .unknownDevice),
    ("org.freedesktop.DBus.Error.NoReply", .timedOut),
    ("org.freedesktop.DBus.Error.NoServer", .noBus),
    ("org.freedesktop.DBus.Error.Disconnected", .noBus),
    ("org.bluez.Error.Failed", .failed),
    ("org.bluez.Error.AlreadyConnected", .failed),
    ("com.example.Error.Whatever", .other),
  ])
  func nameGivesCode(name: String, code: BlueZError.Code) {
    let error = BlueZError(dbusName: name, message: "why")
    #expect(error.code == code)
    #expect(error.name == name)
    #expect(error.message == "why")
  }
}
