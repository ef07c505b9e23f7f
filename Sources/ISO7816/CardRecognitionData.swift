// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// GlobalPlatform card recognition data: the value of GET DATA `0066` (Card Specification
/// 2.3 §H.2): `66 { 73 { 06 OID, 60 {06 version}, 63 {06 scheme}, 64 {06 SCP}, ... } }`.
public struct CardRecognitionData: Sendable, Hashable {
  /// A secure channel protocol the card supports, from an OID
  /// `1.2.840.114283.4.<protocol>.<implementation>` under tag `64`.
  public struct SecureChannelProtocol: Sendable, Hashable {
    /// The protocol number, e.g. 2 for SCP02, 3 for SCP03.
    public var number: UInt32
    /// The implementation option "i", e.g. 0x55 or 0x10.
    public var implementation: UInt32
    /// Creates a protocol entry.
    public init(number: UInt32, implementation: UInt32) {
      self.number = number
      self.implementation = implementation
    }
  }

  /// The GlobalPlatform version from `60`: the OID components after `1.2.840.114283.2`,
  /// e.g. `[2, 3]` for version 2.3.
  public var globalPlatformVersion: [UInt32]?
  /// The card identification scheme OID from `63`, all components.
  public var cardIdentificationScheme: [UInt32]?
  /// The secure channel protocols from every `64`.
  public var secureChannelProtocols: [SecureChannelProtocol]
  /// Every object inside `73`, as read (card configuration and chip details, trust points).
  public var objects: [BERTLV]

  /// 1.2.840.114283: the GlobalPlatform OID arc.
  static let arc: [UInt32] = [1, 2, 840, 114283]

  /// Reads card recognition data from a GET DATA response field (`66` wrapping `73`, or `73`
  /// alone).
  ///
  /// - Throws: the BER-TLV errors, ``APDUError/Code/unexpectedTag`` for another outer tag,
  ///   ``APDUError/Code/missingDataObject`` without `73`, ``APDUError/Code/invalidDataObject``
  ///   for an OID that does not decode.
  public init(parsing data: [UInt8], baseOffset: Int = 0) throws(APDUError) {
    let outer = try BERTLVView(validating: data.span.bytes, baseOffset: baseOffset)
    var globalPlatformVersion: [UInt32]? = nil
    var scheme: [UInt32]? = nil
    var protocols: [SecureChannelProtocol] = []
    var objects: [BERTLV] = []
    func read(_ template: borrowing BERTLVView) throws(APDUError) {
      var children = template.children
      while let child = children.next() {
        objects.append(BERTLV(child))
        guard child.tag.rawValue == 0x60 || child.tag.rawValue == 0x63 || child.tag.rawValue == 0x64
        else { continue }
        guard let oid = child.child(BERTag(unchecked: 0x06)) else { continue }
        guard let components = ObjectIdentifierCoding.decode(oid.value) else {
          throw APDUError(.invalidDataObject, offset: oid.offset)
        }
        let hasArc = components.count > 5 && Array(components[0..<4]) == Self.arc
        switch child.tag.rawValue {
        case 0x60 where hasArc && components[4] == 2: globalPlatformVersion = Array(components[5...])
        case 0x63: scheme = components
        case 0x64 where hasArc && components[4] == 4 && components.count >= 6:
          protocols.append(
            SecureChannelProtocol(
              number: components[5], implementation: components.count > 6 ? components[6] : 0))
        default: break
        }
      }
    }
    if outer.tag == .cardData {
      guard let template = outer.child(.discretionaryTemplate) else {
        throw APDUError(.missingDataObject, offset: outer.offset)
      }
      try read(template)
    } else if outer.tag == .discretionaryTemplate {
      try read(outer)
    } else {
      throw APDUError(.unexpectedTag, offset: outer.offset)
    }
    self.globalPlatformVersion = globalPlatformVersion
    self.cardIdentificationScheme = scheme
    self.secureChannelProtocols = protocols
    self.objects = objects
  }
}

/// Object identifier contents (ISO/IEC 8825-1 §8.19).
enum ObjectIdentifierCoding {
  /// The components of an OID's contents, or `nil` when malformed (empty, a component that
  /// does not end or overflows 32 bits, a leading 0x80).
  static func decode(_ bytes: RawSpan) -> [UInt32]? {
    var components: [UInt32] = []
    var value: UInt32 = 0
    var started = false
    for index in 0..<bytes.byteCount {
      guard let byte = bytes.byte(at: index) else { return nil }
      if !started && byte == 0x80 { return nil }
      guard value >> 25 == 0 else { return nil }
      value = value << 7 | UInt32(byte & 0x7F)
      started = true
      if byte & 0x80 == 0 {
        if components.isEmpty {
          let first: UInt32 = value < 40 ? 0 : (value < 80 ? 1 : 2)
          components.append(first)
          components.append(value - first * 40)
        } else {
          components.append(value)
        }
        value = 0
        started = false
      }
    }
    return started || components.isEmpty ? nil : components
  }
}
