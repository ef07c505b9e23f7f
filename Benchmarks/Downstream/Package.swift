// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// A user's view of Tapwire: a separate package that depends on it by path and is built in
// release, so its benchmarks measure the code users get (what inlines across the package
// boundary, and what does not). The workload and harness sources are TapwireBenchmarks'
// own files (symbolic links), so both measure the same loops. Not part of the root package
// and not run in CI: `Benchmarks/run-downstream.sh`.
let package = Package(
  name: "TapwireDownstreamBenchmarks",
  dependencies: [.package(name: "Tapwire", path: "../..")],
  targets: [
    .target(name: "DownstreamMallocCounter", path: "Sources/CMallocCounter"),
    .target(name: "DownstreamNDEFLimit", path: "Sources/CNDEFLimit"),
    .executableTarget(
      name: "DownstreamBenchmarks",
      dependencies: [
        .product(name: "NDEF", package: "Tapwire"), "DownstreamMallocCounter", "DownstreamNDEFLimit",
      ],
      swiftSettings: [
        .swiftLanguageMode(.v6), .enableExperimentalFeature("Lifetimes"), .define("TAPWIRE_DOWNSTREAM"),
      ]),
  ]
)
