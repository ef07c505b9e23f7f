// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/trust: see TagTrustOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzTrust {
  static func main() {
    fuzzMain(name: "FuzzTrust", corpus: ["trust"], check: TagTrustOracle.check)
  }
}
