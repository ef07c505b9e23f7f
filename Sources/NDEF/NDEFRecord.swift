// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An owned NDEF record, for building and editing (NFC Forum NDEF 1.0, §3.2).
///
/// Holds one logical record: a chunked record read from the wire becomes one `NDEFRecord`
/// with its payload assembled. Chunking is an encoding choice
/// (``NDEFEncodingOptions/maximumChunkPayloadSize``).
public struct NDEFRecord: Sendable, Hashable {
  /// The Type Name Format.
  public var typeNameFormat: TypeNameFormat
  /// The TYPE field.
  public var type: [UInt8]
  /// The ID field; empty for none (IL is then clear).
  public var id: [UInt8]
  /// The payload.
  public var payload: [UInt8]

  /// Creates a record.
  public init(
    typeNameFormat: TypeNameFormat, type: [UInt8] = [], id: [UInt8] = [], payload: [UInt8] = []
  ) {
    self.typeNameFormat = typeNameFormat
    self.type = type
    self.id = id
    self.payload = payload
  }

  /// The Empty record (TNF 0x00, no type, id or payload): an empty message's only record.
  public static let empty = NDEFRecord(typeNameFormat: .empty)

  /// Copies a record view, assembling a chunked payload (at most `maximumPayloadSize`).
  ///
  /// - Throws: ``NDEFError/Code/payloadExceedsLimit`` when the payload is larger.
  public init(_ view: borrowing NDEFRecordView, maximumPayloadSize: Int = 16 << 20)
    throws(NDEFError)
  {
    self.typeNameFormat = view.typeNameFormat
    self.type = view.type.copiedBytes()
    self.id = view.id.copiedBytes()
    self.payload = try view.assembledPayload(maximumSize: maximumPayloadSize)
  }

  /// Checks the record against the rules strict decoding enforces (§3.2.6-§3.2.9).
  ///
  /// - Throws: ``NDEFError`` with `recordIndex` set to `index`: `emptyRecordNotEmpty`,
  ///   `unexpectedType`, `missingType`, `reservedTypeNameFormat`, `unchangedOutsideChunk`,
  ///   `typeTooLong`, `idTooLong` or `payloadTooLong`.
  public func validate(index: Int = 0) throws(NDEFError) {
    func fail(_ code: NDEFError.Code) -> NDEFError {
      NDEFError(code, offset: 0, recordIndex: index)
    }
    switch typeNameFormat {
    case .empty:
      guard type.isEmpty, id.isEmpty, payload.isEmpty else { throw fail(.emptyRecordNotEmpty) }
    case .unknown:
      guard type.isEmpty else { throw fail(.unexpectedType) }
    case .unchanged: throw fail(.unchangedOutsideChunk)
    case .reserved: throw fail(.reservedTypeNameFormat)
    default:
      guard !type.isEmpty else { throw fail(.missingType) }
    }
    guard type.count <= 255 else { throw fail(.typeTooLong) }
    guard id.count <= 255 else { throw fail(.idTooLong) }
    guard UInt64(payload.count) <= UInt64(UInt32.max) else { throw fail(.payloadTooLong) }
  }
}

/// Choices the NDEF encoder makes.
public struct NDEFEncodingOptions: Sendable, Hashable {
  /// Split payloads longer than this into chunks of at most this many bytes (§2.3.3);
  /// `nil` (the default) never chunks.
  public var maximumChunkPayloadSize: Int?

  /// Creates options.
  public init(maximumChunkPayloadSize: Int? = nil) {
    self.maximumChunkPayloadSize = maximumChunkPayloadSize
  }

  /// No chunking: the canonical encoding.
  public static let canonical = NDEFEncodingOptions()
}
