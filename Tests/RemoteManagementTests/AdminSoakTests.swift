// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import ISO7816
import RemoteManagement
import RemoteManagementHTTP
import Testing

/// A card that answers 90 00 to every command, or goes away at command `failAt` (0-based).
struct SoakCard: APDUTransport {
  var failAt: Int?
  var sent = 0
  mutating func transmit(_ command: [UInt8]) async throws(APDUError) -> [UInt8] {
    defer { sent += 1 }
    if sent == failAt { throw APDUError(.truncatedStatusWord, offset: 0) }
    return [0x90, 0x00]
  }
}

/// SplitMix64 (Steele, Lea, Flood 2014): the soak's faults from a printed seed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Remote management sessions many times in this process against `ram-server.py`, each with a
/// fault drawn at random, with the process's memory, descriptors and threads flat
/// (``DaemonStack/SoakRun``). Runs only with `TAPWIRE_SOAK` set (`Benchmarks/run-soak.sh`,
/// CI's soak step): alone, so no other test moves the counts.
@Suite("Remote management soak", .serialized, .enabled(if: SoakRun.isEnabled, "TAPWIRE_SOAK is not set"))
struct AdminSoakTests {
  /// The body limit of the soak's clients (the `huge` scenarios send 64 times as much).
  static let limit = 64 * 1024

  /// Each scenario with the error code its session ends with (nil: it finishes).
  static let scenarios: [(name: String, fault: String, expected: RemoteManagementError.Code?)] = [
    ("ok", "{}", nil),
    ("dropped", #"{"dropUnlessResumed": true}"#, nil),
    ("status500", #"{"status": 500}"#, .httpStatus),
    ("status404", #"{"status": 404}"#, .httpStatus),
    ("malformed", #"{"body": "AA05800102"}"#, .malformedScript),
    ("noProtocol", #"{"omitProtocol": true}"#, .missingHeader),
    ("wrongType", #"{"contentType": "text/plain"}"#, .wrongContentType),
    ("redirectLoop", #"{"redirect": "/s/redirectLoop/1"}"#, .redirectLoop),
    ("truncate", #"{"truncate": true}"#, .transportFailed),
    ("huge", #"{"hugeBody": \#(limit * 64)}"#, .bodyTooLarge),
    ("hugeUnsized", #"{"hugeBody": \#(limit * 64), "omitLength": true}"#, .bodyTooLarge),
    // 400 KB of headers: over libcurl's 300 KiB for all of them. In 8 lines of 50 KB: 4,000
    // lines of 100 bytes take FoundationNetworking a few hundred ms on a loaded machine,
    // close to the round trip's 500 ms.
    ("headerFlood", #"{"headerFlood": 8, "headerBytes": 50000}"#, .transportFailed),
    ("delay", #"{"delay": 0.6}"#, .roundTripTimeout),
    ("cardGone", "{}", .cardRemoved),
  ]

  /// Two rounds of two commands; the fault applies to round 2.
  static var description: String {
    let commands = #"["80CA006600", "80CA00E000"]"#
    let entries = scenarios.map { scenario in
      #""\#(scenario.name)": {"rounds": [{"commands": \#(commands)}, {"commands": \#(commands), "fault": \#(scenario.fault)}]}"#
    }
    return "{\n" + entries.joined(separator: ",\n") + "\n}"
  }

  /// One cycle: a new `URLSessionAdminClient` and `AdminSession` (500 ms round trips, two
  /// attempts 1 ms apart) run one scenario to its end, checked against the expected code.
  /// 1,000 sessions in full, 50 in CI.
  @Test func sessionsWithRandomFaultsKeepMemoryDescriptorsAndThreadsFlat() async throws {
    let server = try LocalRAMServer(description: Self.description)
    let seed =
      ProcessInfo.processInfo.environment["TAPWIRE_SOAK_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
    print("soak remote management: seed \(seed) (TAPWIRE_SOAK_SEED=\(seed) repeats this run)")
    var random = SplitMix64(state: seed)
    var run = SoakRun("remote management", cycles: SoakRun.cycles(full: 1_000, short: 50))
    var outcomes: [String: Int] = [:]
    // Sessions that ended otherwise than their scenario says: each one fails the run.
    var unexpected: [String] = []
    // TAPWIRE_SOAK_SHARED_CLIENT=1: one client for every session (by default one each).
    let shared =
      ProcessInfo.processInfo.environment["TAPWIRE_SOAK_SHARED_CLIENT"] == "1"
      ? URLSessionAdminClient(maximumBodySize: Self.limit) : nil
    for cycle in 0..<run.cycles {
      let scenario = Self.scenarios.randomElement(using: &random)!
      var configuration = AdminSessionConfiguration(serverURI: server.url(scenario.name))
      configuration.roundTripTimeout = .milliseconds(500)
      configuration.retryPolicy = AdminRetryPolicy(maximumAttempts: 2, initialBackoff: .milliseconds(1))
      var session = AdminSession(configuration)
      var driver = AdminSessionDriver(
        client: shared ?? URLSessionAdminClient(maximumBodySize: Self.limit),
        transport: SoakCard(failAt: scenario.name == "cardGone" ? Int.random(in: 0..<4, using: &random) : nil)
      )
      let began = ContinuousClock.now
      var events: [String] = []
      let result = await driver.run(&session) { event, _ in
        events.append("\(ContinuousClock.now - began) \(event)")
      }
      var code: RemoteManagementError.Code?
      if case .failure(let error) = result { code = error.code }
      if code != scenario.expected {
        unexpected.append("cycle \(cycle), \(scenario.name): \(result) after \(events)")
      }
      outcomes[scenario.name, default: 0] += 1
      run.finished(cycle: cycle)
    }
    let problems = await run.finish()
    print(run.report)
    print("soak remote management: sessions per scenario \(outcomes.sorted { $0.key < $1.key })")
    print("soak remote management: \(unexpected.count) sessions ended otherwise than expected")
    for line in unexpected.prefix(20) { print("  " + line) }
    #expect(problems.isEmpty, "\(problems)")
    #expect(unexpected.isEmpty, "\(unexpected.count) of \(run.cycles) sessions ended otherwise than expected")
  }
}
