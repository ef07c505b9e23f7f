// SPDX-License-Identifier: Apache-2.0
#if !hasFeature(Embedded)
  import ISO7816

  /// Why a command through a ``SecureChannelTransport`` failed: the inner transport's error,
  /// an ISO/IEC 7816-4 exchange error, or a secure-channel error.
  public enum SecureChannelTransportError<TransportFailure: Error>: Error {
    /// The inner transport failed to send or receive.
    case transport(TransportFailure)
    /// The card's answers broke an exchange rule or bound (see `APDUError` in ISO7816).
    case apdu(APDUError)
    /// The secure channel failed (see ``SecureChannelError``).
    case secureChannel(SecureChannelError)
  }

  /// An `APDUTransport` that runs every command through a secure channel: whatever drives an
  /// `APDUTransport` (`APDUExchanger`, `ScriptRunner`, the Type 4 NDEF procedure, a
  /// remote-management session) runs inside the channel unchanged.
  ///
  /// Below the channel, an `APDUExchanger` answers 61XX with GET RESPONSE (plain, never
  /// wrapped) and concatenates the data, so the R-MAC check sees the whole answer
  /// (GPCS 2.3 §E.4.5, Amendment D §6.2.5). 6CXX, chaining and extended lengths are left to
  /// whatever drives this transport on the plain side: set its
  /// `maximumCommandDataLength` to ``SecureChannelSession/maximumPlainDataLength``.
  public struct SecureChannelTransport<Inner: APDUTransport, Crypto: SecureChannelCrypto>: APDUTransport {
    /// The open session.
    public private(set) var session: SecureChannelSession<Crypto>
    /// The exchanger below the channel (GET RESPONSE only).
    public private(set) var exchanger: APDUExchanger<Inner>

    /// The options of the exchanger below the channel: GET RESPONSE on 61XX, nothing else.
    public static var innerOptions: APDUExchangeOptions {
      APDUExchangeOptions(
        handlesResponseAvailable: true, handlesWrongLength: false, usesCommandChaining: false,
        usesExtendedLength: false)
    }

    /// Wraps an already open `session` over `inner`.
    public init(session: SecureChannelSession<Crypto>, over inner: Inner) {
      self.session = session
      self.exchanger = APDUExchanger(transport: inner, options: Self.innerOptions)
    }

    /// Opens a secure channel over `inner`: INITIALIZE UPDATE, the card cryptogram checked,
    /// then EXTERNAL AUTHENTICATE (``SecureChannelOpening``). Sends nothing after a failure.
    ///
    /// - Throws: ``SecureChannelTransportError/secureChannel(_:)`` with the errors of
    ///   ``SecureChannelOpening`` (``SecureChannelError/Code/keySetBlocked``,
    ///   ``SecureChannelError/Code/cardCryptogramMismatch``, …), or the inner transport's
    ///   and the exchange's errors.
    public static func open(
      over inner: Inner, configuration: SecureChannelConfiguration, crypto: Crypto
    ) async throws(SecureChannelTransportError<Inner.Failure>) -> Self {
      var exchanger = APDUExchanger(transport: inner, options: innerOptions)
      var opening: SecureChannelOpening<Crypto>
      do { opening = try SecureChannelOpening(configuration: configuration, crypto: crypto) } catch {
        throw .secureChannel(error)
      }
      let answer = try await send(opening.initializeUpdate, over: &exchanger)
      let authenticate: CommandAPDU
      do { authenticate = try opening.receiveInitializeUpdate(answer) } catch { throw .secureChannel(error) }
      let confirmation = try await send(authenticate, over: &exchanger)
      let session: SecureChannelSession<Crypto>
      do { session = try opening.receiveExternalAuthenticate(confirmation) } catch {
        throw .secureChannel(error)
      }
      var transport = Self(session: session, over: exchanger.transport)
      transport.exchanger = exchanger
      return transport
    }

    /// Wraps `command`, sends it, and returns the unwrapped response.
    ///
    /// - Throws: ``SecureChannelTransportError`` with the first failure.
    public mutating func send(_ command: CommandAPDU) async throws(SecureChannelTransportError<Inner.Failure>)
      -> ResponseAPDU
    {
      let wrapped: CommandAPDU
      do { wrapped = try session.wrap(command) } catch { throw .secureChannel(error) }
      let response = try await Self.send(wrapped, over: &exchanger)
      do { return try session.unwrap(response) } catch { throw .secureChannel(error) }
    }

    /// Parses one plain command APDU, sends it through the channel and returns the unwrapped
    /// response's bytes (the `APDUTransport` requirement).
    ///
    /// - Throws: ``SecureChannelTransportError/secureChannel(_:)`` with
    ///   ``SecureChannelError/Code/invalidCommand`` for bytes that are not one command APDU,
    ///   and the errors of ``send(_:)``.
    public mutating func transmit(_ command: [UInt8]) async throws(SecureChannelTransportError<Inner.Failure>)
      -> [UInt8]
    {
      let parsed: CommandAPDU
      do { parsed = try CommandAPDU(parsing: command) } catch {
        throw .secureChannel(SecureChannelError(.invalidCommand, offset: error.offset))
      }
      return try await send(parsed).encodedBytes()
    }

    private static func send(_ command: CommandAPDU, over exchanger: inout APDUExchanger<Inner>)
      async throws(SecureChannelTransportError<Inner.Failure>) -> ResponseAPDU
    {
      do { return try await exchanger.send(command) } catch {
        switch error {
        case .transport(let failure): throw .transport(failure)
        case .apdu(let failure): throw .apdu(failure)
        }
      }
    }
  }
#endif
