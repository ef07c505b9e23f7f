// SPDX-License-Identifier: Apache-2.0

/// `n` and the noun that agrees with it, for the progress and summary lines of both
/// executables: `counted(1, "command", "commands")` is "1 command", `counted(2, ...)` is
/// "2 commands" (and `counted(0, ...)` "0 commands").
public func counted(_ n: Int, _ singular: String, _ plural: String) -> String {
  "\(n) \(n == 1 ? singular : plural)"
}
