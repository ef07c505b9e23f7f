// SPDX-License-Identifier: Apache-2.0
// Command-line option table fuzz target: refusals name what they blame, accepted values pass
// their kind, the parse written out again parses back to itself.
import FuzzOracles

@main
struct FuzzCommandLine {
  static func main() {
    fuzzMain(name: "FuzzCommandLine", corpus: ["commandline"], check: CommandLineOracle.check)
  }
}
