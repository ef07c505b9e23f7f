// SPDX-License-Identifier: Apache-2.0
/// An error of a reader, a transport or a session: a transport-agnostic ``Code``, a
/// sentence, and the transport's own code when there is one (for libnfc, `NFC_E...`).
public struct ReaderError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, independently of the transport: a struct over a private enum so codes
  /// can be added without breaking clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable, CaseIterable {
      case noReader, unsupportedFeature, deviceBusy, deviceFailure, timeout, tagLost, tagError
      case cancelled, sessionEnded, sessionAlreadyStarted, invalidArgument
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// No reader is present, or none can be opened.
    public static let noReader = Code(.noReader)
    /// The reader or the tag does not support what was asked (a tag type, a command).
    public static let unsupportedFeature = Code(.unsupportedFeature)
    /// The device is in use or could not be claimed.
    public static let deviceBusy = Code(.deviceBusy)
    /// The device failed or went away (unplugged, I/O error): sessions end on it.
    public static let deviceFailure = Code(.deviceFailure)
    /// The reader or the tag did not answer in time.
    public static let timeout = Code(.timeout)
    /// The tag left the field (or stopped answering) during an exchange.
    public static let tagLost = Code(.tagLost)
    /// The tag answered with an error (a NAK, a bad length, a refused write).
    public static let tagError = Code(.tagError)
    /// The operation was cancelled (the session was cancelled or a call was aborted).
    public static let cancelled = Code(.cancelled)
    /// A connection or tag handle was used after its session ended, or a tag handle
    /// after the tag was replaced.
    public static let sessionEnded = Code(.sessionEnded)
    /// `begin()` was called on a session that had already begun: sessions are single-use.
    public static let sessionAlreadyStarted = Code(.sessionAlreadyStarted)
    /// An argument was out of range (a page number, a length).
    public static let invalidArgument = Code(.invalidArgument)

    /// Every code, for tests and documentation.
    public static var allCodes: [Code] { Value.allCases.map(Code.init) }

    /// The stable camelCase name of the code, as used in logs and the JSON contract.
    public var name: String {
      switch value {
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
      }
    }

    /// The code's name.
    public var description: String { name }
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
