// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCTags
import PN532Simulator
import Synchronization

/// `swift run -c release TapwireRoundTrips [--json]`: the RF round trips Tapwire takes to
/// read a full NDEF message per tag type, beside the minimum the tag's commands allow and,
/// for Type 2, nfcpy's 16 bytes per READ from page 0 (`nfc/tag/tt2.py`).
///
/// - NTAG216 with a message filling its 872-byte data area: `Type2NDEFRead` with FAST_READ
///   bounded by a PN53x normal frame (62 pages), with READ or a PC/SC READ BINARY of 16 bytes
///   (4 pages). Minimum: ⌈pages 3...221 / pages per read⌉.
/// - MIFARE Classic 4K formatted by Tapwire, message filling every NFC sector:
///   `MifareClassicNDEFProcedure` over the simulator's card model. Minimum: per MAD sector
///   one authentication and its MAD blocks and trailer (GPB), per NFC sector one
///   authentication and one READ per data block.
/// - Type 4 tag with an 8 KiB NDEF file holding 8190 bytes: `Type4NDEFProcedure` against
///   `Type4TagSimulator`. Minimum: SELECT application, SELECT CC, READ CC, SELECT NDEF file,
///   then ⌈(NLEN + message) / MLe⌉ READ BINARY.
@main
struct TapwireRoundTrips {
  struct Row: Codable {
    var tag: String
    var transport: String
    var bytes: Int
    var roundTrips: Int
    var minimum: Int
    var nfcpy: Int?
  }

  static func main() async {
    let json = CommandLine.arguments.contains("--json")
    var rows: [Row] = []
    do {
      rows += try type2Rows()
      rows.append(try await mifareClassicRow())
      rows.append(try type4Row())
    } catch {
      FileHandle.standardError.write(Data("TapwireRoundTrips: \(error)\n".utf8))
      exit(1)
    }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      print(String(decoding: (try? encoder.encode(rows)) ?? Data(), as: UTF8.self))
      return
    }
    print(
      "tag                          transport                          bytes  round trips  minimum  nfcpy")
    for row in rows {
      let nfcpy = row.nfcpy.map(String.init) ?? "-"
      print(
        row.tag.padding(toLength: 29, withPad: " ", startingAt: 0)
          + row.transport.padding(toLength: 34, withPad: " ", startingAt: 0)
          + pad(row.bytes, 7) + pad(row.roundTrips, 13) + pad(row.minimum, 9) + pad(nfcpy, 7))
    }
  }

  static func pad(_ value: some CustomStringConvertible, _ width: Int) -> String {
    let text = value.description
    return String(repeating: " ", count: max(0, width - text.count)) + text
  }

  /// A MIME `text/plain` message whose encoding is exactly `size` bytes (size > 271).
  static func filling(_ size: Int) throws -> [UInt8] {
    let type = Array("text/plain".utf8)
    let payload = (0..<(size - 6 - type.count)).map { UInt8(truncatingIfNeeded: 0x41 + $0 % 26) }
    return try NDEFMessage(records: [NDEFRecord(typeNameFormat: .media, type: type, payload: payload)])
      .encodedBytes()
  }

  // MARK: Type 2

  static func type2Rows() throws -> [Row] {
    let message = try filling(868)
    var image = Type2Tag.formattedImage(.ntag216)
    image.replaceSubrange(16..<(16 + 872), with: [0x03, 0xFF, 0x03, 0x64] + message)
    // nfcpy reads 16 bytes per READ from page 0 to the end of the NDEF TLV (byte 887).
    let nfcpy = (888 + 15) / 16
    return try [(62, "libnfc PN53x FAST_READ (62 pages)"), (4, "READ / PC/SC READ BINARY 16 bytes")].map {
      (pages, name) in
      var read = Type2NDEFRead(maximumPagesPerRead: pages, variant: .ntag216)
      while let range = read.nextPages {
        try read.received(Array(image[(range.lowerBound * 4)..<(range.upperBound * 4)]))
      }
      guard try read.messageBytes() == message else { throw NFCTagError(.invalidNDEFMessage, offset: 0) }
      return Row(
        tag: "NTAG216 (filled)", transport: name, bytes: message.count, roundTrips: read.readCount,
        minimum: (221 - 3 + pages) / pages, nfcpy: nfcpy)
    }
  }

  // MARK: MIFARE Classic

  /// The card model behind a counting transport.
  final class CardTransport: MifareClassicBlockTransport {
    let state: Mutex<(card: MifareClassicCardModel, trips: Int)>
    init(_ card: MifareClassicCardModel) { state = Mutex((card, 0)) }
    var trips: Int { state.withLock { $0.trips } }
    func reset() { state.withLock { $0.trips = 0 } }

    func authenticate(block: Int, slot: MifareClassicKeySlot, key: MifareClassicKey) async throws(ReaderError)
      -> Bool
    {
      state.withLock {
        $0.trips += 1
        return $0.card.authenticate(block: block, slot: slot == .a ? .a : .b, key: key.bytes) == .done([])
      }
    }

    func readBlock(_ block: Int) async throws(ReaderError) -> [UInt8] {
      try state.withLock { (s: inout (card: MifareClassicCardModel, trips: Int)) throws(ReaderError) in
        s.trips += 1
        guard case .done(let bytes) = s.card.read(block: block) else { throw ReaderError(.tagError, "NAK") }
        return bytes
      }
    }

    func writeBlock(_ block: Int, _ bytes: [UInt8]) async throws(ReaderError) {
      try state.withLock { (s: inout (card: MifareClassicCardModel, trips: Int)) throws(ReaderError) in
        s.trips += 1
        guard case .done = s.card.write(block: block, bytes) else { throw ReaderError(.tagError, "NAK") }
      }
    }

    func reselect() async throws(ReaderError) {
      state.withLock {
        $0.trips += 1
        $0.card.halt()
      }
    }
  }

  static func mifareClassicRow() async throws -> Row {
    let tag = try SimulatedMifareClassicTag(product: .classic4K, uid: [0x4D, 0x46, 0x43, 0x34])
    let transport = CardTransport(tag.card)
    let keyB = MifareClassicKey(bytes: [0x5A, 0x17, 0xE9, 0x0C, 0x33, 0x81])!
    var writer = MifareClassicNDEFProcedure(transport: transport, kind: .classic4K)
    try await writer.format(keyB: keyB)
    // The NFC sectors' data bytes less the NDEF TLV header (03 FF hi lo).
    let capacity = try await writer.read().capacity
    let message = try filling(capacity - 4)
    var keyring = MifareClassicKeyring.publicKeys
    keyring.add(keyB, slot: .b)
    writer = MifareClassicNDEFProcedure(transport: transport, kind: .classic4K, keyring: keyring)
    try await writer.write(message)
    transport.reset()
    var reader = MifareClassicNDEFProcedure(transport: transport, kind: .classic4K)
    let content = try await reader.read()
    guard content.message == message else { throw MifareClassicError(.invalidNDEF) }
    // MAD sectors 0 and 16: authenticate, MAD blocks (1-2; 64-66), trailer 3 for the GPB.
    var minimum = (1 + 3) + (1 + 3)
    for sector in content.ndefSectors { minimum += 1 + (sector < 32 ? 3 : 15) }
    return Row(
      tag: "MIFARE Classic 4K (filled)", transport: "auth + READ per block", bytes: message.count,
      roundTrips: transport.trips, minimum: minimum, nfcpy: nil)
  }

  // MARK: Type 4

  static func type4Row() throws -> Row {
    let message = try filling(8190)
    var tag = Type4TagSimulator(message: message, maximumFileSize: 8192)
    var procedure = Type4NDEFProcedure(operation: .read)
    try procedure.run { tag.respond(to: $0) }
    guard procedure.message == message else { throw NFCTagError(.invalidNDEFMessage, offset: 0) }
    let mle = procedure.capabilityContainer?.maximumReadLength ?? 0xFF
    let minimum = 4 + (2 + message.count + mle - 1) / mle
    return Row(
      tag: "Type 4 (8 KiB file)", transport: "READ BINARY, MLe \(mle)", bytes: message.count,
      roundTrips: procedure.commandCount, minimum: minimum, nfcpy: nil)
  }
}
