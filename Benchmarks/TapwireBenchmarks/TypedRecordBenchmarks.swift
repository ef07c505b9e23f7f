// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF

/// Typed record decoding through the one dispatch entry point (`DecodedRecord`), over the
/// record-type seeds in `Corpus/ndefrecord/seeds` (first byte: the oracle's type selector,
/// then the payload): the view alone (no allocation expected), then the owned model.
enum TypedRecordBenchmarks {
  /// The seeds whose file names start with `prefix`, as (TNF, type, payload).
  static func seeds(_ prefix: String) -> [(TypeNameFormat, [UInt8], [UInt8])] {
    let folder = "Corpus/ndefrecord/seeds"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
    return files.filter { $0.hasPrefix(prefix) }.compactMap { name in
      guard let data = FileManager.default.contents(atPath: "\(folder)/\(name)") else { return nil }
      let (tnf, type): (TypeNameFormat, String) =
        switch prefix {
        case "text": (.wellKnown, "T")
        case "uri": (.wellKnown, "U")
        case "smartPoster": (.wellKnown, "Sp")
        case "handoverRequest": (.wellKnown, "Hr")
        case "handoverSelect": (.wellKnown, "Hs")
        default: (.media, "application/vnd.wfa.wsc")
        }
      return (tnf, Array(type.utf8), Array([UInt8](data).dropFirst()))
    }
  }

  /// Decodes the view and reads its fields; returns a checksum (no owned copy).
  @inline(never)
  static func view(_ tnf: TypeNameFormat, _ type: [UInt8], _ payload: [UInt8]) -> Int {
    guard
      let decoded = try? DecodedRecord(
        typeNameFormat: tnf, type: type.span.bytes, payload: payload.span.bytes)
    else { return -1 }
    switch decoded {
    case .text(let view): return view.text.byteCount &+ view.languageCode.byteCount
    case .uri(let view): return view.remainder.byteCount &+ Int(view.prefixCode)
    case .smartPoster(let view): return view.titleCount &+ (view.uri?.remainder.byteCount ?? 0)
    case .handover(let view): return view.alternativeCarrierCount &+ Int(view.majorVersion)
    case .wifiSimpleConfig(let view): return view.credentialCount &+ view.attributes.byteCount
    default: return 0
    }
  }

  /// Decodes the view, then builds the owned model (strings, arrays).
  @inline(never)
  static func owned(_ tnf: TypeNameFormat, _ type: [UInt8], _ payload: [UInt8]) -> Int {
    guard
      let decoded = try? DecodedRecord(
        typeNameFormat: tnf, type: type.span.bytes, payload: payload.span.bytes)
    else { return -1 }
    switch decoded {
    case .text(let view): return TextRecord(view).text.utf8.count
    case .uri(let view): return URIRecord(view).uri.utf8.count
    case .smartPoster(let view): return (try? SmartPoster(view))?.uri.utf8.count ?? -1
    case .handover(let view): return Handover(view).alternativeCarriers.count
    case .wifiSimpleConfig(let view): return view.credentials().count
    default: return 0
    }
  }

  /// Decodes a Text payload and writes its text in UTF-8 into `buffer` (no `String`).
  @inline(never)
  static func textIntoBuffer(_ payload: [UInt8], _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    (try? TextRecordView(validating: payload.span.bytes).writeUTF8(into: buffer)) ?? -1
  }

  static func all() -> [Benchmark] {
    var benchmarks: [Benchmark] = []
    let texts = seeds("text")
    let textBytes = texts.reduce(0) { $0 + $1.2.count }
    // The caller's buffer, made once (outside the counted samples), never freed.
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
    benchmarks.append(
      Benchmark(
        name: "ndef.typed.text.into-buffer", bytesPerOperation: textBytes, itemsPerOperation: texts.count
      ) { n in
        var sum = 0
        for _ in 0..<n { for (_, _, payload) in texts { sum &+= textIntoBuffer(payload, buffer) } }
        return sum
      })
    let kinds: [(String, [(TypeNameFormat, [UInt8], [UInt8])])] = [
      ("text", seeds("text")), ("smart-poster", seeds("smartPoster")),
      ("handover", seeds("handoverRequest") + seeds("handoverSelect")), ("wsc", seeds("wifiSimpleConfig")),
    ]
    for (name, records) in kinds {
      precondition(
        !records.isEmpty && records.allSatisfy { view($0.0, $0.1, $0.2) >= 0 }, "\(name) seeds decode")
      let bytes = records.reduce(0) { $0 + $1.2.count }
      benchmarks.append(
        Benchmark(name: "ndef.typed.\(name).view", bytesPerOperation: bytes, itemsPerOperation: records.count)
        {
          n in
          var sum = 0
          for _ in 0..<n { for (tnf, type, payload) in records { sum &+= view(tnf, type, payload) } }
          return sum
        })
      benchmarks.append(
        Benchmark(
          name: "ndef.typed.\(name).owned", bytesPerOperation: bytes, itemsPerOperation: records.count
        ) {
          n in
          var sum = 0
          for _ in 0..<n { for (tnf, type, payload) in records { sum &+= owned(tnf, type, payload) } }
          return sum
        })
    }
    return benchmarks
  }
}
