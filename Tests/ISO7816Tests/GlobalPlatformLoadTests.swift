// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ISO7816

/// An in-memory card whose link fails (``LinkDown``) from the command with index `failFrom`.
struct FailingLink: APDUTransport {
  var card = InMemoryCard()
  var failFrom: Int
  var sent = 0

  mutating func transmit(_ bytes: [UInt8]) async throws(LinkDown) -> [UInt8] {
    defer { sent += 1 }
    if sent >= failFrom { throw LinkDown() }
    return await card.transmit(bytes)
  }
}

/// `APDUExchanger.loadFile`: INSTALL [for load] then numbered LOAD blocks (GPCS 2.3 §11.5.2.3.1,
/// §11.6), and the typed error naming the command, the block and how many blocks the card
/// acknowledged of how many.
@Suite("GlobalPlatform load procedure")
struct GlobalPlatformLoadTests {
  static let package = try! ApplicationIdentifier(hex("D2 76 00 01 24 01"))
  /// 500 bytes: with `C4 82 01 F4` 504 bytes, 3 blocks of 200 (200, 200, 104).
  static let block = counting(500)

  static func installForLoad() throws -> CommandAPDU {
    try GlobalPlatformCommands.installForLoad(loadFile: package)
  }

  @Test("every block is sent in order and acknowledged; progress counts them")
  func loadsEveryBlock() async throws {
    var exchanger = APDUExchanger(transport: InMemoryCard())
    var progress: [[Int]] = []
    let count = try await exchanger.loadFile(
      Self.block, installForLoad: try Self.installForLoad(), blockSize: 200
    ) { progress.append([$0, $1]) }
    #expect(count == 3)
    #expect(progress == [[0, 3], [1, 3], [2, 3], [3, 3]])
    #expect(exchanger.transport.loadedFiles[Self.package.bytes] == Self.block)
    #expect(exchanger.transport.commandCount == 4)
  }

  @Test("a LOAD block the card refuses: its number, the blocks acknowledged, the status word")
  func refusedBlock() async throws {
    var card = InMemoryCard()
    card.failAt = 2  // INSTALL, block 0, then block 1 gets 6A80
    var exchanger = APDUExchanger(transport: card)
    let error = await #expect(throws: GlobalPlatformLoadError<Never>.self) {
      try await exchanger.loadFile(Self.block, installForLoad: try Self.installForLoad(), blockSize: 200)
    }
    #expect(error?.code == .loadBlockRejected)
    #expect(error?.code.name == "loadBlockRejected")
    #expect(error?.blockNumber == 1)
    #expect(error?.blocksAcknowledged == 1)
    #expect(error?.blockCount == 3)
    #expect(error?.statusWord == .incorrectData)
    #expect(error?.exchangeError == nil)
    // Nothing after the refused block.
    #expect(exchanger.transport.commandCount == 3)
  }

  @Test("INSTALL [for load] refused: no LOAD is sent")
  func refusedInstall() async throws {
    var card = InMemoryCard()
    card.failAt = 0
    var exchanger = APDUExchanger(transport: card)
    let error = await #expect(throws: GlobalPlatformLoadError<Never>.self) {
      try await exchanger.loadFile(Self.block, installForLoad: try Self.installForLoad(), blockSize: 200)
    }
    #expect(error?.code == .installForLoadRejected)
    #expect(error?.blockNumber == nil)
    #expect(error?.blocksAcknowledged == 0)
    #expect(error?.blockCount == 3)
    #expect(error?.statusWord == .incorrectData)
    #expect(exchanger.transport.commandCount == 1)
  }

  @Test("the link fails at each command: the error names the command and block", arguments: 0...3)
  func linkFails(at index: Int) async throws {
    var exchanger = APDUExchanger(transport: FailingLink(failFrom: index))
    let error = await #expect(throws: GlobalPlatformLoadError<LinkDown>.self) {
      try await exchanger.loadFile(Self.block, installForLoad: try Self.installForLoad(), blockSize: 200)
    }
    #expect(error?.code == (index == 0 ? .installForLoadExchangeFailed : .loadBlockExchangeFailed))
    #expect(error?.blockNumber == (index == 0 ? nil : index - 1))
    #expect(error?.blocksAcknowledged == max(0, index - 1))
    #expect(error?.blockCount == 3)
    #expect(error?.statusWord == nil)
    guard case .transport(let failure) = error?.exchangeError else {
      Issue.record("no transport failure: \(String(describing: error?.exchangeError))")
      return
    }
    #expect(failure == LinkDown())
    #expect(exchanger.transport.sent == index + 1)
  }

  @Test("a block size outside 1...255 is refused before anything is sent", arguments: [0, 256, -1])
  func invalidBlockSize(_ size: Int) async throws {
    var exchanger = APDUExchanger(transport: InMemoryCard())
    let error = await #expect(throws: GlobalPlatformLoadError<Never>.self) {
      try await exchanger.loadFile(Self.block, installForLoad: try Self.installForLoad(), blockSize: size)
    }
    #expect(error?.code == .invalidBlockSize)
    #expect(error?.code.description == "invalidBlockSize")
    guard case .apdu(let apdu) = error?.exchangeError else {
      Issue.record("no APDU error")
      return
    }
    #expect(apdu.code == .invalidBlockSize)
    #expect(exchanger.transport.commandCount == 0)
  }
}
