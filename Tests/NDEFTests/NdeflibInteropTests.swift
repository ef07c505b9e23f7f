// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF
import NFCWire
import Testing

/// Messages encoded by nfcpy's ndeflib (an independent implementation), with the values
/// ndeflib decoded from them: `Vectors/ndeflib-vectors.jsonl`, written by
/// `Vectors/generate-ndeflib-vectors.py`. Tapwire must decode the same values and
/// re-encode the same bytes.
@Suite("ndeflib interop")
struct NdeflibInteropTests {
  struct Vector: Sendable, CustomStringConvertible {
    var kind: String
    var bytes: [UInt8]
    var expect: [String: String]
    var description: String { "\(kind) \(Hex.string(bytes).prefix(24))" }
  }

  static let vectors: [Vector] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Vectors/ndeflib-vectors.jsonl")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let kind = object["kind"] as? String, let hexText = object["hex"] as? String,
        let expect = object["expect"] as? [String: Any]
      else { return nil }
      // Flatten expectations to strings for a Sendable table.
      var flat: [String: String] = [:]
      for (key, value) in expect {
        if let data = try? JSONSerialization.data(
          withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        {
          flat[key] = String(decoding: data, as: UTF8.self)
        }
      }
      return Vector(kind: kind, bytes: Hex.bytes(hexText) ?? [], expect: flat)
    }
  }()

  static func quoted(_ text: String) -> String {
    let data = try? JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? text
  }

  @Test func vectorsArePresent() {
    #expect(Self.vectors.count >= 30)
  }

  @Test(arguments: vectors)
  func decodesAndReencodesLikeNdeflib(_ vector: Vector) throws {
    // The message level: strict decode, and canonical re-encoding byte for byte.
    let message = try NDEFMessage(parsing: vector.bytes)
    #expect(try message.encodedBytes() == vector.bytes)
    let expect = vector.expect
    let first = message.records[0]
    switch vector.kind {
    case "text":
      let text = try TextRecord(parsing: first.payload)
      #expect(Self.quoted(text.language) == expect["language"])
      #expect(Self.quoted(text.text) == expect["text"])
      #expect(Self.quoted(text.encoding.name) == expect["encoding"])
      if text.encoding == .utf8 { #expect(try text.payload() == first.payload) }
    case "uri":
      let view = try URIRecordView(validating: first.payload.span.bytes)
      #expect(Self.quoted(view.uri) == expect["uri"])
      #expect("\(view.prefixCode)" == expect["prefixCode"])
      #expect(URIRecord(view.uri).payload == first.payload)
    case "smartPoster":
      let view = try SmartPosterView(validating: first.payload.span.bytes)
      let poster = try SmartPoster(view)
      #expect(Self.quoted(poster.uri) == expect["uri"])
      #expect("\(poster.action?.rawValue ?? 255)" == expect["action"])
      var titles: [String: String] = [:]
      for title in poster.titles { titles[title.language] = title.text }
      let titleJSON = try JSONSerialization.data(withJSONObject: titles, options: [.sortedKeys])
      #expect(String(decoding: titleJSON, as: UTF8.self) == expect["titles"])
      #expect((poster.size.map { "\($0)" } ?? "null") == expect["size"])
      #expect((poster.mimeType.map(Self.quoted) ?? "null") == expect["mimeType"])
      // Our encoding of the same poster decodes back to the same model.
      let reencoded = try poster.record().payload
      #expect(try SmartPoster(SmartPosterView(validating: reencoded.span.bytes)) == poster)
    case "androidApplication":
      let view = try AndroidApplicationRecordView(validating: first.payload.span.bytes)
      #expect(Self.quoted(view.package) == expect["package"])
      #expect(AndroidApplicationRecordView.record(package: view.package) == first)
    case "deviceInformation":
      let view = try DeviceInformationView(validating: first.payload.span.bytes)
      let model = DeviceInformation(view)
      #expect(Self.quoted(model.manufacturer) == expect["manufacturer"])
      #expect(Self.quoted(model.model) == expect["model"])
      #expect(model.uniqueName.map(Self.quoted) == expect["uniqueName"])
      #expect(view.uuidString.map(Self.quoted) == expect["uuid"])
      #expect(model.firmwareVersion.map(Self.quoted) == expect["firmwareVersion"])
      #expect(try model.payload() == first.payload)
    case "wifiSimpleConfig":
      let view = try WiFiSimpleConfigView(validating: first.payload.span.bytes)
      let credential = try #require(view.credentials().first)
      #expect(Self.quoted(String(decoding: credential.ssid, as: UTF8.self)) == expect["ssid"])
      #expect(Self.quoted(String(decoding: credential.networkKey, as: UTF8.self)) == expect["networkKey"])
      #expect("\(credential.authentication.rawValue)" == expect["authentication"])
      #expect("\(credential.encryption.rawValue)" == expect["encryption"])
      #expect(view.version2.map { "\($0)" } == expect["version2"])
      // ndeflib writes attributes sorted by id; Tapwire writes them in the order of WSC
      // §10.1.2's examples. Both are valid: compare what they decode to.
      let ours = WiFiSimpleConfig(credentials: [credential], version2: view.version2).payload
      let reread = try WiFiSimpleConfigView(validating: ours.span.bytes)
      #expect(reread.credentials() == [credential])
      #expect(reread.version2 == view.version2)
    case "handoverRequest", "handoverSelect":
      let kind: HandoverKind = vector.kind == "handoverRequest" ? .request : .select
      let view = try HandoverView(validating: first.payload.span.bytes, kind: kind)
      let model = Handover(view)
      #expect(Self.quoted(view.version) == expect["version"])
      if let collision = expect["collisionResolution"] {
        #expect("\(model.collisionResolution ?? 0)" == collision)
      }
      let carriers = model.alternativeCarriers.map { carrier in
        [carrier.powerState.name, String(decoding: carrier.dataReference, as: UTF8.self)]
          + carrier.auxiliaryDataReferences.map { String(decoding: $0, as: UTF8.self) }
      }
      let carrierJSON = try JSONSerialization.data(withJSONObject: carriers)
      #expect(String(decoding: carrierJSON, as: UTF8.self) == expect["carriers"])
      #expect(try model.payload() == first.payload)
      // The carrier reference resolves to the second record by id.
      #expect(message.records[1].id == model.alternativeCarriers[0].dataReference)
    case "wifiP2P":
      try checkWiFiP2P(payload: first.payload, expect: expect)
    case "generic":
      #expect("\(message.records.count)" == expect["count"])
    default:
      Issue.record("unknown vector kind \(vector.kind)")
    }
  }

  /// A JSON array of `[number, "hex"]` pairs from an expectation.
  static func pairs(_ json: String?) throws -> [(Int, [UInt8])] {
    let text = try #require(json)
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let array = try #require(object as? [[Any]])
    return try array.map { pair in
      let number = try #require(pair.first as? Int)
      let hexText = try #require(pair.last as? String)
      return (number, try #require(Hex.bytes(hexText)))
    }
  }

  /// ndeflib's Wi-Fi P2P payload: the framing (two big-endian part lengths) and the WSC part
  /// agree with Tapwire; the P2P attribute lengths do not. ndeflib writes them big-endian,
  /// the Wi-Fi P2P specification (v1.7 section 4.1.1) little-endian, so Tapwire's strict
  /// decoder stops at the first attribute and Tapwire's encoding of ndeflib's decoded values
  /// equals ndeflib's bytes with each attribute length's two bytes swapped.
  func checkWiFiP2P(payload: [UInt8], expect: [String: String]) throws {
    #expect(expect["p2pLengthByteOrder"] == "\"big\"")
    let wsc = try Self.pairs(expect["wscAttributes"])
    let p2p = try Self.pairs(expect["p2pAttributes"])
    let wscBytes = wsc.flatMap { type, value in
      [UInt8(type >> 8), UInt8(type & 0xFF), UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
    }
    // The WSC part is byte for byte what ndeflib wrote, after its big-endian length.
    #expect(Array(payload[2..<(2 + wscBytes.count)]) == wscBytes)
    let firstAttribute = 2 + wscBytes.count + 2
    #expect(throws: NDEFError(.attributeTruncated, offset: firstAttribute)) {
      _ = try WiFiP2PView(validating: payload.span.bytes)
    }

    let model = WiFiP2P(
      wscAttributes: wscBytes,
      p2pAttributes: p2p.map { P2PAttributeValue(id: P2PAttributeID(rawValue: UInt8($0.0)), value: $0.1) })
    let ours = try model.payload()
    var swapped = payload
    var position = firstAttribute
    for (_, value) in p2p {
      swapped.swapAt(position + 1, position + 2)
      position += 3 + value.count
    }
    #expect(position == payload.count)
    #expect(ours == swapped)

    // Tapwire's bytes decode to ndeflib's values, WSC attributes and device info included.
    let view = try WiFiP2PView(validating: ours.span.bytes)
    var decodedWSC: [(Int, [UInt8])] = []
    var wscIterator = view.wscAttributes
    while let attribute = wscIterator.next() {
      decodedWSC.append((Int(attribute.type.rawValue), attribute.value.copiedBytes()))
    }
    #expect(decodedWSC.map(\.0) == wsc.map(\.0))
    #expect(decodedWSC.map(\.1) == wsc.map(\.1))
    #expect(WiFiP2P(view) == model)
    let deviceInfo = view.deviceInfo
    let info = try #require(deviceInfo)
    #expect(Self.quoted(String(decoding: info.deviceName, as: UTF8.self)) == expect["deviceName"])
    #expect(
      Self.quoted(info.deviceAddress.map { Hex.string([$0]).uppercased() }.joined(separator: ":"))
        == expect["deviceAddress"])
    #expect("\(info.configMethods)" == expect["configMethods"])
  }
}
