// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NDEF
import NFCTags
import Testing

/// The examples of the NFCTags documentation catalog, compiled and run.
@Suite("Documentation examples")
struct DocumentationExampleTests {
  @Test func overviewExample() throws {
    var image = Type2Tag.formattedImage(.ntag213)
    try Type2Tag.writePlan(uriMessage("nfc.example"), into: image).apply(to: &image)

    let tag = try Type2TagView(validating: image.span.bytes)
    var seen: [String] = []
    var tlvs = tag.tlvArea.tlvs
    while let tlv = tlvs.next() { seen.append("\(tlv.type.name) \(tlv.offset) \(tlv.length)") }
    let message = try tag.tlvArea.message()
    #expect(tag.capabilityContainer.dataAreaSize == 144)
    #expect(tag.maximumNDEFSize == 137)
    #expect(tag.isReadOnly == false)
    #expect(seen == ["lockControl 16 3", "ndef 21 16", "terminator 39 0"])
    #expect(message?.records.first?.type == [0x55])
  }

  @Test func procedureExample() throws {
    var transport = Type4TagSimulator(message: uriMessage("nfc.example"))
    var procedure = Type4NDEFProcedure(operation: .read)
    var command: CommandAPDU? = procedure.start()
    while let next = command {
      command = try procedure.receive(transport.respond(to: next))
    }
    #expect(procedure.message == uriMessage("nfc.example"))
  }
}
