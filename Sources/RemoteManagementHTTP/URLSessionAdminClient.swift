// SPDX-License-Identifier: Apache-2.0
import Foundation
import RemoteManagement
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An `AdminHTTPClient` over `URLSession` (FoundationNetworking on
/// Linux): HTTP and HTTPS, redirections left to the `AdminSession`
/// (which detects loops), bodies bounded by ``maximumBodySize`` while they arrive, each request
/// cancelled at its deadline (a server that trickles bytes cannot hold the session past it).
///
/// What a server can make it hold:
/// - The response body: at most ``maximumBodySize`` bytes are kept. A `Content-Length` over
///   the limit is refused when the headers arrive, an undeclared body (read to the close)
///   when its count passes the limit; either is `AdminHTTPResult.bodyTooLarge(limit:)`, which
///   the session reports as `RemoteManagementError.Code.bodyTooLarge` (not retried) with the
///   `detail` `response body over N bytes`. The transfer is then
///   cancelled and whatever still arrives is dropped. FoundationNetworking hands the body
///   over in chunks of up to 16 KiB through the session's delegate queue, without
///   back-pressure, and a cancel takes effect on its own work queue: the chunks in flight
///   meanwhile are transient and dropped as they are delivered (the refusal never waits on
///   them; `tapwire admin` against 8 GiB streamed on loopback peaks where a one-round
///   session does, about 40 MB).
/// - The response headers: libcurl's bound, 300 KiB for all of them and 100 KiB for one
///   header line (libcurl 7.84 and later; Debian 12 ships 7.88), a failed connection.
/// - A connection that closes before the declared body is complete: a failed connection.
/// - The round trip: the result is `.timedOut` at the deadline whatever the transfer does;
///   a cancelled calling task ends it at once (`.connectionFailed("cancelled")`).
/// - A redirection's body (3xx) is outside the body bound: FoundationNetworking (Swift
///   6.3.1) keeps it itself, tells the delegate nothing until it is complete, and does not
///   end the transfer on `cancel()` while it streams. The session still gets `.timedOut` at
///   its deadline; the abandoned transfer reads on until the server closes (tens of MB in a
///   3 s round trip on loopback).
///
/// On Linux the certificate authorities are the system store's (FoundationNetworking gives
/// libcurl the first bundle it finds, `/etc/ssl/certs/ca-certificates.crt` on Debian); a
/// certificate that does not verify is a failed connection.
public struct URLSessionAdminClient: AdminHTTPClient {
  /// The session (its delegate refuses redirections and bounds the body).
  public let session: URLSession
  /// The most response body bytes accepted; a larger body is refused while it arrives
  /// (`AdminHTTPResult.bodyTooLarge(limit:)`).
  public var maximumBodySize: Int
  private let transfers: Transfers
  /// Invalidates ``session`` when the last copy of the client goes: a `URLSession` holds its
  /// delegate, and FoundationNetworking its libcurl handles, until it is invalidated, so a
  /// client made per session would otherwise keep them all (about 130 KiB each, and
  /// FoundationNetworking's socket sources, which then answer for a later session's reused
  /// descriptors).
  private let lifetime: SessionLifetime

  /// Creates a client with an ephemeral configuration.
  public init(maximumBodySize: Int = 1 << 20) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    let transfers = Transfers()
    session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    lifetime = SessionLifetime(session)
    self.transfers = transfers
    self.maximumBodySize = maximumBodySize
  }

  /// Sends `request`, giving up after `timeout` (at least 1 ms).
  public mutating func send(_ request: AdminRequest, timeout: Duration) async -> AdminHTTPResult {
    let milliseconds = max(timeout.wholeMilliseconds, 1)
    guard let url = URL(string: request.uri), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https"
    else { return .connectionFailed("not an http or https URI: \(request.uri)") }
    var urlRequest = URLRequest(url: url)
    urlRequest.httpMethod = request.method
    // The deadline is this client's own (below). FoundationNetworking (Swift 6.3.1) arms a
    // timer of its own for `timeoutInterval` with `Int(timeoutInterval) * 1000` milliseconds:
    // the fraction is dropped, and an interval under a second becomes a timer of 1 ms that
    // fails the request (`URLError.timedOut`) unless it has finished by then, which on
    // loopback about half the requests have. Its timer gets the next whole second after the
    // deadline, so it never fires first.
    urlRequest.timeoutInterval = Double(milliseconds / 1000 + 1)
    for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
    urlRequest.httpBody = Data(request.body)
    let limit = max(maximumBodySize, 0)
    let session = self.session
    let transfers = self.transfers
    let task = session.dataTask(with: urlRequest)
    let id = task.taskIdentifier
    // A cancelled caller (SIGINT in `tapwire admin`) ends the request at once, as a failed
    // connection; the session then sees its task cancelled.
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        transfers.start(id, limit: limit, continuation: continuation)
        task.resume()
        // The whole request, not only each idle gap, ends by the session's deadline, even when
        // the task does not end on `cancel()` (see the type's notes on redirections). A task
        // that has ended is not cancelled: FoundationNetworking can act on a finished task's
        // cancel against the session's later transfers (seen as their instant failure).
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(clamping: milliseconds))) {
          if transfers.expire(id) { task.cancel() }
        }
        if Task.isCancelled, transfers.end(id, with: .connectionFailed("cancelled")) { task.cancel() }
      }
    } onCancel: {
      if transfers.end(id, with: .connectionFailed("cancelled")) { task.cancel() }
    }
  }
}

/// Owns a client's session: invalidates it (its running tasks finish first) when released.
final class SessionLifetime: Sendable {
  let session: URLSession
  init(_ session: URLSession) { self.session = session }
  deinit { session.finishTasksAndInvalidate() }
}

/// The session's delegate: one bounded body per task, each task's result handed to its
/// continuation exactly once; redirections refused, so the 3xx response reaches the session.
final class Transfers: NSObject, URLSessionDataDelegate, Sendable {
  private struct Transfer {
    var continuation: CheckedContinuation<AdminHTTPResult, Never>
    var limit: Int
    var body: [UInt8] = []
  }

  private let transfers = Mutex<[Int: Transfer]>([:])

  func start(_ id: Int, limit: Int, continuation: CheckedContinuation<AdminHTTPResult, Never>) {
    transfers.withLock { $0[id] = Transfer(continuation: continuation, limit: limit) }
  }

  /// Ends the transfer `id` with `.timedOut` if it has not ended yet; whether it had not.
  func expire(_ id: Int) -> Bool {
    guard let transfer = transfers.withLock({ $0.removeValue(forKey: id) }) else { return false }
    transfer.continuation.resume(returning: .timedOut)
    return true
  }

  /// Ends the transfer `id` with `result` if it has not ended yet; whether it had not.
  func end(_ id: Int, with result: AdminHTTPResult) -> Bool {
    guard let transfer = transfers.withLock({ $0.removeValue(forKey: id) }) else { return false }
    transfer.continuation.resume(returning: result)
    return true
  }

  /// Ends the transfer of `task` with a refused body: the result now, the cancel off this
  /// (delegate) queue. `cancel()` waits for the session's work queue; waiting here would stop
  /// this queue from dropping the chunks still arriving, which would pile up in memory.
  private func refuse(
    _ task: URLSessionTask, limit: Int, continuation: CheckedContinuation<AdminHTTPResult, Never>
  ) {
    continuation.resume(returning: .bodyTooLarge(limit: limit))
    DispatchQueue.global().async { task.cancel() }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    // FoundationNetworking ignores the disposition: a refusal has to cancel the task.
    completionHandler(.allow)
    let declared = response.expectedContentLength
    let refused = transfers.withLock { transfers -> Transfer? in
      guard let transfer = transfers[dataTask.taskIdentifier], declared > Int64(transfer.limit) else {
        return nil
      }
      return transfers.removeValue(forKey: dataTask.taskIdentifier)
    }
    if let refused { refuse(dataTask, limit: refused.limit, continuation: refused.continuation) }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let refused = transfers.withLock { transfers -> Transfer? in
      let id = dataTask.taskIdentifier
      guard var transfer = transfers[id] else { return nil }
      guard data.count <= transfer.limit - transfer.body.count else {
        return transfers.removeValue(forKey: id)
      }
      transfers[id] = nil  // append without a second copy of the body
      transfer.body.append(contentsOf: data)
      transfers[id] = transfer
      return nil
    }
    if let refused { refuse(dataTask, limit: refused.limit, continuation: refused.continuation) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    transfer.continuation.resume(returning: Self.result(task.response, body: transfer.body, error: error))
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  static func result(_ response: URLResponse?, body: [UInt8], error: Error?) -> AdminHTTPResult {
    if let error = error as? URLError {
      // A cancel is the whole-request deadline (the request timeout is an idle one); a
      // refused body has had its result already.
      let timedOut = error.code == .timedOut || error.code == .cancelled
      return timedOut ? .timedOut : .connectionFailed(error.localizedDescription)
    }
    if let error { return .connectionFailed("\(error)") }
    guard let http = response as? HTTPURLResponse else { return .connectionFailed("not an HTTP response") }
    var headers: [AdminHeaderField] = []
    for (name, value) in http.allHeaderFields {
      headers.append(AdminHeaderField("\(name)", "\(value)"))
    }
    return .response(AdminResponse(statusCode: http.statusCode, headers: headers, body: body))
  }
}
