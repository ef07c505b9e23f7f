// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire

/// A Bluetooth BR/EDR OOB payload (`application/vnd.bluetooth.ep.oob`, Bluetooth Secure
/// Simple Pairing Using NFC 1.x, §3.1): a 2-byte little-endian OOB Data Length counting
/// the whole payload, the 6-byte BD_ADDR (little-endian), then EIR data in AD structure
/// format, parsed with the BLEAdvertising module's AD parser.
public struct BluetoothEPOOBView: ~Escapable {
  /// The media type `application/vnd.bluetooth.ep.oob`.
  public static let type: [UInt8] = Array("application/vnd.bluetooth.ep.oob".utf8)
  /// OOB Data Length and BD_ADDR.
  public static let fixedCount = 8

  /// The OOB Data Length field.
  public let oobDataLength: Int
  /// The device address.
  public let address: BluetoothAddress
  /// The EIR data.
  public let advertising: AdvertisingDataView
  /// Lenient-mode warnings.
  public let warnings: [NDEFWarning]

  /// Decodes an EP OOB payload.
  ///
  /// - Throws: `bluetoothOOBTruncated`, `bluetoothOOBLengthMismatch` (a warning in
  ///   lenient mode, where the payload length is used), `invalidAdvertisingData` with the
  ///   offset of the bad AD structure.
  @_lifetime(copy payload)
  public init(validating payload: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict)
    throws(NDEFError)
  {
    var sink = WarningSink(lenient: options.isLenient)
    var reader = ByteReader(payload, baseOffset: baseOffset)
    guard payload.byteCount >= Self.fixedCount, let length = reader.readUInt16LE(),
      let addressBytes = reader.readSpan(count: 6), let address = BluetoothAddress(littleEndian: addressBytes)
    else { throw NDEFError(.bluetoothOOBTruncated, offset: baseOffset) }
    var end = payload.byteCount
    if Int(length) != payload.byteCount {
      try sink.report(.bluetoothOOBLengthMismatch, at: baseOffset)
      end = max(Self.fixedCount, min(Int(length), payload.byteCount))
    }
    let eir = payload.extracting(Self.fixedCount..<end)
    self.advertising = try adView(
      eir, baseOffset: baseOffset &+ Self.fixedCount, options: options, sink: &sink)
    self.oobDataLength = Int(length)
    self.address = address
    self.warnings = sink.warnings
  }
}

/// Parses AD structures with the BLEAdvertising module, mapping its errors and warnings.
@_lifetime(copy bytes)
func adView(_ bytes: RawSpan, baseOffset: Int, options: NDEFDecodingOptions, sink: inout WarningSink)
  throws(NDEFError) -> AdvertisingDataView
{
  let adOptions: BLEAdvertisingOptions = options.isLenient ? .lenient : .strict
  let view: AdvertisingDataView
  do {
    view = try AdvertisingDataView(validating: bytes, baseOffset: baseOffset, options: adOptions)
  } catch {
    throw NDEFError(.invalidAdvertisingData, offset: error.offset)
  }
  for warning in view.warnings { try sink.report(.invalidAdvertisingData, at: warning.offset) }
  return view
}

/// A Bluetooth LE OOB payload (`application/vnd.bluetooth.le.oob`, Bluetooth Secure
/// Simple Pairing Using NFC, §3.2): AD structures, among them the LE Bluetooth Device
/// Address (required), LE Role, Security Manager TK value and flags, appearance and name.
public struct BluetoothLEOOBView: ~Escapable {
  /// The media type `application/vnd.bluetooth.le.oob`.
  public static let type: [UInt8] = Array("application/vnd.bluetooth.le.oob".utf8)

  /// The AD structures.
  public let advertising: AdvertisingDataView
  /// The LE device address.
  public let address: BluetoothAddress
  /// Whether the address is random (the address type byte's bit 0).
  public let isRandomAddress: Bool
  /// The LE Role, when present.
  public let role: LERole?
  /// Lenient-mode warnings.
  public let warnings: [NDEFWarning]

  /// Decodes an LE OOB payload.
  ///
  /// - Throws: `invalidAdvertisingData`, `bluetoothOOBMissingAddress`.
  @_lifetime(copy payload)
  public init(validating payload: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict)
    throws(NDEFError)
  {
    var sink = WarningSink(lenient: options.isLenient)
    let view = try adView(payload, baseOffset: baseOffset, options: options, sink: &sink)
    var address: BluetoothAddress? = nil
    var random = false
    var role: LERole? = nil
    var structures = view.structures
    while let structure = structures.next() {
      if structure.type == .leDeviceAddress, structure.data.byteCount == 7,
        let parsed = BluetoothAddress(littleEndian: structure.data.extracting(0..<6))
      {
        address = parsed
        random = (structure.data.byte(at: 6) ?? 0) & 0x01 != 0
      } else if structure.type == .leRole, structure.data.byteCount == 1,
        let value = structure.data.byte(at: 0)
      {
        role = LERole(rawValue: value)
      }
    }
    guard let address else { throw NDEFError(.bluetoothOOBMissingAddress, offset: baseOffset) }
    self.advertising = view
    self.address = address
    self.isRandomAddress = random
    self.role = role
    self.warnings = sink.warnings
  }
}

/// An owned Bluetooth OOB record for building (EP: address and EIR; LE: AD structures).
public struct BluetoothOOB: Sendable, Hashable {
  /// The device address.
  public var address: BluetoothAddress
  /// EIR / AD data (for LE, the LE Bluetooth Device Address structure is added first).
  public var advertising: AdvertisingData
  /// Whether this is an LE OOB record (else BR/EDR EP OOB).
  public var isLowEnergy: Bool
  /// For LE: whether the address is random.
  public var isRandomAddress: Bool

  /// Creates a Bluetooth OOB record model.
  public init(
    address: BluetoothAddress, advertising: AdvertisingData = AdvertisingData(), isLowEnergy: Bool = false,
    isRandomAddress: Bool = false
  ) {
    self.address = address
    self.advertising = advertising
    self.isLowEnergy = isLowEnergy
    self.isRandomAddress = isRandomAddress
  }

  /// The payload.
  ///
  /// - Throws: `invalidAdvertisingData` when the AD data cannot be encoded.
  public func payload() throws(NDEFError) -> [UInt8] {
    let ad: [UInt8]
    do { ad = try advertising.encodedBytes(budget: AdvertisingBudget(maximumSize: 0xFFFF - 8)) } catch {
      throw NDEFError(.invalidAdvertisingData, offset: error.offset)
    }
    if isLowEnergy {
      return [8, ADType.leDeviceAddress.rawValue] + address.littleEndianBytes + [isRandomAddress ? 1 : 0] + ad
    }
    let length = BluetoothEPOOBView.fixedCount + ad.count
    return [UInt8(length & 0xFF), UInt8(length >> 8)] + address.littleEndianBytes + ad
  }

  /// The NDEF record (TNF Media, EP or LE OOB type).
  public func record(id: [UInt8] = []) throws(NDEFError) -> NDEFRecord {
    NDEFRecord(
      typeNameFormat: .media, type: isLowEnergy ? BluetoothLEOOBView.type : BluetoothEPOOBView.type, id: id,
      payload: try payload())
  }
}
