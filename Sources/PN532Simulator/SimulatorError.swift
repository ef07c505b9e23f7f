// SPDX-License-Identifier: Apache-2.0
/// An error of the simulator itself (not of the simulated reader or tag).
public struct SimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public struct Code: RawRepresentable, Sendable, Hashable {
    /// The raw value.
    public var rawValue: UInt8
    /// Creates a code from its raw value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The pseudo-terminal pair could not be created or named (`openpty`, `ttyname_r`).
    public static let pseudoTerminal = Code(rawValue: 1)
    /// A tag image is malformed (wrong UID length, memory smaller than the product's).
    public static let invalidTag = Code(rawValue: 2)

    /// A stable name for logs and JSON.
    public var name: String {
      switch self {
      case .pseudoTerminal: "pseudoTerminal"
      case .invalidTag: "invalidTag"
      default: "unknown"
      }
    }
  }

  /// What went wrong.
  public var code: Code
  /// A sentence for a person.
  public var message: String

  /// Creates an error.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// `name: message`.
  public var description: String { "\(code.name): \(message)" }
}
