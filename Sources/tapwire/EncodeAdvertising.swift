// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import Foundation
import NFCWire

/// `tapwire encode adv`: Bluetooth LE advertising data (Core Supplement Part A) built with
/// the `BLEAdvertising` encoder, within the legacy 31-octet budget unless `--extended`.
extension EncodeCommand {
  static let advertisingUsage = """
    usage: tapwire encode adv [--flags HEX|none] [--name NAME] [--short-name NAME] [--tx-power DBM]
                              [--appearance N] [--uuid16 XXXX]... [--uuid128 UUID]...
                              [--service-data UUID:HEX]... [--manufacturer COMPANY:HEX]...
                              [--extended] [-o FILE]

    Builds advertising data, one AD structure per option, in this order: flags (default 06:
    LE General Discoverable, BR/EDR not supported), complete 16-bit and 128-bit service UUID
    lists, local name, TX power, appearance, service data, manufacturer data. COMPANY is a
    decimal company identifier or 0x-prefixed hex (0x004C is Apple); UUID is 4 or 8 hex
    digits or the 36-character form. The data must fit the legacy 31 bytes unless --extended
    (254 bytes, one extended advertising PDU).

    exit status: 0 encoded, 1 it does not fit the budget (the size named), 2 bad usage

    examples:
      tapwire encode adv --name Reader --uuid16 180F --tx-power -4
      tapwire encode adv --manufacturer 0x004C:0215 --service-data 180F:64 --extended
    """

  static func runAdvertising(_ arguments: [String]) -> Int32 {
    var flags: UInt8? = 0x06
    var name: (String, Bool)?
    var txPower: Int8?
    var appearance: UInt16?
    var uuids16: [BluetoothUUID] = []
    var uuids128: [BluetoothUUID] = []
    var serviceData: [ADValue] = []
    var manufacturerData: [ADValue] = []
    var extended = false
    var output: String?
    var rest = arguments[...]
    func next(_ what: String) -> String {
      guard let value = rest.popFirst() else { Tapwire.fail("\(what) is missing") }
      return value
    }
    /// Splits `KEY:HEX` at the last colon (128-bit UUIDs contain none, but stay safe).
    func pair(_ text: String, _ what: String) -> (String, [UInt8]) {
      guard let colon = text.lastIndex(of: ":"),
        let data = Input.hexBytes(String(text[text.index(after: colon)...]))
      else { Tapwire.fail("\(what) wants KEY:HEX (got '\(text)')") }
      return (String(text[..<colon]), data)
    }
    while let word = rest.popFirst() {
      switch word {
      case "-h", "--help":
        print(advertisingUsage)
        return 0
      case "-o": output = next("-o FILE")
      case "--extended": extended = true
      case "--flags":
        let value = next("--flags HEX")
        if value == "none" {
          flags = nil
        } else {
          guard let bytes = Input.hexBytes(value), bytes.count == 1 else {
            Tapwire.fail("--flags wants one hex byte (06) or 'none'")
          }
          flags = bytes[0]
        }
      case "--name", "--short-name": name = (next("\(word) NAME"), word == "--name")
      case "--tx-power":
        guard let value = Int8(next("--tx-power DBM")) else {
          Tapwire.fail("--tx-power wants -128...127 dBm")
        }
        txPower = value
      case "--appearance":
        guard let value = UInt16(next("--appearance N")) else { Tapwire.fail("--appearance wants 0...65535") }
        appearance = value
      case "--uuid16":
        let text = next("--uuid16 XXXX")
        guard text.count == 4, let uuid = BluetoothUUID(text) else {
          Tapwire.fail("--uuid16 wants four hex digits (got '\(text)')")
        }
        uuids16.append(uuid)
      case "--uuid128":
        let text = next("--uuid128 UUID")
        guard text.count == 36, let uuid = BluetoothUUID(text) else {
          Tapwire.fail("--uuid128 wants the 36-character UUID form (got '\(text)')")
        }
        uuids128.append(uuid)
      case "--service-data":
        let (key, data) = pair(next("--service-data UUID:HEX"), "--service-data")
        guard let uuid = BluetoothUUID(key) else { Tapwire.fail("'\(key)' is not a UUID") }
        serviceData.append(.serviceData(uuid, data))
      case "--manufacturer":
        let (key, data) = pair(next("--manufacturer COMPANY:HEX"), "--manufacturer")
        let company: UInt16? =
          key.lowercased().hasPrefix("0x") ? UInt16(key.dropFirst(2), radix: 16) : UInt16(key)
        guard let company else { Tapwire.fail("'\(key)' is not a company identifier (decimal or 0x hex)") }
        manufacturerData.append(.manufacturerData(CompanyIdentifier(rawValue: company), data))
      default:
        let known = [
          "--flags", "--name", "--short-name", "--tx-power", "--appearance", "--uuid16", "--uuid128",
          "--service-data", "--manufacturer", "--extended", "-o",
        ]
        let hint = Suggestion.closest(to: word, among: known).map { "; did you mean '\($0)'?" } ?? ""
        Tapwire.fail("unknown adv option '\(word)'\(hint)")
      }
    }
    var values: [ADValue] = []
    if let flags { values.append(.flags(ADFlags(rawValue: flags))) }
    if !uuids16.isEmpty { values.append(.serviceUUIDs(uuids16, complete: true)) }
    if !uuids128.isEmpty { values.append(.serviceUUIDs(uuids128, complete: true)) }
    if let name { values.append(.localName(name.0, complete: name.1)) }
    if let txPower { values.append(.txPowerLevel(txPower)) }
    if let appearance { values.append(.appearance(appearance)) }
    values += serviceData + manufacturerData
    let advertising = AdvertisingData(values: values)
    let budget: AdvertisingBudget = extended ? .extended : .legacy
    do throws(BLEAdvertisingError) {
      return emit(try advertising.encodedBytes(budget: budget), to: output)
    } catch {
      var message = "tapwire: encode adv: \(error.code.name) at offset \(error.offset): \(error.code.message)"
      if error.code == .exceedsBudget {
        let total = (try? advertising.encodedCount(budget: .chained)).map { "\($0) bytes" } ?? "too long"
        message +=
          " (\(total); the \(extended ? "extended" : "legacy") budget is \(budget.maximumSize) bytes"
          + (extended ? ")" : "; use --extended)")
      }
      FileHandle.standardError.write(Data((message + "\n").utf8))
      return 1
    }
  }
}
