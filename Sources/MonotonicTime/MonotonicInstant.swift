// SPDX-License-Identifier: Apache-2.0
/// A point in time on the caller's monotonic clock, as the `Duration` since that clock's
/// origin.
///
/// Tapwire's sans-IO cores (`ReaderDiscovery`, `ConnectionLifecycle`, `AdminSession`,
/// `CardUpdatePlan`) read no clock: the caller passes the current instant to every call
/// (`at:`), and intervals in their settings are `Duration`s. One caller's clock feeds all of
/// them in the same unit. The origin is the caller's choice (boot, process start, the start of
/// a capture); only differences between instants of one clock mean anything.
///
/// It builds under Embedded Swift, where `ContinuousClock` does not exist. On platforms that
/// have it, ``init(_:origin:)`` converts a `ContinuousClock.Instant`.
///
/// Arithmetic saturates: an instant plus a huge interval is ``distantFuture``, never a trap,
/// so settings taken from a user cannot crash a core.
public struct MonotonicInstant: Sendable, Hashable, Comparable {
  /// The time since the clock's origin (negative before it).
  public var sinceOrigin: Duration

  /// The instant `sinceOrigin` after the clock's origin.
  public init(sinceOrigin: Duration) {
    self.sinceOrigin = sinceOrigin
  }

  /// The clock's origin.
  public static let origin = MonotonicInstant(sinceOrigin: .zero)

  /// A time later than any a caller's clock reaches (about 292 billion years after the origin).
  public static let distantFuture = MonotonicInstant(sinceOrigin: .seconds(Int64.max))

  /// A time earlier than any a caller's clock reaches.
  public static let distantPast = MonotonicInstant(sinceOrigin: .seconds(Int64.min))

  /// The instant `duration` after this one, clamped to ``distantPast``...``distantFuture``.
  public func advanced(by duration: Duration) -> MonotonicInstant {
    // Both operands clamped to the range first, so the sum cannot overflow Duration's 128 bits.
    let sum = Self.clamped(sinceOrigin) + Self.clamped(duration)
    return MonotonicInstant(sinceOrigin: Self.clamped(sum))
  }

  /// `duration` limited to ``distantPast``...``distantFuture``'s offsets.
  static func clamped(_ duration: Duration) -> Duration {
    min(max(duration, distantPast.sinceOrigin), distantFuture.sinceOrigin)
  }

  /// The interval from this instant to `other` (negative when `other` is earlier).
  public func duration(to other: MonotonicInstant) -> Duration {
    Self.clamped(other.sinceOrigin) - Self.clamped(sinceOrigin)
  }

  /// Whether `lhs` is earlier than `rhs`.
  public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
    lhs.sinceOrigin < rhs.sinceOrigin
  }

  /// The instant `rhs` after `lhs` (saturating, as ``advanced(by:)``).
  public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
    lhs.advanced(by: rhs)
  }

  /// The instant `rhs` before `lhs` (saturating, as ``advanced(by:)``).
  public static func - (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
    lhs.advanced(by: .zero - rhs)
  }

  /// The interval from `rhs` to `lhs`.
  public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
    rhs.duration(to: lhs)
  }
}

#if !hasFeature(Embedded)
  extension MonotonicInstant {
    /// The instant `instant` of a `ContinuousClock`, on the clock whose origin is `origin`
    /// (an adapter takes `ContinuousClock.now` once when it starts and uses it as the origin).
    public init(_ instant: ContinuousClock.Instant, origin: ContinuousClock.Instant) {
      self.init(sinceOrigin: origin.duration(to: instant))
    }

    /// The `ContinuousClock` instant this is, on the clock whose origin is `origin`.
    public func continuousClockInstant(origin: ContinuousClock.Instant) -> ContinuousClock.Instant {
      origin.advanced(by: sinceOrigin)
    }
  }
#endif

extension Duration {
  /// The value in whole microseconds, rounded toward zero and clamped to `Int64`
  /// (for wire formats and logs that count µs).
  public var wholeMicroseconds: Int64 {
    let (seconds, attoseconds) = components
    let limit = Int64.max / 1_000_000
    if seconds > limit { return .max }
    if seconds < -limit { return .min }
    return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
  }

  /// The value in whole milliseconds, rounded toward zero and clamped to `Int64`.
  public var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    let limit = Int64.max / 1_000
    if seconds > limit { return .max }
    if seconds < -limit { return .min }
    return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
  }
}
