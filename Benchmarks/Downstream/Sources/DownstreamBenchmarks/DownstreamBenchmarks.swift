// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `swift run -c release --package-path Benchmarks/Downstream DownstreamBenchmarks
/// [--filter NAME] [--json] [--samples N] [--iterations N]`, from the repository root (the
/// corpus is read from `Corpus/`).
///
/// The NDEF workloads of TapwireBenchmarks (the same source files), compiled in a package that
/// depends on Tapwire by path: the mixed corpus validated, walked with `checkedRecords`, and
/// decoded with `init(validating:)` then `records`, each against the C header walk sampled
/// in the same rounds; and the URI records written into a caller's buffer.
@main
struct DownstreamBenchmarks {
  static func main() {
    var filter = ".mixed-corpus,.field-corpus,uri-100"
    var json = false
    var samples = 11
    var iterations: Int?
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
      switch argument {
      case "--filter": filter = arguments.popFirst() ?? filter
      case "--json": json = true
      case "--samples": samples = Int(arguments.popFirst() ?? "") ?? samples
      case "--iterations": iterations = Int(arguments.popFirst() ?? "")
      default:
        FileHandle.standardError.write(
          Data("usage: DownstreamBenchmarks [--filter NAME] [--json] [--samples N] [--iterations N]\n".utf8))
        exit(2)
      }
    }
    let parts = filter.split(separator: ",").map(String.init)
    let benchmarks = NDEFBenchmarks.all().filter { benchmark in parts.contains { benchmark.name.contains($0) }
    }
    let limit = "ndef.limit.c-header-walk.mixed-corpus"
    let references = Dictionary(
      uniqueKeysWithValues: [
        "ndef.validate.mixed-corpus", "ndef.checked.mixed-corpus", "ndef.view.mixed-corpus",
      ]
      .map { ($0, limit) } + [("ndef.checked.field-corpus", "ndef.limit.c-header-walk.field-corpus")])
    let results = Harness.measure(
      benchmarks, samples: samples, fixedIterations: iterations, references: references
    ) { name in
      if !json { FileHandle.standardError.write(Data("measured \(name)\n".utf8)) }
    }
    print(json ? Harness.json(results) : Harness.table(results))
    if Harness.sink == 42 { print("") }
  }
}
