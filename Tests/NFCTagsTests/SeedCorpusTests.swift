// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF
import NFCTags
import NFCWire
import Testing

/// The expected decode of one seed image under `Corpus/tags/seeds/`.
struct Seed: Sendable, CustomStringConvertible {
  var file: String
  var tlvs: [String]
  var ndefOffset: Int
  var ndefLength: Int
  var dataAreaSize: Int
  var maxNDEFSize: Int
  var readOnly: Bool
  var message: [UInt8]
  var contiguous: Bool = true
  var description: String { file }
}

@Suite("Seed corpus of tag images")
struct SeedCorpusTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpus/tags/seeds")

  static let uri213 = hex("D1 01 0E 55 02") + Array("nfc-forum.org".utf8)

  static let seeds: [Seed] = [
    Seed(
      file: "t2t-ntag213-blank.bin", tlvs: ["lockControl@16:3", "ndef@21:0", "terminator@23:0"],
      ndefOffset: 23,
      ndefLength: 0, dataAreaSize: 144, maxNDEFSize: 137, readOnly: false, message: []),
    Seed(
      file: "t2t-ntag213-lockcontrol-uri.bin", tlvs: ["lockControl@16:3", "ndef@21:18", "terminator@41:0"],
      ndefOffset: 23, ndefLength: 18, dataAreaSize: 144, maxNDEFSize: 137, readOnly: false, message: uri213),
    Seed(
      file: "t2t-ntag215-smartposter.bin", tlvs: ["ndef@16:43", "terminator@61:0"], ndefOffset: 18,
      ndefLength: 43,
      dataAreaSize: 496, maxNDEFSize: 492, readOnly: false,
      message: smartPosterMessage("nfc.example/tapwire", title: "Tapwire")),
    Seed(
      file: "t2t-ntag215-memorycontrol.bin", tlvs: ["memoryControl@16:3", "ndef@21:120", "terminator@151:0"],
      ndefOffset: 23, ndefLength: 120, dataAreaSize: 496, maxNDEFSize: 479, readOnly: false,
      message: sizedMessage(120), contiguous: false),
    Seed(
      file: "t2t-ntag216-near-capacity.bin", tlvs: ["ndef@16:860", "terminator@880:0"], ndefOffset: 20,
      ndefLength: 860, dataAreaSize: 872, maxNDEFSize: 868, readOnly: false, message: sizedMessage(860)),
    Seed(
      file: "t2t-ntag216-readonly.bin", tlvs: ["ndef@16:19", "terminator@37:0"], ndefOffset: 18,
      ndefLength: 19,
      dataAreaSize: 872, maxNDEFSize: 868, readOnly: true, message: uriMessage("locked.example")),
    Seed(
      file: "t2t-ultralight-uri.bin", tlvs: ["ndef@16:16", "terminator@34:0"], ndefOffset: 18, ndefLength: 16,
      dataAreaSize: 48, maxNDEFSize: 46, readOnly: false, message: uriMessage("example.com")),
    Seed(
      file: "t2t-ultralight-readonly.bin", tlvs: ["ndef@16:16", "terminator@34:0"], ndefOffset: 18,
      ndefLength: 16,
      dataAreaSize: 48, maxNDEFSize: 46, readOnly: true, message: uriMessage("example.com")),
    Seed(
      file: "t1t-static-blank.bin", tlvs: ["ndef@12:0", "terminator@14:0"], ndefOffset: 14, ndefLength: 0,
      dataAreaSize: 92, maxNDEFSize: 90, readOnly: false, message: []),
    Seed(
      file: "t1t-static-uri.bin", tlvs: ["ndef@12:20", "terminator@34:0"], ndefOffset: 14, ndefLength: 20,
      dataAreaSize: 92, maxNDEFSize: 90, readOnly: false, message: uriMessage("example.org/t1t")),
    Seed(
      file: "t1t-static-readonly.bin", tlvs: ["ndef@12:20", "terminator@34:0"], ndefOffset: 14,
      ndefLength: 20,
      dataAreaSize: 92, maxNDEFSize: 90, readOnly: true, message: uriMessage("example.org/t1t")),
    Seed(
      file: "t1t-dynamic-topaz512-blank.bin",
      tlvs: ["lockControl@12:3", "memoryControl@17:3", "ndef@22:0", "terminator@24:0"], ndefOffset: 24,
      ndefLength: 0, dataAreaSize: 476, maxNDEFSize: 462, readOnly: false, message: []),
    Seed(
      file: "t1t-dynamic-topaz512-spanning.bin",
      tlvs: ["lockControl@12:3", "memoryControl@17:3", "ndef@22:200", "terminator@248:0"], ndefOffset: 24,
      ndefLength: 200, dataAreaSize: 476, maxNDEFSize: 462, readOnly: false, message: sizedMessage(200),
      contiguous: false),
    // Dynamic (TMS 0x3F) without Lock or Memory Control TLV: only blocks 0x0D-0x0F are
    // skipped (no source defines a default dynamic lock area for Type 1; see Type1TagView).
    Seed(
      file: "t1t-dynamic-topaz512-nolockcontrol.bin", tlvs: ["ndef@12:300", "terminator@340:0"],
      ndefOffset: 16, ndefLength: 300, dataAreaSize: 476, maxNDEFSize: 472, readOnly: false,
      message: sizedMessage(300), contiguous: false),
    Seed(
      file: "t5t-slix-uri.bin", tlvs: ["ndef@4:21", "terminator@27:0"], ndefOffset: 6, ndefLength: 21,
      dataAreaSize: 112, maxNDEFSize: 106, readOnly: false, message: uriMessage("example.com/slix")),
    Seed(
      file: "t5t-readonly.bin", tlvs: ["ndef@4:21", "terminator@27:0"], ndefOffset: 6, ndefLength: 21,
      dataAreaSize: 112, maxNDEFSize: 106, readOnly: true, message: uriMessage("example.com/slix")),
    Seed(
      file: "t5t-8byte-cc-blank.bin", tlvs: ["ndef@8:0", "terminator@10:0"], ndefOffset: 10, ndefLength: 0,
      dataAreaSize: 8184, maxNDEFSize: 8180, readOnly: false, message: []),
    Seed(
      file: "t5t-st25-near-capacity.bin", tlvs: ["ndef@4:500", "terminator@508:0"], ndefOffset: 8,
      ndefLength: 500,
      dataAreaSize: 512, maxNDEFSize: 504, readOnly: false, message: sizedMessage(500)),
    Seed(
      file: "t3t-blank.bin", tlvs: [], ndefOffset: 16, ndefLength: 0, dataAreaSize: 208, maxNDEFSize: 208,
      readOnly: false, message: []),
    Seed(
      file: "t3t-uri.bin", tlvs: [], ndefOffset: 16, ndefLength: 19, dataAreaSize: 208, maxNDEFSize: 208,
      readOnly: false, message: uriMessage("felica.example")),
    Seed(
      file: "t3t-near-capacity.bin", tlvs: [], ndefOffset: 16, ndefLength: 200, dataAreaSize: 208,
      maxNDEFSize: 208,
      readOnly: false, message: sizedMessage(200)),
    Seed(
      file: "t3t-readonly.bin", tlvs: [], ndefOffset: 16, ndefLength: 19, dataAreaSize: 208, maxNDEFSize: 208,
      readOnly: true, message: uriMessage("felica.example")),
  ]

  @Test func everySeedFileHasAnExpectation() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
      $0.hasSuffix(".bin")
    }
    #expect(Set(files) == Set(Self.seeds.map(\.file)))
  }

  @Test(arguments: seeds) func decodesAsExpected(_ seed: Seed) throws {
    let image = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(seed.file)))
    let decoded = try TagImageSummary(image, format: String(seed.file.prefix(3)))
    #expect(decoded.tlvs == seed.tlvs)
    #expect(decoded.ndefOffset == seed.ndefOffset)
    #expect(decoded.ndefLength == seed.ndefLength)
    #expect(decoded.dataAreaSize == seed.dataAreaSize)
    #expect(decoded.maxNDEFSize == seed.maxNDEFSize)
    #expect(decoded.readOnly == seed.readOnly)
    #expect(decoded.message == seed.message)
    #expect(decoded.contiguous == seed.contiguous)
    #expect(decoded.warnings.isEmpty)
    if !seed.message.isEmpty {
      #expect(try NDEFMessage(parsing: decoded.message).records.count >= 1)
    }
    // Every prefix of the image is a typed error or a valid decode (never a trap).
    for cut in stride(from: 0, to: image.count, by: max(1, image.count / 64)) {
      _ = try? TagImageSummary(Array(image[0..<cut]), format: String(seed.file.prefix(3)))
    }
    // Writing the message back into a formatted copy reads it back the same.
    if !seed.readOnly && seed.ndefLength > 0 {
      let rewritten = try TagImageSummary(image, format: String(seed.file.prefix(3)), rewrite: seed.message)
      #expect(rewritten.message == seed.message)
    }
  }
}

/// Plain values of a decoded image of any format, as the JSON contract lists them.
struct TagImageSummary {
  var tlvs: [String] = []
  var ndefOffset = 0
  var ndefLength = 0
  var dataAreaSize = 0
  var maxNDEFSize = 0
  var readOnly = false
  var message: [UInt8] = []
  var contiguous = true
  var warnings: [NFCTagWarning] = []

  init(_ image: [UInt8], format: String, rewrite: [UInt8]? = nil) throws {
    var image = image
    if let rewrite {
      let plan: TagWritePlan
      switch format {
      case "t1t": plan = try Type1Tag.writePlan(rewrite, into: image)
      case "t2t": plan = try Type2Tag.writePlan(rewrite, into: image)
      case "t3t": plan = try Type3Tag.writePlan(rewrite, into: image)
      default: plan = try Type5Tag.writePlan(rewrite, into: image)
      }
      #expect(plan.finalImage == image, "rewriting the same message changes nothing")
      plan.apply(to: &image)
    }
    let bytes = image.span.bytes
    func fill(_ area: borrowing TagTLVAreaView) {
      tlvs = tlvSummary(area.tlvList())
      ndefOffset = area.area.ndefMessageOffset ?? -1
      ndefLength = area.area.ndefMessageLength ?? -1
      message = area.assembledNDEFBytes()
      contiguous = area.area.isNDEFContiguous
    }
    switch format {
    case "t1t":
      let tag = try Type1TagView(validating: bytes)
      fill(tag.tlvArea)
      (dataAreaSize, maxNDEFSize, readOnly, warnings) = (
        tag.dataAreaSize, tag.maximumNDEFSize, tag.isReadOnly, tag.warnings
      )
    case "t2t":
      let tag = try Type2TagView(validating: bytes)
      fill(tag.tlvArea)
      (dataAreaSize, maxNDEFSize, readOnly, warnings) = (
        tag.dataAreaSize, tag.maximumNDEFSize, tag.isReadOnly, tag.warnings
      )
    case "t3t":
      let tag = try Type3TagView(validating: bytes)
      ndefOffset = Type3TagView.ndefOffset
      ndefLength = tag.ndefLength
      message = tag.ndefBytes.copiedBytes()
      (dataAreaSize, maxNDEFSize, readOnly, warnings) = (
        tag.dataAreaSize, tag.maximumNDEFSize, tag.isReadOnly, tag.warnings
      )
    default:
      let tag = try Type5TagView(validating: bytes)
      fill(tag.tlvArea)
      (dataAreaSize, maxNDEFSize, readOnly, warnings) = (
        tag.dataAreaSize, tag.maximumNDEFSize, tag.isReadOnly, tag.warnings
      )
    }
  }
}
