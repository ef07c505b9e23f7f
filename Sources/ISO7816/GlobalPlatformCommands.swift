// SPDX-License-Identifier: Apache-2.0
/// Builders for the GlobalPlatform card content management commands (Card Specification
/// 2.3 §11), as plain command APDUs: a secure channel, if any, is the transport's business.
///
/// Commands use the class ``CommandClass/globalPlatform`` (0x80) unless another is given
/// (e.g. 0x81 for logical channel 1); SELECT uses the interindustry class.
public enum GlobalPlatformCommands {
  /// SELECT by DF name (AID), first or only occurrence, FCI returned, Le 00
  /// (ISO/IEC 7816-4 §7.1.1; GP 2.3 §11.9): `00 A4 04 00 Lc AID 00`.
  public static func select(
    _ aid: ApplicationIdentifier, cla: CommandClass = .interindustry, nextOccurrence: Bool = false
  ) -> CommandAPDU {
    CommandAPDU(
      cla: cla, ins: .select, p1: 0x04, p2: nextOccurrence ? 0x02 : 0x00, data: aid.bytes,
      ne: 256)
  }

  /// GET STATUS in the TLV response format (P2 b2) with search criteria `4F` + AID prefix
  /// (empty: every entry) (GP 2.3 §11.4.2). Send again with `nextOccurrence` while the card
  /// answers 6310.
  public static func getStatus(
    _ subset: GlobalPlatformStatusSubset, aidPrefix: [UInt8] = [], nextOccurrence: Bool = false,
    cla: CommandClass = .globalPlatform
  ) -> CommandAPDU {
    let p2: UInt8 = 0x02 | (nextOccurrence ? 0x01 : 0x00)
    let criteria = [0x4F, UInt8(truncatingIfNeeded: aidPrefix.count)] + aidPrefix
    return CommandAPDU(cla: cla, ins: .gpGetStatus, p1: subset.rawValue, p2: p2, data: criteria, ne: 256)
  }

  /// GET DATA for a one- or two-byte tag in P1-P2 (GP 2.3 §11.3): `80 CA P1 P2 00`, e.g.
  /// ``BERTag/cardProductionLifeCycle`` (9F7F) or ``BERTag/cardData`` (0066).
  public static func getData(_ tag: BERTag, cla: CommandClass = .globalPlatform) -> CommandAPDU {
    let value = tag.rawValue & 0xFFFF
    return CommandAPDU(
      cla: cla, ins: .gpGetData, p1: UInt8(truncatingIfNeeded: value >> 8),
      p2: UInt8(truncatingIfNeeded: value), ne: 256)
  }

  /// INSTALL [for load] (GP 2.3 §11.5.2.3.1): P1 02, data = the load file AID, the security
  /// domain AID (empty: the card decides), the load file data block hash, load parameters
  /// and load token, each preceded by its length.
  ///
  /// - Throws: ``APDUError/Code/valueTooLong`` for a field over 255 bytes.
  public static func installForLoad(
    loadFile: ApplicationIdentifier, securityDomain: ApplicationIdentifier? = nil,
    hash: [UInt8] = [], parameters: [UInt8] = [], token: [UInt8] = [],
    cla: CommandClass = .globalPlatform
  ) throws(APDUError) -> CommandAPDU {
    let data = try lengthPrefixed([loadFile.bytes, securityDomain?.bytes ?? [], hash, parameters, token])
    return CommandAPDU(cla: cla, ins: .gpInstall, p1: 0x02, p2: 0x00, data: data, ne: 256)
  }

  /// The LOAD commands for a load file (GP 2.3 §11.6): the load file data block
  /// `C4 length file` split into blocks of at most `blockSize` bytes, numbered from 0 in P2,
  /// with P1 80 on the last block and 00 before it.
  ///
  /// `blockSize` counts plain bytes: under a secure channel each block grows by its MAC and
  /// padding, so the default (``defaultLoadBlockSize``, 223) fits a 255-byte Lc at every SCP02
  /// and SCP03 security level; ``loadBlockSize(maximum:overhead:cardMaximumCommandDataLength:)``
  /// also honours the card's maximum from its FCI (tag 9F65).
  ///
  /// P2 is one byte: beyond 256 blocks (a 64 KB file in 240-byte blocks needs 274) the
  /// block number wraps from FF to 00, as deployed card management tools do, unless
  /// `wrapsBlockNumbers` is false.
  ///
  /// - Throws: ``APDUError/Code/invalidBlockSize`` for a block size outside 1...255 (65535
  ///   with `extendedLength`), ``APDUError/Code/tooManyLoadBlocks`` beyond 256 blocks when
  ///   block numbers may not wrap.
  public static func load(
    _ loadFile: [UInt8], blockSize: Int = defaultLoadBlockSize, extendedLength: Bool = false,
    wrapsBlockNumbers: Bool = true, cla: CommandClass = .globalPlatform
  ) throws(APDUError) -> [CommandAPDU] {
    guard blockSize >= 1, blockSize <= (extendedLength ? 65535 : 255) else {
      throw APDUError(.invalidBlockSize, offset: 0)
    }
    let block = [0xC4] + BERLength.bytes(loadFile.count) + loadFile
    let count = (block.count + blockSize - 1) / blockSize
    guard count <= 256 || wrapsBlockNumbers else { throw APDUError(.tooManyLoadBlocks, offset: 0) }
    var commands: [CommandAPDU] = []
    commands.reserveCapacity(count)
    var start = 0
    for number in 0..<count {
      let end = min(start + blockSize, block.count)
      let last = number == count - 1
      commands.append(
        CommandAPDU(
          cla: cla, ins: .gpLoad, p1: last ? 0x80 : 0x00, p2: UInt8(truncatingIfNeeded: number),
          data: Array(block[start..<end]), ne: 256))
      start = end
    }
    return commands
  }

  /// INSTALL [for install and make selectable] (GP 2.3 §11.5.2.3.2): P1 0C, data = load
  /// file AID, module AID, application AID, privileges, install parameters (`C9` with the
  /// application specific parameters, then `systemParameters` such as an `EF` object) and
  /// install token, each preceded by its length.
  ///
  /// - Throws: ``APDUError/Code/valueTooLong`` for a field over 255 bytes.
  public static func installForInstall(
    loadFile: ApplicationIdentifier, module: ApplicationIdentifier,
    application: ApplicationIdentifier, privileges: GlobalPlatformPrivileges = [],
    applicationParameters: [UInt8] = [], systemParameters: [UInt8] = [], token: [UInt8] = [],
    makeSelectable: Bool = true, cla: CommandClass = .globalPlatform
  ) throws(APDUError) -> CommandAPDU {
    guard applicationParameters.count <= 0xFF else { throw APDUError(.valueTooLong, offset: 0) }
    let parameters =
      try BERTLV(tag: .applicationParameters, value: applicationParameters)
      .encodedBytes() + systemParameters
    let data = try lengthPrefixed([
      loadFile.bytes, module.bytes, application.bytes, privileges.bytes, parameters, token,
    ])
    return CommandAPDU(
      cla: cla, ins: .gpInstall, p1: makeSelectable ? 0x0C : 0x04, p2: 0x00, data: data, ne: 256)
  }

  /// DELETE of a card content object by AID (GP 2.3 §11.2): `4F` + AID, P2 80 to delete
  /// the object and its related objects (a load file and its applications).
  public static func delete(
    _ aid: ApplicationIdentifier, relatedObjects: Bool = false, cla: CommandClass = .globalPlatform
  ) -> CommandAPDU {
    CommandAPDU(
      cla: cla, ins: .gpDelete, p1: 0x00, p2: relatedObjects ? 0x80 : 0x00,
      data: [0x4F, UInt8(aid.bytes.count)] + aid.bytes, ne: 256)
  }

  private static func lengthPrefixed(_ fields: [[UInt8]]) throws(APDUError) -> [UInt8] {
    var data: [UInt8] = []
    for field in fields {
      guard field.count <= 0xFF else { throw APDUError(.valueTooLong, offset: 0) }
      data.append(UInt8(field.count))
      data += field
    }
    return data
  }
}
