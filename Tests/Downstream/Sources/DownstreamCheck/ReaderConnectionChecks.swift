// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import BlueZ
import ReaderConnection

func checkReaderConnection() {
  group("ConnectionLifecycle: an unexpected drop reconnects, a requested disconnect does not") {
    let reader = ReaderIdentity(
      serial: "TW000001", address: BluetoothAddress(0xC0_FF_EE_00_00_01), addressType: .randomDevice)
    var connection = ConnectionLifecycle()
    // The caller's clock: here, instants after an origin.
    let start = MonotonicInstant.origin
    var out = connection.connect(to: reader, at: start)
    expectEqual(out.actions, [.connect(reader)], "connect action")
    expectEqual(connection.nextDeadline, start + .seconds(10), "the attempt's timeout (default 10 s)")
    out = connection.linkConnected(at: start + .milliseconds(100))
    check(out.events.contains(.connected(reader)), "connected event")
    expectEqual(connection.status, .connected, "status after the link is up")
    out = connection.linkDisconnected(.linkLoss, at: start + .seconds(1))
    let started = out.events.contains { event in
      if case .reconnectStarted(reason: .linkLoss, handle: _) = event { return true }
      return false
    }
    check(started, "reconnectStarted(linkLoss) (auto-reconnect is on by default)")
    // Sleep until the next deadline: the first attempt's backoff ends and the transport is
    // asked to connect.
    guard let due = connection.nextDeadline else {
      check(false, "a reconnection attempt is scheduled")
      return
    }
    expectEqual(due, start + .seconds(2), "the first backoff (default 1 s)")
    out = connection.advance(to: due)
    check(out.actions.contains(.connect(reader)), "reconnect attempt connects")
    out = connection.linkConnected(at: due + .milliseconds(500))
    check(out.events.contains(.reconnectSucceeded), "reconnectSucceeded")
    out = connection.disconnect(at: due + .seconds(1))
    check(out.events.contains(.disconnected(.requestedByApp)), "disconnected(requestedByApp)")
    expectEqual(connection.nextDeadline, nil, "nothing is due after the session ends")
    out = connection.advance(to: start + .seconds(1_000))
    check(!out.actions.contains(.connect(reader)), "no reconnection after a requested disconnect")
  }
}

func checkBlueZ() async {
  await group("BlueZ: no bus at the address is a typed error") {
    let scanner = BlueZScanner(busAddress: "unix:path=/nonexistent/tapwire-downstream")
    do throws(BlueZError) {
      _ = try await scanner.adapters()
      check(false, "adapters() on a missing bus must throw")
    } catch {
      check(error.code == .noBus || error.code == .noBlueZ, "noBus or noBlueZ, got \(error.code)")
    }
  }
}
