// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/capdu: see CommandAPDUOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzCommandAPDU {
  static func main() { fuzzMain(name: "FuzzCommandAPDU", corpus: ["capdu"], check: CommandAPDUOracle.check) }
}
