// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/storagecard: see StorageCardOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzStorageCard {
  static func main() {
    fuzzMain(name: "FuzzStorageCard", corpus: ["storagecard"], check: StorageCardOracle.check)
  }
}
