// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
  import Glibc
#endif

/// Runs a shell command line (bounded by `timeout`), returning its exit status and output.
func runShell(_ command: String, seconds: Int = 15) -> (status: Int32, output: String) {
  guard let pipe = popen("timeout -k 2 \(seconds) \(command) 2>&1", "r") else { return (-1, "") }
  var output: [UInt8] = []
  var buffer = [CChar](repeating: 0, count: 4096)
  while fgets(&buffer, Int32(buffer.count), pipe) != nil {
    output += buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
  }
  let status = pclose(pipe)
  return ((status >> 8) & 0xFF, String(decoding: output, as: UTF8.self))
}

/// Whether an executable is on the PATH; always true with `TAPWIRE_REQUIRE_PEERS=1` (CI), so a
/// peer tool missing there fails its test instead of skipping it.
func toolExists(_ name: String) -> Bool {
  if let require = getenv("TAPWIRE_REQUIRE_PEERS"), String(cString: require) == "1" { return true }
  return runShell("sh -c 'command -v \(name)'", seconds: 5).status == 0
}

/// Writes `bytes` to a file at `path`; false on failure.
func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
  guard let file = fopen(path, "wb") else { return false }
  defer { fclose(file) }
  return fwrite(bytes, 1, bytes.count, file) == bytes.count
}
