// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import BlueZ
import Foundation
import Testing

let bleakRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
/// The venv interpreter with bleak, when `.ci/install-packages` made it.
let bleakPython: String? = {
  let path = bleakRoot.appendingPathComponent(".build/venv/bin/python").path
  return FileManager.default.isExecutableFile(atPath: path) ? path : nil
}()

/// bleak (PyPI; `.ci/install-packages` installs it into `.build/venv`) and the Swift scanner
/// read the same mock devices at the same time and must agree on addresses, names, RSSI,
/// manufacturer and service data.
@Suite(.serialized, .enabled(if: bleakPython != nil || BlueZStack.isRequired))
struct BleakCrossCheckTests {
  static var python: String? { bleakPython }

  struct Seen: Hashable, CustomStringConvertible {
    var address: String
    var name: String?
    var rssi: Int?
    var manufacturerData: [String: String]
    var serviceData: [String: String]
    var description: String { "\(address) \(name ?? "-") \(rssi ?? 0) \(manufacturerData) \(serviceData)" }
  }

  static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  @Test func bleakAgreesWithTheScanner() async throws {
    let python = try #require(Self.python, "no .build/venv with bleak (.ci/install-packages makes it)")
    let stack = try BlueZStack()
    defer { stack.stop() }
    try stack.send("adapter hci0")
    let bleak = Process()
    bleak.executableURL = URL(fileURLWithPath: python)
    bleak.arguments = [
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("bleak_scan.py")
        .path, "4",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = stack.address
    bleak.environment = environment
    let output = Pipe()
    bleak.standardOutput = output
    bleak.standardError = FileHandle.nullDevice
    try bleak.run()
    defer { if bleak.isRunning { kill(bleak.processIdentifier, SIGKILL) } }
    let devices = [
      ("C0:00:00:00:00:21", "TW-0021", -47, "TW000021", "3c"),
      ("C0:00:00:00:00:22", "TW-0022", -71, "TW000022", "0a"),
    ]
    let feeder = Task {
      try await Task.sleep(for: .milliseconds(1500))
      for (address, name, rssi, serial, battery) in devices {
        try stack.send("device hci0 \(address) \(name)")
        try stack.send(
          #"set hci0 \#(address) {"RSSI": \#(rssi), "ManufacturerData": {"0xffff": "\#(makerHex(serial: serial))"}, "ServiceData": {"\#(batteryService)": "\#(battery)"}}"#
        )
      }
    }
    let updates = try await collect(BlueZScanner(busAddress: stack.address), seconds: 6) { seen in
      Set(
        seen.filter { $0.report.advertising.serviceData(for: BluetoothUUID(uuid16: 0x180F)) != nil }.map(
          \.report.address)
      )
      .count == 2
    }
    try await feeder.value
    let data = output.fileHandleForReading.readDataToEndOfFile()
    bleak.waitUntilExit()
    var fromBleak: Set<Seen> = []
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        continue
      }
      fromBleak.insert(
        Seen(
          address: object["address"] as? String ?? "", name: object["name"] as? String,
          rssi: object["rssi"] as? Int,
          manufacturerData: object["manufacturerData"] as? [String: String] ?? [:],
          serviceData: object["serviceData"] as? [String: String] ?? [:]))
    }
    var latest: [BluetoothAddress: AdvertisingReport] = [:]
    for update in updates { latest[update.report.address] = update.report }
    let fromSwift = Set(
      latest.values.map { report in
        let adv = report.advertising
        var makers: [String: String] = [:]
        var services: [String: String] = [:]
        for case .manufacturerData(let company, let bytes) in adv.structures.compactMap({ try? $0.value() }) {
          makers[String(company.rawValue)] = Self.hex(bytes)
        }
        for case .serviceData(let uuid, let bytes) in adv.structures.compactMap({ try? $0.value() }) {
          services[uuid.description] = Self.hex(bytes)
        }
        return Seen(
          address: report.address.description, name: adv.localName, rssi: report.rssi.map(Int.init),
          manufacturerData: makers, serviceData: services)
      })
    #expect(fromBleak.count == 2)
    #expect(fromBleak == fromSwift)
  }
}
