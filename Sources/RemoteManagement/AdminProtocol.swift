// SPDX-License-Identifier: Apache-2.0

/// The wire constants of GlobalPlatform Card Specification v2.2 Amendment B, "Remote
/// Application Management over HTTP" (v1.1, §3: the administration session's HTTP POST
/// requests and responses, their headers and content types).
public enum AdminProtocol {
  /// `X-Admin-Protocol`: the protocol in use, on every request and response.
  public static let protocolHeader = "X-Admin-Protocol"
  /// The value of `X-Admin-Protocol`: `globalplatform-remote-admin/1.0`.
  public static let protocolVersion = "globalplatform-remote-admin/1.0"
  /// `X-Admin-From`: the agent (card or device) opening the session, on requests.
  public static let fromHeader = "X-Admin-From"
  /// `X-Admin-Next-URI`: where the agent posts its next request, on responses.
  public static let nextURIHeader = "X-Admin-Next-URI"
  /// `X-Admin-Targeted-Application`: the application (`//aid/RID/PIX`) a command script
  /// is for, on responses; without it the script goes to the session's security domain.
  public static let targetedApplicationHeader = "X-Admin-Targeted-Application"
  /// `X-Admin-Script-Status`: how the previous command script went, on requests after the
  /// first (see ``AdminScriptStatus``).
  public static let scriptStatusHeader = "X-Admin-Script-Status"
  /// `X-Admin-Resume`: `true` on a request that resumes an interrupted session.
  public static let resumeHeader = "X-Admin-Resume"
  /// `Content-Type`.
  public static let contentTypeHeader = "Content-Type"
  /// `Location`: where an HTTP redirection (3xx) points.
  public static let locationHeader = "Location"
  /// The content type of a command script (server to agent):
  /// `application/vnd.globalplatform.card-content-mgt;version=1.0`.
  public static let commandContentType = "application/vnd.globalplatform.card-content-mgt;version=1.0"
  /// The content type of a response script (agent to server):
  /// `application/vnd.globalplatform.card-content-mgt-response;version=1.0`.
  public static let responseContentType =
    "application/vnd.globalplatform.card-content-mgt-response;version=1.0"
  /// HTTP 200 OK: the response carries a command script.
  public static let statusOK = 200
  /// HTTP 204 No Content: the server has nothing more; the session ends (Amendment B §3).
  public static let statusNoContent = 204
}

/// One HTTP header: a name (compared without regard to ASCII case) and a value.
public struct AdminHeaderField: Sendable, Hashable {
  /// The header name as written.
  public var name: String
  /// The header value.
  public var value: String

  /// Creates a header field.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// The value of `X-Admin-Script-Status` (Amendment B §3): how the agent processed the
/// previous command script. Unknown values survive as their text.
public struct AdminScriptStatus: RawRepresentable, Sendable, Hashable {
  /// The header value.
  public let rawValue: String
  /// Creates a status from its header value.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// `ok`: the script was processed; the body holds the response script.
  public static let ok = AdminScriptStatus(rawValue: "ok")
  /// `unknown-application`: the targeted application does not exist (no body).
  public static let unknownApplication = AdminScriptStatus(rawValue: "unknown-application")
  /// `not-a-security-domain`: the targeted application is not a security domain (no body).
  public static let notASecurityDomain = AdminScriptStatus(rawValue: "not-a-security-domain")
  /// `security-error`: the script was refused for security reasons (no body).
  public static let securityError = AdminScriptStatus(rawValue: "security-error")
}

/// ASCII-only text helpers (no Unicode tables, so Embedded Swift builds them).
enum ASCII {
  static func lower(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
  }

  /// Whether `a` and `b` are equal without regard to ASCII case.
  static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    for index in 0..<x.count where lower(x[index]) != lower(y[index]) { return false }
    return true
  }

  /// `text` lowercased, with spaces and tabs removed (media types: `a/b; version=1.0`).
  static func compacted(_ text: String) -> String {
    var bytes: [UInt8] = []
    for byte in text.utf8 where byte != 0x20 && byte != 0x09 { bytes.append(lower(byte)) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `text` without leading and trailing spaces and tabs.
  static func trimmed(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var start = 0
    var end = bytes.count
    while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}
