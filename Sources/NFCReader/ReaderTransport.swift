// SPDX-License-Identifier: Apache-2.0
/// A way to reach one reader device (libnfc, PC/SC, a simulator, a test double). A
/// ``ReaderSession`` uses a transport to claim the device and the ``ClaimedReader`` it gets
/// to look for tags.
public protocol ReaderTransport: Sendable {
  /// The reader a session gets once it has claimed the device.
  associatedtype Reader: ClaimedReader

  /// Identifies the device: sessions whose transports have the same key wait for each
  /// other (one session per device, first in first out).
  var deviceKey: String { get }

  /// Checks, before any session, that reading is possible: a device is present and can
  /// be opened. Throws ``ReaderError/Code/noReader`` when there is no reader and
  /// ``ReaderError/Code/unsupportedFeature`` when it cannot read tags.
  func checkAvailability() async throws(ReaderError)

  /// Claims the device for one session. A failure ends the session with
  /// ``SessionEnding/systemBusy(_:)``.
  func claim() async throws(ReaderError) -> Reader
}

/// A device claimed by one session: the session starts discovery, polls for tags and
/// finally closes it with the session's ending and final message.
///
/// A reader that drives discovery itself (a phone's NFC stack behind PC/SC showing the
/// session's messages) starts it in ``startDiscovery(_:)``, reports its own ending (its
/// timeout, its cancel button) through ``endingByReader`` and hands over one tag per
/// discovery (``endsDiscoveryWithFirstTag``); ``close(ending:message:)`` sends it the final
/// message. Simple readers keep the defaults.
public protocol ClaimedReader: Sendable {
  /// What a detected tag is on this transport.
  associatedtype Tag: DetectedTag

  /// Starts looking for tags, showing `messages` where the reader can. A failure ends the
  /// session with ``SessionEnding/systemBusy(_:)``. The default does nothing.
  func startDiscovery(_ messages: SessionMessages) async throws(ReaderError)

  /// Looks for a tag in the field once, for a bounded time; nil when there is none.
  func poll() async throws(ReaderError) -> Tag?

  /// How the reader itself ended discovery, once it has (asked after each poll); `nil` while
  /// discovery runs. The default is always `nil`.
  var endingByReader: SessionEnding? { get }

  /// Whether the reader's discovery ends with the first tag it hands over: the session
  /// ends after that tag's read in any ``ReadMode`` (``SessionEnding/firstTagRead``, or
  /// ``SessionEnding/terminatedUnexpectedly(_:)`` when the read failed) instead of waiting
  /// for another tag. The default is `false`.
  var endsDiscoveryWithFirstTag: Bool { get }

  /// Ends discovery with the session's `ending` and final `message` (where the reader
  /// shows one), then releases the device; later calls and tag handles fail with
  /// ``ReaderError/Code/sessionEnded``.
  func close(ending: SessionEnding, message: String?) async
}

extension ClaimedReader {
  /// Does nothing: the reader needs no start.
  public func startDiscovery(_ messages: SessionMessages) async throws(ReaderError) {}

  /// Always `nil`: the reader never ends discovery by itself.
  public var endingByReader: SessionEnding? { nil }

  /// `false`: the reader keeps discovering after a tag.
  public var endsDiscoveryWithFirstTag: Bool { false }
}

/// A tag found by a ``ClaimedReader``.
public protocol DetectedTag: Sendable {
  /// A stable identity (the UID for ISO/IEC 14443): a tag is reported once while it
  /// stays in the field.
  var identifier: [UInt8] { get }
}
