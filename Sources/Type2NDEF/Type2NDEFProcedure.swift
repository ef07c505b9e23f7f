// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCReader
import NFCTags

/// NDEF on a Type 2 tag over any ``Type2PageTransport``, in the fewest RF round trips
/// (T2T 1.0 §6.4).
///
/// - Reading runs `NFCTags.Type2NDEFRead`: page 3 (the CC) first, then only the pages up
///   to the end of the first NDEF TLV, skipping the areas Lock and Memory Control TLVs
///   declare, each read as large as the transport allows (FAST_READ where the chip has it).
/// - Writing reads the header, the data area and the dynamic lock bytes (the lock bits
///   decide which pages may be written), then writes the pages of
///   `Type2Tag.writePlan(_:into:options:)` in its tearing-safe order: the NDEF TLV's length
///   0 first, the body, the real length last.
///
/// ```swift
/// let procedure = Type2NDEFProcedure(transport: transport)
/// let message = try await procedure.readMessage()
/// ```
public struct Type2NDEFProcedure<Transport: Type2PageTransport>: Sendable {
  /// The transport.
  public let transport: Transport
  /// Strict or lenient decoding of the CC, the TLVs and the message.
  public var options: TagDecodingOptions

  /// A procedure over `transport`.
  ///
  /// - Parameters:
  ///   - transport: the page operations.
  ///   - options: strict (the default) or lenient decoding.
  public init(transport: Transport, options: TagDecodingOptions = .strict) {
    self.transport = transport
    self.options = options
  }

  /// Reads the pages the NDEF message needs and returns the finished read (its image,
  /// CC, NDEF TLV and how many reads it took).
  ///
  /// - Throws: ``Type2NDEFError/reader(_:)`` for a failed read,
  ///   ``Type2NDEFError/tag(_:)`` with the errors of `Type2NDEFRead.received(_:)`
  ///   (a malformed CC or TLV, at its absolute offset).
  public func read() async throws(Type2NDEFError) -> Type2NDEFRead {
    var read = Type2NDEFRead(
      maximumPagesPerRead: transport.maximumPagesPerRead, variant: transport.variant, options: options)
    while let pages = read.nextPages {
      let bytes: [UInt8]
      do { bytes = try await transport.readPages(pages) } catch { throw .reader(error) }
      do { try read.received(bytes) } catch { throw .tag(error) }
    }
    return read
  }

  /// Reads the NDEF message: `nil` for an empty NDEF TLV and (lenient) a tag without one.
  ///
  /// - Throws: as ``read()``, and ``Type2NDEFError/tag(_:)`` with
  ///   `NFCTagError.Code.missingNDEFTLV` (strict) or `NFCTagError.Code.invalidNDEFMessage`.
  public func readMessage() async throws(Type2NDEFError) -> NDEFMessage? {
    let read = try await read()
    do { return try read.message() } catch { throw .tag(error) }
  }

  /// Reads `pages` in reads of at most ``Type2PageTransport/maximumPagesPerRead`` pages.
  ///
  /// - Parameter pages: the pages, in `0..<256`.
  /// - Throws: ``Type2NDEFError/reader(_:)``.
  public func readMemory(_ pages: Range<Int>) async throws(Type2NDEFError) -> [UInt8] {
    var bytes: [UInt8] = []
    var page = pages.lowerBound
    let step = max(1, transport.maximumPagesPerRead)
    while page < pages.upperBound {
      let end = min(page + step, pages.upperBound)
      do { bytes += try await transport.readPages(page..<end) } catch { throw .reader(error) }
      page = end
    }
    return bytes
  }

  /// The image a write is planned over: pages 0-2, the CC, the data area and the dynamic
  /// lock bytes. With a known ``Type2PageTransport/variant`` the reads stop at its dynamic
  /// lock page (or its user memory's end) and the configuration pages are zero in the image,
  /// which has the chip's memory size; without one they go through the default dynamic lock
  /// area after the data area the CC declares (T2T 1.0 §2.2.2).
  ///
  /// - Throws: as ``read()``; ``Type2NDEFError/tag(_:)`` with `NFCTagError.Code.invalidMagic`
  ///   (offset 12) when page 3 holds no NDEF CC (without a variant).
  public func readImage() async throws(Type2NDEFError) -> [UInt8] {
    let pageSize = Type2Tag.pageSize
    if let variant = transport.variant {
      let userEnd = (Type2TagView.dataAreaOffset + variant.userMemorySize + pageSize - 1) / pageSize
      let end = min(max(variant.dynamicLockPage.map { $0 + 1 } ?? userEnd, userEnd), variant.pageCount)
      var image = try await readMemory(0..<min(end, Type2NDEFRead.maximumPageCount))
      if image.count < variant.memorySize {
        image += [UInt8](repeating: 0, count: variant.memorySize - image.count)
      }
      return image
    }
    let head = try await readMemory(0..<Type2NDEFRead.capabilityContainerPage + 1)
    let cc = Type2TagView.capabilityContainerOffset
    guard head[cc] == Type2CapabilityContainer.ndefMagic else {
      throw .tag(NFCTagError(.invalidMagic, offset: cc))
    }
    let size = Int(head[cc + 2]) * 8
    let lockBits = size > 48 ? (size - 48 + 7) / 8 : 0
    let end = Type2TagView.dataAreaOffset + size + (lockBits + 7) / 8
    let pages = min((end + pageSize - 1) / pageSize, Type2NDEFRead.maximumPageCount)
    return head + (try await readMemory(Type2NDEFRead.capabilityContainerPage + 1..<pages))
  }

  /// Writes `message` (encoded NDEF bytes; empty for an empty NDEF TLV) in the tearing-safe
  /// order of `Type2Tag.writePlan(_:into:options:)`.
  ///
  /// - Returns: the plan that was written.
  /// - Throws: ``Type2NDEFError/tag(_:)`` with `NFCTagError.Code.readOnly` or
  ///   `NFCTagError.Code.messageTooLarge` (nothing written) and the plan's other errors;
  ///   ``Type2NDEFError/reader(_:)`` for a failed read or write (the old message, an empty
  ///   one or the new one stays).
  @discardableResult
  public func write(_ message: [UInt8]) async throws(Type2NDEFError) -> TagWritePlan {
    let image = try await readImage()
    let plan: TagWritePlan
    do { plan = try Type2Tag.writePlan(message, into: image, options: options) } catch { throw .tag(error) }
    for write in plan.writes {
      do { try await transport.writePage(write.block, write.bytes) } catch { throw .reader(error) }
    }
    return plan
  }

  /// Writes an NDEF message model.
  ///
  /// - Throws: ``Type2NDEFError/tag(_:)`` with `NFCTagError.Code.invalidNDEFMessage` when
  ///   the model cannot be encoded, and as ``write(_:)-([UInt8])``.
  @discardableResult
  public func write(_ message: NDEFMessage) async throws(Type2NDEFError) -> TagWritePlan {
    let bytes: [UInt8]
    do { bytes = try message.encodedBytes() } catch {
      throw .tag(NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error))
    }
    return try await write(bytes)
  }
}
