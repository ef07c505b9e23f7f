// SPDX-License-Identifier: Apache-2.0
#if !hasFeature(Embedded)
  /// Sends command APDUs over a caller's transport with the transport-level behaviours of
  /// ``APDUExchangeOptions`` (GET RESPONSE on 61XX, resend on 6CXX, chaining, extended
  /// lengths, bounded retries) (ISO/IEC 7816-4:2013 §5.1, §5.1.1.1, §7.6.1).
  public struct APDUExchanger<Transport: APDUTransport> {
    /// The caller's transport.
    public var transport: Transport
    /// The behaviours and bounds applied to every command.
    public var options: APDUExchangeOptions
    /// Commands handed to the transport so far, over all exchanges.
    public private(set) var transmissionCount: Int = 0

    /// Creates an exchanger over `transport`.
    public init(transport: Transport, options: APDUExchangeOptions = .standard) {
      self.transport = transport
      self.options = options
    }

    /// Sends `command` and returns the final response.
    ///
    /// - Throws: ``APDUExchangeError/transport(_:)`` with the transport's error, or
    ///   ``APDUExchangeError/apdu(_:)`` with the errors of
    ///   ``APDUExchange/init(command:options:)`` and ``APDUExchange/receive(_:)-(RawSpan)``.
    public mutating func send(_ command: CommandAPDU) async throws(APDUExchangeError<Transport.Failure>)
      -> ResponseAPDU
    {
      var exchange: APDUExchange
      do { exchange = try APDUExchange(command: command, options: options) } catch {
        throw .apdu(error)
      }
      while let bytes = exchange.nextCommand {
        let reply: [UInt8]
        transmissionCount += 1
        do { reply = try await transport.transmit(bytes) } catch { throw .transport(error) }
        do {
          if let response = try exchange.receive(reply) { return response }
        } catch { throw .apdu(error) }
      }
      throw .apdu(APDUError(.exchangeFinished, offset: 0))
    }
  }
#endif
