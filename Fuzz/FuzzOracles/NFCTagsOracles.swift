// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NDEF
import NFCTags

/// Tag memory images: every input is tried as a Type 1, 2, 3 and 5 image. Strict success
/// implies lenient success without warnings; a writable image with a message takes the same
/// message back through a write plan, and the written image decodes to it.
public enum TagImageOracle {
  /// Checks one input against every tag type.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    try checkScanning(bytes)
    try checkType2Read(bytes)
    try checkType("Type 1", bytes, decode: decodeType1) { message throws(NFCTagError) in
      try Type1Tag.writePlan(message, into: bytes)
    }
    try checkType("Type 2", bytes, decode: decodeType2) { message throws(NFCTagError) in
      try Type2Tag.writePlan(message, into: bytes)
    }
    try checkType("Type 3", bytes, decode: decodeType3) { message throws(NFCTagError) in
      try Type3Tag.writePlan(message, into: bytes)
    }
    try checkType("Type 5", bytes, decode: decodeType5) { message throws(NFCTagError) in
      try Type5Tag.writePlan(message, into: bytes)
    }
  }

  /// Type 2 reads in the fewest round trips (`Type2NDEFRead`) against the whole-image
  /// decoder, the input taken as a tag's first 256 pages (zeros after it) and read 4 pages
  /// (READ, READ BINARY) and 62 pages (FAST_READ on a PN53x) at a time: the plan asks only for pages 0-255 within the read size, ends
  /// within 256 reads, and wherever the whole image decodes strictly (a CC data area within
  /// the 256 pages) finds the same NDEF message bytes.
  static func checkType2Read(_ bytes: [UInt8]) throws(OracleFailure) {
    let pageCount = Type2NDEFRead.maximumPageCount
    var memory = Array(bytes.prefix(pageCount * Type2Tag.pageSize))
    memory += [UInt8](repeating: 0, count: pageCount * Type2Tag.pageSize - memory.count)
    var whole: [UInt8]? = nil
    if Type2TagView.dataAreaOffset + Int(memory[14]) * 8 <= memory.count,
      let view = try? Type2TagView(validating: memory.span.bytes),
      (try? view.tlvArea.message(options: .strict)) != nil
    {
      whole = view.tlvArea.assembledNDEFBytes()
    }
    for maximum in [4, 62] {
      var read = Type2NDEFRead(maximumPagesPerRead: maximum)
      var reads = 0
      var failure: NFCTagError? = nil
      while let pages = read.nextPages {
        try require(
          pages.lowerBound >= 0 && pages.upperBound <= pageCount && !pages.isEmpty && pages.count <= maximum,
          "Type 2 read (\(maximum) pages a read): asked for pages \(pages)")
        reads += 1
        try require(reads <= pageCount, "Type 2 read (\(maximum) pages a read): more than \(pageCount) reads")
        let answer = Array(
          memory[pages.lowerBound * Type2Tag.pageSize..<pages.upperBound * Type2Tag.pageSize])
        do throws(NFCTagError) { try read.received(answer) } catch {
          failure = error
          break
        }
      }
      guard let whole else { continue }
      try require(
        failure == nil,
        "Type 2 read (\(maximum) pages a read): \(failure.map { "\($0)" } ?? "") where the whole image decodes"
      )
      let planned: [UInt8]
      do throws(NFCTagError) {
        _ = try read.message()
        planned = try read.messageBytes()
      } catch {
        throw OracleFailure("Type 2 read (\(maximum) pages a read): \(error) where the whole image decodes")
      }
      try require(
        planned == whole, "Type 2 read (\(maximum) pages a read): another message than the whole image")
    }
  }

  /// The `scanning` initializers agree with the `validating` ones (strict): the first kept
  /// TLV error is what validation throws, a thrown error is the same, and no error at all
  /// means validation succeeds.
  static func checkScanning(_ bytes: [UInt8]) throws(OracleFailure) {
    typealias Attempt = (RawSpan) throws(NFCTagError) -> [NFCTagError]
    let kinds: [(String, Attempt, Attempt)] = [
      (
        "Type 1",
        { (image: RawSpan) throws(NFCTagError) in try Type1TagView(scanning: image).tlvArea.area.errors },
        { (image: RawSpan) throws(NFCTagError) in try Type1TagView(validating: image).tlvArea.area.errors }
      ),
      (
        "Type 2",
        { (image: RawSpan) throws(NFCTagError) in try Type2TagView(scanning: image).tlvArea.area.errors },
        { (image: RawSpan) throws(NFCTagError) in try Type2TagView(validating: image).tlvArea.area.errors }
      ),
      (
        "Type 5",
        { (image: RawSpan) throws(NFCTagError) in try Type5TagView(scanning: image).tlvArea.area.errors },
        { (image: RawSpan) throws(NFCTagError) in try Type5TagView(validating: image).tlvArea.area.errors }
      ),
    ]
    for (name, scan, validate) in kinds {
      var validation: NFCTagError? = nil
      do throws(NFCTagError) { _ = try validate(bytes.span.bytes) } catch { validation = error }
      var scanned: NFCTagError? = nil
      do throws(NFCTagError) { scanned = try scan(bytes.span.bytes).first } catch { scanned = error }
      try require(scanned == validation, "\(name): the scan's first error is not the validation error")
    }
    try checkType4CCScanning(bytes)
  }

  /// A Type 4 CC file scanned with its bad fields kept: every field is the byte read (the
  /// CC encodes back to the input's first 15 or 17 bytes), the errors are in offset order,
  /// and parsing throws the first of them (or succeeds when there are none).
  static func checkType4CCScanning(_ bytes: [UInt8]) throws(OracleFailure) {
    var errors: [NFCTagError] = []
    var parsed: NFCTagError? = nil
    do throws(NFCTagError) { _ = try Type4CapabilityContainer(parsing: bytes) } catch { parsed = error }
    let scanned: Type4CapabilityContainer
    do throws(NFCTagError) {
      scanned = try Type4CapabilityContainer(scanning: bytes, errors: &errors)
    } catch {
      try require(parsed == (errors.first ?? error), "Type 4 CC: parsing does not throw the scan's error")
      return
    }
    let fixed = 7 + 2 + (scanned.fileControl.isExtended ? 8 : 6)
    try require(
      Array(scanned.bytes.prefix(fixed)) == Array(bytes.prefix(fixed)),
      "Type 4 CC: a scanned field is not the byte read")
    let offsets = errors.map(\.offset)
    try require(
      offsets == offsets.sorted() && Set(offsets).count == offsets.count, "Type 4 CC: errors out of order")
    try require(parsed == errors.first, "Type 4 CC: parsing does not throw the scan's first error")
  }

  /// What a decoder found: warnings, read-only state and the message (encoded), if any.
  struct Decoded {
    var warnings: Int
    var readOnly: Bool
    var message: [UInt8]?
  }

  static func decodeType1(_ bytes: [UInt8], _ options: TagDecodingOptions) -> Decoded? {
    guard let view = try? Type1TagView(validating: bytes.span.bytes, options: options) else { return nil }
    return Decoded(
      warnings: view.warnings.count, readOnly: view.isReadOnly,
      message: (try? view.tlvArea.message()).flatMap { try? $0?.encodedBytes() })
  }

  static func decodeType2(_ bytes: [UInt8], _ options: TagDecodingOptions) -> Decoded? {
    guard let view = try? Type2TagView(validating: bytes.span.bytes, options: options) else { return nil }
    return Decoded(
      warnings: view.warnings.count, readOnly: view.isReadOnly,
      message: (try? view.tlvArea.message()).flatMap { try? $0?.encodedBytes() })
  }

  static func decodeType3(_ bytes: [UInt8], _ options: TagDecodingOptions) -> Decoded? {
    guard let view = try? Type3TagView(validating: bytes.span.bytes, options: options) else { return nil }
    return Decoded(
      warnings: view.warnings.count, readOnly: view.isReadOnly,
      message: (try? view.message()).flatMap { try? $0?.encodedBytes() })
  }

  static func decodeType5(_ bytes: [UInt8], _ options: TagDecodingOptions) -> Decoded? {
    guard let view = try? Type5TagView(validating: bytes.span.bytes, options: options) else { return nil }
    return Decoded(
      warnings: view.warnings.count, readOnly: view.isReadOnly,
      message: (try? view.tlvArea.message()).flatMap { try? $0?.encodedBytes() })
  }

  static func checkType(
    _ name: String, _ bytes: [UInt8], decode: ([UInt8], TagDecodingOptions) -> Decoded?,
    plan: ([UInt8]) throws(NFCTagError) -> TagWritePlan
  ) throws(OracleFailure) {
    let lenient = decode(bytes, .lenient)
    guard let strict = decode(bytes, .strict) else { return }
    guard let lenient else { throw OracleFailure("\(name): strict ok but lenient failed") }
    try require(lenient.warnings == 0, "\(name): strict ok but lenient warned")
    guard let message = strict.message, !strict.readOnly, let written = try? plan(message) else { return }
    guard let reread = decode(written.finalImage, .strict) else {
      throw OracleFailure("\(name): the image written by the plan does not decode")
    }
    try require(reread.message == message, "\(name): written image holds another message")
  }
}

/// The Type 4 NDEF procedure fed with responses taken from the input (a length byte, then
/// that many response bytes, status word last): it must end, with a message or a typed
/// error, within a bounded number of steps.
public enum Type4ProcedureOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    for operation in [Type4NDEFProcedure.Operation.read, .write([0xD0, 0x00, 0x00])] {
      var procedure = Type4NDEFProcedure(operation: operation)
      var input = bytes[...]
      var steps = 0
      var command: CommandAPDU? = procedure.start()
      while command != nil {
        steps += 1
        guard steps <= 4 * bytes.count + 16 else { throw OracleFailure("the Type 4 procedure does not end") }
        var response = ResponseAPDU(statusWord: StatusWord(rawValue: 0x6A82))
        if let length = input.popFirst() {
          let chunk = Array(input.prefix(Int(length)))
          input = input.dropFirst(chunk.count)
          if let parsed = try? ResponseAPDU(parsing: chunk) { response = parsed }
        }
        do { command = try procedure.receive(response) } catch { break }
      }
    }
  }
}
