// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A script run without I/O: it hands out the bytes to send, digests the responses through
/// an ``APDUExchange`` per step, checks each step's expectation and stops at the first
/// unexpected response.
///
/// ```swift
/// var run = ScriptRun(script: script)
/// while let bytes = run.nextCommand {
///   try run.receive(myCard.transmit(bytes))
/// }
/// ```
public struct ScriptRun: Sendable {
  /// The script.
  public let script: Script
  /// The exchange options used for every step.
  public let options: APDUExchangeOptions
  /// The responses of the steps finished so far.
  public private(set) var responses: [ResponseAPDU] = []
  /// The error that stopped the run, if any.
  public private(set) var failure: APDUError?
  /// Commands handed out so far (GET RESPONSEs and chain links included).
  public private(set) var transmissionCount = 0
  private var exchange: APDUExchange?

  /// Prepares a run of `script`.
  public init(script: Script, options: APDUExchangeOptions = .standard) {
    self.script = script
    self.options = options
    startStep()
  }

  /// The index of the step running now, or `nil` when finished.
  public var currentStep: Int? { isFinished ? nil : responses.count }

  /// Whether the run has finished (all steps done or a failure).
  public var isFinished: Bool { exchange == nil }

  /// The bytes to send next, or `nil` when the run has finished.
  public var nextCommand: [UInt8]? { exchange?.nextCommand }

  /// The result so far.
  public var result: ScriptResult { ScriptResult(responses: responses, failure: failure) }

  /// The progress after the last finished step.
  public var progress: ScriptProgress {
    ScriptProgress(
      completedSteps: responses.count, totalSteps: script.steps.count,
      statusWord: responses.last?.statusWord ?? .success)
  }

  private mutating func startStep() {
    let index = responses.count
    guard failure == nil, index < script.steps.count else {
      exchange = nil
      return
    }
    do {
      exchange = try APDUExchange(command: script.steps[index].command, options: options)
      transmissionCount += 1
    } catch {
      failure = error.at(step: index)
      exchange = nil
    }
  }

  /// Digests the response to ``nextCommand``.
  ///
  /// - Returns: the response of a step that just finished and met its expectation, or
  ///   `nil` while the step's exchange continues.
  /// - Throws: the exchange's errors, ``APDUError/Code/unexpectedStatusWord`` or
  ///   ``APDUError/Code/unexpectedResponseData``, each naming the step (also kept in
  ///   ``failure``); ``APDUError/Code/exchangeFinished`` after the end.
  @discardableResult
  public mutating func receive(_ bytes: [UInt8]) throws(APDUError) -> ResponseAPDU? {
    guard var current = exchange else {
      throw failure ?? APDUError(.exchangeFinished, offset: 0)
    }
    let index = responses.count
    let response: ResponseAPDU?
    do { response = try current.receive(bytes) } catch {
      let failed = error.at(step: index)
      failure = failed
      exchange = nil
      throw failed
    }
    guard let response else {
      exchange = current
      transmissionCount += 1
      return nil
    }
    responses.append(response)
    do { try script.steps[index].check(response, step: index) } catch {
      failure = error
      exchange = nil
      throw error
    }
    startStep()
    return response
  }
}
