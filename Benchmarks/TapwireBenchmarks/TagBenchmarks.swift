// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import NFCTags

/// Tag image workloads: Type 2 images from `Corpus/tags/seeds` (CC, lock and memory
/// controls, TLV area), and the Type 4 NDEF read procedure against the in-memory
/// `Type4TagSimulator` (SELECT application, CC file, NDEF file, READ BINARY in pieces).
enum TagBenchmarks {
  static func type2Images() -> [[UInt8]] {
    let folder = "Corpus/tags/seeds"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
    return files.filter { $0.hasPrefix("t2t-") }.compactMap {
      FileManager.default.contents(atPath: "\(folder)/\($0)").map { [UInt8]($0) }
    }
  }

  /// Decodes a Type 2 image and reads where its NDEF message is; returns a checksum.
  @inline(never)
  static func type2(_ image: [UInt8]) -> Int {
    guard let view = try? Type2TagView(validating: image.span.bytes) else { return -1 }
    return view.tlvArea.area.tlvCount &+ (view.tlvArea.area.ndefMessageLength ?? 0) &+ view.dataAreaSize
  }

  /// Reads the NDEF message of a fresh simulated Type 4 tag; returns the message length.
  @inline(never)
  static func type4Read(_ message: [UInt8], maximumFileSize: Int) -> Int {
    var tag = Type4TagSimulator(message: message, maximumFileSize: maximumFileSize)
    var procedure = Type4NDEFProcedure(operation: .read)
    do {
      try procedure.run { tag.respond(to: $0) }
    } catch {
      return -1
    }
    return procedure.message.count
  }

  static func all() -> [Benchmark] {
    let images = type2Images()
    precondition(!images.isEmpty && images.allSatisfy { type2($0) >= 0 }, "Type 2 seeds decode")
    let imageBytes = images.reduce(0) { $0 + $1.count }
    let message = NDEFBenchmarks.uriMessage(records: 100)
    precondition(
      type4Read(message, maximumFileSize: 4096) == message.count, "Type 4 read returns the message")
    // READ BINARY answers at most 255 bytes (the simulator's default MLe), plus the SELECTs
    // and the CC and NLEN reads.
    let exchanges = 4 + 1 + (message.count + 254) / 255
    return [
      Benchmark(
        name: "tags.type2.decode-seeds", bytesPerOperation: imageBytes, itemsPerOperation: images.count
      ) {
        n in
        var sum = 0
        for _ in 0..<n { for image in images { sum &+= type2(image) } }
        return sum
      },
      Benchmark(
        name: "tags.type4.read-\(message.count)B.simulator", bytesPerOperation: message.count,
        itemsPerOperation: exchanges
      ) { n in
        var sum = 0
        for _ in 0..<n { sum &+= type4Read(message, maximumFileSize: 4096) }
        return sum
      },
    ]
  }
}
