// SPDX-License-Identifier: Apache-2.0
/// A step of the Type 4 tag NDEF procedures, named in errors (T4T 3.0 §5.4-§5.5).
public struct Type4Step: RawRepresentable, Sendable, Hashable {
  /// The step number.
  public let rawValue: UInt8
  /// Wraps a step number.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// SELECT the NDEF Tag Application by its 2.0/3.0 AID D2760000850101 (§5.4.2).
  public static let selectApplication = Type4Step(rawValue: 0)
  /// SELECT the NDEF Tag Application by the mapping 1.0 AID D2760000850100.
  public static let selectApplicationVersion1 = Type4Step(rawValue: 1)
  /// SELECT the CC file E103 (§5.4.3).
  public static let selectCCFile = Type4Step(rawValue: 2)
  /// READ BINARY of the CC file (§5.4.4).
  public static let readCCFile = Type4Step(rawValue: 3)
  /// SELECT the NDEF file named by the NDEF File Control TLV (§5.4.5).
  public static let selectNDEFFile = Type4Step(rawValue: 4)
  /// READ BINARY of NLEN or ENLEN (§5.4.6).
  public static let readNDEFLength = Type4Step(rawValue: 5)
  /// READ BINARY of the NDEF message (§5.4.7).
  public static let readNDEFMessage = Type4Step(rawValue: 6)
  /// UPDATE BINARY of NLEN/ENLEN = 0 before writing (§5.5.2).
  public static let writeZeroLength = Type4Step(rawValue: 7)
  /// UPDATE BINARY of the message (§5.5.3).
  public static let writeNDEFMessage = Type4Step(rawValue: 8)
  /// UPDATE BINARY of the real NLEN/ENLEN (§5.5.4).
  public static let writeNDEFLength = Type4Step(rawValue: 9)

  /// The step's camelCase name.
  public var name: String {
    switch rawValue {
    case 0: return "selectApplication"
    case 1: return "selectApplicationVersion1"
    case 2: return "selectCCFile"
    case 3: return "readCCFile"
    case 4: return "selectNDEFFile"
    case 5: return "readNDEFLength"
    case 6: return "readNDEFMessage"
    case 7: return "writeZeroLength"
    case 8: return "writeNDEFMessage"
    case 9: return "writeNDEFLength"
    default: return "step\(rawValue)"
    }
  }
}
