// SPDX-License-Identifier: Apache-2.0
#if !hasFeature(Embedded)
  /// An asynchronous way to send a command APDU and receive its response: the caller's link
  /// to the card (a reader, an NFC session, a secure element API, a simulated card).
  ///
  /// Tapwire does no I/O of its own; ``APDUExchanger`` and ``ScriptRunner`` drive a value of
  /// this type. Only built where Swift concurrency is available (not on Embedded targets
  /// without it, which use ``BlockingAPDUTransport`` or drive ``APDUExchange`` directly).
  public protocol APDUTransport {
    /// The transport's error type (`Never` for one that cannot fail).
    associatedtype Failure: Error
    /// Sends one command APDU's bytes and returns the response APDU's bytes
    /// (data and SW1-SW2).
    mutating func transmit(_ command: [UInt8]) async throws(Failure) -> [UInt8]
  }
#endif
