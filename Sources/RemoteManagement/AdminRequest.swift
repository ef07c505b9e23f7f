// SPDX-License-Identifier: Apache-2.0

/// An HTTP request the agent must send (Amendment B §3): always a POST, to ``uri``, with
/// the Amendment B headers and, after the first, a response script as the body.
public struct AdminRequest: Sendable, Hashable {
  /// The method: always `POST`.
  public var method: String
  /// The absolute request URI (`http://` or `https://`).
  public var uri: String
  /// The headers, in order.
  public var headers: [AdminHeaderField]
  /// The body: empty, or an ETSI TS 102 226 §5.2.2 response scripting template.
  public var body: [UInt8]

  /// Creates a request.
  public init(method: String = "POST", uri: String, headers: [AdminHeaderField], body: [UInt8]) {
    self.method = method
    self.uri = uri
    self.headers = headers
    self.body = body
  }

  /// The value of header `name` (ASCII case ignored), or `nil`.
  public func header(_ name: String) -> String? {
    headers.first { ASCII.equalsIgnoringCase($0.name, name) }?.value
  }
}

/// An HTTP response as the caller received it: the status code, the headers and the body.
public struct AdminResponse: Sendable, Hashable {
  /// The HTTP status code (200, 204, ...).
  public var statusCode: Int
  /// The headers, in order.
  public var headers: [AdminHeaderField]
  /// The body.
  public var body: [UInt8]

  /// Creates a response.
  public init(statusCode: Int, headers: [AdminHeaderField] = [], body: [UInt8] = []) {
    self.statusCode = statusCode
    self.headers = headers
    self.body = body
  }

  /// The value of header `name` (ASCII case ignored, surrounding blanks removed), or `nil`.
  public func header(_ name: String) -> String? {
    headers.first { ASCII.equalsIgnoringCase($0.name, name) }.map { ASCII.trimmed($0.value) }
  }
}
