// SPDX-License-Identifier: Apache-2.0
import Foundation
import JavaCardCAP

/// A ZIP writer for malformed-input tests: every field can be overridden, and the offsets
/// of every structure are recorded so tests can assert exact error offsets.
struct ZIPBuilder {
  struct Entry {
    var name: [UInt8]
    var data: [UInt8]  // the uncompressed data
    var stored: [UInt8]? = nil  // what is written as the entry's data (default: `data`)
    var method: UInt16 = 0
    var flags: UInt16 = 0
    var crc: UInt32? = nil
    var compressedSize: UInt32? = nil
    var uncompressedSize: UInt32? = nil
    var localName: [UInt8]? = nil
    var descriptor: [UInt8]? = nil  // written after the data (flag bit 3 set by the caller)

    init(_ name: String, _ data: [UInt8]) {
      self.name = Array(name.utf8)
      self.data = data
    }
  }

  var entries: [Entry] = []
  var comment: [UInt8] = []

  /// Offsets recorded by ``build()``.
  var localOffsets: [Int] = []
  var dataOffsets: [Int] = []
  var centralOffsets: [Int] = []
  var centralStart = 0
  var endOffset = 0

  mutating func add(_ entry: Entry) { entries.append(entry) }

  mutating func add(_ name: String, _ data: [UInt8]) { entries.append(Entry(name, data)) }

  static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
  static func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }

  mutating func build() -> [UInt8] {
    var out: [UInt8] = []
    localOffsets = []
    dataOffsets = []
    centralOffsets = []
    for entry in entries {
      let payload = entry.stored ?? entry.data
      let crc = entry.crc ?? CRC32.checksum(entry.data)
      let csize = entry.compressedSize ?? UInt32(payload.count)
      let usize = entry.uncompressedSize ?? UInt32(entry.data.count)
      let localName = entry.localName ?? entry.name
      localOffsets.append(out.count)
      out += Self.le32(0x0403_4B50) + Self.le16(20) + Self.le16(entry.flags) + Self.le16(entry.method)
      out += Self.le16(0) + Self.le16(0x5B87)
      if entry.flags & 0x0008 != 0 {
        out += Self.le32(0) + Self.le32(0) + Self.le32(0)
      } else {
        out += Self.le32(crc) + Self.le32(csize) + Self.le32(usize)
      }
      out += Self.le16(UInt16(localName.count)) + Self.le16(0) + localName
      dataOffsets.append(out.count)
      out += payload
      out += entry.descriptor ?? []
    }
    centralStart = out.count
    for (index, entry) in entries.enumerated() {
      let payload = entry.stored ?? entry.data
      centralOffsets.append(out.count)
      out += Self.le32(0x0201_4B50) + Self.le16(0x0314) + Self.le16(20) + Self.le16(entry.flags)
      out += Self.le16(entry.method) + Self.le16(0) + Self.le16(0x5B87)
      out += Self.le32(entry.crc ?? CRC32.checksum(entry.data))
      out += Self.le32(entry.compressedSize ?? UInt32(payload.count))
      out += Self.le32(entry.uncompressedSize ?? UInt32(entry.data.count))
      out += Self.le16(UInt16(entry.name.count)) + Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le16(0)
      out += Self.le32(0) + Self.le32(UInt32(localOffsets[index])) + entry.name
    }
    endOffset = out.count
    out += Self.le32(0x0605_4B50) + Self.le16(0) + Self.le16(0)
    out += Self.le16(UInt16(entries.count)) + Self.le16(UInt16(entries.count))
    out += Self.le32(UInt32(endOffset - centralStart)) + Self.le32(UInt32(centralStart))
    out += Self.le16(UInt16(comment.count)) + comment
    return out
  }
}

/// Writes a little-endian field into `bytes` at `offset`.
func poke16(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt16) {
  bytes[offset] = UInt8(value & 0xFF)
  bytes[offset + 1] = UInt8(value >> 8)
}

func poke32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
  poke16(&bytes, offset, UInt16(value & 0xFFFF))
  poke16(&bytes, offset + 2, UInt16(value >> 16))
}

/// A component file: tag, big-endian size, info.
func componentFile(_ tag: UInt8, _ info: [UInt8]) -> [UInt8] {
  [tag, UInt8(info.count >> 8), UInt8(info.count & 0xFF)] + info
}

/// A minimal valid CAP's component files (format 2.1, package AID A000000001 version 1.2,
/// one applet A00000000101), keyed by file name.
func minimalComponents() -> [(String, [UInt8])] {
  let aid: [UInt8] = [0xA0, 0, 0, 0, 0x01]
  let header = componentFile(1, [0xDE, 0xCA, 0xFF, 0xED, 0x01, 0x02, 0x04, 0x02, 0x01, 0x05] + aid)
  let applet = componentFile(3, [0x01, 0x06] + aid + [0x01, 0x00, 0x2A])
  let imports = componentFile(4, [0x01, 0x00, 0x01, 0x07, 0xA0, 0, 0, 0, 0x62, 0, 0x01])
  return [
    ("Header.cap", header), ("Directory.cap", componentFile(2, [0x11, 0x22])), ("Applet.cap", applet),
    ("Import.cap", imports), ("ConstantPool.cap", componentFile(5, [0x55])),
    ("Class.cap", componentFile(6, [0x66])),
    ("Method.cap", componentFile(7, [0x77, 0x77])), ("StaticField.cap", componentFile(8, [0x88])),
    ("RefLocation.cap", componentFile(9, [0x99])), ("Descriptor.cap", componentFile(11, [0xBB])),
    ("Debug.cap", componentFile(12, [0xCC])),
  ]
}

/// A builder holding `minimalComponents()` under `pkg/javacard/`, in the given order of names.
func minimalCAP(folder: String = "pkg/javacard/") -> ZIPBuilder {
  var builder = ZIPBuilder()
  for (name, data) in minimalComponents().reversed() { builder.add(folder + name, data) }
  return builder
}

/// A stored-block raw DEFLATE stream (RFC 1951 §3.2.4): BFINAL=1, BTYPE=00, LEN, NLEN, data.
func storedDeflate(_ data: [UInt8]) -> [UInt8] {
  let length = UInt16(data.count)
  return [0x01] + ZIPBuilder.le16(length) + ZIPBuilder.le16(~length) + data
}

/// Runs python3 (Debian's) with `arguments`, feeding `input`; returns stdout.
func python(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
  process.arguments = arguments
  let stdin = Pipe()
  let stdout = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  try process.run()
  stdin.fileHandleForWriting.write(Data(input))
  try stdin.fileHandleForWriting.close()
  let output = stdout.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
  return [UInt8](output)
}

/// Raw DEFLATE of `data` by Python's zlib (wbits -15), an independent compressor.
func pythonDeflate(_ data: [UInt8]) throws -> [UInt8] {
  try python(
    [
      "-c",
      "import sys,zlib; c=zlib.compressobj(9, zlib.DEFLATED, -15); "
        + "sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())",
    ], input: data)
}

/// The make-cap.py tool beside the tests.
let makeCAPTool = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Tools/make-cap.py").path

/// Lowercase hex.
func hexString(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

/// Bytes from hex text.
func hexBytes(_ text: String) -> [UInt8] {
  var bytes: [UInt8] = []
  var index = text.startIndex
  while index < text.endIndex {
    let next = text.index(index, offsetBy: 2)
    bytes.append(UInt8(text[index..<next], radix: 16)!)
    index = next
  }
  return bytes
}
