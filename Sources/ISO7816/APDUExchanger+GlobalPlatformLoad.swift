// SPDX-License-Identifier: Apache-2.0
#if !hasFeature(Embedded)
  /// Why loading a load file stopped (GlobalPlatform Card Specification 2.3 §11.5.2.3.1,
  /// §11.6): the command concerned, for LOAD the block (its 0-based number, P2 modulo 256) and
  /// how many of the blocks the card had acknowledged with 9000 before it, and either the
  /// status word the card answered or the exchange's error (a transport failure such as the
  /// card leaving the field).
  public struct GlobalPlatformLoadError<TransportFailure: Error>: Error {
    /// What failed.
    public let code: Code
    /// The 0-based number of the LOAD block concerned; nil for INSTALL [for load].
    public let blockNumber: Int?
    /// The LOAD blocks the card acknowledged with 9000 before the failure.
    public let blocksAcknowledged: Int
    /// The LOAD blocks of the whole load file.
    public let blockCount: Int
    /// The status word the card answered, for ``GlobalPlatformLoadErrorCode/installForLoadRejected`` and
    /// ``GlobalPlatformLoadErrorCode/loadBlockRejected``.
    public let statusWord: StatusWord?
    /// The exchange's error, for ``GlobalPlatformLoadErrorCode/installForLoadExchangeFailed`` and
    /// ``GlobalPlatformLoadErrorCode/loadBlockExchangeFailed``.
    public let exchangeError: APDUExchangeError<TransportFailure>?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what failed.
    ///   - blockNumber: the 0-based LOAD block concerned, nil for INSTALL [for load].
    ///   - blocksAcknowledged: the LOAD blocks answered 9000 before the failure.
    ///   - blockCount: the LOAD blocks of the load file.
    ///   - statusWord: the status word the card answered, if it answered.
    ///   - exchangeError: the exchange's error, if the exchange failed.
    public init(
      _ code: Code, blockNumber: Int?, blocksAcknowledged: Int, blockCount: Int,
      statusWord: StatusWord? = nil,
      exchangeError: APDUExchangeError<TransportFailure>? = nil
    ) {
      self.code = code
      self.blockNumber = blockNumber
      self.blocksAcknowledged = blocksAcknowledged
      self.blockCount = blockCount
      self.statusWord = statusWord
      self.exchangeError = exchangeError
    }

    /// The error codes.
    public typealias Code = GlobalPlatformLoadErrorCode
  }

  /// The code of a ``GlobalPlatformLoadError``: a struct over a private enum so codes can be
  /// added without breaking clients that switch over the statics with a default case.
  public struct GlobalPlatformLoadErrorCode: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable {
      case installForLoadRejected, installForLoadExchangeFailed, loadBlockRejected, loadBlockExchangeFailed
      case invalidBlockSize
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// GPCS 2.3 §11.5.3.2: INSTALL [for load] answered a status word other than 9000
    /// (``GlobalPlatformLoadError/statusWord``); no LOAD was sent.
    public static let installForLoadRejected = GlobalPlatformLoadErrorCode(.installForLoadRejected)
    /// INSTALL [for load] could not be exchanged (``GlobalPlatformLoadError/exchangeError``).
    public static let installForLoadExchangeFailed = GlobalPlatformLoadErrorCode(
      .installForLoadExchangeFailed)
    /// GPCS 2.3 §11.6.3.2: a LOAD block answered a status word other than 9000; the card
    /// discards the load file.
    public static let loadBlockRejected = GlobalPlatformLoadErrorCode(.loadBlockRejected)
    /// A LOAD block could not be exchanged, e.g. the card was removed
    /// (``GlobalPlatformLoadError/exchangeError``); the card discards the partial load file.
    public static let loadBlockExchangeFailed = GlobalPlatformLoadErrorCode(.loadBlockExchangeFailed)
    /// The LOAD block size is outside 1...255; nothing was sent.
    public static let invalidBlockSize = GlobalPlatformLoadErrorCode(.invalidBlockSize)

    /// The code's name, e.g. `loadBlockExchangeFailed`.
    public var name: String {
      switch value {
      case .installForLoadRejected: "installForLoadRejected"
      case .installForLoadExchangeFailed: "installForLoadExchangeFailed"
      case .loadBlockRejected: "loadBlockRejected"
      case .loadBlockExchangeFailed: "loadBlockExchangeFailed"
      case .invalidBlockSize: "invalidBlockSize"
      }
    }

    /// The code's name.
    public var description: String { name }
  }

  extension APDUExchanger {
    /// Loads a load file (GlobalPlatform Card Specification 2.3 §11.5.2.3.1, §11.6): INSTALL
    /// [for load] of `installForLoad`, then the ``GlobalPlatformCommands/load(_:blockSize:extendedLength:wrapsBlockNumbers:cla:)``
    /// blocks of `loadFileDataBlock`, each sent only after the one before it was answered 9000.
    ///
    /// - Parameters:
    ///   - loadFileDataBlock: the load file data block (without `C4` and its length).
    ///   - installForLoad: the INSTALL [for load] command (load file AID, security domain, hash).
    ///   - blockSize: the most plain data bytes of one LOAD block (see
    ///     ``GlobalPlatformCommands/loadBlockSize(maximum:overhead:cardMaximumCommandDataLength:)``).
    ///   - cla: the class byte of the LOAD commands.
    ///   - progress: called after each acknowledged block with the blocks acknowledged and the
    ///     block count (first with 0 after INSTALL [for load]).
    /// - Returns: the number of LOAD blocks sent.
    /// - Throws: ``GlobalPlatformLoadError`` naming the command and LOAD block, or with
    ///   ``GlobalPlatformLoadErrorCode/invalidBlockSize`` before anything is sent.
    @discardableResult
    public mutating func loadFile(
      _ loadFileDataBlock: [UInt8], installForLoad: CommandAPDU, blockSize: Int,
      cla: CommandClass = .globalPlatform, progress: (_ acknowledged: Int, _ count: Int) -> Void = { _, _ in }
    ) async throws(GlobalPlatformLoadError<Transport.Failure>) -> Int {
      let blocks: [CommandAPDU]
      do { blocks = try GlobalPlatformCommands.load(loadFileDataBlock, blockSize: blockSize, cla: cla) } catch
      {
        throw GlobalPlatformLoadError(
          .invalidBlockSize, blockNumber: nil, blocksAcknowledged: 0, blockCount: 0,
          exchangeError: .apdu(error))
      }
      let answer: ResponseAPDU
      do { answer = try await send(installForLoad) } catch {
        throw GlobalPlatformLoadError(
          .installForLoadExchangeFailed, blockNumber: nil, blocksAcknowledged: 0, blockCount: blocks.count,
          exchangeError: error)
      }
      guard answer.statusWord == .success else {
        throw GlobalPlatformLoadError(
          .installForLoadRejected, blockNumber: nil, blocksAcknowledged: 0, blockCount: blocks.count,
          statusWord: answer.statusWord)
      }
      progress(0, blocks.count)
      for (number, block) in blocks.enumerated() {
        let response: ResponseAPDU
        do { response = try await send(block) } catch {
          throw GlobalPlatformLoadError(
            .loadBlockExchangeFailed, blockNumber: number, blocksAcknowledged: number,
            blockCount: blocks.count,
            exchangeError: error)
        }
        guard response.statusWord == .success else {
          throw GlobalPlatformLoadError(
            .loadBlockRejected, blockNumber: number, blocksAcknowledged: number, blockCount: blocks.count,
            statusWord: response.statusWord)
        }
        progress(number + 1, blocks.count)
      }
      return blocks.count
    }
  }
#endif
