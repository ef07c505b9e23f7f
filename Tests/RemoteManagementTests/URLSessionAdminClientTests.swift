// SPDX-License-Identifier: Apache-2.0
import Foundation
import RemoteManagement
import RemoteManagementHTTP
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `Tests/Tools/ram-server.py` (Debian's python3) on 127.0.0.1 only, killed by PID.
final class LocalRAMServer {
  let process = Process()
  let port: Int
  let directory: String

  init(description: String) throws {
    directory = NSTemporaryDirectory() + "tapwire-ram-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let descriptionPath = directory + "/description.json"
    try description.write(toFile: descriptionPath, atomically: true, encoding: .utf8)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Tools/ram-server.py").path
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script, "--description", descriptionPath, "--log", directory + "/log.jsonl"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    guard line.hasPrefix("listening "),
      let port = Int(line.dropFirst(10).trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw CocoaError(.fileReadUnknown)
    }
    self.port = port
  }

  func url(_ scenario: String) -> String { "http://127.0.0.1:\(port)/s/\(scenario)" }

  deinit {
    // SIGKILL: a child of the test process starts with SIGTERM blocked (the spawning thread's
    // mask), so SIGTERM would wait forever.
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }
}

@Suite struct URLSessionAdminClientTests {
  static let limit = 4096

  /// Bodies of exactly the limit and one byte over, declared by `Content-Length` or read to
  /// the close.
  static let description = """
    {
      "atLimit": {"rounds": [{"commands": [], "fault": {"hugeBody": \(limit)}}]},
      "overLimit": {"rounds": [{"commands": [], "fault": {"hugeBody": \(limit + 1)}}]},
      "atLimitUnsized": {"rounds": [{"commands": [], "fault": {"hugeBody": \(limit), "omitLength": true}}]},
      "overLimitUnsized": {"rounds": [{"commands": [], "fault": {"hugeBody": \(limit + 1), "omitLength": true}}]}
    }
    """

  @Test(arguments: [
    ("atLimit", true), ("overLimit", false), ("atLimitUnsized", true), ("overLimitUnsized", false),
  ])
  func bodyOfTheLimitIsKeptAndOneByteMoreIsRefused(scenario: String, kept: Bool) async throws {
    let server = try LocalRAMServer(description: Self.description)
    var client = URLSessionAdminClient(maximumBodySize: Self.limit)
    let request = AdminRequest(uri: server.url(scenario), headers: [], body: [])
    let result = await client.send(request, timeout: .seconds(20))
    if kept {
      guard case .response(let response) = result else {
        Issue.record("\(scenario): \(result)")
        return
      }
      #expect(response.statusCode == 200)
      #expect(response.body == [UInt8](repeating: 0, count: Self.limit))
    } else {
      #expect(result == .bodyTooLarge(limit: Self.limit), "\(scenario)")
    }
  }

  /// A deadline under a second (or with a fraction) is the client's: FoundationNetworking
  /// turns `URLRequest.timeoutInterval` into `Int(interval) * 1000` ms, so 0.5 s would be a
  /// 1 ms timer failing about half of these requests at once as timed out (the remote
  /// management soak's `roundTripTimeout`s). Each of 40 requests answered at once arrives.
  @Test func subSecondDeadlineIsNotTruncated() async throws {
    let server = try LocalRAMServer(description: #"{"ok": {"rounds": [{"commands": ["80CA006600"]}]}}"#)
    var client = URLSessionAdminClient(maximumBodySize: Self.limit)
    var failures: [String] = []
    for index in 0..<40 {
      let request = AdminRequest(uri: server.url("ok"), headers: [], body: [])
      let began = ContinuousClock.now
      let result = await client.send(request, timeout: .milliseconds(500))
      guard case .response(let response) = result, response.statusCode == 200 else {
        failures.append("request \(index): \(result) after \(ContinuousClock.now - began)")
        continue
      }
    }
    #expect(failures.isEmpty, "\(failures)")
  }
}
