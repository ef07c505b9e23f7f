// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@Suite("tapwire decode (ndef)")
struct DecodeNDEFCommandTests {
  @Test func humanOutputForHexArgument() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "d1 01 08 55 01 6e 66 63 2e 63 6f 6d"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("NFC Forum NDEF message (ndef), 12 bytes, 1 record\n"))
    #expect(
      result.stdout.contains("0000  d1                           TNF: 1 = wellKnown (NFC Forum RTD type)"))
    #expect(result.stdout.contains("0003  55                         type: \"U\" = URI record"))
    #expect(result.stdout.contains("0004  01 6e 66 63 2e 63 6f 6d    payload: 8 bytes"))
  }

  @Test func guessIsStated() throws {
    let result = try CLI.run(["decode", "0xd0:0x00:0x00"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("decoded as ndef (guessed"))
  }

  /// Every seed decodes to JSON whose payloads match the bytes of the file.
  @Test func jsonForEverySeed() throws {
    let folder = CLI.root.appendingPathComponent("Corpus/ndef/seeds")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".ndef")
    }
    #expect(files.count >= 10)
    for file in files {
      let result = try CLI.run(["decode", "--as", "ndef", "--json", "Corpus/ndef/seeds/\(file)"])
      #expect(result.status == 0, "\(file)")
      let object = try CLI.object(result.stdout)
      #expect(object["ok"] as? Bool == true)
      #expect(object["format"] as? String == "ndef")
      #expect((object["warnings"] as? [Any])?.isEmpty == true)
      let records = try #require(object["records"] as? [[String: Any]])
      #expect(!records.isEmpty)
      let data = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
      for record in records {
        let offset = try #require(record["offset"] as? Int)
        #expect(offset < data.count)
        #expect(record["tnfName"] is String)
        #expect(record["chunks"] as? Int ?? 0 >= 1)
        let payload = try #require(record["payload"] as? String)
        #expect(payload.count % 2 == 0)
      }
    }
  }

  @Test func jsonRecordFields() throws {
    let result = try CLI.run(["decode", "--json", "Corpus/ndef/seeds/chunked-with-id-then-wellknown.ndef"])
    #expect(
      result.stdout == """
        {"ok":true,"format":"ndef","records":[{"offset":0,"tnf":5,"tnfName":"unknown","type":"","id":"6964","payload":"4142","chunks":2},{"offset":11,"tnf":1,"tnfName":"wellKnown","type":"58","typeText":"X","id":"","payload":"","chunks":1}],"warnings":[]}

        """)
  }

  @Test func failureHasCodeOffsetAndCaret() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "d1010955016e66632e636f6d"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("payloadLengthExceedsInput at offset 2"))
    #expect(result.stderr.contains("              ^^ offset 2"))
    let json = try CLI.run(["decode", "--as", "ndef", "--json", "d1010955016e66632e636f6d"])
    #expect(json.status == 1)
    let object = try CLI.object(json.stdout)
    #expect(object["ok"] as? Bool == false)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == "payloadLengthExceedsInput")
    #expect(error["offset"] as? Int == 2)
  }

  @Test func lenientListsWarnings() throws {
    let strict = try CLI.run(["decode", "--as", "ndef", "--json", "51010058"])
    #expect(strict.status == 1)
    let result = try CLI.run(["decode", "--as", "ndef", "--json", "--lenient", "51010058"])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(warnings.count == 1)
    #expect(warnings.first?["code"] as? String == "missingMessageBegin")
    #expect(warnings.first?["offset"] as? Int == 0)
  }

  @Test func linesGiveOneObjectPerLineInOrder() throws {
    let result = try CLI.run(["decode", "--lines", "--json"], stdin: "d00000\nd1\n\nd1010058\n")
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    let objects = try lines.map { try CLI.object($0) }
    #expect(objects.map { $0["ok"] as? Bool } == [true, false, false, true])
    #expect((objects[2]["error"] as? [String: Any])?["code"] as? String == "emptyInput")
  }

  @Test func linesScaleToManyMessages() throws {
    let input = String(repeating: "d1010855016e66632e636f6d\n", count: 20_000)
    let result = try CLI.run(["decode", "--lines", "--json"], stdin: input)
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").count == 20_000)
  }

  @Test func binaryStandardInput() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", "-"], stdin: "\u{50}\u{00}\u{00}")
    // 0x50 = ME|SR without MB: strict rejects it.
    #expect(result.status == 1)
    #expect(result.stdout.contains("\"missingMessageBegin\""))
  }

  @Test func usageErrorsExitTwo() throws {
    let unknownOption = try CLI.run(["decode", "--jsno", "d00000"])
    #expect(unknownOption.status == 2)
    #expect(unknownOption.stderr.contains("did you mean '--json'?"))
    let unknownCommand = try CLI.run(["decod"])
    #expect(unknownCommand.status == 2)
    #expect(unknownCommand.stderr.contains("did you mean 'decode'?"))
    let badInput = try CLI.run(["decode", "not-hex-nor-file"])
    #expect(badInput.status == 2)
    let help = try CLI.run(["decode", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("examples:"))
  }
}
