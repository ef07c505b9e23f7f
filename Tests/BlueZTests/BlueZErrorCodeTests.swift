// SPDX-License-Identifier: Apache-2.0
import BlueZ
import Testing

/// `BlueZError.Code` is a struct over a private enum: each code prints the name the public
/// enum's case printed, equal codes compare equal, and a client switches over the statics
/// with a default case (a code added later does not break it).
@Suite struct BlueZErrorCodeTests {
  @Test(arguments: [
    (BlueZError.Code.noBus, "noBus"), (.noBlueZ, "noBlueZ"), (.noAdapter, "noAdapter"),
    (.poweredOff, "poweredOff"), (.permissionDenied, "permissionDenied"), (.inProgress, "inProgress"),
    (.unknownDevice, "unknownDevice"), (.failed, "failed"), (.timedOut, "timedOut"), (.other, "other"),
    (.blueZExited, "blueZExited"), (.adapterRemoved, "adapterRemoved"),
  ])
  func printsItsName(code: BlueZError.Code, name: String) {
    #expect(code.name == name)
    #expect("\(code)" == name)
    #expect(BlueZError(code).description == name)
  }

  @Test func descriptionNamesTheCodeThenTheDBusError() {
    let error = BlueZError(dbusName: "org.bluez.Error.NotReady", message: "Resource Not Ready")
    #expect(error.description == "poweredOff (org.bluez.Error.NotReady): Resource Not Ready")
    #expect(
      BlueZError(.noAdapter, message: "BlueZ has no adapter").description == "noAdapter: BlueZ has no adapter"
    )
  }

  @Test func everyCodeHasItsOwnName() {
    let codes = BlueZError.Code.allCodes
    #expect(codes.count == 12)
    #expect(Set(codes.map(\.name)).count == codes.count)
    for code in codes { #expect(code.description == code.name) }
  }

  @Test func equalCodesCompareEqual() {
    #expect(BlueZError(dbusName: "org.bluez.Error.InProgress", message: "").code == .inProgress)
    #expect(BlueZError.Code.inProgress != .failed)
    #expect(Set([BlueZError.Code.noBus, .noBus, .noBlueZ]).count == 2)
  }

  @Test func switchWithDefault() {
    func advice(_ code: BlueZError.Code) -> String {
      switch code {
      case .noBus, .noBlueZ: "start bluetoothd"
      case .poweredOff: "power the adapter on"
      default: "retry"
      }
    }
    #expect(advice(.noBlueZ) == "start bluetoothd")
    #expect(advice(.poweredOff) == "power the adapter on")
    #expect(advice(.timedOut) == "retry")
  }
}
