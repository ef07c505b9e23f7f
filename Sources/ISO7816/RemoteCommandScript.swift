// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A command scripting template of ETSI TS 102 226 §5.2.1 (expanded format): the batch of
/// C-APDUs a remote server sends, in tag `AA` (definite length) or `AE` (indefinite).
public struct RemoteCommandScript: Sendable, Hashable {
  /// The C-APDUs (`22` TLVs), in order, as script steps that accept any status word the
  /// specification does not treat as an error (``StatusWordPattern/remoteAPDUNonError``).
  public var script: Script
  /// `81`: the Immediate Action TLV's value, when present.
  public var immediateAction: [UInt8]?
  /// `82`: the Error Action TLV's value, when present.
  public var errorAction: [UInt8]?
  /// `83`: the Script Chaining TLV's value, when present.
  public var scriptChaining: [UInt8]?

  /// Tag `AA`: command scripting template, definite length.
  public static let definiteTag: UInt8 = 0xAA
  /// Tag `AE`: command scripting template, indefinite length.
  public static let indefiniteTag: UInt8 = 0xAE
  /// Tag `22`: C-APDU TLV.
  public static let commandTag: UInt8 = 0x22

  /// Creates a command script.
  public init(
    script: Script, immediateAction: [UInt8]? = nil, errorAction: [UInt8]? = nil,
    scriptChaining: [UInt8]? = nil
  ) {
    self.script = script
    self.immediateAction = immediateAction
    self.errorAction = errorAction
    self.scriptChaining = scriptChaining
  }

  /// Parses a command scripting template that fills `bytes`.
  ///
  /// Bounded by `bytes`: one pass over one level of TLVs (no recursion), every length
  /// compared with what remains before it is read; at most one item per 2 bytes and one
  /// command per 6 (`22`, a length and a 4-byte header), each copied into an owned step, so
  /// the result takes a small multiple of `bytes.count`. The number of commands has no bound
  /// of its own: a caller that needs one bounds the template's size.
  ///
  /// - Throws: ``APDUError/Code/unexpectedTag`` for another template or item tag, the
  ///   BER-TLV header errors, ``APDUError/Code/trailingData``, and each C-APDU's decoding
  ///   error at its absolute offset with the step index.
  public init(parsing bytes: [UInt8], baseOffset: Int = 0) throws(APDUError) {
    let items = try RemoteAPDUTemplate.items(
      bytes.span.bytes, baseOffset: baseOffset, definite: Self.definiteTag,
      indefinite: Self.indefiniteTag)
    var steps: [ScriptStep] = []
    var result = RemoteCommandScript(script: Script())
    for item in items {
      switch item.tag {
      case Self.commandTag:
        do {
          let view = try CommandAPDUView(validating: item.value.span.bytes, baseOffset: item.valueOffset)
          steps.append(
            ScriptStep(
              command: CommandAPDU(view), expectedStatusWords: StatusWordPattern.remoteAPDUNonError,
              lengthEncoding: view.apduCase.isExtended ? .extended : .shortest))
        } catch { throw error.at(step: steps.count) }
      case 0x81: result.immediateAction = item.value
      case 0x82: result.errorAction = item.value
      case 0x83: result.scriptChaining = item.value
      default: throw APDUError(.unexpectedTag, offset: item.offset)
      }
    }
    result.script = Script(steps: steps)
    self = result
  }

  /// The template in the definite-length form `AA`: Script Chaining, Immediate Action and
  /// Error Action TLVs first when present, then one `22` TLV per step.
  ///
  /// - Throws: the command encoder's errors, with the step index.
  public func encodedBytes() throws(APDUError) -> [UInt8] {
    var items: [(UInt8, [UInt8])] = []
    if let scriptChaining { items.append((0x83, scriptChaining)) }
    if let immediateAction { items.append((0x81, immediateAction)) }
    if let errorAction { items.append((0x82, errorAction)) }
    for (index, step) in script.steps.enumerated() {
      do {
        items.append((Self.commandTag, try step.command.encodedBytes(lengthEncoding: step.lengthEncoding)))
      } catch { throw error.at(step: index) }
    }
    return RemoteAPDUTemplate.encode(tag: Self.definiteTag, items: items)
  }
}
