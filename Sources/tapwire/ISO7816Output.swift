// SPDX-License-Identifier: Apache-2.0
import ISO7816
import JSONOutput
import NFCWire

/// JSON for `capdu`, `rapdu` and `bertlv` (see `Documentation/cli-json.md`).
enum ISO7816Output {
  static func failure(_ error: APDUError) -> DecodeFailure {
    DecodeFailure(code: error.code.name, offset: error.offset, message: error.code.message)
  }

  static func capdu(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    do throws(APDUError) {
      let view = try CommandAPDUView(validating: bytes.span)
      return .success(
        .object([
          ("ok", .bool(true)), ("format", .string("capdu")),
          ("cla", .string(HexDump.byteHex(view.cla.rawValue))),
          ("ins", .string(HexDump.byteHex(view.ins.rawValue))), ("p1", .string(HexDump.byteHex(view.p1))),
          ("p2", .string(HexDump.byteHex(view.p2))), ("case", .string(view.apduCase.name)),
          ("data", .string(Hex.string(view.data))), ("ne", view.ne.map { .int($0) } ?? .null),
          ("chaining", .bool(view.cla.isChaining)),
          ("secureMessaging", .string(view.cla.secureMessaging.name)),
          ("channel", view.cla.logicalChannel.map { .int($0) } ?? .null),
          ("command", view.commandName.map { .string($0) } ?? .null), ("warnings", .array([])),
        ]))
    } catch {
      return .failure(failure(error))
    }
  }

  static func rapdu(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    do throws(APDUError) {
      let view = try ResponseAPDUView(validating: bytes.span)
      return .success(
        .object([
          ("ok", .bool(true)), ("format", .string("rapdu")), ("data", .string(Hex.string(view.data))),
          ("sw", .string(view.statusWord.hexString.lowercased())),
          ("category", .string(view.statusWord.category.name)), ("meaning", .string(view.statusWord.meaning)),
          ("warnings", .array([])),
        ]))
    } catch {
      return .failure(failure(error))
    }
  }

  static func errorJSON(_ error: APDUError) -> JSON {
    .object([
      ("code", .string(error.code.name)), ("offset", .int(error.offset)),
      ("message", .string(error.code.message)),
    ])
  }

  /// The objects of one level as the contract's TLV objects, every framed object kept; a
  /// constructed object whose value breaks framing keeps the children before the bad one and
  /// gets `"error"`. Errors are also appended to `errors`, depth first (the order of
  /// validation); the level's own error is returned.
  static func tlvJSON(_ scanner: consuming BERTLVScanner, errors: inout [JSON]) -> ([JSON], JSON?) {
    var result: [JSON] = []
    while let item = scanner.next() {
      switch item {
      case .malformed(let error):
        let json = errorJSON(error)
        errors.append(json)
        return (result, json)
      case .object(let tlv):
        var pairs: [(String, JSON)] = [
          ("tag", .string(tlv.tag.hexString.lowercased())), ("offset", .int(tlv.offset)),
          ("length", .int(tlv.length)),
          ("constructed", .bool(tlv.isConstructed)),
        ]
        if tlv.isConstructed {
          let (children, error) = tlvJSON(tlv.scannedChildren, errors: &errors)
          pairs.append(("children", .array(children)))
          if let error { pairs.append(("error", error)) }
        } else {
          pairs.append(("value", .string(Hex.string(tlv.value))))
        }
        result.append(.object(pairs))
      }
    }
    return (result, nil)
  }

  /// `bertlv`: every object that is framed, at every depth, even when another is not (a bad
  /// nested object is reported in place, on the constructed object holding it, and its
  /// siblings still decode). Any error makes the object `"ok": false` with `error` (the first,
  /// depth first) and `errors` (all), in both modes: lenient mode only accepts more input.
  static func bertlv(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    var errors: [JSON] = []
    let (tlvs, _) = tlvJSON(
      BERTLVScanner(bytes.span.bytes, options: lenient ? .lenient : .strict), errors: &errors)
    guard let first = errors.first else {
      return .success(
        .object([
          ("ok", .bool(true)), ("format", .string("bertlv")), ("tlvs", .array(tlvs)),
          ("warnings", .array([])),
        ]))
    }
    // Nothing framed at all: plain failure (and no claim that this input is BER-TLV).
    guard !tlvs.isEmpty else { return .failure(DecodeFailure(errorJSON: .object([("error", first)]))) }
    return .success(
      .object([
        ("ok", .bool(false)), ("format", .string("bertlv")), ("error", first), ("tlvs", .array(tlvs)),
        ("errors", .array(errors)), ("warnings", .array([])),
      ]))
  }
}
