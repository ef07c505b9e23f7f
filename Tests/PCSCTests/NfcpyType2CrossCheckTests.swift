// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF
import NFCReaderPCSC
import NFCTags
import PCSCControl
import Testing

/// nfcpy's Type 2 tag parser (nfc.tag.tt2) and ndeflib, both from PyPI (installed into
/// `.build/venv` by `.ci/install-packages`), read the memory images Tapwire reads from
/// `tapwire-vcard`'s NTAG215 and NTAG216 through pcscd (`PCSCCard.readMemoryImage`):
/// the capability container, the TLVs up to the NDEF TLV (type, offset, length), the NDEF
/// message bytes (with the bytes Lock and Memory Control TLVs reserve skipped), the largest
/// message the tag takes and the records must be what Tapwire's `Type2TagView` and NDEF parser give. In the serialized
/// PC/SC suite; with `TAPWIRE_REQUIRE_PEERS=1` a missing peer fails instead of skipping.
extension PCSCTransportTests {
  static var nfcpyScript: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("nfcpy-type2.py").path
  }

  /// The venv's Python when nfcpy and ndeflib import there, else nil.
  static var nfcpyPython: String? {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let path = root.appendingPathComponent(".build/venv/bin/python3").path
    guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
    let check = Process()
    check.executableURL = URL(fileURLWithPath: path)
    check.arguments = ["-c", "import nfc.tag.tt2, ndef"]
    check.standardError = FileHandle.nullDevice
    guard (try? check.run()) != nil else { return nil }
    check.waitUntilExit()
    return check.terminationStatus == 0 ? path : nil
  }

  /// What nfcpy and ndeflib make of each image (one JSON object per image).
  static func nfcpyParse(_ images: [[UInt8]], python: String) throws -> [[String: Any]] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [nfcpyScript]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(images.map { hex($0) + "\n" }.joined().utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { try object(String($0)) }
  }

  /// ndeflib's record type string for a record: `urn:nfc:wkt:` or `urn:nfc:ext:` before
  /// well-known and external types, the media type or URI as is, `unknown`, `unchanged`.
  static func ndeflibType(_ record: NDEFRecord) -> String {
    let type = String(decoding: record.type, as: UTF8.self)
    switch record.typeNameFormat {
    case .wellKnown: return "urn:nfc:wkt:" + type
    case .external: return "urn:nfc:ext:" + type
    case .media, .absoluteURI: return type
    case .unknown: return "unknown"
    case .unchanged: return "unchanged"
    default: return ""
    }
  }

  /// Compares nfcpy's and ndeflib's reading of `image` with Tapwire's.
  static func expectNfcpyAgrees(_ image: [UInt8], _ peer: [String: Any], _ label: String) throws {
    #expect(peer["error"] == nil, "\(label): \(peer["error"] ?? "")")
    let view = try Type2TagView(validating: image.span)
    let cc = view.capabilityContainer
    #expect(peer["cc"] as? String == hex(cc.bytes), "\(label)")
    #expect(peer["readable"] as? Bool == (cc.readAccess == 0), "\(label)")
    #expect(peer["writeable"] as? Bool == cc.isWritable, "\(label)")
    // nfcpy walks the TLVs up to the NDEF TLV; NULL and Terminator TLVs have length -1.
    let ours = view.tlvArea.tlvList()
    let walked = ours.prefix { $0.type != .ndef } + ours.drop { $0.type != .ndef }.prefix(1)
    let oursRows = walked.map { tlv in
      let length = tlv.type == .null || tlv.type == .terminator ? -1 : tlv.length
      return "\(tlv.type.rawValue) @\(tlv.offset) len \(length)"
    }
    let peerRows = (peer["tlvs"] as? [[String: Int]] ?? []).map {
      "\($0["type"] ?? -2) @\($0["offset"] ?? -2) len \($0["length"] ?? -2)"
    }
    #expect(peerRows == oursRows, "\(label)")
    #expect(peer["ndefOffset"] as? Int == view.tlvArea.area.ndefTLV?.offset, "\(label)")
    #expect(peer["capacity"] as? Int == view.maximumNDEFSize, "\(label): the largest message")
    #expect(
      peer["ndef"] as? String
        == hex(view.tlvArea.assembledNDEFBytes()).replacingOccurrences(of: "-", with: ""))
    let records = try view.tlvArea.message(options: .strict)?.records ?? []
    let oursRecords = records.map { record in
      [ndeflibType(record), String(decoding: record.id, as: UTF8.self), hex(record.payload)]
    }
    let peerRecords = (peer["records"] as? [[String: String]] ?? []).map { record in
      [
        record["type"] ?? "?", record["name"] ?? "?",
        (record["data"] ?? "?").isEmpty ? "-" : record["data"] ?? "?",
      ]
    }
    #expect(peerRecords == oursRecords, "\(label)")
  }

  /// A blank NTAG215, an NTAG215 and an NTAG216 Tapwire wrote a multi-record message on
  /// (the NTAG216's over 254 bytes: a three-byte NDEF TLV length), and an NTAG215 whose
  /// data area starts with a Lock Control TLV (2 lock bytes at 160), a Memory Control TLV
  /// (16 reserved bytes at 176) and a Proprietary TLV before the NDEF TLV, with a message
  /// Tapwire wrote around the reserved bytes: nfcpy and ndeflib read each image as Tapwire
  /// does.
  @Test func nfcpyAndNdeflibAgreeOnType2Images() async throws {
    guard let python = Self.nfcpyPython else {
      #expect(
        ProcessInfo.processInfo.environment["TAPWIRE_REQUIRE_PEERS"] != "1",
        "nfcpy and ndeflib are missing (.ci/install-packages installs them into .build/venv)")
      return
    }
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let access = PCSCStorageCardAccess(profile: .acs)
    let longText = NDEFRecord(
      typeNameFormat: .wellKnown, type: [0x54], id: Array("long".utf8),
      payload: [0x02] + Array("en".utf8) + Array(repeating: 0x62, count: 220))
    let external = NDEFRecord(
      typeNameFormat: .external, type: Array("example.com:tapwire".utf8), payload: [0x00, 0x01, 0xFF])
    let base = try NDEFMessage(parsing: Self.sessionMessage)
    let long = try NDEFMessage(records: base.records + [longText, external]).encodedBytes()
    let medium = NDEFRecord(
      typeNameFormat: .wellKnown, type: [0x54],
      payload: [0x02] + Array("en".utf8) + Array(repeating: 0x63, count: 100))
    let crossing = try NDEFMessage(records: base.records + [external, medium]).encodedBytes()
    #expect(long.count > 254)
    var images: [(String, [UInt8])] = []

    let blank = try await Self.insertStorage(stack, context, "ntag215 acs")
    let blankImage = try await blank.readMemoryImage(access: access)
    images.append(("blank NTAG215", blankImage))
    try await blank.disconnect()
    for (kind, message) in [("ntag215", Self.sessionMessage), ("ntag216", long)] {
      let card = try await Self.insertStorage(stack, context, "\(kind) acs")
      try await card.writeNDEF(bytes: message, access: access)
      images.append((kind, try await card.readMemoryImage(access: access)))
      try await card.disconnect()
    }
    // Lock Control 0xA0 10 44: page 10 of 16-byte pages, 16 bits; Memory Control B0 10 44:
    // 16 bytes at 176; Proprietary FD with 4 bytes; an empty NDEF TLV; the Terminator.
    var controlled = blankImage
    let tlvs: [UInt8] = [
      0x01, 0x03, 0xA0, 0x10, 0x44, 0x02, 0x03, 0xB0, 0x10, 0x44, 0xFD, 0x04, 0x01, 0x02, 0x03, 0x04,
      0x03, 0x00, 0xFE,
    ]
    controlled.replaceSubrange(16..<(16 + tlvs.count), with: tlvs)
    let card = try await Self.insertStorage(stack, context, "ntag215 acs image \(Self.hex(controlled))")
    try await card.writeNDEF(bytes: crossing, access: access)
    let controlledImage = try await card.readMemoryImage(access: access)
    try await card.disconnect()
    #expect(crossing.count > 192 - 34 && crossing.count < 255, "the message runs past the reserved bytes")
    #expect(
      controlledImage[160..<162].allSatisfy { $0 == 0 } && controlledImage[176..<192].allSatisfy { $0 == 0 })
    images.append(("controls", controlledImage))

    let peer = try Self.nfcpyParse(images.map(\.1), python: python)
    try #require(peer.count == images.count)
    for ((label, image), answer) in zip(images, peer) {
      try Self.expectNfcpyAgrees(image, answer, label)
    }
    // The controlled tag's reading skips what the controls reserve: the message is whole.
    #expect(peer.last?["ndef"] as? String == Self.hex(crossing))
    #expect(peer[1]["ndef"] as? String == Self.hex(Self.sessionMessage))
  }
}
