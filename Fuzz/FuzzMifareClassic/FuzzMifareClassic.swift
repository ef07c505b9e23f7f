// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/mfc: see MifareClassicOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzMifareClassic {
  static func main() {
    fuzzMain(name: "FuzzMifareClassic", corpus: ["mfc"], check: MifareClassicOracle.check)
  }
}
