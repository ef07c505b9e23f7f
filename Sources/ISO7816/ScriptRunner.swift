// SPDX-License-Identifier: Apache-2.0
#if !hasFeature(Embedded)
  /// Runs applet-update scripts over a caller's transport, step by step, stopping at the
  /// first unexpected response (see ``ScriptRun`` for the logic without I/O).
  public struct ScriptRunner<Transport: APDUTransport> {
    /// The caller's transport.
    public var transport: Transport
    /// The exchange options for every step.
    public var options: APDUExchangeOptions
    /// The result of the last run, also after it failed: the responses of the executed
    /// steps, the failing one included.
    public private(set) var lastResult = ScriptResult(responses: [])

    /// Creates a runner over `transport`.
    public init(transport: Transport, options: APDUExchangeOptions = .standard) {
      self.transport = transport
      self.options = options
    }

    /// Runs `script`, calling `progress` after every step.
    ///
    /// - Returns: the responses of every step.
    /// - Throws: ``APDUExchangeError/transport(_:)`` when the transport fails, or
    ///   ``APDUExchangeError/apdu(_:)`` with the first unexpected response
    ///   (``APDUError/Code/unexpectedStatusWord``, ``APDUError/Code/unexpectedResponseData``)
    ///   or exchange error, naming the step. ``lastResult`` keeps what ran.
    public mutating func run(
      _ script: Script, round: Int = 1, progress: (ScriptProgress) -> Void = { _ in }
    ) async throws(APDUExchangeError<Transport.Failure>) -> ScriptResult {
      var run = ScriptRun(script: script, options: options)
      lastResult = run.result
      while let bytes = run.nextCommand {
        let reply: [UInt8]
        do { reply = try await transport.transmit(bytes) } catch {
          lastResult = run.result
          throw .transport(error)
        }
        let finished: ResponseAPDU?
        do { finished = try run.receive(reply) } catch {
          lastResult = run.result
          if let failed = run.responses.last, error.step == run.responses.count - 1 {
            var current = run.progress
            current.round = round
            current.statusWord = failed.statusWord
            progress(current)
          }
          throw .apdu(error)
        }
        if finished != nil {
          var current = run.progress
          current.round = round
          progress(current)
        }
      }
      lastResult = run.result
      if let failure = run.failure { throw .apdu(failure) }
      return run.result
    }
  }
#endif
