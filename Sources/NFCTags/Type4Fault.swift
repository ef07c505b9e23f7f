// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// A fault the ``Type4TagSimulator`` injects into its answer to one command.
public struct Type4Fault: Sendable, Hashable {
  /// What goes wrong.
  public enum Kind: Sendable, Hashable {
    /// Answer this status word, with no data, and do nothing.
    case statusWord(StatusWord)
    /// Drop this many bytes from the end of the response data.
    case dropResponseBytes(Int)
    /// Append these bytes to the response data.
    case appendResponseBytes([UInt8])
    /// Replace the response data.
    case replaceResponseData([UInt8])
    /// Leave the field: answer 6400 and ignore this and every later command (tearing).
    case leaveField
  }

  /// The 0-based index of the command the fault applies to.
  public var commandIndex: Int
  /// What goes wrong.
  public var kind: Kind

  /// Creates a fault.
  public init(commandIndex: Int, kind: Kind) {
    self.commandIndex = commandIndex
    self.kind = kind
  }
}
