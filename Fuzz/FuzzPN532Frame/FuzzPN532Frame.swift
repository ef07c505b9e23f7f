// SPDX-License-Identifier: Apache-2.0
// PN532 frame parser fuzz target: read-boundary independence and re-framing oracles.
import FuzzOracles

@main
struct FuzzPN532Frame {
  static func main() { fuzzMain(name: "FuzzPN532Frame", corpus: ["pn532"], check: PN532FrameOracle.check) }
}
