// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire view`: a page for every format of the corpus, checked by Python's html.parser
/// (tag balance, no external reference, every field's range inside the input) and, in
/// headless Chromium from file://, by the page's own #selftest (exactly a field's bytes light).
@Suite("tapwire view: self-contained HTML pages")
struct ViewCommandTests {
  /// The corpus directories of formats `decode` reads, with the format to decode them as
  /// (`nil`: the file name's prefix says, `t2t-...`).
  static let formats: [(String, String?)] = [
    ("ndef", "ndef"), ("adv", "adv"), ("bertlv", "bertlv"), ("btsnoop", "btsnoop"), ("capdu", "capdu"),
    ("hci", "hci"), ("mfc", "mfc"), ("rapdu", "rapdu"), ("tags", nil),
  ]

  /// The format of a `Corpus/tags` file from its name (`t5t-...`, `type2-...`), else `nil`.
  static func tagFormat(_ name: String) -> String? {
    if name.hasPrefix("type2-") { return "t2t" }
    let prefix = String(name.prefix(3))
    return ["t1t", "t2t", "t3t", "t4t", "t5t"].contains(prefix) ? prefix : nil
  }

  /// Every seed, dump and regression of those directories, and the first 12 fuzzed inputs
  /// of each (name order), with the `--as` to give (none for dump files and unknown tags).
  static func corpusInputs() throws -> [(path: String, format: String?)] {
    var result: [(String, String?)] = []
    let manager = FileManager.default
    for (directory, format) in formats {
      let base = CLI.root.appendingPathComponent("Corpus/\(directory)")
      for part in try manager.contentsOfDirectory(atPath: base.path).sorted() {
        let names = try manager.contentsOfDirectory(atPath: base.appendingPathComponent(part).path).sorted()
        for name in part == "fuzzed" ? Array(names.prefix(12)) : names {
          let path = "Corpus/\(directory)/\(part)/\(name)"
          result.append((path, part == "dumps" ? nil : format ?? tagFormat(name)))
        }
      }
    }
    return result
  }

  static func temporaryDirectory(_ name: String) -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tapwire-view-\(getpid())-\(name)")
    try? FileManager.default.removeItem(at: directory)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// Runs `program` with `arguments` under timeout(1), returning status and output.
  static func run(_ program: String, _ arguments: [String]) throws -> CLI.Result {
    try CLI.run(arguments, program: URL(fileURLWithPath: program))
  }

  /// Writes the page of each corpus input and returns the pages with their inputs.
  static func pages(_ directory: URL) throws -> [(input: String, page: URL, format: String?)] {
    var result: [(String, URL, String?)] = []
    for (index, (path, format)) in try corpusInputs().enumerated() {
      let page = directory.appendingPathComponent("\(index).html")
      let arguments = ["view", path, "-o", page.path] + (format.map { ["--as", $0] } ?? [])
      let outcome = try CLI.run(arguments)
      #expect([0, 1].contains(outcome.status), "\(path): exit \(outcome.status): \(outcome.stderr)")
      #expect(outcome.stdout.isEmpty, "\(path): -o writes nothing on standard output")
      #expect(FileManager.default.fileExists(atPath: page.path), "\(path): no page")
      result.append((path, page, format))
    }
    return result
  }

  @Test func everyCorpusFormatMakesAWellFormedSelfContainedPage() throws {
    let directory = Self.temporaryDirectory("corpus")
    defer { try? FileManager.default.removeItem(at: directory) }
    let pages = try Self.pages(directory)
    #expect(pages.count >= 150)
    let check = CLI.root.appendingPathComponent("Tests/Tools/view-check.py").path
    let outcome = try Self.run("/usr/bin/python3", [check] + pages.map(\.page.path))
    #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    #expect(outcome.stdout.contains("checked \(pages.count) pages"), "\(outcome.stdout)")
    // A decoded seed has fields: the MIFARE Classic 1K URI card, a URI on an NTAG213.
    for (input, page, _) in pages
    where input.hasSuffix("mfc-1k-uri.mfd") || input.hasSuffix("t2t-ntag213-lockcontrol-uri.bin") {
      let html = try String(contentsOf: page, encoding: .utf8)
      #expect(html.contains("data-start=\"16\""), "\(input)")
      #expect(html.contains("id=\"legend\""), "\(input)")
    }
  }

  @Test func aTagImageIsAMemoryMapWithALegend() throws {
    let result = try CLI.run(["view", "Corpus/tags/seeds/t2t-ntag213-lockcontrol-uri.bin", "--as", "t2t"])
    #expect(result.status == 0, "\(result.stderr)")
    let html = result.stdout
    // The CC is bytes 12-15 (T2T 1.0 §6.1), in the CC colour; the lock control TLV in its own.
    #expect(
      html.contains(
        "data-start=\"12\" data-end=\"16\" tabindex=\"0\"><code>c-f</code> <b>capability container</b>"))
    #expect(html.contains("capability container, attribute block, CC file"))
    #expect(html.contains("lock and memory control TLVs"))
    #expect(html.contains("NDEF message, records"))
    #expect(html.contains("<i class=\"c3\">e1</i>"), "the CC magic E1 in the CC colour")
    #expect(html.contains("<span class=\"a\">0010 p4</span>"), "rows labelled with their page")
  }

  @Test func aMifareClassicCardIsAGridOfSectorsWithAccessConditions() throws {
    let result = try CLI.run(["view", "Corpus/mfc/seeds/mfc-1k-uri.mfd"])
    #expect(result.status == 0, "\(result.stderr)")
    let html = result.stdout
    #expect(html.components(separatedBy: "<div class=\"sector\">").count - 1 == 16)
    #expect(html.contains("<div class=\"sector\">sector 0: blocks 0-3, MAD</div>"))
    #expect(html.contains("<span class=\"k\">manufacturer block</span>"))
    #expect(html.contains("<span class=\"k\">trailer: C1C2C3 "))
    #expect(html.contains("<span class=\"k\">data: C1C2C3 "))
    #expect(html.contains("MAD (MIFARE application directory)"))
    // Keys only as dumped: a key A line covers bytes 48-53 of sector 0's trailer.
    #expect(
      html.contains(
        "data-start=\"48\" data-end=\"54\" tabindex=\"0\"><code>30-35</code> <b>key A</b>: as dumped"))
  }

  @Test func anAPDUIsATableWithItsStatusWordExplained() throws {
    let result = try CLI.run(["view", "--as", "rapdu", "6a82"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("<section id=\"parts\">"))
    #expect(result.stdout.contains("data-start=\"0\" data-end=\"2\""))
    let command = try CLI.run(["view", "--as", "capdu", "00A4040007D276000085010100"])
    #expect(command.stdout.contains("<td>INS</td>"), "\(command.stdout.prefix(3000))")
  }

  @Test func aCaptureIsATableOfRecordsWithEachADStructure() throws {
    let result = try CLI.run(["view", "Corpus/btsnoop/seeds/h4-advertising.btsnoop"])
    #expect(result.status == 0, "\(result.stderr)")
    // Five records after the 16-byte header (btsnoop: identification, version, datalink).
    #expect(result.stdout.components(separatedBy: "<tr class=\"f\"").count - 1 == 8)
    #expect(
      result.stdout.contains("AD <b>flags</b>: flags 0x06 = LE general discoverable, BR/EDR not supported"))
    #expect(result.stdout.contains("AD <b>completeLocalName</b>: complete local name &quot;TW-A&quot;"))
  }

  @Test func aScriptIsATableOfStepsWithTheirStatusWordsExplained() throws {
    let result = try CLI.run(["view", "--as", "apduscript", "Corpus/apduscript/seeds/select-and-cplc.txt"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("applet-update script (apduscript), 152 bytes, 3 steps"))
    // Step 1 is the second line (bytes 52-85, 34 characters), SELECT; step 2 accepts 61XX or 9000.
    #expect(result.stdout.contains("data-start=\"52\" data-end=\"86\" tabindex=\"0\"><td>52</td>"))
    #expect(result.stdout.contains("<b>INS</b>: 0xa4 = SELECT"))
    #expect(result.stdout.contains("<b>expects</b>: 61XX = normal"))
    // A bad line is an error in place; the steps after it are still shown.
    let bad = try CLI.run(
      ["view", "--as", "apduscript"], stdin: "00A4040008A000000151000000 -> 9000\nzz -> 9000\n80CA9F7F00\n")
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("invalidHex at offset 35"), "\(bad.stderr)")
    #expect(bad.stdout.contains("<b>step 2</b>: 0xca = GET DATA"))
  }

  @Test func anErrorIsMarkedOnItsByteAndThePageStillWritten() throws {
    // A short record whose payload length runs past the end (offset 2): exit 1, page written.
    let result = try CLI.run(["view", "--as", "ndef", "d1010955016e66632e636f6d"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("at offset"), "\(result.stderr)")
    #expect(result.stdout.contains("<li class=\"error\" data-start="))
    #expect(result.stdout.contains(" e\">"), "a byte marked as the error's")
  }

  @Test func optionsAsDecodeHasThem() throws {
    let directory = Self.temporaryDirectory("options")
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = directory.appendingPathComponent("out.html")
    let written = try CLI.run(["view", "--lenient", "-o", page.path, "d1010855016e66632e636f6d"])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.isEmpty)
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("https://nfc.com") || html.contains("nfc.com"))
    let unknown = try CLI.run(["view", "--as", "nope", "d00000"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.hasPrefix("tapwire view: --as: "), "\(unknown.stderr)")
    let directoryInput = try CLI.run(["view", "Corpus/ndef/seeds"])
    #expect(directoryInput.status == 2)
  }

  /// Headless Chromium (Debian's) opens pages from file:// with `#selftest`: the page clicks
  /// fields and hovers bytes through real DOM events and checks that exactly the field's bytes
  /// (and the innermost field of a byte) carry `lit`, and that no request left the page.
  @Test func inChromiumExactlyTheFieldsBytesLightUp() throws {
    let chromium = "/usr/bin/chromium"
    try #require(
      FileManager.default.isExecutableFile(atPath: chromium), "chromium missing: run .ci/install-packages")
    let directory = Self.temporaryDirectory("browser")
    defer { try? FileManager.default.removeItem(at: directory) }
    // One page per format (the first decoded corpus input of each), a failed one, a 4K card.
    var chosen: [String: (String, URL)] = [:]
    for (input, page, format) in try Self.pages(directory) {
      let key = format ?? "dump"
      if chosen[key] == nil || input.hasSuffix("mfc-4k-android.bin") { chosen[key] = (input, page) }
    }
    let failed = directory.appendingPathComponent("failed.html")
    _ = try CLI.run(["view", "--as", "ndef", "d1010955016e66632e636f6d", "-o", failed.path])
    chosen["failed"] = ("ndef failing", failed)
    let script = directory.appendingPathComponent("script.html")
    _ = try CLI.run(
      ["view", "--as", "apduscript", "Corpus/apduscript/seeds/select-and-cplc.txt", "-o", script.path])
    chosen["apduscript"] = ("select-and-cplc.txt", script)
    #expect(chosen.count >= 16, "\(chosen.keys.sorted())")
    for (key, (input, page)) in chosen.sorted(by: { $0.key < $1.key }) {
      let outcome = try Self.run(
        "/usr/bin/timeout",
        [
          "-s", "KILL", "60", chromium, "--headless", "--no-sandbox", "--disable-gpu",
          "--no-first-run", "--user-data-dir=\(directory.appendingPathComponent("profile-\(key)").path)",
          "--dump-dom", "file://\(page.path)#selftest",
        ])
      #expect(outcome.status == 0, "\(key) \(input): chromium exit \(outcome.status)")
      #expect(
        outcome.stdout.contains("data-result=\"pass\""),
        "\(key) \(input): \(Self.selftestText(outcome.stdout))")
      #expect(outcome.stdout.contains("PASS "), "\(key) \(input)")
    }
  }

  static func selftestText(_ dom: String) -> String {
    guard let start = dom.range(of: "<pre id=\"selftest\"") else { return "no selftest element" }
    return String(dom[start.lowerBound...].prefix(800))
  }
}
