// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// Reads TLV blocks one by one from a tag's data area, skipping lock and reserved areas
/// and adding the areas that Lock Control and Memory Control TLVs declare to its map
/// (T1T 1.2 §2.3, T2T 1.0 §2.3, T5T 1.0 §4.3).
///
/// The scanner reads structure only; ``TagTLVArea`` applies the rules about order and
/// count. It never allocates.
public struct TagTLVScanner: ~Escapable {
  /// The whole image.
  public let image: RawSpan
  /// The memory map, with areas added as control TLVs are read.
  public private(set) var map: TagMemoryMap
  /// The physical position of the next TLV.
  public private(set) var position: Int
  /// Whether the Terminator TLV was read or the data area ended.
  public private(set) var isFinished: Bool
  /// The lenient rule the last TLV broke, if any (its length was cut to the data area, or
  /// its control area was ignored).
  public private(set) var lastWarning: NFCTagWarning?
  let isLenient: Bool
  let areaLimit: Int

  /// A scanner over `image` from the start of `map`'s data area.
  @_lifetime(copy image)
  public init(image: RawSpan, map: TagMemoryMap, options: TagDecodingOptions = .strict) {
    self.image = image
    self.map = map
    self.position = map.normalized(map.dataAreaStart)
    self.isFinished = false
    self.lastWarning = nil
    self.isLenient = options.isLenient
    self.areaLimit = options.maximumMemoryAreas
  }

  /// A scanner over `image` resuming at `position` with the map built so far (a walk that
  /// stopped for want of bytes goes on where it stopped).
  @_lifetime(copy image)
  init(image: RawSpan, map: TagMemoryMap, position: Int, options: TagDecodingOptions) {
    self.image = image
    self.map = map
    self.position = position
    self.isFinished = false
    self.lastWarning = nil
    self.isLenient = options.isLenient
    self.areaLimit = options.maximumMemoryAreas
  }

  private func byte(_ position: Int) -> UInt8 { image.byte(at: position) ?? 0 }

  /// The next TLV, or `nil` after the Terminator or at the end of the data area.
  ///
  /// - Throws: ``NFCTagError/Code/truncatedTLV`` (offset: the T byte),
  ///   ``NFCTagError/Code/tlvLengthExceedsDataArea`` (offset: the length field),
  ///   ``NFCTagError/Code/invalidControlTLV`` (offset: the T byte; a value that is not
  ///   3 bytes), ``NFCTagError/Code/controlAreaOutsideImage`` (offset: the T byte; an area
  ///   that starts inside the data area and runs past the image; one that starts past the
  ///   data area is kept in the map and reported by ``TagTLVAreaView/notes``),
  ///   ``NFCTagError/Code/tooManyMemoryAreas`` (offset: the T byte).
  public mutating func next() throws(NFCTagError) -> TagTLV? {
    lastWarning = nil
    guard !isFinished else { return nil }
    let p = map.normalized(position)
    guard p < map.dataAreaEnd else {
      isFinished = true
      return nil
    }
    let type = TagTLVType(rawValue: byte(p))
    if type.isSingleByte {
      position = map.advance(p, by: 1) ?? map.dataAreaEnd
      if type == .terminator { isFinished = true }
      return TagTLV(type: type, offset: p, length: 0, valueOffset: position, lengthFieldSize: 0)
    }
    guard let lengthPosition = map.advance(p, by: 1), lengthPosition < map.dataAreaEnd else {
      throw NFCTagError(.truncatedTLV, offset: p)
    }
    var length = Int(byte(lengthPosition))
    var fieldSize = 1
    if length == 0xFF {
      guard let high = map.advance(lengthPosition, by: 1), high < map.dataAreaEnd,
        let low = map.advance(high, by: 1), low < map.dataAreaEnd
      else { throw NFCTagError(.truncatedTLV, offset: p) }
      length = Int(byte(high)) << 8 | Int(byte(low))
      fieldSize = 3
    }
    guard let valuePosition = map.advance(lengthPosition, by: fieldSize) else {
      throw NFCTagError(.truncatedTLV, offset: p)
    }
    let available = map.remaining(from: valuePosition)
    if length > available {
      guard isLenient && type == .ndef else {
        throw NFCTagError(.tlvLengthExceedsDataArea, offset: lengthPosition)
      }
      lastWarning = NFCTagWarning(.tlvLengthExceedsDataArea, offset: lengthPosition)
      length = available
    }
    if (type == .lockControl || type == .memoryControl) && map.allowsControlTLVs {
      try readControl(type, at: p, value: valuePosition, length: length)
    }
    position = map.advance(valuePosition, by: length) ?? map.dataAreaEnd
    return TagTLV(
      type: type, offset: p, length: length, valuePosition: map.normalized(valuePosition),
      lengthFieldSize: fieldSize)
  }

  private mutating func readControl(
    _ type: TagTLVType, at p: Int, value: Int, length: Int
  ) throws(NFCTagError) {
    guard length == 3, let second = map.advance(value, by: 1), let third = map.advance(second, by: 1)
    else {
      guard isLenient else { throw NFCTagError(.invalidControlTLV, offset: p) }
      lastWarning = NFCTagWarning(.invalidControlTLV, offset: p)
      return
    }
    let a = byte(map.normalized(value))
    let b = byte(second)
    let c = byte(third)
    let area: TagMemoryArea
    if type == .lockControl {
      let lock = TagLockControl(position: a, size: b, pageControl: c)
      area = TagMemoryArea(
        kind: .lock, offset: lock.byteAddress, length: lock.byteCount, bitCount: lock.bitCount,
        bytesLockedPerBit: lock.bytesLockedPerBit)
    } else {
      let memory = TagMemoryControl(position: a, size: b, pageControl: c)
      area = TagMemoryArea(kind: .reserved, offset: memory.byteAddress, length: memory.byteCount)
    }
    // An area may lie past the data area (T2T dynamic lock bytes), even past the image (a
    // dump of the header and data area only): it cannot overlap the data, so it is kept
    // and noted. One that starts in the data area and runs past the image is broken.
    if area.end > image.byteCount {
      guard area.offset >= map.dataAreaEnd else {
        guard isLenient else { throw NFCTagError(.controlAreaOutsideImage, offset: p) }
        lastWarning = NFCTagWarning(.controlAreaOutsideImage, offset: p)
        return
      }
      // Kept: ``TagTLVAreaView/notes`` reports it.
    }
    guard map.add(area, limit: areaLimit) else {
      throw NFCTagError(.tooManyMemoryAreas, offset: p)
    }
  }
}

extension TagTLV {
  init(type: TagTLVType, offset: Int, length: Int, valuePosition: Int, lengthFieldSize: Int) {
    self.init(
      type: type, offset: offset, length: length, valueOffset: valuePosition,
      lengthFieldSize: lengthFieldSize)
  }
}
