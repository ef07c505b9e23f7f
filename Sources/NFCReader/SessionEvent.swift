// SPDX-License-Identifier: Apache-2.0
/// Why a session ended. Every session ends exactly once.
public enum SessionEnding: Sendable, Hashable {
  /// The session was created to end after one read, and a tag was read.
  case firstTagRead
  /// The caller cancelled the session (or stopped listening to its events).
  case cancelled
  /// No read ended the session within the configured timeout (carried here).
  case timedOut(Duration)
  /// The device is in use or could not be claimed.
  case systemBusy(ReaderError)
  /// The device failed or went away during the session.
  case terminatedUnexpectedly(ReaderError)

  /// A stable name for logs and JSON.
  public var name: String {
    switch self {
    case .firstTagRead: "firstTagRead"
    case .cancelled: "cancelled"
    case .timedOut: "timedOut"
    case .systemBusy: "systemBusy"
    case .terminatedUnexpectedly: "terminatedUnexpectedly"
    }
  }

  /// Whether this ending is a failure (its final message is the failure message).
  public var isFailure: Bool {
    switch self {
    case .firstTagRead, .cancelled: false
    case .timedOut, .systemBusy, .terminatedUnexpectedly: true
    }
  }
}

/// What a session reports, in order: possibly ``queued(position:)``, then ``began(message:)``,
/// then detections and reads, and always exactly one ``ended(_:message:)`` last.
public enum SessionEvent<Tag: Sendable, Output: Sendable>: Sendable {
  /// Another session holds the device; this one waits at `position` (1 = next).
  case queued(position: Int)
  /// The device is claimed and the session looks for tags.
  case began(message: String?)
  /// A tag entered the field; it is being read.
  case tagDetected(Tag, message: String?)
  /// A tag was read.
  case tagRead(Tag, Output)
  /// Reading a tag failed; the session goes on.
  case readFailed(Tag, ReaderError, message: String?)
  /// The session ended; nothing follows.
  case ended(SessionEnding, message: String?)
}
