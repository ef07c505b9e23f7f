// SPDX-License-Identifier: Apache-2.0
/// The outcome of a script run.
public struct ScriptResult: Sendable, Hashable {
  /// The final response of every executed step, the failing one included.
  public var responses: [ResponseAPDU]
  /// The first unexpected response or exchange error, naming its step; `nil` when every
  /// step met its expectation.
  public var failure: APDUError?

  /// Creates a result.
  public init(responses: [ResponseAPDU], failure: APDUError? = nil) {
    self.responses = responses
    self.failure = failure
  }

  /// The number of steps executed (ETSI TS 102 226's "number of executed C-APDUs").
  public var executedCount: Int { responses.count }

  /// The responses as an ETSI TS 102 226 §5.2.2 response scripting template: the executed
  /// count and an R-APDU per executed step (or only the last when `lastOnly`).
  public func responseScript(lastOnly: Bool = false) -> RemoteResponseScript {
    let listed = lastOnly ? Array(responses.suffix(1)) : responses
    return RemoteResponseScript(executedCount: executedCount, responses: listed)
  }
}
