// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions

/// The command-line option table (`CommandTable`, `ParsedCommand`): the first byte names a
/// command of the table, the rest are its arguments, separated by zero bytes. Checks, besides
/// "no trap": a refusal names the command and, when it blames an option, one the command has;
/// an accepted parse holds only the command's options, each value passing its kind's check,
/// the typed readers (`duration`, `count`, `bytes`) answering for every value of their kind;
/// and the parse written out again as arguments (each option in table order, `--`, the
/// operands) parses back to the same options, values and operands (round trip).
public enum CommandLineOracle {
  /// Runs the oracle on one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    guard let first = bytes.first else { return }
    let spec = CommandTable.commands[Int(first) % CommandTable.commands.count]
    let arguments = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    // The table resolves its own command words: to this command, or (a one-word command whose
    // first argument names a subcommand of the same word) to that subcommand.
    switch resolve(spec.path + arguments) {
    case .success(let (resolved, _)):
      try require(
        resolved.path == spec.path
          || (spec.path.count == 1 && resolved.path == spec.path + arguments.prefix(1)),
        "\(spec.name) resolved to \(resolved.name)")
    case .failure(let error):
      throw OracleFailure("the table's own command \(spec.name) did not resolve: \(error.message)")
    }
    let parsed: ParsedCommand
    switch parse(spec, arguments) {
    case .failure(let error):
      try require(error.command == spec.name, "a refusal names \(error.command ?? "no command")")
      if let option = error.option {
        try require(
          spec.option(option) != nil, "a refusal blames \(option), which \(spec.name) does not have")
      }
      try require(error.message.hasPrefix("tapwire \(spec.name): "), "message \(error.message)")
      return
    case .success(let value): parsed = value
    }
    guard !parsed.helpRequested else { return }
    try require(spec.operands.contains(parsed.operands.count), "\(parsed.operands.count) operands accepted")
    var again: [String] = []
    for option in spec.options where parsed.has(option.name) {
      guard let kind = option.kind else {
        again.append(option.name)
        continue
      }
      let values = parsed.values(option.name)
      try require(
        !values.isEmpty && (option.repeatable || values.count == 1), "\(option.name): \(values.count) values")
      for value in values {
        try require(kind.problem(with: value) == nil, "\(option.name): an accepted value fails its kind")
        again += [option.name, value]
      }
      switch kind {
      case .seconds: try require(parsed.duration(option.name) != nil, "\(option.name): no duration")
      case .count: try require(parsed.count(option.name) != nil, "\(option.name): no count")
      case .hexBytes, .hexOneOf: try require(parsed.bytes(option.name) != nil, "\(option.name): no bytes")
      default: break
      }
    }
    again += ["--"] + parsed.operands
    switch parse(spec, again) {
    case .failure(let error): throw OracleFailure("the parse written out again was refused: \(error.message)")
    case .success(let back):
      try require(back.operands == parsed.operands, "operands \(back.operands) != \(parsed.operands)")
      for option in spec.options {
        try require(
          back.has(option.name) == parsed.has(option.name)
            && back.values(option.name) == parsed.values(option.name),
          "\(option.name) differs after the round trip")
      }
    }
  }

  static func resolve(_ arguments: [String]) -> Result<(CommandSpec, [String]), UsageError> {
    do throws(UsageError) { return .success(try CommandTable.resolve(arguments)) } catch {
      return .failure(error)
    }
  }

  static func parse(_ spec: CommandSpec, _ arguments: [String]) -> Result<ParsedCommand, UsageError> {
    do throws(UsageError) { return .success(try ParsedCommand.parse(spec, arguments)) } catch {
      return .failure(error)
    }
  }
}
