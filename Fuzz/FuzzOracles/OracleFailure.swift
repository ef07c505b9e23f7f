// SPDX-License-Identifier: Apache-2.0
/// A broken oracle: what a fuzz target found that must not happen.
public struct OracleFailure: Error, CustomStringConvertible, Sendable {
  /// What was violated.
  public let description: String

  /// Creates a failure.
  public init(_ description: String) { self.description = description }
}

/// Throws an ``OracleFailure`` unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(OracleFailure) {
  if !condition { throw OracleFailure(message()) }
}
