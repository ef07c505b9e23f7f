// SPDX-License-Identifier: Apache-2.0
import PN532Simulator
import Testing

/// `SimulatorError.Code` is a struct over a private enum: each code prints its stable name,
/// equal codes compare equal, and a client switches over the statics with a default case.
@Suite struct SimulatorErrorCodeTests {
  @Test(arguments: [
    (SimulatorError.Code.pseudoTerminal, "pseudoTerminal"), (.invalidTag, "invalidTag"),
    (.cardBridge, "cardBridge"),
  ])
  func printsItsName(code: SimulatorError.Code, name: String) {
    #expect(code.name == name)
    #expect("\(code)" == name)
    #expect(SimulatorError(code, "why").description == "\(name): why")
  }

  @Test func everyCodeHasItsOwnName() {
    let codes = SimulatorError.Code.allCodes
    #expect(codes.count == 3)
    #expect(Set(codes.map(\.name)).count == codes.count)
    for code in codes { #expect(code.description == code.name) }
  }

  @Test func equalCodesCompareEqual() throws {
    #expect(SimulatorError.Code.invalidTag == .invalidTag)
    #expect(SimulatorError.Code.invalidTag != .pseudoTerminal)
    let error = try #require(throws: SimulatorError.self) {
      try SimulatedType2Tag(product: .ntag213, uid: [1, 2, 3])
    }
    #expect(error.code == .invalidTag)
  }

  @Test func switchWithDefault() {
    func isSetupFailure(_ code: SimulatorError.Code) -> Bool {
      switch code {
      case .pseudoTerminal: true
      default: false
      }
    }
    #expect(isSetupFailure(.pseudoTerminal))
    #expect(!isSetupFailure(.invalidTag))
  }
}
