// SPDX-License-Identifier: Apache-2.0
/// A failure to read or check what a tag presents (an originality signature, a SUN URL):
/// what rule was broken, and where.
///
/// Parsing errors carry the absolute byte offset of the first offending byte in the input
/// (the UTF-8 bytes of a URL, or of a hex string); a value of the wrong length is reported at
/// its first byte. Errors that concern no input position (a key of the wrong length, a crypto
/// provider failure) carry offset 0.
public struct TagTrustError: Error, Sendable, Hashable {
  /// The rule that was broken.
  public let code: Code
  /// Absolute byte offset of the first offending byte in the input, or 0.
  public let offset: Int

  /// Creates an error with a code and the offset it applies to.
  public init(_ code: Code, offset: Int = 0) {
    self.code = code
    self.offset = offset
  }

  /// An error code: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable {
      case invalidHex, invalidKeyLength, invalidURL, missingParameter, duplicateParameter
      case invalidParameterLength, cryptoFailure, invalidUIDLength, invalidCertificate
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// A hex value has a character other than `0-9`, `A-F`, `a-f`, or an odd number of digits
    /// (reported at the first bad character, or at the value's start for an odd count).
    public static let invalidHex = Code(.invalidHex)
    /// AN12196 §3.3: an SDM key that is not 16 bytes (AES-128).
    public static let invalidKeyLength = Code(.invalidKeyLength)
    /// RFC 3986 §3.4: the URL has no query (`?`) to find SUN parameters in, or a query
    /// parameter without `=`.
    public static let invalidURL = Code(.invalidURL)
    /// AN12196 §3.4: the SDMMAC parameter (`cmac`, `c`), or both the encrypted PICC data
    /// (`picc_data`, `e`) and the plain UID (`uid`), are missing.
    public static let missingParameter = Code(.missingParameter)
    /// A SUN parameter appears twice in the query (reported at the second one).
    public static let duplicateParameter = Code(.duplicateParameter)
    /// AN12196 §3.4, AN12321 §3: a SUN value of a length the tag never mirrors: PICC data not
    /// 16 (AES) or 24 (LRP) bytes, SDMMAC not 8, encrypted file data not whole 16-byte blocks,
    /// a plain UID not 7 bytes or a plain counter not 3.
    public static let invalidParameterLength = Code(.invalidParameterLength)
    /// The crypto provider failed (a curve or cipher it does not offer, a failure of its library).
    public static let cryptoFailure = Code(.cryptoFailure)
    /// An originality check was asked for an empty UID, or one longer than 10 bytes
    /// (ISO/IEC 14443-3 §6.5.4 triple size; ISO/IEC 15693-3 §4.1 has 8).
    public static let invalidUIDLength = Code(.invalidUIDLength)

    /// A trust anchor is not a certificate the provider can read (X.509 DER, RFC 5280 §4).
    public static let invalidCertificate = Code(.invalidCertificate)

    /// The code's name, e.g. `missingParameter`.
    public var name: String {
      switch value {
      case .invalidHex: "invalidHex"
      case .invalidKeyLength: "invalidKeyLength"
      case .invalidURL: "invalidURL"
      case .missingParameter: "missingParameter"
      case .duplicateParameter: "duplicateParameter"
      case .invalidParameterLength: "invalidParameterLength"
      case .cryptoFailure: "cryptoFailure"
      case .invalidUIDLength: "invalidUIDLength"
      case .invalidCertificate: "invalidCertificate"
      }
    }

    /// The code's name.
    public var description: String { name }
  }
}
