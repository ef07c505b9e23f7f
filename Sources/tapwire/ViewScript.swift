// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import JSONOutput

/// `tapwire view --as apduscript`: an applet-update script (the text format of
/// `Script(parsingText:)`, one command a line with its expected status words) as a table of
/// steps, each line parsed by that same parser.
extension ViewPage {
  /// A script's page: one field per line (its bytes in the text), a step's command decoded
  /// as `decode --as capdu` shows it and its expected status words explained (ISO/IEC 7816-4
  /// §5.1.3); a line that does not parse is an error in place, the other lines still shown.
  init(scriptTitle title: String, bytes: [UInt8]) {
    var nodes: [TreeNode] = []
    var failure: DecodeFailure?
    var lineStart = 0
    var stepCount = 0
    while lineStart < bytes.count {
      var lineEnd = lineStart
      while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
      let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
      do throws(APDUError) {
        let script = try Script(parsingText: line)
        if let step = script.steps.first {
          stepCount += 1
          nodes.append(Self.stepNode(step, number: stepCount, bytes, lineStart, lineEnd))
        } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
          nodes.append(TreeNode(bytes, at: lineStart, count: lineEnd - lineStart, "comment", ""))
        }
      } catch {
        let node = TreeNode.error(
          bytes, at: lineStart + error.offset, code: error.code.name, message: error.code.message)
        nodes.append(
          TreeNode(bytes, at: lineStart, count: lineEnd - lineStart, "line", "not a step", children: [node]))
        if failure == nil {
          failure = DecodeFailure(
            code: error.code.name, offset: lineStart + error.offset, message: error.code.message)
        }
      }
      lineStart = lineEnd + 1
    }
    self.init(
      title: title, bytes: bytes, formatName: "apduscript",
      summary:
        "applet-update script (apduscript), \(Describe.bytes(bytes.count)), \(counted(stepCount, "step", "steps"))",
      nodes: nodes, failure: failure)
  }

  /// A step's line: the command's fields (offsets in the command, not the text, so shown
  /// without a range) and each status word it accepts.
  static func stepNode(_ step: ScriptStep, number: Int, _ bytes: [UInt8], _ start: Int, _ end: Int)
    -> TreeNode
  {
    let command = (try? step.command.encodedBytes(lengthEncoding: step.lengthEncoding)) ?? []
    func unplaced(_ node: TreeNode) -> TreeNode {
      TreeNode(node.name, node.value, children: node.children.map(unplaced))
    }
    let fields = ISO7816Tree.capdu(command).map(unplaced)
    let instruction = fields.first { $0.name == "INS" }?.value ?? ""
    let accepted = step.expectedStatusWords.map { pattern -> TreeNode in
      guard let text = pattern.text else { return TreeNode("expects", "a status word pattern") }
      let word = StatusWord(rawValue: pattern.value)
      if pattern.mask == 0xFFFF { return TreeNode("expects", "\(text) = \(word.meaning)") }
      return TreeNode("expects", "\(text) = \(word.category.name)")
    }
    var children = [TreeNode("command", command.map(HexDump.byteHex).joined(), children: fields)] + accepted
    if step.expectedStatusWords.isEmpty { children.append(TreeNode("expects", "any status word")) }
    if let data = step.expectedData {
      children.append(TreeNode("expects data", data.map(HexDump.byteHex).joined()))
    }
    return TreeNode(bytes, at: start, count: end - start, "step \(number)", instruction, children: children)
  }
}
