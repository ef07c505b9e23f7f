// SPDX-License-Identifier: Apache-2.0
import ISO7816
import RemoteManagement
import Testing

@Suite struct CardUpdatePlanTests {
  let script = Script(commands: [CommandAPDU(cla: 0x80, ins: 0x10, p1: 0, p2: 0)])
  var required: CardUpdate {
    CardUpdate(id: "fw-2", estimatedDuration: .seconds(4), isMandatory: true, source: .script(script))
  }
  var optional: CardUpdate {
    CardUpdate(
      id: "loyalty", requiredAt: ms(10_000), isCancellable: false,
      source: .remote(AdminSessionConfiguration(serverURI: "https://ram.example/loyalty")))
  }

  @Test func requiredUpdatesRunAtConnectWhileConnecting() {
    var plan = CardUpdatePlan(updates: [required, optional], at: ms(5_000))
    #expect(plan.state == .connecting)
    #expect(plan.available.map(\.id) == ["loyalty"])
    let update = plan.startNext()
    #expect(update?.id == "fw-2")
    #expect(plan.knownSteps == 1)
    plan.reportProgress(completed: 1, known: 1)
    #expect(plan.fraction == 1)
    #expect(plan.state == .connecting)
    plan.finish(.succeeded)
    #expect(plan.startNext() == nil)
    #expect(plan.state == .ready)
    #expect(plan.completed == ["fw-2"])
  }

  @Test func optionalUpdatesBecomeRequiredAfterRequiredAt() throws {
    let early = CardUpdatePlan(updates: [optional], at: ms(9_999))
    #expect(early.state == .ready)
    var late = CardUpdatePlan(updates: [optional], at: ms(10_000))
    #expect(late.state == .connecting)
    #expect(late.available.isEmpty)
    #expect(late.startNext()?.id == "loyalty")
    #expect(late.knownSteps == 0)
    // Round trips reveal more steps: 2 of 3, then 3 of 5.
    late.reportProgress(completed: 2, known: 3)
    #expect(abs(late.fraction - 2.0 / 3.0) < 1e-9)
    late.reportProgress(completed: 3, known: 5)
    #expect(abs(late.fraction - 0.6) < 1e-9)
  }

  @Test func optionalUpdatesRunOnRequest() throws {
    var plan = CardUpdatePlan(updates: [optional], at: ms(0))
    #expect(plan.startNext() == nil)
    #expect(throws: CardUpdateError(.unknownUpdate, updateID: "nope")) { try plan.request("nope") }
    try plan.request("loyalty")
    #expect(plan.state == .updating)
    #expect(plan.startNext()?.id == "loyalty")
    // An optional update that fails goes back to the available list; the connection stays usable.
    plan.finish(
      .failed(
        CardUpdateError(.commandFailed, updateID: "loyalty", round: 2, step: 0, statusWord: .incorrectData)))
    #expect(plan.state == .ready)
    #expect(plan.available.map(\.id) == ["loyalty"])
    #expect(plan.failure == nil)
  }

  @Test func cancellingARequiredUpdateFailsTheConnection() throws {
    var plan = CardUpdatePlan(updates: [required, required], at: ms(0))
    _ = plan.startNext()
    try plan.cancel()
    #expect(plan.state == .failed)
    #expect(plan.failure == CardUpdateError(.requiredUpdateCancelled, updateID: "fw-2"))
    #expect(plan.startNext() == nil)
  }

  @Test func incrementalUpdatesThatCannotBeCancelledSaySo() throws {
    var plan = CardUpdatePlan(updates: [optional], at: ms(20_000))
    _ = plan.startNext()
    #expect(throws: CardUpdateError(.notCancellable, updateID: "loyalty")) { try plan.cancel() }
    #expect(plan.state == .connecting)
    #expect(plan.current?.id == "loyalty")
  }

  @Test func aFailedRequiredUpdateNamesTheStepAndStatusWord() throws {
    var plan = CardUpdatePlan(updates: [required], at: ms(0))
    _ = plan.startNext()
    let error = CardUpdateError(
      .commandFailed, updateID: "fw-2", round: 1, step: 0, statusWord: .securityStatusNotSatisfied)
    plan.finish(.failed(error))
    #expect(plan.state == .failed)
    #expect(plan.failure?.step == 0)
    #expect(plan.failure?.statusWord == .securityStatusNotSatisfied)
  }
}
