// SPDX-License-Identifier: Apache-2.0
/// What ``ReaderDiscovery`` tells its caller.
public enum DiscoveryEvent: Sendable, Hashable {
  /// Scan mode: the list of readers changed (one appeared, one went silent, or a
  /// reader's serial, name or battery changed). Sorted nearest first.
  case readersChanged([DiscoveredReader])
  /// Proximity or reconnect mode, first report: this reader is chosen; its serial is
  /// known, details may not be yet.
  case readerChosen(DiscoveredReader)
  /// Second report for the chosen reader: its details arrived (and again whenever they
  /// change).
  case readerDetails(DiscoveredReader)
  /// The chosen reader has not been heard for ``ReaderDiscovery/Configuration/lostAfter``;
  /// proximity and reconnect modes then search again.
  case readerLost(DiscoveredReader)
  /// The timeout passed with no matching reader (scan mode: none seen; proximity: none
  /// chosen; reconnect: the saved serial not seen). Discovery is finished.
  case notFound
  /// Scan mode: the timeout passed; these readers were in the list. Discovery is finished.
  case scanEnded([DiscoveredReader])
}
