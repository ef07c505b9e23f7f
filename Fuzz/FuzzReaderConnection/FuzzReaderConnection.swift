// SPDX-License-Identifier: Apache-2.0
// Connection lifecycle fuzz target: fuzzed request/link/time sequences, session oracles.
import FuzzOracles

@main
struct FuzzReaderConnection {
  static func main() {
    fuzzMain(name: "FuzzReaderConnection", corpus: ["connection"], check: ReaderConnectionOracle.check)
  }
}
