// SPDX-License-Identifier: Apache-2.0

// Every library product of Tapwire, used the way a dependent package uses it: public API only.
// Exits 1 when any check fails. The snippets of the DocC articles are here too, so that they
// compile against the real API (each function names its article).

import Foundation

checkNDEF()
checkISO7816()
await checkScriptOverATransport()
checkBLEAdvertising()
checkReaderDiscovery()
checkNFCTags()
await checkType4Procedure()
checkNFCReader()
await checkLibNFCAgainstTheSimulator()
await checkPCSC()
checkPCSCControl()
await checkPCSCControlArticle()
checkRemoteManagement()
await checkRemoteManagementDriver()
checkReaderConnection()
await checkReaderConnectionAdapter()
await checkBlueZ()
await checkSecureChannel()
checkTagTrust()
if CommandLine.arguments.contains("--pcsc-reader") {
  await group("NFCReaderPCSC: the examples against the first reader") {
    try await firstLookAtACard()
    try await updateCardInFirstReader(updateScript)
    try await describeFirstReader()
  }
}

if failures.isEmpty {
  print("downstream: every check passed")
} else {
  print("downstream: \(failures.count) check(s) failed")
  exit(1)
}
