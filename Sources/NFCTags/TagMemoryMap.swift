// SPDX-License-Identifier: Apache-2.0
/// The data area of a tag image and the lock and reserved areas inside and around it,
/// kept inline so that reading never allocates (T1T 1.2 §2.2, T2T 1.0 §2.2, T5T 1.0 §4).
///
/// Logical positions walk the data area from ``dataAreaStart`` to ``dataAreaEnd`` and skip
/// every byte of an area; physical positions are absolute image offsets.
///
/// A MIFARE Classic map (``init(mifareClassicSectors:dataAreaStart:dataAreaEnd:)``) also
/// skips every sector trailer and every sector not in its sector set (AN1304 §6.2); those
/// gaps are not listed in ``areas``.
public struct TagMemoryMap: Sendable {
  /// How many areas a map can hold.
  public static let capacity = 8

  /// Absolute offset of the first data-area byte.
  public let dataAreaStart: Int
  /// Absolute offset after the last data-area byte.
  public let dataAreaEnd: Int
  private var storage: InlineArray<8, TagMemoryArea>
  /// The number of areas.
  public private(set) var areaCount: Int
  /// MIFARE Classic: bit `s` set when sector `s`'s data blocks belong to the data area; 0
  /// for the other tag types.
  public private(set) var mifareClassicSectors: UInt64
  /// Whether Lock and Memory Control TLVs declare areas (Types 1, 2 and 5); MIFARE Classic
  /// defines neither (AN1304 §6.2: NULL, NDEF, Proprietary and Terminator TLVs only).
  public var allowsControlTLVs: Bool { mifareClassicSectors == 0 }

  /// A map over `dataAreaStart..<dataAreaEnd` with no areas.
  public init(dataAreaStart: Int, dataAreaEnd: Int) {
    self.dataAreaStart = dataAreaStart
    self.dataAreaEnd = max(dataAreaStart, dataAreaEnd)
    self.storage = InlineArray(repeating: TagMemoryArea(kind: .reserved, offset: 0, length: 0))
    self.areaCount = 0
    self.mifareClassicSectors = 0
  }

  /// A MIFARE Classic map over `dataAreaStart..<dataAreaEnd` (absolute offsets in a dump
  /// from block 0): only the data blocks of the sectors in `sectors` (bit `s` for sector
  /// `s`, 0...39) are data; trailers and other sectors are skipped.
  public init(mifareClassicSectors sectors: UInt64, dataAreaStart: Int, dataAreaEnd: Int) {
    self.init(dataAreaStart: dataAreaStart, dataAreaEnd: dataAreaEnd)
    self.mifareClassicSectors = sectors & (1 << 40 &- 1)
  }

  /// MIFARE Classic sector arithmetic (MF1S70 §8.6), for the sector gaps.
  private static func sector(ofBlock block: Int) -> Int {
    block < 128 ? block / 4 : 32 &+ (block &- 128) / 16
  }
  private static func firstBlock(ofSector sector: Int) -> Int {
    sector < 32 ? sector &* 4 : 128 &+ (sector &- 32) &* 16
  }
  private static func trailerBlock(ofSector sector: Int) -> Int {
    firstBlock(ofSector: sector) &+ (sector < 32 ? 3 : 15)
  }

  /// For a MIFARE Classic map, when `position` lies in a trailer or in a sector not in the
  /// set: the first data position after it (or the data area end); else `nil`.
  private func sectorGapEnd(_ position: Int) -> Int? {
    guard mifareClassicSectors != 0, position >= dataAreaStart, position < dataAreaEnd else { return nil }
    let block = position / 16
    var sector = Self.sector(ofBlock: block)
    if mifareClassicSectors & (1 << UInt64(sector)) != 0 && block != Self.trailerBlock(ofSector: sector) {
      return nil
    }
    sector &+= 1
    while sector < 40 && mifareClassicSectors & (1 << UInt64(sector)) == 0 { sector &+= 1 }
    guard sector < 40 else { return dataAreaEnd }
    return min(Self.firstBlock(ofSector: sector) &* 16, dataAreaEnd)
  }

  /// For a MIFARE Classic map, the trailer start of the sector holding data `position`.
  private func sectorRunEnd(_ position: Int) -> Int? {
    guard mifareClassicSectors != 0, position >= 0 else { return nil }
    return Self.trailerBlock(ofSector: Self.sector(ofBlock: position / 16)) &* 16
  }

  /// The area at `index` (0..<areaCount).
  public func area(at index: Int) -> TagMemoryArea? {
    guard index >= 0, index < areaCount else { return nil }
    return storage[index]
  }

  /// The areas as an array (allocates; for owned models and output).
  public var areas: [TagMemoryArea] {
    var result: [TagMemoryArea] = []
    for i in 0..<areaCount { result.append(storage[i]) }
    return result
  }

  /// Adds an area; `false` when the map is full (or past `limit`).
  @discardableResult
  public mutating func add(_ area: TagMemoryArea, limit: Int = TagMemoryMap.capacity) -> Bool {
    guard areaCount < min(limit, Self.capacity) else { return false }
    guard area.length > 0 else { return true }
    storage[areaCount] = area
    areaCount &+= 1
    return true
  }

  /// Whether `position` lies in an area.
  public func isExcluded(_ position: Int) -> Bool {
    if sectorGapEnd(position) != nil { return true }
    for i in 0..<areaCount where storage[i].offset <= position && position < storage[i].end {
      return true
    }
    return false
  }

  /// `position`, moved past any areas it stands in.
  public func normalized(_ position: Int) -> Int {
    var p = position
    var moved = true
    var rounds = 0
    while moved && rounds <= Self.capacity &+ 1 {
      moved = false
      rounds &+= 1
      if let next = sectorGapEnd(p) {
        p = next
        moved = true
      }
      for i in 0..<areaCount where storage[i].offset <= p && p < storage[i].end {
        p = storage[i].end
        moved = true
      }
    }
    return p
  }

  /// The first area start after `position` (or the data area end).
  private func nextBoundary(after position: Int) -> Int {
    var boundary = dataAreaEnd
    if let runEnd = sectorRunEnd(position), runEnd > position { boundary = min(boundary, runEnd) }
    for i in 0..<areaCount where storage[i].offset > position && storage[i].offset < boundary {
      boundary = storage[i].offset
    }
    return boundary
  }

  /// The physical position after `count` data bytes from `position` (itself normalized),
  /// or `nil` when fewer than `count` data bytes remain.
  public func advance(_ position: Int, by count: Int) -> Int? {
    guard count >= 0 else { return nil }
    var p = normalized(position)
    var left = count
    while left > 0 {
      guard p < dataAreaEnd else { return nil }
      let chunk = min(left, nextBoundary(after: p) &- p)
      p &+= chunk
      left &-= chunk
      p = normalized(p)
    }
    return p
  }

  /// The number of data bytes from `position` to the end of the data area.
  public func remaining(from position: Int) -> Int {
    var p = normalized(position)
    var total = 0
    while p < dataAreaEnd {
      let boundary = nextBoundary(after: p)
      total &+= boundary &- p
      p = normalized(boundary)
    }
    return total
  }

  /// The number of data bytes in the whole data area.
  public var dataByteCount: Int { remaining(from: dataAreaStart) }

  /// Whether any area lies inside `start..<end`.
  public func intersectsArea(_ start: Int, _ end: Int) -> Bool {
    if mifareClassicSectors != 0 && end > start {
      if normalized(start) != start || advance(start, by: end &- start) != end { return true }
    }
    for i in 0..<areaCount where storage[i].offset < end && start < storage[i].end { return true }
    return false
  }

  /// The physical positions of `count` data bytes from `position`, in order (allocates).
  public func positions(from position: Int, count: Int) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(max(0, count))
    var p = normalized(position)
    while result.count < count && p < dataAreaEnd {
      result.append(p)
      p = normalized(p &+ 1)
    }
    return result
  }
}
