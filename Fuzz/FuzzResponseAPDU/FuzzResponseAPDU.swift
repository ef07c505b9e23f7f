// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/rapdu: see ResponseAPDUOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzResponseAPDU {
  static func main() {
    fuzzMain(name: "FuzzResponseAPDU", corpus: ["rapdu"], check: ResponseAPDUOracle.check)
  }
}
