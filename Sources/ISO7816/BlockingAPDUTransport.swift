// SPDX-License-Identifier: Apache-2.0
/// A synchronous way to send a command APDU and receive the response, for callers without
/// Swift concurrency (Embedded Swift on microcontrollers).
public protocol BlockingAPDUTransport {
  /// The transport's error type (`Never` for one that cannot fail).
  associatedtype Failure: Error
  /// Sends one command APDU's bytes and returns the response APDU's bytes.
  mutating func transmit(_ command: [UInt8]) throws(Failure) -> [UInt8]
}
