// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions
import Foundation
import JSONOutput

/// `tapwire view`: the decoded tree beside the input's hex as one self-contained HTML page.
enum ViewCommand {
  static let usage = """
    usage: tapwire view [--as FORMAT] [--lenient] [-o FILE.html] [INPUT]

    Writes one HTML page for INPUT: the structure tree of `tapwire decode` beside the input's
    hex. Hovering or clicking a field lights up exactly its bytes, and a byte lights up the
    innermost field that holds it. Tag images are drawn as a memory map (UID and
    manufacturer data, capability container, lock and memory control TLVs, lock bytes,
    reserved areas, TLVs, NDEF records, unused bytes, each in its colour, with a legend);
    a MIFARE Classic card as its sectors and blocks with the trailers (keys as the dump gave
    them), the access conditions of each block, the MAD and the NFC sectors. APDUs,
    advertising data, HCI reports and btsnoop captures are a table of their parts.
    Errors and warnings are marked on their bytes; a bad part never hides the rest.
    INPUT and the format are read as `tapwire decode` reads them (files, hex text, dump
    files, standard input; --as and --lenient as for decode). --as apduscript reads an
    applet-update script (the text `tapwire apdu --script` runs): a table of its steps,
    each command decoded and the status words it expects explained.

    The page needs nothing else: no network, no external script, font or style sheet (its
    Content-Security-Policy forbids every load), and works from file:// offline.
    Opened with #selftest after its address, the page checks its own highlighting and
    writes PASS or FAIL into the element with id "selftest".

    exit status: 0 page written and the input decoded, 1 page written but the input did not
      decode (the error is marked in the page), 2 bad usage or the file cannot be written

    examples:
      tapwire view Corpus/tags/dumps/t2t-ntag215-smartposter.nfc -o tag.html
      tapwire view --as capdu 00A4040007D276000085010100 > select.html
    """

  static func run(_ parsed: ParsedCommand) -> Int32 {
    let operand = parsed.operands.first
    if let operand, Directory.isDirectory(operand) {
      Tapwire.fail("view takes one file, not a directory: \(operand)")
    }
    let lenient = parsed.has("--lenient")
    let bytes: [UInt8]
    switch Input.bytes(operand: operand) {
    case .success(let value): bytes = value
    case .failure(let error): Tapwire.fail(error.message)
    }
    let path = operand.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
    let title = path.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "input"
    let chosen = parsed.value("--as").flatMap(Format.named)
    let page: ViewPage
    if parsed.value("--as") == "apduscript" {
      page = ViewPage(scriptTitle: title, bytes: bytes)
    } else {
      switch DecodeCommand.prepare(bytes, path: path, format: chosen) {
      case .success(let prepared):
        if let note = prepared.note { FileHandle.standardError.write(Data("tapwire: \(note)\n".utf8)) }
        page = ViewPage(title: title, bytes: prepared.bytes, format: prepared.format, lenient: lenient)
      case .failure(let failed):
        page = ViewPage(
          title: title, bytes: bytes, formatName: failed.format, summary: "\(failed.label): not decoded",
          failure: failed.failure)
      }
    }
    let html = page.html()
    if let output = parsed.value("-o") {
      guard FileManager.default.createFile(atPath: output, contents: Data(html.utf8)) else {
        Tapwire.fail("cannot write \(output)")
      }
    } else {
      FileHandle.standardOutput.write(Data(html.utf8))
    }
    if let failure = page.failure {
      FileHandle.standardError.write(Data("tapwire: \(page.formatName): \(failure.text)\n".utf8))
      return 1
    }
    return 0
  }
}
