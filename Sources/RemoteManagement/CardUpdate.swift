// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// An update to apply to a card's applets, as card-reader SDKs present it: an identifier,
/// an estimated duration, when it becomes required, and where its commands come from.
public struct CardUpdate: Sendable, Hashable {
  /// Where the commands come from.
  public enum Source: Sendable, Hashable {
    /// A local applet-update script (ISO7816's script text format).
    case script(Script)
    /// A remote management session (GlobalPlatform Amendment B) starting at the URI.
    case remote(AdminSessionConfiguration)
    /// An interrupted remote management session, resumed from a checkpoint with
    /// `X-Admin-Resume: true`.
    case resumed(AdminCheckpoint, AdminSessionConfiguration)
  }

  /// The update's identifier.
  public var id: String
  /// The estimated duration, for display.
  public var estimatedDuration: Duration
  /// Whether the update is required at every connect until done.
  public var isMandatory: Bool
  /// When an optional update becomes required (on the caller's clock), or `nil`.
  public var requiredAt: MonotonicInstant?
  /// Whether the update can be cancelled once started (an incremental update that leaves
  /// the applet in a usable state after each round trip cannot always be).
  public var isCancellable: Bool
  /// The commands' source.
  public var source: Source

  /// Creates an update.
  public init(
    id: String, estimatedDuration: Duration = .zero, isMandatory: Bool = false,
    requiredAt: MonotonicInstant? = nil,
    isCancellable: Bool = true, source: Source
  ) {
    self.id = id
    self.estimatedDuration = estimatedDuration
    self.isMandatory = isMandatory
    self.requiredAt = requiredAt
    self.isCancellable = isCancellable
    self.source = source
  }

  /// Whether the update is required at a connect at `now`: mandatory, or past ``requiredAt``.
  public func isRequired(at now: MonotonicInstant) -> Bool {
    isMandatory || (requiredAt.map { now >= $0 } ?? false)
  }

  /// Steps known before running: the script's steps, 0 for a remote session (its round
  /// trips reveal them).
  public var knownSteps: Int {
    if case .script(let script) = source { return script.steps.count }
    return 0
  }
}

/// Why an update, or the connection waiting for it, failed.
public struct CardUpdateError: Error, Sendable, Hashable {
  /// What happened: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable, CaseIterable {
      case requiredUpdateCancelled, commandFailed, sessionFailed, transportFailed, notCancellable
      case unknownUpdate
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// The caller cancelled a required update: the connection fails.
    public static let requiredUpdateCancelled = Code(.requiredUpdateCancelled)
    /// A command of the update was answered with a status word that stops it
    /// (``CardUpdateError/step``, ``CardUpdateError/statusWord``).
    public static let commandFailed = Code(.commandFailed)
    /// The remote management session failed (``CardUpdateError/session``).
    public static let sessionFailed = Code(.sessionFailed)
    /// The card transport failed while a script ran.
    public static let transportFailed = Code(.transportFailed)
    /// The update cannot be cancelled once started.
    public static let notCancellable = Code(.notCancellable)
    /// No update with that identifier is available.
    public static let unknownUpdate = Code(.unknownUpdate)

    /// Every code, for tests and documentation.
    public static var allCodes: [Code] { Value.allCases.map(Code.init) }

    /// The code's name, e.g. `commandFailed`.
    public var name: String {
      switch value {
      case .requiredUpdateCancelled: "requiredUpdateCancelled"
      case .commandFailed: "commandFailed"
      case .sessionFailed: "sessionFailed"
      case .transportFailed: "transportFailed"
      case .notCancellable: "notCancellable"
      case .unknownUpdate: "unknownUpdate"
      }
    }

    /// The name.
    public var description: String { name }
  }

  /// What happened.
  public var code: Code
  /// The update concerned.
  public var updateID: String
  /// The round trip (1 for a local script) of ``Code/commandFailed``.
  public var round: Int?
  /// The step (0-based) of ``Code/commandFailed``.
  public var step: Int?
  /// The card's status word of ``Code/commandFailed``.
  public var statusWord: StatusWord?
  /// The session's error of ``Code/sessionFailed``.
  public var session: RemoteManagementError?

  /// Creates an error.
  public init(
    _ code: Code, updateID: String, round: Int? = nil, step: Int? = nil, statusWord: StatusWord? = nil,
    session: RemoteManagementError? = nil
  ) {
    self.code = code
    self.updateID = updateID
    self.round = round
    self.step = step
    self.statusWord = statusWord
    self.session = session
  }
}

/// How an update run ended, as its runner reports it to ``CardUpdatePlan``.
public enum CardUpdateOutcome: Sendable, Hashable {
  /// Every command was accepted.
  case succeeded
  /// The update failed.
  case failed(CardUpdateError)
}

/// The state of a connection that applies updates at connect.
public struct CardConnectionState: RawRepresentable, Sendable, Hashable {
  /// The raw value.
  public let rawValue: UInt8
  /// Creates a state from its raw value.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Required updates are running: the connection is not usable yet.
  public static let connecting = CardConnectionState(rawValue: 0)
  /// Usable; optional updates may be offered.
  public static let ready = CardConnectionState(rawValue: 1)
  /// An optional update asked for by the caller is running.
  public static let updating = CardConnectionState(rawValue: 2)
  /// A required update failed or was cancelled (``CardUpdatePlan/failure``).
  public static let failed = CardConnectionState(rawValue: 3)
}

/// The update policy of one connect, without I/O or clock: required updates run first
/// (the connection is ``CardConnectionState/connecting`` until they finish), optional
/// ones are offered and run on request, progress is steps done over steps known.
///
/// ```swift
/// var plan = CardUpdatePlan(updates: updates, at: clock())
/// while let update = plan.startNext() {
///   let outcome = await run(update) { done, known in plan.reportProgress(completed: done, known: known) }
///   plan.finish(outcome)
/// }
/// ```
public struct CardUpdatePlan: Sendable {
  /// The connection's state.
  public private(set) var state: CardConnectionState
  /// Optional updates not run yet (they become required at a later connect past
  /// ``CardUpdate/requiredAt``).
  public private(set) var available: [CardUpdate]
  /// Updates that finished successfully, in order.
  public private(set) var completed: [String] = []
  /// The update running now.
  public private(set) var current: CardUpdate?
  /// Why the connection failed.
  public private(set) var failure: CardUpdateError?
  /// Steps done and steps known for the current update.
  public private(set) var completedSteps = 0
  /// Steps known for the current update (grows as round trips reveal scripts).
  public private(set) var knownSteps = 0
  private var queue: [CardUpdate]

  /// Sorts `updates` at a connect at `now`: required ones (mandatory, or past their
  /// ``CardUpdate/requiredAt``) queue up in order, the others are ``available``.
  public init(updates: [CardUpdate], at now: MonotonicInstant) {
    queue = updates.filter { $0.isRequired(at: now) }
    available = updates.filter { !$0.isRequired(at: now) }
    state = queue.isEmpty ? .ready : .connecting
  }

  /// The fraction of the current update done (0 when nothing is known yet).
  public var fraction: Double {
    knownSteps == 0 ? 0 : Double(completedSteps) / Double(knownSteps)
  }

  /// Starts the next queued update and returns it, or `nil` (then the state is
  /// ``CardConnectionState/ready`` or ``CardConnectionState/failed``).
  public mutating func startNext() -> CardUpdate? {
    guard current == nil, state != .failed else { return nil }
    guard !queue.isEmpty else {
      state = .ready
      return nil
    }
    let update = queue.removeFirst()
    current = update
    completedSteps = 0
    knownSteps = update.knownSteps
    return update
  }

  /// Queues the available optional update `id` to run now; the state becomes
  /// ``CardConnectionState/updating`` when the connection is ready.
  ///
  /// - Throws: ``CardUpdateError/Code/unknownUpdate``.
  public mutating func request(_ id: String) throws(CardUpdateError) {
    guard let index = available.firstIndex(where: { $0.id == id }) else {
      throw CardUpdateError(.unknownUpdate, updateID: id)
    }
    queue.append(available.remove(at: index))
    if state == .ready { state = .updating }
  }

  /// Records progress of the current update: `completed` steps of `known`.
  public mutating func reportProgress(completed: Int, known: Int) {
    guard current != nil else { return }
    completedSteps = max(0, completed)
    knownSteps = max(known, completedSteps)
  }

  /// Records the end of the current update. A failed required update fails the
  /// connection; a failed optional one goes back to ``available``.
  public mutating func finish(_ outcome: CardUpdateOutcome) {
    guard let update = current else { return }
    current = nil
    switch outcome {
    case .succeeded:
      completed.append(update.id)
      if queue.isEmpty && state != .failed { state = .ready }
    case .failed(let error):
      if state == .connecting {
        failure = error
        state = .failed
        queue = []
      } else {
        available.append(update)
        if queue.isEmpty { state = .ready }
      }
    }
  }

  /// Cancels the current update. A required one fails the connection with
  /// ``CardUpdateError/Code/requiredUpdateCancelled``; an optional one goes back to
  /// ``available``.
  ///
  /// - Throws: ``CardUpdateError/Code/notCancellable`` for an update that says it cannot
  ///   be cancelled (it keeps running).
  public mutating func cancel() throws(CardUpdateError) {
    guard let update = current else { return }
    guard update.isCancellable else { throw CardUpdateError(.notCancellable, updateID: update.id) }
    finish(.failed(CardUpdateError(.requiredUpdateCancelled, updateID: update.id)))
  }
}
