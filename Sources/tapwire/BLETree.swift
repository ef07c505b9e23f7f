// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire

/// The human tree of advertising data (CSS Part A), HCI LE advertising report events (Core
/// 5.x Vol 4 Part E §7.7.65.2, §7.7.65.13) and btsnoop files, from the `BLEAdvertising` views.
struct BLETree {
  var source: [UInt8]
  var base = 0

  func node(
    at offset: Int, count: Int, _ name: String, _ value: String = "", children: [TreeNode] = []
  ) -> TreeNode {
    var node = TreeNode(source, at: offset - base, count: count, name, value, children: children)
    node.offset = offset
    return node
  }

  /// Company names for the identifiers Tapwire names (Bluetooth Assigned Numbers §7).
  static func companyName(_ id: CompanyIdentifier) -> String? {
    switch id {
    case .apple: return "Apple, Inc."
    case .google: return "Google"
    case .testing: return "reserved for testing"
    default: return nil
    }
  }

  /// The flag bits spelled out (CSS Part A §1.3).
  static func flagNames(_ flags: ADFlags) -> String {
    let names: [(ADFlags, String)] = [
      (.leLimitedDiscoverable, "LE limited discoverable"),
      (.leGeneralDiscoverable, "LE general discoverable"),
      (.brEDRNotSupported, "BR/EDR not supported"),
      (.simultaneousLEAndBREDRController, "LE and BR/EDR controller"),
      (.simultaneousLEAndBREDRHost, "LE and BR/EDR host"),
    ]
    let set = names.filter { flags.contains($0.0) }.map(\.1)
    return set.isEmpty ? "none" : set.joined(separator: ", ")
  }

  /// The extended Event_Type bits spelled out (Core 5.x Vol 4 Part E §7.7.65.13).
  static func eventTypeText(_ type: HCIExtendedAdvertisingEventType) -> String {
    let names: [(HCIExtendedAdvertisingEventType, String)] = [
      (.connectable, "connectable"), (.scannable, "scannable"), (.directed, "directed"),
      (.scanResponse, "scan response"), (.legacy, "legacy PDU"),
    ]
    let bits = names.filter { type.contains($0.0) }.map(\.1)
    return (bits.isEmpty ? "non-connectable" : bits.joined(separator: ", "))
      + ", data \(type.dataStatus.name)"
  }

  /// One node per AD structure: length, type (with its name) and the decoded value.
  func structures(_ view: borrowing AdvertisingDataView) -> [TreeNode] {
    var result: [TreeNode] = []
    var iterator = view.structures
    while let structure = iterator.next() {
      var children = [
        node(at: structure.offset, count: 1, "length", "\(structure.length)"),
        node(
          at: structure.offset + 1, count: 1, "AD type",
          "\(Describe.hex(structure.type.rawValue)) = \(structure.type.name)"),
      ]
      children += value(structure)
      result.append(
        node(
          at: structure.offset, count: structure.length + 1, "AD structure", structure.type.name,
          children: children))
    }
    return result
  }

  /// The data of one AD structure, decoded where Tapwire knows the type.
  func value(_ structure: borrowing ADStructureView) -> [TreeNode] {
    let offset = structure.dataOffset
    let count = structure.data.byteCount
    if let flags = structure.flags {
      return [
        node(at: offset, count: count, "flags", "\(Describe.hex(flags.rawValue)) = \(Self.flagNames(flags))")
      ]
    }
    if let power = try? structure.txPowerLevel() {
      return [node(at: offset, count: count, "TX power", "\(power) dBm")]
    }
    if let appearance = try? structure.appearance() {
      return [
        node(
          at: offset, count: count, "appearance",
          "\(Describe.hex16(appearance)) = category \(appearance >> 6), subcategory \(appearance & 0x3F)")
      ]
    }
    if let list = try? structure.uuidList() {
      var result: [TreeNode] = []
      for index in 0..<list.count {
        guard let uuid = list.uuid(at: index) else { continue }
        result.append(
          node(at: list.dataOffset + index * list.width, count: list.width, "UUID", uuid.description))
      }
      return result
    }
    if let data = try? structure.serviceData() {
      return [
        node(at: offset, count: data.uuidWidth, "service UUID", data.uuid.description),
        node(at: data.dataOffset, count: data.data.byteCount, "service data", Hex.string(data.data)),
      ]
    }
    if let data = try? structure.manufacturerData() {
      let name = Self.companyName(data.companyID).map { " = " + $0 } ?? ""
      return [
        node(at: offset, count: 2, "company", "\(Describe.hex16(data.companyID.rawValue))\(name)"),
        node(at: data.dataOffset, count: data.data.byteCount, "manufacturer data", Hex.string(data.data)),
      ]
    }
    if let name = structure.localName() {
      let kind = name.isComplete ? "complete local name" : "shortened local name"
      return [node(at: offset, count: count, kind, Describe.quoted(name.string))]
    }
    if let decoded = try? ADValue(structure) {
      switch decoded {
      case .leRole(let role): return [node(at: offset, count: count, "LE role", role.name)]
      case .uri(let uri): return [node(at: offset, count: count, "URI", Describe.quoted(uri))]
      case .broadcastName(let name):
        return [node(at: offset, count: count, "broadcast name", Describe.quoted(name))]
      case .leDeviceAddress(let address, let random):
        return [
          node(at: offset, count: count, "LE device address", "\(address) (\(random ? "random" : "public"))")
        ]
      case .advertisingInterval(let interval):
        return [node(at: offset, count: count, "advertising interval", "\(interval) × 0.625 ms")]
      case .classOfDevice(let value):
        return [node(at: offset, count: count, "class of device", "0x" + String(value, radix: 16))]
      case .securityManagerOOBFlags(let flags):
        return [node(at: offset, count: count, "OOB flags", Describe.hex(flags.rawValue))]
      default: break
      }
    }
    return [node(at: offset, count: count, "data", Hex.string(structure.data))]
  }

  /// The reports of one HCI LE advertising report event.
  func reports(_ view: borrowing HCIAdvertisingReportsView, eventOffset: Int) -> [TreeNode] {
    var result = [
      node(at: eventOffset, count: 1, "event code", "0x3e = LE Meta"),
      node(
        at: eventOffset + 1, count: 1, "parameter length", "\(Int(source[safe: eventOffset + 1 - base] ?? 0))"
      ),
      node(
        at: eventOffset + 2, count: 1, "subevent",
        view.isExtended ? "0x0d = LE Extended Advertising Report" : "0x02 = LE Advertising Report"),
      node(at: eventOffset + 3, count: 1, "reports", "\(view.reportCount)"),
    ]
    var iterator = view.reports
    var index = 0
    while let report = iterator.next() {
      result.append(self.report(report, index: index))
      index += 1
    }
    return result
  }

  func report(_ report: borrowing HCIAdvertisingReportView, index: Int) -> TreeNode {
    let start = report.offset
    var children: [TreeNode] = []
    let eventName = report.legacyEventType?.name ?? Self.eventTypeText(report.eventType)
    let addressOffset: Int
    if report.isExtended {
      children.append(
        node(at: start, count: 2, "event type", "\(Describe.hex16(report.rawEventType)) = \(eventName)"))
      children.append(node(at: start + 2, count: 1, "address type", report.addressType.name))
      addressOffset = start + 3
      children.append(node(at: addressOffset, count: 6, "address", report.address.description))
      children.append(node(at: start + 9, count: 1, "primary PHY", report.primaryPHY.name))
      children.append(node(at: start + 10, count: 1, "secondary PHY", report.secondaryPHY.name))
      children.append(
        node(at: start + 11, count: 1, "advertising SID", report.advertisingSID.map { "\($0)" } ?? "none"))
      children.append(
        node(at: start + 12, count: 1, "TX power", report.txPower.map { "\($0) dBm" } ?? "not available"))
      children.append(
        node(at: start + 13, count: 1, "RSSI", report.rssi.map { "\($0) dBm" } ?? "not available"))
      children.append(node(at: report.dataOffset - 1, count: 1, "data length", "\(report.data.byteCount)"))
    } else {
      children.append(
        node(
          at: start, count: 1, "event type",
          "\(Describe.hex(UInt8(truncatingIfNeeded: report.rawEventType))) = \(eventName)"))
      children.append(node(at: start + 1, count: 1, "address type", report.addressType.name))
      addressOffset = start + 2
      children.append(node(at: addressOffset, count: 6, "address", report.address.description))
      children.append(node(at: report.dataOffset - 1, count: 1, "data length", "\(report.data.byteCount)"))
    }
    var data = node(
      at: report.dataOffset, count: report.data.byteCount, "advertising data",
      Describe.bytes(report.data.byteCount))
    if let view = try? AdvertisingDataView(
      validating: report.data, baseOffset: report.dataOffset, options: .lenient)
    {
      data.children = structures(view)
    }
    children.append(data)
    if !report.isExtended {
      let rssiOffset = report.dataOffset + report.data.byteCount
      children.append(
        node(at: rssiOffset, count: 1, "RSSI", report.rssi.map { "\($0) dBm" } ?? "not available"))
    }
    return node(
      at: start, count: 0, "Report \(index)",
      "\(eventName) from \(report.address) (\(report.addressType.name))",
      children: children)
  }

  /// The file header and each record of a btsnoop file, with the advertising reports inside.
  /// Strict mode: an advertising event that breaks a rule, or an extended report fragment
  /// that reassembly rejects (a reserved data status, an overflow), gets an `error` line
  /// inside its packet (after the reports before it), and a record that cannot be framed one
  /// after the records.
  func btsnoop(_ view: borrowing BTSnoopFileView) -> [TreeNode] {
    // The errors of the report stream, reassembly's included, to place in their packets.
    var streamErrors: [BLEAdvertisingError] = []
    var stream = view.advertisingReports
    while let item = stream.nextItem() {
      if case .error(let error) = item { streamErrors.append(error) }
    }
    var result = [
      node(at: 0, count: 8, "identification", "\"btsnoop\\0\""),
      node(at: 8, count: 4, "version", "1"),
      node(at: 12, count: 4, "datalink", "\(view.datalink.rawValue) = \(view.datalink.name)"),
    ]
    var records = view.records
    var index = 0
    while let record = records.next() {
      let start = record.offset
      var children = [
        node(at: start, count: 4, "original length", "\(record.originalLength)"),
        node(at: start + 4, count: 4, "included length", "\(record.data.byteCount)"),
        node(
          at: start + 8, count: 4, "flags",
          "\(record.flags) = \(record.isReceived ? "received" : "sent"), \(record.flags & 0x02 != 0 ? "command/event" : "data")"
        ),
        node(at: start + 12, count: 4, "cumulative drops", "\(record.cumulativeDrops)"),
        node(at: start + 16, count: 8, "timestamp", "\(record.unixMicroseconds) µs since 1970"),
      ]
      var packet = node(
        at: record.dataOffset, count: record.data.byteCount, "packet", Describe.bytes(record.data.byteCount))
      if let event = record.hciEvent(datalink: view.datalink) {
        let eventOffset = record.hciEventOffset(datalink: view.datalink)
        do throws(BLEAdvertisingError) {
          let reports = try HCIAdvertisingReportsView(
            scanning: event, baseOffset: eventOffset, options: view.options)
          packet.children = self.reports(reports, eventOffset: eventOffset)
          if let error = reports.reportError { packet.children.append(errorNode(error)) }
        } catch {
          // Only advertising events count (others are skipped); lenient mode warns instead.
          if !view.options.isLenient && HCIEventView.startsAdvertisingReport(event) {
            packet.children = [errorNode(error)]
          }
        }
      }
      let packetEnd = record.dataOffset + record.data.byteCount
      let shown = Set(packet.children.filter { $0.name == "error" }.compactMap(\.offset))
      for error in streamErrors
      where (record.dataOffset..<packetEnd).contains(error.offset) && !shown.contains(error.offset) {
        packet.children.append(errorNode(error))
      }
      children.append(packet)
      result.append(
        node(at: start, count: 24 + record.data.byteCount, "Record \(index)", "", children: children))
      index += 1
    }
    if let error = view.recordError { result.append(errorNode(error)) }
    return result
  }

  /// An `error` line at the error's offset, with a caret under the byte.
  func errorNode(_ error: BLEAdvertisingError) -> TreeNode {
    TreeNode.error(source, at: error.offset, code: error.code.name, message: error.code.message)
  }
}

extension Array where Element == UInt8 {
  subscript(safe index: Int) -> UInt8? { indices.contains(index) ? self[index] : nil }
}

extension BLETree {
  static func adv(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    guard let view = try? AdvertisingDataView(validating: bytes.span, options: lenient ? .lenient : .strict)
    else { return [] }
    return BLETree(source: bytes).structures(view)
  }

  /// The framed reports, then (when one cannot be framed) an `error` line at its offset
  /// with the input line and a caret under the byte.
  static func hci(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    guard
      let view = try? HCIAdvertisingReportsView(
        scanning: bytes.span.bytes, options: lenient ? .lenient : .strict)
    else { return [] }
    let tree = BLETree(source: bytes)
    var nodes = tree.reports(view, eventOffset: 0)
    if let error = view.reportError { nodes.append(tree.errorNode(error)) }
    return nodes
  }

  static func btsnoop(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    guard let view = try? BTSnoopFileView(scanning: bytes.span.bytes, options: lenient ? .lenient : .strict)
    else { return [] }
    return BLETree(source: bytes).btsnoop(view)
  }
}
