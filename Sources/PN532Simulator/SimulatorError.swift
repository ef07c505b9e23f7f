// SPDX-License-Identifier: Apache-2.0
/// An error of the simulator itself (not of the simulated reader or tag).
public struct SimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable, CaseIterable {
      case pseudoTerminal, invalidTag, cardBridge
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// The pseudo-terminal pair could not be created or named (`openpty`, `ttyname_r`).
    public static let pseudoTerminal = Code(.pseudoTerminal)
    /// A tag image is malformed (wrong UID length, memory smaller than the product's).
    public static let invalidTag = Code(.invalidTag)
    /// The Unix socket of a ``VPCDCardBridge`` could not be created, or no card process
    /// connected to it in time.
    public static let cardBridge = Code(.cardBridge)

    /// Every code, for tests and documentation.
    public static var allCodes: [Code] { Value.allCases.map(Code.init) }

    /// The stable camelCase name of the code, as used in logs and JSON.
    public var name: String {
      switch value {
      case .pseudoTerminal: "pseudoTerminal"
      case .invalidTag: "invalidTag"
      case .cardBridge: "cardBridge"
      }
    }

    /// The code's name.
    public var description: String { name }
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
