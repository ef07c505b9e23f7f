// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The oracle the running fuzz target checks (libFuzzer's C callback cannot capture it).
nonisolated(unsafe) private var currentCheck: (([UInt8]) throws(OracleFailure) -> Void)?

/// The time one input may take, in ms (environment `TAPWIRE_FUZZ_MAX_MS`); libFuzzer's own
/// `-timeout` counts whole seconds only.
nonisolated(unsafe) private var inputTimeLimit: Int?

/// Runs the current oracle on `input`; with a time limit set, an input whose CPU time (of
/// this thread, so preemption on a busy machine does not count) is over it is run twice
/// more and, when the fastest of the three runs is still over, reported as a slow input
/// (libFuzzer keeps it as a crash artifact).
private func timedCheck(_ input: [UInt8]) throws(OracleFailure) {
  guard let limit = inputTimeLimit else {
    try currentCheck?(input)
    return
  }
  var fastest = Int.max
  for _ in 0..<3 {
    let start = threadCPUNanoseconds()
    try currentCheck?(input)
    fastest = min(fastest, threadCPUNanoseconds() - start)
    if fastest <= limit * 1_000_000 { return }
  }
  fatalError("slow input: \(fastest / 1000) µs of CPU for \(input.count) bytes (limit \(limit) ms)")
}

/// The CPU time this thread has used, in ns (`CLOCK_THREAD_CPUTIME_ID`).
private func threadCPUNanoseconds() -> Int {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// The whole `main` of a fuzz target: with `-DFUZZING`, runs libFuzzer on `check`; without,
/// replays the files named on the command line (default: `Corpus/<folder>` for each of
/// `corpus`) through `check` and exits 1 on any failure.
public func fuzzMain(
  name: String, corpus: [String], check: @escaping ([UInt8]) throws(OracleFailure) -> Void
) -> Never {
  #if FUZZING
    currentCheck = check
    inputTimeLimit = ProcessInfo.processInfo.environment["TAPWIRE_FUZZ_MAX_MS"].flatMap(Int.init)
    exit(
      runFuzzer { data, size in
        let input = fuzzInput(data, size)
        do { try timedCheck(input) } catch { fatalError("oracle: \(error)") }
        return 0
      })
  #else
    _ = currentCheck
    CorpusReplay.main(name: name, defaultPaths: corpus.map { "Corpus/\($0)" }, check: check)
  #endif
}
