// SPDX-License-Identifier: Apache-2.0
// NDEF message fuzz target: strict and lenient decoding, owned model and encoder oracles.
import FuzzOracles

@main
struct FuzzNDEF {
  static func main() { fuzzMain(name: "FuzzNDEF", corpus: ["ndef"], check: NDEFOracle.check) }
}
