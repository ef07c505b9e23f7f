// SPDX-License-Identifier: Apache-2.0
import RemoteManagement
import Testing

/// `CardUpdateError.Code` is a struct over a private enum: each code prints its stable name
/// (the `code` of `tapwire-nfc admin --json`), equal codes compare equal, and a client
/// switches over the statics with a default case.
@Suite struct CardUpdateErrorTests {
  @Test(arguments: [
    (CardUpdateError.Code.requiredUpdateCancelled, "requiredUpdateCancelled"),
    (.commandFailed, "commandFailed"),
    (.sessionFailed, "sessionFailed"), (.transportFailed, "transportFailed"),
    (.notCancellable, "notCancellable"), (.unknownUpdate, "unknownUpdate"),
  ])
  func printsItsName(code: CardUpdateError.Code, name: String) {
    #expect(code.name == name)
    #expect("\(code)" == name)
  }

  @Test func everyCodeHasItsOwnName() {
    let codes = CardUpdateError.Code.allCodes
    #expect(codes.count == 6)
    #expect(Set(codes.map(\.name)).count == codes.count)
    for code in codes { #expect(code.description == code.name) }
  }

  @Test func equalCodesCompareEqual() {
    let error = CardUpdateError(.commandFailed, updateID: "fw", round: 1, step: 0, statusWord: .incorrectData)
    #expect(error.code == .commandFailed)
    #expect(error.code != .sessionFailed)
    #expect(Set([CardUpdateError.Code.unknownUpdate, .unknownUpdate, .notCancellable]).count == 2)
  }

  @Test func switchWithDefault() {
    func connectionFails(_ code: CardUpdateError.Code) -> Bool {
      switch code {
      case .requiredUpdateCancelled, .commandFailed, .sessionFailed, .transportFailed: true
      default: false
      }
    }
    #expect(connectionFails(.requiredUpdateCancelled))
    #expect(connectionFails(.transportFailed))
    #expect(!connectionFails(.notCancellable))
    #expect(!connectionFails(.unknownUpdate))
  }
}
