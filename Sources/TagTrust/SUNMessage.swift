// SPDX-License-Identifier: Apache-2.0
/// The SUN (Secure Unique NFC) values an NTAG 424 DNA mirrored into a URL, found by parameter
/// name (NXP AN12196 §3.4 and §3.5; AN12321 §3 for LRP mode).
///
/// The URL is kept as its UTF-8 bytes: the SDMMAC covers a slice of it (from the SDM MAC
/// input offset to the MAC). Parse errors carry the offset of the first bad byte in those
/// bytes.
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

  /// Whether the PICC data is in LRP mode (24 bytes: an 8-byte PICCRand first, AN12321 §3.2).
  public var mode: SUNMode { encryptedPICCData?.count == SUNMode.lrpPICCDataSize ? .lrp : .aes }

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
    self.url = bytes
    guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else {
      throw TagTrustError(.invalidURL, offset: bytes.count)
    }
    let end = bytes[question...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
    var values: [SUNParameterNames.Role: [UInt8]] = [:]
    var offsets: [SUNParameterNames.Role: Int] = [:]
    var start = question + 1
    while start < end {
      let stop = bytes[start..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
      if stop > start {
        guard let equals = bytes[start..<stop].firstIndex(of: UInt8(ascii: "=")) else {
          throw TagTrustError(.invalidURL, offset: start)
        }
        let name = String(decoding: bytes[start..<equals], as: UTF8.self)
        if let role = names.role(of: name) {
          guard offsets[role] == nil else { throw TagTrustError(.duplicateParameter, offset: start) }
          let valueStart = equals + 1
          let value = try HexDigits.decode(bytes[valueStart..<stop], base: valueStart)
          guard role.allows(byteCount: value.count) else {
            throw TagTrustError(.invalidParameterLength, offset: valueStart)
          }
          values[role] = value
          offsets[role] = valueStart
        }
      }
      start = stop + 1
    }
    guard let mac = values[.mac], let macOffset = offsets[.mac] else {
      throw TagTrustError(.missingParameter, offset: end)
    }
    guard values[.piccData] != nil || values[.uid] != nil else {
      throw TagTrustError(.missingParameter, offset: end)
    }
    self.encryptedPICCData = values[.piccData]
    self.plainUID = values[.uid]
    self.plainCounter = values[.counter]
    self.encryptedFileData = values[.fileData]
    self.mac = mac
    self.macOffset = macOffset
    self.valueOffsets = offsets
  }

  /// The bytes the SDMMAC covers for `input`: the slice of ``url`` from where `input` says
  /// up to the MAC value (AN12196 §3.4: SDMMACInputOffset to SDMMACOffset).
  ///
  /// - Throws: ``TagTrustError/Code/missingParameter`` when `input` names a parameter the URL
  ///   lacks; ``TagTrustError/Code/invalidURL`` when the start is past the MAC.
  public func macInput(_ input: SUNMACInput) throws(TagTrustError) -> [UInt8] {
    let start: Int
    switch input.value {
    case .automatic:
      guard let fileData = valueOffsets[.fileData] else { return [] }
      start = fileData
    case .empty: return []
    case .role(let role):
      guard let offset = valueOffsets[role] else { throw TagTrustError(.missingParameter, offset: macOffset) }
      start = offset
    case .offset(let offset): start = offset
    }
    guard start >= 0, start <= macOffset else { throw TagTrustError(.invalidURL, offset: max(0, start)) }
    return Array(url[start..<macOffset])
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
  fileprivate enum Value: Sendable, Hashable {
    case automatic, empty
    case role(SUNParameterNames.Role)
    case offset(Int)
  }
  fileprivate let value: Value

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

    /// Whether a value of `byteCount` bytes is one the tag can mirror in this role.
    func allows(byteCount: Int) -> Bool {
      switch self {
      case .piccData: byteCount == 16 || byteCount == SUNMode.lrpPICCDataSize
      case .fileData: byteCount > 0 && byteCount % 16 == 0
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

  /// The role `name` has, if any.
  func role(of name: String) -> Role? {
    for role in Role.allCases where names[role]?.contains(name) == true { return role }
    return nil
  }
}
