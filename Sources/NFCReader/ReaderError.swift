// SPDX-License-Identifier: Apache-2.0
/// An error of a reader, a transport or a session: a transport-agnostic ``Code``, a
/// sentence, and the transport's own code when there is one (for libnfc, `NFC_E...`).
public struct ReaderError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, independently of the transport.
  public struct Code: RawRepresentable, Sendable, Hashable {
    /// The raw value.
    public var rawValue: UInt8
    /// Creates a code from its raw value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// No reader is present, or none can be opened.
    public static let noReader = Code(rawValue: 1)
    /// The reader or the tag does not support what was asked (a tag type, a command).
    public static let unsupportedFeature = Code(rawValue: 2)
    /// The device is in use or could not be claimed.
    public static let deviceBusy = Code(rawValue: 3)
    /// The device failed or went away (unplugged, I/O error): sessions end on it.
    public static let deviceFailure = Code(rawValue: 4)
    /// The reader or the tag did not answer in time.
    public static let timeout = Code(rawValue: 5)
    /// The tag left the field (or stopped answering) during an exchange.
    public static let tagLost = Code(rawValue: 6)
    /// The tag answered with an error (a NAK, a bad length, a refused write).
    public static let tagError = Code(rawValue: 7)
    /// The operation was cancelled (the session was cancelled or a call was aborted).
    public static let cancelled = Code(rawValue: 8)
    /// A connection or tag handle was used after its session ended, or a tag handle
    /// after the tag was replaced.
    public static let sessionEnded = Code(rawValue: 9)
    /// `begin()` was called on a session that had already begun: sessions are single-use.
    public static let sessionAlreadyStarted = Code(rawValue: 10)
    /// An argument was out of range (a page number, a length).
    public static let invalidArgument = Code(rawValue: 11)

    /// A stable name for logs and JSON.
    public var name: String {
      switch self {
      case .noReader: "noReader"
      case .unsupportedFeature: "unsupportedFeature"
      case .deviceBusy: "deviceBusy"
      case .deviceFailure: "deviceFailure"
      case .timeout: "timeout"
      case .tagLost: "tagLost"
      case .tagError: "tagError"
      case .cancelled: "cancelled"
      case .sessionEnded: "sessionEnded"
      case .sessionAlreadyStarted: "sessionAlreadyStarted"
      case .invalidArgument: "invalidArgument"
      default: "unknown"
      }
    }
  }

  /// What went wrong.
  public var code: Code
  /// A sentence for a person.
  public var message: String
  /// The transport's own error code (libnfc: the negative `NFC_E...` value), if any.
  public var transportCode: Int32?
  /// The transport's name for ``transportCode`` (libnfc: `NFC_ETIMEOUT`, ...).
  public var transportCodeName: String?

  /// Creates an error.
  public init(_ code: Code, _ message: String, transportCode: Int32? = nil, transportCodeName: String? = nil)
  {
    self.code = code
    self.message = message
    self.transportCode = transportCode
    self.transportCodeName = transportCodeName
  }

  /// Whether the device itself failed: a session ends with
  /// ``SessionEnding/terminatedUnexpectedly(_:)`` on such an error.
  public var isDeviceFailure: Bool { code == .deviceFailure }

  /// `name: message (transport code)`.
  public var description: String {
    if let transportCodeName, let transportCode {
      return "\(code.name): \(message) (\(transportCodeName) \(transportCode))"
    }
    return "\(code.name): \(message)"
  }
}
