// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// The card content of a GlobalPlatform-like card, just enough for remote management tests
/// (GP Card Specification 2.3 §11): the issuer security domain and installed applications,
/// each with the data personalised into it. No secure channel: every command is accepted
/// in the clear.
///
/// - SELECT by AID (§11.9): the security domain or an installed application; others 6A82.
/// - INSTALL [for install (and make selectable)] (P1 04 or 0C, §11.5.2.3): load file,
///   module and application AIDs, each length-prefixed; the application is registered
///   (6A89 if it exists, 6A80 for malformed data).
/// - INSTALL [for personalization] (P1 20, §11.5.2.3.4): the application AID after two
///   empty fields; later STORE DATA goes to it (6A88 unknown).
/// - STORE DATA (§11.11): appends its data to the application being personalised, or the
///   selected one (6985 when neither).
/// - GET DATA P1-P2 DF70: the selected application's personalised data.
/// - GET STATUS of applications (P1 40, TLV format, §11.4): `E3 { 4F AID, 9F70 07 }` each.
struct CardContent {
  static let securityDomain: [UInt8] = [0xA0, 0x00, 0x00, 0x01, 0x51, 0x00, 0x00, 0x00]
  /// Installed applications, in order, with their personalised data.
  var applications: [(aid: [UInt8], data: [UInt8])] = []
  var selected: [UInt8]?
  var personalising: [UInt8]?

  /// A data answer (handed out through GET RESPONSE) or a bare status word, or `nil` for a
  /// command this layer does not handle.
  mutating func respond(to command: CommandAPDU, data: [UInt8]) -> (data: [UInt8], status: [UInt8])? {
    switch (command.ins.rawValue, command.p1) {
    case (0xA4, 0x04):
      guard data == Self.securityDomain || index(of: data) != nil else { return ([], [0x6A, 0x82]) }
      selected = data
      personalising = nil
      return (
        [0x6F, UInt8(truncatingIfNeeded: data.count + 2), 0x84, UInt8(truncatingIfNeeded: data.count)] + data,
        []
      )
    case (0xE6, 0x04), (0xE6, 0x0C):
      guard selected == Self.securityDomain else { return ([], [0x69, 0x85]) }
      guard let fields = Self.fields(data, count: 3), (5...16).contains(fields[2].count) else {
        return ([], [0x6A, 0x80])
      }
      guard index(of: fields[2]) == nil else { return ([], [0x6A, 0x89]) }
      applications.append((fields[2], []))
      return ([], [0x90, 0x00])
    case (0xE6, 0x20):
      guard selected == Self.securityDomain else { return ([], [0x69, 0x85]) }
      guard let fields = Self.fields(data, count: 3) else { return ([], [0x6A, 0x80]) }
      guard index(of: fields[2]) != nil else { return ([], [0x6A, 0x88]) }
      personalising = fields[2]
      return ([], [0x90, 0x00])
    case (0xE2, _):
      guard let target = personalising ?? selected, let at = index(of: target) else {
        return ([], [0x69, 0x85])
      }
      applications[at].data += data
      return ([], [0x90, 0x00])
    case (0xCA, 0xDF) where command.p2 == 0x70:
      guard let selected, let at = index(of: selected) else { return ([], [0x6A, 0x88]) }
      return applications[at].data.isEmpty ? ([], [0x6A, 0x88]) : (applications[at].data, [])
    case (0xF2, 0x40):
      guard !applications.isEmpty else { return ([], [0x6A, 0x88]) }
      var out: [UInt8] = []
      for application in applications {
        let entry = [0x4F, UInt8(application.aid.count)] + application.aid + [0x9F, 0x70, 0x01, 0x07]
        out += [0xE3, UInt8(entry.count)] + entry
      }
      return (out, [])
    default:
      return nil
    }
  }

  private func index(of aid: [UInt8]) -> Int? { applications.firstIndex { $0.aid == aid } }

  /// The first `count` length-prefixed fields of `data`, or `nil` when they overrun it.
  static func fields(_ data: [UInt8], count: Int) -> [[UInt8]]? {
    var result: [[UInt8]] = []
    var index = 0
    while result.count < count {
      guard index < data.count else { return nil }
      let length = Int(data[index])
      guard index + 1 + length <= data.count else { return nil }
      result.append(Array(data[(index + 1)..<(index + 1 + length)]))
      index += 1 + length
    }
    return result
  }
}
