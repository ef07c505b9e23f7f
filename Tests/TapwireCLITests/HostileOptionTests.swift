// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every command of ``CommandTable`` with every value-taking option set to hostile values:
/// a bad value exits 2 naming the command and the option, a good one runs (0 or 1, no reader
/// here), and no process ends by a signal or hangs. The test reads the table, so a new option
/// is covered without a new test.
@Suite("tapwire: every option of the table against hostile values")
struct HostileOptionTests {
  /// The values the issue lists: numbers past every range, words, empty, odd-length hex,
  /// 100 KB of hex, bytes that are not UTF-8.
  static let hostileValues: [[UInt8]] =
    [
      "inf", "nan", "1e300", "-1", "0", "18446744073709551616", "abc", "", "ABC",
      String(repeating: "A5", count: 50_000),
    ].map { Array($0.utf8) } + [[0xFF, 0xFE, 0x41, 0xC3]]

  /// A directory for one test case to run its commands in (`encode -o` writes there, and
  /// must not make a file another case names), with `sample.cap`, the file the table's sample
  /// operands and file-kind samples name.
  static func workDirectory(_ entry: String) -> URL {
    let name = entry.map { $0.isLetter || $0.isNumber ? $0 : "-" }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tapwire-hostile-\(getpid())/\(String(name))")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: directory.appendingPathComponent("sample.cap").path, contents: Data([0]))
    return directory
  }

  /// Whether `value` is bad for `kind` as the command sees it: file names from `directory`.
  static func problem(_ kind: OptionKind, _ value: String, in directory: URL) -> String? {
    switch kind {
    case .inputFile:
      return kind.problem(
        with: value.isEmpty || value.hasPrefix("/") ? value : directory.appendingPathComponent(value).path)
    case .fileOrHex:
      let path = directory.appendingPathComponent(value).path
      return kind.problem(with: !value.isEmpty && FileManager.default.fileExists(atPath: path) ? path : value)
    default:
      return kind.problem(with: value)
    }
  }

  /// No reader, no pcscd, no D-Bus: a valid value runs into "no reader" at once.
  static let environment = [
    "LIBNFC_DEFAULT_DEVICE=pn532_uart:/nonexistent/tty", "LIBNFC_DEVICE=pn532_uart:/nonexistent/tty",
    "PCSCLITE_CSOCK_NAME=/nonexistent/pcscd.comm", "DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/bus",
    "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
  ]

  struct Outcome {
    var exitStatus: Int32?
    var signal: Int32?
    var stderr: String
  }

  /// Runs `tapwire` with raw argument bytes (so bytes that are not UTF-8 reach it as they
  /// are), bounded by `timeout`, in ``workDirectory``.
  static func run(_ arguments: [[UInt8]], in workDirectory: URL) throws -> Outcome {
    let bounded: [[UInt8]] =
      ["/usr/bin/env", "-C", workDirectory.path, "/usr/bin/timeout", "-s", "KILL", "60", CLI.executable.path]
      .map {
        Array($0.utf8)
      } + arguments
    var argv: [UnsafeMutablePointer<CChar>?] = bounded.map { bytes in
      let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
      for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
      pointer[bytes.count] = 0
      return pointer
    }
    argv.append(nil)
    var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) }
    envp.append(nil)
    defer {
      for pointer in argv { pointer?.deallocate() }
      for pointer in envp { free(pointer) }
    }
    var pipeDescriptors: [Int32] = [0, 0]
    guard pipe(&pipeDescriptors) == 0 else { throw POSIXError(.EMFILE) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipeDescriptors[1], 2)
    posix_spawn_file_actions_addclose(&actions, pipeDescriptors[0])
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp)
    close(pipeDescriptors[1])
    guard spawned == 0 else {
      close(pipeDescriptors[0])
      throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
    }
    let handle = FileHandle(fileDescriptor: pipeDescriptors[0], closeOnDealloc: true)
    let errors = handle.readDataToEndOfFile()
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    // timeout(1) passes its command's exit status on, and ends itself by the same signal
    // when its command ended by one; 137 is its own SIGKILL after 60 s (a hang).
    let exited = status & 0x7F == 0
    return Outcome(
      exitStatus: exited ? (status >> 8) & 0xFF : nil, signal: exited ? nil : status & 0x7F,
      stderr: String(decoding: errors, as: UTF8.self))
  }

  static func words(_ strings: [String]) -> [[UInt8]] { strings.map { Array($0.utf8) } }

  /// The command line for `spec` with `options` (option words and values) placed where the
  /// command reads them: before records for `encode`/`write`, after the operands otherwise.
  static func line(_ spec: CommandSpec, _ options: [[UInt8]]) -> [[UInt8]] {
    spec.operandsEndOptions
      ? words(spec.path) + options + words(spec.sampleOperands)
      : words(spec.path) + words(spec.sampleOperands) + options
  }

  static let valueOptions: [(CommandSpec, OptionSpec)] = CommandTable.commands.flatMap { spec in
    spec.options.filter { $0.kind != nil }.map { (spec, $0) }
  }

  @Test func theTableCoversEveryCommandWithOptions() {
    #expect(CommandTable.commands.count >= 30)
    #expect(Self.valueOptions.count >= 200)
  }

  @Test(arguments: valueOptions.map { "\($0.0.name) \($0.1.name)" })
  func hostileValuesNeverTrap(_ entry: String) throws {
    let (spec, option) = try #require(Self.valueOptions.first { "\($0.0.name) \($0.1.name)" == entry })
    let kind = try #require(option.kind)
    let directory = Self.workDirectory(entry)
    for value in Self.hostileValues {
      let text = String(decoding: value, as: UTF8.self)
      let outcome = try Self.run(Self.line(spec, [Array(option.name.utf8), value]), in: directory)
      let shown = text.count > 20 ? "\(text.prefix(20))… (\(value.count) bytes)" : "'\(text)'"
      #expect(outcome.signal == nil, "\(entry) \(shown): ended by signal \(outcome.signal ?? 0)")
      let status = try #require(outcome.exitStatus, "\(entry) \(shown)")
      #expect([0, 1, 2].contains(status), "\(entry) \(shown): exit \(status)\n\(outcome.stderr)")
      // The value as the process sees it (bytes that are not UTF-8 repaired, as Swift does).
      if Self.problem(kind, text, in: directory) != nil {
        #expect(status == 2, "\(entry) \(shown): exit \(status)\n\(outcome.stderr)")
        #expect(
          outcome.stderr.hasPrefix("tapwire \(spec.name): \(option.name): "),
          "\(entry) \(shown): \(outcome.stderr)")
        #expect(outcome.stderr.contains("usage: tapwire \(spec.path[0])"), "\(entry) \(shown)")
      }
      if option.secret && value.count >= 6 {
        #expect(!outcome.stderr.contains(text), "\(entry): the secret value was printed")
      }
    }
  }

  @Test(arguments: valueOptions.map { "\($0.0.name) \($0.1.name)" })
  func aMissingValueAndATwiceGivenOptionAreNamed(_ entry: String) throws {
    let (spec, option) = try #require(Self.valueOptions.first { "\($0.0.name) \($0.1.name)" == entry })
    let kind = try #require(option.kind)
    let directory = Self.workDirectory(entry)
    // Last on the line (records after it would be taken as its value for encode and write).
    let missing = try Self.run(
      Self.words(spec.path + (spec.operandsEndOptions ? [] : spec.sampleOperands) + [option.name]),
      in: directory)
    #expect(missing.exitStatus == 2, "\(entry): \(missing.stderr)")
    #expect(
      missing.stderr.hasPrefix("tapwire \(spec.name): \(option.name): needs a value"), "\(missing.stderr)")
    let sample = kind.sampleValue(file: "sample.cap")
    #expect(Self.problem(kind, sample, in: directory) == nil, "\(entry): sample \(sample)")
    guard !option.repeatable else { return }
    let twice = try Self.run(
      Self.line(spec, Self.words([option.name, sample, option.name, sample])), in: directory)
    #expect(twice.exitStatus == 2, "\(entry): \(twice.stderr)")
    #expect(
      twice.stderr.hasPrefix("tapwire \(spec.name): \(option.name): given more than once"), "\(twice.stderr)")
  }

  @Test(arguments: CommandTable.commands.map(\.name))
  func anUnknownOptionIsNamed(_ name: String) throws {
    let spec = try #require(CommandTable.commands.first { $0.name == name })
    let outcome = try Self.run(
      Self.line(spec, Self.words(["--no-such-option"])), in: Self.workDirectory(name))
    #expect(outcome.exitStatus == 2, "\(name): \(outcome.stderr)")
    #expect(
      outcome.stderr.hasPrefix("tapwire \(name): unknown option '--no-such-option'"), "\(outcome.stderr)")
  }

  /// The top-level usage lists every command of the table, and each command's help lists
  /// every option it takes.
  @Test func helpIsGeneratedFromTheTable() throws {
    let usage = try CLI.run(["help"])
    for spec in CommandTable.commands {
      #expect(usage.stdout.contains("tapwire \(spec.name)"), "\(spec.name)")
      let help = try CLI.run(spec.path + ["--help"])
      #expect(help.status == 0, "\(spec.name)")
      for option in spec.options {
        #expect(help.stdout.contains("  \(option.name)"), "\(spec.name) --help lacks \(option.name)")
      }
    }
    #expect(usage.stdout.contains("tapwire gp install"))
  }
}
