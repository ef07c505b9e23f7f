// SPDX-License-Identifier: Apache-2.0
import ISO7816

#if !hasFeature(Embedded)
  /// Why a Type 4 NDEF procedure run over an `APDUExchanger` (ISO7816) stopped: the
  /// transport's own error, an ISO/IEC 7816-4 transport rule, or the procedure's error.
  public enum Type4RunError<TransportFailure: Error>: Error {
    /// The transport failed to send or receive.
    case transport(TransportFailure)
    /// A response broke a transport rule or bound (ISO/IEC 7816-4 §5.1; see `APDUError` in ISO7816).
    case apdu(APDUError)
    /// The tag answered against the Type 4 procedure (T4T 3.0 §5; see ``NFCTagError``).
    case tag(NFCTagError)
  }

  extension Type4NDEFProcedure {
    /// Runs the procedure to its end, sending each command through `exchanger` (which handles
    /// GET RESPONSE, 6CXX and chaining) and feeding each response back (T4T 3.0 §5.4, §5.5).
    ///
    /// - Throws: ``Type4RunError`` with the first failure; the procedure stops there.
    public mutating func run<Transport: APDUTransport>(
      over exchanger: inout APDUExchanger<Transport>
    ) async throws(Type4RunError<Transport.Failure>) {
      var command: CommandAPDU? = start()
      while let next = command {
        let response: ResponseAPDU
        do { response = try await exchanger.send(next) } catch {
          switch error {
          case .transport(let failure): throw .transport(failure)
          case .apdu(let failure): throw .apdu(failure)
          }
        }
        do { command = try receive(response) } catch { throw .tag(error) }
      }
    }
  }
#endif
