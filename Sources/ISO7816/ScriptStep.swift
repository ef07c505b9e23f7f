// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One step of an applet-update script: a command APDU and what its response must be.
public struct ScriptStep: Sendable, Hashable {
  /// The command.
  public var command: CommandAPDU
  /// How the command's length fields are written when the script is encoded (the runner's
  /// ``APDUExchangeOptions`` decide what goes on the wire).
  public var lengthEncoding: CommandAPDU.LengthEncoding
  /// The status words accepted, any of them (empty: every status word).
  public var expectedStatusWords: [StatusWordPattern]
  /// The exact response data expected, or `nil` not to check it.
  public var expectedData: [UInt8]?

  /// Creates a step; by default it expects 9000 and does not check the data.
  public init(
    command: CommandAPDU, expectedStatusWords: [StatusWordPattern] = [.success],
    expectedData: [UInt8]? = nil, lengthEncoding: CommandAPDU.LengthEncoding = .shortest
  ) {
    self.command = command
    self.expectedStatusWords = expectedStatusWords
    self.expectedData = expectedData
    self.lengthEncoding = lengthEncoding
  }

  /// Whether `response` meets the expectation.
  public func accepts(_ response: ResponseAPDU) -> Bool {
    (try? check(response, step: 0)) != nil
  }

  /// Checks `response` against the expectation.
  ///
  /// - Throws: ``APDUError/Code/unexpectedStatusWord`` or
  ///   ``APDUError/Code/unexpectedResponseData``, naming `step` and the status word.
  public func check(_ response: ResponseAPDU, step: Int) throws(APDUError) {
    let sw = response.statusWord
    if !expectedStatusWords.isEmpty && !expectedStatusWords.contains(where: { $0.matches(sw) }) {
      throw APDUError(.unexpectedStatusWord, offset: 0, step: step, statusWord: sw)
    }
    if let expectedData, expectedData != response.data {
      throw APDUError(.unexpectedResponseData, offset: 0, step: step, statusWord: sw)
    }
  }
}
