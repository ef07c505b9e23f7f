// SPDX-License-Identifier: Apache-2.0

import NFCWire

/// The answer to `CM_IOCTL_GET_FEATURE_REQUEST`: the reader's features, each with the
/// control code that invokes it (PC/SC Part 10 §2.2).
///
/// Each entry is a TLV: the feature tag (1 byte), length 4, the control code as a
/// big-endian 32-bit value. Order and duplicates are kept as the reader sent them.
public struct FeatureList: Sendable, Hashable {
  /// One feature and its control code.
  public struct Entry: Sendable, Hashable {
    /// The feature.
    public var feature: ReaderFeature
    /// The code to pass to `SCardControl` for it.
    public var controlCode: ControlCode
    /// Creates an entry.
    public init(feature: ReaderFeature, controlCode: ControlCode) {
      self.feature = feature
      self.controlCode = controlCode
    }
  }

  /// The entries, in the reader's order.
  public var entries: [Entry]

  /// Creates a list.
  public init(entries: [Entry]) { self.entries = entries }

  /// Parses a feature request answer (an empty answer is an empty list).
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedFeature`` when fewer than 2 bytes start an
  ///   entry, ``PCSCControlError/Code/invalidFeatureLength`` when a length is not 4 or its
  ///   value runs past the input (offset of the length byte).
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    var reader = ByteReader(bytes.span.bytes)
    var entries: [Entry] = []
    while !reader.isAtEnd {
      let start = reader.offset
      guard let tag = reader.readUInt8(), let length = reader.readUInt8() else {
        throw PCSCControlError(.truncatedFeature, offset: start)
      }
      guard length == 4, let code = reader.readUInt32BE() else {
        throw PCSCControlError(.invalidFeatureLength, offset: start &+ 1)
      }
      entries.append(Entry(feature: ReaderFeature(rawValue: tag), controlCode: ControlCode(rawValue: code)))
    }
    self.entries = entries
  }

  /// The control code of `feature` (the first entry for it), or nil when the reader lacks it.
  public func controlCode(for feature: ReaderFeature) -> ControlCode? {
    entries.first { $0.feature == feature }?.controlCode
  }

  /// The number of bytes ``encodedBytes()`` returns: 6 per entry.
  public var encodedCount: Int { entries.count &* 6 }

  /// The answer bytes, as a reader sends them.
  public func encodedBytes() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(encodedCount)
    for entry in entries {
      let code = entry.controlCode.rawValue
      bytes += [
        entry.feature.rawValue, 4, UInt8(truncatingIfNeeded: code >> 24),
        UInt8(truncatingIfNeeded: code >> 16),
        UInt8(truncatingIfNeeded: code >> 8), UInt8(truncatingIfNeeded: code),
      ]
    }
    return bytes
  }
}
