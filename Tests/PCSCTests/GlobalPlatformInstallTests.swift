// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import NFCReader
import NFCReaderPCSC
import Testing

extension PCSCTransportTests.GlobalPlatformCardTests {
  /// What `Tests/Tools/make-cap.py` wrote and says the CAP file holds.
  struct MadeCAP {
    var path: String
    var packageAID: String
    var appletAIDs: [String]
    var loadFileDataBlockSize: Int
    var sha1: String
    var sha256: String
  }

  /// A CAP file written by make-cap.py (Python's zipfile: stored and deflated entries in a
  /// shuffled order, with Descriptor, Debug and a manifest), and what it holds.
  static func makeCAP(seed: Int) throws -> MadeCAP {
    let path = PCSCStack.directory + "/hello-\(seed).cap"
    let tool = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Tools/make-cap.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: GlobalPlatformCardStack.python)
    process.arguments = [tool, path, "--method", "mixed", "--seed", String(seed)]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let order = try #require(object["zipOrder"] as? [String])
    // The archive order is not the load order, and Descriptor and Debug are in it.
    #expect(order.contains { $0.hasSuffix("Descriptor.cap") } && order.contains { $0.hasSuffix("Debug.cap") })
    #expect(order.firstIndex { $0.hasSuffix("Header.cap") } != order.firstIndex { $0.contains("javacard/") })
    return MadeCAP(
      path: path, packageAID: try #require(object["packageAID"] as? String),
      appletAIDs: try #require(object["appletAIDs"] as? [String]),
      loadFileDataBlockSize: (try #require(object["loadFileDataBlock"] as? String)).count / 2,
      sha1: try #require(object["sha1"] as? String), sha256: try #require(object["sha256"] as? String))
  }

  /// `tapwire gp install` through pcscd against the Python card, at SCP03 C-MAC,
  /// C-MAC+C-DECRYPTION and every level with R-MAC/R-ENCRYPTION, and at SCP02 C-MAC and
  /// C-MAC+C-DECRYPTION: INSTALL [for load] (with the hash the card checks: SHA-256 for SCP03,
  /// SHA-1 for SCP02), LOAD in blocks that fit the card's 239-byte maximum (9F65) after
  /// wrapping (the card checks the numbering), both applets installed and selectable, listed by
  /// `gp list`, then deleted with their load file.
  @Test(arguments: [("03", ["mac", "mac+enc", "all"]), ("02", ["mac", "mac+enc"])])
  func cliInstallsACAPFile(scp: String, levels: [String]) async throws {
    let stack = try await GlobalPlatformCardStack(["--scp", scp])
    defer { stack.stop() }
    let cap = try Self.makeCAP(seed: scp == "03" ? 3 : 2)
    let common = ["--pcsc", PCSCStack.reader, "--key", "test"]
    for level in levels {
      let hashed = level != "mac"
      let install = try PCSCTransportTests.tapwire(
        ["gp", "install", cap.path, "--security", level, "--json"] + (hashed ? ["--hash"] : []) + common)
      #expect(install.status == 0, "\(level): \(install.stderr)")
      let object = try PCSCTransportTests.object(install.stdout)
      #expect(object["format"] as? String == "gpInstall")
      #expect(object["package"] as? String == cap.packageAID)
      #expect(object["loadFileDataBlockSize"] as? Int == cap.loadFileDataBlockSize)
      // 239 data bytes at most (9F65): 231 plain with a MAC, 223 with C-DECRYPTION's padding.
      let blockSize = level == "mac" ? 231 : 223
      #expect(object["blockSize"] as? Int == blockSize)
      let loadFileSize = cap.loadFileDataBlockSize + 4  // C4 82 LL LL
      #expect(object["loadBlocks"] as? Int == (loadFileSize + blockSize - 1) / blockSize)
      if hashed {
        #expect(object["hash"] as? String == (scp == "03" ? "SHA-256" : "SHA-1"))
        #expect(object["loadFileDataBlockHash"] as? String == (scp == "03" ? cap.sha256 : cap.sha1))
      } else {
        #expect(object["loadFileDataBlockHash"] is NSNull)
      }
      let installed = try #require(object["installed"] as? [[String: Any]])
      #expect(installed.map { $0["aid"] as? String } == cap.appletAIDs)
      #expect(install.stderr.contains("LOAD block 1/"))

      // The card's log: LOAD blocks numbered from 00, the last with P1 80, none over 239 bytes.
      let loads = stack.commandsReceived().filter { $0.hasPrefix("84E8") }.suffix(
        object["loadBlocks"] as? Int ?? 0)
      #expect(
        loads.enumerated().allSatisfy { $0.element.dropFirst(6).prefix(2) == CardLogHex.byte($0.offset) })
      #expect(loads.last?.dropFirst(4).prefix(2) == "80")
      #expect(loads.allSatisfy { Int($0.dropFirst(8).prefix(2), radix: 16) ?? 256 <= 239 })

      let list = try PCSCTransportTests.tapwire(["gp", "list"] + common)
      #expect(list.stdout.contains("PKG: \(cap.packageAID) (LOADED) version 1.3"), "\(list.stdout)")
      for applet in cap.appletAIDs {
        #expect(list.stdout.contains("APP: \(applet) (SELECTABLE) privileges 000000 from \(cap.packageAID)"))
      }
      var plain = try await stack.connect()
      let aid = try ApplicationIdentifier(try #require(CardLogHex.bytes(cap.appletAIDs[0])))
      let selected = try await plain.transmit(GlobalPlatformCommands.select(aid).encodedBytes())
      #expect(selected.suffix(2) == [0x90, 0x00])
      #expect(Array(selected.dropLast(2).suffix(aid.bytes.count)) == aid.bytes)
      try await plain.card.disconnect(.reset)

      let delete = try PCSCTransportTests.tapwire(["gp", "delete", cap.packageAID, "--related"] + common)
      #expect(delete.status == 0, "\(delete.stderr)")
      let after = try PCSCTransportTests.tapwire(["gp", "list"] + common)
      #expect(!after.stdout.contains("APP:") && !after.stdout.contains("PKG:"), "\(after.stdout)")
    }
  }

  /// `--load-only` loads the package and installs nothing; a second load of it is refused by
  /// the card (6985, named with GlobalPlatform's explanation, `installForLoadRejected` in JSON);
  /// after DELETE, `--applet`/`--instance`/`--privileges`/`--params` install one instance of
  /// the second applet. The card's 9F65 of 100 bytes sizes the blocks.
  @Test func cliLoadsOnlyThenInstallsOneInstance() async throws {
    let stack = try await GlobalPlatformCardStack(["--max-block", "100"])
    defer { stack.stop() }
    let cap = try Self.makeCAP(seed: 5)
    let keys = ["--pcsc", PCSCStack.reader, "--key", "test"]
    let load = try PCSCTransportTests.tapwire(
      ["gp", "install", cap.path, "--load-only", "--security", "mac+enc"] + keys)
    #expect(load.status == 0, "\(load.stderr)")
    // 100 bytes at most (9F65): the MAC leaves 92, the largest multiple of 16 within it is 80,
    // less one pad byte at least: 79 plain bytes.
    #expect(load.stdout.hasPrefix("loaded \(cap.packageAID): \(cap.loadFileDataBlockSize) bytes in "))
    #expect(load.stdout.contains("LOAD blocks of at most 79\n"), "\(load.stdout)")
    #expect(!load.stdout.contains("installed"))
    let list = try PCSCTransportTests.tapwire(["gp", "list"] + keys)
    #expect(list.stdout.contains("PKG: \(cap.packageAID)") && !list.stdout.contains("APP:"))

    let again = try PCSCTransportTests.tapwire(["gp", "install", cap.path, "--json"] + keys)
    #expect(again.status == 1)
    let failure = try #require(try PCSCTransportTests.object(again.stdout)["error"] as? [String: Any])
    #expect(failure["code"] as? String == "installForLoadRejected")
    #expect(failure["command"] as? String == "INSTALL [for load]")
    #expect(failure["statusWord"] as? String == "6985")
    let text = try PCSCTransportTests.tapwire(["gp", "install", cap.path] + keys)
    #expect(text.status == 1)
    #expect(
      text.stderr.contains(
        "installForLoadRejected: INSTALL [for load] \(cap.packageAID): status word 6985: "),
      "\(text.stderr)")

    #expect(try PCSCTransportTests.tapwire(["gp", "delete", cap.packageAID] + keys).status == 0)
    let instance = cap.packageAID + "0909"
    let one = try PCSCTransportTests.tapwire(
      [
        "gp", "install", cap.path, "--applet", cap.appletAIDs[1], "--instance", instance, "--privileges",
        "04",
        "--params", "0102",
      ] + keys)
    #expect(one.status == 0, "\(one.stderr)")
    #expect(
      one.stdout.hasSuffix("installed \(instance) from module \(cap.appletAIDs[1]) privileges 040000\n"))
    // C-MAC only: the INSTALL data is in clear in the card's log, C9 02 0102 among it.
    #expect(stack.commandsReceived().contains { $0.hasPrefix("84E60C00") && $0.contains("C9020102") })
    let installed = try PCSCTransportTests.tapwire(["gp", "list"] + keys)
    #expect(
      installed.stdout.contains("APP: \(instance) (SELECTABLE) privileges 040000 from \(cap.packageAID)"))
    #expect(!installed.stdout.contains("APP: \(cap.appletAIDs[0])"))
  }

  /// A card removed in the middle of `tapwire gp install`: exit 1, and the error names the LOAD
  /// block and how many of how many the card acknowledged (SELECT, INITIALIZE UPDATE, EXTERNAL
  /// AUTHENTICATE, INSTALL and two blocks are answered; the third block finds no card).
  @Test func cliNamesTheLoadBlockWhenTheCardLeaves() async throws {
    let stack = try await GlobalPlatformCardStack(leavingAfter: 6)
    defer { stack.stop() }
    let cap = try Self.makeCAP(seed: 3)
    let run = try PCSCTransportTests.tapwire(
      [
        "gp", "install", cap.path, "--pcsc", PCSCStack.reader, "--key", "test", "--security", "mac+enc",
        "--json",
      ])
    #expect(run.status == 1)
    let failure = try #require(try PCSCTransportTests.object(run.stdout)["error"] as? [String: Any])
    let count = (cap.loadFileDataBlockSize + 4 + 222) / 223
    #expect(failure["code"] as? String == "loadBlockExchangeFailed")
    #expect(failure["command"] as? String == "LOAD")
    #expect(failure["block"] as? Int == 2)
    #expect(failure["blocksAcknowledged"] as? Int == 2)
    #expect(failure["blockCount"] as? Int == count)
    #expect(failure["reason"] as? String == "tagLost")
    #expect(
      (failure["message"] as? String)?.hasPrefix("LOAD block 3 of \(count) (P2 02); 2 of \(count)") == true)
  }
}

/// Hex helpers for the card log's upper-case hex.
enum CardLogHex {
  static func byte(_ value: Int) -> Substring {
    Substring(String(format: "%02X", value & 0xFF))
  }

  static func bytes(_ text: String) -> [UInt8]? {
    guard text.count % 2 == 0 else { return nil }
    var result: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(index, offsetBy: 2)
      guard let value = UInt8(text[index..<next], radix: 16) else { return nil }
      result.append(value)
      index = next
    }
    return result
  }
}
