// SPDX-License-Identifier: Apache-2.0
import ISO7816

#if !hasFeature(Embedded)
  /// Runs ``CardUpdate``s on a card: a local script through `ScriptRun`, a remote
  /// one through an ``AdminSession``; both report ``AdminEvent``s (a local script as round 1).
  public struct CardUpdateRunner<Client: AdminHTTPClient, Transport: APDUTransport> {
    /// The driver, holding the HTTP client, the card transport and the clock.
    public var driver: AdminSessionDriver<Client, Transport>

    /// Where the last remote session that failed can be resumed
    /// (``CardUpdate/Source-swift.enum/resumed(_:_:)``), or `nil`.
    public private(set) var lastCheckpoint: AdminCheckpoint?

    /// Creates a runner.
    public init(driver: AdminSessionDriver<Client, Transport>) { self.driver = driver }

    /// Runs `update` and reports its events with the progress after each.
    ///
    /// - Returns: the outcome: ``CardUpdateError/Code/commandFailed`` with the round, step and
    ///   status word of the first command whose status word stopped a script,
    ///   ``CardUpdateError/Code/sessionFailed`` with the session's error,
    ///   ``CardUpdateError/Code/transportFailed`` when the card went away during a local script.
    public mutating func run(_ update: CardUpdate, onEvent: (AdminEvent, AdminProgress) -> Void = { _, _ in })
      async -> CardUpdateOutcome
    {
      driver.honoursCancellation = update.isCancellable
      switch update.source {
      case .remote, .resumed:
        var session: AdminSession
        if case .resumed(let checkpoint, let configuration) = update.source {
          session = AdminSession(resuming: checkpoint, configuration: configuration)
        } else if case .remote(let configuration) = update.source {
          session = AdminSession(configuration)
        } else {
          return .succeeded
        }
        let result = await driver.run(&session, onEvent: onEvent)
        lastCheckpoint = session.checkpoint
        switch result {
        case .success(let summary):
          lastCheckpoint = nil
          if let first = summary.commandFailures.first {
            return .failed(
              CardUpdateError(
                .commandFailed, updateID: update.id, round: first.round, step: first.step,
                statusWord: first.statusWord))
          }
          return .succeeded
        case .failure(let error):
          return .failed(
            CardUpdateError(
              .sessionFailed, updateID: update.id, round: error.round, step: error.step, session: error))
        }
      case .script(let script):
        return await runScript(
          script, id: update.id, cancellable: update.isCancellable, options: .standard, onEvent: onEvent)
      }
    }

    private mutating func runScript(
      _ script: Script, id: String, cancellable: Bool, options: APDUExchangeOptions,
      onEvent: (AdminEvent, AdminProgress) -> Void
    ) async -> CardUpdateOutcome {
      var run = ScriptRun(script: script, options: options)
      let count = script.steps.count
      var progress = AdminProgress(rounds: 1, completedCommands: 0, knownCommands: count)
      onEvent(.scriptReceived(round: 1, commandCount: count, application: nil), progress)
      while let bytes = run.nextCommand {
        if cancellable && Task.isCancelled {
          return .failed(
            CardUpdateError(.requiredUpdateCancelled, updateID: id, round: 1, step: run.currentStep))
        }
        let index = run.currentStep ?? 0
        let reply: [UInt8]
        do { reply = try await driver.transport.transmit(bytes) } catch {
          return .failed(CardUpdateError(.transportFailed, updateID: id, round: 1, step: index))
        }
        do {
          if let response = try run.receive(reply) {
            progress.completedCommands += 1
            onEvent(
              .commandFinished(
                round: 1, index: index, count: count, command: script.steps[index].command,
                statusWord: response.statusWord, accepted: true), progress)
          }
        } catch {
          let sw = error.statusWord ?? run.responses.last?.statusWord
          if let sw {
            progress.completedCommands += 1
            onEvent(
              .commandFinished(
                round: 1, index: index, count: count, command: script.steps[index].command, statusWord: sw,
                accepted: false), progress)
          }
          return .failed(
            CardUpdateError(.commandFailed, updateID: id, round: 1, step: error.step ?? index, statusWord: sw)
          )
        }
      }
      onEvent(.ended(rounds: 1), progress)
      return .succeeded
    }

    /// Runs the queued updates of `plan` (the required ones at connect, then any requested),
    /// reporting progress into the plan; cancelling the task cancels the current update
    /// when it can be cancelled.
    public mutating func run(
      _ plan: inout CardUpdatePlan, onEvent: (CardUpdate, AdminEvent, AdminProgress) -> Void = { _, _, _ in }
    ) async {
      while let update = plan.startNext() {
        var known = update.knownSteps
        var done = 0
        let outcome = await run(update) { event, progress in
          known = progress.knownCommands
          done = progress.completedCommands
          onEvent(update, event, progress)
        }
        plan.reportProgress(completed: done, known: known)
        if case .failed(let error) = outcome,
          error.code == .requiredUpdateCancelled
            || error.session?.code == .cancelled
        {
          try? plan.cancel()
        } else {
          plan.finish(outcome)
        }
      }
    }
  }
#endif
