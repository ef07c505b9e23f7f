// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/type4: see Type4ProcedureOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzType4Procedure {
  static func main() {
    fuzzMain(name: "FuzzType4Procedure", corpus: ["type4"], check: Type4ProcedureOracle.check)
  }
}
