// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NDEF
import NFCTags

/// Stores `message` in a Type 2 tag image, tearing-safe, and returns the new image (article
/// "Building and writing a Smart Poster"; a reader sends `plan.writes` page by page).
func storeInType2Image(_ message: NDEFMessage, image: [UInt8]) throws(NFCTagError) -> [UInt8] {
  let plan = try Type2Tag.writePlan(message, into: image)
  var memory = image
  for write in plan.writes {
    // One WRITE (0xA2) of 4 bytes at page `write.block`; here, into the local copy.
    memory.replaceSubrange(write.offset..<(write.offset + write.bytes.count), with: write.bytes)
  }
  return memory
}

func checkNFCTags() {
  group("NFCTags: a Smart Poster written to a blank NTAG213 image and read back") {
    let blank = Type2Tag.formattedImage(.ntag213)
    let blankTag = try Type2TagView(validating: blank.span.bytes)
    check(!blankTag.isReadOnly, "blank tag is writable")
    check(try blankTag.tlvArea.message() == nil, "blank tag has an empty NDEF TLV")
    let poster = try menuPoster()
    let written = try storeInType2Image(poster, image: blank)
    let plan = try Type2Tag.writePlan(poster, into: blank)
    expectEqual(written, plan.finalImage, "writes give the final image")
    let tag = try Type2TagView(validating: written.span.bytes)
    expectEqual(try tag.tlvArea.message(), poster, "message read back")
    let encoded = try poster.encodedBytes()
    let tooBig = NDEFMessage(records: [
      NDEFRecord(typeNameFormat: .media, type: Array("a/b".utf8), payload: .init(repeating: 0, count: 200))
    ])
    do throws(NFCTagError) {
      _ = try Type2Tag.writePlan(tooBig, into: blank)
      check(false, "a 200-byte payload must not fit an NTAG213")
    } catch {
      expectEqual(error.code, .messageTooLarge, "too large")
    }
    check(encoded.count < tag.maximumNDEFSize, "poster fits")
  }
}

func checkType4Procedure() async {
  await group("NFCTags: Type 4 NDEF read procedure over APDUExchanger") {
    let message: [UInt8] = [0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x69]
    var exchanger = APDUExchanger(transport: SimulatedCard(tag: Type4TagSimulator(message: message)))
    var procedure = Type4NDEFProcedure(operation: .read)
    try await procedure.run(over: &exchanger)
    check(procedure.isFinished, "procedure finished")
    expectEqual(procedure.message, message, "message read")
  }
}
