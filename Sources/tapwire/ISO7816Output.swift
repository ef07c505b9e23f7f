// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCWire

/// JSON for `capdu`, `rapdu` and `bertlv` (see `shared/spec/cli-json.md`).
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

  static func tlvJSON(_ iterator: consuming BERTLVIterator) -> [JSON] {
    var result: [JSON] = []
    while let tlv = iterator.next() {
      var pairs: [(String, JSON)] = [
        ("tag", .string(tlv.tag.hexString.lowercased())), ("offset", .int(tlv.offset)),
        ("length", .int(tlv.length)),
        ("constructed", .bool(tlv.isConstructed)),
      ]
      if tlv.isConstructed {
        pairs.append(("children", .array(tlvJSON(tlv.children))))
      } else {
        pairs.append(("value", .string(Hex.string(tlv.value))))
      }
      result.append(.object(pairs))
    }
    return result
  }

  static func bertlv(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    do throws(APDUError) {
      let view = try BERTLVSequenceView(validating: bytes.span.bytes, options: lenient ? .lenient : .strict)
      return .success(
        .object([
          ("ok", .bool(true)), ("format", .string("bertlv")), ("tlvs", .array(tlvJSON(view.objects))),
          ("warnings", .array([])),
        ]))
    } catch {
      return .failure(failure(error))
    }
  }
}
