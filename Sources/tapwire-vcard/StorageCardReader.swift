// SPDX-License-Identifier: Apache-2.0
import NFCTags
import PCSCControl
import PN532Simulator

/// What a contactless PC/SC reader's firmware does with a storage card in its field
/// (PC/SC Part 3 §3.1.3.2.3 and §3.2.2.1): it presents the storage-card ATR and answers the
/// pseudo-APDUs (GET DATA, LOAD KEYS, GENERAL AUTHENTICATE and the older FF 88, READ and
/// UPDATE BINARY, direct transmit) by running the tag's own commands.
///
/// The tag's memory and rules are the PN532 simulator's, not a copy: ``SimulatedType2Tag``
/// for Type 2 (READ and WRITE through READ/UPDATE BINARY; GET_VERSION, FAST_READ,
/// READ_SIG, READ_CNT and PWD_AUTH with AUTH0, PROT and AUTHLIM through direct transmit or
/// the transparent session, where the profile has one; a NAK sends the tag to IDLE until
/// the reader activates it again, which also ends its authentication) and
/// ``MifareClassicCardModel`` for MIFARE Classic (keys, access bits, halt after a refused
/// key). ISO/IEC 15693 is a plain block memory (READ SINGLE BLOCK/WRITE SINGLE BLOCK have
/// no rules beyond the block range here).
///
/// Each ``Profile`` follows one reader family's quirks as the project's PC/SC storage-card
/// notes record them (key memory and slots, LOAD KEYS P2, status words).
struct StorageCardReader {
  /// The reader family emulated.
  enum Profile: String, CaseIterable {
    /// ACS (ACR122U, ACR1252U): volatile key slots 00-01 (LOAD KEYS P1 00; P1 20 fails),
    /// 6300 for every failure, direct transmit `FF 00 00 00` (ACR122T API v2.02 p.16, §5).
    case acs
    /// HID OMNIKEY: non-volatile key slots (P1 20; volatile answers 6986), 69xx errors.
    case omnikey
    /// SCM/Identiv legacy firmware: LOAD KEYS P2 is the key type 60/61 (SCL3711 manual p.34),
    /// 638x for LOAD KEYS failures (PC/SC v1.07), 69xx for the others.
    case scm
    /// A reader that answers 6A81 (function not supported) to everything but READ BINARY
    /// and UPDATE BINARY.
    case minimal
    /// A PC/SC Part 3 reader with the transparent session `FF C2` (raw frames in
    /// Transparent Exchange `95`, answers in `97`; the supplement as wsrf2009/contactless-driver
    /// `pcsc.c` implements it), standard status words, volatile key slots 00-1F, no direct
    /// transmit.
    case transparent
  }

  /// The tag in the field.
  enum Tag {
    case type2(SimulatedType2Tag)
    case mifareClassic(MifareClassicCardModel)
    case type5(Type5Memory)
    case felica(SimulatedFeliCaTag)
  }

  /// An ISO/IEC 15693 tag's memory as a reader's READ/UPDATE BINARY addresses it.
  struct Type5Memory {
    /// The memory, `blockSize` bytes a block.
    var memory: [UInt8]
    /// Bytes in a block (4 on ICODE SLI/SLIX).
    var blockSize: Int
    /// How this reader puts the block into P1-P2.
    var addressing: StorageCardAddressing
  }

  let profile: Profile
  var tag: Tag
  /// The UID GET DATA answers.
  let uid: [UInt8]
  /// The ATR pcscd shows (PC/SC Part 3 §3.1.3.2.3).
  let atr: [UInt8]
  /// Keys in the reader's volatile memory, by slot (ACS, SCM by key type).
  private var volatileKeys: [UInt8: [UInt8]] = [:]
  /// Keys in the reader's non-volatile memory, by slot (OMNIKEY).
  private var nonVolatileKeys: [UInt8: [UInt8]] = [:]
  /// Whether the card is halted (a refused key) or idle (a refused read or write): it answers
  /// nothing until the reader activates it again (a reset).
  private(set) var halted = false

  /// ACS key slots (ACR122T API §5.1: 00-01).
  static let acsSlots: ClosedRange<UInt8> = 0x00...0x01
  /// OMNIKEY key slots here (the real range is unverified; 00-1F is enough for tests).
  static let omnikeySlots: ClosedRange<UInt8> = 0x00...0x1F
  /// The transparent-session reader's volatile key slots (made up: 00-1F).
  static let transparentSlots: ClosedRange<UInt8> = 0x00...0x1F

  init(profile: Profile, tag: Tag, uid: [UInt8], cardName: StorageCardName, standard: StorageCardStandard) {
    self.profile = profile
    self.tag = tag
    self.uid = uid
    self.atr = StorageCardATR(standard: standard, cardName: cardName).encodedBytes()
  }

  /// The card's memory as it is now (MIFARE Classic trailers with their keys).
  var memory: [UInt8] {
    switch tag {
    case .type2(let tag): tag.memory
    case .mifareClassic(let card): card.memory
    case .type5(let memory): memory.memory
    case .felica(let tag): tag.memory
    }
  }

  /// A reset or a new activation: the card answers again and forgets its authentication; the
  /// reader keeps its keys.
  mutating func reset() {
    halted = false
    switch tag {
    case .mifareClassic(var card):
      card.halt()
      tag = .mifareClassic(card)
    case .type2(var type2):
      type2.halt()
      tag = .type2(type2)
    case .type5, .felica: break
    }
  }

  /// A Type 2 command for the tag in the field: its answer, nil for a NAK or silence (the
  /// tag then goes to IDLE and forgets PWD_AUTH until the reader activates it again; T2T
  /// 1.0 §5, NTAG213/215/216 §9.3).
  private mutating func type2Answer(_ command: [UInt8]) -> [UInt8]? {
    guard case .type2(var type2) = tag, !halted else { return nil }
    let answer = type2.answer(command)
    if answer == nil {
      type2.halt()
      halted = true
    }
    tag = .type2(type2)
    return answer
  }

  // MARK: Status words

  /// Success.
  static let ok: [UInt8] = [0x90, 0x00]

  /// A failure's status word as this reader reports it: ACS readers send 6300 for every
  /// failure; the others the Part 3 status word.
  func failure(_ sw: UInt16) -> [UInt8] {
    let word = profile == .acs ? 0x6300 : sw
    return [UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
  }

  // MARK: Commands

  /// The response APDU to a command APDU.
  mutating func respond(to bytes: [UInt8]) -> [UInt8] {
    guard bytes.count >= 4 else { return failure(0x6700) }
    guard bytes[0] == GetDataPseudoAPDU.pseudoClass else { return [0x6E, 0x00] }
    let instruction = bytes[1]
    if profile == .minimal,
      instruction != ReadBinaryPseudoAPDU.instruction && instruction != UpdateBinaryPseudoAPDU.instruction
    {
      return [0x6A, 0x81]
    }
    switch instruction {
    case GetDataPseudoAPDU.instruction: return getData(bytes)
    case LoadKeysPseudoAPDU.instruction: return loadKeys(bytes)
    case GeneralAuthenticatePseudoAPDU.instruction:
      guard let command = try? GeneralAuthenticatePseudoAPDU(parsing: bytes) else { return failure(0x6700) }
      return authenticate(block: Int(command.block), keyType: command.keyType, keyNumber: command.keyNumber)
    case LegacyAuthenticatePseudoAPDU.instruction:
      guard let command = try? LegacyAuthenticatePseudoAPDU(parsing: bytes) else { return failure(0x6700) }
      return authenticate(block: Int(command.block), keyType: command.keyType, keyNumber: command.keyNumber)
    case ReadBinaryPseudoAPDU.instruction:
      guard let command = try? ReadBinaryPseudoAPDU(parsing: bytes) else { return failure(0x6700) }
      return read(command)
    case UpdateBinaryPseudoAPDU.instruction:
      guard let command = try? UpdateBinaryPseudoAPDU(parsing: bytes) else { return failure(0x6700) }
      return update(command)
    case DirectTransmitPseudoAPDU.instruction:
      guard profile == .acs else { return [0x6A, 0x81] }
      guard let command = try? DirectTransmitPseudoAPDU(parsing: bytes) else { return failure(0x6700) }
      return directTransmit(command.payload)
    case TransparentSessionPseudoAPDU.instruction:
      guard profile == .transparent else { return [0x6A, 0x81] }
      guard let command = try? TransparentSessionPseudoAPDU(parsing: bytes) else { return failure(0x6700) }
      return transparentSession(command)
    default:
      return [0x6A, 0x81]
    }
  }

  /// GET DATA `FF CA 00 00 Le`: the UID (Le 00: all of it; fewer: 6CXX).
  private func getData(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.count == 5, bytes[3] == 0 else { return failure(0x6B00) }
    guard bytes[2] == GetDataPseudoAPDU.Item.uid.rawValue else { return [0x6A, 0x81] }
    let le = Int(bytes[4])
    guard le == 0 || le >= uid.count else { return failure(0x6C00 | UInt16(uid.count)) }
    return uid + Self.ok
  }

  /// LOAD KEYS into the memory and slot this reader family has.
  private mutating func loadKeys(_ bytes: [UInt8]) -> [UInt8] {
    guard let command = try? LoadKeysPseudoAPDU(parsing: bytes) else { return failure(0x6700) }
    let structure = command.keyStructure
    guard !structure.isReaderKey else { return failure(profile == .scm ? 0x6382 : 0x6982) }
    guard !structure.isSecured else { return failure(profile == .scm ? 0x6385 : 0x6985) }
    guard command.key.count == LoadKeysPseudoAPDU.mifareKeyLength else {
      return failure(profile == .scm ? 0x6389 : 0x6989)
    }
    switch profile {
    case .acs:
      guard !structure.isNonVolatile, Self.acsSlots.contains(command.keyNumber) else {
        return failure(0x6300)
      }
      volatileKeys[command.keyNumber] = command.key
    case .omnikey:
      guard structure.isNonVolatile else { return failure(0x6986) }
      guard Self.omnikeySlots.contains(command.keyNumber) else { return failure(0x6988) }
      nonVolatileKeys[command.keyNumber] = command.key
    case .scm:
      guard !structure.isNonVolatile else { return failure(0x6387) }
      guard
        command.keyNumber == StorageCardKeyType.keyA.rawValue
          || command.keyNumber == StorageCardKeyType.keyB.rawValue
      else { return failure(0x6388) }
      volatileKeys[command.keyNumber] = command.key
    case .transparent:
      guard !structure.isNonVolatile, Self.transparentSlots.contains(command.keyNumber) else {
        return failure(0x6986)
      }
      volatileKeys[command.keyNumber] = command.key
    case .minimal:
      return [0x6A, 0x81]
    }
    return Self.ok
  }

  /// GENERAL AUTHENTICATE or AUTHENTICATE: the key the reader holds for `keyNumber` (SCM:
  /// for `keyType`) against the card.
  private mutating func authenticate(block: Int, keyType: StorageCardKeyType, keyNumber: UInt8) -> [UInt8] {
    guard case .mifareClassic(var card) = tag else { return failure(0x6983) }
    let slot: MifareClassicCardModel.KeySlot
    switch keyType {
    case .keyA: slot = .a
    case .keyB: slot = .b
    default: return failure(0x6986)
    }
    let stored: [UInt8]?
    switch profile {
    case .acs, .transparent: stored = volatileKeys[keyNumber]
    case .omnikey: stored = nonVolatileKeys[keyNumber]
    case .scm: stored = volatileKeys[keyType.rawValue]
    case .minimal: stored = nil
    }
    guard let key = stored else { return failure(0x6988) }
    guard block >= 0, block < card.product.blockCount else { return failure(0x6581) }
    guard !halted else { return failure(0x6982) }
    let outcome = card.authenticate(block: block, slot: slot, key: key)
    tag = .mifareClassic(card)
    guard case .done = outcome else {
      halted = true
      return failure(0x6982)
    }
    return Self.ok
  }

  /// READ BINARY with this card kind's addressing.
  private mutating func read(_ command: ReadBinaryPseudoAPDU) -> [UInt8] {
    let le = Int(command.expectedLength)
    switch tag {
    case .type2(let type2):
      guard let page = StorageCardAddressing.type2Page.block(forParameters: command.parameters) else {
        return failure(0x6B00)
      }
      let count = le == 0 ? StorageCardAddressing.type2ReadLength : le
      guard count <= StorageCardAddressing.type2ReadLength else { return failure(0x6700) }
      guard page < type2.product.pageCount, let bytes = type2Answer([0x30, UInt8(page)]) else {
        return failure(0x6A82)
      }
      return Array(bytes.prefix(count)) + Self.ok
    case .mifareClassic(var card):
      guard let block = StorageCardAddressing.mifareClassicBlock.block(forParameters: command.parameters)
      else {
        return failure(0x6B00)
      }
      guard le == 0 || le == MifareClassicCardModel.blockSize else { return failure(0x6700) }
      guard block < card.product.blockCount else { return failure(0x6A82) }
      guard !halted else { return failure(0x6982) }
      let covered = card.authenticatedSector == MifareClassicCardModel.sector(ofBlock: block)
      let outcome = card.read(block: block)
      tag = .mifareClassic(card)
      guard case .done(let bytes) = outcome else {
        halted = true
        return failure(covered ? 0x6986 : 0x6982)
      }
      return bytes + Self.ok
    case .type5(let memory):
      guard let block = memory.addressing.block(forParameters: command.parameters) else {
        return failure(0x6B00)
      }
      guard le == 0 || le == memory.blockSize else { return failure(0x6700) }
      let start = block * memory.blockSize
      guard start + memory.blockSize <= memory.memory.count else { return failure(0x6A82) }
      return Array(memory.memory[start..<(start + memory.blockSize)]) + Self.ok
    case .felica:
      return failure(0x6981)
    }
  }

  /// UPDATE BINARY with this card kind's addressing: one Type 2 page, one MIFARE Classic
  /// block, one ISO/IEC 15693 block.
  private mutating func update(_ command: UpdateBinaryPseudoAPDU) -> [UInt8] {
    switch tag {
    case .type2(let type2):
      guard let page = StorageCardAddressing.type2Page.block(forParameters: command.parameters) else {
        return failure(0x6B00)
      }
      guard command.data.count == StorageCardAddressing.type2WriteLength else { return failure(0x6700) }
      guard page < type2.product.pageCount else { return failure(0x6A82) }
      guard type2Answer([0xA2, UInt8(page)] + command.data) != nil else { return failure(0x6986) }
      return Self.ok
    case .mifareClassic(var card):
      guard let block = StorageCardAddressing.mifareClassicBlock.block(forParameters: command.parameters)
      else {
        return failure(0x6B00)
      }
      guard command.data.count == MifareClassicCardModel.blockSize else { return failure(0x6700) }
      guard block < card.product.blockCount else { return failure(0x6A82) }
      guard !halted else { return failure(0x6982) }
      let covered = card.authenticatedSector == MifareClassicCardModel.sector(ofBlock: block)
      let outcome = card.write(block: block, command.data)
      tag = .mifareClassic(card)
      guard case .done = outcome else {
        halted = true
        return failure(covered ? 0x6986 : 0x6982)
      }
      return Self.ok
    case .type5(var memory):
      guard let block = memory.addressing.block(forParameters: command.parameters) else {
        return failure(0x6B00)
      }
      guard command.data.count == memory.blockSize else { return failure(0x6700) }
      let start = block * memory.blockSize
      guard start + memory.blockSize <= memory.memory.count else { return failure(0x6A82) }
      for (i, byte) in command.data.enumerated() { memory.memory[start + i] = byte }
      tag = .type5(memory)
      return Self.ok
    case .felica:
      return failure(0x6981)
    }
  }

  /// Direct transmit (ACS): a raw Type 2 or FeliCa command to the tag, its answer with
  /// 9000; a NAK, or a card that takes no raw frames here, is 6300.
  private mutating func directTransmit(_ payload: [UInt8]) -> [UInt8] {
    // An ACR122U's direct transmit reaches its PN532: InDataExchange `D4 40 01 frame` is
    // answered `D5 41 00 answer`, or status 01 (timeout) for silence (PN532 user manual
    // §7.3.8, ACR122T API §7.3).
    let pn532 = payload.starts(with: [0xD4, 0x40, 0x01])
    let frame = pn532 ? Array(payload.dropFirst(3)) : payload
    let answer: [UInt8]?
    switch tag {
    case .type2: answer = type2Answer(frame)
    case .felica(var felica):
      answer = felica.answer(frame)
      tag = .felica(felica)
    default: answer = nil
    }
    guard let answer else { return pn532 ? [0xD5, 0x41, 0x01] + Self.ok : failure(0x6300) }
    return (pn532 ? [0xD5, 0x41, 0x00] : []) + answer + Self.ok
  }

  /// The transparent session (Part 3 supplement, as wsrf2009/contactless-driver `pcsc.c`
  /// answers it): Manage Session objects are acknowledged; a Transparent Exchange
  /// transceive `95` sends its frame to the Type 2 tag or FeliCa card and answers `C0 03 00 90 00`,
  /// `92 01 00`, `96 02 00 00`, `97 L answer`; a NAK or no answer is `C0 03 00 64 01`
  /// (no answer from the card); anything else `C0 03 index 6A 81`. The outer status word is
  /// 9000 throughout. Where this differs from a reader: the supplement has Transparent
  /// Exchange inside a started session, and this firmware does not check that Start Session
  /// came first, so the tests do not prove that the transports start it.
  private mutating func transparentSession(_ command: TransparentSessionPseudoAPDU) -> [UInt8] {
    var objects: [TransparentDataObject] = []
    var status: [UInt8] = [0x00, 0x90, 0x00]
    for (index, object) in command.objects.enumerated() {
      let known: Bool
      switch (command.function, object.tag) {
      case (.manageSession, 0x81), (.manageSession, 0x82), (.manageSession, 0x83), (.manageSession, 0x84),
        (.manageSession, 0x5F46), (.transparentExchange, 0x90), (.transparentExchange, 0x91),
        (.transparentExchange, 0x92):
        known = true
      case (.transparentExchange, 0x95):
        let answer: [UInt8]?
        switch tag {
        case .type2: answer = type2Answer(object.value)
        case .felica(var felica):
          answer = felica.answer(object.value)
          tag = .felica(felica)
        default:
          status = [UInt8(truncatingIfNeeded: index), 0x6A, 0x81]
          return Self.sessionAnswer([TransparentDataObject(tag: 0xC0, value: status)])
        }
        guard let answer else {
          status = [UInt8(truncatingIfNeeded: index), 0x64, 0x01]
          return Self.sessionAnswer([TransparentDataObject(tag: 0xC0, value: status)])
        }
        objects += [
          .receiveBitFraming(0), TransparentDataObject(tag: 0x96, value: [0x00, 0x00]),
          TransparentDataObject(tag: 0x97, value: answer),
        ]
        known = true
      default:
        known = false
      }
      guard known else {
        status = [UInt8(truncatingIfNeeded: index), 0x6A, 0x81]
        return Self.sessionAnswer([TransparentDataObject(tag: 0xC0, value: status)])
      }
    }
    return Self.sessionAnswer([TransparentDataObject(tag: 0xC0, value: status)] + objects)
  }

  /// Data objects and 9000 (a value too long for the encoding would be a bug here: 6F00).
  private static func sessionAnswer(_ objects: [TransparentDataObject]) -> [UInt8] {
    guard let bytes = try? TransparentDataObject.encode(objects) else { return [0x6F, 0x00] }
    return bytes + ok
  }
}

extension StorageCardReader {
  /// The card kinds `insert storage KIND` takes.
  static let kinds = [
    "ntag213", "ntag215", "ntag216", "ultralight", "ultralight-ev1", "mfc-mini", "mfc-1k", "mfc-4k",
    "iso15693",
    "felica",
  ]

  /// ISO/IEC 15693 addressing variants by name (`p1`, `p1p2`, `byte`).
  static func addressing(named name: String, blockSize: Int) -> StorageCardAddressing? {
    switch name {
    case "p1": .blockInP1
    case "p1p2": .blockInP1P2
    case "byte": .byteAddress(blockSize: blockSize)
    default: nil
    }
  }

  /// A reader with a card of `kind`: blank (Type 2 and ISO/IEC 15693 formatted with an empty
  /// NDEF message, MIFARE Classic as shipped with transport keys) or holding `image`.
  static func make(
    kind: String, profile: Profile, uid: [UInt8]?, image: [UInt8]?, addressing: String
  ) -> StorageCardReader? {
    switch kind {
    case "ntag213", "ntag215", "ntag216", "ultralight", "ultralight-ev1":
      let (product, name): (Type2Product, StorageCardName) =
        switch kind {
        case "ntag213": (.ntag213, .mifareUltralight)
        case "ntag215": (.ntag215, .mifareUltralight)
        case "ntag216": (.ntag216, .mifareUltralight)
        case "ultralight": (.ultralight, .mifareUltralight)
        default: (.ultralightEV1, .mifareUltralightEV1)
        }
      let tag: SimulatedType2Tag
      if let image {
        guard let made = try? SimulatedType2Tag(product: product, memory: image) else { return nil }
        tag = made
      } else {
        guard
          let made = try? SimulatedType2Tag(
            product: product, uid: uid ?? [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
        else { return nil }
        tag = made
      }
      return StorageCardReader(
        profile: profile, tag: .type2(tag), uid: tag.uid, cardName: name, standard: .iso14443APart3)
    case "mfc-mini", "mfc-1k", "mfc-4k":
      let (product, name): (MifareClassicProduct, StorageCardName) =
        switch kind {
        case "mfc-mini": (.mini, .mifareMini)
        case "mfc-1k": (.classic1K, .mifareClassic1K)
        default: (.classic4K, .mifareClassic4K)
        }
      let card: SimulatedMifareClassicTag
      if let image {
        guard let made = try? SimulatedMifareClassicTag(product: product, memory: image) else { return nil }
        card = made
      } else {
        guard
          let made = try? SimulatedMifareClassicTag(product: product, uid: uid ?? [0xA1, 0xB2, 0xC3, 0xD4])
        else { return nil }
        card = made
      }
      return StorageCardReader(
        profile: profile, tag: .mifareClassic(card.card), uid: card.uid, cardName: name,
        standard: .iso14443APart3)
    case "iso15693":
      // ICODE SLIX: 28 blocks of 4 bytes (NXP SL2S2002 §8.1).
      let blockSize = 4
      guard let addressing = Self.addressing(named: addressing, blockSize: blockSize),
        let memory = image ?? (try? Type5Tag.formattedImage(memorySize: 112, blockSize: blockSize)),
        memory.count % blockSize == 0
      else { return nil }
      return StorageCardReader(
        profile: profile,
        tag: .type5(Type5Memory(memory: memory, blockSize: blockSize, addressing: addressing)),
        uid: uid ?? [0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x78], cardName: .icodeSLI,
        standard: .iso15693Part3)
    case "felica":
      return makeFeliCa(profile: profile, uid: uid, image: image)
    default:
      return nil
    }
  }
}
