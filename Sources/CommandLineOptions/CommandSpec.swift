// SPDX-License-Identifier: Apache-2.0

/// One option of a command: its name, its value's kind (nil for a switch), its help.
public struct OptionSpec: Sendable {
  /// The option as typed: `--timeout`, `-o`.
  public var name: String
  /// The value's kind; nil for a switch that takes no value.
  public var kind: OptionKind?
  /// The value's placeholder in usage lines (`SECONDS`, `HEX`).
  public var placeholder: String
  /// What it does, one line.
  public var help: String
  /// The value used when the option is absent, as help shows it.
  public var defaultValue: String?
  /// Whether it may be given more than once (values kept in order).
  public var repeatable: Bool
  /// Whether the value is a secret (a key, a password): never shown, in errors or anywhere.
  public var secret: Bool

  /// A value-taking option.
  public static func value(
    _ name: String, _ kind: OptionKind, _ placeholder: String, _ help: String,
    default defaultValue: String? = nil,
    repeatable: Bool = false, secret: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, kind: kind, placeholder: placeholder, help: help, defaultValue: defaultValue,
      repeatable: repeatable, secret: secret)
  }

  /// A switch (no value).
  public static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(
      name: name, kind: nil, placeholder: "", help: help, defaultValue: nil, repeatable: false, secret: false)
  }
}

/// One command or subcommand of `tapwire`: its words, usage lines, options and operands.
public struct CommandSpec: Sendable {
  /// The command's words after `tapwire`: `["read"]`, `["gp", "install"]`.
  public var path: [String]
  /// The usage lines, without the leading `usage: ` (each starts with `tapwire`).
  public var usage: [String]
  /// One line for the top-level command list.
  public var summary: String
  /// Every option it takes.
  public var options: [OptionSpec]
  /// How many operands it takes.
  public var operands: ClosedRange<Int>
  /// Operands that make an otherwise complete invocation, for tests and examples
  /// (`["d00000"]` for decode, an AID for `gp delete`).
  public var sampleOperands: [String]
  /// When true, the first operand ends option parsing: what follows is the command's own
  /// grammar (records with their options, for `encode` and `write`).
  public var operandsEndOptions: Bool
  /// Whether the command runs in `tapwire-nfc` (a reader, the simulator, libcrypto).
  public var usesReaderBackEnd: Bool

  /// A command.
  public init(
    _ path: [String], usage: [String], summary: String, options: [OptionSpec],
    operands: ClosedRange<Int> = 0...0,
    sampleOperands: [String] = [], operandsEndOptions: Bool = false, usesReaderBackEnd: Bool = false
  ) {
    self.path = path
    self.usage = usage
    self.summary = summary
    self.options = options
    self.operands = operands
    self.sampleOperands = sampleOperands
    self.operandsEndOptions = operandsEndOptions
    self.usesReaderBackEnd = usesReaderBackEnd
  }

  /// `read`, `gp install`.
  public var name: String { path.joined(separator: " ") }

  /// The option named `name`, if the command takes it.
  public func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }
}

/// A usage error: the option (when one is at fault) and why, printed as
/// `tapwire CMD: --OPTION: why` with the command's usage lines; exit status 2.
public struct UsageError: Error, Sendable, Equatable {
  /// The command's name (`read`, `gp install`), or nil before one is known.
  public var command: String?
  /// The option at fault, if one is.
  public var option: String?
  /// Why, without the option's value when it is a secret.
  public var reason: String

  /// An error.
  public init(command: String?, option: String?, reason: String) {
    self.command = command
    self.option = option
    self.reason = reason
  }

  /// `tapwire read: --timeout: must be more than 0 seconds`.
  public var message: String {
    "tapwire" + (command.map { " \($0)" } ?? "") + ": " + (option.map { "\($0): " } ?? "") + reason
  }
}
