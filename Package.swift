// swift-tools-version: 6.3
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

/// Settings every Tapwire target shares: Swift 6 mode and non-escapable views.
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableExperimentalFeature("Lifetimes"),
]

let package = Package(
  name: "Tapwire",
  products: [
    .library(name: "MonotonicTime", targets: ["MonotonicTime"]),
    .library(name: "NDEF", targets: ["NDEF"]),
    .library(name: "ISO7816", targets: ["ISO7816"]),
    .library(name: "BLEAdvertising", targets: ["BLEAdvertising"]),
    .library(name: "NFCTags", targets: ["NFCTags"]),
    .library(name: "NFCReader", targets: ["NFCReader"]),
    .library(name: "NFCReaderLibNFC", targets: ["NFCReaderLibNFC"]),
    .library(name: "MifareClassicNDEF", targets: ["MifareClassicNDEF"]),
    .library(name: "Type2NDEF", targets: ["Type2NDEF"]),
    .library(name: "Type3NDEF", targets: ["Type3NDEF"]),
    .library(name: "PN532Simulator", targets: ["PN532Simulator"]),
    .library(name: "NFCReaderPCSC", targets: ["NFCReaderPCSC"]),
    .library(name: "PCSCControl", targets: ["PCSCControl"]),
    // Tapwire's virtual reader driver, loaded by pcscd (test support; see Sources/TapwireIFD).
    .library(name: "TapwireIFD", type: .dynamic, targets: ["TapwireIFD"]),
    .library(name: "RemoteManagement", targets: ["RemoteManagement"]),
    .library(name: "RemoteManagementHTTP", targets: ["RemoteManagementHTTP"]),
    .library(name: "ReaderConnection", targets: ["ReaderConnection"]),
    .library(name: "BlueZ", targets: ["BlueZ"]),
    .library(name: "SecureChannel", targets: ["SecureChannel"]),
    .library(name: "GlobalPlatformCryptoOpenSSL", targets: ["GlobalPlatformCryptoOpenSSL"]),
    .library(name: "TagTrust", targets: ["TagTrust"]),
    .library(name: "JavaCardCAP", targets: ["JavaCardCAP"]),
    .library(name: "ZlibInflate", targets: ["ZlibInflate"]),
    .executable(name: "tapwire", targets: ["tapwire"]),
    .executable(name: "tapwire-nfc", targets: ["tapwire-nfc"]),
    .executable(name: "tapwire-vcard", targets: ["tapwire-vcard"]),
    .executable(name: "FuzzNDEF", targets: ["FuzzNDEF"]),
    .executable(name: "TapwireBenchmarks", targets: ["TapwireBenchmarks"]),
    .executable(name: "TapwireRoundTrips", targets: ["TapwireRoundTrips"]),
  ],
  targets: [
    // Byte core: bounds-checked reader over RawSpan, writer into OutputSpan.
    .target(name: "NFCWire", swiftSettings: swiftSettings),
    // NFC Forum NDEF 1.0 messages and records.
    .target(name: "NDEF", dependencies: ["NFCWire", "BLEAdvertising"], swiftSettings: swiftSettings),
    // ISO 7816-4 APDUs, BER-TLV, GlobalPlatform, applet-update scripts.
    .target(name: "ISO7816", dependencies: ["NFCWire"], swiftSettings: swiftSettings),
    // The instant type every sans-IO core takes its time in (Duration for intervals).
    .target(name: "MonotonicTime", swiftSettings: swiftSettings),
    // Bluetooth LE AD structures, HCI reports, btsnoop, reader discovery.
    .target(
      name: "BLEAdvertising", dependencies: ["NFCWire", "MonotonicTime"], swiftSettings: swiftSettings),
    // Card-reader connection lifecycle (sans-IO): connect, reconnect, reboot, disconnect.
    .target(
      name: "ReaderConnection", dependencies: ["BLEAdvertising", "MonotonicTime"],
      swiftSettings: swiftSettings),
    // NFC Forum tag types 1-5: memory images, TLVs, the Type 4 NDEF procedure.
    .target(name: "NFCTags", dependencies: ["NFCWire", "NDEF", "ISO7816"], swiftSettings: swiftSettings),
    // GlobalPlatform Amendment B remote application management (sans-IO) and the update policy.
    .target(
      name: "RemoteManagement", dependencies: ["ISO7816", "NFCWire", "MonotonicTime"],
      swiftSettings: swiftSettings),
    // Its HTTP adapter: URLSession (FoundationNetworking on Linux), HTTPS included.
    .target(name: "RemoteManagementHTTP", dependencies: ["RemoteManagement"], swiftSettings: swiftSettings),
    // Transport-agnostic reader sessions (Swift concurrency; not Embedded).
    .target(name: "NFCReader", swiftSettings: swiftSettings),
    // MIFARE Classic NDEF over any reader (the MAD and NFC sector flows, async over a tiny
    // block transport that libnfc and PC/SC adapters conform to; not Embedded).
    .target(
      name: "MifareClassicNDEF", dependencies: ["NFCReader", "NFCTags", "NDEF"], swiftSettings: swiftSettings),
    // Type 2 NDEF over any reader in the fewest round trips (async over a small page
    // transport that libnfc and PC/SC adapters conform to; the planning is in NFCTags).
    .target(name: "Type2NDEF", dependencies: ["NFCReader", "NFCTags", "NDEF"], swiftSettings: swiftSettings),
    // Type 3 (FeliCa) NDEF over any reader in the fewest Check commands (async over a small
    // block transport that libnfc and PC/SC adapters conform to; the layout is in NFCTags).
    .target(
      name: "Type3NDEF", dependencies: ["NFCReader", "NFCTags", "NDEF", "NFCWire"],
      swiftSettings: swiftSettings),
    // libnfc 1.8 (Debian libnfc-dev). No pkg-config query: its module map links libnfc and its
    // shim names the package when the header is missing, so codec-only builds stay quiet.
    .systemLibrary(name: "CLibNFC"),
    // The only module that calls libnfc; unsafe uses marked under strict memory safety.
    .target(
      name: "NFCReaderLibNFC",
      dependencies: [
        "NFCReader", "CLibNFC", "ISO7816", "NFCTags", "NDEF", "MifareClassicNDEF", "Type2NDEF", "Type3NDEF",
        "MonotonicTime",
      ],
      swiftSettings: swiftSettings + [.strictMemorySafety()]),
    // PC/SC reader control buffers: Part 10 features and TLV properties, Part 3 pseudo-APDUs,
    // vendor escapes, reader-driven NFC session codes (sans-IO, Embedded-clean).
    .target(name: "PCSCControl", dependencies: ["NFCWire", "ISO7816"], swiftSettings: swiftSettings),
    // pcsc-lite 1.9 (Debian libpcsclite-dev), without pkg-config for the same reason: a C target
    // whose include/ forwards the bare header names pcsc-lite uses (see CPCSCLite.h).
    .target(name: "CPCSCLite", linkerSettings: [.linkedLibrary("pcsclite")]),
    // A pcsc-lite IFD handler (C, ifdhandler.h) that pcscd loads as a virtual NFC reader.
    .target(name: "TapwireIFD", cSettings: [.headerSearchPath("pcsc")]),
    // The only module that calls pcsc-lite; unsafe uses marked under strict memory safety.
    .target(
      name: "NFCReaderPCSC",
      dependencies: [
        "NFCReader", "CPCSCLite", "ISO7816", "NFCTags", "NDEF", "PCSCControl", "MifareClassicNDEF", "NFCWire",
        "Type3NDEF", "Type2NDEF", "MonotonicTime",
      ],
      swiftSettings: swiftSettings + [.strictMemorySafety()]),
    // libdbus 1.14 (Debian libdbus-1-dev), without pkg-config: a C target whose include/
    // forwards the names libdbus's headers use to Debian's folders (see tapwire-cdbus.h).
    .target(name: "CDBus", linkerSettings: [.linkedLibrary("dbus-1")]),
    // BlueZ over D-Bus: the scanner feeding ReaderDiscovery and the link for ReaderConnection;
    // the only module that calls libdbus.
    .target(
      name: "BlueZ", dependencies: ["CDBus", "BLEAdvertising", "ReaderConnection"],
      swiftSettings: swiftSettings),
    // GlobalPlatform secure channels SCP02/SCP03 (sans-IO, Embedded-clean): the handshake,
    // command and response wrapping, key diversification, PUT KEY; the crypto provider is
    // injected (the SecureChannelCrypto protocol).
    .target(name: "SecureChannel", dependencies: ["ISO7816", "NFCWire"], swiftSettings: swiftSettings),
    // OpenSSL 3 libcrypto (Debian libssl-dev). No pkg-config query: its module map links
    // libcrypto and its shim names the package when the header is missing.
    .systemLibrary(name: "CLibCrypto"),
    // Originality signatures, NTAG 424 DNA SUN (AES and LRP) and NDEF Signature record checks
    // (sans-IO, Embedded-clean); the crypto provider is injected (the TagTrustCrypto protocol).
    .target(name: "TagTrust", dependencies: ["NDEF"], swiftSettings: swiftSettings),
    // The only module that calls libcrypto: the SecureChannelCrypto and TagTrustCrypto providers.
    .target(
      name: "GlobalPlatformCryptoOpenSSL", dependencies: ["SecureChannel", "CLibCrypto", "TagTrust"],
      swiftSettings: swiftSettings + [.strictMemorySafety()]),
    // Java Card CAP files (ZIP reader, components, the GlobalPlatform load file data block);
    // standard library only, inflate injected (sans-IO, Embedded-clean).
    .target(name: "JavaCardCAP", dependencies: ["ISO7816", "NFCWire"], swiftSettings: swiftSettings),
    // zlib 1.2 (Debian zlib1g-dev), without pkg-config for the same reason as CLibNFC: its module
    // map links libz and its shim names the package when the header is missing.
    .systemLibrary(name: "CZlib"),
    // Raw DEFLATE (RFC 1951) for CAP files' deflated ZIP entries; the only module that calls zlib.
    .target(
      name: "ZlibInflate", dependencies: ["CZlib", "JavaCardCAP"],
      swiftSettings: swiftSettings + [.strictMemorySafety()]),
    // A PN532 reader on a pseudo-terminal serving simulated tags.
    .target(
      name: "PN532Simulator", dependencies: ["MonotonicTime"],
      swiftSettings: swiftSettings + [.strictMemorySafety()]),
    // The JSON writer both executables print with (not a product).
    .target(name: "JSONOutput", swiftSettings: swiftSettings),
    // The option table both executables parse with: every command's options, value kinds,
    // ranges, defaults and secrecy; the help lists options from it (not a product).
    .target(
      name: "CommandLineOptions", dependencies: ["PCSCControl", "NFCWire"], swiftSettings: swiftSettings),
    // The self-pipe both executables stop on (SIGINT, SIGTERM).
    .target(name: "SignalPipe", dependencies: ["MonotonicTime"], swiftSettings: swiftSettings),
    // The command-line tool.
    .executableTarget(
      name: "tapwire",
      dependencies: [
        "NDEF", "ISO7816", "BLEAdvertising", "NFCTags", "NFCWire", "JSONOutput", "SignalPipe",
        "CommandLineOptions",
      ],
      swiftSettings: swiftSettings),

    // The reader commands (libnfc, the PN532 simulator), run by `tapwire read|simulate`.
    .executableTarget(
      name: "tapwire-nfc",
      dependencies: [
        "NFCReader", "NFCReaderLibNFC", "NFCReaderPCSC", "PN532Simulator", "NDEF", "NFCWire", "ISO7816",
        "MifareClassicNDEF", "Type2NDEF",
        "NFCTags", "PCSCControl", "RemoteManagement", "RemoteManagementHTTP", "BlueZ", "BLEAdvertising",
        "ReaderConnection", "JSONOutput", "SignalPipe", "JavaCardCAP", "ZlibInflate", "SecureChannel",
        "GlobalPlatformCryptoOpenSSL", "CommandLineOptions", "TagTrust",
      ],
      swiftSettings: swiftSettings),

    // A virtual smart card for pcscd's vpcd driver (the PC/SC tests' card).
    .executableTarget(
      name: "tapwire-vcard",
      dependencies: ["ISO7816", "NFCTags", "NFCWire", "PCSCControl", "PN532Simulator"],
      swiftSettings: swiftSettings),

    // Fuzz targets: corpus replay tools by default, libFuzzer entry points with -DFUZZING.
    .target(
      name: "FuzzOracles",
      dependencies: [
        "NDEF", "ISO7816", "BLEAdvertising", "NFCTags", "PN532Simulator", "PCSCControl", "RemoteManagement",
        "ReaderConnection", "SecureChannel", "JavaCardCAP", "ZlibInflate", "TagTrust", "CommandLineOptions",
      ],
      path: "Fuzz/FuzzOracles",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzNDEF", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzNDEF",
      swiftSettings: swiftSettings),

    .executableTarget(
      name: "FuzzCommandAPDU", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzCommandAPDU",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzResponseAPDU", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzResponseAPDU",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzBERTLV", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzBERTLV", swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "FuzzAPDUScript", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzAPDUScript",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzAdvertisingData", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzAdvertisingData",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzHCIEvent", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzHCIEvent",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzBTSnoop", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzBTSnoop",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzNDEFRecordTypes", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzNDEFRecordTypes",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzTagImages", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzTagImages",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzMifareClassic", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzMifareClassic",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzType4Procedure", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzType4Procedure",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzReaderDiscovery", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzReaderDiscovery",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzReaderConnection", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzReaderConnection",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzAnswerToReset", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzAnswerToReset",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzAdminSession", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzAdminSession",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzPN532Frame", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzPN532Frame",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzPCSCControl", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzPCSCControl",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzSecureChannel", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzSecureChannel",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzStorageCard", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzStorageCard",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzCAPFile", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzCAPFile",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzCommandLine", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzCommandLine",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzTagFrames", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzTagFrames",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzTrust", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzTrust",
      swiftSettings: swiftSettings),
    // Benchmarks with a malloc counter linked in.
    .target(name: "CMallocCounter", path: "Benchmarks/CMallocCounter"),
    // The limit reference: a plain C walk over NDEF headers.
    .target(name: "CNDEFLimit", path: "Benchmarks/CNDEFLimit"),
    .executableTarget(
      name: "TapwireBenchmarks",
      dependencies: [
        "NDEF", "ISO7816", "BLEAdvertising", "NFCTags", "CMallocCounter", "CNDEFLimit", "TagTrust",
        "GlobalPlatformCryptoOpenSSL",
      ],
      path: "Benchmarks/TapwireBenchmarks", swiftSettings: swiftSettings),
    // RF round trips per tag type beside the minimum the tag's commands allow.
    .executableTarget(
      name: "TapwireRoundTrips",
      dependencies: ["NDEF", "ISO7816", "NFCTags", "NFCReader", "MifareClassicNDEF", "PN532Simulator"],
      path: "Benchmarks/TapwireRoundTrips", swiftSettings: swiftSettings),

    // The BlueZ scanner under a D-Bus flood (Documentation/fuzzing-and-benchmarks.md).
    .executableTarget(
      name: "TapwireFlood", dependencies: ["BlueZ", "BLEAdvertising", "DaemonStack"],
      path: "Benchmarks/TapwireFlood", swiftSettings: swiftSettings),

    // Test support (not a product): daemons in a private namespace, started and stopped by PID,
    // for the PC/SC and BlueZ stacks.
    .target(name: "DaemonStack", path: "Tests/DaemonStack", swiftSettings: swiftSettings),

    .testTarget(name: "NFCWireTests", dependencies: ["NFCWire"], swiftSettings: swiftSettings),
    .testTarget(
      name: "NDEFTests", dependencies: ["NDEF", "NFCWire", "BLEAdvertising"], exclude: ["Vectors"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "BLEAdvertisingTests", dependencies: ["BLEAdvertising", "NFCWire"], swiftSettings: swiftSettings),
    .testTarget(
      name: "NFCTagsTests", dependencies: ["NFCTags", "NDEF", "ISO7816", "NFCWire"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "NFCReaderTests",
      dependencies: [
        "NFCReader", "NFCReaderLibNFC", "PN532Simulator", "ISO7816", "MifareClassicNDEF", "Type2NDEF",
        "Type3NDEF", "NDEF", "NFCTags",
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RemoteManagementTests",
      dependencies: ["RemoteManagement", "RemoteManagementHTTP", "ISO7816", "DaemonStack"],
      swiftSettings: swiftSettings),
    .testTarget(name: "ISO7816Tests", dependencies: ["ISO7816", "NFCWire"], swiftSettings: swiftSettings),
    .testTarget(
      name: "PCSCTests",
      dependencies: [
        "NFCReaderPCSC", "NFCReader", "ISO7816", "NFCTags", "NDEF", "tapwire-vcard", "tapwire", "tapwire-nfc",
        "PCSCControl", "DaemonStack", "SecureChannel", "GlobalPlatformCryptoOpenSSL", "MifareClassicNDEF",
        "Type2NDEF",
      ],
      exclude: ["pyscard-crosscheck.py", "pyscard-storage.py", "nfcpy-type2.py"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "PCSCControlTests", dependencies: ["PCSCControl", "ISO7816"], swiftSettings: swiftSettings),
    .testTarget(
      name: "CorpusReplayTests", dependencies: ["FuzzOracles"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "ReaderConnectionTests", dependencies: ["ReaderConnection", "BLEAdvertising", "MonotonicTime"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "BlueZTests",
      dependencies: ["BlueZ", "BLEAdvertising", "ReaderConnection", "tapwire", "tapwire-nfc", "DaemonStack"],
      exclude: ["bluez_mock.py", "bleak_scan.py"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SecureChannelTests",
      dependencies: ["SecureChannel", "GlobalPlatformCryptoOpenSSL", "ISO7816", "NFCTags"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "JavaCardCAPTests", dependencies: ["JavaCardCAP", "ZlibInflate", "ISO7816"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "TagTrustTests",
      dependencies: ["TagTrust", "GlobalPlatformCryptoOpenSSL", "NDEF", "CommandLineOptions"],
      exclude: ["sun_urls.py", "ndef_signatures.py"], swiftSettings: swiftSettings),
    .testTarget(name: "JSONOutputTests", dependencies: ["JSONOutput"], swiftSettings: swiftSettings),
    .testTarget(
      name: "TapwireCLITests",
      dependencies: [
        "tapwire", "tapwire-nfc", "JSONOutput", "DaemonStack", "PN532Simulator", "CommandLineOptions",
      ],
      swiftSettings: swiftSettings),
  ]
)
