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

  static let all: [Format] = [ndef]

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
        return .success(NDEFOutput.human(message))
      } catch {
        return .failure(
          DecodeFailure(code: error.code.name, offset: error.offset, message: error.code.message))
      }
    },
    likelihood: { bytes in
      (try? NDEFMessageView(validating: bytes.span)) != nil ? 100 : 1
    })
}
