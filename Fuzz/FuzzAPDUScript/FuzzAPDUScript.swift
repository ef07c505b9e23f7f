// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/apduscript: see APDUScriptOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzAPDUScript {
  static func main() {
    fuzzMain(name: "FuzzAPDUScript", corpus: ["apduscript"], check: APDUScriptOracle.check)
  }
}
