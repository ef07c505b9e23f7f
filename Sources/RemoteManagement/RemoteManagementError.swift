// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// Why a remote management session failed: a code, the round trip (1 for the first
/// response) and, where they apply, the HTTP status, the script step, the status word and
/// the script parser's error (its code and byte offset).
public struct RemoteManagementError: Error, Sendable, Hashable {
  /// What went wrong.
  public let code: Code
  /// The round trip concerned: the number of the POST that failed (1 for the first).
  public let round: Int
  /// The HTTP status code of ``Code/httpStatus`` and ``Code/redirectLoop``.
  public let httpStatus: Int?
  /// The command step (0-based) of ``Code/cardRemoved`` and ``Code/cardFailure``.
  public let step: Int?
  /// The parser's or exchange's error of ``Code/malformedScript`` and ``Code/cardFailure``.
  public let apduError: APDUError?
  /// The header of ``Code/missingHeader``, ``Code/wrongContentType`` (`Content-Type`),
  /// ``Code/wrongProtocol`` and ``Code/invalidTargetedApplication``.
  public let header: String?
  /// What the caller said about a ``Code/transportFailed`` (the HTTP client's message), or
  /// the limit a ``Code/bodyTooLarge`` body passed.
  public let detail: String?

  /// Creates an error.
  public init(
    _ code: Code, round: Int, httpStatus: Int? = nil, step: Int? = nil, apduError: APDUError? = nil,
    header: String? = nil, detail: String? = nil
  ) {
    self.detail = detail
    self.code = code
    self.round = round
    self.httpStatus = httpStatus
    self.step = step
    self.apduError = apduError
    self.header = header
  }

  /// An error code: a struct over a private enum, so codes can be added.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable {
      case httpStatus, wrongContentType, missingHeader, wrongProtocol, invalidTargetedApplication
      case malformedScript, cardRemoved, cardFailure, roundTripTimeout, tooManyRoundTrips
      case redirectLoop, transportFailed, sessionFinished, cancelled, bodyTooLarge
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// The server answered a status other than 200, 204 or a followed redirection.
    public static let httpStatus = Code(.httpStatus)
    /// Not Amendment B: a 200 response whose `Content-Type` is not the command script type.
    public static let wrongContentType = Code(.wrongContentType)
    /// Not Amendment B: a 200 response without `X-Admin-Protocol` or `X-Admin-Next-URI`.
    public static let missingHeader = Code(.missingHeader)
    /// Not Amendment B: `X-Admin-Protocol` is not `globalplatform-remote-admin/1.0`.
    public static let wrongProtocol = Code(.wrongProtocol)
    /// `X-Admin-Targeted-Application` is not `//aid/RID/PIX` with a valid AID.
    public static let invalidTargetedApplication = Code(.invalidTargetedApplication)
    /// The body is not an ETSI TS 102 226 command scripting template (``apduError``).
    public static let malformedScript = Code(.malformedScript)
    /// The card went away while a script ran (``step``).
    public static let cardRemoved = Code(.cardRemoved)
    /// The card's answers broke ISO/IEC 7816-4 (``apduError``: truncated status word,
    /// too many GET RESPONSEs, ...).
    public static let cardFailure = Code(.cardFailure)
    /// No response within the round-trip timeout, on every attempt.
    public static let roundTripTimeout = Code(.roundTripTimeout)
    /// The server kept sending scripts beyond the session's bound.
    public static let tooManyRoundTrips = Code(.tooManyRoundTrips)
    /// Redirections came back to a URI already visited, or exceeded the bound.
    public static let redirectLoop = Code(.redirectLoop)
    /// The connection failed (refused, dropped) on every attempt.
    public static let transportFailed = Code(.transportFailed)
    /// An event arrived after the session ended.
    public static let sessionFinished = Code(.sessionFinished)
    /// The caller cancelled the session.
    public static let cancelled = Code(.cancelled)
    /// A response body passed the HTTP client's limit while it arrived (``detail``: `response
    /// body over N bytes`); not retried, since the server would send it again.
    public static let bodyTooLarge = Code(.bodyTooLarge)

    /// The code's name, e.g. `malformedScript`.
    public var name: String {
      switch value {
      case .httpStatus: return "httpStatus"
      case .wrongContentType: return "wrongContentType"
      case .missingHeader: return "missingHeader"
      case .wrongProtocol: return "wrongProtocol"
      case .invalidTargetedApplication: return "invalidTargetedApplication"
      case .malformedScript: return "malformedScript"
      case .cardRemoved: return "cardRemoved"
      case .cardFailure: return "cardFailure"
      case .roundTripTimeout: return "roundTripTimeout"
      case .tooManyRoundTrips: return "tooManyRoundTrips"
      case .redirectLoop: return "redirectLoop"
      case .transportFailed: return "transportFailed"
      case .sessionFinished: return "sessionFinished"
      case .cancelled: return "cancelled"
      case .bodyTooLarge: return "bodyTooLarge"
      }
    }

    /// The name.
    public var description: String { name }
  }
}

extension RemoteManagementError: CustomStringConvertible {
  /// `malformedScript in round trip 2 (invalidTag at offset 3)`, and so on.
  public var description: String {
    var text = code.name + " in round trip " + String(round)
    if let httpStatus { text += " (HTTP " + String(httpStatus) + ")" }
    if let header { text += " (" + header + ")" }
    if let detail { text += " (" + detail + ")" }
    if let step { text += " at command " + String(step + 1) }
    if let apduError {
      text += " (" + apduError.code.name + " at offset " + String(apduError.offset) + ")"
    }
    return text
  }
}
