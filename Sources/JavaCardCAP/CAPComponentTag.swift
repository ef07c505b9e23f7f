// SPDX-License-Identifier: Apache-2.0
/// The tag of a CAP file component (Java Card Virtual Machine Specification 3.0.5 §6.1,
/// Table 6-1), the first byte of its file `<package>/javacard/<Name>.cap`.
public struct CAPComponentTag: RawRepresentable, Sendable, Hashable, Comparable {
  /// The tag byte.
  public let rawValue: UInt8
  /// Wraps a tag byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 1: COMPONENT_Header (§6.4), `Header.cap`.
  public static let header = CAPComponentTag(rawValue: 1)
  /// 2: COMPONENT_Directory (§6.5), `Directory.cap`.
  public static let directory = CAPComponentTag(rawValue: 2)
  /// 3: COMPONENT_Applet (§6.6), `Applet.cap` (optional).
  public static let applet = CAPComponentTag(rawValue: 3)
  /// 4: COMPONENT_Import (§6.7), `Import.cap`.
  public static let `import` = CAPComponentTag(rawValue: 4)
  /// 5: COMPONENT_ConstantPool (§6.8), `ConstantPool.cap`.
  public static let constantPool = CAPComponentTag(rawValue: 5)
  /// 6: COMPONENT_Class (§6.9), `Class.cap`.
  public static let `class` = CAPComponentTag(rawValue: 6)
  /// 7: COMPONENT_Method (§6.10), `Method.cap`.
  public static let method = CAPComponentTag(rawValue: 7)
  /// 8: COMPONENT_StaticField (§6.11), `StaticField.cap`.
  public static let staticField = CAPComponentTag(rawValue: 8)
  /// 9: COMPONENT_ReferenceLocation (§6.12), `RefLocation.cap`.
  public static let referenceLocation = CAPComponentTag(rawValue: 9)
  /// 10: COMPONENT_Export (§6.13), `Export.cap` (optional).
  public static let export = CAPComponentTag(rawValue: 10)
  /// 11: COMPONENT_Descriptor (§6.14), `Descriptor.cap`: never part of the load file data block here.
  public static let descriptor = CAPComponentTag(rawValue: 11)
  /// 12: COMPONENT_Debug (JCVM 3.0.5 §6.15), `Debug.cap`: never downloaded to a card.
  public static let debug = CAPComponentTag(rawValue: 12)

  /// The order in which components are downloaded (JCVM 3.0.5 §6.2, adopted by GlobalPlatform
  /// Card Specification 2.3 §C.1): Header, Directory, Import, Applet, Class, Method,
  /// StaticField, Export, ConstantPool, RefLocation. Descriptor and Debug are not listed.
  public static let loadOrder: [CAPComponentTag] = [
    .header, .directory, .import, .applet, .class, .method, .staticField, .export, .constantPool,
    .referenceLocation,
  ]

  /// The components a CAP file must hold for the load file data block (JCVM 3.0.5 §6.1: all
  /// but Applet and Export, which a library package without applets or exports omits).
  public static let requiredForLoad: [CAPComponentTag] = [
    .header, .directory, .import, .class, .method, .staticField, .constantPool, .referenceLocation,
  ]

  /// Every tag of Table 6-1, in tag order.
  public static let all: [CAPComponentTag] = (1...12).map { CAPComponentTag(rawValue: $0) }

  /// The component's file name in the CAP's `javacard/` folder (JCVM 3.0.5 §6.1), nil for an unknown tag.
  public var fileName: String? {
    switch rawValue {
    case 1: "Header.cap"
    case 2: "Directory.cap"
    case 3: "Applet.cap"
    case 4: "Import.cap"
    case 5: "ConstantPool.cap"
    case 6: "Class.cap"
    case 7: "Method.cap"
    case 8: "StaticField.cap"
    case 9: "RefLocation.cap"
    case 10: "Export.cap"
    case 11: "Descriptor.cap"
    case 12: "Debug.cap"
    default: nil
    }
  }

  /// The component's name without `.cap`, e.g. `RefLocation`; `unknown` for an unknown tag.
  public var name: String {
    guard let fileName else { return "unknown" }
    return String(fileName.dropLast(4))
  }

  /// Orders by tag byte.
  public static func < (lhs: CAPComponentTag, rhs: CAPComponentTag) -> Bool { lhs.rawValue < rhs.rawValue }
}
