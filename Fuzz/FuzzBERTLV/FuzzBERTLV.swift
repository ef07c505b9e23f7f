// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/bertlv: see BERTLVOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzBERTLV {
  static func main() { fuzzMain(name: "FuzzBERTLV", corpus: ["bertlv"], check: BERTLVOracle.check) }
}
