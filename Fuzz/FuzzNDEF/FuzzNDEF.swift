import Foundation
// NDEF message fuzz target: strict and lenient decoding, owned model and encoder oracles.
// With -DFUZZING it runs libFuzzer; without, it replays corpus files through the oracle.
import FuzzOracles

@main
struct FuzzNDEF {
  static func main() {
    #if FUZZING
      exit(
        runFuzzer { data, size in
          do { try NDEFOracle.check(fuzzInput(data, size)) } catch {
            fatalError("NDEF oracle: \(error)")
          }
          return 0
        })
    #else
      CorpusReplay.main(name: "FuzzNDEF", defaultPaths: ["Corpus/ndef"], check: NDEFOracle.check)
    #endif
  }
}
