// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `swift run -c release TapwireBenchmarks [--filter NAME] [--json] [--samples N]
/// [--iterations N] [--scaling] [--serve] [--write-mixed-corpus DIR]`
@main
struct TapwireBenchmarks {
  static func main() {
    var filter: String?
    var json = false
    var samples = 11
    var iterations: Int?
    var scaling = false
    var serve = false
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
      switch argument {
      case "--filter": filter = arguments.popFirst()
      case "--json": json = true
      case "--samples": samples = Int(arguments.popFirst() ?? "") ?? samples
      case "--iterations": iterations = Int(arguments.popFirst() ?? "")
      case "--scaling": scaling = true
      case "--serve": serve = true
      case "--write-mixed-corpus":
        // The mixed NDEF corpus as files, for the peers to decode the same messages.
        let folder = arguments.popFirst() ?? "."
        for (index, message) in NDEFBenchmarks.mixedCorpus().enumerated() {
          let path = "\(folder)/\(String(index + 10000).dropFirst()).ndef"
          guard FileManager.default.createFile(atPath: path, contents: Data(message)) else {
            FileHandle.standardError.write(Data("cannot write \(path)\n".utf8))
            exit(1)
          }
        }
        return
      case "--help", "-h":
        print(
          """
          usage: TapwireBenchmarks [--filter NAME[,NAME...]] [--json] [--samples N] [--iterations N] [--scaling] [--serve] [--write-mixed-corpus DIR]
            --filter      run only the benchmarks whose names contain one of the NAMEs (e.g. shared-field,
                          ndef.checked.shared-field); with --scaling, the curves whose names contain it
            --iterations  a fixed count per sample instead of calibrating (for callgrind: Benchmarks/run-callgrind.sh)
            --samples     interleaved rounds (default 11); ratios to the C walks are medians of per-round ratios
          """)
        return
      default:
        FileHandle.standardError.write(
          Data(
            "usage: TapwireBenchmarks [--filter NAME] [--json] [--samples N] [--iterations N] [--scaling] [--serve] [--write-mixed-corpus DIR]\n"
              .utf8))
        exit(2)
      }
    }
    if scaling {
      let results = ScalingBenchmarks.run(
        samples: min(samples, 5), json: json, filter: filter, iterations: iterations)
      if json { print(Harness.json(results)) }
      return
    }
    let all =
      NDEFBenchmarks.all() + TypedRecordBenchmarks.all() + ISO7816Benchmarks.all() + BLEBenchmarks.all()
      + TagBenchmarks.all() + TrustBenchmarks.all()
    // `--filter a,b` keeps the benchmarks whose names contain any of the parts.
    let parts = filter?.split(separator: ",").map(String.init)
    let benchmarks = all.filter { benchmark in parts?.contains { benchmark.name.contains($0) } ?? true }
    if serve {
      Harness.serve(benchmarks)
      return
    }
    // The strict NDEF decoders, each against the C header walk over the same buffer.
    let limit = "ndef.limit.c-header-walk.mixed-corpus"
    let references = Dictionary(
      uniqueKeysWithValues: [
        "ndef.validate.mixed-corpus", "ndef.checked.mixed-corpus", "ndef.view.mixed-corpus",
      ]
      .map { ($0, limit) } + [("ndef.checked.field-corpus", "ndef.limit.c-header-walk.field-corpus")]
        + ["ndef.validate.shared-field", "ndef.view.shared-field", "ndef.checked.shared-field"].map {
          ($0, "ndef.limit.c-header-walk.shared-field")
        }
        + ["adv.checked.shared-field", "adv.parse.shared-field"].map {
          ($0, "adv.limit.c-ad-walk.shared-field")
        })
    let results = Harness.measure(
      benchmarks, samples: samples, fixedIterations: iterations, references: references
    ) { name in
      if !json { FileHandle.standardError.write(Data("measured \(name)\n".utf8)) }
    }
    print(json ? Harness.json(results) : Harness.table(results))
    if !json && results.contains(where: { $0.name.hasPrefix("ndef.limit.") }) {
      print("\n" + NDEFBenchmarks.rulesBeyondTheCWalk)
    }
    if Harness.sink == 42 { print("") }
  }
}
