// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import Foundation
import ReaderConnection

/// What a ``BlueZReaderConnection`` session reports.
public enum BlueZConnectionEvent: Sendable, Hashable {
  /// A lifecycle event of the `ConnectionLifecycle` it runs.
  case lifecycle(ConnectionEvent)
  /// Scanning or the bus failed; the session is over.
  case failed(BlueZError)
}

/// Runs a `ConnectionLifecycle` over BlueZ: the scanner for discovery,
/// ``BlueZLink`` for `Connect`/`Disconnect` and link events, the monotonic clock
/// (``BlueZScanner/now()``) for its timers: after each step it sleeps until the machine's
/// `nextDeadline` or the next event, whichever comes first (no polling). A reboot action disconnects the device (rebooting a reader is a
/// vendor command; the drop that follows has reason `reboot`).
public final class BlueZReaderConnection: Sendable {
  enum Input: Sendable {
    case report(AdvertisingReport)
    case scanFailed(BlueZError)
    case link(BlueZLinkEvent)
    case connectResult(BlueZError?)
    /// The deadline the timer was set for has come.
    case deadline
    case disconnect
    case cancelReconnect(ReconnectHandle)
    case reboot
  }

  /// The session's events, ending after its terminal event (or a failure).
  public let events: AsyncStream<BlueZConnectionEvent>
  let inputs: AsyncStream<Input>.Continuation
  let runner: Task<Void, Never>

  /// Starts reconnect at launch for `serial`: discover it with the BlueZ scanner, connect,
  /// keep connected per `configuration`.
  public init(
    serial: String, profiles: [ReaderProfile], scanner: BlueZScanner,
    configuration: ConnectionLifecycle.Configuration = .init(),
    discovery: ReaderDiscovery.Configuration = .init()
  ) {
    let (events, output) = AsyncStream<BlueZConnectionEvent>.makeStream()
    let (inputStream, inputs) = AsyncStream<Input>.makeStream()
    self.events = events
    self.inputs = inputs
    runner = Task {
      var machine = ConnectionLifecycle(configuration: configuration)
      var scan: Task<Void, Never>?
      var link: BlueZLink?
      var linkTask: Task<Void, Never>?
      // Wakes the loop at the machine's next deadline; re-armed when that deadline changes.
      var timer: Task<Void, Never>?
      var armed: MonotonicInstant?
      defer {
        timer?.cancel()
        scan?.cancel()
        linkTask?.cancel()
        link?.close()
        inputs.finish()
        output.finish()
      }
      var iterator = inputStream.makeAsyncIterator()
      var out = machine.reconnectAtLaunch(
        serial: serial, profiles: profiles, discovery: discovery, at: BlueZScanner.now())
      while true {
        var ended = false
        for event in out.events {
          output.yield(.lifecycle(event))
          if event.isSessionEnd { ended = true }
        }
        for action in out.actions {
          switch action {
          case .startDiscovery:
            scan = Task {
              do throws(BlueZError) {
                for try await update in scanner.advertisements() { inputs.yield(.report(update.report)) }
              } catch {
                inputs.yield(.scanFailed(error))
              }
            }
          case .stopDiscovery:
            scan?.cancel()
            scan = nil
          case .connect(let reader):
            if link == nil {
              do throws(BlueZError) {
                let opened = try await BlueZLink.open(
                  busAddress: scanner.busAddress, adapter: scanner.adapter, device: reader.address)
                link = opened
                linkTask = Task {
                  for await event in opened.events { inputs.yield(.link(event)) }
                }
              } catch {
                output.yield(.failed(error))
                return
              }
            }
            if let link {
              Task {
                do throws(BlueZError) {
                  try await link.connect(
                    timeout: Int32(clamping: max(configuration.connectTimeout, .zero).wholeMilliseconds))
                  inputs.yield(.connectResult(nil))
                } catch {
                  inputs.yield(.connectResult(error))
                }
              }
            }
          case .cancelConnect:
            break
          case .disconnect, .reboot:
            if let link { Task { try? await link.disconnect() } }
          }
        }
        if ended { return }
        if machine.nextDeadline != armed {
          armed = machine.nextDeadline
          timer?.cancel()
          timer = armed.map { deadline in
            Task {
              let wait = deadline - BlueZScanner.now()
              if wait > .zero { try? await Task.sleep(for: wait) }
              if !Task.isCancelled { inputs.yield(.deadline) }
            }
          }
        }
        guard let input = await iterator.next() else { return }
        let now = BlueZScanner.now()
        switch input {
        case .report(let report): out = machine.receive(report, at: now)
        case .scanFailed(let error):
          output.yield(.failed(error))
          return
        case .link(.connected), .connectResult(nil): out = machine.linkConnected(at: now)
        case .link(.disconnected(let reason)): out = machine.linkDisconnected(reason, at: now)
        case .connectResult(let error?):
          out = machine.linkConnectFailed(
            .transport(name: error.name.isEmpty ? error.code.name : error.name), at: now)
        case .deadline:
          armed = nil
          out = machine.advance(to: now)
        case .disconnect: out = machine.disconnect(at: now)
        case .cancelReconnect(let handle): out = machine.cancelReconnect(handle, at: now)
        case .reboot: out = machine.reboot(at: now)
        }
      }
    }
  }

  /// Asks for a disconnect (never reconnected).
  public func disconnect() { inputs.yield(.disconnect) }

  /// Cancels the running reconnection.
  public func cancelReconnect(_ handle: ReconnectHandle) { inputs.yield(.cancelReconnect(handle)) }

  /// Asks for a reboot.
  public func reboot() { inputs.yield(.reboot) }

  /// Stops the session at once (no terminal event).
  public func cancel() { runner.cancel() }
}
