// SPDX-License-Identifier: Apache-2.0
import NFCWire
import Testing

@Suite("ByteReader")
struct ByteReaderTests {
  @Test func readsIntegersInBothByteOrders() {
    let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09]
    var reader = ByteReader(bytes.span.bytes, baseOffset: 10)
    let a = reader.readUInt8()
    let offsetAfterByte = reader.offset
    let b = reader.readUInt16BE()
    let c = reader.readUInt16LE()
    let d = reader.readBigEndian(UInt32.self, width: 3)
    let remaining = reader.remaining
    let tooShort = reader.readUInt16BE()
    let offsetAfterFailure = reader.offset
    let last = reader.readUInt8()
    let atEnd = reader.isAtEnd
    let pastEnd = reader.readUInt8()
    #expect(a == 0x01)
    #expect(offsetAfterByte == 11)
    #expect(b == 0x0203)
    #expect(c == 0x0504)
    #expect(d == 0x06_0708)
    #expect(remaining == 1)
    #expect(tooShort == nil)
    #expect(offsetAfterFailure == 18)
    #expect(last == 0x09)
    #expect(atEnd)
    #expect(pastEnd == nil)
  }

  @Test func littleEndian32AndWidthLimits() {
    let bytes: [UInt8] = [0x78, 0x56, 0x34, 0x12]
    var reader = ByteReader(bytes.span.bytes)
    let wide = reader.readBigEndian(UInt16.self, width: 3)
    let zero = reader.readBigEndian(UInt16.self, width: 0)
    let value = reader.readUInt32LE()
    #expect(wide == nil)
    #expect(zero == nil)
    #expect(value == 0x1234_5678)
  }

  @Test func spansAndSubReadersKeepAbsoluteOffsets() {
    let bytes: [UInt8] = Array(0..<10)
    var reader = ByteReader(bytes.span.bytes, baseOffset: 100)
    let skipped = reader.skip(2)
    guard var inner = reader.readReader(count: 4) else {
      Issue.record("sub-reader")
      return
    }
    let innerStart = inner.offset
    let innerByte = inner.readUInt8()
    let innerRemaining = inner.remaining
    let innerOverSkip = inner.skip(4)
    let innerOffset = inner.offset
    let outerOffset = reader.offset
    let rest = reader.remainingSpan()
    let restCount = rest.byteCount
    let restFirst = rest.byte(at: 0)
    let tooLong = reader.readSpan(count: 5)?.byteCount
    let offsetAfterRefusal = reader.offset
    let negative = reader.readSpan(count: -1)?.byteCount
    let peek3 = reader.peekUInt8(at: 3)
    let peek4 = reader.peekUInt8(at: 4)
    let moved = reader.move(to: 0)
    let movedOffset = reader.offset
    let badMove = reader.move(to: 11)
    let allCount = reader.readRemaining().byteCount
    let atEnd = reader.isAtEnd
    #expect(skipped)
    #expect(innerStart == 102)
    #expect(innerByte == 2)
    #expect(innerRemaining == 3)
    #expect(innerOverSkip == false)
    #expect(innerOffset == 103)
    #expect(outerOffset == 106)
    #expect(restCount == 4)
    #expect(restFirst == 6)
    #expect(tooLong == nil)
    #expect(offsetAfterRefusal == 106)
    #expect(negative == nil)
    #expect(peek3 == 9)
    #expect(peek4 == nil)
    #expect(moved)
    #expect(movedOffset == 100)
    #expect(!badMove)
    #expect(allCount == 10)
    #expect(atEnd)
  }

  @Test func spanHelpers() {
    let bytes: [UInt8] = [0x48, 0x69, 0x00]
    let span = bytes.span.bytes
    let results = [
      span.byte(at: 2) == 0, span.byte(at: 3) == nil, span.byte(at: -1) == nil,
      span.copiedBytes() == bytes, span.elementsEqual([0x48, 0x69, 0x00]),
      !span.elementsEqual([0x48, 0x69]), span.starts(with: ([0x48] as [UInt8]).span.bytes),
      !span.isPrintableASCII, span.extracting(0..<2).isPrintableASCII,
    ]
    #expect(results == Array(repeating: true, count: 9))
  }

  @Test func hexAndCheckedArithmetic() {
    #expect(Hex.string([0x00, 0xAB, 0x7F]) == "00ab7f")
    #expect(Hex.bytes("00aB7f") == [0x00, 0xAB, 0x7F])
    #expect(Hex.bytes("abc") == nil)
    #expect(Hex.bytes("zz") == nil)
    #expect(Checked.add(Int.max, 1) == nil)
    #expect(Checked.add(2, 3) == 5)
    #expect(Checked.multiply(Int.max, 2) == nil)
    #expect(Checked.multiply(6, 7) == 42)
  }
}

@Suite("OutputSpan writing")
struct ByteWriterTests {
  @Test func appendsIntegersAndBytes() throws {
    let bytes = encodeToArray(count: 12) { (output: inout OutputSpan<UInt8>) in
      output.appendByte(0xAA)
      output.appendBigEndian(UInt16(0x0102))
      output.appendLittleEndian(UInt16(0x0102))
      output.appendBigEndian(UInt32(0x0A0B0C), width: 3)
      output.appendBytes([0x10, 0x11])
      output.appendRepeating(0xFF, count: 2)
      // Full: further appends are refused, not trapped.
      let refused = [output.appendByte(0), output.appendBytes([1]), output.appendBigEndian(UInt16(1))]
      #expect(refused == [false, false, false])
    }
    #expect(bytes == [0xAA, 0x01, 0x02, 0x02, 0x01, 0x0A, 0x0B, 0x0C, 0x10, 0x11, 0xFF, 0xFF])
  }

  @Test func writesIntoACallerBuffer() {
    var storage = [UInt8](repeating: 0, count: 4)
    let written = storage.withUnsafeMutableBytes { buffer in
      encodeIntoBuffer(buffer) { (output: inout OutputSpan<UInt8>) in
        output.appendBytes([9, 8, 7])
      }
    }
    #expect(written == 3)
    #expect(storage == [9, 8, 7, 0])
  }
}
