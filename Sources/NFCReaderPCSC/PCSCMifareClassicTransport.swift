// SPDX-License-Identifier: Apache-2.0
import ISO7816
import MifareClassicNDEF
import NFCReader
import NFCTags
import NFCWire
import PCSCControl
import Synchronization

/// A `MifareClassicBlockTransport` over a MIFARE Classic card in a contactless PC/SC reader,
/// through the PC/SC Part 3 storage-card pseudo-APDUs (§3.2.2.1): LOAD KEYS into the reader
/// profile's key memory and slot (`LoadKeysFallbackPlan` tries the other
/// memory when the reader refuses the first), GENERAL AUTHENTICATE (the older AUTHENTICATE
/// `FF 88` when the reader does not know it), READ BINARY and UPDATE BINARY of one 16-byte
/// block, and `SCardReconnect` to activate a halted card again.
///
/// The reader runs Crypto-1: the key goes to the reader, never into an error or a log
/// (`LoadKeysPseudoAPDU` hides it in its description).
public struct PCSCMifareClassicTransport: MifareClassicBlockTransport {
  /// The connected card.
  public let card: PCSCCard
  /// The reader's quirks: key memory, slots, what LOAD KEYS P2 names, status words.
  public let profile: StorageCardReaderProfile
  /// The reader key slot the keys go into.
  public let keySlot: UInt8
  private let loaded: LoadedKeys

  /// The keys the reader holds, so an unchanged key is not loaded again, and the key
  /// memory that worked, so the next LOAD KEYS goes there first.
  private final class LoadedKeys: Sendable {
    struct State {
      var keys: [UInt8: [UInt8]] = [:]
      var structure: LoadKeysPseudoAPDU.KeyStructure?
    }
    let state = Mutex(State())
  }

  /// Creates a transport.
  ///
  /// - Parameters:
  ///   - card: the card, connected shared or exclusive.
  ///   - profile: the reader's profile (`StorageCardReaderProfile.matching(readerName:)`
  ///     of the reader name, or the caller's choice).
  ///   - keySlot: the reader key slot to load keys into; the profile's first slot (or 00)
  ///     when nil.
  public init(card: PCSCCard, profile: StorageCardReaderProfile, keySlot: UInt8? = nil) {
    self.card = card
    self.profile = profile
    self.keySlot = keySlot ?? profile.keySlots?.lowerBound ?? 0
    self.loaded = LoadedKeys()
  }

  /// LOAD KEYS, then GENERAL AUTHENTICATE of `block` (AUTHENTICATE `FF 88` when the reader
  /// answers 6A81 or 6D00 to it).
  ///
  /// - Returns: `false` when the reader reports the key refused (6300, 6982, 6983, 6984):
  ///   the card is then halted; ``reselect()`` activates it again.
  /// - Throws: `ReaderError.Code.unsupportedFeature` when the reader cannot load keys or
  ///   authenticate (6A81), `ReaderError.Code.tagError` for another status word,
  ///   `ReaderError.Code.tagLost` when the card left.
  public func authenticate(block: Int, slot: MifareClassicKeySlot, key: MifareClassicKey)
    async throws(ReaderError) -> Bool
  {
    guard (0...0xFF).contains(block) else {
      throw ReaderError(.invalidArgument, "block \(block) is outside MIFARE Classic's 00-FF")
    }
    let keyType: StorageCardKeyType = slot == .a ? .keyA : .keyB
    try await load(key.bytes, keyType: keyType)
    let number = profile.authenticateKeyNumber(keyType: keyType, slot: keySlot)
    let general = GeneralAuthenticatePseudoAPDU(block: UInt16(block), keyType: keyType, keyNumber: number)
    var answer = try await Self.authenticationAnswer(card.transmit(general.encodedBytes()))
    if Self.isUnsupported(answer) {
      let legacy = LegacyAuthenticatePseudoAPDU(block: UInt8(block), keyType: keyType, keyNumber: number)
      answer = try await Self.authenticationAnswer(card.transmit(legacy.encodedBytes()))
      if Self.isUnsupported(answer) {
        throw ReaderError(
          .unsupportedFeature,
          "\(card.reader) answers \(Self.statusText(answer)) to GENERAL AUTHENTICATE and AUTHENTICATE: it cannot open MIFARE Classic sectors"
        )
      }
    }
    switch answer {
    case .authenticated: return true
    case .noInformation, .securityStatusNotSatisfied, .authenticationCannotBeDone, .referenceKeyNotUsable:
      return false
    default:
      throw ReaderError(
        .tagError, "GENERAL AUTHENTICATE of block \(block) answered \(Self.statusText(answer))")
    }
  }

  /// READ BINARY of one 16-byte block (`FF B0 00 block 10`).
  ///
  /// - Throws: `ReaderError.Code.tagError` when the reader refuses (not authenticated, the
  ///   access conditions, 6300 on ACS readers), `ReaderError.Code.unsupportedFeature` for
  ///   6A81, `ReaderError.Code.tagLost` when the card left.
  public func readBlock(_ block: Int) async throws(ReaderError) -> [UInt8] {
    guard
      let command = ReadBinaryPseudoAPDU(
        block: block, addressing: .mifareClassicBlock,
        expectedLength: UInt8(StorageCardAddressing.mifareClassicBlockLength))
    else { throw ReaderError(.invalidArgument, "block \(block) is outside MIFARE Classic's 00-FF") }
    return try await PCSCStorageCardIO.readBinary(card, command, "READ BINARY of block \(block)")
  }

  /// UPDATE BINARY of one 16-byte block (`FF D6 00 block 10 data`).
  ///
  /// - Throws: as ``readBlock(_:)``.
  public func writeBlock(_ block: Int, _ bytes: [UInt8]) async throws(ReaderError) {
    guard bytes.count == StorageCardAddressing.mifareClassicBlockLength,
      let command = UpdateBinaryPseudoAPDU(block: block, addressing: .mifareClassicBlock, data: bytes)
    else { throw ReaderError(.invalidArgument, "a MIFARE Classic write is 16 bytes into block 00-FF") }
    try await PCSCStorageCardIO.updateBinary(card, command, "UPDATE BINARY of block \(block)")
  }

  /// Activates the card again with a warm reset (`SCardReconnect`): after a refused key
  /// the card is halted and the reader does not select it by itself.
  ///
  /// - Throws: `ReaderError.Code.tagLost` when the card left.
  public func reselect() async throws(ReaderError) {
    try await card.reconnect(.reset)
  }

  // MARK: Steps

  /// Loads `key` for `keyType` unless the reader holds it already: the plan's attempts in
  /// order, the memory that worked last time first.
  private func load(_ key: [UInt8], keyType: StorageCardKeyType) async throws(ReaderError) {
    var plan = profile.loadKeysPlan(key: key, keyType: keyType, slot: keySlot)
    let number = profile.loadKeysKeyNumber(keyType: keyType, slot: keySlot)
    let (held, structure) = loaded.state.withLock { ($0.keys[number], $0.structure) }
    if held == key { return }
    if let structure, let index = plan.attempts.firstIndex(where: { $0.keyStructure == structure }), index > 0
    {
      plan.attempts.insert(plan.attempts.remove(at: index), at: 0)
    }
    var index = 0
    var attempt = plan.attempts.first
    var last: LoadKeysPseudoAPDU.Answer = .noInformation
    while let command = attempt {
      let encoded: [UInt8]
      do { encoded = try command.encodedBytes() } catch {
        throw ReaderError(.invalidArgument, "LOAD KEYS: \(error)")
      }
      let answer: LoadKeysPseudoAPDU.Answer
      do { answer = try LoadKeysPseudoAPDU.answer(parsing: try await card.transmit(encoded)) } catch {
        throw ReaderError(.tagError, "LOAD KEYS: \(error)")
      }
      if answer == .loaded {
        loaded.state.withLock {
          $0.keys[number] = key
          $0.structure = command.keyStructure
        }
        return
      }
      last = answer
      attempt = plan.attempt(after: index, answered: answer)
      index += 1
    }
    if case .failed(let sw) = last, sw.rawValue == 0x6A81 || sw.rawValue == 0x6D00 {
      throw ReaderError(
        .unsupportedFeature,
        "\(card.reader) answers \(Hex.uppercaseString([sw.sw1, sw.sw2])) to LOAD KEYS: it cannot hold MIFARE Classic keys"
      )
    }
    throw ReaderError(
      .tagError, "\(card.reader) refused LOAD KEYS into slot \(keySlot) (\(profile.name) profile): \(last)")
  }

  private static func authenticationAnswer(_ response: [UInt8]) throws(ReaderError)
    -> GeneralAuthenticatePseudoAPDU.Answer
  {
    do { return try GeneralAuthenticatePseudoAPDU.answer(parsing: response) } catch {
      throw ReaderError(.tagError, "GENERAL AUTHENTICATE: \(error)")
    }
  }

  private static func isUnsupported(_ answer: GeneralAuthenticatePseudoAPDU.Answer) -> Bool {
    guard case .failed(let sw) = answer else { return false }
    return sw.rawValue == 0x6A81 || sw.rawValue == 0x6D00
  }

  private static func statusText(_ answer: GeneralAuthenticatePseudoAPDU.Answer) -> String {
    switch answer {
    case .authenticated: "9000"
    case .noInformation: "6300 (no information)"
    case .addressDoesNotExist: "6581 (address does not exist)"
    case .securityStatusNotSatisfied: "6982 (security status not satisfied)"
    case .authenticationCannotBeDone: "6983 (authentication cannot be done)"
    case .referenceKeyNotUsable: "6984 (reference key not usable)"
    case .keyTypeNotKnown: "6986 (key type not known)"
    case .keyNumberNotValid: "6988 (key number not valid)"
    case .failed(let sw): Hex.uppercaseString([sw.sw1, sw.sw2])
    }
  }
}
