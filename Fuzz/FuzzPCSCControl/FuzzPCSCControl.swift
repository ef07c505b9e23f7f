// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/pcsccontrol: see PCSCControlOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzPCSCControl {
  static func main() {
    fuzzMain(name: "FuzzPCSCControl", corpus: ["pcsccontrol"], check: PCSCControlOracle.check)
  }
}
