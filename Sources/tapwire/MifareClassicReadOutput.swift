// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONOutput
import NFCWire

/// `tapwire read` of a MIFARE Classic card: what `tapwire-nfc dump` found (the MAD's NFC
/// sectors, the read-only state and the NDEF message, AN10787/AN1304; or with `--dump` the
/// blocks as the card shows them), printed as a summary and the NDEF tree, or as JSON.
enum MifareClassicReadOutput {
  /// The `key=value` fields of a `mifareClassic...` line, and its last bare token.
  static func fields(_ line: String) -> ([String: String], String?) {
    var fields: [String: String] = [:]
    var bare: String?
    for token in line.split(separator: " ").dropFirst() {
      if let equals = token.firstIndex(of: "=") {
        fields[String(token[..<equals])] = String(token[token.index(after: equals)...])
      } else {
        bare = String(token)
      }
    }
    return (fields, bare)
  }

  static func numbers(_ list: String?) -> [Int] {
    (list ?? "").split(separator: ",").compactMap { Int($0) }
  }

  /// Prints the card and returns the exit status (1 when the message does not decode).
  static func print(_ line: String, json: Bool, lenient: Bool) -> Int32 {
    let (fields, bare) = fields(line)
    let card = (fields["card"] ?? "MIFARE Classic").replacingOccurrences(of: "_", with: " ")
    let uid = fields["uid"] ?? ""
    if line.hasPrefix("mifareClassicImage") {
      let image = Hex.bytes(bare ?? "") ?? []
      let unread = numbers(fields["unread"])
      if json {
        Swift.print(
          JSON.object([
            ("format", .string("mfc")), ("card", .string(card)), ("uid", .string(uid)),
            ("unreadSectors", .array(unread.map { .int($0) })), ("image", .string(Hex.string(image))),
          ]).serialized)
      } else {
        Swift.print("\(card) UID \(uid), \(Describe.bytes(image.count))")
        if !unread.isEmpty {
          Swift.print(
            "sectors no key opened (zeros here): \(unread.map(String.init).joined(separator: ", "))")
        }
        Swift.print(HexDump.lines(image).joined(separator: "\n"))
      }
      return 0
    }
    let sectors = numbers(fields["sectors"])
    let read = numbers(fields["sectorsRead"])
    let readOnly = fields["readOnly"] == "true"
    let capacity = Int(fields["capacity"] ?? "") ?? 0
    let notes = (fields["notes"] ?? "").split(separator: ",").map {
      $0.replacingOccurrences(of: "_", with: " ")
    }
    let message = fields["ndef"].flatMap { $0 == "-" ? nil : Hex.bytes($0) }
    let mad = Int(fields["mad"] ?? "") ?? 1
    if json {
      var ok = true
      var ndef: JSON = .null
      if let message, !message.isEmpty {
        let (object, decoded) = Format.ndef.json(message, lenient)
        ndef = object
        ok = decoded
      }
      Swift.print(
        JSON.object([
          ("format", .string("mfc")), ("card", .string(card)), ("uid", .string(uid)),
          (
            "mad",
            .object([
              ("version", .int(mad)), ("ndefSectors", .array(sectors.map { .int($0) })),
              ("sectorsRead", .array(read.map { .int($0) })),
            ])
          ),
          ("capacity", .int(capacity)), ("readOnly", .bool(readOnly)),
          ("messageLength", message.map { .int($0.count) } ?? .null), ("ndef", ndef),
          ("notes", .array(notes.map { .string($0) })),
        ]).serialized)
      return ok ? 0 : 1
    }
    Swift.print("\(card) UID \(uid)")
    Swift.print(
      "MAD version \(mad): NDEF in sectors \(sectors.map(String.init).joined(separator: ", ")) (\(capacity) bytes; read \(read.map(String.init).joined(separator: ", "))), \(readOnly ? "read-only" : "writable")"
    )
    for note in notes { Swift.print("note: \(note)") }
    guard let message else {
      Swift.print("no NDEF TLV")
      return 0
    }
    guard !message.isEmpty else {
      Swift.print("NDEF message: empty")
      return 0
    }
    switch Format.ndef.human(message, lenient) {
    case .success(let lines):
      Swift.print(lines.joined(separator: "\n"))
      return 0
    case .failure(let failure):
      DecodeCommand.reportFailure(failure, format: .ndef, bytes: message)
      return 1
    }
  }
}
