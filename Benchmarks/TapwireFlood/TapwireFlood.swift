// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import BlueZ
import DaemonStack
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The BlueZ scanner end to end under a D-Bus flood: a private system bus with
/// python3-dbusmock's `bluez5` template in a network namespace, a crowd of devices advertising
/// the example reader profile, and `Tests/Tools/bluez_flood.py` sending `PropertiesChanged`
/// (RSSI and manufacturer data) round robin over them as fast as it can, from the mock (the
/// owner of `org.bluez`). `BlueZScanner` feeds every update to a `ReaderDiscovery` in scan
/// mode, as `tapwire discover` does.
///
/// Prints the signals sent, handled by the scanner, delivered to `ReaderDiscovery`, dropped by
/// the scanner's buffer (counted, ``BlueZAdvertisements/droppedUpdates``) and lost on the bus
/// (sent and never handled), the wall-clock rate, and the rate per second of this process's
/// CPU time (the scanner's bus thread and the discovery task: the rate on one core).
///
///     swift run -c release TapwireFlood [--devices 300] [--signals 200000]
@main
struct TapwireFlood {
  static func main() async throws {
    var devices = 300
    var signals = 200_000
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
      guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
        print("usage: TapwireFlood [--devices N (1-65535)] [--signals N]")
        exit(2)
      }
      switch argument {
      case "--devices" where value <= 0xFFFF: devices = value
      case "--signals": signals = value
      default:
        print("usage: TapwireFlood [--devices N (1-65535)] [--signals N]")
        exit(2)
      }
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let flooder = root.appendingPathComponent("Tests/Tools/bluez_flood.py").path
    let directory = "/tmp/tapwire-flood-\(getpid())"
    let namespace = try DaemonNamespace(
      directory: directory, namespaces: .network, foreground: "bluez_flood.py",
      script: PrivateSystemBus.startScript(directory: directory) + """
        /usr/bin/python3 -m dbusmock --system --template bluez5 > \(directory)/mock.log 2>&1 &
        echo "pid $!"
        exec /usr/bin/python3 \(flooder)
        """
    ) {
      try PrivateSystemBus.configuration(directory: directory)
        .write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
    }
    defer { namespace.stop() }
    func ask(_ command: String) throws -> [Substring] {
      namespace.write(line: command)
      let answer = try namespace.line(timeout: .seconds(3600))
      guard answer.hasPrefix("ok") else { throw DaemonStackError("\(command): \(answer)") }
      return answer.split(separator: " ").dropFirst().map { $0 }
    }
    _ = try ask("crowd hci0 \(devices)")

    let updates = BlueZScanner(busAddress: PrivateSystemBus.address(directory: directory)).advertisements()
    let delivered = Atomic<Int>(0)
    let readers = Atomic<Int>(0)
    // Nanoseconds the consumer spent in ReaderDiscovery.receive, and between updates
    // (awaiting the next one).
    let discoveryNanoseconds = Atomic<Int>(0)
    // Detached: on the cooperative pool, not the main actor `main` runs on (whose queue the
    // polling below shares).
    let consumer = Task.detached {
      var discovery = ReaderDiscovery(
        profiles: [.example], mode: .scan,
        configuration: .init(timeout: nil, lostAfter: .seconds(60), maximumDevices: devices))
      _ = discovery.start(at: BlueZScanner.now())
      do {
        for try await update in updates {
          let before = ContinuousClock.now
          _ = discovery.receive(update.report, at: BlueZScanner.now())
          let spent = ContinuousClock.now - before
          discoveryNanoseconds.add(
            Int(spent.components.seconds) * 1_000_000_000 + Int(spent.components.attoseconds / 1_000_000_000),
            ordering: .relaxed)
          delivered.add(1, ordering: .relaxed)
        }
      } catch {
        print("the scan failed: \(error)")
      }
      // Once, at the end: the list is built on demand.
      readers.store(discovery.readers.count, ordering: .relaxed)
    }
    // The crowd as GetManagedObjects reports it at the start.
    let seenBy = ContinuousClock.now + .seconds(30)
    while updates.handledSignals < devices && ContinuousClock.now < seenBy {
      try await Task.sleep(for: .milliseconds(20))
    }
    let initial = updates.handledSignals
    let startWall = ContinuousClock.now
    let startCPU = cpuSeconds()
    let answer = try ask("flood hci0 \(devices) \(signals)")
    let sendSeconds = Double(answer.last ?? "") ?? 0
    // Everything sent is handled, or nothing more comes for 3 s.
    var last = updates.handledSignals
    var quietSince = ContinuousClock.now
    while updates.handledSignals - initial < signals && ContinuousClock.now - quietSince < .seconds(3) {
      try await Task.sleep(for: .milliseconds(10))
      if updates.handledSignals != last {
        last = updates.handledSignals
        quietSince = ContinuousClock.now
      }
    }
    // The consumer's backlog (at most the buffer) drains too.
    while delivered.load(ordering: .relaxed) + updates.droppedUpdates < updates.reportedUpdates
      && ContinuousClock.now - quietSince < .seconds(6)
    {
      try await Task.sleep(for: .milliseconds(10))
    }
    let wall = seconds(quietSince - startWall)
    let cpu = cpuSeconds() - startCPU
    consumer.cancel()
    await consumer.value
    let handled = updates.handledSignals - initial
    let dropped = updates.droppedUpdates
    let lost = signals - handled
    print(
      """
      flood: \(devices) devices, \(signals) PropertiesChanged sent in \(format(sendSeconds)) s \
      (\(Int(Double(signals) / max(sendSeconds, 1e-9))) /s from the mock)
      scanner: \(handled) handled, \(delivered.load(ordering: .relaxed) - initial) delivered to ReaderDiscovery \
      (\(readers.load(ordering: .relaxed)) readers listed), \(dropped) dropped by the scanner's buffer \
      (counted), \(lost) lost on the bus
      rate: \(Int(Double(handled) / max(wall, 1e-9))) /s wall clock (\(format(wall)) s), \
      \(Int(Double(handled) / max(cpu, 1e-9))) /s per CPU second of this process (\(format(cpu)) s CPU)
      consumer: \(format(Double(discoveryNanoseconds.load(ordering: .relaxed)) / 1e9)) s in ReaderDiscovery.receive \
      (\(Int(Double(discoveryNanoseconds.load(ordering: .relaxed)) / 1e3 / Double(max(delivered.load(ordering: .relaxed), 1)))) µs \
      an update, wall clock)
      """)
  }

  /// This process's CPU time (user and system, every thread) in seconds.
  static func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
