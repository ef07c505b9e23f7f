// SPDX-License-Identifier: Apache-2.0
/// An applet-update script: steps run in order, each checked before the next.
public struct Script: Sendable, Hashable {
  /// The steps.
  public var steps: [ScriptStep]

  /// Creates a script.
  public init(steps: [ScriptStep] = []) { self.steps = steps }

  /// A script of `commands`, each expecting 9000.
  public init(commands: [CommandAPDU]) { self.steps = commands.map { ScriptStep(command: $0) } }
}
