// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A response scripting template of ETSI TS 102 226 §5.2.2 (expanded format): what the
/// card side returns for a command script, in tag `AB` (definite) or `AF` (indefinite).
public struct RemoteResponseScript: Sendable, Hashable {
  /// `80`: the number of C-APDUs executed (the failing one included).
  public var executedCount: Int
  /// `23`: the R-APDUs (data and status word), in order.
  public var responses: [ResponseAPDU]
  /// `81`: the Immediate Action Response TLV's value, when present.
  public var immediateActionResponse: [UInt8]?
  /// `90`: the Bad Format TLV's value, when present.
  public var badFormat: [UInt8]?

  /// Tag `AB`: response scripting template, definite length.
  public static let definiteTag: UInt8 = 0xAB
  /// Tag `AF`: response scripting template, indefinite length.
  public static let indefiniteTag: UInt8 = 0xAF
  /// Tag `80`: number of executed C-APDUs.
  public static let executedCountTag: UInt8 = 0x80
  /// Tag `23`: R-APDU TLV.
  public static let responseTag: UInt8 = 0x23

  /// Creates a response script.
  public init(
    executedCount: Int, responses: [ResponseAPDU], immediateActionResponse: [UInt8]? = nil,
    badFormat: [UInt8]? = nil
  ) {
    self.executedCount = executedCount
    self.responses = responses
    self.immediateActionResponse = immediateActionResponse
    self.badFormat = badFormat
  }

  /// Parses a response scripting template that fills `bytes`.
  ///
  /// - Throws: ``APDUError/Code/unexpectedTag``, the BER-TLV header errors,
  ///   ``APDUError/Code/trailingData``, ``APDUError/Code/missingDataObject`` without an
  ///   `80` TLV, ``APDUError/Code/invalidDataObject`` for an `80` of 0 or more than 4 bytes,
  ///   ``APDUError/Code/truncatedStatusWord`` for an R-APDU under two bytes.
  public init(parsing bytes: [UInt8], baseOffset: Int = 0) throws(APDUError) {
    let items = try RemoteAPDUTemplate.items(
      bytes.span.bytes, baseOffset: baseOffset, definite: Self.definiteTag,
      indefinite: Self.indefiniteTag)
    var count: Int? = nil
    var result = RemoteResponseScript(executedCount: 0, responses: [])
    for item in items {
      switch item.tag {
      case Self.executedCountTag:
        guard !item.value.isEmpty, item.value.count <= 4 else {
          throw APDUError(.invalidDataObject, offset: item.offset)
        }
        count = item.value.reduce(0) { $0 << 8 | Int($1) }
      case Self.responseTag:
        let view = try ResponseAPDUView(validating: item.value.span.bytes, baseOffset: item.valueOffset)
        result.responses.append(ResponseAPDU(view))
      case 0x81: result.immediateActionResponse = item.value
      case 0x90: result.badFormat = item.value
      default: throw APDUError(.unexpectedTag, offset: item.offset)
      }
    }
    guard let count else { throw APDUError(.missingDataObject, offset: baseOffset) }
    result.executedCount = count
    self = result
  }

  /// The template in the definite-length form `AB`: `80` (one byte up to 255, more bytes
  /// beyond), then the `23` TLVs, then `81` and `90` when present.
  public func encodedBytes() -> [UInt8] {
    var countBytes: [UInt8] = []
    var value = max(executedCount, 0)
    repeat {
      countBytes.insert(UInt8(truncatingIfNeeded: value), at: 0)
      value >>= 8
    } while value > 0
    var items: [(UInt8, [UInt8])] = [(Self.executedCountTag, countBytes)]
    for response in responses { items.append((Self.responseTag, response.encodedBytes())) }
    if let immediateActionResponse { items.append((0x81, immediateActionResponse)) }
    if let badFormat { items.append((0x90, badFormat)) }
    return RemoteAPDUTemplate.encode(tag: Self.definiteTag, items: items)
  }
}
