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
///
/// Run on its own (`TAPWIRE_BLEAK=1 swift test --filter BleakCrossCheck`, a step of `.ci/run`):
/// with many suites in parallel on a busy machine bleak's scan has come back empty (its
/// callbacks lag behind the mock's signals), so the full parallel run leaves it out.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["TAPWIRE_BLEAK"] == "1"))
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
    #expect(BlueZStack.isAvailable, "\(BlueZStack.unavailableReason ?? "")")
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
    let input = Pipe()
    bleak.standardOutput = output
    bleak.standardInput = input
    let errors = Pipe()
    bleak.standardError = errors
    try bleak.run()
    defer { if bleak.isRunning { kill(bleak.processIdentifier, SIGKILL) } }
    let devices = [
      ("C0:00:00:00:00:21", "TW-0021", -47, "TW000021", "3c"),
      ("C0:00:00:00:00:22", "TW-0022", -71, "TW000022", "0a"),
    ]
    // Wait until bleak's discovery runs (Python starts slowly on a busy machine).
    var first = Data()
    while !String(decoding: first, as: UTF8.self).contains("scanning\n") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      first += chunk
    }
    let feeder = Task {
      try await Task.sleep(for: .milliseconds(300))
      for (address, name, rssi, serial, battery) in devices {
        try stack.send("device hci0 \(address) \(name)")
        try stack.send(
          #"set hci0 \#(address) {"RSSI": \#(rssi), "ManufacturerData": {"0xffff": "\#(makerHex(serial: serial))"}, "ServiceData": {"\#(batteryService)": "\#(battery)"}}"#
        )
      }
    }
    // The Swift scanner runs until bleak is done: its StopDiscovery must not end bleak's scan.
    let bleakDone = Flag()
    let swiftScan = Task {
      try await collect(BlueZScanner(busAddress: stack.address), seconds: 30) { _ in bleakDone.isSet }
    }
    try await feeder.value
    // Let both see the last updates, then end bleak's scan and wait for its report.
    try await Task.sleep(for: .seconds(1))
    try input.fileHandleForWriting.close()
    let data = first + output.fileHandleForReading.readDataToEndOfFile()
    bleak.waitUntilExit()
    bleakDone.set()
    // One more update so the Swift scanner's loop checks the flag.
    try stack.send("set hci0 C0:00:00:00:00:21 {\"RSSI\": -47}")
    let updates = try await swiftScan.value
    var fromBleak: Set<Seen> = []
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("{") {
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
    let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(fromBleak.count == 2, "bleak said: \(String(decoding: data, as: UTF8.self)) \(log.suffix(600))")
    #expect(fromBleak == fromSwift)
  }
}

final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
}
