// SPDX-License-Identifier: Apache-2.0
/// A failure of an exchange over a caller's transport: the transport's own error, or a
/// protocol error from this module.
public enum APDUExchangeError<TransportFailure: Error>: Error {
  /// The transport failed to send or receive.
  case transport(TransportFailure)
  /// The card's answers broke a rule or a bound (see ``APDUError``).
  case apdu(APDUError)
}
