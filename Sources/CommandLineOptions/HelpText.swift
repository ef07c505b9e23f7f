// SPDX-License-Identifier: Apache-2.0

/// Help text generated from ``CommandTable``.
public enum HelpText {
  /// The `options:` section of a command's help: each option, its value's kind, its default
  /// and whether it is a secret.
  public static func options(of spec: CommandSpec) -> String {
    guard !spec.options.isEmpty else { return "" }
    var lines = ["", "options:"]
    for option in spec.options {
      let head = "  " + option.name + (option.kind == nil ? "" : " " + option.placeholder)
      var text = option.help
      if let kind = option.kind { text += " [\(kind.summary)]" }
      if let value = option.defaultValue { text += "; default \(value)" }
      if option.repeatable { text += "; repeatable" }
      if option.secret { text += "; never printed" }
      lines.append(
        head.count < 24
          ? head + String(repeating: " ", count: 24 - head.count) + text
          : head + "\n" + String(repeating: " ", count: 24) + text)
    }
    lines.append("  -h, --help            show this help")
    return lines.joined(separator: "\n")
  }

  /// The usage lines of every command, for the top-level usage.
  public static var synopsis: String {
    var lines: [String] = []
    for spec in CommandTable.commands {
      for (index, line) in spec.usage.enumerated() {
        lines.append((lines.isEmpty && index == 0 ? "usage: " : "       ") + line)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The command list: each command or group with its summary.
  public static var commandList: String {
    var lines = ["commands:"]
    for name in CommandTable.names {
      let family = CommandTable.commands.filter { $0.path[0] == name }
      let summary =
        family.count == 1 || family.contains(where: { $0.path.count == 1 })
        ? (family.first { $0.path.count == 1 } ?? family[0]).summary
        : family.map { $0.path[1] }.joined(separator: ", ")
      lines.append("  " + name + String(repeating: " ", count: max(1, 10 - name.count)) + summary)
    }
    return lines.joined(separator: "\n")
  }

  /// The usage lines of `spec`, each after `usage:` or aligned with the first.
  public static func usage(of spec: CommandSpec) -> String {
    spec.usage.enumerated().map { ($0.offset == 0 ? "usage: " : "       ") + $0.element }.joined(
      separator: "\n")
  }
}
