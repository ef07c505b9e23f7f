// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzOracles
import Testing

/// Replays every file in `Corpus/` (seeds and regressions) through its format's fuzz
/// oracle, so a fixed crash stays fixed in plain `swift test`.
@Suite("Corpus replay")
struct CorpusReplayTests {
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus").path

  /// Each `Corpus/<format>` folder and the oracle that checks it.
  static let oracles: [String: @Sendable ([UInt8]) throws(OracleFailure) -> Void] = [
    "ndef": NDEFOracle.check, "capdu": CommandAPDUOracle.check, "rapdu": ResponseAPDUOracle.check,
    "bertlv": BERTLVOracle.check, "apduscript": APDUScriptOracle.check, "adv": AdvertisingDataOracle.check,
    "hci": HCIEventOracle.check, "btsnoop": BTSnoopOracle.check, "ndefrecord": NDEFRecordTypeOracle.check,
    "tags": TagImageOracle.check, "mfc": MifareClassicOracle.check, "type4": Type4ProcedureOracle.check,
    "discovery": ReaderDiscoveryOracle.check, "pn532": PN532FrameOracle.check,
    "atr": AnswerToResetOracle.check,
    "pcsccontrol": PCSCControlOracle.check,
    "storagecard": StorageCardOracle.check,
    "admin": AdminSessionOracle.check,
    "connection": ReaderConnectionOracle.check,
    "securechannel": SecureChannelOracle.check,
    "cap": CAPFileOracle.check,
    "trust": TagTrustOracle.check,
    "frames": TagFrameOracle.check,
    "commandline": CommandLineOracle.check,
  ]

  @Test func everyCorpusFolderHasAnOracle() throws {
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus)
      .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }
    #expect(!folders.isEmpty)
    for folder in folders {
      #expect(Self.oracles[folder] != nil, "Corpus/\(folder) has no oracle")
    }
  }

  @Test(arguments: oracles.keys.sorted())
  func replay(_ format: String) throws {
    let check = try #require(Self.oracles[format])
    let (count, failures) = CorpusReplay.replay(["\(Self.corpus)/\(format)"], check: check)
    #expect(count > 0, "Corpus/\(format) is empty")
    for (file, message) in failures {
      Issue.record("\(file): \(message)")
    }
  }
}
