// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCReader
import NFCTags

/// NDEF on a Type 3 (FeliCa) tag over any ``Type3BlockTransport``, in the fewest Check
/// commands (T3T 1.0 §7.4).
///
/// - Reading checks block 0, the Attribute Information Block, then only the blocks Ln
///   needs (none while WriteFlag is ON), as many per Check as the AIB's Nbr and the
///   transport allow: `1 + ⌈⌈Ln / 16⌉ / Nbr⌉` Checks (T3T 1.0 §7.4.1).
/// - Writing checks block 0 only, then updates in the tearing-safe order of
///   `Type3Tag.writePlan(_:into:options:)`: the AIB with WriteFlag ON (`0F`) and Ln 0,
///   the message blocks (up to Nbw per Update), the AIB with WriteFlag OFF and the new Ln
///   (T3T 1.0 §7.4.2). A tag torn in the middle holds WriteFlag ON, which a reader sees as
///   no message; a tag left with WriteFlag ON is written over.
///
/// ```swift
/// let procedure = Type3NDEFProcedure(transport: transport)
/// let message = try await procedure.readMessage()
/// ```
public struct Type3NDEFProcedure<Transport: Type3BlockTransport>: Sendable {
  /// The transport.
  public let transport: Transport
  /// Strict or lenient decoding of the AIB and the message.
  public var options: TagDecodingOptions

  /// A procedure over `transport`.
  ///
  /// - Parameters:
  ///   - transport: the block operations.
  ///   - options: strict (the default) or lenient decoding.
  public init(transport: Transport, options: TagDecodingOptions = .strict) {
    self.transport = transport
    self.options = options
  }

  /// Checks block 0, the Attribute Information Block (16 bytes, unvalidated).
  ///
  /// - Throws: ``Type3NDEFError/reader(_:)``.
  public func readAttributeBlock() async throws(Type3NDEFError) -> [UInt8] {
    let block: [UInt8]
    do { block = try await transport.check(0..<1) } catch { throw .reader(error) }
    guard block.count == FeliCaBlockFrame.blockSize else {
      throw .reader(ReaderError(.tagError, "Check of block 0 answered \(block.count) bytes"))
    }
    return block
  }

  /// The image a read needs: the AIB, then the blocks holding Ln bytes (none while WriteFlag
  /// is ON), in `1 + ⌈blocks / min(Nbr, maximumBlocksPerCommand)⌉` Checks. The AIB is
  /// validated (`Type3TagView`) before any data block is read.
  ///
  /// - Throws: ``Type3NDEFError/reader(_:)`` for a failed Check, ``Type3NDEFError/tag(_:)``
  ///   with the errors of `Type3TagView.init(validating:options:)` (checksum, version,
  ///   Nbr/Nbw/RWFlag, Ln past Nmaxb × 16, WriteFlag ON read strictly).
  public func readImage() async throws(Type3NDEFError) -> [UInt8] {
    let attribute = try await readAttributeBlock()
    let blocks = Self.messageBlocks(attribute)
    // Validate the AIB on its own first: a bad checksum reads no further.
    do {
      let padded = attribute + [UInt8](repeating: 0, count: blocks &* FeliCaBlockFrame.blockSize)
      _ = try Type3TagView(validating: padded.span, options: options).ndefLength
    } catch { throw .tag(error) }
    guard blocks > 0 else { return attribute }
    return attribute + (try await readBlocks(1..<(blocks &+ 1), perCheck: Int(attribute[1])))
  }

  /// Reads the NDEF message: `nil` for Ln 0 (a blank formatted tag) and, read leniently,
  /// for a tag with WriteFlag ON.
  ///
  /// - Throws: as ``readImage()``, and ``Type3NDEFError/tag(_:)`` with
  ///   `NFCTagError.Code.invalidNDEFMessage`.
  public func readMessage() async throws(Type3NDEFError) -> NDEFMessage? {
    let image = try await readImage()
    do {
      let view = try Type3TagView(validating: image.span, options: options)
      return try view.message(options: options.isLenient ? .lenient : .strict)
    } catch { throw .tag(error) }
  }

  /// The whole NDEF memory, as a dump: the AIB and its Nmaxb blocks (at least one), Nbr
  /// per Check, unvalidated.
  ///
  /// - Throws: ``Type3NDEFError/reader(_:)``.
  public func readMemory() async throws(Type3NDEFError) -> [UInt8] {
    let attribute = try await readAttributeBlock()
    let total = max(1, Int(attribute[3]) << 8 | Int(attribute[4]))
    return attribute + (try await readBlocks(1..<(total &+ 1), perCheck: Int(attribute[1])))
  }

  /// Checks `blocks` in as few Checks as `perCheck` (Nbr), the transport and the frame
  /// allow.
  ///
  /// - Parameters:
  ///   - blocks: the blocks, in `0...0xFFFF`.
  ///   - perCheck: the tag's Nbr (values below 1 read one block per Check).
  /// - Throws: ``Type3NDEFError/reader(_:)``.
  public func readBlocks(_ blocks: Range<Int>, perCheck: Int) async throws(Type3NDEFError) -> [UInt8] {
    let step = max(1, min(perCheck, transport.maximumBlocksPerCommand, FeliCaBlockFrame.maximumCheckBlocks))
    var bytes: [UInt8] = []
    var block = blocks.lowerBound
    while block < blocks.upperBound {
      let end = min(block &+ step, blocks.upperBound)
      let chunk: [UInt8]
      do { chunk = try await transport.check(block..<end) } catch { throw .reader(error) }
      guard chunk.count == (end &- block) &* FeliCaBlockFrame.blockSize else {
        throw .reader(
          ReaderError(.tagError, "Check of blocks \(block)..<\(end) answered \(chunk.count) bytes"))
      }
      bytes += chunk
      block = end
    }
    return bytes
  }

  /// Plans the writes that store `message` without writing: block 0 is checked, the data
  /// blocks are not (the plan does not depend on them; its `finalImage` shows them as
  /// zeros past the message). A tag left with WriteFlag ON by an interrupted write is
  /// planned over as if its message were empty (the plan sets WriteFlag ON first anyway).
  ///
  /// - Throws: ``Type3NDEFError/reader(_:)``; ``Type3NDEFError/tag(_:)`` with the errors of
  ///   `Type3Tag.writePlan(_:into:options:)` (`NFCTagError.Code.readOnly`,
  ///   `NFCTagError.Code.messageTooLarge`, a malformed AIB).
  public func plan(_ message: [UInt8]) async throws(Type3NDEFError) -> TagWritePlan {
    var attribute = try await readAttributeBlock()
    let capacity = Int(attribute[3]) << 8 | Int(attribute[4])
    func planned(_ attribute: [UInt8]) throws(NFCTagError) -> TagWritePlan {
      let image = attribute + [UInt8](repeating: 0, count: capacity &* FeliCaBlockFrame.blockSize)
      return try Type3Tag.writePlan(message, into: image, options: options)
    }
    do { return try planned(attribute) } catch {
      guard error.code == .writeInProgress else { throw .tag(error) }
    }
    Self.clearWriteFlag(&attribute)
    do { return try planned(attribute) } catch { throw .tag(error) }
  }

  /// Writes `message` (encoded NDEF bytes; empty for Ln 0) in the tearing-safe order of
  /// ``plan(_:)``: the AIB with WriteFlag ON and Ln 0, the message blocks, then the AIB
  /// with WriteFlag OFF and the real Ln, consecutive message blocks joined up to
  /// `min(Nbw, maximumBlocksPerCommand)` per Update.
  ///
  /// - Returns: the plan that was written.
  /// - Throws: as ``plan(_:)`` (nothing written); ``Type3NDEFError/reader(_:)`` for a
  ///   failed Update (the tag then holds the old message, or WriteFlag ON: no message).
  @discardableResult
  public func write(_ message: [UInt8]) async throws(Type3NDEFError) -> TagWritePlan {
    let plan = try await plan(message)
    let perUpdate = max(
      1,
      min(
        plan.writes.first.map { $0.bytes.count > 2 ? Int($0.bytes[2]) : 1 } ?? 1,
        transport.maximumBlocksPerCommand,
        FeliCaBlockFrame.maximumUpdateBlocks))
    var index = 0
    while index < plan.writes.count {
      let first = plan.writes[index]
      var data = first.bytes
      var next = index &+ 1
      // Join message blocks only: the AIB writes (block 0) stay alone, first and last.
      if first.block != 0 {
        while next < plan.writes.count, next &- index < perUpdate, plan.writes[next].block != 0,
          plan.writes[next].block == first.block &+ (next &- index)
        {
          data += plan.writes[next].bytes
          next &+= 1
        }
      }
      do { try await transport.update(first.block..<(first.block &+ (next &- index)), data) } catch {
        throw .reader(error)
      }
      index = next
    }
    return plan
  }

  /// Writes an NDEF message model.
  ///
  /// - Throws: ``Type3NDEFError/tag(_:)`` with `NFCTagError.Code.invalidNDEFMessage` when
  ///   the model cannot be encoded, and as ``write(_:)-([UInt8])``.
  @discardableResult
  public func write(_ message: NDEFMessage) async throws(Type3NDEFError) -> TagWritePlan {
    let bytes: [UInt8]
    do { bytes = try message.encodedBytes() } catch {
      throw .tag(NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error))
    }
    return try await write(bytes)
  }

  /// The blocks Ln needs, at most Nmaxb; none while WriteFlag is ON.
  static func messageBlocks(_ attribute: [UInt8]) -> Int {
    guard attribute.count >= FeliCaBlockFrame.blockSize,
      attribute[9] == Type3AttributeInformation.writeFlagOff
    else { return 0 }
    let maximum = Int(attribute[3]) << 8 | Int(attribute[4])
    let length = Int(attribute[11]) << 16 | Int(attribute[12]) << 8 | Int(attribute[13])
    let size = FeliCaBlockFrame.blockSize
    return min(maximum, (length &+ size &- 1) / size)
  }

  /// Sets WriteFlag OFF and Ln 0 in an AIB, checksum updated.
  static func clearWriteFlag(_ attribute: inout [UInt8]) {
    guard attribute.count >= FeliCaBlockFrame.blockSize else { return }
    attribute[9] = Type3AttributeInformation.writeFlagOff
    attribute[11] = 0
    attribute[12] = 0
    attribute[13] = 0
    let sum = Type3AttributeInformation.checksum(Array(attribute.prefix(14)))
    attribute[14] = UInt8(sum >> 8)
    attribute[15] = UInt8(truncatingIfNeeded: sum)
  }
}
