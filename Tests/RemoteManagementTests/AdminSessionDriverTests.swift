// SPDX-License-Identifier: Apache-2.0
import ISO7816
import RemoteManagement
import Synchronization
import Testing

/// An HTTP client whose every POST fails to connect.
struct RefusingClient: AdminHTTPClient {
  var sent = 0
  mutating func send(_ request: AdminRequest, timeout: Duration) async -> AdminHTTPResult {
    sent += 1
    return .connectionFailed("refused")
  }
}

/// A card that is never reached (the sessions here fail before a script).
struct UnreachedCard: APDUTransport {
  mutating func transmit(_ command: [UInt8]) async throws(APDUError) -> [UInt8] { [0x6F, 0x00] }
}

@Suite struct AdminSessionDriverTests {
  /// A non-cancellable update in a cancelled task: the backoff is waited for, not spun through
  /// (`Task.sleep` returns at once in a cancelled task).
  @Test func backoffInACancelledTaskWaitsWhenCancellationIsNotHonoured() async {
    let backoff = Duration.milliseconds(300)
    let task = Task { () -> (Duration, Int, Int, RemoteManagementError?) in
      while !Task.isCancelled { await Task.yield() }
      let clockReads = Atomic<Int>(0)
      let origin = ContinuousClock.now
      var driver = AdminSessionDriver(
        client: RefusingClient(), transport: UnreachedCard(),
        now: {
          clockReads.add(1, ordering: .relaxed)
          return MonotonicInstant(ContinuousClock.now, origin: origin)
        })
      driver.honoursCancellation = false
      var configuration = AdminSessionConfiguration(serverURI: "http://127.0.0.1:9/ram")
      configuration.retryPolicy = AdminRetryPolicy(maximumAttempts: 2, initialBackoff: backoff)
      var session = AdminSession(configuration)
      let start = ContinuousClock.now
      let result = await driver.run(&session)
      let elapsed = ContinuousClock.now - start
      var error: RemoteManagementError?
      if case .failure(let failure) = result { error = failure }
      return (elapsed, clockReads.load(ordering: .relaxed), driver.client.sent, error)
    }
    task.cancel()
    let (elapsed, clockReads, sent, error) = await task.value
    // Not cancelled: both attempts went out and the second failure ends the session.
    #expect(error?.code == .transportFailed)
    #expect(sent == 2)
    #expect(elapsed >= backoff)
    // A handful of clock reads per step; a spinning loop reads it thousands of times.
    #expect(clockReads < 50, "the clock was read \(clockReads) times during a \(backoff) backoff")
  }

  /// A cancellable update in a cancelled task ends at once, as before.
  @Test func aCancelledTaskCancelsAHonouringDriver() async {
    let task = Task { () -> RemoteManagementError? in
      while !Task.isCancelled { await Task.yield() }
      var driver = AdminSessionDriver(client: RefusingClient(), transport: UnreachedCard())
      var configuration = AdminSessionConfiguration(serverURI: "http://127.0.0.1:9/ram")
      configuration.retryPolicy = AdminRetryPolicy(maximumAttempts: 2, initialBackoff: .seconds(60))
      var session = AdminSession(configuration)
      if case .failure(let failure) = await driver.run(&session) { return failure }
      return nil
    }
    task.cancel()
    #expect(await task.value?.code == .cancelled)
  }
}
