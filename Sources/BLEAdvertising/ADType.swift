// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The AD type octet of an AD structure (Bluetooth Assigned Numbers §2.3 "Common Data
/// Types", formats in Core Specification Supplement Part A).
///
/// A `RawRepresentable` struct rather than an enum: every octet value is representable
/// and unknown types survive a round trip.
public struct ADType: RawRepresentable, Sendable, Hashable {
  /// The AD type octet.
  public let rawValue: UInt8

  /// Creates an AD type from its octet.
  @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x01 «Flags» (CSS Part A §1.3).
  @inlinable public static var flags: ADType { ADType(rawValue: 0x01) }
  /// 0x02 «Incomplete List of 16-bit Service or Service Class UUIDs» (CSS Part A §1.1).
  @inlinable public static var incompleteServiceUUIDs16: ADType { ADType(rawValue: 0x02) }
  /// 0x03 «Complete List of 16-bit Service or Service Class UUIDs» (CSS Part A §1.1).
  @inlinable public static var completeServiceUUIDs16: ADType { ADType(rawValue: 0x03) }
  /// 0x04 «Incomplete List of 32-bit Service or Service Class UUIDs» (CSS Part A §1.1).
  @inlinable public static var incompleteServiceUUIDs32: ADType { ADType(rawValue: 0x04) }
  /// 0x05 «Complete List of 32-bit Service or Service Class UUIDs» (CSS Part A §1.1).
  @inlinable public static var completeServiceUUIDs32: ADType { ADType(rawValue: 0x05) }
  /// 0x06 «Incomplete List of 128-bit Service or Service Class UUIDs» (CSS Part A §1.1).
  @inlinable public static var incompleteServiceUUIDs128: ADType { ADType(rawValue: 0x06) }
  /// 0x07 «Complete List of 128-bit Service or Service Class UUIDs» (CSS Part A §1.1).
  @inlinable public static var completeServiceUUIDs128: ADType { ADType(rawValue: 0x07) }
  /// 0x08 «Shortened Local Name» (CSS Part A §1.2).
  @inlinable public static var shortenedLocalName: ADType { ADType(rawValue: 0x08) }
  /// 0x09 «Complete Local Name» (CSS Part A §1.2).
  @inlinable public static var completeLocalName: ADType { ADType(rawValue: 0x09) }
  /// 0x0A «Tx Power Level» (CSS Part A §1.5).
  @inlinable public static var txPowerLevel: ADType { ADType(rawValue: 0x0A) }
  /// 0x0D «Class of Device» (CSS Part A §1.6).
  @inlinable public static var classOfDevice: ADType { ADType(rawValue: 0x0D) }
  /// 0x0E «Simple Pairing Hash C-192» (CSS Part A §1.6).
  @inlinable public static var simplePairingHashC192: ADType { ADType(rawValue: 0x0E) }
  /// 0x0F «Simple Pairing Randomizer R-192» (CSS Part A §1.6).
  @inlinable public static var simplePairingRandomizerR192: ADType { ADType(rawValue: 0x0F) }
  /// 0x10 «Security Manager TK Value» (CSS Part A §1.8; «Device ID» in EIR).
  @inlinable public static var securityManagerTKValue: ADType { ADType(rawValue: 0x10) }
  /// 0x11 «Security Manager Out of Band Flags» (CSS Part A §1.7).
  @inlinable public static var securityManagerOOBFlags: ADType { ADType(rawValue: 0x11) }
  /// 0x12 «Peripheral Connection Interval Range» (CSS Part A §1.9).
  @inlinable public static var peripheralConnectionIntervalRange: ADType { ADType(rawValue: 0x12) }
  /// 0x14 «List of 16-bit Service Solicitation UUIDs» (CSS Part A §1.10).
  @inlinable public static var serviceSolicitationUUIDs16: ADType { ADType(rawValue: 0x14) }
  /// 0x15 «List of 128-bit Service Solicitation UUIDs» (CSS Part A §1.10).
  @inlinable public static var serviceSolicitationUUIDs128: ADType { ADType(rawValue: 0x15) }
  /// 0x16 «Service Data - 16-bit UUID» (CSS Part A §1.11).
  @inlinable public static var serviceData16: ADType { ADType(rawValue: 0x16) }
  /// 0x17 «Public Target Address» (CSS Part A §1.13).
  @inlinable public static var publicTargetAddress: ADType { ADType(rawValue: 0x17) }
  /// 0x18 «Random Target Address» (CSS Part A §1.14).
  @inlinable public static var randomTargetAddress: ADType { ADType(rawValue: 0x18) }
  /// 0x19 «Appearance» (CSS Part A §1.12).
  @inlinable public static var appearance: ADType { ADType(rawValue: 0x19) }
  /// 0x1A «Advertising Interval» (CSS Part A §1.15).
  @inlinable public static var advertisingInterval: ADType { ADType(rawValue: 0x1A) }
  /// 0x1B «LE Bluetooth Device Address» (CSS Part A §1.16).
  @inlinable public static var leDeviceAddress: ADType { ADType(rawValue: 0x1B) }
  /// 0x1C «LE Role» (CSS Part A §1.17).
  @inlinable public static var leRole: ADType { ADType(rawValue: 0x1C) }
  /// 0x1D «Simple Pairing Hash C-256» (CSS Part A §1.6).
  @inlinable public static var simplePairingHashC256: ADType { ADType(rawValue: 0x1D) }
  /// 0x1E «Simple Pairing Randomizer R-256» (CSS Part A §1.6).
  @inlinable public static var simplePairingRandomizerR256: ADType { ADType(rawValue: 0x1E) }
  /// 0x1F «List of 32-bit Service Solicitation UUIDs» (CSS Part A §1.10).
  @inlinable public static var serviceSolicitationUUIDs32: ADType { ADType(rawValue: 0x1F) }
  /// 0x20 «Service Data - 32-bit UUID» (CSS Part A §1.11).
  @inlinable public static var serviceData32: ADType { ADType(rawValue: 0x20) }
  /// 0x21 «Service Data - 128-bit UUID» (CSS Part A §1.11).
  @inlinable public static var serviceData128: ADType { ADType(rawValue: 0x21) }
  /// 0x22 «LE Secure Connections Confirmation Value» (CSS Part A §1.6).
  @inlinable public static var leSecureConnectionsConfirmationValue: ADType { ADType(rawValue: 0x22) }
  /// 0x23 «LE Secure Connections Random Value» (CSS Part A §1.6).
  @inlinable public static var leSecureConnectionsRandomValue: ADType { ADType(rawValue: 0x23) }
  /// 0x24 «URI» (CSS Part A §1.18).
  @inlinable public static var uri: ADType { ADType(rawValue: 0x24) }
  /// 0x25 «Indoor Positioning» (Indoor Positioning Service).
  @inlinable public static var indoorPositioning: ADType { ADType(rawValue: 0x25) }
  /// 0x26 «Transport Discovery Data» (Transport Discovery Service).
  @inlinable public static var transportDiscoveryData: ADType { ADType(rawValue: 0x26) }
  /// 0x27 «LE Supported Features» (CSS Part A §1.19).
  @inlinable public static var leSupportedFeatures: ADType { ADType(rawValue: 0x27) }
  /// 0x28 «Channel Map Update Indication» (CSS Part A §1.20).
  @inlinable public static var channelMapUpdateIndication: ADType { ADType(rawValue: 0x28) }
  /// 0x29 «PB-ADV» (Mesh Profile).
  @inlinable public static var pbADV: ADType { ADType(rawValue: 0x29) }
  /// 0x2A «Mesh Message» (Mesh Profile).
  @inlinable public static var meshMessage: ADType { ADType(rawValue: 0x2A) }
  /// 0x2B «Mesh Beacon» (Mesh Profile).
  @inlinable public static var meshBeacon: ADType { ADType(rawValue: 0x2B) }
  /// 0x2C «BIGInfo» (CSS Part A §1.21).
  @inlinable public static var bigInfo: ADType { ADType(rawValue: 0x2C) }
  /// 0x2D «Broadcast_Code» (CSS Part A §1.22).
  @inlinable public static var broadcastCode: ADType { ADType(rawValue: 0x2D) }
  /// 0x2E «Resolvable Set Identifier» (Coordinated Set Identification Profile).
  @inlinable public static var resolvableSetIdentifier: ADType { ADType(rawValue: 0x2E) }
  /// 0x2F «Advertising Interval - long» (CSS Part A §1.15).
  @inlinable public static var advertisingIntervalLong: ADType { ADType(rawValue: 0x2F) }
  /// 0x30 «Broadcast_Name» (Public Broadcast Profile).
  @inlinable public static var broadcastName: ADType { ADType(rawValue: 0x30) }
  /// 0x31 «Encrypted Advertising Data» (CSS Part A §1.23).
  @inlinable public static var encryptedAdvertisingData: ADType { ADType(rawValue: 0x31) }
  /// 0x32 «Periodic Advertising Response Timing Information» (CSS Part A §1.24).
  @inlinable public static var periodicAdvertisingResponseTimingInformation: ADType { ADType(rawValue: 0x32) }
  /// 0x34 «Electronic Shelf Label» (ESL Profile).
  @inlinable public static var electronicShelfLabel: ADType { ADType(rawValue: 0x34) }
  /// 0x3D «3D Information Data» (3D Synchronization Profile).
  @inlinable public static var threeDInformationData: ADType { ADType(rawValue: 0x3D) }
  /// 0xFF «Manufacturer Specific Data» (CSS Part A §1.4).
  @inlinable public static var manufacturerSpecificData: ADType { ADType(rawValue: 0xFF) }

  /// The camelCase name used by the JSON contract (`typeName`), or `unknown` for a value
  /// without an assigned name.
  public var name: String {
    switch rawValue {
    case 0x01: return "flags"
    case 0x02: return "incompleteServiceUUIDs16"
    case 0x03: return "completeServiceUUIDs16"
    case 0x04: return "incompleteServiceUUIDs32"
    case 0x05: return "completeServiceUUIDs32"
    case 0x06: return "incompleteServiceUUIDs128"
    case 0x07: return "completeServiceUUIDs128"
    case 0x08: return "shortenedLocalName"
    case 0x09: return "completeLocalName"
    case 0x0A: return "txPowerLevel"
    case 0x0D: return "classOfDevice"
    case 0x0E: return "simplePairingHashC192"
    case 0x0F: return "simplePairingRandomizerR192"
    case 0x10: return "securityManagerTKValue"
    case 0x11: return "securityManagerOOBFlags"
    case 0x12: return "peripheralConnectionIntervalRange"
    case 0x14: return "serviceSolicitationUUIDs16"
    case 0x15: return "serviceSolicitationUUIDs128"
    case 0x16: return "serviceData16"
    case 0x17: return "publicTargetAddress"
    case 0x18: return "randomTargetAddress"
    case 0x19: return "appearance"
    case 0x1A: return "advertisingInterval"
    case 0x1B: return "leDeviceAddress"
    case 0x1C: return "leRole"
    case 0x1D: return "simplePairingHashC256"
    case 0x1E: return "simplePairingRandomizerR256"
    case 0x1F: return "serviceSolicitationUUIDs32"
    case 0x20: return "serviceData32"
    case 0x21: return "serviceData128"
    case 0x22: return "leSecureConnectionsConfirmationValue"
    case 0x23: return "leSecureConnectionsRandomValue"
    case 0x24: return "uri"
    case 0x25: return "indoorPositioning"
    case 0x26: return "transportDiscoveryData"
    case 0x27: return "leSupportedFeatures"
    case 0x28: return "channelMapUpdateIndication"
    case 0x29: return "pbADV"
    case 0x2A: return "meshMessage"
    case 0x2B: return "meshBeacon"
    case 0x2C: return "bigInfo"
    case 0x2D: return "broadcastCode"
    case 0x2E: return "resolvableSetIdentifier"
    case 0x2F: return "advertisingIntervalLong"
    case 0x30: return "broadcastName"
    case 0x31: return "encryptedAdvertisingData"
    case 0x32: return "periodicAdvertisingResponseTimingInformation"
    case 0x34: return "electronicShelfLabel"
    case 0x3D: return "threeDInformationData"
    case 0xFF: return "manufacturerSpecificData"
    default: return "unknown"
    }
  }

  /// The UUID width in octets when this type carries a service UUID list or service
  /// solicitation list (2, 4 or 16), else `nil`.
  @inlinable public var uuidListWidth: Int? {
    switch rawValue {
    case 0x02, 0x03, 0x14: return 2
    case 0x04, 0x05, 0x1F: return 4
    case 0x06, 0x07, 0x15: return 16
    default: return nil
    }
  }

  /// Whether this type is one of the six service class UUID lists (CSS Part A §1.1).
  @inlinable public var isServiceUUIDList: Bool { rawValue >= 0x02 && rawValue <= 0x07 }

  /// Whether this type is a «Complete List» of service class UUIDs.
  public var isCompleteServiceUUIDList: Bool {
    rawValue == 0x03 || rawValue == 0x05 || rawValue == 0x07
  }

  /// The UUID width in octets when this type is Service Data (2, 4 or 16), else `nil`.
  @inlinable public var serviceDataUUIDWidth: Int? {
    switch rawValue {
    case 0x16: return 2
    case 0x20: return 4
    case 0x21: return 16
    default: return nil
    }
  }
}

extension ADType: CustomStringConvertible {
  /// The contract name and the raw value, e.g. `flags (0x01)`.
  public var description: String {
    "\(name) (0x\(Hex.string([rawValue])))"
  }
}
