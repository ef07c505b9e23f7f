// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One entry of a GET STATUS response in the TLV format: the `E3` template of GlobalPlatform
/// Card Specification 2.3 §11.4.3.2 (Table 11-36).
public struct GlobalPlatformRegistryEntry: Sendable, Hashable {
  /// `4F`: the AID of the application, security domain or load file.
  public var aid: [UInt8]
  /// `9F70`: the life cycle state.
  public var lifeCycle: GlobalPlatformLifeCycle
  /// `C5`: privileges (absent for load files).
  public var privileges: GlobalPlatformPrivileges?
  /// `C4`: the AID of the application's executable load file.
  public var loadFileAID: [UInt8]?
  /// `CE`: the executable load file's version number.
  public var loadFileVersion: [UInt8]?
  /// `84`: the executable module AIDs of a load file (subset ``GlobalPlatformStatusSubset/loadFilesAndModules``).
  public var moduleAIDs: [[UInt8]]
  /// `CC`: the AID of the associated security domain.
  public var associatedSecurityDomain: [UInt8]?

  /// Creates an entry.
  public init(
    aid: [UInt8], lifeCycle: GlobalPlatformLifeCycle, privileges: GlobalPlatformPrivileges? = nil,
    loadFileAID: [UInt8]? = nil, loadFileVersion: [UInt8]? = nil, moduleAIDs: [[UInt8]] = [],
    associatedSecurityDomain: [UInt8]? = nil
  ) {
    self.aid = aid
    self.lifeCycle = lifeCycle
    self.privileges = privileges
    self.loadFileAID = loadFileAID
    self.loadFileVersion = loadFileVersion
    self.moduleAIDs = moduleAIDs
    self.associatedSecurityDomain = associatedSecurityDomain
  }

  /// Reads every `E3` entry of a GET STATUS response data field (P2 b2 set). Unknown tags
  /// inside an entry are skipped.
  ///
  /// - Throws: the BER-TLV errors of ``BERTLVSequenceView``,
  ///   ``APDUError/Code/unexpectedTag`` for a top-level object other than `E3`,
  ///   ``APDUError/Code/missingDataObject`` for an entry without `4F` or `9F70` (offset:
  ///   the entry), ``APDUError/Code/invalidDataObject`` for a life cycle that is not one
  ///   byte, privileges that are not 1 or 3 bytes (offset: the object).
  public static func parseStatusResponse(_ data: [UInt8], baseOffset: Int = 0) throws(APDUError)
    -> [GlobalPlatformRegistryEntry]
  {
    let sequence = try BERTLVSequenceView(validating: data.span.bytes, baseOffset: baseOffset)
    var entries: [GlobalPlatformRegistryEntry] = []
    var objects = sequence.objects
    while let object = objects.next() {
      switch entry(object) {
      case .success(let entry): entries.append(entry)
      case .failure(let error): throw error
      }
    }
    return entries
  }

  /// Reads every `E3` entry of a GET STATUS response data field (P2 b2 set) without letting
  /// one bad entry hide the others: one result per top-level object, in order. An entry
  /// that breaks Table 11-36 (no `4F` or `9F70`, a life cycle that is not one byte, bad
  /// privileges, a nested object that is not framed) or an object other than `E3` is a
  /// failure at its offset, and the entries around it still decode. Where the top-level
  /// framing breaks, the last result is that error (nothing after it can be located).
  ///
  /// The first failure is the error ``parseStatusResponse(_:baseOffset:)`` throws when the
  /// top-level framing holds.
  public static func scanStatusResponse(_ data: [UInt8], baseOffset: Int = 0)
    -> [Result<GlobalPlatformRegistryEntry, APDUError>]
  {
    var results: [Result<GlobalPlatformRegistryEntry, APDUError>] = []
    var scanner = BERTLVScanner(data.span.bytes, baseOffset: baseOffset)
    while let item = scanner.next() {
      switch item {
      case .malformed(let error):
        results.append(.failure(error))
      case .object(let object):
        results.append(entry(object))
      }
    }
    return results
  }

  /// One `E3` entry, or the first rule it breaks.
  static func entry(_ object: borrowing BERTLVView) -> Result<GlobalPlatformRegistryEntry, APDUError> {
    guard object.tag == .registryEntry else {
      return .failure(APDUError(.unexpectedTag, offset: object.offset))
    }
    var aid: [UInt8]? = nil
    var lifeCycle: GlobalPlatformLifeCycle? = nil
    var entry = GlobalPlatformRegistryEntry(aid: [], lifeCycle: .loaded)
    var children = object.scannedChildren
    while let item = children.next() {
      let field: BERTLVView
      switch item {
      case .malformed(let error): return .failure(error)
      case .object(let object): field = object
      }
      // Nested objects of a constructed field are not read, but they must be framed.
      if let error = BERTLVScanner.firstError(in: field.scannedChildren) { return .failure(error) }
      switch field.tag {
      case .applicationIdentifier: aid = field.value.copiedBytes()
      case .lifeCycleState:
        guard field.length == 1, let state = field.value.byte(at: 0) else {
          return .failure(APDUError(.invalidDataObject, offset: field.offset))
        }
        lifeCycle = GlobalPlatformLifeCycle(rawValue: state)
      case .privileges:
        guard let privileges = GlobalPlatformPrivileges(bytes: field.value.copiedBytes()) else {
          return .failure(APDUError(.invalidDataObject, offset: field.offset))
        }
        entry.privileges = privileges
      case .loadFileDataBlock: entry.loadFileAID = field.value.copiedBytes()
      case .loadFileVersion: entry.loadFileVersion = field.value.copiedBytes()
      case .dfName: entry.moduleAIDs.append(field.value.copiedBytes())
      case .associatedSecurityDomain: entry.associatedSecurityDomain = field.value.copiedBytes()
      default: break
      }
    }
    guard let aid, let lifeCycle else {
      return .failure(APDUError(.missingDataObject, offset: object.offset))
    }
    entry.aid = aid
    entry.lifeCycle = lifeCycle
    return .success(entry)
  }

  /// Reads a GET STATUS response in the original format (P2 b2 clear, GP 2.3 §11.4.3.1,
  /// Tables 11-33 and 11-34): per entry the AID length and AID, the life cycle state and
  /// one privileges byte; for ``GlobalPlatformStatusSubset/loadFilesAndModules`` also the
  /// module count and each module's AID length and AID.
  ///
  /// - Throws: ``APDUError/Code/truncatedLength`` at the end of input when an entry stops
  ///   short, ``APDUError/Code/lengthExceedsInput`` at a length byte that claims more than
  ///   remains.
  public static func parseLegacyStatusResponse(
    _ data: [UInt8], subset: GlobalPlatformStatusSubset, baseOffset: Int = 0
  ) throws(APDUError) -> [GlobalPlatformRegistryEntry] {
    var reader = ByteReader(data.span.bytes, baseOffset: baseOffset)
    let end = baseOffset &+ data.count
    func readAID(_ reader: inout ByteReader) throws(APDUError) -> [UInt8] {
      let lengthOffset = reader.offset
      guard let length = reader.readUInt8() else { throw APDUError(.truncatedLength, offset: end) }
      guard let aid = reader.readSpan(count: Int(length)) else {
        throw APDUError(.lengthExceedsInput, offset: lengthOffset)
      }
      return aid.copiedBytes()
    }
    var entries: [GlobalPlatformRegistryEntry] = []
    while !reader.isAtEnd {
      let aid = try readAID(&reader)
      guard let state = reader.readUInt8(), let privileges = reader.readUInt8() else {
        throw APDUError(.truncatedLength, offset: end)
      }
      var entry = GlobalPlatformRegistryEntry(
        aid: aid, lifeCycle: GlobalPlatformLifeCycle(rawValue: state))
      if subset == .issuerSecurityDomain || subset == .applications {
        entry.privileges = GlobalPlatformPrivileges(rawValue: UInt32(privileges) << 16)
      }
      if subset == .loadFilesAndModules {
        guard let count = reader.readUInt8() else { throw APDUError(.truncatedLength, offset: end) }
        for _ in 0..<count { entry.moduleAIDs.append(try readAID(&reader)) }
      }
      entries.append(entry)
    }
    return entries
  }

  /// The entry as an `E3` template, fields in the order of Table 11-36.
  public var tlv: BERTLV {
    var fields = [
      BERTLV(tag: .applicationIdentifier, value: aid),
      BERTLV(tag: .lifeCycleState, value: [lifeCycle.rawValue]),
    ]
    if let privileges { fields.append(BERTLV(tag: .privileges, value: privileges.bytes)) }
    if let loadFileAID { fields.append(BERTLV(tag: .loadFileDataBlock, value: loadFileAID)) }
    if let loadFileVersion { fields.append(BERTLV(tag: .loadFileVersion, value: loadFileVersion)) }
    for module in moduleAIDs { fields.append(BERTLV(tag: .dfName, value: module)) }
    if let associatedSecurityDomain {
      fields.append(BERTLV(tag: .associatedSecurityDomain, value: associatedSecurityDomain))
    }
    return BERTLV(tag: .registryEntry, children: fields)
  }
}
