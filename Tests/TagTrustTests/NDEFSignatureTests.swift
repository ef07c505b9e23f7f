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

  static func records(_ url: URL) throws -> [SignedNDEFRecord] {
    let message = try NDEFMessage(parsing: [UInt8](try Data(contentsOf: url)))
    return message.records.map {
      SignedNDEFRecord(
        typeNameFormat: $0.typeNameFormat.rawValue, type: $0.type, id: $0.id, payload: $0.payload)
    }
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
    let records = [SignedNDEFRecord(typeNameFormat: 1, type: Array("Sig".utf8), payload: payload)]
    #expect(throws: TagTrustError(.invalidCertificate)) {
      try NDEFSignatures.verify(
        records: records, trustAnchors: [[0x30, 0x03, 0x02, 0x01, 0x01]], crypto: crypto)
    }
  }

  @Test(
    "Signature record payloads that cannot be read are typed errors at the bad byte",
    arguments: [
      ([UInt8](), TagTrustError(.invalidSignatureRecord, offset: 100)),
      ([0x10, 0x0B, 0x02, 0x00, 0x00, 0x00], TagTrustError(.unsupportedSignatureVersion, offset: 100)),
      ([0x20, 0x0B, 0x02, 0x00, 0x05, 0x01], TagTrustError(.invalidSignatureRecord, offset: 103)),
      (
        [0x20, 0x0B, 0x02, 0x00, 0x01, 0x01, 0x02, 0x00, 0x01, 0xAA],
        TagTrustError(.invalidSignatureRecord, offset: 110)
      ),
      ([0x20, 0x0B, 0x02, 0x00, 0x00, 0x00, 0xFF], TagTrustError(.invalidSignatureRecord, offset: 106)),
    ])
  func malformedRecord(payload: [UInt8], error: TagTrustError) {
    #expect(throws: error) { try NDEFSignatureRecord(parsing: payload, base: 100) }
  }

  @Test("a Signature record's fields")
  func recordFields() throws {
    let payload: [UInt8] =
      [0x20, 0x8B, 0x02, 0x00, 0x03] + Array("u:s".utf8) + [0x82, 0x00, 0x01, 0xC1, 0x00, 0x02, 0xC2, 0xC3]
      + [0x00, 0x03] + Array("u:c".utf8)
    let record = try NDEFSignatureRecord(parsing: payload)
    #expect(record.signatureType == .ecdsaP256 && record.hashType == 0x02)
    #expect(record.signatureURI == Array("u:s".utf8) && record.signature.isEmpty)
    #expect(record.certificateFormat == 0 && record.certificates == [[0xC1], [0xC2, 0xC3]])
    #expect(record.certificateURI == Array("u:c".utf8))
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
