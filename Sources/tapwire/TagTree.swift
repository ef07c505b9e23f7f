// SPDX-License-Identifier: Apache-2.0
import JSONOutput
import NDEF
import NFCTags
import NFCWire

/// The human tree of tag memory images (T1T 1.2, T2T 1.0, T3T 1.0, T5T 1.0) and Type 4 CC
/// files (T4T 3.0 §5.1), from the `NFCTags` views.
enum TagTree {
  /// Access nibble of a Type 1/2 CC (T2T 1.0 §6.1): 0 granted, F none, else proprietary.
  static func accessText(_ nibble: UInt8) -> String {
    switch nibble {
    case 0x0: return "granted"
    case 0xF: return "no access"
    default: return "proprietary"
    }
  }

  static func magicText(_ magic: UInt8) -> String {
    switch magic {
    case 0xE1: return "NDEF data present"
    case 0xE2: return "NDEF data present, 2-byte addressing"
    default: return "not NDEF"
    }
  }

  /// The TLVs of a tag's data area, the lock and reserved areas, and the NDEF message.
  static func area(_ area: borrowing TagTLVAreaView, image: [UInt8], options: NDEFDecodingOptions)
    -> [TreeNode]
  {
    var result: [TreeNode] = []
    let ndefOffset = area.area.ndefTLV?.valueOffset
    for tlv in area.tlvList() {
      let headerCount = tlv.type.isSingleByte ? 1 : 1 + tlv.lengthFieldSize
      var children = [
        TreeNode(
          image, at: tlv.offset, count: 1, "T", "\(Describe.hex(tlv.type.rawValue)) = \(tlv.type.name)")
      ]
      if !tlv.type.isSingleByte {
        children.append(TreeNode(image, at: tlv.offset + 1, count: tlv.lengthFieldSize, "L", "\(tlv.length)"))
      }
      if tlv.type == .ndef, tlv.valueOffset == ndefOffset, tlv.length > 0 {
        let contiguous = area.ndefBytes != nil
        let bytes = contiguous ? image : area.assembledNDEFBytes()
        let base = contiguous ? 0 : tlv.valueOffset
        let tree = NDEFTree(source: bytes, base: base, options: options)
        let records: [TreeNode]
        if contiguous {
          let slice = Array(image[tlv.valueOffset..<min(image.count, tlv.valueOffset + tlv.length)])
          records = tree.records(decoding: slice, baseOffset: tlv.valueOffset)
        } else {
          records = tree.records(decoding: bytes, baseOffset: base)
        }
        children.append(
          TreeNode(
            image, at: tlv.valueOffset, count: tlv.length, "NDEF message",
            Describe.bytes(tlv.length) + (contiguous ? "" : ", around lock or reserved areas"),
            children: records))
      } else if tlv.length > 0 {
        children.append(
          TreeNode(image, at: tlv.valueOffset, count: tlv.length, "V", Describe.bytes(tlv.length)))
      }
      result.append(
        TreeNode(
          image, at: tlv.offset, count: headerCount + tlv.length, "TLV \(tlv.type.name)",
          tlv.type.isSingleByte ? "" : "length \(tlv.length)", children: children))
    }
    for memory in area.area.map.areas {
      let text =
        memory.kind == .lock
        ? "\(memory.bitCount) lock bits, each locks \(Describe.bytes(memory.bytesLockedPerBit))"
        : "reserved, skipped by the data area"
      let outside =
        memory.end > image.count ? ", bytes \(memory.offset)-\(memory.end - 1) past the end of the image" : ""
      result.append(
        TreeNode(image, at: memory.offset, count: memory.length, "\(memory.kind.name) area", text + outside))
    }
    // Strict-mode TLV errors that left the NDEF TLV located: each in place, with a caret.
    for error in area.area.errors {
      result.append(.error(image, at: error.offset, code: error.code.name, message: error.code.message))
    }
    return result
  }

  static func summary(dataAreaSize: Int, maxNDEFSize: Int, readOnly: Bool) -> [TreeNode] {
    [
      TreeNode("data area", Describe.bytes(dataAreaSize)),
      TreeNode("largest NDEF message", Describe.bytes(maxNDEFSize)),
      TreeNode("read-only", readOnly ? "yes" : "no"),
    ]
  }

  static func t1t(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    guard let view = try? Type1TagView(scanning: bytes.span.bytes, options: lenient ? .lenient : .strict)
    else { return [] }
    let cc = view.capabilityContainer
    let ccOffset = Type1TagView.capabilityContainerOffset
    var result = [TreeNode(bytes, at: 0, count: 7, "UID", "block 0, bytes 0-6")]
    if let rom = view.headerROM {
      result.append(
        TreeNode(
          "header ROM",
          "HR0 \(Describe.hex(rom.hr0)) HR1 \(Describe.hex(rom.hr1)) = \(rom.isNDEFCapable ? "NDEF capable" : "not NDEF"), \(rom.isStatic ? "static" : "dynamic") memory"
        ))
    }
    result.append(
      TreeNode(
        bytes, at: ccOffset, count: 4, "capability container", "",
        children: [
          TreeNode(
            bytes, at: ccOffset, count: 1, "magic", "\(Describe.hex(cc.magic)) = \(magicText(cc.magic))"),
          TreeNode(
            bytes, at: ccOffset + 1, count: 1, "version",
            "\(Describe.hex(cc.version)) = \(cc.version >> 4).\(cc.version & 0x0F)"),
          TreeNode(
            bytes, at: ccOffset + 2, count: 1, "size",
            "\(cc.size) = \(Describe.bytes(cc.memorySize)) of memory, \(cc.isStatic ? "static" : "dynamic") layout"
          ),
          TreeNode(
            bytes, at: ccOffset + 3, count: 1, "access",
            "\(Describe.hex(cc.access)) = read \(accessText(cc.access >> 4)), write \(accessText(cc.access & 0x0F))"
          ),
        ]))
    let ndefOptions: NDEFDecodingOptions = lenient ? .lenient : .strict
    result += area(view.tlvArea, image: bytes, options: ndefOptions)
    if cc.isStatic, bytes.count >= Type1TagView.fixedAreasEnd {
      result.append(
        TreeNode(bytes, at: Type1TagView.reservedBlockOffset, count: 8, "reserved block", "block 0x0d"))
      result.append(
        TreeNode(
          bytes, at: Type1TagView.staticLockOffset, count: 2, "static lock bytes",
          view.isLocked ? "locked" : "unlocked"))
    }
    return result
      + summary(dataAreaSize: view.dataAreaSize, maxNDEFSize: view.maximumNDEFSize, readOnly: view.isReadOnly)
  }

  static func t2t(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    guard let view = try? Type2TagView(scanning: bytes.span.bytes, options: lenient ? .lenient : .strict)
    else { return [] }
    let cc = view.capabilityContainer
    let ccOffset = Type2TagView.capabilityContainerOffset
    var result = [
      TreeNode(bytes, at: 0, count: 9, "serial number", "UID and check bytes, pages 0-2"),
      TreeNode(bytes, at: 9, count: 1, "internal", ""),
      TreeNode(
        bytes, at: 10, count: 2, "static lock bytes",
        "\(Describe.hex16(view.staticLockBits)) = \(view.isStaticallyLocked ? "locked" : view.staticLockBits == 0 ? "unlocked" : "partly locked")"
      ),
      TreeNode(
        bytes, at: ccOffset, count: 4, "capability container",
        view.variant.map { "matches \($0.name)" } ?? "",
        children: [
          TreeNode(
            bytes, at: ccOffset, count: 1, "magic", "\(Describe.hex(cc.magic)) = \(magicText(cc.magic))"),
          TreeNode(
            bytes, at: ccOffset + 1, count: 1, "version",
            "\(Describe.hex(cc.version)) = \(cc.majorVersion).\(cc.minorVersion)"),
          TreeNode(
            bytes, at: ccOffset + 2, count: 1, "size",
            "\(cc.size) = \(Describe.bytes(cc.dataAreaSize)) data area"),
          TreeNode(
            bytes, at: ccOffset + 3, count: 1, "access",
            "\(Describe.hex(cc.access)) = read \(accessText(cc.readAccess)), write \(accessText(cc.writeAccess))"
          ),
        ]),
    ]
    result += area(view.tlvArea, image: bytes, options: lenient ? .lenient : .strict)
    return result
      + summary(dataAreaSize: view.dataAreaSize, maxNDEFSize: view.maximumNDEFSize, readOnly: view.isReadOnly)
  }

  static func t5t(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    guard let view = try? Type5TagView(scanning: bytes.span.bytes, options: lenient ? .lenient : .strict)
    else { return [] }
    let cc = view.capabilityContainer
    var features: [String] = []
    if cc.supportsMultipleBlockRead { features.append("READ MULTIPLE BLOCKS") }
    if cc.supportsLockBlock { features.append("LOCK BLOCK") }
    if cc.requiresSpecialFrame { features.append("special frame") }
    let access = ["granted", "proprietary", "proprietary", "no access"]
    var children = [
      TreeNode(bytes, at: 0, count: 1, "magic", "\(Describe.hex(cc.magic)) = \(magicText(cc.magic))"),
      TreeNode(
        bytes, at: 1, count: 1, "version and access",
        "\(Describe.hex(cc.versionAndAccess)) = version \(cc.majorVersion).\(cc.minorVersion), read \(access[Int(cc.readAccess)]), write \(access[Int(cc.writeAccess)])"
      ),
    ]
    if cc.isEightBytes {
      children.append(TreeNode(bytes, at: 2, count: 1, "MLEN", "0 = see the 8-byte CC"))
      children.append(
        TreeNode(
          bytes, at: 3, count: 1, "features",
          "\(Describe.hex(cc.features)) = \(features.isEmpty ? "none" : features.joined(separator: ", "))"))
      children.append(
        TreeNode(bytes, at: 6, count: 2, "MLEN", "\(cc.mlen) = \(Describe.bytes(cc.dataAreaSize)) data area"))
    } else {
      children.append(
        TreeNode(bytes, at: 2, count: 1, "MLEN", "\(cc.mlen) = \(Describe.bytes(cc.dataAreaSize)) data area"))
      children.append(
        TreeNode(
          bytes, at: 3, count: 1, "features",
          "\(Describe.hex(cc.features)) = \(features.isEmpty ? "none" : features.joined(separator: ", "))"))
    }
    var result = [
      TreeNode(
        bytes, at: 0, count: cc.byteCount, "capability container", "\(cc.byteCount) bytes", children: children
      )
    ]
    result += area(view.tlvArea, image: bytes, options: lenient ? .lenient : .strict)
    return result
      + summary(dataAreaSize: view.dataAreaSize, maxNDEFSize: view.maximumNDEFSize, readOnly: view.isReadOnly)
  }

  static func t3t(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    guard let view = try? Type3TagView(validating: bytes.span.bytes, options: lenient ? .lenient : .strict)
    else { return [] }
    let aib = view.attributeInformation
    let aibNodes = [
      TreeNode(
        bytes, at: 0, count: 1, "Ver",
        "\(Describe.hex(aib.version)) = \(aib.version >> 4).\(aib.version & 0x0F)"),
      TreeNode(bytes, at: 1, count: 1, "Nbr", "\(aib.blocksPerRead) blocks per CHECK"),
      TreeNode(bytes, at: 2, count: 1, "Nbw", "\(aib.blocksPerWrite) blocks per UPDATE"),
      TreeNode(
        bytes, at: 3, count: 2, "Nmaxb", "\(aib.maximumBlocks) blocks = \(Describe.bytes(aib.dataAreaSize))"),
      TreeNode(bytes, at: 5, count: 4, "unused", ""),
      TreeNode(
        bytes, at: 9, count: 1, "WriteFlag",
        "\(Describe.hex(aib.writeFlag)) = \(aib.writeFlag == Type3AttributeInformation.writeFlagOn ? "writing in progress" : "done")"
      ),
      TreeNode(
        bytes, at: 10, count: 1, "RWFlag",
        "\(Describe.hex(aib.accessFlag)) = \(aib.isWritable ? "read/write" : "read-only")"),
      TreeNode(bytes, at: 11, count: 3, "Ln", "\(aib.ndefLength) bytes of NDEF"),
      TreeNode(bytes, at: 14, count: 2, "checksum", Describe.hex16(view.checksum)),
    ]
    var result = [TreeNode(bytes, at: 0, count: 16, "attribute information block", "", children: aibNodes)]
    let ndefOptions: NDEFDecodingOptions = lenient ? .lenient : .strict
    let ndef = view.ndefBytes.copiedBytes()
    if !ndef.isEmpty {
      let records = NDEFTree(source: bytes, options: ndefOptions).records(
        decoding: ndef, baseOffset: Type3TagView.ndefOffset)
      result.append(
        TreeNode(
          bytes, at: Type3TagView.ndefOffset, count: ndef.count, "NDEF message", Describe.bytes(ndef.count),
          children: records))
    }
    return result
      + summary(dataAreaSize: view.dataAreaSize, maxNDEFSize: view.maximumNDEFSize, readOnly: view.isReadOnly)
  }

  /// Type 4 CC file fields keep the JSON key names (`fileIdentifier`, `writeAccess`, ...).
  static func t4t(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    var ccErrors: [NFCTagError] = []
    guard let cc = try? Type4CapabilityContainer(scanning: bytes, errors: &ccErrors) else { return [] }
    let control = cc.fileControl
    let lengthValid = !ccErrors.contains { $0.offset == 0 }
    let sizeCount = control.isExtended ? 4 : 2
    func access(_ condition: UInt8) -> String {
      "\(condition)" + JSONTree.annotation("readAccess", .int(Int(condition)))
    }
    var tlvs: [TreeNode] = []
    if case .success(let json) = T4TOutput.t4t(bytes, lenient: lenient), case .object(let pairs) = json,
      case .array(let list)? = pairs.first(where: { $0.0 == "tlvs" })?.1
    {
      for item in list {
        guard case .object(let fields) = item else { continue }
        var offset = 0
        var length = 0
        var name = ""
        for (key, value) in fields {
          switch (key, value) {
          case ("offset", .int(let number)): offset = number
          case ("length", .int(let number)): length = number
          case ("typeName", .string(let text)): name = text
          default: break
          }
        }
        var children: [TreeNode] = []
        if offset == 7 {
          let fileOffset = offset + 2
          children = [
            TreeNode(
              bytes, at: fileOffset, count: 2, "fileIdentifier",
              Hex.string(Array(bytes[fileOffset..<fileOffset + 2]))),
            TreeNode(
              bytes, at: fileOffset + 2, count: sizeCount, "maxFileSize", "\(control.maximumFileSize)"),
            TreeNode(bytes, at: cc.readAccessOffset, count: 1, "readAccess", access(control.readAccess)),
            TreeNode(bytes, at: cc.writeAccessOffset, count: 1, "writeAccess", access(control.writeAccess)),
          ]
        }
        tlvs.append(
          TreeNode(
            bytes, at: offset, count: length + 2, "TLV \(name)", "length \(length)", children: children))
      }
    }
    var result =
      [
        TreeNode(bytes, at: 0, count: 2, "CCLEN", "\(cc.length)"),
        TreeNode(
          bytes, at: 2, count: 1, "versionText",
          "\(cc.majorVersion).\(cc.minorVersion) (\(Describe.hex(cc.mappingVersion)))"),
        TreeNode(bytes, at: 3, count: 2, "mle", "\(cc.maximumReadLength) = largest R-APDU data"),
        TreeNode(bytes, at: 5, count: 2, "mlc", "\(cc.maximumWriteLength) = largest C-APDU data"),
      ] + tlvs
    // A field whose value breaks a rule: its error in place, with a caret (§5.1).
    for error in ccErrors {
      result.append(.error(bytes, at: error.offset, code: error.code.name, message: error.code.message))
    }
    let ccEnd = T4TOutput.ccEnd(cc, bytes, lengthValid: lengthValid)
    if lengthValid, ccEnd + control.lengthFieldSize <= bytes.count {
      let ndefOptions: NDEFDecodingOptions = lenient ? .lenient : .strict
      var length = 0
      for index in ccEnd..<(ccEnd + control.lengthFieldSize) { length = length << 8 | Int(bytes[index]) }
      let start = ccEnd + control.lengthFieldSize
      result.append(
        TreeNode(
          bytes, at: ccEnd, count: control.lengthFieldSize, control.isExtended ? "ENLEN" : "NLEN", "\(length)"
        ))
      if length > 0, start + length <= bytes.count {
        let message = Array(bytes[start..<start + length])
        let records = NDEFTree(source: bytes, options: ndefOptions).records(
          decoding: message, baseOffset: start)
        result.append(
          TreeNode(bytes, at: start, count: length, "NDEF message", Describe.bytes(length), children: records)
        )
      }
    }
    return result + [
      TreeNode("read-only", control.isWritable ? "no" : "yes"),
      TreeNode("largest NDEF message", Describe.bytes(control.maximumMessageSize)),
    ]
  }
}
