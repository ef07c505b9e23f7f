// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/atr: see AnswerToResetOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzAnswerToReset {
  static func main() {
    fuzzMain(name: "FuzzAnswerToReset", corpus: ["atr"], check: AnswerToResetOracle.check)
  }
}
