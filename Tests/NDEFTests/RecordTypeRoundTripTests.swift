// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NDEF
import Testing

/// Seeded round trips for every record type: model → payload → view → model.
@Suite("Record type round trips")
struct RecordTypeRoundTripTests {
  static let seed: UInt64 = 0x5EED_2026

  static func string(_ rng: inout SeededGenerator, maxLength: Int = 12) -> String {
    let alphabet = Array("abcXYZ09 -_.:/?ßéあ😀")
    return String(
      (0..<Int.random(in: 0...maxLength, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
  }

  static func bytes(_ rng: inout SeededGenerator, _ range: ClosedRange<Int>) -> [UInt8] {
    (0..<Int.random(in: range, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
  }

  @Test func textURIAndSmartPoster() throws {
    print("record type round trip seed: \(Self.seed)")
    var rng = SeededGenerator(seed: Self.seed)
    let languages = ["en", "en-US", "de", "fr-CA", "ja", "zh-Hant-TW"]
    for _ in 0..<500 {
      let text = TextRecord(
        language: languages.randomElement(using: &rng)!, text: Self.string(&rng),
        encoding: Bool.random(using: &rng) ? .utf8 : .utf16)
      let decoded1 = try TextRecord(parsing: text.payload())

      #expect(decoded1 == text)

      let prefix = URIRecordView.prefixes.randomElement(using: &rng)!
      let uri = URIRecord(prefix + Self.string(&rng))
      let decoded2 = URIRecord(try URIRecordView(validating: uri.payload.span.bytes))

      #expect(decoded2 == uri)

      let titles = languages.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng)).map {
        TextRecord(language: $0, text: Self.string(&rng))
      }
      let poster = SmartPoster(
        uri: uri.uri, titles: Array(titles),
        action: Bool.random(using: &rng)
          ? SmartPosterAction(rawValue: UInt8.random(in: 0...2, using: &rng)) : nil,
        size: Bool.random(using: &rng) ? UInt32.random(in: 0...UInt32.max, using: &rng) : nil,
        mimeType: Bool.random(using: &rng) ? "image/png" : nil)
      let payload = try poster.record().payload
      let decoded3 = try SmartPoster(SmartPosterView(validating: payload.span.bytes))

      #expect(decoded3 == poster)
    }
  }

  @Test func handoverWiFiSignatureDeviceInformationBluetooth() throws {
    var rng = SeededGenerator(seed: Self.seed &+ 1)
    for _ in 0..<500 {
      var carriers: [AlternativeCarrier] = []
      for _ in 0..<Int.random(in: 1...3, using: &rng) {
        var auxiliary: [[UInt8]] = []
        for _ in 0..<Int.random(in: 0...2, using: &rng) { auxiliary.append(Self.bytes(&rng, 1...3)) }
        let state = CarrierPowerState(rawValue: UInt8.random(in: 0...3, using: &rng))
        carriers.append(
          AlternativeCarrier(
            powerState: state, dataReference: Self.bytes(&rng, 1...4), auxiliaryDataReferences: auxiliary))
      }
      let kind = HandoverKind.all.randomElement(using: &rng)!
      let collision: UInt16? = kind == .request ? UInt16.random(in: 0...UInt16.max, using: &rng) : nil
      let handover = Handover(
        kind: kind, minorVersion: UInt8.random(in: 2...5, using: &rng), alternativeCarriers: carriers,
        collisionResolution: collision)
      let handoverPayload = try handover.payload()
      let handoverView = try HandoverView(validating: handoverPayload.span.bytes, kind: kind)
      let decodedHandover = Handover(handoverView)
      #expect(decodedHandover == handover)

      let credential = WiFiCredential(
        networkIndex: 1, ssid: Self.bytes(&rng, 1...32), authentication: .wpa2Personal, encryption: .aes,
        networkKey: Self.bytes(&rng, 8...64), macAddress: Self.bytes(&rng, 6...6))
      let token = WiFiSimpleConfig(credentials: [credential], version2: 0x20)
      let tokenPayload = token.payload
      let credentials = try WiFiSimpleConfigView(validating: tokenPayload.span.bytes).credentials()
      #expect(credentials == [credential])

      var certificates: [[UInt8]] = []
      for _ in 0..<Int.random(in: 0...3, using: &rng) { certificates.append(Self.bytes(&rng, 0...40)) }
      let signature = SignatureRecord(
        signatureType: UInt8.random(in: 0...0x7F, using: &rng), hashType: 2,
        signature: Self.bytes(&rng, 0...80),
        certificateFormat: UInt8.random(in: 0...7, using: &rng), certificates: certificates,
        certificateURI: Bool.random(using: &rng) ? Array("https://c.example".utf8) : nil)
      let signaturePayload = try signature.payload()
      let signatureView = try SignatureRecordView(validating: signaturePayload.span.bytes)
      let decodedSignature = SignatureRecord(signatureView)
      #expect(decodedSignature == signature)

      let unique: String? = Bool.random(using: &rng) ? Self.string(&rng) : nil
      let uuid: [UInt8]? = Bool.random(using: &rng) ? Self.bytes(&rng, 16...16) : nil
      let firmware: String? = Bool.random(using: &rng) ? Self.string(&rng) : nil
      let device = DeviceInformation(
        manufacturer: "M" + Self.string(&rng), model: "R" + Self.string(&rng), uniqueName: unique, uuid: uuid,
        firmwareVersion: firmware)
      let devicePayload = try device.payload()
      let deviceView = try DeviceInformationView(validating: devicePayload.span.bytes)
      let decodedDevice = DeviceInformation(deviceView)
      #expect(decodedDevice == device)

      let name = Self.string(&rng, maxLength: 20)
      let oob = BluetoothOOB(
        address: BluetoothAddress(UInt64.random(in: 0...UInt64.max, using: &rng)),
        advertising: AdvertisingData(values: [.localName(name, complete: true)]))
      let oobPayload = try oob.payload()
      let oobView = try BluetoothEPOOBView(validating: oobPayload.span.bytes)
      let address = oobView.address
      let decodedName = AdvertisingData(oobView.advertising).localName
      #expect(address == oob.address)
      #expect(decodedName == (name.isEmpty ? decodedName : name))
    }
  }

  /// Wi-Fi P2P carriers: random WSC attributes and P2P attributes (Device Info among them),
  /// model → payload → view → model, and the canonical payload byte for byte.
  @Test func wifiP2P() throws {
    var rng = SeededGenerator(seed: Self.seed &+ 2)
    for _ in 0..<500 {
      var wsc: [UInt8] = []
      for _ in 0..<Int.random(in: 0...4, using: &rng) {
        let value = Self.bytes(&rng, 0...20)
        wsc += [0x10, UInt8.random(in: 0...0xFF, using: &rng), 0x00, UInt8(value.count)] + value
      }
      var attributes: [P2PAttributeValue] = []
      for _ in 0..<Int.random(in: 0...4, using: &rng) {
        if Bool.random(using: &rng) {
          let info = P2PDeviceInfo(
            deviceAddress: Self.bytes(&rng, 6...6), configMethods: UInt16.random(in: 0...0xFFFF, using: &rng),
            primaryDeviceType: Self.bytes(&rng, 8...8),
            secondaryDeviceTypes: (0..<Int.random(in: 0...2, using: &rng)).map { _ in Self.bytes(&rng, 8...8)
            },
            deviceName: Array(Self.string(&rng).utf8))
          attributes.append(P2PAttributeValue(id: .deviceInfo, value: info.encodedValue))
        } else {
          let id = P2PAttributeID(rawValue: [2, 15, 19, 0xDD].randomElement(using: &rng)!)
          attributes.append(P2PAttributeValue(id: id, value: Self.bytes(&rng, 0...300)))
        }
      }
      let model = WiFiP2P(wscAttributes: wsc, p2pAttributes: attributes)
      let payload = try model.payload()
      let view = try WiFiP2PView(validating: payload.span.bytes)
      let decoded = WiFiP2P(view)
      #expect(decoded == model)
      #expect(try decoded.payload() == payload)
    }
  }
}
