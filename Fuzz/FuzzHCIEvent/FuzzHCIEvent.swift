// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/hci: see HCIEventOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzHCIEvent {
  static func main() { fuzzMain(name: "FuzzHCIEvent", corpus: ["hci"], check: HCIEventOracle.check) }
}
