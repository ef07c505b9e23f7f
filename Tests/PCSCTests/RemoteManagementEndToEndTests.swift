// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The remote management test server (`Tests/Tools/ram-server.py`, Debian's python3) in the
/// PC/SC stack's network namespace (entered with `nsenter --net`), stopped by PID.
final class RAMServer {
  static let python = "/usr/bin/python3"
  static let nsenter = "/usr/bin/nsenter"
  static var script: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Tools/ram-server.py").path
  }

  let process = Process()
  let output = Pipe()
  let port: Int
  let log: String
  let scheme: String

  /// Starts the server on 127.0.0.1 (a free port) inside the namespace of `pid`.
  init(namespaceOf pid: pid_t, description: String, directory: String, tls: (String, String)? = nil) throws {
    let name = tls == nil ? "ram" : "rams"
    let descriptionPath = directory + "/\(name)-description.json"
    try description.write(toFile: descriptionPath, atomically: true, encoding: .utf8)
    log = directory + "/\(name)-log.jsonl"
    scheme = tls == nil ? "http" : "https"
    process.executableURL = URL(fileURLWithPath: Self.nsenter)
    var arguments = [
      "--net=/proc/\(pid)/ns/net", Self.python, Self.script, "--description", descriptionPath, "--log", log,
    ]
    if let tls { arguments += ["--tls", tls.0, tls.1] }
    process.arguments = arguments
    process.standardOutput = output
    try process.run()
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    guard line.hasPrefix("listening "),
      let port = Int(line.dropFirst(10).trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      kill(process.processIdentifier, SIGKILL)
      throw DaemonStackError("ram-server did not start: \(line)")
    }
    self.port = port
  }

  func url(_ scenario: String) -> String { "\(scheme)://127.0.0.1:\(port)/s/\(scenario)" }

  /// The logged requests, oldest first.
  func requests() -> [[String: String]] {
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
    }
  }

  /// SIGKILL by PID (nsenter execs python, so it is the server's), then wait. Not SIGTERM:
  /// a child of the test process starts with SIGTERM blocked (the spawning thread's mask),
  /// so it waited out `PCSCStack.terminate`'s 10 s grace on every test.
  func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  deinit { stop() }
}

extension PCSCTransportTests {
  /// The applet the three-round update installs: load file, module and application AIDs.
  static let loadFile = "a0000006470101"
  static let module = "a000000647010101"
  static let applet = "a00000064701010101"

  static let description = """
    {
      "install": {"rounds": [
        {"commands": ["80CA00FE00", "80E60C00 [07\(loadFile) 08\(module) 09\(applet) 0100 02C900 00] 00"]},
        {"require": [[1, 0, "9000"], [1, 1, "9000"]],
         "commands": ["80E62000 [0000 09\(applet)]", "80E28000 [${1.0:0:4}cafe${1.0:298:300}]"]},
        {"require": [[2, 1, "9000"]], "target": "//aid/A000000647/01010101", "commands": ["00CADF7000"]}
      ]},
      "failing": {"rounds": [{"commands": ["80CA00FE00", "80E60C00 [c1c2c3c4]", "80CA00FE00"]}]},
      "http500": {"rounds": [{"commands": [], "fault": {"status": 500}}]},
      "html": {"rounds": [{"commands": [], "fault": {"contentType": "text/html"}}]},
      "bare": {"rounds": [{"commands": [], "fault": {"omitProtocol": true}}]},
      "slow": {"rounds": [{"commands": [], "fault": {"delay": 4}}]},
      "trickle": {"rounds": [{"commands": ["80CA00FE00", "80CA00FE00"], "fault": {"trickle": 0.3}}]},
      "malformed": {"rounds": [{"commands": [], "fault": {"body": "aa0522098000"}}]},
      "loop": {"rounds": [{"commands": [], "fault": {"redirect": "/s/loop"}}]},
      "drop": {"rounds": [{"commands": ["80CA00FE00"]}, {"commands": ["80CA00FE00"], "fault": {"dropOnce": true}}]},
      "endless": {"rounds": [{"commands": ["80CA00FE00"]}, {"commands": ["80CA00FE00"]}, {"commands": ["80CA00FE00"]},
                             {"commands": ["80CA00FE00"]}]},
      "tls": {"rounds": [{"commands": ["80CA00FE00"]}]},
      "single": {"rounds": [{"commands": ["80CA00FE00"]}]},
      "removed": {"rounds": [{"commands": ["80CA00FE00", "80CA00FE00", "80CA00FE00"]}]},
      "huge": {"rounds": [{"commands": [], "fault": {"hugeBody": \(Self.hugeBody)}}]},
      "hugeUnsized": {"rounds": [{"commands": [], "fault": {"hugeBody": \(Self.hugeBody), "omitLength": true}}]},
      "hugeRedirect": {"rounds": [{"commands": [], "fault": {"hugeBody": \(Self.hugeBody), "redirect": "/s/single"}}]},
      "hugeRedirectUnsized": {"rounds": [{"commands": [], "fault": {"hugeBody": \(Self.hugeBody), "omitLength": true,
                                                                   "redirect": "/s/single"}}]},
      "headerFlood": {"rounds": [{"commands": ["80CA00FE00"], "fault": {"headerFlood": 10000}}]},
      "truncated": {"rounds": [{"commands": ["80CA00FE00", "80CA00FE00"], "fault": {"truncate": true}}]}
    }
    """

  /// The body of the `huge` scenarios: 8 GiB of zeros, streamed as fast as `tapwire` reads.
  static let hugeBody: Int64 = 8 << 30
  /// `URLSessionAdminClient`'s default `maximumBodySize`, the one `tapwire admin` uses.
  static let bodyLimit = 1 << 20

  /// `tapwire ARGUMENTS` inside the namespace of `pid`; killed (and the test failed) after
  /// `limit` seconds, so a hang cannot pass.
  static func tapwire(
    inNamespaceOf pid: pid_t, _ arguments: [String], trusting caFile: String? = nil, limit: Double = 90,
    peakMemoryFile: String? = nil
  ) throws
    -> Run
  {
    let process = Process()
    var command = [RAMServer.nsenter, "--net=/proc/\(pid)/ns/net", tapwire] + arguments
    if let peakMemoryFile {
      // The largest peak resident set (VmHWM, KiB) of the process tree: `tapwire` waits for
      // its `tapwire-nfc`, so the rusage of the reaped children covers both.
      command =
        [RAMServer.python, "-c", Self.peakMemoryScript, peakMemoryFile, String(max(limit - 2, 1))] + command
    }
    if let caFile {
      // FoundationNetworking trusts the system store only (libcurl's CAINFO is the first of
      // its known bundle paths): a private mount namespace puts the test CA there.
      process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
      process.arguments =
        [
          "--mount", "--propagation", "private", "sh", "-c",
          "mount --bind \"$0\" /etc/ssl/certs/ca-certificates.crt && exec \"$@\"", caFile,
        ] + command
    } else {
      process.executableURL = URL(fileURLWithPath: command[0])
      process.arguments = Array(command.dropFirst())
    }
    var environment = ProcessInfo.processInfo.environment
    environment["PCSCLITE_CSOCK_NAME"] = PCSCStack.directory + "/run/pcscd/pcscd.comm"
    process.environment = environment
    let outPath = PCSCStack.directory + "/tapwire.out"
    let errPath = PCSCStack.directory + "/tapwire.err"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    defer {
      try? out.close()
      try? err.close()
    }
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let deadline = Date().addingTimeInterval(limit)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    let hung = process.isRunning
    if hung { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let outData = FileManager.default.contents(atPath: outPath) ?? Data()
    let errData = FileManager.default.contents(atPath: errPath) ?? Data()
    #expect(!hung, "tapwire \(arguments.joined(separator: " ")) hung for \(limit) s")
    return Run(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// Runs argv[3:] in its own process group, killed (the group) after argv[2] seconds; writes
  /// the children's largest peak resident set (KiB) to argv[1]; exits with the child's status.
  static let peakMemoryScript = """
    import os, resource, signal, subprocess, sys
    child = subprocess.Popen(sys.argv[3:], start_new_session=True)
    try:
        status = child.wait(timeout=float(sys.argv[2]))
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        status = child.wait()
    with open(sys.argv[1], "w") as f:
        f.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
    sys.exit(status if status >= 0 else 128 - status)
    """

  static func admin(
    _ server: RAMServer, _ scenario: String, stack: PCSCStack, _ extra: [String] = [], limit: Double = 90,
    peakMemoryFile: String? = nil
  ) throws
    -> (
      Run, [String: Any]
    )
  {
    let run = try tapwire(
      inNamespaceOf: stack.pcscdPID,
      ["admin", server.url(scenario), "--pcsc", PCSCStack.reader, "--timeout", "60", "--json"] + extra,
      limit: limit, peakMemoryFile: peakMemoryFile)
    let object = (try? object(run.stdout)) ?? [:]
    return (run, object)
  }

  static func errorCode(_ object: [String: Any]) -> String? {
    (object["error"] as? [String: Any])?["code"] as? String
  }

  @Test func adminInstallsAndPersonalisesAnAppletInThreeRoundTrips() async throws {
    for path in [RAMServer.python, RAMServer.nsenter] {
      #expect(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing")
    }
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert gp-cm") == "inserted")
    let server = try RAMServer(
      namespaceOf: stack.pcscdPID, description: Self.description, directory: PCSCStack.directory)
    defer { server.stop() }
    let (run, object) = try Self.admin(server, "install", stack: stack)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(object["ok"] as? Bool == true)
    #expect(object["rounds"] as? Int == 3)
    let commands = try #require(object["commands"] as? [[String: Any]])
    #expect(commands.map { $0["sw"] as? String } == ["9000", "9000", "9000", "9000", "9000"])
    // One progress line per round trip and per command.
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.filter { $0.contains(": POST ") }.count == 4)
    #expect(lines.filter { $0.contains(" command ") && $0.hasSuffix("%)") }.count == 5)
    #expect(run.stderr.contains("round trip 3: 1 command for a00000064701010101"))
    // The server saw Amendment B requests: the response scripts, each with its status.
    let requests = server.requests()
    #expect(
      requests.map { $0["path"] ?? "" } == ["/s/install", "/s/install/1", "/s/install/2", "/s/install/3"])
    #expect(requests.allSatisfy { $0["X-Admin-Protocol"] == "globalplatform-remote-admin/1.0" })
    #expect(requests.first?["X-Admin-From"] == "//tapwire")
    #expect(requests.dropFirst().allSatisfy { $0["X-Admin-Script-Status"] == "ok" })
    #expect(
      requests.dropFirst().allSatisfy {
        $0["Content-Type"] == "application/vnd.globalplatform.card-content-mgt-response;version=1.0"
      })
    // Read the card state back (raw APDUs: each answer 61XX is fetched with GET RESPONSE):
    // the registry lists the applet, and its data is what round 2 stored (the first 4 and
    // last 2 bytes of round 1's GET DATA around CAFE).
    let readBack = PCSCStack.directory + "/read-back.apdu"
    try """
    80F24002024F0000 -> E30F4F09\(Self.applet)9F700107 9000
    00A4040009\(Self.applet)00 -> 9000
    00CADF7000 -> 00010203CAFE2A2B 9000
    """.write(toFile: readBack, atomically: true, encoding: .utf8)
    let check = try Self.tapwire(
      inNamespaceOf: stack.pcscdPID, ["pcsc", "script", "--reader", PCSCStack.reader, readBack])
    #expect(check.status == 0, "\(check.stderr)")
  }

  @Test func adminFaultsAreTypedAndNeverHang() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert gp-cm") == "inserted")
    let server = try RAMServer(
      namespaceOf: stack.pcscdPID, description: Self.description, directory: PCSCStack.directory)
    defer { server.stop() }
    let once = ["--retries", "0"]
    let cases: [(String, [String], String)] = [
      ("http500", once, "httpStatus"), ("html", once, "wrongContentType"), ("bare", once, "missingHeader"),
      ("slow", once + ["--round-trip-timeout", "1"], "roundTripTimeout"),
      ("trickle", once + ["--round-trip-timeout", "2"], "roundTripTimeout"),
      ("malformed", once, "malformedScript"),
      ("loop", once, "redirectLoop"), ("endless", ["--max-rounds", "3"], "tooManyRoundTrips"),
      ("failing", [], "commandFailed"), ("nothing-here", once, "httpStatus"),
      // 1 MB of headers: over libcurl's 300 KiB for all of them.
      ("headerFlood", once, "transportFailed"),
    ]
    for (scenario, extra, code) in cases {
      let (run, object) = try Self.admin(server, scenario, stack: stack, extra)
      #expect(run.status == 1, "\(scenario): \(run.stderr)")
      #expect(object["ok"] as? Bool == false, "\(scenario)")
      #expect(Self.errorCode(object) == code, "\(scenario): \(run.stdout)")
      #expect(run.stderr.contains("tapwire: update failed: "), "\(scenario)")
    }
    // The failing command is named: round trip 1, command 2, 6A80.
    let (failed, failure) = try Self.admin(server, "failing", stack: stack)
    #expect(
      failed.stderr.contains("commandFailed in round trip 1 at command 2: status 6a80"), "\(failed.stderr)")
    #expect((failure["error"] as? [String: Any])?["command"] as? Int == 2)
    let (malformed, _) = try Self.admin(server, "malformed", stack: stack, once)
    #expect(
      malformed.stderr.contains("malformedScript in round trip 1 (lengthExceedsInput at offset"),
      "\(malformed.stderr)")
    // libcurl refuses the headers, not a parse in Tapwire.
    let (flood, _) = try Self.admin(server, "headerFlood", stack: stack, once)
    #expect(flood.stderr.contains("Too large response headers"), "\(flood.stderr)")
    // A dropped connection is retried with X-Admin-Resume and the session completes.
    let (dropped, _) = try Self.admin(server, "drop", stack: stack)
    #expect(dropped.status == 0, "\(dropped.stderr)")
    #expect(dropped.stderr.contains("round trip 2: transportFailed"), "\(dropped.stderr)")
    #expect(dropped.stderr.contains("retrying (attempt 2)"))
    let resumed = server.requests().filter { $0["path"] == "/s/drop/1" }
    #expect(resumed.map { $0["X-Admin-Resume"] } == [nil, "true"])
    // The card leaves after 3 APDUs, in the middle of round 1's script.
    #expect(try stack.send("insert gp-cm 3") == "inserted")
    let (removed, gone) = try Self.admin(server, "removed", stack: stack)
    #expect(removed.status == 1)
    #expect(Self.errorCode(gone) == "cardRemoved", "\(removed.stdout) \(removed.stderr)")
    // Where to resume: round 1's next URI. Resuming on the card put back is not run here:
    // after vpcd's card leaves, pcscd goes on reporting it present, and whether the session
    // then meets the old card's state or the new card depends on timing (AdminSessionTests
    // resume a checkpoint after a removal, deterministically).
    let resumeURI = try #require(gone["resumeURI"] as? String)
    #expect(resumeURI == server.url("removed") + "/1")
  }

  /// A server answering with gigabytes (declared by `Content-Length`, or read to the close) is
  /// refused while the body arrives: `bodyTooLarge` naming the limit, and the peak resident
  /// memory of `tapwire` and `tapwire-nfc` stays within that of a normal session plus the
  /// limit and a small constant (it reached gigabytes when the body was buffered first).
  @Test func adminRefusesAHugeBodyWhileItArrives() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert gp-cm") == "inserted")
    let server = try RAMServer(
      namespaceOf: stack.pcscdPID, description: Self.description, directory: PCSCStack.directory)
    defer { server.stop() }
    let peakFile = PCSCStack.directory + "/peak-rss"
    func peak() -> Int { Int((try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? "") ?? -1 }
    let (normal, _) = try Self.admin(server, "single", stack: stack, peakMemoryFile: peakFile)
    #expect(normal.status == 0, "\(normal.stderr)")
    let baseline = peak()
    #expect(baseline > 0)
    // The constant: chunks in flight while the cancel takes effect, allocator slack.
    let bound = baseline + Self.bodyLimit / 1024 + 32 * 1024
    for scenario in ["huge", "hugeUnsized"] {
      let (run, object) = try Self.admin(
        server, scenario, stack: stack, ["--retries", "0", "--round-trip-timeout", "5"], limit: 30,
        peakMemoryFile: peakFile)
      let peak = peak()
      print("\(scenario): peak resident memory \(peak) KiB (a one-round session: \(baseline) KiB)")
      #expect(run.status == 1, "\(scenario): \(run.stderr)")
      #expect(Self.errorCode(object) == "bodyTooLarge", "\(scenario): \(run.stdout)")
      #expect(
        run.stderr.contains("bodyTooLarge in round trip 1 (response body over \(Self.bodyLimit) bytes)"),
        "\(scenario): \(run.stderr)")
      #expect(peak > 0 && peak <= bound, "\(scenario): peak \(peak) KiB, bound \(bound) KiB")
    }
  }

  /// A redirection with a huge body: FoundationNetworking keeps a 3xx body itself and does
  /// not end the transfer on `cancel()`, so the body limit cannot apply, but the round trip
  /// still ends at its deadline (it hung past it) with `roundTripTimeout`.
  @Test func adminEndsARoundTripAtItsDeadlineWhateverTheTransferDoes() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert gp-cm") == "inserted")
    let server = try RAMServer(
      namespaceOf: stack.pcscdPID, description: Self.description, directory: PCSCStack.directory)
    defer { server.stop() }
    let peakFile = PCSCStack.directory + "/peak-rss"
    for scenario in ["hugeRedirect", "hugeRedirectUnsized"] {
      try? FileManager.default.removeItem(atPath: peakFile)
      let start = Date()
      let (run, object) = try Self.admin(
        server, scenario, stack: stack, ["--retries", "0", "--round-trip-timeout", "3"], limit: 20,
        peakMemoryFile: peakFile)
      let elapsed = Date().timeIntervalSince(start)
      let peak = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? "?"
      print("\(scenario): ended after \(elapsed) s, peak resident memory \(peak) KiB")
      #expect(elapsed < 10, "\(scenario): \(elapsed) s")
      #expect(run.status == 1, "\(scenario): \(run.stderr)")
      #expect(Self.errorCode(object) == "roundTripTimeout", "\(scenario): \(run.stdout)")
    }
  }

  /// The server closing the connection in the middle of the declared body: a failed
  /// connection at once, retried (the retry is cut short the same way), never a hang.
  @Test func adminReportsABodyCutShortAsAFailedConnection() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert gp-cm") == "inserted")
    let server = try RAMServer(
      namespaceOf: stack.pcscdPID, description: Self.description, directory: PCSCStack.directory)
    defer { server.stop() }
    let start = Date()
    let (run, object) = try Self.admin(
      server, "truncated", stack: stack, ["--retries", "1", "--round-trip-timeout", "60"], limit: 30)
    #expect(Date().timeIntervalSince(start) < 20, "a cut body waited for the round-trip timeout")
    #expect(run.status == 1, "\(run.stderr)")
    #expect(Self.errorCode(object) == "transportFailed", "\(run.stdout)")
    #expect(run.stderr.contains("round trip 1: transportFailed"), "\(run.stderr)")
    #expect(server.requests().count == 2)
  }

  @Test func adminRunsOverHTTPSWithTheCertificateChecked() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert gp-cm") == "inserted")
    let directory = PCSCStack.directory
    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    openssl.arguments = [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/key.pem", "-out",
      directory + "/cert.pem", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext",
      "subjectAltName=IP:127.0.0.1",
    ]
    openssl.standardError = FileHandle.nullDevice
    try openssl.run()
    openssl.waitUntilExit()
    try #require(openssl.terminationStatus == 0, "openssl could not make a certificate")
    let server = try RAMServer(
      namespaceOf: stack.pcscdPID, description: Self.description, directory: directory,
      tls: (directory + "/cert.pem", directory + "/key.pem"))
    defer { server.stop() }
    #expect(server.url("tls").hasPrefix("https://"))
    let arguments = ["admin", server.url("tls"), "--pcsc", PCSCStack.reader, "--timeout", "60", "--json"]
    let trusted = try Self.tapwire(
      inNamespaceOf: stack.pcscdPID, arguments, trusting: directory + "/cert.pem")
    #expect(trusted.status == 0, "\(trusted.stderr)")
    #expect((try? Self.object(trusted.stdout))?["rounds"] as? Int == 1)
    // Without the CA the certificate does not verify: a failed connection, never a session.
    let untrusted = try Self.tapwire(inNamespaceOf: stack.pcscdPID, arguments + ["--retries", "0"])
    #expect(untrusted.status == 1)
    #expect(
      Self.errorCode((try? Self.object(untrusted.stdout)) ?? [:]) == "transportFailed", "\(untrusted.stdout)")
  }

  @Test func adminRunsALocalScriptThroughTheSameUpdatePath() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert gp-cm") == "inserted")
    let script = PCSCStack.directory + "/install.apdu"
    try """
    00A4040008A000000151000000 -> 61XX|9000
    80E60C0022 07\(Self.loadFile) 08\(Self.module) 09\(Self.applet) 0100 02C900 00 00
    80E6200000 -> 9000
    """.write(toFile: script, atomically: true, encoding: .utf8)
    let run = try Self.tapwire(
      inNamespaceOf: stack.pcscdPID,
      ["admin", "--script", script, "--pcsc", PCSCStack.reader, "--timeout", "60", "--json"])
    // The install step passes; the third expects 9000 but the card answers 6A80 (no data):
    // the failed required update names the round trip, the step and the status word.
    #expect(run.status == 1)
    #expect(run.stderr.contains("round trip 1 command 2/3 INSTALL"), "\(run.stderr)")
    #expect(
      run.stderr.contains("update failed: commandFailed in round trip 1 at command 3: status"),
      "\(run.stderr)")
    let object = try Self.object(run.stdout)
    #expect(object["ok"] as? Bool == false)
    #expect((object["error"] as? [String: Any])?["command"] as? Int == 3)
  }
}
