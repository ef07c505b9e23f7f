// SPDX-License-Identifier: Apache-2.0
import NDEF

/// The SUN (Secure Unique NFC) values an NTAG 424 DNA mirrored into a URL, found by parameter
/// name (NXP AN12196 §3.4 and §3.5; AN12321 §3 for LRP mode).
///
/// The URL is kept as its UTF-8 bytes: the SDMMAC covers a slice of it (from the SDM MAC
/// input offset to the MAC). Parse errors carry the offset of the first bad byte in those
/// bytes. A server checking one URL per request can skip this type (it copies the values
/// into arrays) and call ``verify(url:keys:names:macInput:crypto:)-(String,_,_,_,_)``,
/// which reads the URL in place and allocates nothing.
public struct SUNMessage: Sendable, Hashable {
  /// The URL's UTF-8 bytes.
  public let url: [UInt8]
  /// The encrypted PICC data (`picc_data`, `e`): 16 bytes in AES mode, 24 (PICCRand, then
  /// the encrypted block) in LRP mode; nil for a plain mirror.
  public let encryptedPICCData: [UInt8]?
  /// The plain UID mirror (`uid`), 7 bytes; nil when absent.
  public let plainUID: [UInt8]?
  /// The plain read counter mirror (`ctr`), 3 bytes as printed (most significant first); nil
  /// when absent.
  public let plainCounter: [UInt8]?
  /// The encrypted file data (`enc`), whole 16-byte blocks; nil when absent.
  public let encryptedFileData: [UInt8]?
  /// The SDMMAC (`cmac`, `c`), 8 bytes.
  public let mac: [UInt8]
  /// The offset in ``url`` of the SDMMAC value's first digit (where the MAC input ends).
  public let macOffset: Int
  /// Each SUN parameter found, by its role, with the offset of its value in ``url``.
  public let valueOffsets: [SUNParameterNames.Role: Int]
  /// Where each value's digits are in ``url``.
  let query: SUNQuery

  /// Whether the PICC data is in LRP mode (24 bytes: an 8-byte PICCRand first, AN12321 §3.2).
  public var mode: SUNMode { query.mode }

  /// Reads the SUN parameters from `url`'s query.
  ///
  /// - Parameters:
  ///   - url: the URL as tapped (scheme optional; only the query after `?` is read, up to `#`).
  ///   - names: the parameter names of each SUN value (default ``SUNParameterNames/standard``).
  /// - Throws: ``TagTrustError/Code/invalidURL`` (no `?`, a parameter without `=`),
  ///   ``TagTrustError/Code/duplicateParameter``, ``TagTrustError/Code/invalidHex``,
  ///   ``TagTrustError/Code/invalidParameterLength``, ``TagTrustError/Code/missingParameter``;
  ///   each at the offset of the first bad byte.
  public init(parsingURL url: String, names: SUNParameterNames = .standard) throws(TagTrustError) {
    let bytes = Array(url.utf8)
    let query = try SUNQuery(parsing: bytes.span, names: names)
    self.url = bytes
    self.query = query
    self.encryptedPICCData = Self.value(bytes, query.piccData)
    self.plainUID = Self.value(bytes, query.uid)
    self.plainCounter = Self.value(bytes, query.counter)
    self.encryptedFileData = Self.value(bytes, query.fileData)
    self.mac = Self.value(bytes, query.mac) ?? []
    self.macOffset = query.macStart
    var offsets: [SUNParameterNames.Role: Int] = [:]
    for role in SUNParameterNames.Role.ordered {
      if let range = query[role] { offsets[role] = range.lowerBound }
    }
    self.valueOffsets = offsets
  }

  /// Reads the SUN parameters from the URL of an NDEF URI record's payload (NFC Forum RTD
  /// URI 1.0 §3.2: an identifier code, then the rest of the URI), as an NTAG 424 DNA's NDEF
  /// file holds it; NDEF's URI record code expands the code's prefix (`04`: `https://`).
  ///
  /// Offsets in errors and ``macOffset`` count in the expanded URL, not in the payload.
  ///
  /// - Parameters:
  ///   - payload: the URI record's payload.
  ///   - names: the parameter names of each SUN value (default ``SUNParameterNames/standard``).
  /// - Throws: ``TagTrustError/Code/invalidURL`` at the payload offset NDEF names for a
  ///   payload that is not a URI (empty, a reserved identifier code, bad UTF-8); then the
  ///   errors of ``init(parsingURL:names:)``.
  public init(uriRecordPayload payload: [UInt8], names: SUNParameterNames = .standard) throws(TagTrustError) {
    let url: String
    do throws(NDEFError) {
      url = try URIRecordView(validating: payload.span.bytes).uri
    } catch {
      throw TagTrustError(.invalidURL, offset: error.offset)
    }
    try self.init(parsingURL: url, names: names)
  }

  /// The bytes the hex digits at `range` of `bytes` spell (checked by the parse).
  private static func value(_ bytes: [UInt8], _ range: Range<Int>?) -> [UInt8]? {
    guard let range else { return nil }
    let digits = bytes.span
    return stride(from: range.lowerBound, to: range.upperBound, by: 2).map { HexDigits.byte(digits, at: $0) }
  }

  /// The bytes the SDMMAC covers for `input`: the slice of ``url`` from where `input` says
  /// up to the MAC value (AN12196 §3.4: SDMMACInputOffset to SDMMACOffset).
  ///
  /// - Throws: ``TagTrustError/Code/missingParameter`` when `input` names a parameter the URL
  ///   lacks; ``TagTrustError/Code/invalidURL`` when the start is past the MAC.
  public func macInput(_ input: SUNMACInput) throws(TagTrustError) -> [UInt8] {
    Array(url[try query.macInputRange(input)])
  }

  /// Two messages are equal when their URLs are (everything else is read from the URL).
  public static func == (a: SUNMessage, b: SUNMessage) -> Bool { a.url == b.url && a.query == b.query }

  /// Hashes the URL.
  public func hash(into hasher: inout Hasher) { hasher.combine(url) }
}

/// Where each SUN value's hex digits sit in a URL's bytes, found in place (no copy): the
/// parse behind ``SUNMessage`` and the allocation-free check.
struct SUNQuery: Sendable, Hashable {
  /// The digits of each role's value, when present.
  var piccData: Range<Int>?
  var fileData: Range<Int>?
  var mac: Range<Int>?
  var uid: Range<Int>?
  var counter: Range<Int>?
  /// Where the query ends (the `#` or the end of the URL).
  var end: Int

  /// The digits of `role`'s value.
  subscript(role: SUNParameterNames.Role) -> Range<Int>? {
    get {
      switch role {
      case .piccData: piccData
      case .fileData: fileData
      case .mac: mac
      case .uid: uid
      case .counter: counter
      }
    }
    set {
      switch role {
      case .piccData: piccData = newValue
      case .fileData: fileData = newValue
      case .mac: mac = newValue
      case .uid: uid = newValue
      case .counter: counter = newValue
      }
    }
  }

  /// The offset of the MAC's first digit (a parsed query always has a MAC).
  var macStart: Int { mac?.lowerBound ?? end }

  /// LRP when the PICC data is 24 bytes (48 digits), else AES.
  var mode: SUNMode { piccData?.count == 2 * SUNMode.lrpPICCDataSize ? .lrp : .aes }

  /// Finds the SUN parameters in `url`'s query, checking each one's digits and length.
  ///
  /// - Throws: the errors of ``SUNMessage/init(parsingURL:names:)``.
  init(parsing url: Span<UInt8>, names: SUNParameterNames) throws(TagTrustError) {
    var question: Int?
    for index in url.indices where url[index] == UInt8(ascii: "?") {
      question = index
      break
    }
    guard let question else { throw TagTrustError(.invalidURL, offset: url.count) }
    var end = url.count
    for index in question..<url.count where url[index] == UInt8(ascii: "#") {
      end = index
      break
    }
    self.end = end
    var start = question + 1
    while start < end {
      var stop = start
      while stop < end, url[stop] != UInt8(ascii: "&") { stop += 1 }
      if stop > start {
        var equals = start
        while equals < stop, url[equals] != UInt8(ascii: "=") { equals += 1 }
        guard equals < stop else { throw TagTrustError(.invalidURL, offset: start) }
        if let role = names.role(of: url, start..<equals) {
          guard self[role] == nil else { throw TagTrustError(.duplicateParameter, offset: start) }
          let value = (equals + 1)..<stop
          try HexDigits.check(url, value)
          guard role.allows(byteCount: value.count / 2) else {
            throw TagTrustError(.invalidParameterLength, offset: value.lowerBound)
          }
          self[role] = value
        }
      }
      start = stop + 1
    }
    guard mac != nil, piccData != nil || uid != nil else {
      throw TagTrustError(.missingParameter, offset: end)
    }
  }

  /// The slice of the URL the SDMMAC covers for `input` (AN12196 §3.4: SDMMACInputOffset to
  /// SDMMACOffset).
  ///
  /// - Throws: ``TagTrustError/Code/missingParameter`` when `input` names a parameter the URL
  ///   lacks; ``TagTrustError/Code/invalidURL`` when the start is past the MAC.
  func macInputRange(_ input: SUNMACInput) throws(TagTrustError) -> Range<Int> {
    let start: Int
    switch input.value {
    case .automatic: start = fileData?.lowerBound ?? macStart
    case .empty: start = macStart
    case .role(let role):
      guard let range = self[role] else { throw TagTrustError(.missingParameter, offset: macStart) }
      start = range.lowerBound
    case .offset(let offset): start = offset
    }
    guard start >= 0, start <= macStart else { throw TagTrustError(.invalidURL, offset: max(0, start)) }
    return start..<macStart
  }
}

/// Which SUN encryption mode an NTAG 424 DNA file uses (AN12196 §3, AN12321 §3).
public enum SUNMode: String, Sendable, Hashable {
  /// AES-128: PICC data one AES block, session keys by CMAC (AN12196 §3.3).
  case aes
  /// LRP (AN12304): PICC data a PICCRand and one LRICB block (AN12321 §3.2).
  case lrp

  /// The encrypted PICC data length in LRP mode: PICCRand (8) and one block (16).
  public static let lrpPICCDataSize = 24
}

/// Where the bytes the SDMMAC covers start (AN12196 §3.4, SDMMACInputOffset); they end where
/// the MAC value starts.
public struct SUNMACInput: Sendable, Hashable {
  enum Value: Sendable, Hashable {
    case automatic, empty
    case role(SUNParameterNames.Role)
    case offset(Int)
  }
  let value: Value

  /// NXP's examples: from the encrypted file data value when the URL has one (its hex, then
  /// `&cmac=`, AN12196 §3.4.3), else nothing (SDMMACInputOffset equal to SDMMACOffset).
  public static let automatic = SUNMACInput(value: .automatic)
  /// Nothing: the MAC is over the empty string (SDMMACInputOffset equal to SDMMACOffset).
  public static let empty = SUNMACInput(value: .empty)
  /// From the first digit of the parameter in `role` (e.g. ``SUNParameterNames/Role/piccData``).
  public static func from(_ role: SUNParameterNames.Role) -> SUNMACInput { SUNMACInput(value: .role(role)) }
  /// From the byte at `offset` of the URL's UTF-8 bytes.
  public static func fromOffset(_ offset: Int) -> SUNMACInput { SUNMACInput(value: .offset(offset)) }
}

/// The query parameter names each SUN value is looked for under.
public struct SUNParameterNames: Sendable, Hashable {
  /// A SUN value's role.
  public enum Role: Sendable, Hashable, CaseIterable {
    /// The encrypted PICC data (PICCDataTag, UID, read counter; AN12196 §3.3).
    case piccData
    /// The encrypted file data (SDMENCFileData, AN12196 §3.4.3).
    case fileData
    /// The SDMMAC (AN12196 §3.4.4).
    case mac
    /// The plain UID mirror (AN12196 §3.2).
    case uid
    /// The plain SDM read counter mirror (AN12196 §3.2).
    case counter

    /// Every role, in the order names are looked up (made once, unlike `allCases`).
    static let ordered: [Role] = [.piccData, .fileData, .mac, .uid, .counter]

    /// Whether a value of `byteCount` bytes is one the tag can mirror in this role.
    func allows(byteCount: Int) -> Bool {
      switch self {
      case .piccData: byteCount == 16 || byteCount == SUNMode.lrpPICCDataSize
      case .fileData: byteCount > 0 && byteCount % 16 == 0 && byteCount <= SUNData.maximumFileDataSize
      case .mac: byteCount == 8
      case .uid: byteCount == 7
      case .counter: byteCount == 3
      }
    }
  }

  /// The names of each role.
  public var names: [Role: [String]]

  /// Creates a name table.
  public init(names: [Role: [String]]) { self.names = names }

  /// sdm-backend's and NXP's names: `picc_data` or `e`, `enc`, `cmac` or `c`, `uid`, `ctr`.
  public static let standard = SUNParameterNames(names: [
    .piccData: ["picc_data", "e"], .fileData: ["enc"], .mac: ["cmac", "c"], .uid: ["uid"], .counter: ["ctr"],
  ])

  /// The role whose names include the name at `range` of `url`, if any.
  func role(of url: Span<UInt8>, _ range: Range<Int>) -> Role? {
    for role in Role.ordered {
      guard let candidates = names[role] else { continue }
      for name in candidates where Self.matches(name, url, range) { return role }
    }
    return nil
  }

  /// Whether the bytes at `range` of `url` are `name`'s UTF-8.
  private static func matches(_ name: String, _ url: Span<UInt8>, _ range: Range<Int>) -> Bool {
    var index = range.lowerBound
    for byte in name.utf8 {
      guard index < range.upperBound, url[index] == byte else { return false }
      index += 1
    }
    return index == range.upperBound
  }
}
