// SPDX-License-Identifier: Apache-2.0
import RemoteManagement
import RemoteManagementHTTP

func checkRemoteManagement() {
  group("RemoteManagement: the first POST, then 204 No Content ends the session") {
    var session = AdminSession(AdminSessionConfiguration(serverURI: "http://127.0.0.1:9/start"))
    guard case .send(let request, let deadline) = session.next(at: .origin) else {
      check(false, "the first action is a POST")
      return
    }
    expectEqual(request.method, "POST", "method")
    expectEqual(request.uri, "http://127.0.0.1:9/start", "request URI")
    expectEqual(
      request.header(AdminProtocol.protocolHeader), AdminProtocol.protocolVersion, "X-Admin-Protocol")
    expectEqual(deadline, .origin + .seconds(30), "the round-trip deadline (default 30 s)")
    let answered = MonotonicInstant.origin + .milliseconds(5)
    session.receive(AdminResponse(statusCode: AdminProtocol.statusNoContent), at: answered)
    guard case .finished(let summary) = session.next(at: answered) else {
      check(false, "204 ends the session")
      return
    }
    expectEqual(summary.rounds, 0, "command scripts processed")
    expectEqual(summary.requests, 1, "POSTs sent")
    // The HTTP adapter is usable from a dependent (nothing is sent here).
    let client = URLSessionAdminClient(maximumBodySize: 4096)
    expectEqual(client.maximumBodySize, 4096, "URLSessionAdminClient body bound")
  }
}
