// SPDX-License-Identifier: Apache-2.0
extension ZIPArchive {
  /// Writes `files` as a ZIP archive of stored entries (PKWARE APPNOTE 6.3.10 §4.3: local
  /// headers with data, central directory, end record; version 2.0, no data descriptors, time
  /// and date 0, i.e. 1980-01-01), the encoder beside ``init(parsing:options:)``.
  ///
  /// - Returns: nil when the archive needs ZIP64 (more than 65534 files, a name over 65535
  ///   bytes, sizes or offsets of 4 GiB or more).
  public static func encodeStored(_ files: [(name: [UInt8], data: [UInt8])]) -> [UInt8]? {
    guard files.count < 0xFFFF else { return nil }
    var out: [UInt8] = []
    var central: [UInt8] = []
    for (name, data) in files {
      guard name.count <= 0xFFFF, fitsUInt32(data.count), fitsUInt32(out.count) else { return nil }
      let crc = CRC32.checksum(data)
      let offset = out.count
      // Local file header (§4.3.7).
      appendLE(&out, 0x0403_4B50, 4)
      appendLE(&out, 20, 2)  // version needed to extract: 2.0
      appendLE(&out, 0, 2)  // flags
      appendLE(&out, 0, 2)  // method: stored
      appendLE(&out, 0, 4)  // time, date
      appendLE(&out, crc, 4)
      appendLE(&out, data.count, 4)
      appendLE(&out, data.count, 4)
      appendLE(&out, name.count, 2)
      appendLE(&out, 0, 2)  // extra field length
      out += name
      out += data
      // Central directory file header (§4.3.12).
      appendLE(&central, 0x0201_4B50, 4)
      appendLE(&central, 20, 2)  // version made by: MS-DOS, 2.0
      appendLE(&central, 20, 2)
      appendLE(&central, 0, 2)
      appendLE(&central, 0, 2)
      appendLE(&central, 0, 4)
      appendLE(&central, crc, 4)
      appendLE(&central, data.count, 4)
      appendLE(&central, data.count, 4)
      appendLE(&central, name.count, 2)
      appendLE(&central, 0, 2)  // extra field length
      appendLE(&central, 0, 2)  // comment length
      appendLE(&central, 0, 2)  // disk number start
      appendLE(&central, 0, 2)  // internal attributes
      appendLE(&central, 0, 4)  // external attributes
      appendLE(&central, offset, 4)
      central += name
    }
    guard fitsUInt32(out.count), fitsUInt32(central.count) else { return nil }
    let centralOffset = out.count
    out += central
    // End of central directory record (§4.3.16).
    appendLE(&out, 0x0605_4B50, 4)
    appendLE(&out, 0, 2)
    appendLE(&out, 0, 2)
    appendLE(&out, files.count, 2)
    appendLE(&out, files.count, 2)
    appendLE(&out, central.count, 4)
    appendLE(&out, centralOffset, 4)
    appendLE(&out, 0, 2)  // comment length
    return out
  }

  /// Whether `value` fits a 32-bit ZIP field without being the ZIP64 marker FFFFFFFF.
  private static func fitsUInt32(_ value: Int) -> Bool {
    guard let narrow = UInt32(exactly: value) else { return false }
    return narrow != UInt32.max
  }

  private static func appendLE<Value: BinaryInteger>(_ bytes: inout [UInt8], _ value: Value, _ width: Int) {
    for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
  }
}

extension CAPFile {
  /// The CAP file as a ZIP of stored entries: every component under its entry name, in
  /// ``components`` order (load order, then Descriptor and Debug). Reading it back gives the
  /// same components, header, applets and imports; other files of the original are not kept.
  ///
  /// - Returns: nil when the archive would need ZIP64 (never for components read by this type).
  public func encodedZIP() -> [UInt8]? {
    ZIPArchive.encodeStored(components.map { (name: $0.entryName, data: $0.bytes) })
  }
}
