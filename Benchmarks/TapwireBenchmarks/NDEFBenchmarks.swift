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

  // The measured passes: one pass over a flattened corpus each, every one a named function
  // so `Benchmarks/run-callgrind.sh` can count its instructions alone (`--toggle-collect`).
  // Each makes one call per message, the C walk included.

  /// The C header walk (lengths only, `Benchmarks/CNDEFLimit`) over every message: the limit.
  @inline(never)
  static func cWalkPass(_ all: UnsafeBufferPointer<UInt8>, _ ranges: [Range<Int>]) -> Int {
    var sum = 0
    for range in ranges { sum &+= tapwire_ndef_header_walk(all.baseAddress! + range.lowerBound, range.count) }
    return sum
  }

  /// `NDEFMessageView(validating:)` over every message (strict); the record counts summed.
  @inline(never)
  static func validatePass(_ all: RawSpan, _ ranges: [Range<Int>]) -> Int {
    var sum = 0
    for range in ranges { sum &+= validatedRecordCount(all.extracting(range)) }
    return sum
  }

  /// Validates `bytes` and returns its record count, -1 when not valid.
  @inline(never)
  static func validatedRecordCount(_ bytes: RawSpan) -> Int {
    do throws(NDEFError) {
      return try NDEFMessageView(validating: bytes).recordCount
    } catch {
      return -1
    }
  }

  /// Validate then iterate (``walk(_:)``) over every message.
  @inline(never)
  static func viewPass(_ all: RawSpan, _ ranges: [Range<Int>]) -> Int {
    var sum = 0
    for range in ranges { sum &+= walk(all.extracting(range)) }
    return sum
  }

  /// `checkedRecords` (``checkedWalk(_:)``) over every message.
  @inline(never)
  static func checkedPass(_ all: RawSpan, _ ranges: [Range<Int>]) -> Int {
    var sum = 0
    for range in ranges { sum &+= checkedWalk(all.extracting(range)) }
    return sum
  }

  /// What strict NDEF decoding checks that the C header walk does not (it checks lengths
  /// only), printed beside the ratios so the comparison says what the extra time buys.
  static let rulesBeyondTheCWalk = """
    Rules Tapwire checks that the C header walk (lengths only) does not, per record: MB on the \
    first record only; ME on the last and no byte after it; TNF Reserved and stray TNF Unchanged \
    refused; TNF 1-4 with a TYPE, Unknown without; Empty records empty and unchunked; chunk \
    continuations TNF Unchanged with no TYPE and no ID; no ME inside a chunk sequence; the \
    record-count bound; and each error named with its field and byte offset. Records handed \
    out (view and checked) carry their chunk count and summed payload length.
    """

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

  /// A generator of pseudo-random numbers from a seed (SplitMix64), so the field corpus is
  /// the same on every run and platform.
  struct SeededGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z &>> 31)
    }
    /// A number in `range`.
    mutating func next(in range: ClosedRange<Int>) -> Int {
      range.lowerBound + Int(next() % UInt64(range.count))
    }
  }

  /// The seed of the field corpus.
  static let fieldCorpusSeed: UInt64 = 0x7A9_3135

  /// A corpus shaped like NDEF read in the field (issue #35): `messages` messages of 1 to 100
  /// records each; about one record in five with an ID (1 to 16 octets), one in twenty
  /// chunked (200 to 800 payload octets in chunks of 40 to 255), one in sixteen long
  /// (SR clear, 256 to 1000 payload octets), the rest short (1 to 80 octets); types URI,
  /// Text, two media types and an external type. Seeded and deterministic.
  static func fieldCorpus(messages: Int = 32, seed: UInt64 = fieldCorpusSeed) -> [[UInt8]] {
    var random = SeededGenerator(state: seed)
    let types: [(tnf: UInt8, type: [UInt8])] = [
      (0x01, Array("U".utf8)), (0x01, Array("T".utf8)), (0x02, Array("text/plain".utf8)),
      (0x02, Array("application/vnd.wfa.wsc".utf8)), (0x04, Array("android.com:pkg".utf8)),
    ]
    let messageBegin: UInt8 = 0x80
    let messageEnd: UInt8 = 0x40
    let chunkFlag: UInt8 = 0x20
    let shortRecord: UInt8 = 0x10
    let idPresent: UInt8 = 0x08
    /// One physical record: header octet flags, TNF, type, ID, payload.
    func append(
      _ out: inout [UInt8], flags: UInt8, tnf: UInt8, type: [UInt8], id: [UInt8], payload: [UInt8]
    ) {
      let short = payload.count <= 255
      out.append(flags | (short ? shortRecord : 0) | (id.isEmpty ? 0 : idPresent) | tnf)
      out.append(UInt8(type.count))
      if short {
        out.append(UInt8(payload.count))
      } else {
        out += (0..<4).map { UInt8(truncatingIfNeeded: payload.count >> (24 - 8 * $0)) }
      }
      if !id.isEmpty { out.append(UInt8(id.count)) }
      out += type + id + payload
    }
    var corpus: [[UInt8]] = []
    for _ in 0..<messages {
      let count = random.next(in: 1...100)
      var message: [UInt8] = []
      for index in 0..<count {
        let (tnf, type) = types[random.next(in: 0...(types.count - 1))]
        let id =
          random.next(in: 0...4) == 0
          ? (0..<random.next(in: 1...16)).map { _ in UInt8(truncatingIfNeeded: random.next()) } : []
        let shape = random.next(in: 0...79)
        let size =
          shape < 4
          ? random.next(in: 200...800) : shape < 9 ? random.next(in: 256...1000) : random.next(in: 1...80)
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
        let flags = (index == 0 ? messageBegin : 0) | (index == count - 1 ? messageEnd : 0)
        guard shape < 4 else {
          append(&message, flags: flags, tnf: tnf, type: type, id: id, payload: payload)
          continue
        }
        // Chunked (§2.3.3): MB on the first chunk only, ME on the last only.
        var at = 0
        while at < payload.count {
          let end = min(payload.count, at + random.next(in: 40...255))
          let first = at == 0
          let last = end == payload.count
          append(
            &message,
            flags: (first ? flags & messageBegin : 0) | (last ? flags & messageEnd : chunkFlag),
            tnf: first ? tnf : 0x06, type: first ? type : [], id: first ? id : [],
            payload: Array(payload[at..<end]))
          at = end
        }
      }
      corpus.append(message)
    }
    return corpus
  }

  /// A corpus as one buffer and each message's range in it, for the workloads that compare
  /// with the C walk: both sides then read the same memory the same way, with no per-message
  /// retain and release of an array.
  static func flattened(_ messages: [[UInt8]]) -> (bytes: [UInt8], ranges: [Range<Int>]) {
    var ranges: [Range<Int>] = []
    for message in messages {
      let lower = ranges.last?.upperBound ?? 0
      ranges.append(lower..<(lower + message.count))
    }
    return (messages.flatMap { $0 }, ranges)
  }

  /// The shared field-shaped corpus (`Benchmarks/data/ndef-field-mixed.hex`, from an
  /// independent generator): the C walk, validation, validate then iterate, and
  /// `checkedRecords`, each over the same buffer.
  static func sharedField() -> [Benchmark] {
    let messages = Harness.hexCorpus("ndef-field-mixed.hex")
    let (flat, ranges) = flattened(messages)
    let records = recordCount(messages)
    precondition(
      messages.allSatisfy { checkedWalk($0.span.bytes) >= 0 && validatedRecordCount($0.span.bytes) > 0 },
      "every message of Benchmarks/data/ndef-field-mixed.hex is valid")
    // (Not through the pass functions: run-callgrind.sh counts every call of those.)
    precondition(
      messages.allSatisfy {
        $0.withUnsafeBufferPointer { tapwire_ndef_header_walk($0.baseAddress!, $0.count) } > 0
      },
      "the C walk takes every message")
    return [
      Benchmark(
        name: "ndef.limit.c-header-walk.shared-field", bytesPerOperation: flat.count,
        itemsPerOperation: records
      ) { n in
        var sum = 0
        flat.withUnsafeBufferPointer { all in
          for _ in 0..<n { sum &+= cWalkPass(all, ranges) }
        }
        return sum
      },
      Benchmark(
        name: "ndef.validate.shared-field", bytesPerOperation: flat.count, itemsPerOperation: records
      ) { n in
        var sum = 0
        let all = flat.span.bytes
        for _ in 0..<n { sum &+= validatePass(all, ranges) }
        return sum
      },
      Benchmark(name: "ndef.view.shared-field", bytesPerOperation: flat.count, itemsPerOperation: records) {
        n in
        var sum = 0
        let all = flat.span.bytes
        for _ in 0..<n { sum &+= viewPass(all, ranges) }
        return sum
      },
      Benchmark(name: "ndef.checked.shared-field", bytesPerOperation: flat.count, itemsPerOperation: records)
      { n in
        var sum = 0
        let all = flat.span.bytes
        for _ in 0..<n { sum &+= checkedPass(all, ranges) }
        return sum
      },
    ]
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
    let (mixedFlat, mixedRanges) = flattened(mixed)
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
    // The field-shaped corpus: the C walk and `checkedRecords` over the same buffer.
    let field = fieldCorpus()
    let (fieldFlat, fieldRanges) = flattened(field)
    let fieldRecords = recordCount(field)
    precondition(
      field.allSatisfy {
        checkedWalk($0.span.bytes) >= 0 && (try? NDEFMessageView(validating: $0.span)) != nil
      },
      "every message of the field corpus is valid")
    benchmarks += [
      Benchmark(
        name: "ndef.limit.c-header-walk.field-corpus", bytesPerOperation: fieldFlat.count,
        itemsPerOperation: fieldRecords
      ) { n in
        var sum = 0
        fieldFlat.withUnsafeBufferPointer { all in
          for _ in 0..<n {
            for range in fieldRanges {
              sum &+= tapwire_ndef_header_walk(all.baseAddress! + range.lowerBound, range.count)
            }
          }
        }
        return sum
      },
      Benchmark(
        name: "ndef.checked.field-corpus", bytesPerOperation: fieldFlat.count, itemsPerOperation: fieldRecords
      ) { n in
        var sum = 0
        let all = fieldFlat.span.bytes
        for _ in 0..<n { for range in fieldRanges { sum &+= checkedWalk(all.extracting(range)) } }
        return sum
      },
    ]
    benchmarks += sharedField()
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
