// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Replays corpus files through an oracle: the fuzz targets' non-fuzzing mode and the
/// `swift test` corpus replay share it.
public enum CorpusReplay {
  /// Every regular file under `paths` (files or directories, searched recursively), sorted.
  public static func files(under paths: [String]) -> [String] {
    var result: [String] = []
    let manager = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
      if !isDirectory.boolValue {
        result.append(path)
        continue
      }
      guard let walker = manager.enumerator(atPath: path) else { continue }
      while let item = walker.nextObject() as? String {
        let full = (path as NSString).appendingPathComponent(item)
        var itemIsDirectory: ObjCBool = false
        if manager.fileExists(atPath: full, isDirectory: &itemIsDirectory),
          !itemIsDirectory.boolValue, !item.hasPrefix("."), !item.hasSuffix(".md")
        {
          result.append(full)
        }
      }
    }
    return result.sorted()
  }

  /// Runs `check` on every file; returns the failures as `(path, description)`.
  public static func replay(
    _ paths: [String], check: ([UInt8]) throws(OracleFailure) -> Void
  ) -> (count: Int, failures: [(String, String)]) {
    var failures: [(String, String)] = []
    let all = files(under: paths)
    for file in all {
      guard let data = FileManager.default.contents(atPath: file) else {
        failures.append((file, "unreadable"))
        continue
      }
      do { try check([UInt8](data)) } catch { failures.append((file, error.description)) }
    }
    return (all.count, failures)
  }

  /// The replay tool's main: checks the files named on the command line (default: the
  /// format's folder in `Corpus/`) and exits 1 on any failure.
  public static func main(
    name: String, defaultPaths: [String], check: ([UInt8]) throws(OracleFailure) -> Void
  ) -> Never {
    let arguments = Array(CommandLine.arguments.dropFirst()).filter { !$0.hasPrefix("-") }
    let paths = arguments.isEmpty ? defaultPaths : arguments
    let (count, failures) = replay(paths, check: check)
    for (file, message) in failures { print("FAIL \(file): \(message)") }
    print("\(name): replayed \(count) inputs, \(failures.count) failures")
    exit(failures.isEmpty ? 0 : 1)
  }
}
