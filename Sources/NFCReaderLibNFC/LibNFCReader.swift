// SPDX-License-Identifier: Apache-2.0
import CLibNFC
import MonotonicTime
import NFCReader
import NFCTags
import Synchronization
import Type3NDEF

/// Connection strings opened by this process (a second open is refused as busy).
private let openConnstrings = Mutex<Set<String>>([])

/// How long a second open of a connection string open in this process waits for it to be
/// closed before it is refused as busy.
private let reopenGrace: Duration = .milliseconds(1500)

/// An open libnfc device acting as initiator: polls for tags and exchanges frames with
/// them. Every libnfc call runs on the reader's own dispatch queue, off the cooperative
/// pool; cancelling the calling task aborts the command in progress (`nfc_abort_command`).
///
/// As a `ClaimedReader` it belongs to one session: after ``close()`` every call
/// throws `ReaderError.Code.sessionEnded`.
public final class LibNFCReader: ClaimedReader {
  /// The device's connection string, such as `pn532_uart:/dev/pts/3`.
  public let connstring: String
  /// The device's name as libnfc reports it.
  public let name: String
  /// What ``poll()`` looks for, in this order.
  public let modulations: [TargetModulation]
  /// The timeout of one tag exchange (READ, WRITE, GET_VERSION); APDUs take their own.
  public let exchangeTimeout: Duration
  private let handle: LibNFCHandle
  private let current = Mutex<Current>(Current())

  private struct Current {
    var uid: [UInt8]?
    var generation: UInt64 = 0
    var closed = false
  }

  private init(
    handle: LibNFCHandle, connstring: String, name: String, modulations: [TargetModulation],
    exchangeTimeout: Duration
  ) {
    self.handle = handle
    self.connstring = connstring
    self.name = name
    self.modulations = modulations
    self.exchangeTimeout = exchangeTimeout
  }

  /// Opens a device by connection string, or the first one libnfc finds when nil
  /// (`nfc_open`), and makes it an initiator (`nfc_initiator_init`). Throws
  /// `ReaderError.Code.noReader` when `connstring` is nil and libnfc lists no device, and
  /// `ReaderError.Code.deviceBusy` when it cannot be opened or is still open in this process
  /// after a short grace (1.5 s, for a reader that is closing).
  public static func open(
    connstring: String? = nil, modulations: [TargetModulation] = TargetModulation.allCases,
    exchangeTimeout: Duration = .seconds(1)
  ) async throws(ReaderError) -> LibNFCReader {
    if let connstring {
      // A reader of this process that is closing (its device gone, its session ending) gets
      // a moment to let go: a pseudo-terminal's name comes back for the next one opened.
      var fresh = openConnstrings.withLock { $0.insert(connstring).inserted }
      let clock = ContinuousClock()
      let deadline = clock.now + reopenGrace
      while !fresh && clock.now < deadline && !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(20))
        fresh = openConnstrings.withLock { $0.insert(connstring).inserted }
      }
      guard fresh else { throw ReaderError(.deviceBusy, "\(connstring) is already open in this process") }
    }
    let handle = LibNFCHandle(label: "LibNFCReader \(connstring ?? "first device")")
    let opened: (String, String)
    do {
      opened = try await handle.perform { $0.open(connstring) }
    } catch {
      if let connstring { _ = openConnstrings.withLock { $0.remove(connstring) } }
      await handle.run { $0.close() }
      throw error
    }
    if connstring == nil {
      let fresh = openConnstrings.withLock { $0.insert(opened.0).inserted }
      if !fresh {
        await handle.run { $0.close() }
        throw ReaderError(.deviceBusy, "\(opened.0) is already open in this process")
      }
    }
    return LibNFCReader(
      handle: handle, connstring: opened.0, name: opened.1, modulations: modulations,
      exchangeTimeout: exchangeTimeout)
  }

  /// The connection strings libnfc finds (`nfc_list_devices`; includes `LIBNFC_DEVICE`).
  public static func deviceConnstrings() async -> [String] {
    let handle = LibNFCHandle(label: "LibNFCReader list")
    return await handle.run { _ in LibNFCHandle.listDevices() }
  }

  /// Whether a reader of this process has the device open.
  public static func isOpenInThisProcess(connstring: String) -> Bool {
    openConnstrings.withLock { $0.contains(connstring) }
  }

  /// Whether the reader is still open.
  public var isOpen: Bool { current.withLock { !$0.closed } }

  /// Closes the device (`nfc_close`); tag handles become unusable. Runs even when the
  /// calling task is cancelled.
  public func close() async {
    let first = current.withLock {
      let first = !$0.closed
      $0.closed = true
      return first
    }
    guard first else { return }
    await handle.run { $0.close() }
    _ = openConnstrings.withLock { $0.remove(connstring) }
  }

  /// Ends a session on this reader: a PN53x shows no messages, so this is ``close()``.
  public func close(ending: SessionEnding, message: String?) async {
    await close()
  }

  // MARK: Polling

  /// Selects the first target answering one of ``modulations`` (one attempt each); for a
  /// type A tag with SAK 0x00, asks GET_VERSION (raw `60`, CRC by the PN53x, through
  /// InCommunicateThru) to tell the Type 2 variant. Nil when the field is empty.
  public func poll() async throws(ReaderError) -> LibNFCTag? {
    try checkOpen()
    let modulations = self.modulations
    let timeout = milliseconds(exchangeTimeout)
    let found = try await handle.perform { handle -> Result<Detected?, ReaderError> in
      for modulation in modulations {
        switch handle.select(modulation.nfc, initiatorData: modulation.initiatorData) {
        case .failure(let error):
          if error.isDeviceFailure || error.code == .cancelled || error.code == .sessionEnded {
            return .failure(error)
          }
        case .success(nil):
          continue
        case .success(let target?):
          var detected = Detected(modulation: modulation, target: target)
          if detected.kind == .type2(nil) { detected.identify(handle, timeout: timeout) }
          return .success(detected)
        }
      }
      return .success(nil)
    }
    return current.withLock { state in
      guard let found else {
        if state.uid != nil { state.generation += 1 }
        state.uid = nil
        return nil
      }
      if state.uid != found.uid {
        state.generation += 1
        state.uid = found.uid
      }
      return found.tag(generation: state.generation)
    }
  }

  // MARK: Type 2

  /// READ (0x30): 16 bytes, four pages from `page` (NFC Forum T2T 1.0, 5.1; the tag rolls
  /// over past its last page).
  public func readPages(startingAt page: Int, of tag: LibNFCTag) async throws(ReaderError) -> [UInt8] {
    guard (0...255).contains(page) else { throw ReaderError(.invalidArgument, "page \(page) is not 0...255") }
    try requireType2(tag)
    let timeout = milliseconds(exchangeTimeout)
    let answer = try await exchange(tag) {
      $0.transceive([0x30, UInt8(page)], capacity: 16, timeout: timeout)
    }
    guard answer.count == 16 else {
      throw ReaderError(.tagError, "READ \(page) answered \(answer.count) bytes, not 16")
    }
    return answer
  }

  /// WRITE (0xA2): 4 bytes into `page` (T2T 1.0, 5.2). Pages 0-1 (UID) are refused here.
  public func writePage(_ page: Int, _ bytes: [UInt8], to tag: LibNFCTag) async throws(ReaderError) {
    guard bytes.count == 4 else {
      throw ReaderError(.invalidArgument, "a page has 4 bytes, got \(bytes.count)")
    }
    let last = (tag.type2Variant?.pageCount ?? 256) - 1
    guard (2...last).contains(page) else {
      throw ReaderError(.invalidArgument, "page \(page) is not writable (2...\(last))")
    }
    try requireType2(tag)
    let timeout = milliseconds(exchangeTimeout)
    _ = try await exchange(tag) {
      $0.transceive([0xA2, UInt8(page)] + bytes, capacity: 16, timeout: timeout)
    }
  }

  /// The raw memory image: for a Type 2 tag `pageCount` pages (default: the variant's),
  /// read 4 pages at a time; for a Type 3 tag the attribute block and its data blocks; for
  /// a Type 1 tag with static memory (HR0 0x11) its 120 bytes from block 0, read byte by
  /// byte with READ as libnfc's `nfc-jewel` reads them; for a dynamic one (Topaz 512) the
  /// (TMS + 1) × 8 bytes its capability container announces (segment 0 alone when it has
  /// none), read with RSEG.
  public func readMemory(of tag: LibNFCTag, pageCount: Int? = nil) async throws(ReaderError) -> [UInt8] {
    if tag.kind == .type3 { return try await readType3Memory(of: tag) }
    if tag.kind == .type1 {
      let identification = try await readType1Identification(of: tag)
      return try await readType1Memory(of: tag, headerROM: identification[0])
    }
    guard let pages = pageCount ?? tag.type2Variant?.pageCount else {
      throw ReaderError(
        .unsupportedFeature, "memory dumps need a Type 2 tag of known size (\(tag.kind.name))")
    }
    guard (1...256).contains(pages) else {
      throw ReaderError(.invalidArgument, "page count \(pages) is not 1...256")
    }
    var image: [UInt8] = []
    image.reserveCapacity(pages * 4)
    var page = 0
    while page < pages {
      let chunk = try await readPages(startingAt: page, of: tag)
      image += chunk.prefix(min(16, (pages - page) * 4))
      page += 4
    }
    return image
  }

  /// A Type 1 image from block 0: static (HR0 low nibble 1) by READ, dynamic by RSEG.
  func readType1Memory(of tag: LibNFCTag, headerROM hr0: UInt8) async throws(ReaderError) -> [UInt8] {
    if hr0 & 0x0F == 0x01 {
      // The 120 bytes of static memory, one READ each (as libnfc's nfc-jewel reads).
      var image: [UInt8] = []
      image.reserveCapacity(Self.type1StaticSize)
      for address in 0..<Self.type1StaticSize { image.append(try await readType1Byte(at: address, of: tag)) }
      return image
    }
    var image = try await readType1Segment(0, of: tag)
    // CC at bytes 8-11: NMN E1, then TMS: (TMS + 1) × 8 bytes of memory.
    let size = image[8] == 0xE1 ? (Int(image[10]) + 1) * 8 : Self.type1SegmentSize
    var segment = 1
    while image.count < size {
      image += try await readType1Segment(segment, of: tag)
      segment += 1
    }
    return Array(image.prefix(size))
  }

  /// A Type 3 dump: the attribute information block, then its Nmaxb data blocks, read Nbr
  /// blocks per Check (`Type3NDEFProcedure.readMemory()`; T3T 1.0 §7.4.1).
  private func readType3Memory(of tag: LibNFCTag) async throws(ReaderError) -> [UInt8] {
    let procedure = Type3NDEFProcedure(transport: try LibNFCType3Transport(reader: self, tag: tag))
    do { return try await procedure.readMemory() } catch {
      switch error {
      case .reader(let failure): throw failure
      case .tag(let failure): throw ReaderError(.tagError, "\(failure)")
      }
    }
  }

  // MARK: Type 1

  /// Static Type 1 memory: blocks 0-E.
  static let type1StaticSize = 120
  /// RSEG answers one segment: 16 blocks of 8 bytes.
  static let type1SegmentSize = Type1Command.segmentSize
  /// Dynamic Type 1 memory is at most 2048 bytes (TMS 0xFF): 16 segments.
  static let type1SegmentCount = Type1Command.segmentCount

  /// RID (0x78): the header ROM HR0 HR1 and the first four UID bytes (T1T 1.0, 5.1).
  /// HR0 0x11 is a static tag (Topaz 96), 0x12 a dynamic one (Topaz 512).
  public func readType1Identification(of tag: LibNFCTag) async throws(ReaderError) -> [UInt8] {
    let answer = try await type1Exchange(Type1Command.readIdentification, capacity: 8, with: tag)
    do throws(NFCTagError) {
      let (rom, uid) = try Type1Command.identification(parsing: answer)
      return [rom.hr0, rom.hr1] + uid
    } catch { throw ReaderError(frame: error, "RID") }
  }

  /// READ (0x01): one byte of blocks 0-F of a Type 1 tag (NFC Forum T1T 1.0, 5.4); the
  /// PN53x adds the UID and CRC.
  public func readType1Byte(at address: Int, of tag: LibNFCTag) async throws(ReaderError) -> UInt8 {
    let frame: [UInt8]
    do throws(NFCTagError) { frame = try Type1Command.readByte(at: address) } catch {
      throw ReaderError(frame: error, "READ of address \(address)")
    }
    let answer = try await type1Exchange(frame, capacity: 8, with: tag)
    do throws(NFCTagError) { return try Type1Command.byte(parsing: answer) } catch {
      throw ReaderError(frame: error, "READ")
    }
  }

  /// WRITE-E (0x53): erases and writes one byte of blocks 1-F (T1T 1.0, 5.5). Block 0
  /// (UID) is refused.
  public func writeType1Byte(_ value: UInt8, at address: Int, to tag: LibNFCTag) async throws(ReaderError) {
    let frame: [UInt8]
    do throws(NFCTagError) { frame = try Type1Command.writeEraseByte(value, at: address) } catch {
      throw ReaderError(frame: error, "WRITE-E of address \(address)")
    }
    let answer = try await type1Exchange(frame, capacity: 8, with: tag)
    do throws(NFCTagError) { try Type1Command.writeEraseByteAnswer(answer, written: value) } catch {
      throw ReaderError(frame: error, "WRITE-E")
    }
  }

  /// RSEG (0x10): segment `segment` (0-15, 128 bytes = blocks 16 × segment onward) of a
  /// dynamic Type 1 tag (T1T 1.0, 5.6); the segment goes in ADDS bits 7-4.
  public func readType1Segment(_ segment: Int, of tag: LibNFCTag) async throws(ReaderError) -> [UInt8] {
    let frame: [UInt8]
    do throws(NFCTagError) { frame = try Type1Command.readSegment(segment) } catch {
      throw ReaderError(frame: error, "RSEG of segment \(segment)")
    }
    let answer = try await type1Exchange(frame, capacity: 256, with: tag)
    do throws(NFCTagError) { return try Type1Command.segment(parsing: answer) } catch {
      throw ReaderError(frame: error, "RSEG")
    }
  }

  /// READ8 (0x02): the 8 bytes of block `block` (0-255) of a dynamic Type 1 tag (T1T 1.0, 5.7).
  public func readType1Block(_ block: Int, of tag: LibNFCTag) async throws(ReaderError) -> [UInt8] {
    let frame: [UInt8]
    do throws(NFCTagError) { frame = try Type1Command.readBlock(block) } catch {
      throw ReaderError(frame: error, "READ8 of block \(block)")
    }
    let answer = try await type1Exchange(frame, capacity: 16, with: tag)
    do throws(NFCTagError) { return try Type1Command.block(parsing: answer) } catch {
      throw ReaderError(frame: error, "READ8")
    }
  }

  /// WRITE-E8 (0x54): erases and writes the 8 bytes of block `block` (1-255) of a dynamic
  /// Type 1 tag (T1T 1.0, 5.8); the tag answers the block as written. Block 0 is refused.
  public func writeType1Block(_ block: Int, _ bytes: [UInt8], to tag: LibNFCTag) async throws(ReaderError) {
    let frame: [UInt8]
    do throws(NFCTagError) { frame = try Type1Command.writeEraseBlock(block, bytes) } catch {
      throw ReaderError(frame: error, "WRITE-E8 of block \(block)")
    }
    let answer = try await type1Exchange(frame, capacity: 16, with: tag)
    do throws(NFCTagError) { try Type1Command.writeEraseBlockAnswer(answer, written: bytes) } catch {
      throw ReaderError(frame: error, "WRITE-E8")
    }
  }

  /// Sends one Type 1 frame of ``Type1Command`` to `tag` (checked to be a Type 1 tag first).
  private func type1Exchange(_ frame: [UInt8], capacity: Int, with tag: LibNFCTag) async throws(ReaderError)
    -> [UInt8]
  {
    try requireType1(tag)
    let timeout = milliseconds(exchangeTimeout)
    return try await exchange(tag) { $0.transceive(frame, capacity: capacity, timeout: timeout) }
  }

  private func requireType1(_ tag: LibNFCTag) throws(ReaderError) {
    guard tag.kind == .type1 else {
      throw ReaderError(.unsupportedFeature, "byte commands need a Type 1 tag (\(tag.kind.name))")
    }
  }

  // MARK: Type 3

  /// Check (0x06) without encryption: `count` blocks of 16 bytes from `block` of
  /// `service` (default 000B, the NDEF read service; NFC Forum T3T 1.0 section 5, JIS X
  /// 6319-4). Sent as a raw FeliCa frame `LEN 06 IDm ...` through InCommunicateThru, as
  /// libnfc's `nfc-read-forum-tag3` does.
  public func readBlocks(startingAt block: Int, count: Int, of tag: LibNFCTag, service: UInt16 = 0x000B)
    async throws(ReaderError) -> [UInt8]
  {
    try requireType3(tag)
    guard (1...FeliCaBlockFrame.maximumCheckBlocks).contains(count), block >= 0, block <= 0x1_0000 - count
    else {
      throw ReaderError(.invalidArgument, "block count \(count) is not 1...15 or a block is past 65535")
    }
    let frame = try FeliCaBlockFrame.check(idm: tag.uid, service: service, blocks: block..<(block + count))
    let answer = try await transceiveRaw(frame, with: tag)
    return try FeliCaBlockFrame.checkAnswer(answer, idm: tag.uid, blockCount: count)
  }

  /// Update (0x08) without encryption: writes `data` (a multiple of 16 bytes) from `block`
  /// of `service` (default 0009, the NDEF write service).
  public func writeBlocks(startingAt block: Int, _ data: [UInt8], to tag: LibNFCTag, service: UInt16 = 0x0009)
    async throws(ReaderError)
  {
    try requireType3(tag)
    guard !data.isEmpty, data.count % 16 == 0, data.count <= 15 * 16, block >= 0,
      block <= 0x1_0000 - data.count / 16
    else {
      throw ReaderError(.invalidArgument, "Update writes 1...15 blocks of 16 bytes, got \(data.count) bytes")
    }
    let frame = try FeliCaBlockFrame.update(
      idm: tag.uid, service: service, blocks: block..<(block + data.count / 16), data: data)
    try FeliCaBlockFrame.updateAnswer(try await transceiveRaw(frame, with: tag), idm: tag.uid)
  }

  private func requireType3(_ tag: LibNFCTag) throws(ReaderError) {
    guard tag.kind == .type3 else {
      throw ReaderError(.unsupportedFeature, "block commands need a FeliCa tag (\(tag.kind.name))")
    }
  }

  // MARK: ISO-DEP and raw frames

  /// Sends a command APDU to an ISO-DEP tag and returns the response APDU (data and
  /// status word), through `nfc_initiator_transceive_bytes` (InDataExchange: the PN53x does
  /// the ISO/IEC 14443-4 block framing).
  public func exchangeAPDU(_ command: [UInt8], with tag: LibNFCTag, timeout: Duration = .seconds(5))
    async throws(ReaderError) -> [UInt8]
  {
    guard tag.kind == .type4 else {
      throw ReaderError(.unsupportedFeature, "APDUs need an ISO-DEP tag (\(tag.kind.name))")
    }
    guard command.count >= 4 else {
      throw ReaderError(.invalidArgument, "a command APDU has at least 4 bytes")
    }
    let ms = milliseconds(timeout)
    let answer = try await exchange(tag) { $0.transceive(command, capacity: 264, timeout: ms) }
    guard answer.count >= 2 else {
      throw ReaderError(.tagError, "the response APDU has \(answer.count) bytes, no status word")
    }
    return answer
  }

  /// Sends a raw frame (InCommunicateThru, no easy framing). With `handlesCRC` false the
  /// caller appends CRC_A and gets the answer's CRC back.
  public func transceiveRaw(_ frame: [UInt8], with tag: LibNFCTag, handlesCRC: Bool = true)
    async throws(ReaderError) -> [UInt8]
  {
    let timeout = milliseconds(exchangeTimeout)
    return try await exchange(tag) { handle in
      if case .failure(let error) = handle.setProperty(NP_EASY_FRAMING, false) { return .failure(error) }
      if !handlesCRC, case .failure(let error) = handle.setProperty(NP_HANDLE_CRC, false) {
        return .failure(error)
      }
      let result = handle.transceive(frame, capacity: 264, timeout: timeout)
      if !handlesCRC { _ = handle.setProperty(NP_HANDLE_CRC, true) }
      _ = handle.setProperty(NP_EASY_FRAMING, true)
      return result
    }
  }

  // MARK: Checks

  private func checkOpen() throws(ReaderError) {
    guard current.withLock({ !$0.closed }) else {
      throw ReaderError(.sessionEnded, "the reader was closed (its session ended)")
    }
  }

  private func validate(_ tag: LibNFCTag) throws(ReaderError) {
    try checkOpen()
    guard current.withLock({ $0.generation == tag.generation && $0.uid == tag.uid }) else {
      throw ReaderError(.sessionEnded, "this tag handle is stale: the tag left or another was detected since")
    }
  }

  private func requireType2(_ tag: LibNFCTag) throws(ReaderError) {
    guard case .type2 = tag.kind else {
      throw ReaderError(.unsupportedFeature, "page commands need a Type 2 tag (\(tag.kind.name))")
    }
  }

  /// Runs one exchange; on a failed exchange, selects the tag again to tell a tag that
  /// left (``ReaderError/Code/tagLost``) from one that refused (``ReaderError/Code/tagError``).
  func exchange<T: Sendable>(
    _ tag: LibNFCTag, _ body: @escaping @Sendable (LibNFCHandle) -> Result<T, ReaderError>
  ) async throws(ReaderError) -> T {
    try validate(tag)
    let modulation = tag.modulation
    let uid = tag.uid
    do {
      return try await handle.perform { handle -> Result<T, ReaderError> in
        let result = body(handle)
        guard case .failure(var error) = result, error.code == .tagLost || error.code == .timeout else {
          return result
        }
        let again = handle.select(
          modulation.nfc, initiatorData: modulation == .iso14443A ? uid : modulation.initiatorData)
        switch again {
        case .success(.some):
          if error.code == .tagLost {
            error.code = .tagError
            error.message += "; the tag is in the field but refused the command"
          }
        case .success(.none):
          error.code = .tagLost
          error.message += "; the tag left the field"
        case .failure(let other):
          if other.isDeviceFailure { error = other }
        }
        return .failure(error)
      }
    } catch {
      if error.code == .tagLost {
        current.withLock {
          if $0.generation == tag.generation {
            $0.generation += 1
            $0.uid = nil
          }
        }
      }
      throw error
    }
  }
}

/// A selected target, decoded on the reader's queue.
struct Detected: Sendable {
  var modulation: TargetModulation
  var uid: [UInt8] = []
  var atqa: [UInt8] = []
  var sak: UInt8?
  var ats: [UInt8] = []
  var version: [UInt8]?
  var kind: TagKind = .unknown

  init(modulation: TargetModulation, target: nfc_target) {
    self.modulation = modulation
    switch modulation {
    case .iso14443A:
      // unsafe: reading a union member; libnfc filled `nai` because the target was selected as type A.
      let info = unsafe target.nti.nai
      uid = tupleBytes(info.abtUid, count: min(info.szUidLen, 10))
      atqa = tupleBytes(info.abtAtqa, count: 2)
      sak = info.btSak
      ats = tupleBytes(info.abtAts, count: min(info.szAtsLen, 254))
      switch info.btSak {
      case let s where s & 0x20 != 0: kind = .type4
      case 0x00: kind = .type2(nil)
      case 0x08, 0x09, 0x18, 0x19, 0x88: kind = .mifareClassic
      default: kind = .unknown
      }
    case .iso14443B:
      // unsafe: union member `nbi`, filled for a type B selection.
      uid = tupleBytes(unsafe target.nti.nbi.abtPupi, count: 4)
      kind = .type4
    case .felica212, .felica424:
      // unsafe: union member `nfi`, filled for a FeliCa selection.
      uid = tupleBytes(unsafe target.nti.nfi.abtId, count: 8)
      kind = .type3
    case .jewel:
      // unsafe: union member `nji`, filled for a Jewel selection.
      let info = unsafe target.nti.nji
      uid = tupleBytes(info.btId, count: 4)
      atqa = tupleBytes(info.btSensRes, count: 2)
      kind = .type1
    }
  }

  /// GET_VERSION through InCommunicateThru; without an answer the tag is a plain
  /// Ultralight, selected again (a tag that got no valid command goes back to IDLE).
  mutating func identify(_ handle: LibNFCHandle, timeout: Int32) {
    var answer: [UInt8]? = nil
    if case .success = handle.setProperty(NP_EASY_FRAMING, false) {
      if case .success(let bytes) = handle.transceive([0x60], capacity: 16, timeout: timeout) {
        answer = bytes
      }
      _ = handle.setProperty(NP_EASY_FRAMING, true)
    }
    if let answer, let variant = Type2Variant(version: answer) {
      version = answer
      kind = .type2(variant)
    } else {
      kind = .type2(.ultralight)
      _ = handle.select(modulation.nfc, initiatorData: uid)
    }
  }

  func tag(generation: UInt64) -> LibNFCTag {
    LibNFCTag(
      modulation: modulation, uid: uid, atqa: atqa, sak: sak, ats: ats, version: version, kind: kind,
      generation: generation)
  }
}

extension TargetModulation {
  var nfc: nfc_modulation {
    switch self {
    case .iso14443A: nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
    case .iso14443B: nfc_modulation(nmt: NMT_ISO14443B, nbr: NBR_106)
    case .felica212: nfc_modulation(nmt: NMT_FELICA, nbr: NBR_212)
    case .felica424: nfc_modulation(nmt: NMT_FELICA, nbr: NBR_424)
    case .jewel: nfc_modulation(nmt: NMT_JEWEL, nbr: NBR_106)
    }
  }

  /// Initiator data for a first select: AFI 00 for type B, a FeliCa polling request
  /// (system code FFFF, request code 01, time slot 00).
  var initiatorData: [UInt8] {
    switch self {
    case .iso14443B: [0x00]
    case .felica212, .felica424: [0x00, 0xFF, 0xFF, 0x01, 0x00]
    case .iso14443A, .jewel: []
    }
  }
}

/// Milliseconds for libnfc's `int timeout`, at least 1.
func milliseconds(_ duration: Duration) -> Int32 {
  Int32(duration.milliseconds(clampedTo: 1...Int64(Int32.max)))
}
