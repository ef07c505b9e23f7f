// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/tags: see TagImageOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzTagImages {
  static func main() { fuzzMain(name: "FuzzTagImages", corpus: ["tags"], check: TagImageOracle.check) }
}
