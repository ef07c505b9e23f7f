// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One HCI event packet over the caller's bytes: Event_Code, Parameter_Total_Length and
/// the parameters (Core Vol 4 Part E §5.4.4), without an H4 packet-type octet.
public struct HCIEventView: ~Escapable {
  /// The event code.
  public let eventCode: UInt8
  /// The event parameters.
  public let parameters: RawSpan
  /// Absolute offset of the Event_Code octet.
  public let offset: Int

  /// The LE Meta event code (Core Vol 4 Part E §7.7.65).
  public static let leMetaEventCode: UInt8 = 0x3E
  /// LE Advertising Report subevent (§7.7.65.2).
  public static let leAdvertisingReportSubevent: UInt8 = 0x02
  /// LE Extended Advertising Report subevent (§7.7.65.13).
  public static let leExtendedAdvertisingReportSubevent: UInt8 = 0x0D

  /// Validates the event header.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/emptyInput``,
  ///   ``BLEAdvertisingError/Code/truncatedEventHeader``,
  ///   ``BLEAdvertisingError/Code/eventLengthMismatch`` (at the length octet) when the
  ///   parameters are shorter or longer than Parameter_Total_Length.
  @_lifetime(copy bytes)
  public init(validating bytes: RawSpan, baseOffset: Int = 0) throws(BLEAdvertisingError) {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    guard let code = reader.readUInt8() else {
      throw BLEAdvertisingError(.emptyInput, offset: baseOffset)
    }
    guard let length = reader.readUInt8() else {
      throw BLEAdvertisingError(.truncatedEventHeader, offset: reader.offset)
    }
    guard reader.remaining == Int(length), let parameters = reader.readSpan(count: Int(length))
    else { throw BLEAdvertisingError(.eventLengthMismatch, offset: baseOffset &+ 1) }
    self.eventCode = code
    self.parameters = parameters
    self.offset = baseOffset
  }

  /// Absolute offset of the first parameter octet.
  public var parametersOffset: Int { offset &+ 2 }

  /// The LE Meta subevent code, when this is an LE Meta event with parameters.
  public var subeventCode: UInt8? {
    eventCode == Self.leMetaEventCode ? parameters.byte(at: 0) : nil
  }

  /// Whether this is an LE Advertising Report or LE Extended Advertising Report event.
  public var isAdvertisingReport: Bool {
    subeventCode == Self.leAdvertisingReportSubevent
      || subeventCode == Self.leExtendedAdvertisingReportSubevent
  }

  /// Whether raw event bytes (not yet validated) start like an LE Advertising Report or LE
  /// Extended Advertising Report event: the LE Meta code and, after the length, the subevent.
  package static func startsAdvertisingReport(_ event: RawSpan) -> Bool {
    guard event.byte(at: 0) == leMetaEventCode, let sub = event.byte(at: 2) else { return false }
    return sub == leAdvertisingReportSubevent || sub == leExtendedAdvertisingReportSubevent
  }
}
