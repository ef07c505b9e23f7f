// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF

#if TAPWIRE_DOWNSTREAM
  import DownstreamNDEFLimit
#else
  import CNDEFLimit
#endif

/// NDEF workloads: view decode, owned decode and encode, over `Corpus/ndef` and seeded
/// generated messages.
enum NDEFBenchmarks {
  static func corpus() -> [[UInt8]] {
    let folder = "Corpus/ndef/seeds"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
    return files.compactMap { FileManager.default.contents(atPath: "\(folder)/\($0)").map { [UInt8]($0) } }
  }

  /// A message of `count` short URI records.
  static func uriMessage(records count: Int) -> [UInt8] {
    let records = (0..<count).map { index in
      NDEFRecord(
        typeNameFormat: .wellKnown, type: [0x55], payload: [0x04] + Array("example.com/\(index)".utf8))
    }
    return try! NDEFMessage(records: records).encodedBytes()
  }

  /// One media record with a payload of `size` bytes.
  static func mimeMessage(size: Int) -> [UInt8] {
    let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let record = NDEFRecord(
      typeNameFormat: .media, type: Array("application/octet-stream".utf8), payload: payload)
    return try! NDEFMessage(records: [record]).encodedBytes()
  }

  /// Validates and walks every record of `bytes` with the view API, taking each record's
  /// type and payload spans; returns a checksum.
  @inline(never)
  static func walk(_ bytes: RawSpan) -> Int {
    guard let message = try? NDEFMessageView(validating: bytes) else { return -1 }
    var sum = 0
    var records = message.records
    while let record = records.next() {
      sum &+= record.payload.byteCount &+ record.type.byteCount &+ Int(record.header.rawValue)
    }
    return sum
  }

  /// Checks and walks every record of `bytes` in one pass
  /// (`NDEFMessageView.checkedRecords`), taking each record's type and payload spans;
  /// returns a checksum.
  @inline(never)
  static func checkedWalk(_ bytes: RawSpan) -> Int {
    var records = NDEFMessageView.checkedRecords(bytes)
    var sum = 0
    do throws(NDEFError) {
      while let record = try records.next() {
        sum &+= record.payload.byteCount &+ record.type.byteCount &+ Int(record.header.rawValue)
      }
    } catch {
      return -1
    }
    return sum
  }

  /// Decodes every URI record of a message to a `String`, checking the message in the
  /// same pass (`NDEFMessageView.checkedRecords`).
  @inline(never)
  static func uriStrings(_ bytes: RawSpan) -> Int {
    var records = NDEFMessageView.checkedRecords(bytes)
    var sum = 0
    do throws(NDEFError) {
      while let record = try records.next() {
        sum &+= try URIRecordView(validating: record).uri.utf8.count
      }
    } catch {
      return -1
    }
    return sum
  }

  /// Writes every URI record of a message, prefix expanded, into `buffer` (the UTF-8 of
  /// each URI in turn, no `String`), checking the message in the same pass.
  @inline(never)
  static func uriIntoBuffer(_ bytes: RawSpan, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    var records = NDEFMessageView.checkedRecords(bytes)
    var sum = 0
    do throws(NDEFError) {
      while let record = try records.next() {
        sum &+= try URIRecordView(validating: record).writeURI(into: buffer)
      }
    } catch {
      return -1
    }
    return sum
  }

  static func recordCount(_ messages: [[UInt8]]) -> Int {
    messages.reduce(0) { total, bytes in
      total + ((try? NDEFMessageView(validating: bytes.span))?.recordCount ?? 0)
    }
  }

  /// The mixed corpus: the seed messages, one of 100 URI records and a 2000-byte media
  /// record in 100-byte chunks.
  static func mixedCorpus() -> [[UInt8]] {
    let chunked = try! NDEFMessage(records: [
      NDEFRecord(
        typeNameFormat: .media, type: Array("text/plain".utf8), payload: Array(repeating: 0x61, count: 2000))
    ]).encodedBytes(options: NDEFEncodingOptions(maximumChunkPayloadSize: 100))
    return corpus() + [uriMessage(records: 100), chunked]
  }

  static func all() -> [Benchmark] {
    let small = uriMessage(records: 1)
    let hundred = uriMessage(records: 100)
    let mixed = mixedCorpus()
    let mixedBytes = mixed.reduce(0) { $0 + $1.count }
    let mixedRecords = recordCount(mixed)
    // The mixed corpus as one buffer and each message's range in it, for the workloads
    // that compare with the C walk: both sides then read the same memory the same way,
    // with no per-message retain and release of an array.
    let mixedFlat = mixed.flatMap { $0 }
    var mixedRanges: [Range<Int>] = []
    for message in mixed {
      let lower = mixedRanges.last?.upperBound ?? 0
      mixedRanges.append(lower..<(lower + message.count))
    }
    let seeds = corpus()
    let seedBytes = seeds.reduce(0) { $0 + $1.count }
    let seedRecords = recordCount(seeds)
    // The caller's buffer for the URIs, made once (outside the counted samples), never freed.
    let uriBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
    var benchmarks: [Benchmark] = [
      Benchmark(
        name: "ndef.limit.c-header-walk.mixed-corpus", bytesPerOperation: mixedBytes,
        itemsPerOperation: mixedRecords
      ) { n in
        var sum = 0
        mixedFlat.withUnsafeBufferPointer { all in
          for _ in 0..<n {
            for range in mixedRanges {
              sum &+= tapwire_ndef_header_walk(all.baseAddress! + range.lowerBound, range.count)
            }
          }
        }
        return sum
      },
      Benchmark(
        name: "ndef.validate.mixed-corpus", bytesPerOperation: mixedBytes, itemsPerOperation: mixedRecords
      ) { n in
        var sum = 0
        let all = mixedFlat.span.bytes
        for _ in 0..<n {
          for range in mixedRanges {
            sum &+= (try? NDEFMessageView(validating: all.extracting(range)))?.recordCount ?? 0
          }
        }
        return sum
      },
      Benchmark(name: "ndef.view.seeds", bytesPerOperation: seedBytes, itemsPerOperation: seedRecords) { n in
        var sum = 0
        for _ in 0..<n { for message in seeds { sum &+= walk(message.span.bytes) } }
        return sum
      },
      Benchmark(
        name: "ndef.typed.uri-100-to-string", bytesPerOperation: hundred.count, itemsPerOperation: 100
      ) { n in
        var sum = 0
        let span = hundred.span.bytes
        for _ in 0..<n { sum &+= uriStrings(span) }
        return sum
      },
      Benchmark(
        name: "ndef.typed.uri-100-into-buffer", bytesPerOperation: hundred.count, itemsPerOperation: 100
      ) { n in
        var sum = 0
        let span = hundred.span.bytes
        for _ in 0..<n { sum &+= uriIntoBuffer(span, uriBuffer) }
        return sum
      },
      Benchmark(name: "ndef.view.uri-1", bytesPerOperation: small.count, itemsPerOperation: 1) { n in
        var sum = 0
        let span = small.span.bytes
        for _ in 0..<n { sum &+= walk(span) }
        return sum
      },
      Benchmark(name: "ndef.view.uri-100", bytesPerOperation: hundred.count, itemsPerOperation: 100) { n in
        var sum = 0
        let span = hundred.span.bytes
        for _ in 0..<n { sum &+= walk(span) }
        return sum
      },
      Benchmark(
        name: "ndef.view.mixed-corpus", bytesPerOperation: mixedBytes, itemsPerOperation: mixedRecords
      ) { n in
        var sum = 0
        let all = mixedFlat.span.bytes
        for _ in 0..<n { for range in mixedRanges { sum &+= walk(all.extracting(range)) } }
        return sum
      },
      Benchmark(
        name: "ndef.checked.mixed-corpus", bytesPerOperation: mixedBytes, itemsPerOperation: mixedRecords
      ) { n in
        var sum = 0
        let all = mixedFlat.span.bytes
        for _ in 0..<n { for range in mixedRanges { sum &+= checkedWalk(all.extracting(range)) } }
        return sum
      },
    ]
    for size in [1024, 65536] {
      let message = mimeMessage(size: size)
      benchmarks.append(
        Benchmark(
          name: "ndef.view.mime-\(size / 1024)k", bytesPerOperation: message.count, itemsPerOperation: 1
        ) { n in
          var sum = 0
          let span = message.span.bytes
          for _ in 0..<n { sum &+= walk(span) }
          return sum
        })
    }
    let hundredModel = try! NDEFMessage(parsing: hundred)
    benchmarks += [
      Benchmark(name: "ndef.owned.decode-uri-100", bytesPerOperation: hundred.count, itemsPerOperation: 100) {
        n in
        var sum = 0
        for _ in 0..<n { sum &+= (try? NDEFMessage(parsing: hundred))?.records.count ?? 0 }
        return sum
      },
      Benchmark(name: "ndef.encode.uri-100", bytesPerOperation: hundred.count, itemsPerOperation: 100) { n in
        var sum = 0
        for _ in 0..<n { sum &+= (try? hundredModel.encodedBytes())?.count ?? 0 }
        return sum
      },
      Benchmark(
        name: "ndef.encode.uri-100-into-buffer", bytesPerOperation: hundred.count, itemsPerOperation: 100
      ) { n in
        var buffer = [UInt8](repeating: 0, count: hundred.count)
        var sum = 0
        buffer.withUnsafeMutableBytes { raw in
          for _ in 0..<n { sum &+= (try? hundredModel.encode(into: raw)) ?? 0 }
        }
        return sum
      },
    ]
    return benchmarks
  }
}
