// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/ndefrecord: see NDEFRecordTypeOracle in FuzzOracles.
import FuzzOracles

@main
struct FuzzNDEFRecordTypes {
  static func main() {
    fuzzMain(name: "FuzzNDEFRecordTypes", corpus: ["ndefrecord"], check: NDEFRecordTypeOracle.check)
  }
}
