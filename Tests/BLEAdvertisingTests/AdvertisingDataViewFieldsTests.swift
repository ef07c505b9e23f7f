// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// The single-valued accessors of `AdvertisingDataView` (flags, TX power, appearance, local
/// name) read offsets noted while validating; these tests hold them to the rules a full walk
/// of the structures gives (CSS Part A §1.2, §1.3, §1.5, §1.12).
@Suite("AdvertisingDataView noted fields")
struct AdvertisingDataViewFieldsTests {
  /// What the accessors return: flags, TX power, appearance, name, name complete?, name
  /// offset.
  struct Fields: Equatable, CustomStringConvertible {
    var flags: UInt8?
    var txPower: Int8?
    var appearance: UInt16?
    var name: [UInt8]?
    var complete: Bool?
    var nameOffset: Int?
    var description: String {
      "flags \(String(describing: flags)) tx \(String(describing: txPower)) "
        + "appearance \(String(describing: appearance)) name \(String(describing: name)) "
        + "complete \(String(describing: complete)) at \(String(describing: nameOffset))"
    }
  }

  static func accessors(_ view: borrowing AdvertisingDataView) -> Fields {
    var fields = Fields(flags: view.flags?.rawValue, txPower: view.txPowerLevel, appearance: view.appearance)
    if let name = view.localName() {
      fields.name = name.utf8.copiedBytes()
      fields.complete = name.isComplete
    }
    return fields
  }

  /// The same values from one walk over the structures: the last Flags, the last
  /// well-formed TX power and appearance, the last complete name else the last shortened.
  static func walked(_ view: borrowing AdvertisingDataView) -> Fields {
    var fields = Fields()
    var complete: [UInt8]? = nil
    var shortened: [UInt8]? = nil
    var it = view.structures
    while let s = it.next() {
      if let flags = s.flags { fields.flags = flags.rawValue }
      if let tx = try? s.txPowerLevel() { fields.txPower = tx }
      if let appearance = try? s.appearance() { fields.appearance = appearance }
      if let name = s.localName() {
        if name.isComplete { complete = name.utf8.copiedBytes() } else { shortened = name.utf8.copiedBytes() }
      }
    }
    if let complete {
      fields.name = complete
      fields.complete = true
    } else if let shortened {
      fields.name = shortened
      fields.complete = false
    }
    return fields
  }

  /// (hex, lenient?, flags, tx, appearance, name, complete), hand-checked.
  static let vectors: [(String, Bool, UInt8?, Int8?, UInt16?, String?, Bool?)] = [
    ("", false, nil, nil, nil, nil, nil),
    // An empty Flags structure reads as no flags; the last Flags wins (CSS Part A §1.3 allows
    // one; BlueZ and Android keep the last).
    ("0101 020106", false, 0x06, nil, nil, nil, nil),
    ("020106 0101", false, 0x00, nil, nil, nil, nil),
    // The last well-formed TX power wins; a malformed one after it is skipped.
    ("020a01 020afc 030a0102", false, nil, -4, nil, nil, nil),
    // Appearance: a 1-octet one is malformed, the 2-octet one counts.
    ("0319c103 0219 01", false, nil, nil, 0x03C1, nil, nil),
    // A complete name wins over a later shortened one; the last complete one wins.
    ("020941 020942 020843", false, nil, nil, nil, "B", true),
    ("020843 020844", false, nil, nil, nil, "D", false),
    // Lenient: the structure running past the end is dropped with what follows.
    ("020a05 03 0a", true, nil, 5, nil, nil, nil),
    ("020106 020941 0509 42", true, 0x06, nil, nil, "A", true),
  ]

  @Test(arguments: 0..<vectors.count)
  func accessorsMatchVectors(index: Int) throws {
    let (text, lenient, flags, tx, appearance, name, complete) = Self.vectors[index]
    let bytes = hex(text)
    let view = try AdvertisingDataView(validating: bytes.span.bytes, options: lenient ? .lenient : .strict)
    let got = Self.accessors(view)
    #expect(got.flags == flags)
    #expect(got.txPower == tx)
    #expect(got.appearance == appearance)
    #expect(got.name == name.map { Array($0.utf8) })
    #expect(got.complete == complete)
  }

  @Test func nameViewPointsIntoTheInput() throws {
    let bytes = hex("020106 0509 54572d31 0a08 00")
    let view = try AdvertisingDataView(validating: bytes.span.bytes, baseOffset: 100, options: .lenient)
    let base = bytes.span.bytes.baseAddressForIdentity
    let address = view.localName()?.utf8.baseAddressForIdentity
    let count = view.localName()?.utf8.byteCount
    #expect(address == base + 5)
    #expect(count == 4)
  }

  /// Random AD bytes built from structures of the interesting types (and some broken
  /// lengths), strict and lenient: the noted offsets always agree with a full walk.
  @Test func accessorsAgreeWithAWalkOnRandomInput() throws {
    var generator = SeededGenerator(seed: testSeed("AdvertisingDataViewFields.random"))
    let types: [UInt8] = [0x01, 0x08, 0x09, 0x0A, 0x19, 0xFF, 0x03, 0x16]
    var checked = 0
    for _ in 0..<2000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...6, using: &generator) {
        let dataCount = Int.random(in: 0...3, using: &generator)
        if Int.random(in: 0..<10, using: &generator) == 0 {
          bytes.append(0)
          continue
        }
        bytes.append(UInt8(dataCount + 1))
        bytes.append(types.randomElement(using: &generator)!)
        for _ in 0..<dataCount { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
      }
      if Int.random(in: 0..<4, using: &generator) == 0, !bytes.isEmpty {
        bytes.removeLast(Int.random(in: 1...min(3, bytes.count), using: &generator))
      }
      for options in [BLEAdvertisingOptions.strict, .lenient] {
        guard let view = try? AdvertisingDataView(validating: bytes.span.bytes, options: options) else {
          continue
        }
        let got = Self.accessors(view)
        let expected = Self.walked(view)
        #expect(got == expected, "\(Hex.string(bytes))")
        checked += 1
      }
    }
    #expect(checked > 2000)
  }
}
