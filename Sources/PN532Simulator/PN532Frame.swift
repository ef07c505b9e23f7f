// SPDX-License-Identifier: Apache-2.0
/// PN532 host-link framing (PN532 user manual 6.2.1): `00 00 FF LEN LCS TFI DATA DCS 00`,
/// extended frames `00 00 FF FF FF LENM LENL LCS TFI DATA DCS 00`, ACK `00 00 FF 00 FF 00`
/// and NACK `00 00 FF FF 00 00`.
package enum PN532Frame: Equatable {
  /// A host command: the command code and its parameters (TFI `D4` stripped).
  case command([UInt8])
  /// The host's ACK (libnfc sends one to abort the running command).
  case ack
  /// The host's NACK: send the last answer again.
  case nack

  /// The ACK frame the PN532 sends before every answer.
  static let ackBytes: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
  /// The application-level error frame (syntax error, user manual 6.2.1.5).
  static let errorBytes: [UInt8] = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]

  /// Takes the next complete frame out of `buffer`, skipping wake-up bytes and anything
  /// malformed; nil when more bytes are needed. The postamble is left in place (the next
  /// start-code search skips it), so the frames found never depend on how the bytes were
  /// split into reads.
  package static func next(from buffer: inout [UInt8]) -> PN532Frame? {
    while true {
      var start: Int? = nil
      var i = 0
      while i + 1 < buffer.count {
        if buffer[i] == 0x00 && buffer[i + 1] == 0xFF {
          start = i
          break
        }
        i += 1
      }
      guard let s = start else {
        // Keep a trailing 00 that may begin a start code.
        buffer = buffer.last == 0x00 ? [0x00] : []
        return nil
      }
      buffer.removeFirst(s)
      guard buffer.count >= 4 else { return nil }
      let len = buffer[2]
      let lcs = buffer[3]
      if len == 0x00 && lcs == 0xFF {
        buffer.removeFirst(4)
        return .ack
      }
      if len == 0xFF && lcs == 0x00 {
        buffer.removeFirst(4)
        return .nack
      }
      var dataStart = 4
      var count = Int(len)
      if len == 0xFF && lcs == 0xFF {
        guard buffer.count >= 7 else { return nil }
        count = Int(buffer[4]) << 8 | Int(buffer[5])
        guard (Int(buffer[4]) + Int(buffer[5]) + Int(buffer[6])) & 0xFF == 0 else {
          buffer.removeFirst(2)
          continue
        }
        dataStart = 7
      } else if (Int(len) + Int(lcs)) & 0xFF != 0 {
        buffer.removeFirst(2)
        continue
      }
      guard buffer.count >= dataStart + count + 1 else { return nil }
      let data = Array(buffer[dataStart..<(dataStart + count)])
      let dcs = buffer[dataStart + count]
      let sum = data.reduce(Int(dcs)) { $0 + Int($1) }
      buffer.removeFirst(dataStart + count + 1)
      guard sum & 0xFF == 0, data.count >= 2, data[0] == 0xD4 else { continue }
      return .command(Array(data.dropFirst()))
    }
  }

  /// Frames an answer (`D5` is prepended to `payload`).
  static func answer(_ payload: [UInt8]) -> [UInt8] { frame(tfi: 0xD5, payload) }

  /// Frames `payload` behind the frame identifier `tfi` (`D4` host to PN532, `D5` back):
  /// a normal frame up to 254 data bytes, an extended one beyond.
  package static func frame(tfi: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let data = [tfi] + payload
    let dcs = UInt8(truncatingIfNeeded: 0x100 - (data.reduce(0) { $0 + Int($1) } & 0xFF))
    var frame: [UInt8] = [0x00, 0x00, 0xFF]
    if data.count < 255 {
      frame += [UInt8(data.count), UInt8(truncatingIfNeeded: 0x100 - data.count)]
    } else {
      let m = UInt8(truncatingIfNeeded: data.count >> 8)
      let l = UInt8(truncatingIfNeeded: data.count)
      frame += [0xFF, 0xFF, m, l, UInt8(truncatingIfNeeded: 0x100 - ((Int(m) + Int(l)) & 0xFF))]
    }
    return frame + data + [dcs, 0x00]
  }
}
