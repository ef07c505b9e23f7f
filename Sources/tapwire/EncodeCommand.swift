// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import Foundation
import ISO7816
import NDEF
import NFCTags
import NFCWire

/// `tapwire encode`: builds NDEF messages (one record after another) or command APDUs.
enum EncodeCommand {
  static let usage = """
    usage: tapwire encode [-o FILE] [--chunk N] [--image t2t:VARIANT] RECORD...
           tapwire encode capdu CLA INS P1 P2 [DATA] [--le N] [--extended]
           tapwire encode adv [--name NAME] [--uuid16 XXXX]... [--manufacturer COMPANY:HEX]... [--extended]
             (Bluetooth LE advertising data; 'tapwire encode adv --help' lists every option)

    Records, in message order:
      uri URI                         NFC Forum URI record (the longest prefix is abbreviated)
      text [--lang LANG] TEXT         NFC Forum Text record (UTF-8; --lang defaults to en)
      smartposter URI [--title LANG:TEXT]... [--action do|save|open]
      mime TYPE FILE                  a media-type record with FILE's bytes
      external DOMAIN:TYPE DATA       an external-type record (DATA as hex, or text)
      aar PACKAGE                     an Android Application Record
      wifi SSID KEY [AUTH]            a Wi-Fi configuration token (AUTH: wpa2 (default), open)
      bluetooth ADDRESS [NAME]        a Bluetooth BR/EDR OOB record (AA:BB:CC:DD:EE:FF)

    Output: hex on standard output, or the bytes to FILE with -o. With --image t2t:VARIANT
    (ntag213, ntag215, ntag216, ultralight, ...) the output is a formatted Type 2 tag memory
    image holding the message, ready to write page by page.

    exit status: 0 encoded, 1 it cannot be encoded (the reason on standard error: too long
      for the image, an APDU over its limits), 2 bad usage

    examples:
      tapwire encode uri https://example.com text --lang en "Hello"
      tapwire encode -o poster.ndef smartposter https://example.com --title en:Example --action do
      tapwire encode capdu 00 A4 04 00 A000000151000000 --le 256
      tapwire encode adv --name Reader --uuid16 180F --tx-power -4
    """

  static func run(_ arguments: [String]) -> Int32 {
    if arguments.first == "capdu" { return runCommandAPDU(Array(arguments.dropFirst())) }
    if arguments.first == "adv" { return runAdvertising(Array(arguments.dropFirst())) }
    var output: String?
    var chunk: Int?
    var image: Type2TagVariant?
    var records: [NDEFRecord] = []
    var rest = arguments[...]
    func next(_ what: String) -> String {
      guard let value = rest.popFirst() else { Tapwire.fail("\(what) is missing") }
      return value
    }
    do {
      while let word = rest.popFirst() {
        switch word {
        case "-h", "--help":
          print(usage)
          return 0
        case "-o": output = next("-o FILE")
        case "--image":
          let spec = next("--image t2t:VARIANT")
          let names = Type2TagVariant.all.map { "t2t:" + imageKey($0) }
          guard let variant = Type2TagVariant.all.first(where: { "t2t:" + imageKey($0) == spec.lowercased() })
          else {
            let hint = Suggestion.closest(to: spec, among: names).map { "; did you mean '\($0)'?" } ?? ""
            Tapwire.fail("unknown image '\(spec)' (known: \(names.joined(separator: ", ")))\(hint)")
          }
          image = variant
        case "--chunk":
          guard let size = Int(next("--chunk N")), size > 0 else {
            Tapwire.fail("--chunk needs a positive size")
          }
          chunk = size
        case "uri": records.append(URIRecord(next("uri URI")).record())
        case "text":
          var language = "en"
          if rest.first == "--lang" {
            rest.removeFirst()
            language = next("--lang LANG")
          }
          records.append(try TextRecord(language: language, text: next("text TEXT")).record())
        case "smartposter":
          var poster = SmartPoster(uri: next("smartposter URI"))
          while let option = rest.first, option.hasPrefix("--") {
            rest.removeFirst()
            switch option {
            case "--title":
              let title = next("--title LANG:TEXT")
              guard let colon = title.firstIndex(of: ":") else { Tapwire.fail("--title wants LANG:TEXT") }
              poster.titles.append(
                TextRecord(
                  language: String(title[..<colon]), text: String(title[title.index(after: colon)...])))
            case "--action":
              switch next("--action do|save|open") {
              case "do": poster.action = .doAction
              case "save": poster.action = .saveForLater
              case "open": poster.action = .openForEditing
              case let other: Tapwire.fail("unknown action '\(other)' (do, save, open)")
              }
            default:
              let hint = Suggestion.closest(to: option, among: ["--title", "--action"]).map {
                "; did you mean '\($0)'?"
              }
              Tapwire.fail("unknown smartposter option '\(option)'\(hint ?? "")")
            }
          }
          records.append(try poster.record())
        case "mime":
          let type = next("mime TYPE")
          let file = next("mime FILE")
          guard RecordTypeName.firstInvalidMediaType(Array(type.utf8).span.bytes) == nil else {
            Tapwire.fail("'\(type)' is not a media type (type/subtype)")
          }
          guard let data = FileManager.default.contents(atPath: file) else {
            Tapwire.fail("cannot read \(file)")
          }
          records.append(NDEFRecord(typeNameFormat: .media, type: Array(type.utf8), payload: [UInt8](data)))
        case "external":
          let type = next("external DOMAIN:TYPE")
          let data = next("external DATA")
          guard RecordTypeName.firstInvalidExternal(Array(type.utf8).span.bytes) == nil else {
            Tapwire.fail("'\(type)' is not an external type (domain:type)")
          }
          records.append(
            NDEFRecord(
              typeNameFormat: .external, type: Array(type.lowercased().utf8),
              payload: Input.hexBytes(data) ?? Array(data.utf8)))
        case "aar": records.append(AndroidApplicationRecordView.record(package: next("aar PACKAGE")))
        case "wifi":
          let ssid = next("wifi SSID")
          let key = next("wifi KEY")
          var open = false
          if let auth = rest.first, ["wpa2", "open"].contains(auth) {
            rest.removeFirst()
            open = auth == "open"
          }
          let credential = WiFiCredential(
            ssid: Array(ssid.utf8), authentication: open ? .open : .wpa2Personal,
            encryption: open ? .none : .aes,
            networkKey: open ? [] : Array(key.utf8))
          records.append(WiFiSimpleConfig(credentials: [credential]).record())
        case "bluetooth":
          guard let address = BluetoothAddress(next("bluetooth ADDRESS")) else {
            Tapwire.fail("the Bluetooth address must look like AA:BB:CC:DD:EE:FF")
          }
          var advertising = AdvertisingData()
          if let name = rest.first, !isRecordKeyword(name) {
            rest.removeFirst()
            advertising = AdvertisingData(values: [.localName(name, complete: true)])
          }
          records.append(try BluetoothOOB(address: address, advertising: advertising).record())
        default:
          let known = [
            "uri", "text", "smartposter", "mime", "external", "aar", "wifi", "bluetooth", "capdu", "adv",
            "-o",
          ]
          if word.hasPrefix("-") {
            let options = ["-o", "--chunk", "--image", "--help"]
            let hint = Suggestion.closest(to: word, among: options).map { "; did you mean '\($0)'?" } ?? ""
            Tapwire.fail("unknown option '\(word)'\(hint)")
          }
          let hint = Suggestion.closest(to: word, among: known).map { "; did you mean '\($0)'?" } ?? ""
          Tapwire.fail("unknown record kind '\(word)'\(hint)")
        }
      }
      guard !records.isEmpty else {
        Tapwire.fail("encode needs at least one record")
      }
      let bytes = try NDEFMessage(records: records).encodedBytes(
        options: NDEFEncodingOptions(maximumChunkPayloadSize: chunk))
      if let image {
        do throws(NFCTagError) {
          let plan = try Type2Tag.writePlan(bytes, into: Type2Tag.formattedImage(image))
          return emit(plan.finalImage, to: output)
        } catch {
          FileHandle.standardError.write(Data("tapwire: encode: \(error)\n".utf8))
          return 1
        }
      }
      return emit(bytes, to: output)
    } catch {
      FileHandle.standardError.write(Data("tapwire: encode: \(error)\n".utf8))
      return 1
    }
  }

  /// The command-line name of a Type 2 variant: `ntag215`, `ultralight`, `ultralightc`, ...
  static func imageKey(_ variant: Type2TagVariant) -> String {
    variant.name.lowercased().replacingOccurrences(of: "mifare ", with: "").replacingOccurrences(
      of: " ", with: "")
  }

  static func isRecordKeyword(_ word: String) -> Bool {
    [
      "uri", "text", "smartposter", "mime", "external", "aar", "wifi", "bluetooth", "-o", "--chunk",
      "--image",
    ].contains(
      word)
  }

  static func emit(_ bytes: [UInt8], to output: String?) -> Int32 {
    if let output {
      guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
        Tapwire.fail("cannot write \(output)")
      }
      return 0
    }
    print(Hex.string(bytes))
    return 0
  }

  static func runCommandAPDU(_ arguments: [String]) -> Int32 {
    var words: [String] = []
    var ne: Int?
    var extended = false
    var output: String?
    var rest = arguments[...]
    while let word = rest.popFirst() {
      switch word {
      case "--le":
        guard let value = rest.popFirst().flatMap({ Int($0) }) else { Tapwire.fail("--le needs a number") }
        ne = value
      case "--extended": extended = true
      case "-o": output = rest.popFirst()
      case "-h", "--help":
        print(usage)
        return 0
      default:
        if word.hasPrefix("--") {
          let hint = Suggestion.closest(to: word, among: ["--le", "--extended"]).map {
            "; did you mean '\($0)'?"
          }
          Tapwire.fail("unknown capdu option '\(word)'\(hint ?? "")")
        }
        words.append(word)
      }
    }
    guard words.count == 4 || words.count == 5,
      let header = Input.hexBytes(words[0..<4].joined()), header.count == 4
    else { Tapwire.fail("encode capdu needs CLA INS P1 P2 as hex bytes, then optional DATA") }
    guard let data = words.count == 5 ? Input.hexBytes(words[4]) : [] else {
      Tapwire.fail("DATA must be hex")
    }
    do {
      let command = CommandAPDU(
        cla: CommandClass(rawValue: header[0]), ins: Instruction(rawValue: header[1]), p1: header[2],
        p2: header[3],
        data: data, ne: ne)
      return emit(try command.encodedBytes(lengthEncoding: extended ? .extended : .shortest), to: output)
    } catch {
      FileHandle.standardError.write(Data("tapwire: encode capdu: \(error)\n".utf8))
      return 1
    }
  }
}
