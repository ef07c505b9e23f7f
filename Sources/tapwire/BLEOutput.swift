// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import JSONOutput
import NFCWire

/// JSON and human output for `adv`, `hci` and `btsnoop` (see `Documentation/cli-json.md`).
enum BLEOutput {
  /// The `adv` object's fields (also used inside `hci` reports and NDEF Bluetooth records).
  static func advertisingFields(_ view: borrowing AdvertisingDataView) -> [(String, JSON)] {
    var structures: [JSON] = []
    var iterator = view.structures
    while let structure = iterator.next() {
      structures.append(
        .object([
          ("offset", .int(structure.offset)), ("type", .int(Int(structure.type.rawValue))),
          ("typeName", .string(structure.type.name)), ("data", .string(Hex.string(structure.data))),
        ]))
    }
    let model = AdvertisingData(view)
    var serviceData: [(String, JSON)] = []
    for entry in model.serviceData {
      serviceData.append((entry.uuid.description, .string(Hex.string(entry.data))))
    }
    var manufacturerData: [(String, JSON)] = []
    for entry in model.manufacturerData {
      manufacturerData.append((String(entry.companyID.rawValue), .string(Hex.string(entry.data))))
    }
    return [
      ("structures", .array(structures)),
      ("flags", model.flags.map { .int(Int($0.rawValue)) } ?? .null),
      ("localName", model.localName.map { .string($0) } ?? .null),
      ("localNameComplete", model.isLocalNameComplete.map { .bool($0) } ?? .null),
      ("txPower", model.txPowerLevel.map { .int(Int($0)) } ?? .null),
      ("appearance", model.appearance.map { .int(Int($0)) } ?? .null),
      ("serviceUUIDs", .array(model.serviceUUIDs.map { .string($0.description) })),
      ("serviceData", .object(serviceData)),
      ("manufacturerData", .object(manufacturerData)),
    ]
  }

  static func failure(_ error: BLEAdvertisingError) -> DecodeFailure {
    DecodeFailure(code: error.code.name, offset: error.offset, message: error.code.message)
  }

  static func warningJSON(_ warning: BLEAdvertisingWarning) -> JSON {
    .object([
      ("code", .string(warning.code.name)), ("offset", .int(warning.offset)),
      ("message", .string(warning.code.message)),
    ])
  }

  static func adv(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    do throws(BLEAdvertisingError) {
      let view = try AdvertisingDataView(validating: bytes.span, options: lenient ? .lenient : .strict)
      // Repeated single-valued structures never fail decoding (the last wins): warnings in
      // lenient mode; in strict mode, where `warnings` stays empty, notes.
      let duplicates = view.duplicateStructures.map(warningJSON)
      return .success(
        .object(
          [("ok", .bool(true)), ("format", .string("adv"))] + advertisingFields(view)
            + [
              ("warnings", .array(view.warnings.map(warningJSON) + (lenient ? duplicates : []))),
              ("notes", .array(lenient ? [] : duplicates)),
            ]))
    } catch {
      return .failure(failure(error))
    }
  }

  /// One report. `dataOffset`: where its advertising data starts in the input, so the
  /// structures' offsets are the input's; `nil` for data reassembled from several
  /// fragments, whose offsets are then relative to the reassembled bytes.
  static func reportJSON(_ report: AdvertisingReport, timestamp: Int64?, dataOffset: Int?) -> JSON {
    let eventType: JSON =
      report.legacyEventType.map { .string($0.name) } ?? .int(Int(report.eventType.rawValue))
    var pairs: [(String, JSON)] = [
      ("eventType", eventType), ("address", .string(report.address.description)),
      ("addressType", .string(report.addressType.name)), ("rssi", report.rssi.map { .int(Int($0)) } ?? .null),
      ("txPower", report.txPower.map { .int(Int($0)) } ?? .null),
    ]
    if let timestamp { pairs.append(("timestamp", .int(Int(timestamp)))) }
    let data = report.data
    if let view = try? AdvertisingDataView(
      validating: data.span, baseOffset: dataOffset ?? 0, options: .lenient)
    {
      pairs.append(("advertising", .object(advertisingFields(view))))
    }
    return .object(pairs)
  }

  /// `hci`: the reports that can be framed, even when a later one cannot (legacy reports are
  /// sequential, so none after it can be located). A report that cannot be framed, or (strict)
  /// bytes after the last report, make the object `"ok": false` with `error` and `errors`
  /// beside the framed `reports`; exit status 1.
  static func hci(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    do throws(BLEAdvertisingError) {
      let view = try HCIAdvertisingReportsView(
        scanning: bytes.span.bytes, options: lenient ? .lenient : .strict)
      var reports: [JSON] = []
      var iterator = view.reports
      while let report = iterator.next() {
        reports.append(reportJSON(AdvertisingReport(report), timestamp: nil, dataOffset: report.dataOffset))
      }
      let warnings: (String, JSON) = ("warnings", .array(view.warnings.map(warningJSON)))
      guard let error = view.reportError else {
        return .success(
          .object([("ok", .bool(true)), ("format", .string("hci")), ("reports", .array(reports)), warnings]))
      }
      let json = warningJSON(BLEAdvertisingWarning(error.code, offset: error.offset))
      return .success(
        .object([
          ("ok", .bool(false)), ("format", .string("hci")), ("error", json), ("reports", .array(reports)),
          ("errors", .array([json])), warnings,
        ]))
    } catch {
      return .failure(failure(error))
    }
  }

  /// `btsnoop`: every report the capture holds, even around an event that breaks a rule
  /// or a record that cannot be framed (records are sequential, so none after it can be
  /// located). In strict mode such an event or record makes the object `"ok": false` with
  /// `error` (the first) and `errors`, in capture order, beside the `reports`; exit status 1.
  static func btsnoop(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    do throws(BLEAdvertisingError) {
      let view = try BTSnoopFileView(scanning: bytes.span.bytes, options: lenient ? .lenient : .strict)
      var reports: [JSON] = []
      var errors: [JSON] = []
      var iterator = view.advertisingReports
      while let item = iterator.nextItem() {
        switch item {
        case .report(let report, let dataOffset):
          let unix = report.timestamp.map { $0 &- BTSnoopFileView.unixEpochOffset }
          reports.append(reportJSON(report, timestamp: unix, dataOffset: dataOffset))
        case .error(let error):
          errors.append(warningJSON(BLEAdvertisingWarning(error.code, offset: error.offset)))
        }
      }
      if let error = view.recordError {
        errors.append(warningJSON(BLEAdvertisingWarning(error.code, offset: error.offset)))
      }
      let warnings: (String, JSON) = (
        "warnings", .array((view.warnings + iterator.warnings).map(warningJSON))
      )
      guard let first = errors.first else {
        return .success(
          .object([
            ("ok", .bool(true)), ("format", .string("btsnoop")), ("reports", .array(reports)), warnings,
          ]))
      }
      return .success(
        .object([
          ("ok", .bool(false)), ("format", .string("btsnoop")), ("error", first),
          ("reports", .array(reports)),
          ("errors", .array(errors)), warnings,
        ]))
    } catch {
      return .failure(failure(error))
    }
  }
}
