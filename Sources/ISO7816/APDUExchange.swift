// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The transport-level exchange of one command APDU, without I/O: it says which bytes to
/// send next and digests each response (ISO/IEC 7816-4:2013 §5.1, §5.1.1.1, §7.6.1).
///
/// ```swift
/// var exchange = try APDUExchange(command: command)
/// while let bytes = exchange.nextCommand {
///   let reply = myCard.transmit(bytes)
///   if let response = try exchange.receive(reply) { return response }
/// }
/// ```
///
/// It chains long data, caps Ne or uses extended lengths, answers 61XX with GET RESPONSE
/// (concatenating the data) and 6CXX with a resend, each as ``APDUExchangeOptions`` allows
/// and within its bounds. 63CX and every other status word end the exchange unchanged.
public struct APDUExchange: Sendable {
  /// The command the caller asked for.
  public let command: CommandAPDU
  /// The options in force.
  public let options: APDUExchangeOptions
  /// The bytes to send next, or `nil` once the exchange has finished.
  public private(set) var nextCommand: [UInt8]?
  /// The number of commands handed out so far (chain links, GET RESPONSEs, resends).
  public private(set) var transmissionCount: Int = 0
  /// The number of GET RESPONSE commands sent.
  public private(set) var getResponseCount: Int = 0
  /// The number of 6CXX resends.
  public private(set) var resendCount: Int = 0

  private var segments: [CommandAPDU]
  private var segmentIndex = 0
  private var current: CommandAPDU
  private var data: [UInt8] = []
  private let encoding: CommandAPDU.LengthEncoding

  /// Plans the exchange of `command`.
  ///
  /// - Throws: ``APDUError/Code/commandTooLong`` when the data exceeds the card's limit and
  ///   chaining is off (or the class has no chaining bit),
  ///   ``APDUError/Code/invalidBlockSize`` for a limit below 1, and the encoder's errors
  ///   (``APDUError/Code/dataTooLong``, ``APDUError/Code/invalidExpectedLength``).
  public init(command: CommandAPDU, options: APDUExchangeOptions = .standard) throws(APDUError) {
    self.command = command
    self.options = options
    let ceiling = options.usesExtendedLength ? 65535 : 255
    let limit = min(options.maximumCommandDataLength, ceiling)
    guard limit >= 1 else { throw APDUError(.invalidBlockSize, offset: 0) }
    encoding = options.usesExtendedLength ? .shortest : .shortOnly
    var last = command
    if !options.usesExtendedLength, let ne = command.ne, ne > 256 {
      // Without extended lengths the rest arrives through 61XX and GET RESPONSE.
      last.ne = 256
    }
    _ = try command.apduCase(lengthEncoding: .shortest)
    var planned: [CommandAPDU] = []
    if command.data.count > limit {
      let chainClass = command.cla.withChaining(true)
      guard options.usesCommandChaining, chainClass != command.cla || command.cla.isChaining
      else { throw APDUError(.commandTooLong, offset: 0) }
      var start = 0
      while command.data.count - start > limit {
        var link = command
        link.cla = chainClass
        link.data = Array(command.data[start..<(start + limit)])
        link.ne = nil
        planned.append(link)
        start += limit
      }
      last.data = Array(command.data[start...])
      last.cla = command.cla.withChaining(false)
    }
    planned.append(last)
    segments = planned
    current = planned[0]
    nextCommand = try current.encodedBytes(lengthEncoding: encoding)
    transmissionCount = 1
  }

  /// Whether the exchange has finished.
  public var isFinished: Bool { nextCommand == nil }

  /// Digests the card's response to ``nextCommand``.
  ///
  /// - Returns: the final response (data concatenated over GET RESPONSEs, the last status
  ///   word), or `nil` when ``nextCommand`` holds the next bytes to send.
  /// - Throws: ``APDUError/Code/truncatedStatusWord`` for a response shorter than two bytes,
  ///   ``APDUError/Code/tooManyGetResponses``, ``APDUError/Code/tooManyRetries``,
  ///   ``APDUError/Code/responseTooLarge``, ``APDUError/Code/exchangeFinished`` after the
  ///   end. The exchange is finished after any error.
  public mutating func receive(_ bytes: RawSpan) throws(APDUError) -> ResponseAPDU? {
    guard nextCommand != nil else { throw APDUError(.exchangeFinished, offset: 0) }
    nextCommand = nil
    let response = try ResponseAPDUView(validating: bytes)
    let sw = response.statusWord
    if segmentIndex < segments.count - 1 {
      // Inside a chain: 9000 continues, anything else ends it with the card's answer.
      guard sw == .success else { return ResponseAPDU(response) }
      segmentIndex += 1
      try send(segments[segmentIndex])
      return nil
    }
    if let exact = sw.exactLength, options.handlesWrongLength {
      // 6CXX: resend the same command with the Ne the card asked for.
      guard resendCount < options.maximumResendCount else {
        throw APDUError(.tooManyRetries, offset: 0)
      }
      resendCount += 1
      var again = current
      again.ne = exact
      try send(again)
      return nil
    }
    guard
      Checked.add(data.count, response.data.byteCount).map({ $0 <= options.maximumResponseSize })
        ?? false
    else { throw APDUError(.responseTooLarge, offset: 0) }
    data.append(contentsOf: response.data.copiedBytes())
    if let available = sw.bytesAvailable, options.handlesResponseAvailable {
      guard getResponseCount < options.maximumGetResponseCount else {
        throw APDUError(.tooManyGetResponses, offset: 0)
      }
      getResponseCount += 1
      // The interindustry class of the command's logical channel (§5.1.1, §7.6.1); a
      // class without a channel falls back to the basic channel.
      let cla = command.cla.interindustryForChannel ?? .interindustry
      try send(CommandAPDU(cla: cla, ins: .getResponse, p1: 0, p2: 0, ne: available))
      return nil
    }
    return ResponseAPDU(data: data, statusWord: sw)
  }

  /// Digests a response given as an array.
  ///
  /// - Throws: as ``receive(_:)-(RawSpan)``.
  public mutating func receive(_ bytes: [UInt8]) throws(APDUError) -> ResponseAPDU? {
    try receive(bytes.span.bytes)
  }

  private mutating func send(_ next: CommandAPDU) throws(APDUError) {
    current = next
    nextCommand = try next.encodedBytes(lengthEncoding: encoding)
    transmissionCount += 1
  }
}

extension APDUExchange {
  /// Runs the whole exchange of `command` over a synchronous transport.
  ///
  /// - Throws: ``APDUExchangeError/transport(_:)`` with the transport's error, or
  ///   ``APDUExchangeError/apdu(_:)`` with the errors of ``init(command:options:)`` and
  ///   ``receive(_:)-(RawSpan)``.
  public static func run<Transport: BlockingAPDUTransport>(
    _ command: CommandAPDU, over transport: inout Transport,
    options: APDUExchangeOptions = .standard
  ) throws(APDUExchangeError<Transport.Failure>) -> ResponseAPDU {
    var exchange: APDUExchange
    do { exchange = try APDUExchange(command: command, options: options) } catch {
      throw .apdu(error)
    }
    while let bytes = exchange.nextCommand {
      let reply: [UInt8]
      do { reply = try transport.transmit(bytes) } catch { throw .transport(error) }
      do {
        if let response = try exchange.receive(reply) { return response }
      } catch { throw .apdu(error) }
    }
    throw .apdu(APDUError(.exchangeFinished, offset: 0))
  }
}
