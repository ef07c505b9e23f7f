// SPDX-License-Identifier: Apache-2.0
// Fuzz target for Corpus/admin: see AdminSessionOracle in FuzzOracles for what it checks.
import FuzzOracles

@main
struct FuzzAdminSession {
  static func main() {
    fuzzMain(name: "FuzzAdminSession", corpus: ["admin"], check: AdminSessionOracle.check)
  }
}
