// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import NFCTags
import NFCWire

#if canImport(Glibc)
  import Glibc
#endif

/// `tapwire-vcard`: a virtual smart card for the vsmartcard `vpcd` reader driver of pcscd.
///
/// It reads commands on standard input, one a line, and answers each with one line:
///
///     insert ndef HEX [N]      a Type 4 tag holding the NDEF message HEX;    -> inserted
///                              with N, it leaves on the (N+1)th APDU
///     insert gp [N]            a GlobalPlatform-like card; with N, the card  -> inserted
///                              leaves (the socket closes) on the (N+1)th APDU
///     insert gp-cm [N]         the same with card content management        -> inserted
///                              (CardContent: INSTALL, STORE DATA, GET STATUS)
///     insert atr HEX           a card presenting the ATR HEX (2-33 bytes)    -> inserted
///                              that answers 6A81 to every APDU (a storage-card ATR
///                              for `tapwire pcsc atr`; no memory behind it yet)
///     insert storage KIND [PROFILE] [uid HEX] [image HEX] [after N] [addressing A] [signature HEX]
///                              a storage card behind a contactless reader's  -> inserted
///                              firmware (StorageCardReader): KIND ntag213,
///                              ntag215, ntag216, ultralight, ultralight-ev1,
///                              mfc-mini, mfc-1k, mfc-4k, iso15693, felica;
///                              PROFILE acs (default), omnikey, scm, transparent
///                              (FF C2), minimal; image: the
///                              whole memory; after N: it leaves on the
///                              (N+1)th APDU; addressing (iso15693): p1
///                              (default), p1p2 or byte; signature (Type 2):
///                              what READ_SIG answers
///     memory                   the last storage card's memory as it is now   -> memory HEX
///                              (MIFARE Classic trailers with their keys)
///     remove                   the card leaves                               -> removed
///     stored                   the NDEF file of the last Type 4 tag, in the  -> stored NLEN HEX
///                              field or gone: NLEN and the message it covers
///
/// vpcd protocol: each frame is a big-endian u16 length and a payload; a 1-byte payload is
/// a control (0 power off, 1 power on, 2 reset, 4 send the ATR), a longer one is a command
/// APDU answered with a response APDU. The card connects to vpcd as a TCP client
/// (`--port`, default 35963, on 127.0.0.1); closing the socket removes the card.
@main
struct VirtualCardMain {
  /// ISO 14443-4 card in a contactless PC/SC reader (PC/SC part 3 §3.1.3.2.3): T=1, no
  /// historical bytes.
  static let type4ATR: [UInt8] = [0x3B, 0x80, 0x80, 0x01, 0x01]
  /// A JCOP 2.4.1 card's ATR (T=1; historical bytes "JCOPv241").
  static let globalPlatformATR: [UInt8] = [
    0x3B, 0xF8, 0x13, 0x00, 0x00, 0x81, 0x31, 0xFE, 0x45, 0x4A, 0x43, 0x4F, 0x50, 0x76, 0x32, 0x34, 0x31,
    0xB7,
  ]

  enum Card {
    case ndef(Type4TagSimulator)
    case globalPlatform(GlobalPlatformLikeCard)
    /// Only an ATR: every APDU gets 6A81 (function not supported).
    case atrOnly
    /// A storage card behind a contactless reader's firmware (PC/SC Part 3).
    case storage(StorageCardReader)
  }

  static func main() {
    var port: UInt16 = 35963
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
      if argument == "--port", let value = arguments.popFirst().flatMap(UInt16.init) {
        port = value
      } else {
        FileHandle.standardError.write(Data("usage: tapwire-vcard [--port PORT]\n".utf8))
        exit(2)
      }
    }
    signal(SIGPIPE, SIG_IGN)
    var server = VirtualCardServer(port: port)
    server.run()
  }
}

/// The poll loop: standard input for commands, the vpcd socket for frames.
struct VirtualCardServer {
  let port: UInt16
  var socket: Int32 = -1
  var card: VirtualCardMain.Card?
  var atr: [UInt8] = []
  var apduCount = 0
  var leaveAfter: Int?
  var input: [UInt8] = []
  /// The last Type 4 tag as it is now, kept after it left (`stored`).
  var lastTag: Type4TagSimulator?
  /// The last storage card as it is now, kept after it left (`memory`).
  var lastStorage: StorageCardReader?

  init(port: UInt16) { self.port = port }

  mutating func run() {
    while true {
      var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
      if socket >= 0 { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
      guard poll(&fds, nfds_t(fds.count), -1) >= 0 else {
        if errno == EINTR { continue }
        return
      }
      if fds[0].revents != 0 {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(0, &buffer, buffer.count)
        guard count > 0 else {
          remove()
          return
        }
        input += buffer.prefix(count)
        while let newline = input.firstIndex(of: 0x0A) {
          let line = String(decoding: input[..<newline], as: UTF8.self)
          input.removeSubrange(...newline)
          command(line)
        }
      }
      if fds.count > 1, fds[1].revents != 0 { serveFrame() }
    }
  }

  func answer(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  mutating func command(_ line: String) {
    let words = line.split(separator: " ").map(String.init)
    switch words.first {
    case "insert" where words.count >= 2:
      remove()
      apduCount = 0
      leaveAfter = nil
      if words[1] == "ndef", words.count == 3 || words.count == 4, let message = Hex.bytes(words[2]) {
        let tag = Type4TagSimulator(message: message)
        card = .ndef(tag)
        lastTag = tag
        atr = VirtualCardMain.type4ATR
        leaveAfter = words.count == 4 ? Int(words[3]) : nil
      } else if words[1] == "gp" || words[1] == "gp-cm" {
        var gp = GlobalPlatformLikeCard()
        if words[1] == "gp-cm" { gp.content = CardContent() }
        card = .globalPlatform(gp)
        atr = VirtualCardMain.globalPlatformATR
        leaveAfter = words.count == 3 ? Int(words[2]) : nil
      } else if words[1] == "storage", words.count >= 3, let reader = Self.storageCard(words) {
        card = .storage(reader.reader)
        lastStorage = reader.reader
        atr = reader.reader.atr
        leaveAfter = reader.leaveAfter
      } else if words[1] == "atr", words.count == 3, let bytes = Hex.bytes(words[2]),
        (2...33).contains(bytes.count)
      {
        card = .atrOnly
        atr = bytes
      } else {
        answer("error unknown card")
        return
      }
      if connect() { answer("inserted") } else { answer("error cannot connect to vpcd on port \(port)") }
    case "remove":
      remove()
      answer("removed")
    case "memory":
      guard let reader = lastStorage else {
        answer("error no storage card")
        return
      }
      answer("memory " + Hex.string(reader.memory))
    case "stored":
      guard let tag = lastTag, tag.files.count > 1, tag.files[1].bytes.count >= 2 else {
        answer("error no Type 4 tag")
        return
      }
      let length = Int(tag.files[1].bytes[0]) << 8 | Int(tag.files[1].bytes[1])
      answer("stored \(length) " + Hex.string(tag.storedMessage() ?? []))
    default:
      answer("error unknown command")
    }
  }

  /// Connects to vpcd, retrying for up to 30 s while pcscd starts.
  mutating func connect() -> Bool {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { return false }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      let rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      if rc == 0 {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        socket = fd
        return true
      }
      close(fd)
      usleep(100_000)
    }
    return false
  }

  mutating func remove() {
    if socket >= 0 {
      shutdown(socket, Int32(SHUT_RDWR))
      close(socket)
    }
    socket = -1
    card = nil
  }

  mutating func readExactly(_ count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      // Acknowledge at once: vpcd writes a frame's length and its payload separately, and
      // its Nagle delay waits for this side's ACK (40 ms delayed otherwise, per APDU).
      var one: Int32 = 1
      setsockopt(socket, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
      let n = bytes.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + done, count - done, 0) }
      if n <= 0 { return nil }
      done += n
    }
    return bytes
  }

  mutating func send(_ payload: [UInt8]) {
    let frame =
      [UInt8(truncatingIfNeeded: payload.count >> 8), UInt8(truncatingIfNeeded: payload.count)] + payload
    var done = 0
    while done < frame.count {
      let n = frame.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + done, frame.count - done, 0) }
      if n <= 0 { return }
      done += n
    }
  }

  mutating func serveFrame() {
    guard let header = readExactly(2) else {
      // vpcd closed the connection; the card is out until the next insert.
      remove()
      return
    }
    let length = Int(header[0]) << 8 | Int(header[1])
    guard let payload = readExactly(length) else {
      remove()
      return
    }
    if payload.count == 1 {
      switch payload[0] {
      case 4: send(atr)
      case 0, 1, 2: resetCard()
      default: break
      }
      return
    }
    apduCount += 1
    if let leaveAfter, apduCount > leaveAfter {
      remove()
      answer("left after \(leaveAfter) APDUs")
      return
    }
    switch card {
    case .ndef(var tag):
      let reply = tag.respond(to: payload)
      card = .ndef(tag)
      lastTag = tag
      send(reply)
    case .globalPlatform(var gp):
      let reply = gp.respond(to: payload)
      card = .globalPlatform(gp)
      send(reply)
    case .atrOnly:
      send([0x6A, 0x81])
    case .storage(var reader):
      let reply = reader.respond(to: payload)
      card = .storage(reader)
      lastStorage = reader
      send(reply)
    case nil:
      send([0x6F, 0x00])
    }
  }

  mutating func resetCard() {
    if case .globalPlatform(var gp) = card {
      gp.reset()
      card = .globalPlatform(gp)
    }
    if case .storage(var reader) = card {
      reader.reset()
      card = .storage(reader)
      lastStorage = reader
    }
  }

  /// `insert storage KIND [PROFILE] [uid HEX] [image HEX] [after N] [addressing A]
  /// [signature HEX]`, or nil for a malformed line.
  static func storageCard(_ words: [String]) -> (reader: StorageCardReader, leaveAfter: Int?)? {
    var rest = words.dropFirst(3)
    var profile = StorageCardReader.Profile.acs
    if let first = rest.first, let named = StorageCardReader.Profile(rawValue: first) {
      profile = named
      rest = rest.dropFirst()
    }
    var uid: [UInt8]?
    var image: [UInt8]?
    var leaveAfter: Int?
    var addressing = "p1"
    var signature: [UInt8]?
    while let key = rest.popFirst() {
      guard let value = rest.popFirst() else { return nil }
      switch key {
      case "uid": uid = Hex.bytes(value)
      case "image": image = Hex.bytes(value)
      case "after": leaveAfter = Int(value)
      case "addressing": addressing = value
      case "signature":
        guard let bytes = Hex.bytes(value) else { return nil }
        signature = bytes
      default: return nil
      }
    }
    guard
      var reader = StorageCardReader.make(
        kind: words[2], profile: profile, uid: uid, image: image, addressing: addressing)
    else { return nil }
    if let signature {
      // READ_SIG's answer (a published UID and signature pair makes a genuine tag).
      guard case .type2(var tag) = reader.tag else { return nil }
      tag.signature = signature
      reader.tag = .type2(tag)
    }
    return (reader, leaveAfter)
  }
}
