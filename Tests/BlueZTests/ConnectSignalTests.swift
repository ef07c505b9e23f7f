// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 35: `tapwire connect --bluez` stopped by SIGINT or SIGTERM while it reconnects (the
/// reader dropped and refuses every Connect), to either process of the tree: exit 128 + n
/// within the bound, `disconnected(requestedByApp)` printed, no `tapwire-nfc` left, and the
/// mock's last Device1 call a Disconnect (the attempt in flight aborted) or its Connect
/// (the stop came during the backoff wait, when no attempt runs).
extension DiscoverCommandTests {
  @Test(arguments: [(SIGINT, false), (SIGTERM, false), (SIGTERM, true)])
  func connectStopsWhileReconnecting(_ number: Int32, _ toChild: Bool) throws {
    let stack = try stack()
    defer { stack.stop() }
    let tree = try connected(stack)
    let child = try tree.child()
    try stack.send("refuse hci0 C0:00:00:00:00:01")
    try stack.send("drop hci0 C0:00:00:00:00:01")
    try tree.waitFor(#""event":"reconnectAttempt""#)
    let exit = try #require(
      tree.signal(number, to: toChild ? child : nil, label: "connect --bluez while reconnecting"))
    #expect(exit.status == 128 + number, "\(tree.output)")
    #expect(exit.seconds < ProcessTree.exitBound)
    #expect(ProcessTree.ends(child, within: 1))
    #expect(tree.output.contains(#""event":"disconnected","reason":"requestedByApp""#), "\(tree.output)")
    let calls = try stack.send("calls hci0 C0:00:00:00:00:01").split(separator: " ").dropFirst()
    print("connect --bluez while reconnecting: the mock's Device1 calls: \(calls.joined(separator: " "))")
    #expect(calls.first == "Connect")
    #expect(calls.last == "Disconnect" || calls.last == "Connect")
  }
}

/// Issue 35: `tapwire connect --bluez` stopped while its Connect is pending (the mock answers
/// Connect after 1.5 s; it serves nothing else meanwhile, where bluetoothd would answer a
/// Disconnect at once and fail the Connect — see `slow` in bluez_mock.py): the attempt is
/// aborted with Disconnect, `disconnected(requestedByApp)` is printed, exit 128 + n (after
/// about 1.3 s here: the mock answers the Disconnect only after the Connect).
extension DiscoverCommandTests {
  @Test(arguments: [(SIGINT, false), (SIGTERM, true)])
  func connectStopsWhileConnecting(_ number: Int32, _ toChild: Bool) throws {
    let stack = try stack()
    defer { stack.stop() }
    try stack.send("slow hci0 C0:00:00:00:00:01 1.5")
    let tree = try ProcessTree(
      Self.tapwire, ["connect", "--bluez", "--bus", stack.address, "--serial", "TW000001", "--json"])
    try tree.waitFor(#""status":"connecting""#)
    // The status comes before the Connect call goes out: give it time to reach the mock.
    usleep(300_000)
    let child = try tree.child()
    let exit = try #require(
      tree.signal(number, to: toChild ? child : nil, label: "connect --bluez while connecting"))
    #expect(exit.status == 128 + number, "\(tree.output)")
    #expect(exit.seconds < ProcessTree.exitBound)
    #expect(ProcessTree.ends(child, within: 1))
    #expect(!tree.output.contains(#""event":"connected""#), "\(tree.output)")
    let calls = try stack.send("calls hci0 C0:00:00:00:00:01").split(separator: " ").dropFirst()
    print("connect --bluez while connecting: the mock's Device1 calls: \(calls.joined(separator: " "))")
    #expect(Array(calls) == ["Connect", "Disconnect"])
  }

  /// `discover --bluez` without a timeout, stopped by a signal: the adapter's discovery is
  /// stopped (the mock's last Adapter1 call is StopDiscovery), exit 128 + n.
  @Test(arguments: [(SIGINT, false), (SIGTERM, true)])
  func discoveryWithoutATimeoutStopsDiscovery(_ number: Int32, _ toChild: Bool) throws {
    let stack = try stack()
    defer { stack.stop() }
    let tree = try ProcessTree(Self.tapwire, ["discover", "--bluez", "--bus", stack.address, "--scan"])
    try tree.waitFor("TW000001")
    let child = try tree.child()
    let exit = try #require(
      tree.signal(number, to: toChild ? child : nil, label: "discover --bluez without a timeout"))
    #expect(exit.status == 128 + number, "\(tree.output)")
    #expect(exit.seconds < ProcessTree.exitBound)
    #expect(ProcessTree.ends(child, within: 1))
    let calls = try stack.send("adaptercalls hci0").split(separator: " ").dropFirst()
    print("discover --bluez without a timeout: the mock's Adapter1 calls: \(calls.joined(separator: " "))")
    #expect(calls.contains("StartDiscovery"))
    #expect(calls.last == "StopDiscovery")
  }
}
