// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/btsnoop: see BTSnoopOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzBTSnoop {
  static func main() { fuzzMain(name: "FuzzBTSnoop", corpus: ["btsnoop"], check: BTSnoopOracle.check) }
}
