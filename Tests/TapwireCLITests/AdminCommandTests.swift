// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `tapwire admin --device` (libnfc) against the simulated PN532's Type 4 tag: a local script,
/// and a two-round remote session from `Tests/Tools/ram-server.py` running with `tapwire` in
/// one private network namespace (`unshare --net`; root only, required where CI sets
/// `TAPWIRE_REQUIRE_PCSC=1`).
@Suite("tapwire admin --device", .timeLimit(.minutes(2)))
struct AdminCommandTests {
  static let ndefApplication = "D2760000850101"

  static var canUnshare: Bool {
    geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
  }

  @Test func aLocalScriptRunsOnALibNFCReader() throws {
    let (simulator, input, connstring) = try APDUCommandTests.startType4()
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let path = try APDUCommandTests.scriptFile(
      "\(APDUCommandTests.selectApplication)\n\(APDUCommandTests.selectCC)\n\(APDUCommandTests.readCC) -> 61XX|9000\n"
    )
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["admin", "--script", path, "--device", connstring, "--timeout", "10", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("card: type4 tag UID 08545704"))
    #expect(result.stderr.contains("round trip 1 command 3/3 READ BINARY 00b000000f -> 9000 ok (100%)"))
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    #expect((object["commands"] as? [[String: Any]])?.count == 3)
  }

  @Test func aRemoteSessionRunsOnALibNFCReader() throws {
    if !Self.canUnshare {
      #expect(
        ProcessInfo.processInfo.environment["TAPWIRE_REQUIRE_PCSC"] != "1",
        "needs root and unshare for a private network namespace")
      return
    }
    let (simulator, input, connstring) = try APDUCommandTests.startType4()
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapwire-admin-\(getpid())")
      .path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try """
    {"t4": {"rounds": [
      {"commands": ["00A4000C02E103", "00B000000F"]},
      {"require": [[1, 1, "9000"]], "commands": ["00A4000C02E104", "00B0000002"]}
    ]}}
    """.write(toFile: directory + "/description.json", atomically: true, encoding: .utf8)
    let server = CLI.root.appendingPathComponent("Tests/Tools/ram-server.py").path
    // The server and tapwire share the namespace's loopback; the server is stopped by its PID.
    let script = """
      ip link set lo up || exit 3
      /usr/bin/python3 \(server) --description \(directory)/description.json --log \(directory)/log.jsonl \
        > \(directory)/port &
      server=$!
      for i in $(seq 100); do grep -q listening \(directory)/port && break; sleep 0.1; done
      port=$(sed -n 's/listening //p' \(directory)/port)
      \(CLI.executable.path) admin http://127.0.0.1:$port/s/t4 --device \(connstring) --aid \(Self.ndefApplication) \
        --timeout 10 --json
      status=$?
      kill $server; wait $server
      exit $status
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = ["--net", "sh", "-c", script]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let stderr = String(decoding: errData, as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(stderr)")
    let object = try CLI.object(String(decoding: outData, as: UTF8.self))
    #expect(object["rounds"] as? Int == 2)
    // The NDEF file's length (NLEN) of the simulated URI message, read in round 2.
    #expect(stderr.contains("round trip 2 command 2/2 READ BINARY 00b0000002 -> 9000 ok"), "\(stderr)")
    let log = (try? String(contentsOfFile: directory + "/log.jsonl", encoding: .utf8)) ?? ""
    #expect(log.split(separator: "\n").count == 3)
  }
}
