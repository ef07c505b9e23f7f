// SPDX-License-Identifier: Apache-2.0
/// Whether a session ends after its first successful read.
public enum ReadMode: Sendable, Hashable {
  /// End with ``SessionEnding/firstTagRead`` after the first successful read.
  case endAfterFirstRead
  /// Keep reading: each tag is reported once while it stays in the field; the session
  /// ends on cancel, timeout or failure.
  case keepReading
}

/// Messages for a person, carried through to the session's events so a user interface can
/// show them.
public struct SessionMessages: Sendable, Hashable {
  /// Shown while waiting for a tag (in ``SessionEvent/began(message:)``).
  public var waiting: String?
  /// Shown while a tag is being read (in ``SessionEvent/tagDetected(_:message:)``).
  public var working: String?
  /// The final message when the session ends after a read or is cancelled.
  public var success: String?
  /// The final message when the session times out or fails, and with failed reads.
  public var failure: String?

  /// Creates messages (all optional).
  public init(waiting: String? = nil, working: String? = nil, success: String? = nil, failure: String? = nil)
  {
    self.waiting = waiting
    self.working = working
    self.success = success
    self.failure = failure
  }
}

/// How a session runs.
public struct SessionConfiguration: Sendable, Hashable {
  /// The default session timeout: 60 seconds, as mobile NFC reader sessions.
  public static let defaultTimeout: Duration = .seconds(60)
  /// The default pause between two polls of the field: 100 ms.
  public static let defaultPollInterval: Duration = .milliseconds(100)

  /// The session ends with ``SessionEnding/timedOut(_:)`` this long after it began
  /// (after it left the device queue). Defaults to ``defaultTimeout``.
  public var timeout: Duration
  /// End after the first read or keep reading.
  public var mode: ReadMode
  /// The pause between two polls.
  public var pollInterval: Duration
  /// Messages for a person.
  public var messages: SessionMessages

  /// Creates a configuration.
  public init(
    timeout: Duration = SessionConfiguration.defaultTimeout, mode: ReadMode = .endAfterFirstRead,
    pollInterval: Duration = SessionConfiguration.defaultPollInterval,
    messages: SessionMessages = SessionMessages()
  ) {
    self.timeout = timeout
    self.mode = mode
    self.pollInterval = pollInterval
    self.messages = messages
  }
}
