// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/securechannel: see SecureChannelOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzSecureChannel {
  static func main() {
    fuzzMain(name: "FuzzSecureChannel", corpus: ["securechannel"], check: SecureChannelOracle.check)
  }
}
