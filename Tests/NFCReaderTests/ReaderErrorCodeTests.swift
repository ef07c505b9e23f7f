// SPDX-License-Identifier: Apache-2.0
import NFCReader
import Testing

/// `ReaderError.Code` is a struct over a private enum: each code prints its stable name,
/// equal codes compare equal, and a client switches over the statics with a default case.
@Suite struct ReaderErrorCodeTests {
  @Test(arguments: [
    (ReaderError.Code.noReader, "noReader"), (.unsupportedFeature, "unsupportedFeature"),
    (.deviceBusy, "deviceBusy"), (.deviceFailure, "deviceFailure"), (.timeout, "timeout"),
    (.tagLost, "tagLost"), (.tagError, "tagError"), (.cancelled, "cancelled"),
    (.sessionEnded, "sessionEnded"), (.sessionAlreadyStarted, "sessionAlreadyStarted"),
    (.invalidArgument, "invalidArgument"),
  ])
  func printsItsName(code: ReaderError.Code, name: String) {
    #expect(code.name == name)
    #expect("\(code)" == name)
    #expect(ReaderError(code, "why").description == "\(name): why")
  }

  @Test func everyCodeHasItsOwnName() {
    let codes = ReaderError.Code.allCodes
    #expect(codes.count == 11)
    #expect(Set(codes).count == codes.count)
    #expect(Set(codes.map(\.name)).count == codes.count)
    for code in codes { #expect(code.description == code.name) }
  }

  @Test func equalCodesCompareEqual() {
    var error = ReaderError(.tagLost, "gone")
    #expect(error.code == .tagLost)
    #expect(error.code != .tagError)
    error.code = .tagError
    #expect(error == ReaderError(.tagError, "gone"))
    #expect(Set([ReaderError.Code.timeout, .timeout, .cancelled]).count == 2)
  }

  @Test func switchWithDefault() {
    func outcome(_ code: ReaderError.Code) -> String {
      switch code {
      case .tagLost, .timeout: "retry"
      case .noReader: "plug a reader in"
      default: "fail"
      }
    }
    #expect(outcome(.tagLost) == "retry")
    #expect(outcome(.timeout) == "retry")
    #expect(outcome(.noReader) == "plug a reader in")
    #expect(outcome(.deviceBusy) == "fail")
  }
}
