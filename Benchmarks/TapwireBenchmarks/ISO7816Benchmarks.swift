// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816

/// APDU, BER-TLV and applet-update script workloads.
enum ISO7816Benchmarks {
  static func all() -> [Benchmark] {
    let select: [UInt8] = [
      0x00, 0xA4, 0x04, 0x00, 0x08, 0xA0, 0x00, 0x00, 0x01, 0x51, 0x00, 0x00, 0x00, 0x00,
    ]
    let response: [UInt8] = Array(repeating: 0x5A, count: 64) + [0x90, 0x00]
    let selectModel = try! CommandAPDU(parsing: select)
    // A GlobalPlatform registry response: 16 E3 entries with AID, life cycle, privileges.
    var entries: [BERTLV] = []
    for index in 0..<16 {
      entries.append(
        BERTLV(
          tag: BERTag(rawValue: 0xE3)!,
          children: [
            BERTLV(tag: BERTag(rawValue: 0x4F)!, value: [0xA0, 0x00, 0x00, 0x01, 0x51, 0x00, UInt8(index)]),
            BERTLV(tag: BERTag(rawValue: 0x9F70)!, value: [0x07]),
            BERTLV(tag: BERTag(rawValue: 0xC5)!, value: [0x80, 0x00, 0x00]),
          ]))
    }
    let registry = try! BERTLV.encodedBytes(of: entries)
    // 64 KiB load file in 240-byte LOAD blocks, run against a card that answers 9000.
    let loadFile = (0..<65536).map { UInt8(truncatingIfNeeded: $0) }
    let loadScript = Script(commands: try! GlobalPlatformCommands.load(loadFile, blockSize: 240))
    let steps = loadScript.steps.count
    return [
      Benchmark(name: "apdu.command.decode", bytesPerOperation: select.count, itemsPerOperation: 1) { n in
        var sum = 0
        for _ in 0..<n { sum &+= (try? CommandAPDUView(validating: select.span))?.ne ?? 0 }
        return sum
      },
      Benchmark(name: "apdu.command.encode", bytesPerOperation: select.count, itemsPerOperation: 1) { n in
        var sum = 0
        for _ in 0..<n { sum &+= (try? selectModel.encodedBytes())?.count ?? 0 }
        return sum
      },
      Benchmark(name: "apdu.response.decode", bytesPerOperation: response.count, itemsPerOperation: 1) { n in
        var sum = 0
        for _ in 0..<n {
          if let view = try? ResponseAPDUView(validating: response.span) {
            sum &+= Int(view.statusWord.rawValue)
          }
        }
        return sum
      },
      Benchmark(name: "bertlv.walk.gp-registry", bytesPerOperation: registry.count, itemsPerOperation: 64) {
        n in
        var sum = 0
        for _ in 0..<n { sum &+= walk(registry) }
        return sum
      },
      Benchmark(name: "script.load-64k.in-memory-card", bytesPerOperation: 65536, itemsPerOperation: steps) {
        n in
        var sum = 0
        for _ in 0..<n {
          var run = ScriptRun(script: loadScript)
          while let command = run.nextCommand {
            sum &+= command.count
            _ = try? run.receive([0x90, 0x00])
          }
          sum &+= run.responses.count
        }
        return sum
      },
    ]
  }

  /// Walks every object of a BER-TLV sequence, children included.
  static func walk(_ bytes: [UInt8]) -> Int {
    guard let sequence = try? BERTLVSequenceView(validating: bytes.span.bytes) else { return -1 }
    var sum = 0
    var objects = sequence.objects
    while let object = objects.next() {
      sum &+= object.length
      var children = object.children
      while let child = children.next() { sum &+= child.length }
    }
    return sum
  }
}
