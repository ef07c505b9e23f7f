// SPDX-License-Identifier: Apache-2.0

/// A command's arguments checked against its ``CommandSpec``: every value of every option
/// valid for its kind, no option unknown, missing a value or given twice, the operand count
/// in range. Commands read typed values from it and never convert text themselves.
public struct ParsedCommand: Sendable {
  /// The command.
  public var spec: CommandSpec
  /// Whether `-h` or `--help` was given (nothing else is checked then).
  public var helpRequested: Bool
  /// The operands in order (with `operandsEndOptions`, everything from the first operand on).
  public var operands: [String]
  /// The values of each value-taking option given, in order; switches given map to `[]`.
  var given: [String: [String]]

  /// Parses `arguments` (the words after the command's own) for `spec`.
  public static func parse(_ spec: CommandSpec, _ arguments: [String]) throws(UsageError) -> ParsedCommand {
    var result = ParsedCommand(spec: spec, helpRequested: false, operands: [], given: [:])
    var rest = arguments[...]
    func fail(_ option: String?, _ reason: String) -> UsageError {
      UsageError(command: spec.name, option: option, reason: reason)
    }
    while let argument = rest.popFirst() {
      if argument == "-h" || argument == "--help" {
        result.helpRequested = true
        return result
      }
      if argument == "--" {
        result.operands += rest
        break
      }
      guard argument.hasPrefix("-"), argument.count > 1 else {
        result.operands.append(argument)
        if spec.operandsEndOptions {
          result.operands += rest
          if rest.contains("--help") || rest.contains("-h") { result.helpRequested = true }
          break
        }
        continue
      }
      guard let option = spec.option(argument) else {
        let hint = OptionKind.closest(to: argument, among: spec.options.map(\.name)).map {
          "; did you mean '\($0)'?"
        }
        throw fail(nil, "unknown option \(OptionKind.shown(argument))\(hint ?? "")")
      }
      if result.given[option.name] != nil, !option.repeatable {
        throw fail(option.name, "given more than once")
      }
      guard let kind = option.kind else {
        result.given[option.name] = []
        continue
      }
      guard let value = rest.popFirst() else { throw fail(option.name, "needs a value (\(kind.summary))") }
      if let problem = kind.problem(with: value) { throw fail(option.name, problem) }
      result.given[option.name, default: []].append(value)
    }
    if result.operands.count < spec.operands.lowerBound {
      throw fail(
        nil,
        result.operands.isEmpty ? "needs an operand" : "needs at least \(spec.operands.lowerBound) operands")
    }
    if result.operands.count > spec.operands.upperBound {
      let extra = result.operands[spec.operands.upperBound]
      throw fail(nil, "unexpected operand \(OptionKind.shown(extra))")
    }
    return result
  }

  /// Whether the switch or option `name` was given.
  public func has(_ name: String) -> Bool { given[name] != nil }

  /// The value of `name`, nil when absent (the last, for a repeatable option).
  public func value(_ name: String) -> String? { given[name]?.last }

  /// Every value of a repeatable option, in order.
  public func values(_ name: String) -> [String] { given[name] ?? [] }

  /// The duration of a `.seconds` option, rounded to the millisecond; nil when absent.
  public func duration(_ name: String) -> Duration? {
    guard let text = value(name), let seconds = OptionKind.decimal(text) else { return nil }
    return .milliseconds(Int64((seconds * 1000).rounded()))
  }

  /// The number of a `.count` option; nil when absent.
  public func count(_ name: String) -> Int? {
    guard let text = value(name) else { return nil }
    return OptionKind.wholeNumber(text, hex: true)
  }

  /// The bytes of a hex option; nil when absent.
  public func bytes(_ name: String) -> [UInt8]? {
    value(name).flatMap(OptionKind.hexBytes)
  }
}
