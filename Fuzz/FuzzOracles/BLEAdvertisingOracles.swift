// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising

/// AD structures: strict success implies lenient success with no warnings; the owned model
/// re-encodes to the input minus zero-length padding, and that decodes to the same model.
public enum AdvertisingDataOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    try checkSinglePass(bytes)
    let lenient = try? AdvertisingDataView(validating: bytes.span, options: .lenient)
    guard let view = try? AdvertisingDataView(validating: bytes.span) else {
      if let lenient { try require(!lenient.warnings.isEmpty, "strict failed but lenient had no warning") }
      return
    }
    try require(lenient?.warnings.isEmpty == true, "strict ok but lenient warned or failed")
    let model = AdvertisingData(view)
    try require(model.structures.count == view.structureCount, "structure counts differ")
    _ = (model.flags, model.localName, model.txPowerLevel, model.appearance, model.serviceUUIDs)
    _ = (model.serviceData, model.manufacturerData, model.values)
    let encoded: [UInt8]
    do { encoded = try model.encodedBytes(budget: AdvertisingBudget(maximumSize: Int.max)) } catch {
      throw OracleFailure("encoding the decoded model failed: \(error)")
    }
    try require(encoded.count <= bytes.count, "re-encoding is longer than the input")
    guard let again = try? AdvertisingData(parsing: encoded) else {
      throw OracleFailure("re-encoding does not decode")
    }
    try require(again == model, "decode(encode(m)) != m")
    // Without zero-length padding the input is canonical and must come back byte for byte.
    var structureBytes = 0
    var structures = view.structures
    while let structure = structures.next() { structureBytes += 2 + structure.data.byteCount }
    if structureBytes == bytes.count {
      try require(encoded == bytes, "canonical AD did not re-encode byte for byte")
    }
  }
}

extension AdvertisingDataOracle {
  /// `AdvertisingDataView.checkedStructures` (one pass) yields the structures of the
  /// validated view, or throws strict validation's error.
  static func checkSinglePass(_ bytes: [UInt8]) throws(OracleFailure) {
    var seen: [(type: UInt8, offset: Int, count: Int)] = []
    var failure: BLEAdvertisingError? = nil
    var checked = AdvertisingDataView.checkedStructures(bytes.span.bytes)
    do throws(BLEAdvertisingError) {
      while let structure = try checked.next() {
        seen.append((structure.type.rawValue, structure.offset, structure.data.byteCount))
      }
    } catch {
      failure = error
    }
    try require((try? checked.next()) == nil, "the checked iterator went on after its end")
    let view: AdvertisingDataView
    do throws(BLEAdvertisingError) {
      view = try AdvertisingDataView(validating: bytes.span)
    } catch {
      try require(failure == error, "single pass threw \(String(describing: failure)), strict threw \(error)")
      return
    }
    try require(failure == nil, "single pass threw \(failure!) on valid AD")
    var structures = view.structures
    var index = 0
    while let structure = structures.next() {
      try require(
        index < seen.count && seen[index].type == structure.type.rawValue
          && seen[index].offset == structure.offset
          && seen[index].count == structure.data.byteCount, "single pass structure \(index) differs")
      index += 1
    }
    try require(index == seen.count && index == view.structureCount, "single pass structure counts differ")
  }
}

/// HCI LE advertising report events: every report converts to the owned model, whose
/// re-encoded events decode to the same reports.
public enum HCIEventOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    guard let view = try? HCIAdvertisingReportsView(validating: bytes.span.bytes) else { return }
    var reports: [AdvertisingReport] = []
    var iterator = view.reports
    while let report = iterator.next() { reports.append(AdvertisingReport(report)) }
    try require(reports.count == view.reportCount, "report count differs from the iteration")
    for report in reports {
      _ = report.advertising
      guard let events = try? report.encodedEvents() else { continue }
      var decoded: [AdvertisingReport] = []
      for event in events {
        guard let again = try? HCIAdvertisingReportsView(validating: event.span.bytes) else {
          throw OracleFailure("re-encoded event does not decode")
        }
        var it = again.reports
        while let r = it.next() { decoded.append(AdvertisingReport(r)) }
      }
      try require(!decoded.isEmpty, "re-encoded events hold no report")
      try require(decoded.first?.address == report.address, "address changed through re-encoding")
    }
  }
}

/// btsnoop captures: the owned file re-encodes to bytes that decode to the same file, the
/// advertising-report stream runs to its end without trapping, and the scanning stream
/// agrees with the validating one (its first error is the one validating throws; lenient
/// mode has none).
public enum BTSnoopOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    try checkScanning(bytes)
    if let lenient = try? BTSnoopFileView(validating: bytes.span.bytes, options: .lenient) {
      var reports = lenient.advertisingReports
      var count = 0
      while let _ = try? reports.next() {
        count += 1
        if count > bytes.count { throw OracleFailure("report stream does not end") }
      }
    }
    guard let file = try? BTSnoopFile(parsing: bytes) else { return }
    do {
      let encoded = try file.encodedBytes()
      try require(encoded == bytes, "strict btsnoop file did not re-encode byte for byte")
    } catch let failure as OracleFailure {
      throw failure
    } catch {
      throw OracleFailure("re-encoding failed: \(error)")
    }
  }

  /// The first error of strict scanning (the record error, then the first `.error` item)
  /// is the error validating and `next()` throw; lenient scanning yields no `.error`.
  static func checkScanning(_ bytes: [UInt8]) throws(OracleFailure) {
    guard let strict = try? BTSnoopFileView(scanning: bytes.span.bytes) else { return }
    var firstItemError: BLEAdvertisingError? = nil
    var items = strict.advertisingReports
    var count = 0
    while let item = items.nextItem() {
      count += 1
      if count > bytes.count { throw OracleFailure("scanning stream does not end") }
      if case .error(let error) = item, firstItemError == nil { firstItemError = error }
    }
    var thrown: BLEAdvertisingError? = nil
    do throws(BLEAdvertisingError) {
      let view = try BTSnoopFileView(validating: bytes.span.bytes)
      var reports = view.advertisingReports
      while try reports.next() != nil {}
    } catch {
      thrown = error
    }
    try require(
      thrown == (strict.recordError ?? firstItemError), "scanning and validating disagree on the first error")
    guard let lenient = try? BTSnoopFileView(scanning: bytes.span.bytes, options: .lenient) else {
      throw OracleFailure("lenient scanning rejects a file strict scanning frames")
    }
    try require(lenient.recordError == nil, "lenient scanning keeps a record error")
    var lenientItems = lenient.advertisingReports
    while let item = lenientItems.nextItem() {
      if case .error = item { throw OracleFailure("lenient scanning yields an error item") }
    }
  }
}
