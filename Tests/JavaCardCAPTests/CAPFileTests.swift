// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import JavaCardCAP
import Testing
import ZlibInflate

/// What make-cap.py says a CAP file holds (its own load order, hashlib's hashes).
struct ExpectedCAP: Decodable {
  let zipOrder: [String]
  let loadFileDataBlock: String
  let sha1: String
  let sha256: String
  let packageAID: String
  let packageVersion: [UInt8]
  let formatVersion: [UInt8]
  let packageName: String?
  let appletAIDs: [String]
  let componentSizes: [String: Int]
}

/// Writes a CAP with Python's zipfile and reads what it should contain.
func pythonCAP(_ options: [String], seed: Int) throws -> ([UInt8], ExpectedCAP) {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "tapwire-cap-\(UUID().uuidString).cap"
  ).path
  defer { try? FileManager.default.removeItem(atPath: path) }
  let json = try python([makeCAPTool, path, "--seed", String(seed)] + options)
  let expected = try JSONDecoder().decode(ExpectedCAP.self, from: Data(json))
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  return (bytes, expected)
}

@Suite struct CAPFileTests {
  /// Python's zipfile writes stored, deflated and mixed archives, with and without data
  /// descriptors, CAP formats 2.1 and 2.2, with and without an Applet component; the entries
  /// are shuffled and include Descriptor, Debug and a manifest.
  @Test(arguments: [
    (["--method", "stored"], 1), (["--method", "deflated"], 2), (["--method", "mixed"], 3),
    (["--method", "stored", "--descriptors"], 4), (["--method", "deflated", "--descriptors"], 5),
    (["--method", "mixed", "--format", "2.1"], 6), (["--method", "deflated", "--no-applet"], 7),
  ])
  func readsPythonZipfileCAPs(options: [String], seed: Int) throws {
    let (bytes, expected) = try pythonCAP(options, seed: seed)
    let cap = try CAPFile(parsing: bytes, inflater: ZlibRawInflater())
    #expect(hexString(cap.loadFileDataBlock) == expected.loadFileDataBlock)
    #expect(cap.header.packageAID.hexString == expected.packageAID)
    #expect([cap.header.packageMajorVersion, cap.header.packageMinorVersion] == expected.packageVersion)
    #expect([cap.header.formatMajorVersion, cap.header.formatMinorVersion] == expected.formatVersion)
    #expect(cap.header.packageName.map { String(decoding: $0, as: UTF8.self) } == expected.packageName)
    #expect(cap.applets.map(\.aid.hexString) == expected.appletAIDs)
    #expect(cap.imports.map(\.aid.hexString) == ["a0000000620001"])
    #expect(String(decoding: cap.componentFolder, as: UTF8.self) == "com/example/hello/javacard/")
    for component in cap.components {
      #expect(component.bytes.count == expected.componentSizes[component.tag.name])
    }
    // Components in load order, then Descriptor and Debug; never ZIP order.
    let loadOrder =
      ["Header", "Directory", "Import", "Applet", "Class", "Method", "StaticField", "Export"]
      + ["ConstantPool", "RefLocation", "Descriptor", "Debug"]
    #expect(cap.components.map(\.tag.name) == loadOrder.filter { expected.componentSizes[$0] != nil })
    #expect(expected.zipOrder.map { $0.split(separator: "/").last! } != loadOrder.map { "\($0).cap" })
    let descriptorAndDebug = cap.components.filter { $0.tag == .descriptor || $0.tag == .debug }
    #expect(descriptorAndDebug.count == 2)
    let loadedBytes = cap.components.filter { $0.tag != .descriptor && $0.tag != .debug }.map(\.bytes.count)
    #expect(cap.loadFileDataBlock.count == loadedBytes.reduce(0, +))
  }

  /// The load file data block hash through an injected function, here Python's hashlib (the
  /// value make-cap.py computed over its own load file data block).
  @Test func hashThroughInjectedFunction() throws {
    let (bytes, expected) = try pythonCAP(["--method", "mixed"], seed: 11)
    let cap = try CAPFile(parsing: bytes, inflater: ZlibRawInflater())
    for (algorithm, value) in [("sha1", expected.sha1), ("sha256", expected.sha256)] {
      let hash = cap.loadFileDataBlockHash { block in
        (try? python(
          [
            "-c",
            "import sys,hashlib; sys.stdout.write(hashlib.\(algorithm)(sys.stdin.buffer.read()).hexdigest())",
          ],
          input: block)).map { String(decoding: $0, as: UTF8.self) }.map(hexBytes) ?? []
      }
      #expect(hexString(hash) == value)
    }
  }

  /// `C4` with a BER length (GPCS §11.6.2.3): 82 xx xx beyond 255 bytes, 81 xx for 128...255,
  /// one byte below; INSTALL [for load] names the Header's package AID.
  @Test func loadFileAndCommands() throws {
    let (bytes, expected) = try pythonCAP(["--method", "deflated"], seed: 12)
    let cap = try CAPFile(parsing: bytes, inflater: ZlibRawInflater())
    let block = cap.loadFileDataBlock
    #expect(block.count > 255)
    #expect(cap.loadFile == [0xC4, 0x82, UInt8(block.count >> 8), UInt8(block.count & 0xFF)] + block)
    let install = try cap.installForLoad(hash: [])
    #expect(
      install.data == [UInt8(expected.packageAID.count / 2)] + hexBytes(expected.packageAID) + [0, 0, 0, 0])
    #expect(install.p1 == 0x02 && install.ins == .gpInstall)
    let loads = try cap.loadCommands(blockSize: 100)
    #expect(loads.flatMap(\.data) == cap.loadFile)
    #expect(loads.map(\.p2) == (0..<loads.count).map { UInt8($0) })
    #expect(loads.map(\.p1) == Array(repeating: 0x00, count: loads.count - 1) + [0x80])
    #expect(loads.dropLast().allSatisfy { $0.data.count == 100 })

    var small = minimalCAP()
    let minimal = try CAPFile(parsing: small.build(), inflater: ZlibRawInflater())
    #expect(minimal.loadFile.prefix(2) == [0xC4, UInt8(minimal.loadFileDataBlock.count)])
  }

  /// The minimal CAP built here: header fields read at their JCVM §6.4 offsets.
  @Test func minimalHeaderAppletImport() throws {
    var builder = minimalCAP()
    let cap = try CAPFile(parsing: builder.build(), inflater: ZlibRawInflater())
    #expect(cap.header.packageAID.bytes == [0xA0, 0, 0, 0, 0x01])
    #expect(cap.header.formatMajorVersion == 2 && cap.header.formatMinorVersion == 1)
    #expect(cap.header.packageMajorVersion == 1 && cap.header.packageMinorVersion == 2)
    #expect(cap.header.flags == 0x04 && cap.header.packageName == nil)
    #expect(
      cap.applets == [
        CAPApplet(aid: try ApplicationIdentifier([0xA0, 0, 0, 0, 0x01, 0x01]), installMethodOffset: 0x2A)
      ])
    #expect(cap.imports.first?.majorVersion == 1 && cap.imports.first?.minorVersion == 0)
    let components = Dictionary(uniqueKeysWithValues: minimalComponents())
    let expected =
      ["Header", "Directory", "Import", "Applet", "Class", "Method", "StaticField", "Export"]
      + ["ConstantPool", "RefLocation"]
    #expect(cap.loadFileDataBlock == expected.flatMap { components["\($0).cap"] ?? [] })
  }

  @Test func crc32CheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
    var split = CRC32()
    split.update(Array("1234".utf8))
    split.update(Array("56789".utf8))
    #expect(split.value == 0xCBF4_3926)
  }

  /// zlib inflates what Python's zlib deflated; one byte less room, a truncated or an overlong stream fail.
  @Test func zlibAgreesWithPythonDeflate() throws {
    var generator = SystemRandomNumberGenerator()
    for size in [0, 1, 100, 5000, 65538] {
      let data = (0..<size).map { _ in UInt8.random(in: 0...3, using: &generator) }
      let deflated = try pythonDeflate(data)
      #expect(ZlibRawInflater().inflate(deflated, maximumCount: size) == .inflated(data))
      if size > 0 {
        #expect(ZlibRawInflater().inflate(deflated, maximumCount: size - 1) == .exceedsMaximum)
        #expect(ZlibRawInflater().inflate(Array(deflated.dropLast()), maximumCount: size) == .invalidData)
      }
      #expect(ZlibRawInflater().inflate(deflated + [0], maximumCount: size) == .invalidData)
    }
    #expect(ZlibRawInflater().inflate([0xFF, 0xFF], maximumCount: 10) == .invalidData)
  }
}

@Suite struct CAPRoundTripTests {
  /// Read, re-encode as a stored ZIP, read again: the same CAP. Python's zipfile checks the
  /// encoded archive (testzip: every CRC-32) and lists the same files.
  @Test(arguments: [
    (["--method", "deflated", "--descriptors"], 31), (["--method", "mixed", "--format", "2.1"], 32),
  ])
  func roundTrip(options: [String], seed: Int) throws {
    let (bytes, _) = try pythonCAP(options, seed: seed)
    let cap = try CAPFile(parsing: bytes, inflater: ZlibRawInflater())
    let encoded = try #require(cap.encodedZIP())
    let again = try CAPFile(parsing: encoded, inflater: ZlibRawInflater())
    #expect(again == cap)
    let listing = try python(
      [
        "-c",
        "import io,sys,zipfile; z=zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read())); "
          + "assert z.testzip() is None; print('\\n'.join(f'{i.filename} {i.file_size}' for i in z.infolist()))",
      ],
      input: encoded)
    let expected = cap.components.map { "\(String(decoding: $0.entryName, as: UTF8.self)) \($0.bytes.count)" }
    #expect(String(decoding: listing, as: UTF8.self).split(separator: "\n").map(String.init) == expected)
  }

  @Test func encoderRefusesWhatNeedsZIP64() {
    #expect(ZIPArchive.encodeStored([(name: [UInt8](repeating: 0x61, count: 0x1_0000), data: [])]) == nil)
    #expect(ZIPArchive.encodeStored([]) == [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))
    #expect((try? ZIPArchive(parsing: ZIPArchive.encodeStored([])!))?.entries.isEmpty == true)
  }
}
