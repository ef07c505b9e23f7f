// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire

/// The human tree of NDEF messages and records (NDEF 1.0 §3.2; record types per their RTDs),
/// from the offsets the `NDEF` views give. The input the offsets point into is `source`,
/// whose first byte is at offset `base` (a tag's assembled NDEF bytes start past 0).
struct NDEFTree {
  var source: [UInt8]
  var base = 0
  var options: NDEFDecodingOptions

  func node(
    at offset: Int, count: Int, _ name: String, _ value: String = "", children: [TreeNode] = []
  ) -> TreeNode {
    var node = TreeNode(source, at: offset - base, count: count, name, value, children: children)
    node.offset = offset
    return node
  }

  /// What a TNF means (NDEF 1.0 §3.2.6).
  static func tnfMeaning(_ tnf: TypeNameFormat) -> String {
    switch tnf.rawValue {
    case 0: return "empty"
    case 1: return "wellKnown (NFC Forum RTD type)"
    case 2: return "media (RFC 2046 media type)"
    case 3: return "absoluteURI (RFC 3986)"
    case 4: return "external (NFC Forum external type)"
    case 5: return "unknown"
    case 6: return "unchanged (a middle or last chunk)"
    default: return "reserved"
    }
  }

  /// Names of the record types Tapwire decodes (NFC Forum RTDs, Bluetooth and Wi-Fi media types).
  static let typeNames: [String: String] = [
    "T": "Text record", "U": "URI record", "Sp": "Smart Poster", "Hr": "Handover Request",
    "Hs": "Handover Select", "Hm": "Handover Mediation", "Hi": "Handover Initiate", "Hc": "Handover Carrier",
    "ac": "Alternative Carrier", "cr": "Collision Resolution", "err": "Handover Error", "Sig": "Signature",
    "Di": "Device Information", "act": "Smart Poster action", "s": "Smart Poster size",
    "t": "Smart Poster type", "application/vnd.bluetooth.ep.oob": "Bluetooth BR/EDR OOB",
    "application/vnd.bluetooth.le.oob": "Bluetooth LE OOB",
    "application/vnd.wfa.wsc": "Wi-Fi Simple Configuration",
    "application/vnd.wfa.p2p": "Wi-Fi P2P", "android.com:pkg": "Android Application Record",
  ]

  /// The records of the message in `bytes` (which start at `baseOffset`); none when it does not decode.
  func records(decoding bytes: [UInt8], baseOffset: Int) -> [TreeNode] {
    do throws(NDEFError) {
      let message = try NDEFMessageView(validating: bytes.span, baseOffset: baseOffset, options: options)
      return records(message)
    } catch {
      return partialRecords(bytes, baseOffset: baseOffset, failure: error)
    }
  }

  /// The records that can be framed (those before the one that cannot, or all of them when
  /// ME is missing or bytes follow it), then an `error` line with a caret at `failure`
  /// (none when the strict walk stops elsewhere or no record can be framed).
  func partialRecords(_ bytes: [UInt8], baseOffset: Int, failure: NDEFError) -> [TreeNode] {
    var result: [TreeNode] = []
    let reached = NDEFOutput.forEachFramedRecord(
      bytes, baseOffset: baseOffset, options: options, failure: failure
    ) { (record) throws(NDEFError) in
      result.append(self.record(record, index: result.count, depth: 0))
    }
    guard reached, !result.isEmpty else { return [] }
    result.append(errorNode(failure))
    return result
  }

  /// The records of a message, one node each.
  /// `inPoster`: a Smart Poster's message, where a bad `act`, `s` or `t` record gets its
  /// error line (RTD 1.0 §2.3 local types); `inHandover`: a handover record's message, the
  /// same for a bad `cr` or `err` (Connection Handover 1.5 §6.3.3, §6.3.4).
  func records(
    _ message: borrowing NDEFMessageView, depth: Int = 0, inPoster: Bool = false, inHandover: Bool = false
  ) -> [TreeNode] {
    var result: [TreeNode] = []
    var iterator = message.records
    var index = 0
    while let record = iterator.next() {
      var node = self.record(record, index: index, depth: depth)
      var bad: MalformedRecord? = nil
      if inPoster { bad = SmartPosterView.localRecordError(record, options: options) }
      if inHandover { bad = HandoverView.localRecordError(record, options: options) }
      if let bad, let payload = node.children.lastIndex(where: { $0.name == "payload" }) {
        node.children[payload].children.append(errorNode(bad))
      }
      result.append(node)
      index += 1
    }
    return result
  }

  /// One record: header with flags, length fields, type, id, payload and what the payload decodes to.
  func record(_ record: borrowing NDEFRecordView, index: Int, depth: Int) -> TreeNode {
    let header = record.header
    let typeText =
      record.type.byteCount > 0 && record.type.isPrintableASCII
      ? String(decoding: record.type.copiedBytes(), as: UTF8.self) : nil
    var children: [TreeNode] = []
    let flags =
      "MB=\(Describe.bit(header.messageBegin)) ME=\(Describe.bit(header.messageEnd)) CF=\(Describe.bit(header.chunked)) SR=\(Describe.bit(header.shortRecord)) IL=\(Describe.bit(header.idLengthPresent))"
    children.append(
      node(
        at: record.offset, count: 1, "header", "\(Describe.hex(header.rawValue)) = \(flags)",
        children: [
          node(
            at: record.offset, count: 1, "TNF",
            "\(record.typeNameFormat.rawValue) = \(Self.tnfMeaning(record.typeNameFormat))")
        ]))
    children.append(node(at: record.offset + 1, count: 1, "type length", "\(record.type.byteCount)"))
    let lengthSize = header.shortRecord ? 1 : 4
    let firstPayload = record.isChunked ? record.chunksFirstPayloadLength : record.payloadLength
    children.append(node(at: record.offset + 2, count: lengthSize, "payload length", "\(firstPayload)"))
    if header.idLengthPresent {
      children.append(
        node(at: record.offset + 2 + lengthSize, count: 1, "id length", "\(record.id.byteCount)"))
    }
    if record.type.byteCount > 0 {
      var value = typeText.map { Describe.quoted($0) } ?? Hex.string(record.type)
      if let typeText, let name = Self.typeNames[typeText] { value += " = " + name }
      children.append(node(at: record.typeOffset, count: record.type.byteCount, "type", value))
    }
    if record.id.byteCount > 0 {
      let idText =
        record.id.isPrintableASCII
        ? Describe.quoted(String(decoding: record.id.copiedBytes(), as: UTF8.self)) : Hex.string(record.id)
      children.append(node(at: record.idOffset, count: record.id.byteCount, "id", idText))
    }
    var payloadChildren: [TreeNode] = []
    if record.isChunked {
      var chunks = record.chunks
      var chunkIndex = 0
      while let chunk = chunks.next() {
        let h = chunk.header
        payloadChildren.append(
          node(
            at: chunk.offset, count: 1, "chunk \(chunkIndex)",
            "\(Describe.hex(h.rawValue)) = MB=\(Describe.bit(h.messageBegin)) ME=\(Describe.bit(h.messageEnd)) CF=\(Describe.bit(h.chunked)), \(Describe.bytes(chunk.payload.byteCount)) at offset \(chunk.payloadOffset)"
          ))
        chunkIndex += 1
      }
      // The assembled payload has no single place in the input: its fields get no offsets.
      if let payload = try? record.assembledPayload(maximumSize: options.maximumAssembledPayloadSize) {
        let decoded = DecodedRecord(
          classifying: record.typeNameFormat, type: record.type, payload: payload.span.bytes,
          payloadOffset: record.payloadOffset, typeOffset: record.typeOffset, options: options, depth: depth)
        if case .malformed(let malformed) = decoded {
          payloadChildren.append(errorNode(malformed, caret: false))
        } else if let json = try? NDEFDecodedOutput.json(decoded, options: options, depth: depth) {
          payloadChildren += Describe.jsonNodes(json)
        }
      }
    } else {
      let decoded = DecodedRecord(classifying: record, options: options, depth: depth)
      payloadChildren += self.decoded(decoded, payloadOffset: record.payloadOffset, depth: depth)
    }
    let chunkText = record.isChunked ? " in \(record.chunkCount) chunks" : ""
    children.append(
      node(
        at: record.payloadOffset,
        count: record.isChunked ? record.chunksFirstPayloadLength : record.payloadLength,
        "payload", Describe.bytes(record.payloadLength) + chunkText, children: payloadChildren))
    var title = "\(record.typeNameFormat.name)"
    if let typeText { title += " " + Describe.quoted(typeText) }
    if let typeText, let name = Self.typeNames[typeText] { title += " (\(name))" }
    return node(
      at: record.offset, count: record.bytes.byteCount, "Record \(index)", title, children: children)
  }

  /// The line for a record whose payload breaks its record type: the error at its offset,
  /// then the input line holding it with a caret under the byte (when the offset points
  /// into `source`; an assembled chunked payload has no place in the input).
  /// `subject`: what is malformed when it is a part of the record (a WSC Credential).
  func errorNode(_ malformed: MalformedRecord, caret: Bool = true, subject: String? = nil) -> TreeNode {
    let what = subject.map { "a malformed \($0)" } ?? "a malformed \(malformed.recordType) record"
    return errorNode(malformed.error, note: " (\(what))", caret: caret)
  }

  /// An `error` line for `error`, with `note` after its message and (`caret`) the input line
  /// holding it with a caret under the byte, when the offset points into `source`.
  func errorNode(_ error: NDEFError, note: String = "", caret: Bool = true) -> TreeNode {
    var node = self.node(
      at: error.offset, count: 1, "error",
      "\(error.code.name) at offset \(error.offset): \(error.code.message)\(note)")
    if caret, source.indices.contains(error.offset - base) || error.offset - base == source.count {
      node.extraLines = HexDump.caret(source, at: error.offset - base)
    }
    return node
  }

  /// The fields of a record type's payload.
  func decoded(_ decoded: borrowing DecodedRecord, payloadOffset: Int, depth: Int) -> [TreeNode] {
    switch decoded {
    case .malformed(let malformed):
      return [errorNode(malformed)]
    case .text(let view):
      let status = view.status
      let payloadOffset = view.textOffset - view.languageCode.byteCount - 1
      return [
        node(
          at: payloadOffset, count: 1, "status",
          "\(Describe.hex(status)) = \(view.encoding.name), language code \(Describe.bytes(view.languageCode.byteCount))"
        ),
        node(
          at: payloadOffset + 1, count: view.languageCode.byteCount, "language",
          Describe.quoted(view.language)),
        node(at: view.textOffset, count: view.text.byteCount, "text", Describe.quoted(view.string)),
      ]
    case .uri(let view):
      return uriNodes(view)
    case .smartPoster(let view):
      var result = records(view.message, depth: depth + 1, inPoster: true)
      if let json = try? NDEFDecodedOutput.json(decoded, options: options, depth: depth) {
        result += Describe.jsonNodes(json, skip: ["kind", "records", "titles"])
      }
      return result
    case .handover(let view):
      var result: [TreeNode] = []
      if let message = view.message {
        let versionOffset = message.baseOffset - 1
        result.append(
          node(
            at: versionOffset, count: 1, "version",
            "\(Describe.hex(view.majorVersion << 4 | view.minorVersion)) = \(view.version)"))
        result += records(message, depth: depth + 1, inHandover: true)
      } else {
        result.append(TreeNode("version", view.version))
      }
      if let resolution = view.collisionResolution {
        result.append(TreeNode("collision resolution", "\(Describe.hex16(resolution))"))
      }
      return result
    case .alternativeCarrier(let view):
      // CPS, CARRIER_DATA_REFERENCE (length, bytes), AUXILIARY_DATA_REFERENCE_COUNT (Handover 1.5 §6.3).
      let referenceCount = view.dataReference.byteCount
      var result = [
        node(
          at: payloadOffset, count: 1, "power state",
          "\(view.powerState.rawValue) = \(view.powerState.name)"),
        node(at: payloadOffset + 1, count: 1, "carrier data reference length", "\(referenceCount)"),
        node(
          at: payloadOffset + 2, count: referenceCount, "carrier data reference",
          Describe.quotedOrHex(view.dataReference)),
        node(
          at: payloadOffset + 2 + referenceCount, count: 1, "auxiliary data references",
          "\(view.auxiliaryReferenceCount)"),
      ]
      var references = view.auxiliaryDataReferences
      while let reference = references.next() {
        result.append(TreeNode("auxiliary data reference", Describe.quotedOrHex(reference)))
      }
      return result
    case .handoverCarrier(let view):
      // CTF, CARRIER_TYPE_LENGTH, CARRIER_TYPE, CARRIER_DATA (Handover 1.5 §6.2).
      let typeCount = view.carrierType.byteCount
      return [
        node(
          at: payloadOffset, count: 1, "carrier type format",
          "\(view.carrierTypeFormat.rawValue) = \(Self.tnfMeaning(view.carrierTypeFormat))"),
        node(at: payloadOffset + 1, count: 1, "carrier type length", "\(typeCount)"),
        node(at: payloadOffset + 2, count: typeCount, "carrier type", Describe.quotedOrHex(view.carrierType)),
        node(
          at: payloadOffset + 2 + typeCount, count: view.carrierData.byteCount, "carrier data",
          Describe.bytes(view.carrierData.byteCount)),
      ]
    case .wifiSimpleConfig(let view):
      var result: [TreeNode] = []
      var attributes = view.allAttributes
      while let attribute = attributes.next() {
        var node = wscNode(attribute, credential: nil)
        if attribute.type == .credential {
          // Each Credential on its own (WSC 2.0 §12): a bad one gets its error line.
          var credential: WiFiCredential? = nil
          var bad: NDEFError? = nil
          do throws(NDEFError) {
            credential = try WiFiCredential(parsing: attribute.value, baseOffset: attribute.valueOffset)
          } catch {
            bad = error
          }
          var nested = attribute.nestedAttributes
          while let inner = nested.next() { node.children.append(wscNode(inner, credential: credential)) }
          if let bad {
            node.children.append(
              errorNode(MalformedRecord(recordType: .wifiSimpleConfig, error: bad), subject: "Credential"))
          }
        }
        result.append(node)
      }
      if let version2 = view.version2 {
        result.append(TreeNode("WFA version", "\(version2 >> 4).\(version2 & 0x0F)"))
      }
      return result
    case .wifiP2P(let view):
      var result: [TreeNode] = []
      var wsc = view.wscAttributes
      while let attribute = wsc.next() { result.append(wscNode(attribute, credential: nil)) }
      var p2p = view.p2pAttributes
      while let attribute = p2p.next() {
        let name = Self.p2pNames[attribute.id.rawValue] ?? "attribute \(attribute.id.rawValue)"
        result.append(
          node(
            at: attribute.valueOffset - 3, count: attribute.value.byteCount + 3, "P2P \(name)",
            Describe.bytes(attribute.value.byteCount),
            children: [
              node(
                at: attribute.valueOffset - 3, count: 1, "attribute ID", "\(attribute.id.rawValue) = \(name)"),
              node(at: attribute.valueOffset - 2, count: 2, "length", "\(attribute.value.byteCount)"),
              node(
                at: attribute.valueOffset, count: attribute.value.byteCount, "value",
                Hex.string(attribute.value)),
            ]))
      }
      if let info = view.deviceInfo {
        result.append(
          TreeNode("device name", Describe.quoted(String(decoding: info.deviceName, as: UTF8.self))))
      }
      return result
    case .signature(let view):
      // Version, signature field (URI bit, type), hash type, length and signature or URI,
      // then the certificate chain field (Signature RTD 2.0 §3.3).
      let signatureCount = view.signature.byteCount
      let signatureText =
        view.signatureIsURI
        ? Describe.quoted(String(decoding: view.signature.copiedBytes(), as: UTF8.self))
        : Describe.bytes(signatureCount)
      var result = [
        node(
          at: payloadOffset, count: 1, "version",
          "\(Describe.hex(view.version)) = \(view.version >> 4).\(view.version & 0x0F)"),
        node(
          at: payloadOffset + 1, count: 1, "signature type",
          "\(view.signatureType)\(view.signatureIsURI ? ", signature given by URI" : "")"),
        node(at: payloadOffset + 2, count: 1, "hash type", "\(view.hashType)"),
        node(at: payloadOffset + 3, count: 2, "signature length", "\(signatureCount)"),
      ]
      if signatureCount > 0 {
        result.append(
          node(
            at: payloadOffset + 5, count: signatureCount, view.signatureIsURI ? "signature URI" : "signature",
            signatureText))
      }
      var offset = payloadOffset + 5 + signatureCount
      result.append(
        node(
          at: offset, count: 1, "certificate chain",
          "format \(view.certificateFormat), \(view.certificateCount) certificates\(view.certificateURI != nil ? ", URI follows" : "")"
        ))
      offset += 1
      var certificates = view.certificateChain
      var index = 0
      while let certificate = certificates.next() {
        result.append(
          node(
            at: offset, count: 2 + certificate.byteCount, "certificate \(index)",
            Describe.bytes(certificate.byteCount)))
        offset += 2 + certificate.byteCount
        index += 1
      }
      if let uri = view.certificateURI {
        result.append(
          node(at: offset, count: 2 + uri.byteCount, "certificate URI", Describe.quotedOrHex(uri)))
      }
      return result
    case .androidApplication(let view):
      return [
        node(at: payloadOffset, count: view.package.utf8.count, "package", Describe.quoted(view.package))
      ]
    case .bluetoothEP(let view):
      // OOB data length and BD_ADDR, both little-endian, then AD structures (Bluetooth SSP OOB, NFC Forum BTSSP §4.1).
      return [
        node(at: payloadOffset, count: 2, "OOB data length", "\(view.oobDataLength)"),
        node(at: payloadOffset + 2, count: 6, "address", view.address.description),
      ] + BLETree(source: source, base: base).structures(view.advertising)
    case .bluetoothLE(let view):
      return [
        TreeNode("address", view.address.description + (view.isRandomAddress ? " (random)" : " (public)")),
        TreeNode("role", view.role?.name ?? "(none)"),
      ] + BLETree(source: source, base: base).structures(view.advertising)
    case .deviceInformation(let view):
      // Data elements: type byte, length byte, value (Device Information RTD 1.0 §3).
      let names: [UInt8: String] = [
        0: "manufacturer", 1: "model", 2: "unique name", 3: "UUID", 4: "firmware version",
      ]
      var result: [TreeNode] = []
      var elements = view.elements
      while let element = elements.next() {
        let value =
          element.type == DeviceInformationView.uuidElement
          ? (view.uuidString ?? Hex.string(element.value)) : Describe.quotedOrHex(element.value)
        result.append(
          node(
            at: element.offset, count: 2 + element.value.byteCount,
            names[element.type] ?? "reserved element \(element.type)", value,
            children: [
              node(at: element.offset, count: 1, "type", "\(element.type)"),
              node(at: element.offset + 1, count: 1, "length", "\(element.value.byteCount)"),
            ]))
      }
      return result
    default:
      guard let json = try? NDEFDecodedOutput.json(decoded, options: options, depth: depth) else { return [] }
      return Describe.jsonNodes(json, skip: ["kind"])
    }
  }

  /// Names of WSC attributes (Wi-Fi Simple Configuration 2.0 §12).
  static let wscNames: [UInt16: String] = [
    0x1003: "Authentication Type", 0x100E: "Credential", 0x100F: "Encryption Type", 0x1011: "Device Name",
    0x1020: "MAC Address", 0x1026: "Network Index", 0x1027: "Network Key", 0x1045: "SSID",
    0x1049: "Vendor Extension", 0x104A: "Version",
  ]

  /// Names of P2P attributes (Wi-Fi P2P 1.7 §4.1.1).
  static let p2pNames: [UInt8: String] = [
    2: "P2P Capability", 13: "P2P Device Info", 15: "P2P Group ID", 19: "OOB GO Negotiation Channel",
  ]

  /// One WSC attribute: type and length (2 bytes each, big-endian) before the value.
  func wscNode(_ attribute: borrowing WSCAttribute, credential: WiFiCredential?) -> TreeNode {
    let name =
      Self.wscNames[attribute.type.rawValue] ?? "attribute \(Describe.hex16(attribute.type.rawValue))"
    var value = Describe.bytes(attribute.value.byteCount)
    switch attribute.type {
    case .ssid, .networkKey, P2PDeviceInfo.deviceNameAttribute:
      value = Describe.quoted(String(decoding: attribute.value.copiedBytes(), as: UTF8.self))
    case .authenticationType:
      value = Hex.string(attribute.value) + (credential.map { " = " + $0.authentication.name } ?? "")
    case .encryptionType:
      value = Hex.string(attribute.value) + (credential.map { " = " + $0.encryption.name } ?? "")
    case .macAddress:
      value = attribute.value.copiedBytes().map { HexDump.byteHex($0).uppercased() }.joined(separator: ":")
    case .credential: break
    default:
      if attribute.value.byteCount <= TreeNode.shownBytes { value = Hex.string(attribute.value) }
    }
    let start = attribute.valueOffset - 4
    return node(at: start, count: attribute.value.byteCount + 4, name, value)
  }

  func uriNodes(_ view: borrowing URIRecordView) -> [TreeNode] {
    let prefix =
      Int(view.prefixCode) < URIRecordView.prefixes.count ? Describe.quoted(view.prefix) : "reserved"
    return [
      node(
        at: view.remainderOffset - 1, count: 1, "URI prefix", "\(Describe.hex(view.prefixCode)) = \(prefix)"),
      node(
        at: view.remainderOffset, count: view.remainder.byteCount, "URI field",
        Describe.quoted(String(decoding: view.remainder.copiedBytes(), as: UTF8.self))),
      TreeNode("URI", Describe.quoted(view.uri, limit: 256)),
    ]
  }
}

extension Describe {
  /// Printable ASCII bytes quoted, anything else as hex.
  static func quotedOrHex(_ bytes: RawSpan) -> String {
    bytes.byteCount > 0 && bytes.isPrintableASCII
      ? quoted(String(decoding: bytes.copiedBytes(), as: UTF8.self)) : Hex.string(bytes)
  }
}

extension NDEFRecordView {
  /// The payload length of the first chunk (what its own length field says).
  var chunksFirstPayloadLength: Int {
    var chunks = self.chunks
    return chunks.next()?.payload.byteCount ?? payloadLength
  }
}
