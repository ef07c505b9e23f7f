// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ISO7816

#if canImport(Glibc)
  import Glibc
#endif

/// The bytes of every file in `Corpus/<format>/seeds` of the main repository.
func corpusSeeds(_ format: String) -> [(name: String, bytes: [UInt8])] {
  // Tests/ISO7816Tests/<this file> -> repository root, symlinks resolved.
  var path = #filePath
  if let resolved = realpath(path, nil) {
    path = String(cString: resolved)
    free(resolved)
  }
  for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
  let folder = path + "/Corpus/" + format + "/seeds"
  guard let directory = opendir(folder) else { return [] }
  defer { closedir(directory) }
  var result: [(String, [UInt8])] = []
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    guard !name.hasPrefix("."), let file = fopen(folder + "/" + name, "rb") else { continue }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    fclose(file)
    result.append((name, bytes))
  }
  return result.sorted { $0.0 < $1.0 }
}

@Suite("Corpus seeds")
struct CorpusSeedTests {
  @Test("capdu seeds decode and re-encode exactly")
  func capdu() throws {
    let seeds = corpusSeeds("capdu")
    #expect(seeds.count >= 5)
    for seed in seeds { #expect(try reencode(seed.bytes) == seed.bytes, "\(seed.name)") }
  }

  @Test("rapdu seeds decode")
  func rapdu() throws {
    let seeds = corpusSeeds("rapdu")
    #expect(seeds.count >= 3)
    for seed in seeds { #expect(try ResponseAPDU(parsing: seed.bytes).encodedBytes() == seed.bytes) }
  }

  @Test("bertlv seeds decode strictly and re-encode exactly")
  func bertlv() throws {
    let seeds = corpusSeeds("bertlv")
    #expect(seeds.count >= 3)
    for seed in seeds {
      #expect(try BERTLV.encodedBytes(of: BERTLV.parseSequence(seed.bytes)) == seed.bytes, "\(seed.name)")
    }
  }

  @Test("apduscript seeds parse (text and remote templates)")
  func scripts() throws {
    let seeds = corpusSeeds("apduscript")
    #expect(seeds.count >= 3)
    for seed in seeds {
      if seed.name.hasSuffix(".txt") {
        #expect(try !Script(parsingText: String(decoding: seed.bytes, as: UTF8.self)).steps.isEmpty)
      } else if seed.bytes.first == 0xAB || seed.bytes.first == 0xAF {
        _ = try RemoteResponseScript(parsing: seed.bytes)
      } else {
        #expect(try !RemoteCommandScript(parsing: seed.bytes).script.steps.isEmpty)
      }
    }
  }
}
