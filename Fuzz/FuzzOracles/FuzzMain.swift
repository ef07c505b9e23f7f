import Foundation

/// The oracle the running fuzz target checks (libFuzzer's C callback cannot capture it).
nonisolated(unsafe) private var currentCheck: (([UInt8]) throws(OracleFailure) -> Void)?

/// The whole `main` of a fuzz target: with `-DFUZZING`, runs libFuzzer on `check`; without,
/// replays the files named on the command line (default: `Corpus/<folder>` for each of
/// `corpus`) through `check` and exits 1 on any failure.
public func fuzzMain(
  name: String, corpus: [String], check: @escaping ([UInt8]) throws(OracleFailure) -> Void
) -> Never {
  #if FUZZING
    currentCheck = check
    exit(
      runFuzzer { data, size in
        do { try currentCheck?(fuzzInput(data, size)) } catch { fatalError("oracle: \(error)") }
        return 0
      })
  #else
    _ = currentCheck
    CorpusReplay.main(name: name, defaultPaths: corpus.map { "Corpus/\($0)" }, check: check)
  #endif
}
