// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF
import Testing

@testable import TagTrust

/// Signature RTD 2.0 checks on messages `ndef_signatures.py` signs with python3-cryptography
/// (fresh P-192, P-224 and P-256 keys and X.509 chains each run; r‖s and DER values).
@Suite("NDEF signatures (Signature RTD 2.0)")
struct NDEFSignatureTests {
  /// The generated files: (name, the verdict of each Signature record), and the folder.
  static func generated() throws -> (URL, [(String, [String])]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagtrust-ndef-\(UUID().uuidString)")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "ndef_signatures.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script.path, folder.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
    let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
      let fields = line.split(separator: " ")
      return (String(fields[0]), fields[1].split(separator: ",").map(String.init))
    }
    return (folder, lines)
  }

  /// The DER certificates of a PEM file.
  static func anchors(_ url: URL) throws -> [[UInt8]] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
      let body = block.components(separatedBy: "-----END CERTIFICATE-----")[0]
      return Data(base64Encoded: body, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
    }
  }

  static func records(_ url: URL) throws -> [NDEFRecord] {
    try NDEFMessage(parsing: [UInt8](try Data(contentsOf: url))).records
  }

  @Test("every generated message gets the verdicts it was made for")
  func generatedMessages() throws {
    let (folder, expected) = try Self.generated()
    defer { try? FileManager.default.removeItem(at: folder) }
    let anchors = try Self.anchors(folder.appendingPathComponent("ca.pem"))
    #expect(anchors.count == 1)
    #expect(expected.count >= 20)
    for (file, verdicts) in expected {
      let records = try Self.records(folder.appendingPathComponent(file))
      let checks = try NDEFSignatures.verify(records: records, trustAnchors: anchors, crypto: crypto)
      #expect(checks.map(\.verdict.name) == verdicts, "\(file)")
    }
  }

  @Test("another trust anchor verifies nothing")
  func otherAnchor() throws {
    let (folder, expected) = try Self.generated()
    defer { try? FileManager.default.removeItem(at: folder) }
    let anchors = try Self.anchors(folder.appendingPathComponent("other-ca.pem"))
    for (file, verdicts) in expected where verdicts.contains("verified") {
      let records = try Self.records(folder.appendingPathComponent(file))
      let checks = try NDEFSignatures.verify(records: records, trustAnchors: anchors, crypto: crypto)
      #expect(!checks.contains { $0.verdict.isVerified }, "\(file)")
    }
  }

  @Test("what each signature covers: from the start, or after the previous Signature record")
  func coverage() throws {
    let (folder, _) = try Self.generated()
    defer { try? FileManager.default.removeItem(at: folder) }
    let anchors = try Self.anchors(folder.appendingPathComponent("ca.pem"))
    let checks = try NDEFSignatures.verify(
      records: try Self.records(folder.appendingPathComponent("two-sections.ndef")), trustAnchors: anchors,
      crypto: crypto)
    #expect(checks.map(\.recordIndex) == [1, 4])
    #expect(checks.map(\.covered) == [0..<1, 2..<4])
  }

  @Test("an unreadable trust anchor is an error")
  func badAnchor() throws {
    let payload: [UInt8] =
      [0x20, 0x0B, 0x02, 0x00, 0x40] + [UInt8](repeating: 0x11, count: 64) + [0x01, 0x00, 0x01, 0x5A]
    let records = [NDEFRecord(typeNameFormat: .wellKnown, type: Array("Sig".utf8), payload: payload)]
    #expect(throws: TagTrustError(.invalidCertificate)) {
      try NDEFSignatures.verify(
        records: records, trustAnchors: [[0x30, 0x03, 0x02, 0x01, 0x01]], crypto: crypto)
    }
  }

  @Test("a Signature record NDEF cannot read is malformed, with NDEF's error")
  func malformedRecord() throws {
    let payload: [UInt8] = [0x20, 0x0B, 0x02, 0x00, 0x05, 0x01]
    let records = [
      NDEFRecord(typeNameFormat: .wellKnown, type: Array("U".utf8), payload: [0x04, 0x61]),
      NDEFRecord(typeNameFormat: .wellKnown, type: Array("Sig".utf8), payload: payload),
    ]
    let checks = try NDEFSignatures.verify(records: records, trustAnchors: [], crypto: crypto)
    #expect(checks.count == 1 && checks[0].covered == 0..<1 && checks[0].record == nil)
    guard case .malformed(let error) = checks[0].verdict else {
      Issue.record("\(checks[0].verdict)")
      return
    }
    #expect(error.code == .signatureTruncated)
  }

  @Test("signature type names and curves (Signature RTD 2.0 §3.3.2.1)")
  func signatureTypes() {
    #expect(NDEFSignatures.signatureTypeName(0x0B) == "ECDSA-P256")
    #expect(NDEFSignatures.signatureTypeName(0x00) == "none")
    #expect(NDEFSignatures.signatureTypeName(0x7F) == "type 7F")
    #expect(NDEFSignatures.curve(ofSignatureType: 0x04) == .prime192v1)
    #expect(NDEFSignatures.curve(ofSignatureType: 0x09) == nil)
  }

  @Test("DER and r‖s ECDSA values give the same scalars; others none")
  func scalars() {
    let r = [UInt8](repeating: 0x81, count: 32)
    let s = [UInt8](repeating: 0x01, count: 32)
    let der: [UInt8] = [0x30, 0x45, 0x02, 0x21, 0x00] + r + [0x02, 0x20] + s
    #expect(NDEFSignatures.scalars(der, size: 32).map { [$0.0, $0.1] } == [r, s])
    #expect(NDEFSignatures.scalars(r + s, size: 32).map { [$0.0, $0.1] } == [r, s])
    #expect(NDEFSignatures.scalars(der + [0], size: 32) == nil)
    #expect(NDEFSignatures.scalars(Array(der.dropLast()), size: 32) == nil)
    // A short r (leading zeros dropped by the signer) is padded back.
    let short: [UInt8] = [0x30, 0x25, 0x02, 0x01, 0x07, 0x02, 0x20] + s
    #expect(NDEFSignatures.scalars(short, size: 32)?.0 == [UInt8](repeating: 0, count: 31) + [0x07])
  }
}
