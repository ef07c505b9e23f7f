// swift-tools-version: 6.2
import PackageDescription

/// Settings every Tapwire target shares: Swift 6 mode and non-escapable views.
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableExperimentalFeature("Lifetimes"),
]

let package = Package(
  name: "Tapwire",
  products: [
    .library(name: "NDEF", targets: ["NDEF"]),
    .executable(name: "tapwire", targets: ["tapwire"]),
    .executable(name: "FuzzNDEF", targets: ["FuzzNDEF"]),
    .executable(name: "TapwireBenchmarks", targets: ["TapwireBenchmarks"]),
  ],
  targets: [
    // Byte core: bounds-checked reader over RawSpan, writer into OutputSpan.
    .target(name: "NFCWire", swiftSettings: swiftSettings),
    // NFC Forum NDEF 1.0 messages and records.
    .target(name: "NDEF", dependencies: ["NFCWire"], swiftSettings: swiftSettings),
    // The command-line tool.
    .executableTarget(name: "tapwire", dependencies: ["NDEF"], swiftSettings: swiftSettings),

    // Fuzz targets: corpus replay tools by default, libFuzzer entry points with -DFUZZING.
    .target(
      name: "FuzzOracles", dependencies: ["NDEF"], path: "Fuzz/FuzzOracles",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "FuzzNDEF", dependencies: ["FuzzOracles"], path: "Fuzz/FuzzNDEF",
      swiftSettings: swiftSettings),

    // Benchmarks with a malloc counter linked in.
    .target(name: "CMallocCounter", path: "Benchmarks/CMallocCounter"),
    .executableTarget(
      name: "TapwireBenchmarks", dependencies: ["NDEF", "CMallocCounter"],
      path: "Benchmarks/TapwireBenchmarks", swiftSettings: swiftSettings),

    .testTarget(name: "NFCWireTests", dependencies: ["NFCWire"], swiftSettings: swiftSettings),
    .testTarget(
      name: "NDEFTests", dependencies: ["NDEF", "NFCWire"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "CorpusReplayTests", dependencies: ["FuzzOracles"],
      swiftSettings: swiftSettings),
    .testTarget(name: "TapwireCLITests", dependencies: ["tapwire"], swiftSettings: swiftSettings),
  ]
)
