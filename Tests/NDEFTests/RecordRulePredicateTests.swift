// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import NDEF

/// The validator's branch-free fast predicate must agree with the list of broken rules it
/// stands in for, on every header octet, position and field-length class.
@Suite struct RecordRulePredicateTests {
  @Test func predicateAgreesWithViolationsOnEveryHeader() {
    var clean = 0
    var checked = 0
    for h in 0...255 {
      for first in [false, true] {
        for continuation in [false, true] {
          for typeLength in [0, 1, 255] {
            for idLength in [0, 1] {
              for payloadLength in [0, 1, 70_000] {
                let record = NDEFPhysicalRecord(
                  header: NDEFRecordHeader(rawValue: UInt8(h)), start: 0, typeStart: 0,
                  typeLength: typeLength,
                  idStart: 0, idLength: idLength, payloadStart: 0, payloadLength: payloadLength)
                let fast = NDEFMessageView.isClean(
                  header: UInt8(h), typeLength: typeLength, idLength: idLength, payloadLength: payloadLength,
                  first: first, continuation: continuation)
                let broken = NDEFMessageView.violations(record, first: first, continuation: continuation)
                #expect(fast == broken.isEmpty, "header \(h) first \(first) continuation \(continuation)")
                if fast { clean += 1 }
                checked += 1
              }
            }
          }
        }
      }
    }
    #expect(checked == 256 * 4 * 3 * 2 * 3)
    // Clean and broken cases both occur (the loop is not vacuous).
    #expect(clean > 0 && clean < checked)
  }

  @Test func knownHeaders() {
    // 0xD1: MB ME SR, TNF 1 with a type: the one-record URI message.
    #expect(
      NDEFMessageView.isClean(
        header: 0xD1, typeLength: 1, idLength: 0, payloadLength: 5, first: true, continuation: false))
    // Same record without a type: missing type.
    #expect(
      !NDEFMessageView.isClean(
        header: 0xD1, typeLength: 0, idLength: 0, payloadLength: 5, first: true, continuation: false))
    // 0xD0: MB ME SR, TNF 0 Empty with nothing in it.
    #expect(
      NDEFMessageView.isClean(
        header: 0xD0, typeLength: 0, idLength: 0, payloadLength: 0, first: true, continuation: false))
    // 0x56: ME SR, TNF 6: a terminating chunk.
    #expect(
      NDEFMessageView.isClean(
        header: 0x56, typeLength: 0, idLength: 0, payloadLength: 9, first: false, continuation: true))
    // A terminating chunk with MB set.
    #expect(
      !NDEFMessageView.isClean(
        header: 0xD6, typeLength: 0, idLength: 0, payloadLength: 9, first: false, continuation: true))
  }
}
