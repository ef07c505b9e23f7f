// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The file control information returned by SELECT (ISO/IEC 7816-4:2013 §5.3.3; for a
/// GlobalPlatform security domain, Card Specification 2.3 §11.9.3.1): template `6F` with
/// the DF name `84` and proprietary data `A5`.
public struct FileControlInformation: Sendable, Hashable {
  /// `84`: the DF name, the selected AID.
  public var dfName: [UInt8]?
  /// `A5`: the proprietary data objects, as read.
  public var proprietaryData: [BERTLV]
  /// `9F65` in `A5`: the maximum length of the command data field the card accepts.
  public var maximumCommandDataLength: Int?
  /// `9F6E` in `A5`: application production life cycle data.
  public var applicationProductionLifeCycle: [UInt8]?

  /// Reads an FCI from a SELECT response data field.
  ///
  /// - Throws: the BER-TLV errors and ``APDUError/Code/unexpectedTag`` when the data is not
  ///   a `6F` template.
  public init(parsing data: [UInt8], baseOffset: Int = 0) throws(APDUError) {
    let fci = try BERTLVView(validating: data.span.bytes, baseOffset: baseOffset)
    guard fci.tag == .fileControlInformation else {
      throw APDUError(.unexpectedTag, offset: fci.offset)
    }
    dfName = fci.child(.dfName)?.value.copiedBytes()
    proprietaryData = []
    maximumCommandDataLength = nil
    applicationProductionLifeCycle = nil
    if let proprietary = fci.child(.proprietaryTemplate) {
      var children = proprietary.children
      while let child = children.next() {
        proprietaryData.append(BERTLV(child))
        if child.tag == .maximumCommandDataLength, child.length >= 1, child.length <= 4 {
          var value = 0
          for index in 0..<child.length { value = value << 8 | Int(child.value.byte(at: index) ?? 0) }
          maximumCommandDataLength = value
        } else if child.tag == .applicationProductionLifeCycle {
          applicationProductionLifeCycle = child.value.copiedBytes()
        }
      }
    }
  }
}
