// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// A package outside Tapwire's root package that depends on it by path, as a user's tool would
// (`.package(path:)` or a git URL), and uses every library product through its public API only.
// `swift run --package-path Tests/Downstream DownstreamCheck` exits 1 when any check fails; a
// symbol made `package` or `internal` by mistake, or a setting a dependent cannot use, fails
// its build. CI runs it (`.ci/run`, step "downstream").
let package = Package(
  name: "Downstream",
  dependencies: [.package(name: "Tapwire", path: "../..")],
  targets: [
    .executableTarget(
      name: "DownstreamCheck",
      dependencies: [
        .product(name: "MonotonicTime", package: "Tapwire"),
        .product(name: "NDEF", package: "Tapwire"),
        .product(name: "ISO7816", package: "Tapwire"),
        .product(name: "BLEAdvertising", package: "Tapwire"),
        .product(name: "NFCTags", package: "Tapwire"),
        .product(name: "NFCReader", package: "Tapwire"),
        .product(name: "NFCReaderLibNFC", package: "Tapwire"),
        .product(name: "NFCReaderPCSC", package: "Tapwire"),
        .product(name: "PN532Simulator", package: "Tapwire"),
        .product(name: "PCSCControl", package: "Tapwire"),
        .product(name: "RemoteManagement", package: "Tapwire"),
        .product(name: "RemoteManagementHTTP", package: "Tapwire"),
        .product(name: "ReaderConnection", package: "Tapwire"),
        .product(name: "BlueZ", package: "Tapwire"),
        .product(name: "SecureChannel", package: "Tapwire"),
        .product(name: "GlobalPlatformCryptoOpenSSL", package: "Tapwire"),
        .product(name: "TagTrust", package: "Tapwire"),
      ],
      // Only what a dependent would set: Swift 6 mode, no experimental features.
      swiftSettings: [.swiftLanguageMode(.v6)])
  ]
)
