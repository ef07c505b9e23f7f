// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire

/// Which pages of a Type 2 tag to read next to get its NDEF message in the fewest reads,
/// without any I/O (T2T 1.0 §6.4.1 NDEF read procedure, §2.3 Lock and Memory Control TLVs).
///
/// The caller sends a read of ``nextPages`` (READ `30` for 4 pages, FAST_READ `3A` or a
/// PC/SC READ BINARY for more, at most ``maximumPagesPerRead``) and hands the answer to
/// ``received(_:)`` until ``nextPages`` is `nil`. The reads:
///
/// - start at page 3, the capability container (pages 0-2, serial number and static lock
///   bytes, are not needed for reading and stay zero in ``image``);
/// - take as many pages as one read allows while TLV headers are still unknown, and only
///   up to the page holding the last byte of the NDEF TLV once its length is known;
/// - skip the values of Proprietary TLVs and the areas Lock and Memory Control TLVs declare,
///   reading only the pages that hold the next TLV header;
/// - stop at the end of the first NDEF TLV, at the Terminator TLV, or at the end of the
///   data area the CC declares.
///
/// Reading contiguous runs of ``maximumPagesPerRead`` pages from page 3 makes this the
/// least number of reads the tag's commands allow: ⌈(last page − 2) / maximumPagesPerRead⌉
/// when the TLVs are contiguous. Bytes after the NDEF TLV are not read; ``image`` holds
/// zeros there, so TLV errors after the message are not reported (a full image from
/// ``Type2TagView`` reports them).
public struct Type2NDEFRead: Sendable {
  /// The largest number of pages one read may return (READ: 4; FAST_READ: bounded by the
  /// reader's frame).
  public let maximumPagesPerRead: Int
  /// The chip's layout when known (GET_VERSION named it): no read goes past its user memory
  /// (so the configuration pages, which PROT may guard, are never read), and a CC data area
  /// larger than the user memory is an error (strict) or cut (lenient).
  public let variant: Type2TagVariant?
  /// The pages from page 0 through the end of the user memory when ``variant`` is known.
  public let userPageCount: Int?
  /// Strict or lenient decoding.
  public let options: TagDecodingOptions
  /// The bytes read so far at their absolute offsets from page 0 (pages not read are zero).
  public private(set) var image: [UInt8]
  /// The capability container, once page 3 is read.
  public private(set) var capabilityContainer: Type2CapabilityContainer?
  /// The first NDEF TLV, once its header is read.
  public private(set) var ndefTLV: TagTLV?
  /// The pages to read next, `nil` when the read is complete.
  public private(set) var nextPages: Range<Int>?
  /// How many reads ``received(_:)`` took so far.
  public private(set) var readCount: Int
  /// The rules the tag broke that lenient decoding accepted.
  public private(set) var warnings: [NFCTagWarning]
  private var known: [Bool]
  private var dataAreaEnd: Int
  /// Where the tag's readable memory ends (the user memory, or page FF): control TLVs may
  /// point at bytes up to here (dynamic lock bytes past the data area), so the TLV walk and
  /// the final decoding see an image this long, as a whole-image decoding of the tag would.
  private var imageEnd: Int
  private var ndefMap: TagMemoryMap?
  /// Where the TLV walk stopped for want of a header's bytes: that TLV's position, the map
  /// built so far and the TLVs counted. The next plan walks on from there, so each TLV is
  /// walked once (and its warning kept once) however many reads the tag takes.
  private var resumePoint: (position: Int, map: TagMemoryMap, count: Int)?

  /// The page of the capability container, where every read starts.
  public static let capabilityContainerPage = 3
  /// The largest page number READ and FAST_READ can address (one address byte).
  public static let maximumPageCount = 256

  /// A read whose first request is ``nextPages``: page 3 and up to
  /// `maximumPagesPerRead − 1` more.
  ///
  /// - Parameters:
  ///   - maximumPagesPerRead: the transport's largest read, in pages (at least 1; values
  ///     above 256 count as 256).
  ///   - variant: the chip's layout when known (from GET_VERSION), else `nil`.
  ///   - options: strict or lenient decoding of the CC and the TLVs.
  public init(
    maximumPagesPerRead: Int, variant: Type2TagVariant? = nil, options: TagDecodingOptions = .strict
  ) {
    self.maximumPagesPerRead = min(max(1, maximumPagesPerRead), Self.maximumPageCount)
    self.variant = variant
    userPageCount = variant.map {
      min(
        max(Type2TagView.dataAreaOffset &+ $0.userMemorySize, Type2TagView.dataAreaOffset)
          / Type2Tag.pageSize,
        Self.maximumPageCount)
    }
    self.options = options
    image = [UInt8](repeating: 0, count: Type2TagView.dataAreaOffset)
    capabilityContainer = nil
    ndefTLV = nil
    readCount = 0
    warnings = []
    known = [Bool](repeating: false, count: Self.maximumPageCount)
    dataAreaEnd = Self.maximumPageCount &* Type2Tag.pageSize
    imageEnd = Self.maximumPageCount &* Type2Tag.pageSize
    nextPages = nil
    ndefMap = nil
    resumePoint = nil
    nextPages = run(from: Self.capabilityContainerPage, exactlyThrough: nil)
  }

  /// Whether every page the NDEF message needs has been read.
  public var isComplete: Bool { nextPages == nil }

  /// Takes the answer to the read of ``nextPages`` (4 bytes per page) and works out the
  /// next one.
  ///
  /// - Throws: ``NFCTagError/Code/procedureFinished`` (offset 0) after the last read,
  ///   ``NFCTagError/Code/responseTooShort`` (offset: the answer's length) and
  ///   ``NFCTagError/Code/unexpectedResponse`` (offset: the expected length) for an answer
  ///   of the wrong size; then, at absolute image offsets, ``NFCTagError/Code/invalidMagic``
  ///   (12), ``NFCTagError/Code/unsupportedVersion`` (13, strict),
  ///   ``NFCTagError/Code/dataAreaExceedsImage`` (14, strict, the CC declares more than
  ///   the user memory of ``variant`` holds, or past page FF without a variant), and the TLV errors of ``TagTLVScanner/next()`` and
  ///   ``NFCTagError/Code/tooManyTLVs``. After an error the read stays where it was.
  public mutating func received(_ bytes: [UInt8]) throws(NFCTagError) {
    guard let pages = nextPages else { throw NFCTagError(.procedureFinished, offset: 0) }
    let expected = pages.count &* Type2Tag.pageSize
    guard bytes.count >= expected else { throw NFCTagError(.responseTooShort, offset: bytes.count) }
    guard bytes.count == expected else { throw NFCTagError(.unexpectedResponse, offset: expected) }
    var next = self
    let start = pages.lowerBound &* Type2Tag.pageSize
    if next.image.count < start &+ expected {
      next.image += [UInt8](repeating: 0, count: start &+ expected &- next.image.count)
    }
    for (i, byte) in bytes.enumerated() { next.image[start &+ i] = byte }
    for page in pages { next.known[page] = true }
    next.readCount &+= 1
    try next.plan()
    self = next
  }

  /// The image to decode once the read is complete: the bytes read up to the end of the
  /// NDEF TLV (or the Terminator), zeros after, up to the end of the data area.
  public var decodableImage: [UInt8] {
    var bytes = image
    if bytes.count < dataAreaEnd { bytes += [UInt8](repeating: 0, count: dataAreaEnd &- bytes.count) }
    if let tlv = ndefTLV, let map = ndefMap {
      // Everything after the NDEF TLV's last byte is zero (NULL TLVs), whatever was read.
      let positions = map.positions(from: tlv.valueOffset, count: tlv.length)
      let end = positions.last.map { $0 &+ 1 } ?? tlv.valueOffset
      if end < bytes.count {
        for i in end..<bytes.count { bytes[i] = 0 }
      }
    }
    return bytes
  }

  /// The NDEF message, once ``isComplete``; `nil` for an empty NDEF TLV and (lenient) for
  /// a tag without one.
  ///
  /// - Throws: ``NFCTagError/Code/procedureFinished`` (offset 0) before the read is
  ///   complete; the errors of `Type2TagView.init(validating:variant:options:)` and
  ///   ``TagTLVAreaView/message(options:)`` (``NFCTagError/Code/missingNDEFTLV`` when strict
  ///   and the tag has none).
  public func message(options ndefOptions: NDEFDecodingOptions? = nil) throws(NFCTagError) -> NDEFMessage? {
    guard isComplete else { throw NFCTagError(.procedureFinished, offset: 0) }
    let bytes = padded(decodableImage)
    let view = try Type2TagView(validating: bytes.span.bytes, options: options)
    return try view.tlvArea.message(options: ndefOptions ?? (options.isLenient ? .lenient : .strict))
  }

  /// The encoded NDEF message bytes (empty for an empty NDEF TLV), once ``isComplete``.
  ///
  /// - Throws: as ``message(options:)``.
  public func messageBytes() throws(NFCTagError) -> [UInt8] {
    guard isComplete else { throw NFCTagError(.procedureFinished, offset: 0) }
    let bytes = padded(decodableImage)
    let view = try Type2TagView(validating: bytes.span.bytes, options: options)
    return view.tlvArea.assembledNDEFBytes()
  }

  // MARK: Planning

  private func isKnown(_ offset: Int) -> Bool {
    let page = offset / Type2Tag.pageSize
    return page < known.count && known[page]
  }

  /// The last page a read may reach: the user memory's last page, and the data area's
  /// once the CC is known.
  private var lastReadablePage: Int {
    var last = Self.maximumPageCount &- 1
    if let userPageCount { last = min(last, userPageCount &- 1) }
    if capabilityContainer != nil {
      last = min(last, max(Self.capabilityContainerPage, (dataAreaEnd &- 1) / Type2Tag.pageSize))
    }
    return last
  }

  /// The pages from `page`: up to ``maximumPagesPerRead``, not past `exactlyThrough` when
  /// given (the NDEF TLV's last page) nor past the last readable page.
  private func run(from page: Int, exactlyThrough last: Int?) -> Range<Int> {
    var end = min(page &+ maximumPagesPerRead, lastReadablePage &+ 1)
    if let last { end = min(end, last &+ 1) }
    return page..<max(end, page &+ 1)
  }

  private mutating func plan() throws(NFCTagError) {
    if capabilityContainer == nil {
      guard isKnown(Type2TagView.capabilityContainerOffset) else {
        nextPages = run(from: Self.capabilityContainerPage, exactlyThrough: nil)
        return
      }
      try readCapabilityContainer()
    }
    if let tlv = ndefTLV, let map = ndefMap {
      nextPages = valueRun(tlv, map)
      return
    }
    nextPages = try scan()
  }

  /// The next read of the NDEF TLV's value, `nil` once every byte of it is known.
  private func valueRun(_ tlv: TagTLV, _ map: TagMemoryMap) -> Range<Int>? {
    let positions = map.positions(from: tlv.valueOffset, count: tlv.length)
    guard let missing = positions.first(where: { !isKnown($0) }), let last = positions.last else {
      return nil
    }
    return run(from: missing / Type2Tag.pageSize, exactlyThrough: last / Type2Tag.pageSize)
  }

  private mutating func readCapabilityContainer() throws(NFCTagError) {
    let offset = Type2TagView.capabilityContainerOffset
    let cc = Type2CapabilityContainer(
      magic: image[offset], version: image[offset &+ 1], size: image[offset &+ 2], access: image[offset &+ 3])
    guard cc.magic == Type2CapabilityContainer.ndefMagic else {
      throw NFCTagError(.invalidMagic, offset: offset)
    }
    if cc.majorVersion != 1 {
      guard options.isLenient else { throw NFCTagError(.unsupportedVersion, offset: offset &+ 1) }
      warnings.append(NFCTagWarning(.unsupportedVersion, offset: offset &+ 1))
    }
    // READ addresses pages 00-FF (T2T 1.0 §5.1): without a known chip the data area ends
    // there at the latest (a larger tag needs SECTOR_SELECT, which this read does not do).
    let readableEnd = (userPageCount ?? Self.maximumPageCount) &* Type2Tag.pageSize
    var end = Type2TagView.dataAreaOffset &+ cc.dataAreaSize
    if end > readableEnd {
      guard options.isLenient else { throw NFCTagError(.dataAreaExceedsImage, offset: offset &+ 2) }
      warnings.append(NFCTagWarning(.dataAreaExceedsImage, offset: offset &+ 2))
      end = readableEnd
    }
    capabilityContainer = cc
    dataAreaEnd = end
    imageEnd = max(end, readableEnd)
  }

  /// `bytes` with zeros up to ``imageEnd`` (unread memory reads as zeros).
  private func padded(_ bytes: [UInt8]) -> [UInt8] {
    let end = max(dataAreaEnd, imageEnd)
    return bytes.count < end ? bytes + [UInt8](repeating: 0, count: end &- bytes.count) : bytes
  }

  /// Walks the TLVs over the pages read; the pages to read next, or `nil` when done.
  private mutating func scan() throws(NFCTagError) -> Range<Int>? {
    let bytes = padded(image)
    let map = TagMemoryMap(dataAreaStart: Type2TagView.dataAreaOffset, dataAreaEnd: dataAreaEnd)
    var scanner = TagTLVScanner(
      image: bytes.span.bytes, map: resumePoint?.map ?? map,
      position: resumePoint?.position ?? map.normalized(map.dataAreaStart), options: options)
    var count = resumePoint?.count ?? 0
    while !scanner.isFinished {
      let current = scanner.map
      let p = current.normalized(scanner.position)
      guard p < dataAreaEnd else { return nil }
      // Every header byte the scanner will look at must have been read.
      if let missing = firstUnread(header: p, in: bytes, map: current) {
        resumePoint = (scanner.position, current, count)
        return run(from: missing / Type2Tag.pageSize, exactlyThrough: nil)
      }
      count &+= 1
      guard count <= options.maximumTLVCount else { throw NFCTagError(.tooManyTLVs, offset: p) }
      guard let tlv = try scanner.next() else { return nil }
      if let warning = scanner.lastWarning { warnings.append(warning) }
      if tlv.type == .ndef {
        ndefTLV = tlv
        ndefMap = scanner.map
        return valueRun(tlv, scanner.map)
      }
    }
    return nil
  }

  /// The first byte of the TLV header at `p` (type, length field, and a control TLV's
  /// 3-byte value) that lies in the data area but has not been read.
  private func firstUnread(header p: Int, in bytes: [UInt8], map: TagMemoryMap) -> Int? {
    guard isKnown(p) else { return p }
    let type = TagTLVType(rawValue: bytes[p])
    guard !type.isSingleByte else { return nil }
    var positions: [Int] = []
    guard let length = map.advance(p, by: 1), length < dataAreaEnd else { return nil }
    positions.append(length)
    var fieldSize = 1
    if isKnown(length) && bytes[length] == 0xFF {
      fieldSize = 3
      positions += map.positions(from: length, count: 3).dropFirst()
    }
    if type == .lockControl || type == .memoryControl, let value = map.advance(length, by: fieldSize) {
      positions += map.positions(from: value, count: 3)
    }
    return positions.first { $0 < dataAreaEnd && !isKnown($0) }
  }
}
