// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import BlueZ
import ReaderConnection

func checkReaderConnection() {
  group("ReaderConnection: an unexpected drop reconnects, a requested disconnect does not") {
    let reader = ReaderIdentity(
      serial: "TW000001", address: BluetoothAddress(0xC0_FF_EE_00_00_01), addressType: .randomDevice)
    var connection = ReaderConnection()
    var out = connection.connect(to: reader, at: 0)
    expectEqual(out.actions, [.connect(reader)], "connect action")
    out = connection.linkConnected(at: 100)
    check(out.events.contains(.connected(reader)), "connected event")
    expectEqual(connection.status, .connected, "status after the link is up")
    out = connection.linkDisconnected(.linkLoss, at: 1_000)
    let started = out.events.contains { event in
      if case .reconnectStarted(reason: .linkLoss, handle: _) = event { return true }
      return false
    }
    check(started, "reconnectStarted(linkLoss) (auto-reconnect is on by default)")
    // Time passes: the first attempt's backoff elapses and the transport is asked to connect.
    out = connection.advance(to: 1_000 + connection.configuration.backoff(beforeAttempt: 1))
    check(out.actions.contains(.connect(reader)), "reconnect attempt connects")
    out = connection.linkConnected(at: 2_500)
    check(out.events.contains(.reconnectSucceeded), "reconnectSucceeded")
    out = connection.disconnect(at: 3_000)
    check(out.events.contains(.disconnected(.requestedByApp)), "disconnected(requestedByApp)")
    out = connection.advance(to: 1_000_000)
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
