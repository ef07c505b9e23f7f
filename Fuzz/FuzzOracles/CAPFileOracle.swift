// SPDX-License-Identifier: Apache-2.0
import JavaCardCAP
import ZlibInflate

/// The CAP file reader on arbitrary bytes: the ZIP layer (every entry extracted, zlib inflating
/// deflated ones) and the CAP layer. Nothing may trap; a ZIP error's offset lies within the
/// input; an extracted entry has its declared size and CRC-32; a CAP that reads has its load
/// file data block in load order without Descriptor or Debug, and re-encoded as a stored ZIP
/// it reads back to the same components, header, applets and imports.
public enum CAPFileOracle {
  /// The most entries extracted one by one per input (each is bounded by the entry size limit).
  static let maximumExtractedEntries = 16

  /// Checks one input.
  public static func check(_ input: [UInt8]) throws(OracleFailure) {
    let inflater = ZlibRawInflater()
    let archive: ZIPArchive
    do { archive = try ZIPArchive(parsing: input) } catch {
      try require(
        error.component == nil && error.offset <= input.count, "ZIP error \(error) outside the input")
      return
    }
    for entry in archive.entries.prefix(maximumExtractedEntries) {
      do {
        let data = try archive.contents(of: entry, inflater: inflater)
        try require(data.count == entry.uncompressedSize, "extracted size differs from the declared one")
        try require(CRC32.checksum(data) == entry.crc32, "extracted data fails its CRC-32")
      } catch let error as CAPFileError {
        try require(error.offset <= input.count, "entry error \(error) outside the input")
      } catch { try require(false, "untyped error \(error)") }
    }
    let cap: CAPFile
    do { cap = try CAPFile(archive: archive, inflater: inflater) } catch {
      let inZIP =
        error.component == nil || error.code == .missingComponent || error.code == .duplicateComponent
      let bound = inZIP ? input.count : archive.options.maximumEntrySize
      try require(error.offset <= bound, "CAP error \(error) outside its input")
      return
    }
    let order = CAPComponentTag.loadOrder
    var expected: [UInt8] = []
    for tag in order { if let component = cap.component(tag) { expected += component.bytes } }
    try require(cap.loadFileDataBlock == expected, "load file data block not in load order")
    try require(
      cap.loadFile.first == 0xC4 && cap.loadFile.suffix(expected.count) == expected[...],
      "load file is not C4")
    let indices = cap.components.map { order.firstIndex(of: $0.tag) ?? order.count + Int($0.tag.rawValue) }
    try require(indices == indices.sorted() && Set(indices).count == indices.count, "components out of order")
    guard let encoded = cap.encodedZIP() else { throw OracleFailure("a CAP that reads did not encode") }
    do {
      let again = try CAPFile(parsing: encoded, inflater: inflater)
      try require(again.components == cap.components, "components changed in the round trip")
      try require(again.header == cap.header && again.applets == cap.applets, "header or applets changed")
      try require(
        again.imports == cap.imports && again.componentFolder == cap.componentFolder, "imports changed")
    } catch { throw OracleFailure("re-encoded CAP did not read: \(error)") }
  }
}
