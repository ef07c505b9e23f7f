// SPDX-License-Identifier: Apache-2.0
/// A way to reach one reader device (libnfc, a simulator, a test double). Sessions use a
/// transport to claim the device and a ``ReaderConnection`` to look for tags.
public protocol ReaderTransport: Sendable {
  /// The connection a session gets once it has claimed the device.
  associatedtype Connection: ReaderConnection

  /// Identifies the device: sessions whose transports have the same key wait for each
  /// other (one session per device, first in first out).
  var deviceKey: String { get }

  /// Checks, before any session, that reading is possible: a device is present and can
  /// be opened. Throws ``ReaderError/Code/noReader`` when there is no reader and
  /// ``ReaderError/Code/unsupportedFeature`` when it cannot read tags.
  func checkAvailability() async throws(ReaderError)

  /// Claims the device for one session. A failure ends the session with
  /// ``SessionEnding/systemBusy(_:)``.
  func connect() async throws(ReaderError) -> Connection
}

/// A claimed device, valid for one session.
public protocol ReaderConnection: Sendable {
  /// What a detected tag is on this transport.
  associatedtype Tag: DetectedTag

  /// Looks for a tag in the field once, for a bounded time; nil when there is none.
  func poll() async throws(ReaderError) -> Tag?

  /// Releases the device; later calls and tag handles fail with
  /// ``ReaderError/Code/sessionEnded``.
  func close() async
}

/// A tag found by a ``ReaderConnection``.
public protocol DetectedTag: Sendable {
  /// A stable identity (the UID for ISO/IEC 14443): a tag is reported once while it
  /// stays in the field.
  var identifier: [UInt8] { get }
}
