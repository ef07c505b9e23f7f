// SPDX-License-Identifier: Apache-2.0

/// The failed checks of a run, printed as they happen.
nonisolated(unsafe) var failures: [String] = []

/// Records a failure unless `condition` holds.
func check(_ condition: Bool, _ what: String) {
  if !condition {
    failures.append(what)
    print("FAIL: \(what)")
  }
}

/// Records a failure unless `actual == expected`.
func expectEqual<T: Equatable>(_ actual: T, _ expected: T, _ what: String) {
  check(actual == expected, "\(what): got \(actual), expected \(expected)")
}

/// Runs one group of checks; a thrown error counts as a failure of the group.
func group(_ name: String, _ body: () throws -> Void) {
  let before = failures.count
  do { try body() } catch { check(false, "\(name): threw \(error)") }
  print("\(failures.count == before ? "ok" : "FAILED")  \(name)")
}

/// Runs one group of asynchronous checks.
func group(_ name: String, _ body: () async throws -> Void) async {
  let before = failures.count
  do { try await body() } catch { check(false, "\(name): threw \(error)") }
  print("\(failures.count == before ? "ok" : "FAILED")  \(name)")
}
