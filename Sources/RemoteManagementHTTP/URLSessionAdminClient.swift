// SPDX-License-Identifier: Apache-2.0
import Foundation
import RemoteManagement

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An `AdminHTTPClient` over `URLSession` (FoundationNetworking on
/// Linux): HTTP and HTTPS, redirections left to the `AdminSession`
/// (which detects loops), bodies bounded by ``maximumBodySize``, each request cancelled at
/// its deadline (a server that trickles bytes cannot hold the session past it).
///
/// On Linux the certificate authorities are the system store's (FoundationNetworking gives
/// libcurl the first bundle it finds, `/etc/ssl/certs/ca-certificates.crt` on Debian); a
/// certificate that does not verify is a failed connection.
public struct URLSessionAdminClient: AdminHTTPClient {
  /// The session (its delegate refuses redirections).
  public let session: URLSession
  /// The most response body bytes accepted; a larger body counts as a failed connection.
  public var maximumBodySize: Int

  /// Creates a client with an ephemeral configuration.
  public init(maximumBodySize: Int = 1 << 20) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
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
    urlRequest.timeoutInterval = Double(milliseconds) / 1000
    for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
    urlRequest.httpBody = Data(request.body)
    let limit = maximumBodySize
    let session = self.session
    return await withCheckedContinuation { continuation in
      let task = session.dataTask(with: urlRequest) { data, response, error in
        if let error = error as? URLError {
          // A cancel is the whole-request deadline below (the request timeout is an idle one).
          let timedOut = error.code == .timedOut || error.code == .cancelled
          continuation.resume(returning: timedOut ? .timedOut : .connectionFailed(error.localizedDescription))
          return
        }
        if let error {
          continuation.resume(returning: .connectionFailed("\(error)"))
          return
        }
        guard let http = response as? HTTPURLResponse else {
          continuation.resume(returning: .connectionFailed("not an HTTP response"))
          return
        }
        let body = [UInt8](data ?? Data())
        guard body.count <= limit else {
          continuation.resume(returning: .connectionFailed("response body over \(limit) bytes"))
          return
        }
        var headers: [AdminHeaderField] = []
        for (name, value) in http.allHeaderFields {
          headers.append(AdminHeaderField("\(name)", "\(value)"))
        }
        continuation.resume(
          returning: .response(AdminResponse(statusCode: http.statusCode, headers: headers, body: body)))
      }
      task.resume()
      // The whole request, not only each idle gap, must end by the session's deadline.
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(clamping: milliseconds))) {
        task.cancel()
      }
    }
  }
}

/// Refuses every redirection, so the 3xx response reaches the session.
final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
