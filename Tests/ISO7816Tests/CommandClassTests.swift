// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ISO7816

@Suite("CommandClass")
struct CommandClassTests {
  @Test(
    "CLA decoding (ISO/IEC 7816-4 §5.4.1)",
    arguments: [
      (0x00, "firstInterindustry", false, "none", 0),
      (0x03, "firstInterindustry", false, "none", 3),
      (0x10, "firstInterindustry", true, "none", 0),
      (0x04, "firstInterindustry", false, "proprietary", 0),
      (0x08, "firstInterindustry", false, "headerNotAuthenticated", 0),
      (0x0C, "firstInterindustry", false, "headerAuthenticated", 0),
      (0x1D, "firstInterindustry", true, "headerAuthenticated", 1),
      (0x40, "furtherInterindustry", false, "none", 4),
      (0x4F, "furtherInterindustry", false, "none", 19),
      (0x60, "furtherInterindustry", false, "headerNotAuthenticated", 4),
      (0x71, "furtherInterindustry", true, "headerNotAuthenticated", 5),
      (0x80, "proprietary", false, "none", 0),
      (0x84, "proprietary", false, "headerAuthenticated", 0),
      (0x83, "proprietary", false, "none", 3),
      (0x90, "proprietary", true, "none", 0),
      (0xC1, "proprietary", false, "none", 5),
    ] as [(UInt8, String, Bool, String, Int)])
  func decoding(raw: UInt8, kind: String, chaining: Bool, sm: String, channel: Int) {
    let cla = CommandClass(rawValue: raw)
    #expect(cla.kind.name == kind)
    #expect(cla.isChaining == chaining)
    #expect(cla.secureMessaging.name == sm)
    #expect(cla.logicalChannel == channel)
  }

  @Test("reserved and invalid classes have no channel")
  func reservedAndInvalid() {
    #expect(CommandClass(rawValue: 0x20).kind == .reserved)
    #expect(CommandClass(rawValue: 0x20).logicalChannel == nil)
    #expect(CommandClass(rawValue: 0xFF).kind == .invalid)
    #expect(CommandClass(rawValue: 0xFF).logicalChannel == nil)
    #expect(CommandClass(rawValue: 0xA0).logicalChannel == nil)
    #expect(CommandClass(rawValue: 0xFF).interindustryForChannel == nil)
  }

  @Test("building interindustry classes for every channel round-trips")
  func building() throws {
    for channel in 0...19 {
      let cla = try CommandClass.interindustry(channel: channel, chaining: true)
      #expect(cla.logicalChannel == channel)
      #expect(cla.isChaining)
      #expect(cla.isInterindustry)
      #expect(cla.withChaining(false).isChaining == false)
    }
    #expect(
      try CommandClass.interindustry(channel: 5, secureMessaging: .headerNotAuthenticated).rawValue == 0x61)
    #expect(throws: APDUError(.invalidClass, offset: 0)) {
      try CommandClass.interindustry(channel: 20)
    }
    #expect(throws: APDUError(.invalidClass, offset: 0)) {
      try CommandClass.interindustry(channel: 4, secureMessaging: .headerAuthenticated)
    }
  }

  @Test("GET RESPONSE class: interindustry class of the command's channel")
  func channelClass() {
    #expect(CommandClass(rawValue: 0x80).interindustryForChannel?.rawValue == 0x00)
    #expect(CommandClass(rawValue: 0x84).interindustryForChannel?.rawValue == 0x00)
    #expect(CommandClass(rawValue: 0x81).interindustryForChannel?.rawValue == 0x01)
    #expect(CommandClass(rawValue: 0x1E).interindustryForChannel?.rawValue == 0x02)
    #expect(CommandClass(rawValue: 0xC3).interindustryForChannel?.rawValue == 0x43)
    #expect(CommandClass(rawValue: 0x7F).interindustryForChannel?.rawValue == 0x4F)
  }

  @Test("command names depend on the class")
  func names() {
    #expect(Instruction.select.commandName(class: .interindustry) == "SELECT")
    #expect(Instruction(rawValue: 0xE6).commandName(class: .interindustry) == "TERMINATE DF")
    #expect(Instruction(rawValue: 0xE6).commandName(class: .globalPlatform) == "INSTALL")
    #expect(Instruction(rawValue: 0x01).commandName(class: .interindustry) == nil)
    #expect(Instruction.select.commandName(class: CommandClass(rawValue: 0x20)) == nil)
  }
}
