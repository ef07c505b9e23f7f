// SPDX-License-Identifier: Apache-2.0
/// Where a script run stands: step *i* of *n*, for a progress display.
public struct ScriptProgress: Sendable, Hashable {
  /// Steps finished so far (1 after the first response was checked).
  public var completedSteps: Int
  /// Steps in the script (or batch).
  public var totalSteps: Int
  /// The status word of the step that just finished.
  public var statusWord: StatusWord
  /// The round trip of a ``ScriptSession`` this batch belongs to (1 for the first), or 1.
  public var round: Int

  /// Creates a progress value.
  public init(completedSteps: Int, totalSteps: Int, statusWord: StatusWord, round: Int = 1) {
    self.completedSteps = completedSteps
    self.totalSteps = totalSteps
    self.statusWord = statusWord
    self.round = round
  }

  /// The fraction done, 0...1 (1 for an empty script).
  public var fraction: Double {
    totalSteps == 0 ? 1 : Double(completedSteps) / Double(totalSteps)
  }
}
