// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import SecureChannel
import Testing

/// The wrapping compared byte for byte with an independent implementation
/// (`Tests/Tools/scp_oracle.py`, Debian's python3-cryptography, written from GPCS Appendix E
/// and Amendment D): random keys (AES-128/192/256, 3DES), challenges, S8/S16, `i`,
/// security levels, class bytes, command data and Le, and card answers with R-MAC and
/// R-ENCRYPTION under 9000, 62XX, 63XX and error status words.
@Suite("Differential: SCP02/SCP03 against python3-cryptography")
struct DifferentialTests {
  static let python = "/usr/bin/python3"
  static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tools/scp_oracle.py").path

  /// Runs the oracle; nil when Debian's python3-cryptography is missing.
  static func oracleOutput(seed: UInt64, count: Int) throws -> String? {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: python)
    probe.arguments = ["-c", "import cryptography.hazmat.primitives.cmac"]
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return nil }
    probe.waitUntilExit()
    guard probe.terminationStatus == 0 else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [oracle, String(seed), String(count)]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
  }

  @Test(.timeLimit(.minutes(1)))
  func randomSessions() throws {
    var seed = UInt64.random(in: 0...UInt64(Int32.max))
    if let text = ProcessInfo.processInfo.environment["TAPWIRE_SEED"], let value = UInt64(text) {
      seed = value
    }
    print("DifferentialTests seed: \(seed)")
    let output = try Self.oracleOutput(seed: seed, count: 250)
    try #require(output != nil, "python3-cryptography missing: .ci/install-packages installs it")
    var cases = 0
    var commands = 0
    var lines = output!.split(separator: "\n").makeIterator()
    while let header = lines.next() {
      let fields = header.split(separator: " ").map(String.init)
      try #require(fields.first == "case")
      let scp = SecureChannelProtocol(rawValue: hex(fields[1])[0])
      let s16 = fields[2] == "1"
      let level = SecurityLevel(rawValue: hex(fields[3])[0])
      let parameter = hex(fields[4])[0]
      let keyVersion = hex(fields[5])[0]
      let keyHex = lines.next()!.split(separator: " ").dropFirst().map { hex(String($0)) }
      let challenge = hex(String(lines.next()!.split(separator: " ")[1]))
      let answer = hex(String(lines.next()!.split(separator: " ")[1]))
      let authenticate = String(lines.next()!.split(separator: " ")[1])
      let label = "seed \(seed) case \(cases) \(scp) SL \(fields[3]) i \(fields[4]) S16 \(s16)"
      var opening = try SecureChannelOpening(
        configuration: SecureChannelConfiguration(
          keys: SecureChannelKeys(encryption: keyHex[0], mac: keyHex[1], dataEncryption: keyHex[2]),
          keyVersion: keyVersion, secureChannelProtocol: scp, securityLevel: level, s16Mode: s16,
          scp02Parameter: parameter),
        crypto: ReplayCrypto(challenge: challenge))
      #expect(opening.initializeUpdate.data == challenge)
      let ea = try opening.receiveInitializeUpdate(ResponseAPDU(data: answer, statusWord: .success))
      #expect(try encoded(ea) == authenticate, "\(label)")
      var session = try opening.receiveExternalAuthenticate(response(""))
      while let line = lines.next(), line != "end" {
        let parts = line.split(separator: " ").map(String.init)
        let plain = try CommandAPDU(parsing: hex(parts[1]))
        let wrapped = try session.wrap(plain)
        #expect(try encoded(wrapped) == parts[2], "\(label) \(parts[1])")
        let sw = StatusWord(rawValue: UInt16(parts[4], radix: 16)!)
        let cardAnswer = ResponseAPDU(data: parts[5] == "-" ? [] : hex(parts[5]), statusWord: sw)
        let unwrapped = try session.unwrap(cardAnswer)
        #expect(unwrapped.data == (parts[3] == "-" ? [] : hex(parts[3])), "\(label) response to \(parts[1])")
        #expect(unwrapped.statusWord == sw)
        commands += 1
      }
      cases += 1
    }
    #expect(cases == 250)
    #expect(commands >= 250)
  }
}
