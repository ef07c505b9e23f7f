// SPDX-License-Identifier: Apache-2.0
import NFCReader

/// Reader sessions over libnfc: a device by connection string, or the first one found.
public struct LibNFCTransport: ReaderTransport {
  /// The connection string (such as `pn532_uart:/dev/ttyUSB0`); nil for the first device.
  public var connstring: String?
  /// What sessions poll for.
  public var modulations: [TargetModulation]
  /// The timeout of one tag exchange.
  public var exchangeTimeout: Duration

  /// Creates a transport.
  public init(
    connstring: String? = nil, modulations: [TargetModulation] = TargetModulation.allCases,
    exchangeTimeout: Duration = .seconds(1)
  ) {
    self.connstring = connstring
    self.modulations = modulations
    self.exchangeTimeout = exchangeTimeout
  }

  /// `libnfc:<connstring>` (or `libnfc:first`).
  public var deviceKey: String { "libnfc:" + (connstring ?? "first") }

  /// Lists the devices, then opens the chosen one and makes it an initiator, and closes it.
  /// `ReaderError.Code.noReader` when none is listed or it cannot be opened;
  /// `ReaderError.Code.unsupportedFeature` when it cannot be an initiator.
  public func checkAvailability() async throws(ReaderError) {
    let listed = await LibNFCReader.deviceConnstrings()
    guard let target = connstring ?? listed.first else {
      throw ReaderError(.noReader, "libnfc found no NFC reader (set LIBNFC_DEVICE or plug one in)")
    }
    // Held by a session of this process: present, so reading is available.
    if LibNFCReader.isOpenInThisProcess(connstring: target) { return }
    let reader: LibNFCReader
    do {
      reader = try await LibNFCReader.open(connstring: target, modulations: modulations)
    } catch {
      switch error.code {
      case .deviceBusy:
        throw ReaderError(.noReader, "no reader at \(target): \(error.message)")
      case .deviceFailure, .invalidArgument, .unsupportedFeature:
        throw ReaderError(
          .unsupportedFeature, "\(target) cannot read tags as an initiator: \(error.message)",
          transportCode: error.transportCode, transportCodeName: error.transportCodeName)
      default:
        throw error
      }
    }
    await reader.close()
  }

  /// Opens the device for one session.
  public func claim() async throws(ReaderError) -> LibNFCReader {
    try await LibNFCReader.open(
      connstring: connstring, modulations: modulations, exchangeTimeout: exchangeTimeout)
  }
}
