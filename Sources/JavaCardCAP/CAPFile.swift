// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// A Java Card CAP file (Java Card Virtual Machine Specification 3.0.5 chapter 6): its
/// components read from the ZIP archive, the package and applet AIDs, and the load file data
/// block GlobalPlatform's LOAD carries (Card Specification 2.3 §11.6, Annex C.1).
///
/// Components are the files `<package path>/javacard/<Name>.cap` (§6.1); other files of the
/// archive (the manifest, `.class` files) are listed but never extracted.
public struct CAPFile: Sendable, Hashable {
  /// The components found, in ``CAPComponentTag/loadOrder`` followed by Descriptor and Debug
  /// when present (never in ZIP order).
  public let components: [CAPComponent]
  /// The folder the components are in, e.g. `com/example/hello/javacard/`.
  public let componentFolder: [UInt8]
  /// The Header component's contents: package AID and versions.
  public let header: CAPHeader
  /// The applets of the Applet component (empty for a library package).
  public let applets: [CAPApplet]
  /// The packages of the Import component.
  public let imports: [CAPPackageReference]

  /// Reads a CAP file from the bytes of its ZIP archive, inflating deflated components with
  /// `inflater`.
  ///
  /// - Throws: the ``ZIPArchive`` errors for the archive and each component's entry;
  ///   ``CAPFileError/Code/multiplePackages``, ``CAPFileError/Code/duplicateComponent`` (offset:
  ///   the second central directory header); ``CAPFileError/Code/missingComponent`` (offset:
  ///   the end of central directory record, `component`: the first missing one); the
  ///   ``CAPComponent``, ``CAPHeader``, ``CAPApplet`` and ``CAPPackageReference`` errors.
  public init<Inflater: RawInflater>(
    parsing bytes: [UInt8], inflater: Inflater, options: CAPFileOptions = CAPFileOptions()
  ) throws(CAPFileError) {
    let archive = try ZIPArchive(parsing: bytes, options: options)
    try self.init(archive: archive, inflater: inflater)
  }

  /// Reads a CAP file's components from an archive already read.
  ///
  /// - Throws: as ``init(parsing:inflater:options:)``.
  public init<Inflater: RawInflater>(archive: ZIPArchive, inflater: Inflater) throws(CAPFileError) {
    var folder: [UInt8]?
    var found: [(CAPComponentTag, ZIPEntry)] = []
    for entry in archive.entries {
      guard let (entryFolder, tag) = Self.component(named: entry.name) else { continue }
      if let folder, folder != entryFolder {
        throw CAPFileError(.multiplePackages, offset: entry.centralHeaderOffset)
      }
      folder = entryFolder
      if found.contains(where: { $0.0 == tag }) {
        throw CAPFileError(.duplicateComponent, offset: entry.centralHeaderOffset, component: tag)
      }
      found.append((tag, entry))
    }
    for tag in CAPComponentTag.requiredForLoad where !found.contains(where: { $0.0 == tag }) {
      throw CAPFileError(.missingComponent, offset: archive.endOfCentralDirectoryOffset, component: tag)
    }
    var components: [CAPComponent] = []
    for tag in CAPComponentTag.loadOrder + [.descriptor, .debug] {
      guard let entry = found.first(where: { $0.0 == tag })?.1 else { continue }
      let data = try archive.contents(of: entry, inflater: inflater)
      components.append(try CAPComponent(tag: tag, bytes: data, entryName: entry.name))
    }
    self.components = components
    self.componentFolder = folder ?? []
    // Header and Import are required (checked above).
    var header: CAPHeader?
    var applets: [CAPApplet] = []
    var imports: [CAPPackageReference] = []
    for component in components {
      switch component.tag {
      case .header: header = try CAPHeader(component)
      case .applet: applets = try CAPApplet.applets(component)
      case .import: imports = try CAPPackageReference.imports(component)
      default: break
      }
    }
    guard let header else {
      throw CAPFileError(.missingComponent, offset: archive.endOfCentralDirectoryOffset, component: .header)
    }
    self.header = header
    self.applets = applets
    self.imports = imports
  }

  /// Splits `…/javacard/<Name>.cap` into its folder (with `javacard/`) and the component tag.
  private static func component(named name: [UInt8]) -> ([UInt8], CAPComponentTag)? {
    let folderMark: [UInt8] = Array("javacard/".utf8)
    guard let slash = name.lastIndex(of: UInt8(ascii: "/")) else { return nil }
    let folder = Array(name[...slash])
    guard folder.count >= folderMark.count, Array(folder.suffix(folderMark.count)) == folderMark,
      folder.count == folderMark.count || folder[folder.count - folderMark.count - 1] == UInt8(ascii: "/")
    else { return nil }
    let file = Array(name[(slash + 1)...])
    for tag in CAPComponentTag.all where tag.fileName.map({ Array($0.utf8) == file }) ?? false {
      return (folder, tag)
    }
    return nil
  }

  /// The component with `tag`, if present.
  public func component(_ tag: CAPComponentTag) -> CAPComponent? {
    components.first { $0.tag == tag }
  }

  /// The load file data block (JCVM 3.0.5 §6.2; GlobalPlatform Card Specification 2.3 §C.1):
  /// the component files in ``CAPComponentTag/loadOrder``, concatenated; never Descriptor or
  /// Debug. The load file data block hash is computed over these bytes (GPCS §C.2).
  public var loadFileDataBlock: [UInt8] {
    var block: [UInt8] = []
    for tag in CAPComponentTag.loadOrder {
      if let component = component(tag) { block += component.bytes }
    }
    return block
  }

  /// The load file LOAD carries without DAP blocks (GPCS §11.6.2.3, Table 11-58): tag `C4`,
  /// its BER length, the ``loadFileDataBlock``.
  public var loadFile: [UInt8] {
    let block = loadFileDataBlock
    var length: [UInt8] = []
    var remaining = block.count
    repeat {
      length.insert(UInt8(truncatingIfNeeded: remaining), at: 0)
      remaining >>= 8
    } while remaining > 0
    if block.count >= 0x80 { length.insert(0x80 | UInt8(length.count), at: 0) }
    return [0xC4] + length + block
  }

  /// The load file data block hash (GPCS §C.2): `hash` over ``loadFileDataBlock`` (without
  /// `C4` and its length). INSTALL [for load] needs it with a load token, DAP blocks or a
  /// ciphered load file, or when the card asks for it; otherwise its length may be 0. The
  /// algorithm follows the secure channel (GPCS Table C-3; Amendment D §8.1): SHA-1 for
  /// SCP02 (3DES), SHA-256 for SCP03 with AES-128.
  public func loadFileDataBlockHash(using hash: ([UInt8]) -> [UInt8]) -> [UInt8] {
    hash(loadFileDataBlock)
  }

  /// INSTALL [for load] for this package (GPCS §11.5.2.3.1): the Header's package AID as the
  /// load file AID, `securityDomain` (nil: the card chooses) and `hash` (empty unless needed,
  /// see ``loadFileDataBlockHash(using:)``).
  ///
  /// - Throws: `APDUError.Code.valueTooLong` (ISO7816) for a field over 255 bytes.
  public func installForLoad(
    securityDomain: ApplicationIdentifier? = nil, hash: [UInt8] = [], parameters: [UInt8] = [],
    cla: CommandClass = .globalPlatform
  ) throws(APDUError) -> CommandAPDU {
    try GlobalPlatformCommands.installForLoad(
      loadFile: header.packageAID, securityDomain: securityDomain, hash: hash, parameters: parameters,
      cla: cla)
  }

  /// The LOAD commands for this package (GPCS §11.6): ``loadFileDataBlock`` in `C4` split
  /// into blocks of at most `blockSize` plain bytes (see
  /// `GlobalPlatformCommands.loadBlockSize(maximum:overhead:cardMaximumCommandDataLength:)`).
  ///
  /// - Throws: as `GlobalPlatformCommands.load(_:blockSize:extendedLength:wrapsBlockNumbers:cla:)` (ISO7816).
  public func loadCommands(
    blockSize: Int = GlobalPlatformCommands.defaultLoadBlockSize, cla: CommandClass = .globalPlatform
  ) throws(APDUError) -> [CommandAPDU] {
    try GlobalPlatformCommands.load(loadFileDataBlock, blockSize: blockSize, cla: cla)
  }
}
