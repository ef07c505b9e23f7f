// SPDX-License-Identifier: Apache-2.0

/// A failure talking to BlueZ: a typed ``code`` and, when D-Bus gave one, the D-Bus error
/// ``name`` (e.g. `org.bluez.Error.NotReady`) and its message.
public struct BlueZError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: Sendable, Hashable {
    /// The bus could not be reached (no socket, bad address).
    case noBus
    /// Nothing owns `org.bluez` on the bus (bluetoothd not running).
    case noBlueZ
    /// No `org.bluez.Adapter1` (or not the one asked for).
    case noAdapter
    /// The adapter is powered off (`Powered` false, or `org.bluez.Error.NotReady`).
    case poweredOff
    /// The bus policy or BlueZ refused (`org.freedesktop.DBus.Error.AccessDenied`,
    /// `org.bluez.Error.NotAuthorized`, `org.bluez.Error.NotPermitted`).
    case permissionDenied
    /// Discovery or a connection is already running (`org.bluez.Error.InProgress`).
    case inProgress
    /// The device is not known to BlueZ (`org.freedesktop.DBus.Error.UnknownObject`,
    /// `org.bluez.Error.DoesNotExist`).
    case unknownDevice
    /// Connecting failed (`org.bluez.Error.Failed`, `...AlreadyConnected`, `...NotConnected`
    /// and other `org.bluez.Error.*`).
    case failed
    /// No reply in time (`org.freedesktop.DBus.Error.NoReply`, `...Timeout`).
    case timedOut
    /// Any other D-Bus error.
    case other
  }

  /// The typed reason.
  public var code: Code
  /// The D-Bus error name, or empty when the failure is Tapwire's own check.
  public var name: String
  /// The message that came with it.
  public var message: String

  /// Creates an error.
  public init(_ code: Code, name: String = "", message: String = "") {
    self.code = code
    self.name = name
    self.message = message
  }

  /// Maps a D-Bus error name to its code.
  public init(dbusName name: String, message: String) {
    let code: Code
    switch name {
    case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
      code = .noBlueZ
    case "org.freedesktop.DBus.Error.AccessDenied", "org.bluez.Error.NotAuthorized",
      "org.bluez.Error.NotPermitted", "org.freedesktop.DBus.Error.AuthFailed":
      code = .permissionDenied
    case "org.bluez.Error.NotReady": code = .poweredOff
    case "org.bluez.Error.InProgress": code = .inProgress
    case "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
      "org.bluez.Error.DoesNotExist":
      code = .unknownDevice
    case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
      "org.freedesktop.DBus.Error.TimedOut":
      code = .timedOut
    case "org.freedesktop.DBus.Error.NoServer", "org.freedesktop.DBus.Error.FileNotFound",
      "org.freedesktop.DBus.Error.BadAddress", "org.freedesktop.DBus.Error.Disconnected",
      "org.freedesktop.DBus.Error.NoNetwork":
      code = .noBus
    default: code = name.hasPrefix("org.bluez.Error.") ? .failed : .other
    }
    self.init(code, name: name, message: message)
  }

  /// `code: name: message`.
  public var description: String {
    var text = "\(code)"
    if !name.isEmpty { text += " (\(name))" }
    if !message.isEmpty { text += ": \(message)" }
    return text
  }
}
