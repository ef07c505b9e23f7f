// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NDEF
import NFCTags
import NFCWire
import Testing

/// Runs a procedure against a simulator, logging encoded commands.
func runType4(
  _ operation: Type4NDEFProcedure.Operation, on tag: inout Type4TagSimulator,
  options: Type4NDEFProcedure.Options = .init()
) -> (procedure: Type4NDEFProcedure, commands: [[UInt8]], error: NFCTagError?) {
  var procedure = Type4NDEFProcedure(operation: operation, options: options)
  var log: [[UInt8]] = []
  var error: NFCTagError? = nil
  do {
    try procedure.run { command in
      log.append(
        (try? command.encodedBytes(lengthEncoding: options.allowsExtendedLength ? .shortest : .shortOnly))
          ?? [])
      return tag.respond(to: command)
    }
  } catch let e { error = e }
  return (procedure, log, error)
}

@Suite("Type 4 NDEF procedure")
struct Type4NDEFProcedureTests {
  @Test func readsSmallMessageWithTheSpecifiedCommands() throws {
    let message = uriMessage("nfc.example")
    var tag = Type4TagSimulator(message: message, maximumFileSize: 0x0800)
    let run = runType4(.read, on: &tag)
    #expect(run.error == nil)
    #expect(run.procedure.message == message)
    #expect(run.procedure.isFinished)
    #expect(
      run.commands == [
        hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"),
        hex("00 A4 00 0C 02 E1 03"),
        hex("00 B0 00 00 0F"),
        hex("00 A4 00 0C 02 E1 04"),
        hex("00 B0 00 00 02"),
        hex("00 B0 00 02") + [UInt8(message.count)],
      ])
    let cc = try #require(run.procedure.capabilityContainer)
    #expect(cc.bytes == hex("00 0F 20 00 FF 00 FF 04 06 E1 04 08 00 00 00"))
    #expect(cc.fileControl.maximumMessageSize == 0x07FE)
  }

  @Test(arguments: [0x0F, 0x10, 0x3B, 0xFF]) func readsInChunksNoLargerThanMLe(_ mle: Int) throws {
    let message = sizedMessage(700)
    var tag = Type4TagSimulator(message: message, maximumFileSize: 1024, maximumReadLength: mle)
    let run = runType4(.read, on: &tag)
    #expect(run.error == nil)
    #expect(run.procedure.message == message)
    let reads = run.commands.filter { $0[1] == 0xB0 }
    for read in reads { #expect(Int(read.last!) <= mle) }
    #expect(reads.count == 2 + (700 + mle - 1) / mle)
  }

  @Test func fallsBackToTheVersion1Application() throws {
    let message = uriMessage("v1.example")
    var tag = Type4TagSimulator(message: message, version1Only: true)
    let run = runType4(.read, on: &tag)
    #expect(run.error == nil)
    #expect(run.procedure.usesVersion1Application)
    #expect(run.procedure.message == message)
    #expect(run.commands[1] == hex("00 A4 04 00 07 D2 76 00 00 85 01 00"))
    #expect(run.commands[2] == hex("00 A4 00 00 02 E1 03"))
    var strict = Type4TagSimulator(message: message, version1Only: true)
    let refused = runType4(.read, on: &strict, options: .init(triesVersion1Application: false))
    #expect(refused.error?.code == .unexpectedStatusWord)
    #expect(refused.error?.step == .selectApplication)
    #expect(refused.error?.statusWord == .fileNotFound)
  }

  @Test func writesZeroLengthThenDataThenLength() throws {
    var tag = Type4TagSimulator(
      message: uriMessage("old.example"), maximumFileSize: 600, maximumWriteLength: 0x34)
    let message = sizedMessage(300)
    let run = runType4(.write(message), on: &tag)
    #expect(run.error == nil)
    #expect(tag.storedMessage() == message)
    let updates = run.commands.filter { $0[1] == 0xD6 }
    #expect(updates.first == hex("00 D6 00 00 02 00 00"))
    #expect(updates.last == hex("00 D6 00 00 02 01 2C"))
    for update in updates { #expect(Int(update[4]) <= 0x34) }
    #expect(updates.count == 2 + (300 + 0x33) / 0x34)
    // Then reads back.
    let read = runType4(.read, on: &tag)
    #expect(read.procedure.message == message)
  }

  @Test func writesAnEmptyMessageAsNLENZero() throws {
    var tag = Type4TagSimulator(message: uriMessage("old.example"))
    let run = runType4(.write([]), on: &tag)
    #expect(run.error == nil)
    #expect(tag.storedMessage() == [])
    #expect(run.commands.last == hex("00 D6 00 00 02 00 00"))
    let read = runType4(.read, on: &tag)
    #expect(read.procedure.ndefLength == 0)
    #expect(read.procedure.message == [])
  }

  /// Mapping 3.0 with ENLEN and a message past 32 KB: odd INS with offset data objects.
  @Test func extendedFilePast32KB() throws {
    let message = sizedMessage(40_000)
    var tag = Type4TagSimulator(
      message: [], maximumFileSize: 70_000, mappingVersion: 0x30, maximumReadLength: 0xFF,
      maximumWriteLength: 0xF0,
      extended: true)
    let write = runType4(.write(message), on: &tag)
    #expect(write.error == nil)
    #expect(tag.storedMessage(extended: true) == message)
    let oddUpdates = write.commands.filter { $0[1] == 0xD7 }
    #expect(!oddUpdates.isEmpty)
    // 54 03 offset: the first chunk starting past 0x7FFF is at 4 + 137 × 240 = 0x8074.
    #expect(Array(oddUpdates[0][0..<4]) == hex("00 D7 00 00"))
    #expect(Array(oddUpdates[0][5..<10]) == hex("54 03 00 80 74"))
    let read = runType4(.read, on: &tag)
    #expect(read.error == nil)
    #expect(read.procedure.ndefLength == 40_000)
    #expect(read.procedure.message == message)
    let oddReads = read.commands.filter { $0[1] == 0xB1 }
    #expect(!oddReads.isEmpty)
    // The 17-byte CC (Extended NDEF File Control TLV) takes a second read.
    #expect(read.commands[3] == hex("00 B0 00 0F 02"))
    #expect(read.commands[5] == hex("00 B0 00 00 04"))
    #expect(read.procedure.capabilityContainer?.fileControl.isExtended == true)
  }

  /// Every command of the 32 KB+ round trip respects MLe and MLc, including the offset
  /// and discretionary data objects of the odd instructions.
  @Test func oddInstructionChunksRespectMLeAndMLc() throws {
    let message = sizedMessage(33_000)
    var tag = Type4TagSimulator(
      message: [], maximumFileSize: 0x1_0000, mappingVersion: 0x30, maximumReadLength: 0x80,
      maximumWriteLength: 0x40, extended: true)
    let write = runType4(.write(message), on: &tag)
    #expect(write.error == nil)
    for command in write.commands where command[1] == 0xD6 || command[1] == 0xD7 {
      #expect(Int(command[4]) <= 0x40)
      #expect(command.count == 5 + Int(command[4]))
    }
    let read = runType4(.read, on: &tag)
    #expect(read.procedure.message == message)
    for command in read.commands where command[1] == 0xB0 || command[1] == 0xB1 {
      #expect(Int(command.last!) <= 0x80)
    }
    #expect(read.commands.contains { $0.starts(with: hex("00 B1 00 00 05 54 03")) })
  }

  @Test func extendedLengthAPDUsWhenAllowed() throws {
    let message = sizedMessage(3000)
    var tag = Type4TagSimulator(
      message: message, maximumFileSize: 4096, maximumReadLength: 0x1000, maximumWriteLength: 0x1000)
    let options = Type4NDEFProcedure.Options(allowsExtendedLength: true)
    let read = runType4(.read, on: &tag, options: options)
    #expect(read.error == nil)
    #expect(read.procedure.message == message)
    // One READ BINARY for the whole message: extended Le 0x0BB8.
    #expect(read.commands.last == hex("00 B0 00 02 00 0B B8"))
    var short = Type4TagSimulator(
      message: message, maximumFileSize: 4096, maximumReadLength: 0x1000, maximumWriteLength: 0x1000)
    let chunked = runType4(.read, on: &short)
    #expect(chunked.procedure.message == message)
    #expect(chunked.commands.count == 5 + (3000 + 255) / 256)
  }

  @Test func simulatorAnswersEncodedCommands() {
    var tag = Type4TagSimulator(message: uriMessage("sim.example"))
    #expect(tag.respond(to: hex("00 B0 00 00 02")) == hex("69 86"))
    #expect(tag.respond(to: hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")) == hex("90 00"))
    #expect(tag.respond(to: hex("00 A4 00 0C 02 E1 04")) == hex("90 00"))
    #expect(tag.respond(to: hex("00 B0 00 00 02")) == hex("00 10 90 00"))
    #expect(tag.respond(to: hex("00 B0 80 00 02")) == hex("6A 81"))
    #expect(tag.respond(to: hex("00 CA 00 00 00")) == hex("6D 00"))
    #expect(tag.respond(to: hex("80 B0 00 00 02")) == hex("6E 00"))
    #expect(tag.respond(to: hex("00")) == hex("67 00"))
    #expect(tag.respond(to: hex("00 A4 00 0C 02 E1 05")) == hex("6A 82"))
    #expect(tag.commandCount == 9)
  }

  struct Fault: Sendable, CustomStringConvertible {
    var name: String
    var fault: Type4Fault
    var code: NFCTagError.Code
    var step: Type4Step
    var statusWord: StatusWord?
    var offset: Int = 0
    var description: String { name }
  }

  static let readFaults: [Fault] = [
    Fault(
      name: "select app 6A82 then v1 too", fault: .init(commandIndex: 0, kind: .statusWord(.fileNotFound)),
      code: .unexpectedStatusWord, step: .selectApplicationVersion1, statusWord: .fileNotFound),
    Fault(
      name: "select CC 6A82", fault: .init(commandIndex: 1, kind: .statusWord(.fileNotFound)),
      code: .unexpectedStatusWord, step: .selectCCFile, statusWord: .fileNotFound),
    Fault(
      name: "read CC 6982", fault: .init(commandIndex: 2, kind: .statusWord(.securityStatusNotSatisfied)),
      code: .unexpectedStatusWord, step: .readCCFile, statusWord: .securityStatusNotSatisfied),
    Fault(
      name: "select NDEF 6A82", fault: .init(commandIndex: 3, kind: .statusWord(.fileNotFound)),
      code: .unexpectedStatusWord, step: .selectNDEFFile, statusWord: .fileNotFound),
    Fault(
      name: "read NLEN 6B00", fault: .init(commandIndex: 4, kind: .statusWord(.wrongParameters)),
      code: .unexpectedStatusWord, step: .readNDEFLength, statusWord: .wrongParameters),
    Fault(
      name: "read message 6281", fault: .init(commandIndex: 5, kind: .statusWord(.dataMayBeCorrupted)),
      code: .unexpectedStatusWord, step: .readNDEFMessage, statusWord: .dataMayBeCorrupted),
    Fault(
      name: "short CC", fault: .init(commandIndex: 2, kind: .dropResponseBytes(3)),
      code: .responseTooShort, step: .readCCFile, offset: 12),
    Fault(
      name: "short NLEN", fault: .init(commandIndex: 4, kind: .dropResponseBytes(1)),
      code: .responseTooShort, step: .readNDEFLength, offset: 1),
    Fault(
      name: "short message chunk", fault: .init(commandIndex: 5, kind: .dropResponseBytes(2)),
      code: .responseTooShort, step: .readNDEFMessage, offset: 14),
    Fault(
      name: "oversized message chunk", fault: .init(commandIndex: 5, kind: .appendResponseBytes([0])),
      code: .unexpectedResponse, step: .readNDEFMessage, offset: 16),
    Fault(
      name: "data after SELECT NDEF is fine, after UPDATE it is not",
      fault: .init(commandIndex: 3, kind: .appendResponseBytes([0x6F, 0x00])),
      code: .procedureFinished, step: .readNDEFMessage),
    Fault(
      name: "NLEN past the file", fault: .init(commandIndex: 4, kind: .replaceResponseData([0x7F, 0xFF])),
      code: .ndefLengthExceedsFile, step: .readNDEFLength),
    Fault(
      name: "CC MLe below 15",
      fault: .init(
        commandIndex: 2, kind: .replaceResponseData(hex("00 0F 20 00 0E 00 FF 04 06 E1 04 04 00 00 00"))),
      code: .invalidCCFile, step: .readCCFile, offset: 3),
    Fault(
      name: "CC MLc 0",
      fault: .init(
        commandIndex: 2, kind: .replaceResponseData(hex("00 0F 20 00 FF 00 00 04 06 E1 04 04 00 00 00"))),
      code: .invalidCCFile, step: .readCCFile, offset: 5),
    Fault(
      name: "CC version 4.0",
      fault: .init(
        commandIndex: 2, kind: .replaceResponseData(hex("00 0F 40 00 FF 00 FF 04 06 E1 04 04 00 00 00"))),
      code: .unsupportedVersion, step: .readCCFile, offset: 2),
    Fault(
      name: "CC without file control",
      fault: .init(
        commandIndex: 2, kind: .replaceResponseData(hex("00 0F 20 00 FF 00 FF 05 06 E1 04 04 00 00 00"))),
      code: .missingNDEFFileControl, step: .readCCFile, offset: 7),
    Fault(
      name: "CC file control length 5",
      fault: .init(
        commandIndex: 2, kind: .replaceResponseData(hex("00 0F 20 00 FF 00 FF 04 05 E1 04 04 00 00 00"))),
      code: .invalidNDEFFileControl, step: .readCCFile, offset: 8),
    Fault(
      name: "CC file id E103",
      fault: .init(
        commandIndex: 2, kind: .replaceResponseData(hex("00 0F 20 00 FF 00 FF 04 06 E1 03 04 00 00 00"))),
      code: .invalidNDEFFileControl, step: .readCCFile, offset: 9),
    Fault(
      name: "CC file size 0xFFFF",
      fault: .init(
        commandIndex: 2, kind: .replaceResponseData(hex("00 0F 20 00 FF 00 FF 04 06 E1 04 FF FF 00 00"))),
      code: .invalidNDEFFileControl, step: .readCCFile, offset: 11),
    Fault(
      name: "CC CCLEN 14",
      fault: .init(
        commandIndex: 2, kind: .replaceResponseData(hex("00 0E 20 00 FF 00 FF 04 06 E1 04 04 00 00 00"))),
      code: .invalidCCFile, step: .readCCFile, offset: 0),
    Fault(
      name: "CC read access proprietary",
      fault: .init(
        commandIndex: 2, kind: .replaceResponseData(hex("00 0F 20 00 FF 00 FF 04 06 E1 04 04 00 80 00"))),
      code: .ndefFileNotReadable, step: .readCCFile, offset: 13),
  ]

  @Test(arguments: readFaults) func readFaultsAreTypedErrorsNamingTheStep(_ item: Fault) throws {
    let message = uriMessage("nfc.example")
    var tag = Type4TagSimulator(message: message, maximumFileSize: 0x0400, faults: [item.fault])
    let run = runType4(.read, on: &tag)
    if item.code == .procedureFinished {
      // Data after a SELECT is tolerated: the read succeeds.
      #expect(run.error == nil)
      #expect(run.procedure.message == message)
      return
    }
    #expect(run.error?.code == item.code)
    #expect(run.error?.step == item.step)
    #expect(run.error?.statusWord == item.statusWord)
    #expect(run.error?.offset == item.offset)
    #expect(run.procedure.isFinished)
  }

  static let writeFaults: [Fault] = [
    Fault(
      name: "zero NLEN 6581", fault: .init(commandIndex: 4, kind: .statusWord(.memoryFailure)),
      code: .unexpectedStatusWord, step: .writeZeroLength, statusWord: .memoryFailure),
    Fault(
      name: "data 6A84", fault: .init(commandIndex: 5, kind: .statusWord(.notEnoughMemory)),
      code: .unexpectedStatusWord, step: .writeNDEFMessage, statusWord: .notEnoughMemory),
    Fault(
      name: "data answer with data", fault: .init(commandIndex: 5, kind: .appendResponseBytes([0x01])),
      code: .unexpectedResponse, step: .writeNDEFMessage),
    Fault(
      name: "length 6700", fault: .init(commandIndex: 6, kind: .statusWord(.wrongLength)),
      code: .unexpectedStatusWord, step: .writeNDEFLength, statusWord: .wrongLength),
  ]

  @Test(arguments: writeFaults) func writeFaultsAreTypedErrorsNamingTheStep(_ item: Fault) throws {
    var tag = Type4TagSimulator(message: [], faults: [item.fault])
    let run = runType4(.write(uriMessage("new.example")), on: &tag)
    #expect(run.error?.code == item.code)
    #expect(run.error?.step == item.step)
    #expect(run.error?.statusWord == item.statusWord)
  }

  @Test func refusesReadOnlyAndOversizedWrites() throws {
    var readOnly = Type4TagSimulator(message: [], writeAccess: 0xFF)
    let refused = runType4(.write(uriMessage("a.example")), on: &readOnly)
    #expect(refused.error?.code == .ndefFileNotWritable)
    #expect(refused.error?.offset == 14)
    #expect(refused.error?.step == .readCCFile)
    var small = Type4TagSimulator(message: [], maximumFileSize: 20)
    let tooLarge = runType4(.write(sizedMessage(19)), on: &small)
    #expect(tooLarge.error?.code == .messageTooLarge)
    let fits = runType4(.write(sizedMessage(18)), on: &small)
    #expect(fits.error == nil)
  }

  /// Faults on the odd-INS reads past 32 KB and on the second CC read of mapping 3.0.
  @Test func extendedReadFaults() throws {
    let message = sizedMessage(33_000)
    var probe = Type4TagSimulator(
      message: message, maximumFileSize: 0x1_0000, mappingVersion: 0x30, extended: true)
    let full = runType4(.read, on: &probe)
    #expect(full.error == nil)
    let odd = try #require(full.commands.firstIndex { $0[1] == 0xB1 })
    let cases: [(Type4Fault, NFCTagError.Code, Type4Step, Int)] = [
      (Type4Fault(commandIndex: 3, kind: .dropResponseBytes(1)), .responseTooShort, .readCCFile, 1),
      // CC bytes 15-16 are the access conditions of the Extended NDEF File Control TLV.
      (
        Type4Fault(commandIndex: 3, kind: .replaceResponseData(hex("FF FF"))), .ndefFileNotReadable,
        .readCCFile, 15
      ),
      (
        Type4Fault(commandIndex: odd, kind: .replaceResponseData(hex("54 01 00"))), .unexpectedResponse,
        .readNDEFMessage, 0
      ),
      (
        Type4Fault(commandIndex: odd, kind: .replaceResponseData(hex("53"))), .responseTooShort,
        .readNDEFMessage, 1
      ),
      (Type4Fault(commandIndex: odd, kind: .dropResponseBytes(1)), .responseTooShort, .readNDEFMessage, 1),
      (
        Type4Fault(commandIndex: odd, kind: .appendResponseBytes([0])), .unexpectedResponse, .readNDEFMessage,
        1
      ),
      (
        Type4Fault(commandIndex: 5, kind: .replaceResponseData(hex("FF FF FF FF"))), .ndefLengthExceedsFile,
        .readNDEFLength, 0
      ),
    ]
    for (fault, code, step, offset) in cases {
      var tag = Type4TagSimulator(
        message: message, maximumFileSize: 0x1_0000, mappingVersion: 0x30, extended: true, faults: [fault])
      let run = runType4(.read, on: &tag)
      #expect(run.error?.code == code, "\(fault)")
      #expect(run.error?.step == step, "\(fault)")
      #expect(run.error?.offset == offset, "\(fault)")
    }
    var early = Type4NDEFProcedure(operation: .read)
    let error = tagError { () throws(NFCTagError) in _ = try early.receive(ResponseAPDU(statusWord: .success))
    }
    #expect(error?.code == .unexpectedResponse)
  }

  @Test func receiveAfterTheEndThrows() throws {
    var tag = Type4TagSimulator(message: [])
    var procedure = Type4NDEFProcedure(operation: .read)
    try procedure.run { tag.respond(to: $0) }
    #expect(procedure.isFinished)
    let error = tagError { () throws(NFCTagError) in
      _ = try procedure.receive(ResponseAPDU(statusWord: .success))
    }
    #expect(error?.code == .procedureFinished)
  }

  /// The tag leaves the field after every command of a write: a later read finds the
  /// old message (before the first UPDATE), an empty one, or the whole new one.
  @Test func tearingDuringWriteReadsBackEmptyOrComplete() throws {
    let old = uriMessage("old.example")
    let new = sizedMessage(500)
    var probe = Type4TagSimulator(message: old, maximumWriteLength: 0x40)
    let full = runType4(.write(new), on: &probe)
    #expect(full.error == nil)
    for cut in 0...full.commands.count {
      var tag = Type4TagSimulator(
        message: old, maximumWriteLength: 0x40, faults: [Type4Fault(commandIndex: cut, kind: .leaveField)])
      _ = runType4(.write(new), on: &tag)
      var fresh = Type4TagSimulator(applicationIdentifiers: tag.applicationIdentifiers, files: tag.files)
      let read = runType4(.read, on: &fresh)
      #expect(read.error == nil)
      let back = read.procedure.message
      #expect(back == old || back.isEmpty || back == new, "cut \(cut)")
      if cut > 4 && cut < full.commands.count { #expect(back.isEmpty, "cut \(cut)") }
    }
  }

  @Test func seededRandomRoundTrips() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("Type4 random round trips seed \(seed)")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<40 {
      let fileSize = Int.random(in: 20...5000, using: &rng)
      let mle = Int.random(in: 0x0F...0xFF, using: &rng)
      let mlc = Int.random(in: 0x01...0xFF, using: &rng)
      var tag = Type4TagSimulator(
        message: [], maximumFileSize: fileSize, maximumReadLength: mle, maximumWriteLength: mlc)
      let message = sizedMessage(Int.random(in: 14...(fileSize - 2), using: &rng))
      let write = runType4(.write(message), on: &tag)
      #expect(write.error == nil, "seed \(seed)")
      let read = runType4(.read, on: &tag)
      #expect(read.procedure.message == message, "seed \(seed) size \(fileSize) MLe \(mle) MLc \(mlc)")
    }
  }
}
