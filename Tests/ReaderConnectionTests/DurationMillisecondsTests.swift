// SPDX-License-Identifier: Apache-2.0
import MonotonicTime
import Testing

/// `Duration.milliseconds(clampedTo:)`: the one conversion to a C API's millisecond timeout.
@Suite("Duration in milliseconds, clamped")
struct DurationMillisecondsTests {
  @Test(arguments: [
    (Duration.milliseconds(1500), 1...Int64(Int32.max), Int64(1500)),
    (.milliseconds(500), 0...Int64(Int32.max), 500),  // not truncated to whole seconds
    (.microseconds(999), 1...Int64(Int32.max), 1),  // libnfc's at least 1
    (.microseconds(1999), 0...100, 1),  // the fraction dropped
    (.zero, 0...100, 0),
    (.seconds(-5), 0...100, 0),
    (.seconds(86_400), 0...Int64(Int32.max), 86_400_000),
    (.seconds(3_000_000), 0...Int64(Int32.max), Int64(Int32.max)),
    (.seconds(Int64.max), 0...0xFFFF_FFFE, 0xFFFF_FFFE),  // would overflow seconds * 1000
    (.seconds(Int64.min), 0...10, 0),
    (.seconds(Int64.max / 1000 - 1), 0...Int64.max, (Int64.max / 1000 - 1) * 1000),
  ])
  func convertsAndClamps(_ entry: (Duration, ClosedRange<Int64>, Int64)) {
    #expect(entry.0.milliseconds(clampedTo: entry.1) == entry.2, "\(entry.0)")
  }
}
