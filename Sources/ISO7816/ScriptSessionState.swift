// SPDX-License-Identifier: Apache-2.0
/// The state of a ``ScriptSession``: accepting batches or finished.
public struct ScriptSessionState: RawRepresentable, Sendable, Hashable {
  /// 0 active, 1 finished.
  public let rawValue: UInt8
  /// Creates a state from its raw value.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Accepting batches.
  public static let active = ScriptSessionState(rawValue: 0)
  /// The server said it was done (an empty batch, or `ScriptSession.finish()`).
  public static let finished = ScriptSessionState(rawValue: 1)
}
