// SPDX-License-Identifier: Apache-2.0

extension Duration {
  /// This duration in whole milliseconds (the fraction dropped), clamped to `range`: the one
  /// conversion for C APIs that take a timeout in milliseconds (`poll`, libnfc's `int
  /// timeout`, pcsc-lite's `DWORD`). It never traps, whatever the duration: a negative one
  /// gives `range.lowerBound`, one past `range` gives `range.upperBound`.
  ///
  /// - Parameter range: the values the API accepts (`1...Int64(Int32.max)` for libnfc).
  public func milliseconds(clampedTo range: ClosedRange<Int64>) -> Int64 {
    let (seconds, attoseconds) = components
    // Past about 292 million years the product would overflow: clamp on the seconds first.
    if seconds >= Int64.max / 1000 { return range.upperBound }
    if seconds <= Int64.min / 1000 { return range.lowerBound }
    let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    return min(max(total, range.lowerBound), range.upperBound)
  }
}
