// SPDX-License-Identifier: Apache-2.0
import JSONOutput
import NDEF
import NFCTags
import NFCWire

/// JSON for `t4t`: a Type 4 Tag CC file (T4T 2.0/3.0 §5.1), optionally followed by the NDEF
/// file (NLEN or ENLEN, then the message; §5.2). The CC file's own CCLEN tells where the
/// NDEF file starts; bytes past NLEN are the file's unused rest and are ignored.
enum T4TOutput {
  /// The name of a TLV type in the CC file (§5.1.2-§5.1.4).
  static func tlvName(_ type: UInt8) -> String {
    switch type {
    case Type4NDEFFileControl.tag: return "ndefFileControl"
    case 0x05: return "proprietaryFileControl"
    case Type4NDEFFileControl.extendedTag: return "extendedNDEFFileControl"
    default: return "unknown"
    }
  }

  /// The TLVs of the CC file from offset 7 up to `end` (CCLEN, or the input's end when
  /// shorter). Throws `truncatedTLV` at a TLV whose header or value runs past `end`.
  static func tlvs(_ bytes: [UInt8], end: Int) throws(NFCTagError) -> [JSON] {
    var result: [JSON] = []
    var offset = 7
    while offset < end {
      guard offset + 1 < end else { throw NFCTagError(.truncatedTLV, offset: offset) }
      let type = bytes[offset]
      var length = Int(bytes[offset + 1])
      var valueOffset = offset + 2
      if length == 0xFF {
        guard offset + 3 < end else { throw NFCTagError(.truncatedTLV, offset: offset) }
        length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        valueOffset = offset + 4
      }
      guard length <= end - valueOffset else { throw NFCTagError(.truncatedTLV, offset: offset) }
      result.append(
        .object([
          ("type", .int(Int(type))), ("typeName", .string(tlvName(type))), ("offset", .int(offset)),
          ("length", .int(length)),
        ]))
      offset = valueOffset + length
    }
    return result
  }

  /// Where the CC file ends in `bytes`: CCLEN when valid, else the fixed fields and the
  /// NDEF File Control TLV (15 or 17 bytes), and never past the input.
  static func ccEnd(_ cc: Type4CapabilityContainer, _ bytes: [UInt8], lengthValid: Bool) -> Int {
    min(lengthValid ? cc.length : 7 + 2 + (cc.fileControl.isExtended ? 8 : 6), bytes.count)
  }

  /// The CC file (T4T 3.0 §5.1) with each field whose value breaks a rule kept in place
  /// (strict: `error`/`errors`, `ok` false; lenient: `warnings`), then the NDEF file (§5.2).
  /// The NDEF file is not located when CCLEN itself is bad, and its NLEN is not held to a
  /// bad maximum file size.
  static func t4t(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    TagOutput.decode(bytes, lenient: lenient) { _, ndefOptions throws(NFCTagError) in
      var ccErrors: [NFCTagError] = []
      let cc = try Type4CapabilityContainer(scanning: bytes, errors: &ccErrors)
      let control = cc.fileControl
      let lengthValid = !ccErrors.contains { $0.offset == 0 }
      let sizeValid = !ccErrors.contains { $0.offset == 11 }
      let ccEnd = ccEnd(cc, bytes, lengthValid: lengthValid)
      let tlvs = try tlvs(bytes, end: ccEnd)
      var ndef = JSON.null
      var framing: [JSON] = []
      if lengthValid, ccEnd < bytes.count {
        let fieldSize = control.lengthFieldSize
        guard bytes.count - ccEnd >= fieldSize else {
          throw NFCTagError(.truncatedImage, offset: bytes.count)
        }
        var length = 0
        for index in ccEnd..<(ccEnd + fieldSize) { length = length << 8 | Int(bytes[index]) }
        guard !sizeValid || length <= control.maximumMessageSize else {
          throw NFCTagError(.ndefLengthExceedsFile, offset: ccEnd)
        }
        let start = ccEnd + fieldSize
        guard length <= bytes.count - start else { throw NFCTagError(.truncatedImage, offset: bytes.count) }
        let message = Array(bytes[start..<(start + length)])
        (ndef, framing) = try TagOutput.messageJSON(message, offset: start, options: ndefOptions)
      }
      let fileIdentifier = [
        UInt8(control.fileIdentifier >> 8), UInt8(truncatingIfNeeded: control.fileIdentifier),
      ]
      let object = TagOutput.envelope(
        "t4t",
        cc: [
          ("size", .int(cc.length)), ("version", .int(Int(cc.mappingVersion))),
          ("versionText", .string("\(cc.majorVersion).\(cc.minorVersion)")),
          ("mle", .int(cc.maximumReadLength)), ("mlc", .int(cc.maximumWriteLength)),
          ("extended", .bool(control.isExtended)), ("fileIdentifier", .string(Hex.string(fileIdentifier))),
          ("maxFileSize", .int(control.maximumFileSize)), ("readAccess", .int(Int(control.readAccess))),
          ("writeAccess", .int(Int(control.writeAccess))),
        ], tlvs: .array(tlvs), ndef: ndef, dataAreaSize: control.maximumFileSize,
        maxNDEFSize: control.maximumMessageSize, readOnly: !control.isWritable,
        warnings: lenient ? ccErrors.map { NFCTagWarning($0.code, offset: $0.offset) } : [],
        lenient: ndefOptions.isLenient)
      let strictErrors =
        lenient ? [] : ccErrors.map { TagOutput.warningJSON(NFCTagWarning($0.code, offset: $0.offset)) }
      return TagOutput.applyingErrors(object, strictErrors + framing)
    }
  }
}
