// SPDX-License-Identifier: Apache-2.0
/// A failure reading a Java Card CAP file: what rule of the ZIP format (PKWARE APPNOTE 6.3.10)
/// or of the CAP format (Java Card Virtual Machine Specification 3.0.5 chapter 6) was broken,
/// and where.
///
/// For ZIP errors ``component`` is nil and ``offset`` is the absolute byte offset in the ZIP
/// file of the first offending byte (the length field that claims more than remains, the
/// signature that is wrong). For errors inside a component ``component`` names it and
/// ``offset`` counts from the component's tag byte (0).
public struct CAPFileError: Error, Sendable, Hashable {
  /// The rule that was broken.
  public let code: Code
  /// The byte offset of the first offending byte: in the ZIP file, or in ``component``.
  public let offset: Int
  /// The component the offset counts in; nil for the ZIP file itself.
  public let component: CAPComponentTag?

  /// Creates an error with a code, the offset it applies to and, for component errors, the component.
  public init(_ code: Code, offset: Int, component: CAPComponentTag? = nil) {
    self.code = code
    self.offset = offset
    self.component = component
  }

  /// An error code: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable {
      case missingEndOfCentralDirectory, zip64NotSupported, multipleDisksNotSupported
      case entryCountMismatch, centralDirectoryOutOfBounds, truncatedCentralDirectoryHeader
      case invalidCentralDirectorySignature, nameExceedsInput, extraFieldExceedsInput
      case commentExceedsInput, tooManyEntries, invalidLocalHeaderSignature, truncatedLocalHeader
      case localHeaderMismatch, entryDataExceedsInput, encryptedEntry, unsupportedCompressionMethod
      case storedSizeMismatch, entryTooLarge, invalidDeflateData, inflatedSizeMismatch
      case crcMismatch, truncatedDataDescriptor, dataDescriptorMismatch, duplicateEntry
      case missingComponent, duplicateComponent, componentTagMismatch, componentSizeMismatch
      case truncatedComponent, invalidMagic, invalidAIDLength, extendedCAPNotSupported
      case multiplePackages, trailingComponentData, invalidInflaterOutput
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// APPNOTE §4.3.16: no end of central directory record (signature 06054B50 with a comment
    /// reaching exactly to the end of the file) in the last 65557 bytes. Offset: the end of the file.
    public static let missingEndOfCentralDirectory = Code(.missingEndOfCentralDirectory)
    /// APPNOTE §4.3.14-4.3.15, §4.4.1.4: a ZIP64 end of central directory locator, or a count,
    /// size or offset field of all ones (its value lives in a ZIP64 record): not read, CAP files never need it.
    public static let zip64NotSupported = Code(.zip64NotSupported)
    /// APPNOTE §4.4.19-4.4.20: the archive spans several disks (a disk number other than 0).
    public static let multipleDisksNotSupported = Code(.multipleDisksNotSupported)
    /// APPNOTE §4.4.21-4.4.22: the entries on this disk differ from the total, or the central
    /// directory holds a different number of headers than the end record says.
    public static let entryCountMismatch = Code(.entryCountMismatch)
    /// APPNOTE §4.4.23-4.4.24: the central directory's offset plus size reaches past the end record.
    public static let centralDirectoryOutOfBounds = Code(.centralDirectoryOutOfBounds)
    /// APPNOTE §4.3.12: the central directory ends inside a file header's 46 fixed bytes.
    public static let truncatedCentralDirectoryHeader = Code(.truncatedCentralDirectoryHeader)
    /// APPNOTE §4.3.12: a central directory file header without signature 02014B50.
    public static let invalidCentralDirectorySignature = Code(.invalidCentralDirectorySignature)
    /// APPNOTE §4.4.10: a file name length reaching past its header's bounds.
    public static let nameExceedsInput = Code(.nameExceedsInput)
    /// APPNOTE §4.4.11: an extra field length reaching past its header's bounds.
    public static let extraFieldExceedsInput = Code(.extraFieldExceedsInput)
    /// APPNOTE §4.4.12: a file comment length reaching past the central directory.
    public static let commentExceedsInput = Code(.commentExceedsInput)
    /// More entries than ``CAPFileOptions/maximumEntryCount``.
    public static let tooManyEntries = Code(.tooManyEntries)
    /// APPNOTE §4.3.7: a local file header without signature 04034B50 where the central directory points.
    public static let invalidLocalHeaderSignature = Code(.invalidLocalHeaderSignature)
    /// APPNOTE §4.3.7: the file ends inside a local file header (30 fixed bytes, name, extra field).
    public static let truncatedLocalHeader = Code(.truncatedLocalHeader)
    /// APPNOTE §4.3.7, §4.4.4: the local header's name, method, flags, CRC-32 or sizes (without
    /// a data descriptor) differ from the central directory's.
    public static let localHeaderMismatch = Code(.localHeaderMismatch)
    /// APPNOTE §4.3.8: an entry's compressed size reaches past the end of the file.
    public static let entryDataExceedsInput = Code(.entryDataExceedsInput)
    /// APPNOTE §4.4.4 bit 0 (or bit 6, strong encryption): an encrypted entry.
    public static let encryptedEntry = Code(.encryptedEntry)
    /// APPNOTE §4.4.5: a compression method other than 0 (stored) or 8 (deflated).
    public static let unsupportedCompressionMethod = Code(.unsupportedCompressionMethod)
    /// APPNOTE §4.4.8-4.4.9: a stored entry whose compressed and uncompressed sizes differ.
    public static let storedSizeMismatch = Code(.storedSizeMismatch)
    /// A declared uncompressed size over ``CAPFileOptions/maximumEntrySize`` (no inflating past the bound).
    public static let entryTooLarge = Code(.entryTooLarge)
    /// RFC 1951: the deflated data is not a valid raw DEFLATE stream, or ends before its final block.
    public static let invalidDeflateData = Code(.invalidDeflateData)
    /// APPNOTE §4.4.9: the data inflates to a size other than the declared uncompressed size
    /// (more is never produced: inflating stops at the declared size).
    public static let inflatedSizeMismatch = Code(.inflatedSizeMismatch)
    /// APPNOTE §4.4.7: the entry's data does not match its CRC-32.
    public static let crcMismatch = Code(.crcMismatch)
    /// APPNOTE §4.3.9: the file ends inside a data descriptor (general purpose flag bit 3).
    public static let truncatedDataDescriptor = Code(.truncatedDataDescriptor)
    /// APPNOTE §4.3.9: the data descriptor's CRC-32 or sizes differ from the central directory's.
    public static let dataDescriptorMismatch = Code(.dataDescriptorMismatch)
    /// Two entries with the same name in a CAP file's component folder.
    public static let duplicateEntry = Code(.duplicateEntry)
    /// JCVM 3.0.5 §6.1: a component the load file data block needs (Header, Directory,
    /// Import, Class, Method, StaticField, ConstantPool, RefLocation) is absent. Offset: the
    /// end of the central directory. ``CAPFileError/component`` names it.
    public static let missingComponent = Code(.missingComponent)
    /// JCVM 3.0.5 §6.1: one component file appears twice (in one package folder).
    public static let duplicateComponent = Code(.duplicateComponent)
    /// JCVM 3.0.5 §6.1: a component file's first byte is not the tag of the component its name says.
    public static let componentTagMismatch = Code(.componentTagMismatch)
    /// JCVM 3.0.5 §6.1: a component's `size` field differs from its file's length minus 3.
    public static let componentSizeMismatch = Code(.componentSizeMismatch)
    /// JCVM 3.0.5 §6.1-6.5: a component ends inside its tag and size, or inside a structure it declares.
    public static let truncatedComponent = Code(.truncatedComponent)
    /// JCVM 3.0.5 §6.4: the Header component's magic is not DECAFFED.
    public static let invalidMagic = Code(.invalidMagic)
    /// JCVM 3.0.5 §6.4-6.6 (ISO/IEC 7816-5): an AID length outside 5...16.
    public static let invalidAIDLength = Code(.invalidAIDLength)
    /// JCVM 3.1 §6.4: the Header flags ACC_EXTENDED (08): an extended CAP file (several
    /// packages, other component layouts) is not read.
    public static let extendedCAPNotSupported = Code(.extendedCAPNotSupported)
    /// JCVM 3.0.5 §6.1: component files in more than one `javacard/` folder.
    public static let multiplePackages = Code(.multiplePackages)
    /// JCVM 3.0.5 §6.4-6.6: bytes after the last structure a Header, Import or Applet component declares.
    public static let trailingComponentData = Code(.trailingComponentData)
    /// The injected ``RawInflater`` returned more bytes than it was allowed to.
    public static let invalidInflaterOutput = Code(.invalidInflaterOutput)

    /// The code's name, e.g. `crcMismatch`.
    public var description: String {
      switch value {
      case .missingEndOfCentralDirectory: "missingEndOfCentralDirectory"
      case .zip64NotSupported: "zip64NotSupported"
      case .multipleDisksNotSupported: "multipleDisksNotSupported"
      case .entryCountMismatch: "entryCountMismatch"
      case .centralDirectoryOutOfBounds: "centralDirectoryOutOfBounds"
      case .truncatedCentralDirectoryHeader: "truncatedCentralDirectoryHeader"
      case .invalidCentralDirectorySignature: "invalidCentralDirectorySignature"
      case .nameExceedsInput: "nameExceedsInput"
      case .extraFieldExceedsInput: "extraFieldExceedsInput"
      case .commentExceedsInput: "commentExceedsInput"
      case .tooManyEntries: "tooManyEntries"
      case .invalidLocalHeaderSignature: "invalidLocalHeaderSignature"
      case .truncatedLocalHeader: "truncatedLocalHeader"
      case .localHeaderMismatch: "localHeaderMismatch"
      case .entryDataExceedsInput: "entryDataExceedsInput"
      case .encryptedEntry: "encryptedEntry"
      case .unsupportedCompressionMethod: "unsupportedCompressionMethod"
      case .storedSizeMismatch: "storedSizeMismatch"
      case .entryTooLarge: "entryTooLarge"
      case .invalidDeflateData: "invalidDeflateData"
      case .inflatedSizeMismatch: "inflatedSizeMismatch"
      case .crcMismatch: "crcMismatch"
      case .truncatedDataDescriptor: "truncatedDataDescriptor"
      case .dataDescriptorMismatch: "dataDescriptorMismatch"
      case .duplicateEntry: "duplicateEntry"
      case .missingComponent: "missingComponent"
      case .duplicateComponent: "duplicateComponent"
      case .componentTagMismatch: "componentTagMismatch"
      case .componentSizeMismatch: "componentSizeMismatch"
      case .truncatedComponent: "truncatedComponent"
      case .invalidMagic: "invalidMagic"
      case .invalidAIDLength: "invalidAIDLength"
      case .extendedCAPNotSupported: "extendedCAPNotSupported"
      case .multiplePackages: "multiplePackages"
      case .trailingComponentData: "trailingComponentData"
      case .invalidInflaterOutput: "invalidInflaterOutput"
      }
    }
  }
}
