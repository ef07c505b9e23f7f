// SPDX-License-Identifier: Apache-2.0
/// Collects lenient-mode warnings, or throws the first broken rule in strict mode.
struct WarningSink {
  let lenient: Bool
  var warnings: [NDEFWarning] = []

  init(lenient: Bool) { self.lenient = lenient }

  /// Reports a broken rule: thrown in strict mode, recorded in lenient mode.
  mutating func report(_ code: NDEFError.Code, at offset: Int) throws(NDEFError) {
    guard lenient else { throw NDEFError(code, offset: offset) }
    warnings.append(NDEFWarning(code, offset: offset))
  }
}
