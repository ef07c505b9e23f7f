// SPDX-License-Identifier: Apache-2.0
// Tag frame codec fuzz target (Type 1 commands, FeliCa Check/Update, PN532 InDataExchange):
// scan-against-validation and round-trip oracles.
import FuzzOracles

@main
struct FuzzTagFrames {
  static func main() { fuzzMain(name: "FuzzTagFrames", corpus: ["frames"], check: TagFrameOracle.check) }
}
