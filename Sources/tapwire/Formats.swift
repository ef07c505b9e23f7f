import ISO7816
import NDEF

/// Why an input did not decode: the error's contract code, offset and message.
struct DecodeFailure: Error {
  let code: String
  let offset: Int
  let message: String
}

/// One input format the `decode` command knows: its JSON and its human tree.
struct Format: Sendable {
  let name: String
  let summary: String
  let json: @Sendable (_ bytes: [UInt8], _ lenient: Bool) -> (JSON, Bool)
  let human: @Sendable (_ bytes: [UInt8], _ lenient: Bool) -> Result<[String], DecodeFailure>
  /// How likely `bytes` is this format (0 = not at all), for `--as` detection.
  let likelihood: @Sendable (_ bytes: [UInt8]) -> Int

  static let all: [Format] = [ndef, btsnoop, hci, t2t, t1t, t5t, t3t, t4t, bertlv, adv, capdu, rapdu]

  /// A format whose JSON comes from `decode`, and whose human tree renders that JSON.
  static func simple(
    _ name: String, _ summary: String, likelihood: Int,
    _ decode: @escaping @Sendable ([UInt8], Bool) -> Result<JSON, DecodeFailure>
  ) -> Format {
    Format(
      name: name, summary: summary,
      json: { bytes, lenient in
        switch decode(bytes, lenient) {
        case .success(let json): return (json, true)
        case .failure(let failure):
          return (
            NDEFOutput.errorJSON(
              format: name, code: failure.code, offset: failure.offset, message: failure.message),
            false
          )
        }
      },
      human: { bytes, lenient in
        decode(bytes, lenient).map { json in
          ["\(summary) (\(name)), \(bytes.count) bytes"]
            + JSONTree.lines(json, indent: "  ", skip: ["ok", "format"])
        }
      },
      likelihood: { bytes in
        if case .success = decode(bytes, false) { return likelihood }
        return 0
      })
  }

  /// The same format, judged most likely (over BER-TLV and the rest) when `condition` holds.
  func preferring(_ condition: @escaping @Sendable ([UInt8]) -> Bool) -> Format {
    let base = likelihood
    return Format(
      name: name, summary: summary, json: json, human: human,
      likelihood: { bytes in condition(bytes) ? 95 : base(bytes) })
  }

  static let t1t = simple("t1t", "NFC Forum Type 1 tag memory", likelihood: 70, TagOutput.t1t)
  static let t2t = simple("t2t", "NFC Forum Type 2 tag memory", likelihood: 75, TagOutput.t2t)
  static let t3t = simple("t3t", "NFC Forum Type 3 tag memory", likelihood: 60, TagOutput.t3t)
  /// A Type 4 CC file (optionally followed by its NDEF file): below the memory images.
  static let t4t = simple("t4t", "NFC Forum Type 4 tag CC file", likelihood: 55, T4TOutput.t4t)
  static let t5t = simple("t5t", "NFC Forum Type 5 tag memory", likelihood: 65, TagOutput.t5t)
  static let capdu = simple("capdu", "ISO 7816-4 command APDU", likelihood: 30, ISO7816Output.capdu)
  /// A bare status word of a known category reads best as a response APDU.
  static let rapdu = simple("rapdu", "ISO 7816-4 response APDU", likelihood: 20, ISO7816Output.rapdu)
    .preferring { bytes in
      guard bytes.count == 2 else { return false }
      let category = StatusWord(rawValue: UInt16(bytes[0]) << 8 | UInt16(bytes[1])).category.name
      return ["normal", "warning", "executionError", "checkingError"].contains(category)
    }
  static let bertlv = simple("bertlv", "BER-TLV data objects", likelihood: 50, ISO7816Output.bertlv)
  static let adv = simple("adv", "Bluetooth LE advertising data", likelihood: 40, BLEOutput.adv)
  static let hci = simple("hci", "HCI LE advertising report event", likelihood: 90, BLEOutput.hci)
  static let btsnoop = simple("btsnoop", "btsnoop capture", likelihood: 100, BLEOutput.btsnoop)

  static func named(_ name: String) -> Format? { all.first { $0.name == name } }

  /// The most likely format for `bytes`.
  static func guess(_ bytes: [UInt8]) -> Format {
    all.max { $0.likelihood(bytes) < $1.likelihood(bytes) } ?? ndef
  }

  static let ndef = Format(
    name: "ndef",
    summary: "NFC Forum NDEF message",
    json: { bytes, lenient in NDEFOutput.json(bytes, options: lenient ? .lenient : .strict) },
    human: { bytes, lenient in
      do throws(NDEFError) {
        let message = try NDEFMessageView(validating: bytes.span, options: lenient ? .lenient : .strict)
        return .success(try NDEFOutput.human(message))
      } catch {
        return .failure(
          DecodeFailure(code: error.code.name, offset: error.offset, message: error.code.message))
      }
    },
    likelihood: { bytes in
      (try? NDEFMessageView(validating: bytes.span)) != nil ? 100 : 1
    })
}
