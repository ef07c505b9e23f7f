// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCTags

/// Why a Type 3 NDEF operation failed: the reader's error (the tag left, refused a block,
/// the reader cannot pass FeliCa commands) or the tag's content (a malformed Attribute
/// Information Block or message, with its byte offset).
public enum Type3NDEFError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The transport failed.
  case reader(ReaderError)
  /// The tag's memory is not a valid Type 3 NDEF layout, or the operation does not fit it
  /// (`NFCTagError` codes and absolute offsets).
  case tag(NFCTagError)

  /// The underlying error's description.
  public var description: String {
    switch self {
    case .reader(let error): "reader: \(error)"
    case .tag(let error): "tag: \(error)"
    }
  }
}
