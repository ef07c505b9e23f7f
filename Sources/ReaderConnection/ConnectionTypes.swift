// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising

/// Where a ``ConnectionLifecycle`` stands.
public enum ConnectionStatus: Sendable, Hashable {
  /// No reader, no discovery, no link.
  case notConnected
  /// Looking for a reader (``ConnectionLifecycle/discover(_:connectToChosen:at:)``).
  case discovering
  /// A link is being set up (first connect, or a reconnection attempt or its backoff wait).
  case connecting
  /// The link is up.
  case connected
}

/// Why a reader's link went down.
public enum DisconnectReason: Sendable, Hashable {
  /// The app asked for it (``ConnectionLifecycle/disconnect(at:)``); never reconnected.
  case requestedByApp
  /// Out of range, or the link was lost (supervision timeout).
  case linkLoss
  /// The reader was switched off.
  case poweredOff
  /// The reader shut down on a low battery.
  case batteryLow
  /// The reader rebooted (``ConnectionLifecycle/reboot(at:)`` or the daily reboot deadline).
  case reboot
  /// The transport gave no usable reason.
  case unknown
}

/// Why a connection attempt failed.
public enum ConnectFailure: Sendable, Hashable {
  /// No answer within ``ConnectionLifecycle/Configuration/connectTimeout``.
  case timedOut
  /// The transport refused or failed; `name` is its error name (for BlueZ, the D-Bus
  /// error name, e.g. `org.bluez.Error.Failed`).
  case transport(name: String)
  /// The link went down while the attempt was still in flight.
  case linkDropped
}

/// Why a reconnection ended without a link.
public enum ReconnectFailure: Sendable, Hashable {
  /// Every attempt (``ConnectionLifecycle/Configuration/reconnectAttempts``) failed.
  case attemptsExhausted(lastFailure: ConnectFailure)
  /// The app cancelled it with the ``ReconnectHandle``.
  case cancelled
}

/// Identifies one reconnection so the app can cancel it
/// (``ConnectionLifecycle/cancelReconnect(_:at:)``); a stale handle is ignored.
public struct ReconnectHandle: Sendable, Hashable {
  /// A number unique within one ``ConnectionLifecycle``.
  public let id: UInt64

  /// Creates a handle (tests; the connection hands them out).
  public init(id: UInt64) { self.id = id }
}

/// The reader a connection is about: what the transport needs to reach it.
public struct ReaderIdentity: Sendable, Hashable {
  /// The reader's serial number, when known.
  public var serial: String?
  /// The reader's Bluetooth address.
  public var address: BluetoothAddress
  /// The address type.
  public var addressType: BluetoothAddressType

  /// Creates an identity.
  public init(serial: String?, address: BluetoothAddress, addressType: BluetoothAddressType) {
    self.serial = serial
    self.address = address
    self.addressType = addressType
  }

  /// The identity of a discovered reader.
  public init(_ reader: DiscoveredReader) {
    self.init(serial: reader.serial, address: reader.address, addressType: reader.addressType)
  }
}

/// What a ``ConnectionLifecycle`` tells the app.
///
/// A *session* starts when the status leaves ``ConnectionStatus/notConnected`` and ends with
/// exactly one terminal event (``isSessionEnd``): ``notFound``, ``discoveryStopped``,
/// ``connectFailed(_:)`` or ``disconnected(_:)``.
public enum ConnectionEvent: Sendable, Hashable {
  /// The status changed.
  case statusChanged(ConnectionStatus)
  /// An event of the discovery the connection runs. `DiscoveryEvent.notFound` becomes
  /// ``notFound``; `DiscoveryEvent.scanEnded` is passed on, then ``discoveryStopped``.
  case discovery(DiscoveryEvent)
  /// Discovery ended without a reader to connect to (reconnect at launch: the saved serial
  /// was not heard). Terminal.
  case notFound
  /// Discovery ended (scan timeout, or ``ConnectionLifecycle/stopDiscovery(at:)``). Terminal.
  case discoveryStopped
  /// The link is up (first connect).
  case connected(ReaderIdentity)
  /// The first connect failed. Terminal.
  case connectFailed(ConnectFailure)
  /// An unexpected disconnect: reconnecting (attempts follow, each after its backoff).
  case reconnectStarted(reason: DisconnectReason, handle: ReconnectHandle)
  /// Reconnection attempt `number` (1-based) is being made.
  case reconnectAttempt(number: Int)
  /// The link is up again.
  case reconnectSucceeded
  /// Reconnection ended without a link; ``disconnected(_:)`` follows.
  case reconnectFailed(ReconnectFailure)
  /// A reboot was requested (by the app or by the daily deadline); the link drop that follows
  /// has reason ``DisconnectReason/reboot``.
  case rebootRequested
  /// The link is down for good. Terminal.
  case disconnected(DisconnectReason)

  /// Whether the event ends the session.
  public var isSessionEnd: Bool {
    switch self {
    case .notFound, .discoveryStopped, .connectFailed, .disconnected: return true
    default: return false
    }
  }
}

/// What a ``ConnectionLifecycle`` asks its transport to do.
public enum LinkAction: Sendable, Hashable {
  /// Start scanning (feed the reports to ``ConnectionLifecycle/receive(_:at:)``).
  case startDiscovery
  /// Stop scanning.
  case stopDiscovery
  /// Open a link to the reader; answer with ``ConnectionLifecycle/linkConnected(at:)`` or
  /// ``ConnectionLifecycle/linkConnectFailed(_:at:)``.
  case connect(ReaderIdentity)
  /// Abandon a pending connection attempt.
  case cancelConnect(ReaderIdentity)
  /// Close the link.
  case disconnect(ReaderIdentity)
  /// Send the reader its reboot command (the link then drops).
  case reboot(ReaderIdentity)
}

/// One step's output: events for the app, then actions for the transport, in order.
public struct ConnectionOutput: Sendable, Hashable {
  /// Events for the app, in order.
  public var events: [ConnectionEvent] = []
  /// Actions for the transport, in order.
  public var actions: [LinkAction] = []

  /// Creates an empty output.
  public init() {}

  mutating func append(_ other: ConnectionOutput) {
    events += other.events
    actions += other.actions
  }
}
