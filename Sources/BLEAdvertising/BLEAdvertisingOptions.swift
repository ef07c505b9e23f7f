// SPDX-License-Identifier: Apache-2.0
/// How advertising data, HCI events and btsnoop files are validated, and the bounds on
/// the state decoding may build up.
///
/// AD structures do not nest (Core Vol 3 Part C §11), and an HCI event inside a btsnoop
/// record is the only fixed two-level nesting, so there is no recursion to bound; the
/// limits here bound reassembly memory instead.
public struct BLEAdvertisingOptions: Sendable, Hashable {
  /// Whether a length running past the end is an error (`false`) or ends decoding there
  /// with a ``BLEAdvertisingWarning`` (`true`).
  ///
  /// Lenient decoding accepts: an AD structure whose length runs past the end (the data
  /// ends before it), trailing bytes after the last HCI report, a truncated last btsnoop
  /// record (the file ends before it), malformed HCI advertising events inside a capture
  /// (skipped), and reassembly limits (see ``ExtendedAdvertisingReassembler``).
  public var isLenient: Bool
  /// The largest extended advertising data reassembled from fragments, in octets
  /// (Core Vol 6 Part B §2.3.4.9: 1650 octets of chained data).
  public var maximumReassembledSize: Int
  /// The most advertisers (address and SID) with fragments pending at once.
  public var maximumPendingAdvertisers: Int

  /// Creates options.
  public init(
    isLenient: Bool = false, maximumReassembledSize: Int = 1650,
    maximumPendingAdvertisers: Int = 32
  ) {
    self.isLenient = isLenient
    self.maximumReassembledSize = maximumReassembledSize
    self.maximumPendingAdvertisers = maximumPendingAdvertisers
  }

  /// Every rule enforced; the default.
  public static let strict = BLEAdvertisingOptions()
  /// Field-tolerant decoding with warnings.
  public static let lenient = BLEAdvertisingOptions(isLenient: true)
}
