#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A GlobalPlatform Amendment B (RAM over HTTP) server for Tapwire's tests.

Serves the scenarios of a JSON description, each at /s/NAME: the first POST gets round 1's
command script (an ETSI TS 102 226 AA template) with X-Admin-Next-URI /s/NAME/1; the POST to
/s/NAME/K carries round K's response script (AB) and gets round K+1, or 204 No Content after
the last round.

    {"NAME": {"rounds": [ROUND, ...]}, ...}
    ROUND = {"commands": ["HEX", ...],          C-APDUs; "${K.I}" is round K's command I's
                                                response data (hex), "${K.I:A:B}" bytes A..B;
                                                "[HEX]" is Lc and the data HEX
             "target": "//aid/RID/PIX",         X-Admin-Targeted-Application (optional)
             "require": [[K, I, "9000"], ...],  round K's command I must have answered that
                                                status word, else the server answers 409
             "fault": {...}}                    optional, applied when serving this round:
      "status": N             answer N, empty body
      "contentType": "..."    this Content-Type instead of the command script type
      "omitProtocol": true    no X-Admin-Protocol header
      "delay": SECONDS        wait before answering (timeouts)
      "body": "HEX"           this body instead of the script (malformed scripts)
      "dropOnce": true        close the connection without answering, once; the retry
                              (X-Admin-Resume: true) is served normally
      "dropUnlessResumed": true
                              close the connection without answering every request that
                              is not a retry (no X-Admin-Resume: true): each session that
                              reaches this round loses one connection
      "redirect": "PATH"      302 to PATH (a path redirecting to itself loops)
      "trickle": SECONDS      send the script one byte every SECONDS (no idle gap is long,
                              the whole response is)
      "hugeBody": BYTES       a 200 with the script's headers and BYTES zero bytes as its body,
                              streamed as fast as the client reads (a client must refuse it
                              while it arrives); with "omitLength": true no Content-Length is
                              sent and the body ends when the connection closes; with
                              "redirect" the response is that 302 instead of a 200
      "truncate": true        declare the script's Content-Length, send half of it, close
      "headerFlood": N        N extra headers of 100 bytes each before the script; with
                              "headerBytes": B each header's value is B bytes instead

Each request is logged as one JSON line to --log: path, X-Admin-* headers, Content-Type,
body hex. Prints "listening PORT" once bound. --tls CERT KEY serves HTTPS.
"""
import argparse
import json
import re
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PROTOCOL = "globalplatform-remote-admin/1.0"
COMMAND_TYPE = "application/vnd.globalplatform.card-content-mgt;version=1.0"
CHUNK = 64 * 1024  # bytes per write of a hugeBody


def ber_length(n):
    if n < 0x80:
        return bytes([n])
    if n < 0x100:
        return bytes([0x81, n])
    return bytes([0x82, n >> 8, n & 0xFF])


def tlv(tag, value):
    return bytes([tag]) + ber_length(len(value)) + value


def read_length(data, i):
    first = data[i]
    if first < 0x80:
        return first, i + 1
    count = first & 0x7F
    return int.from_bytes(data[i + 1:i + 1 + count], "big"), i + 1 + count


def parse_response_script(body):
    """The R-APDUs of an AB template: [(data, sw hex)], and the executed count."""
    if not body or body[0] != 0xAB:
        raise ValueError("not an AB template")
    length, i = read_length(body, 1)
    end = i + length
    responses, count = [], None
    while i < end:
        tag = body[i]
        length, j = read_length(body, i + 1)
        value = body[j:j + length]
        if tag == 0x80:
            count = int.from_bytes(value, "big")
        elif tag == 0x23:
            responses.append((value[:-2].hex(), value[-2:].hex().upper()))
        i = j + length
    return count, responses


class State:
    def __init__(self, description, log_path):
        self.description = description
        self.log = open(log_path, "a", buffering=1)
        self.responses = {}  # (scenario, round) -> [(data hex, sw)]
        self.dropped = set()
        self.lock = threading.Lock()


def substitute(command, responses, scenario):
    def value(match):
        k, i = int(match.group(1)), int(match.group(2))
        data = bytes.fromhex(responses[(scenario, k)][i][0])
        if match.group(3) is not None:
            data = data[int(match.group(3)):int(match.group(4))]
        return data.hex()

    command = re.sub(r"\$\{(\d+)\.(\d+)(?::(\d+):(\d+))?\}", value, command)
    return re.sub(r"\[([0-9a-fA-F]*)\]", lambda m: "%02x" % (len(m.group(1)) // 2) + m.group(1), command)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, headers=(), body=b""):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        # One request per connection, so a dropped one is never a stale kept-alive connection
        # the client library silently retries.
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        state = self.server.state
        body = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
        entry = {"path": self.path, "body": body.hex()}
        for name in ("X-Admin-Protocol", "X-Admin-From", "X-Admin-Script-Status", "X-Admin-Resume",
                     "Content-Type"):
            if self.headers.get(name) is not None:
                entry[name] = self.headers.get(name)
        state.log.write(json.dumps(entry) + "\n")
        parts = self.path.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "s" or parts[1] not in state.description:
            return self.answer(404)
        scenario = parts[1]
        rounds = state.description[scenario]["rounds"]
        done = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
        resume = self.headers.get("X-Admin-Resume") == "true"
        if done > 0 and body:
            try:
                _, responses = parse_response_script(body)
            except (ValueError, IndexError):
                return self.answer(400)
            state.responses[(scenario, done)] = responses
            serve = done + 1
        elif done > 0 and resume:
            serve = done  # the script of this round did not finish: send it again
        elif done > 0:
            serve = done + 1  # a script status without a body
        else:
            serve = 1
        if serve > len(rounds):
            return self.answer(204, [("X-Admin-Protocol", PROTOCOL)])
        spec = rounds[serve - 1]
        for k, i, sw in spec.get("require", []):
            got = state.responses.get((scenario, k), [])
            if i >= len(got) or got[i][1] != sw.upper():
                return self.answer(409)
        fault = spec.get("fault", {})
        key = (scenario, serve)
        if (fault.get("dropOnce") and key not in state.dropped) or (fault.get("dropUnlessResumed")
                                                                   and not resume):
            state.dropped.add(key)
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if "delay" in fault:
            time.sleep(fault["delay"])
        if "status" in fault:
            return self.answer(fault["status"], [("X-Admin-Protocol", PROTOCOL)])
        if "redirect" in fault and "hugeBody" not in fault:
            return self.answer(302, [("Location", fault["redirect"])])
        if "body" in fault:
            script = bytes.fromhex(fault["body"])
        else:
            items = b"".join(tlv(0x22, bytes.fromhex(substitute(c.replace(" ", ""), state.responses, scenario)))
                             for c in spec["commands"])
            script = tlv(0xAA, items)
        headers = [("Content-Type", fault.get("contentType", COMMAND_TYPE)),
                   ("X-Admin-Next-URI", "/s/%s/%d" % (scenario, serve))]
        if not fault.get("omitProtocol"):
            headers.append(("X-Admin-Protocol", PROTOCOL))
        if "target" in spec:
            headers.append(("X-Admin-Targeted-Application", spec["target"]))
        for index in range(fault.get("headerFlood", 0)):
            headers.append(("X-Flood-%06d" % index, "f" * fault.get("headerBytes", 85)))
        if "hugeBody" in fault or fault.get("truncate"):
            if "redirect" in fault:
                self.send_response(302)
                self.send_header("Location", fault["redirect"])
            else:
                self.send_response(200)
                for name, value in headers:
                    self.send_header(name, value)
            total = fault.get("hugeBody", len(script))
            if not fault.get("omitLength"):
                self.send_header("Content-Length", str(total))
            self.send_header("Connection", "close")
            self.close_connection = True
            self.end_headers()
            if fault.get("truncate"):
                self.wfile.write(script[:len(script) // 2])
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            chunk = bytes(CHUNK)
            sent = 0
            while sent < total:
                piece = chunk if total - sent >= CHUNK else chunk[:total - sent]
                self.wfile.write(piece)
                sent += len(piece)
            return
        if "trickle" in fault:
            self.send_response(200)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(script)))
            self.send_header("Connection", "close")
            self.close_connection = True
            self.end_headers()
            self.wfile.flush()
            for byte in script:
                time.sleep(fault["trickle"])
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
            return
        self.answer(200, headers, script)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gave up (a timeout test) is expected; one line, no traceback.
        print("ram-server: connection from %s:%d ended early" % client_address, file=sys.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--description", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = parser.parse_args()
    with open(args.description) as f:
        description = json.load(f)
    server = Server(("127.0.0.1", args.port), Handler)
    server.state = State(description, args.log)
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("listening %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
