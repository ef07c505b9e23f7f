// SPDX-License-Identifier: Apache-2.0

/// A failure talking to BlueZ: a typed ``code`` and, when D-Bus gave one, the D-Bus error
/// ``name`` (e.g. `org.bluez.Error.NotReady`) and its message.
public struct BlueZError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable, CaseIterable {
      case noBus, noBlueZ, noAdapter, poweredOff, permissionDenied, inProgress, unknownDevice
      case failed, timedOut, other, blueZExited, adapterRemoved
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// The bus could not be reached (no socket, bad address).
    public static let noBus = Code(.noBus)
    /// Nothing owns `org.bluez` on the bus (bluetoothd not running).
    public static let noBlueZ = Code(.noBlueZ)
    /// No `org.bluez.Adapter1` (or not the one asked for).
    public static let noAdapter = Code(.noAdapter)
    /// The adapter is powered off (`Powered` false, or `org.bluez.Error.NotReady`), or was
    /// powered off while a scan or link was running.
    public static let poweredOff = Code(.poweredOff)
    /// The bus policy or BlueZ refused (`org.freedesktop.DBus.Error.AccessDenied`,
    /// `org.bluez.Error.NotAuthorized`, `org.bluez.Error.NotPermitted`).
    public static let permissionDenied = Code(.permissionDenied)
    /// Discovery or a connection is already running (`org.bluez.Error.InProgress`).
    public static let inProgress = Code(.inProgress)
    /// The device is not known to BlueZ (`org.freedesktop.DBus.Error.UnknownObject`,
    /// `org.bluez.Error.DoesNotExist`).
    public static let unknownDevice = Code(.unknownDevice)
    /// Connecting failed (`org.bluez.Error.Failed`, `...AlreadyConnected`, `...NotConnected`
    /// and other `org.bluez.Error.*`).
    public static let failed = Code(.failed)
    /// No reply in time (`org.freedesktop.DBus.Error.NoReply`, `...Timeout`).
    public static let timedOut = Code(.timedOut)
    /// Any other D-Bus error.
    public static let other = Code(.other)
    /// The owner of `org.bluez` left the bus while a scan or link was running: bluetoothd
    /// exited or restarted (`org.freedesktop.DBus.NameOwnerChanged`), and the discovery or
    /// connection it ran went with it.
    public static let blueZExited = Code(.blueZExited)
    /// The adapter went away while a scan or link was running (`InterfacesRemoved` of its
    /// `org.bluez.Adapter1`: unplugged, or its driver unbound).
    public static let adapterRemoved = Code(.adapterRemoved)

    /// Every code, for tests and documentation.
    public static var allCodes: [Code] { Value.allCases.map(Code.init) }

    /// The code's name, e.g. `poweredOff` (the D-Bus error name is ``BlueZError/name``).
    public var name: String {
      switch value {
      case .noBus: "noBus"
      case .noBlueZ: "noBlueZ"
      case .noAdapter: "noAdapter"
      case .poweredOff: "poweredOff"
      case .permissionDenied: "permissionDenied"
      case .inProgress: "inProgress"
      case .unknownDevice: "unknownDevice"
      case .failed: "failed"
      case .timedOut: "timedOut"
      case .other: "other"
      case .blueZExited: "blueZExited"
      case .adapterRemoved: "adapterRemoved"
      }
    }

    /// The name.
    public var description: String { name }
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

  /// `code (D-Bus name): message`, each part only when present.
  public var description: String {
    var text = code.name
    if !name.isEmpty { text += " (\(name))" }
    if !message.isEmpty { text += ": \(message)" }
    return text
  }
}
