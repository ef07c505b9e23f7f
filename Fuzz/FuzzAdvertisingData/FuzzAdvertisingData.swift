// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/adv: see AdvertisingDataOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzAdvertisingData {
  static func main() {
    fuzzMain(name: "FuzzAdvertisingData", corpus: ["adv"], check: AdvertisingDataOracle.check)
  }
}
