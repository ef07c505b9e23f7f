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
