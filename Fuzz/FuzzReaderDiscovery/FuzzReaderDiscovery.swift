// SPDX-License-Identifier: Apache-2.0
// Reader-selection engine fuzz target: fuzzed report sequences, mode and stickiness oracles.
import FuzzOracles

@main
struct FuzzReaderDiscovery {
  static func main() {
    fuzzMain(name: "FuzzReaderDiscovery", corpus: ["discovery"], check: ReaderDiscoveryOracle.check)
  }
}
