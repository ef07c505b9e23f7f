// SPDX-License-Identifier: Apache-2.0
#if !hasFeature(Embedded)
  extension APDUExchanger {
    /// Reads a whole part of the GlobalPlatform registry with GET STATUS (Card Specification
    /// 2.3 §11.4): the first command, then "next occurrence" while the card answers 6310,
    /// at most `maximumCommands` commands.
    ///
    /// - Returns: the entries of every response, in order.
    /// - Throws: ``APDUExchangeError/transport(_:)``, or ``APDUExchangeError/apdu(_:)``
    ///   with ``APDUError/Code/unexpectedStatusWord`` (its `step` the command index) for a
    ///   status other than 9000 and 6310, ``APDUError/Code/tooManyRetries`` beyond
    ///   `maximumCommands`, and the response parser's errors.
    public mutating func registryEntries(
      _ subset: GlobalPlatformStatusSubset, cla: CommandClass = .globalPlatform,
      maximumCommands: Int = 64
    ) async throws(APDUExchangeError<Transport.Failure>) -> [GlobalPlatformRegistryEntry] {
      var entries: [GlobalPlatformRegistryEntry] = []
      var index = 0
      while index < maximumCommands {
        let command = GlobalPlatformCommands.getStatus(subset, nextOccurrence: index > 0, cla: cla)
        let response = try await send(command)
        let sw = response.statusWord
        guard sw == .success || sw == .moreDataAvailable else {
          if sw == .referencedDataNotFound && index == 0 { return [] }
          throw .apdu(APDUError(.unexpectedStatusWord, offset: 0, step: index, statusWord: sw))
        }
        do { entries += try GlobalPlatformRegistryEntry.parseStatusResponse(response.data) } catch {
          throw .apdu(error.at(step: index))
        }
        if sw == .success { return entries }
        index += 1
      }
      throw .apdu(APDUError(.tooManyRetries, offset: 0, step: index))
    }
  }
#endif
