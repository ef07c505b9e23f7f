// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// Something an ``AdminSession`` did, for progress displays and logs
/// (``AdminSession/takeEvents()``).
public enum AdminEvent: Sendable, Hashable {
  /// A POST goes out: its round trip (1 for the first), attempt (1 for the first) and URI.
  case posting(round: Int, attempt: Int, uri: String)
  /// The server sent a command script of `commandCount` C-APDUs for `application`.
  case scriptReceived(round: Int, commandCount: Int, application: ApplicationIdentifier?)
  /// A redirection (3xx) to `uri` is followed.
  case redirected(round: Int, uri: String)
  /// A command of the script finished (`index` 0-based of `count`); `accepted` is false
  /// when its status word stops the script (ETSI TS 102 226 §5.2.1).
  case commandFinished(
    round: Int, index: Int, count: Int, command: CommandAPDU, statusWord: StatusWord, accepted: Bool)
  /// The targeted application could not be selected; the script is answered with `status`.
  case applicationRefused(round: Int, statusWord: StatusWord, status: AdminScriptStatus)
  /// A failed POST is retried at `at` (on the caller's clock).
  case retrying(round: Int, attempt: Int, at: MonotonicInstant, reason: RemoteManagementError)
  /// The server ended the session (204).
  case ended(rounds: Int)
}

/// What an ``AdminSession`` has done: round trips, commands executed and known, for a
/// fraction that grows as round trips reveal more scripts.
public struct AdminProgress: Sendable, Hashable {
  /// Command scripts received.
  public var rounds: Int
  /// Commands finished over all scripts.
  public var completedCommands: Int
  /// Commands in the scripts received so far.
  public var knownCommands: Int

  /// Creates a progress value.
  public init(rounds: Int = 0, completedCommands: Int = 0, knownCommands: Int = 0) {
    self.rounds = rounds
    self.completedCommands = completedCommands
    self.knownCommands = knownCommands
  }

  /// Commands done over commands known (0 before any script).
  public var fraction: Double {
    knownCommands == 0 ? 0 : Double(completedCommands) / Double(knownCommands)
  }
}

/// A command that stopped its script: the round trip, the step (0-based) and the error
/// (`APDUError/Code/unexpectedStatusWord` with the card's status word).
public struct AdminCommandFailure: Sendable, Hashable {
  /// The round trip.
  public var round: Int
  /// The step within the script, 0-based.
  public var step: Int
  /// The command.
  public var command: CommandAPDU
  /// The status word the card answered.
  public var statusWord: StatusWord

  /// Creates a failure.
  public init(round: Int, step: Int, command: CommandAPDU, statusWord: StatusWord) {
    self.round = round
    self.step = step
    self.command = command
    self.statusWord = statusWord
  }
}

/// How a session that the server ended (204) went.
public struct AdminSummary: Sendable, Hashable {
  /// Command scripts processed.
  public var rounds: Int
  /// Commands executed over all scripts.
  public var executedCommands: Int
  /// POSTs sent, retries included.
  public var requests: Int
  /// Commands whose status word stopped their script, reported to the server in the
  /// response scripts, in order.
  public var commandFailures: [AdminCommandFailure]
  /// Scripts answered without running (unknown application, ...), by round trip.
  public var refusedScripts: [Int]

  /// Creates a summary.
  public init(
    rounds: Int, executedCommands: Int, requests: Int, commandFailures: [AdminCommandFailure] = [],
    refusedScripts: [Int] = []
  ) {
    self.rounds = rounds
    self.executedCommands = executedCommands
    self.requests = requests
    self.commandFailures = commandFailures
    self.refusedScripts = refusedScripts
  }
}

/// What the caller must do next for an ``AdminSession``.
public enum AdminAction: Sendable, Hashable {
  /// Send this HTTP request; report its response (``AdminSession/receive(_:at:)``), a
  /// failed connection (``AdminSession/connectionFailed(reason:at:)``) or no answer by
  /// `deadline` (``AdminSession/timedOut(at:)``).
  case send(AdminRequest, deadline: MonotonicInstant)
  /// Wait until `time` on the caller's clock (a retry's backoff or a POST's deadline),
  /// then ask again.
  case wait(until: MonotonicInstant)
  /// Send these command APDU bytes to the card; report the response
  /// (``AdminSession/receiveCard(_:)``) or the card's removal
  /// (``AdminSession/cardRemoved()``).
  case transmit([UInt8])
  /// The server ended the session.
  case finished(AdminSummary)
  /// The session failed.
  case failed(RemoteManagementError)
}
