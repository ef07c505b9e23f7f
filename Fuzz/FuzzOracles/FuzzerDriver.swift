// SPDX-License-Identifier: Apache-2.0
#if FUZZING
  /// libFuzzer's driver entry point (compiler-rt `FuzzerInterface.h`), present in binaries
  /// linked with `-sanitize=fuzzer`.
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// Runs libFuzzer with the process's arguments and `callback` as the target.
  ///
  /// SwiftPM renames an executable's `main`, so libFuzzer's own `main` cannot be used; the
  /// targets call the driver from theirs instead.
  public func runFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
  }
#endif

/// Copies libFuzzer's input into an array.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
  guard let data, size > 0 else { return [] }
  return [UInt8](UnsafeBufferPointer(start: data, count: size))
}
