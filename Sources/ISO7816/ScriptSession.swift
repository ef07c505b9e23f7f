// SPDX-License-Identifier: Apache-2.0
#if !hasFeature(Embedded)
  /// A remote applet-update session over several round trips (ETSI TS 102 226 expanded
  /// format): the server sends a command scripting template, the session runs it and
  /// answers with a response scripting template, until the server is done.
  ///
  /// The session counts rounds and executed commands over the whole update and keeps the
  /// last failure. A batch that hits an error status word still produces its response
  /// template (the executed count includes the failing command), as the specification
  /// reports errors to the server rather than aborting the session.
  public struct ScriptSession<Transport: APDUTransport> {
    /// The runner, and through it the transport.
    public var runner: ScriptRunner<Transport>
    /// Whether the session accepts further batches.
    public private(set) var state = ScriptSessionState.active
    /// Batches processed so far.
    public private(set) var roundCount = 0
    /// C-APDUs executed over all rounds.
    public private(set) var executedCount = 0
    /// The last batch's error, if any (its step index counts within that batch).
    public private(set) var lastFailure: APDUError?
    /// Whether each response template lists only the last R-APDU instead of all.
    public var listsOnlyLastResponse: Bool

    /// Creates a session over `transport`.
    public init(
      transport: Transport, options: APDUExchangeOptions = .standard,
      listsOnlyLastResponse: Bool = false
    ) {
      self.runner = ScriptRunner(transport: transport, options: options)
      self.listsOnlyLastResponse = listsOnlyLastResponse
    }

    /// Runs one batch (a command scripting template `AA`/`AE`) and returns the response
    /// scripting template `AB`. A batch without C-APDUs ends the session and is answered
    /// with an executed count of 0.
    ///
    /// - Throws: ``APDUExchangeError/apdu(_:)`` with ``APDUError/Code/sessionFinished``
    ///   after the end or the template's decoding error;
    ///   ``APDUExchangeError/transport(_:)`` when the transport fails.
    public mutating func respond(
      to batch: [UInt8], progress: (ScriptProgress) -> Void = { _ in }
    ) async throws(APDUExchangeError<Transport.Failure>) -> [UInt8] {
      guard state == .active else { throw .apdu(APDUError(.sessionFinished, offset: 0)) }
      let commands: RemoteCommandScript
      do { commands = try RemoteCommandScript(parsing: batch) } catch { throw .apdu(error) }
      roundCount += 1
      if commands.script.steps.isEmpty {
        state = .finished
        return RemoteResponseScript(executedCount: 0, responses: []).encodedBytes()
      }
      let result: ScriptResult
      do {
        result = try await runner.run(commands.script, round: roundCount, progress: progress)
        lastFailure = nil
      } catch {
        switch error {
        case .transport: throw error
        case .apdu(let failure):
          lastFailure = failure
          result = runner.lastResult
        }
      }
      executedCount += result.executedCount
      return result.responseScript(lastOnly: listsOnlyLastResponse).encodedBytes()
    }

    /// Ends the session: later batches are refused.
    public mutating func finish() { state = .finished }
  }
#endif
