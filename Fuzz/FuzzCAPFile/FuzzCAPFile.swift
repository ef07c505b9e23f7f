// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/cap: see CAPFileOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzCAPFile {
  static func main() { fuzzMain(name: "FuzzCAPFile", corpus: ["cap"], check: CAPFileOracle.check) }
}
