// SPDX-License-Identifier: Apache-2.0
import JavaCardCAP
import Testing

/// A minimal CAP with one component file replaced (nil: removed) or one added.
func capReplacing(_ name: String, with data: [UInt8]?, folder: String = "pkg/javacard/") -> [UInt8] {
  var builder = ZIPBuilder()
  for (file, contents) in minimalComponents() where file != name { builder.add(folder + file, contents) }
  if let data { builder.add(folder + name, data) }
  return builder.build()
}

@Suite struct CAPComponentTests {
  @Test func missingDuplicateAndFolders() {
    for name in ["Header.cap", "Directory.cap", "Import.cap", "Class.cap", "Method.cap", "StaticField.cap"]
      + ["ConstantPool.cap", "RefLocation.cap"]
    {
      let bytes = capReplacing(name, with: nil)
      let error = capError(bytes)
      #expect(error?.code == .missingComponent)
      #expect(error?.component?.fileName == name)
      #expect(error?.offset == bytes.count - 22)
    }
    // Applet, Export, Descriptor and Debug may be absent.
    for name in ["Applet.cap", "Descriptor.cap", "Debug.cap"] {
      #expect(capError(capReplacing(name, with: nil)) == nil)
    }
    var builder = minimalCAP()
    builder.add("pkg/javacard/Method.cap", componentFile(7, [1]))
    let duplicate = builder.build()
    #expect(
      capError(duplicate)
        == CAPFileError(.duplicateComponent, offset: builder.centralOffsets[11], component: .method))
    builder = minimalCAP()
    builder.add("other/javacard/Export.cap", componentFile(10, [1]))
    let two = builder.build()
    #expect(capError(two) == CAPFileError(.multiplePackages, offset: builder.centralOffsets[11]))
    // Names that only look like components are other files.
    builder = minimalCAP()
    for name in [
      "pkg/javacard/Export.cap.bak", "pkg/notjavacard/Export.cap", "pkg/javacard/export.cap", "Export.cap",
    ] {
      builder.add(name, [0xFF])
    }
    #expect(capError(builder.build()) == nil)
    // Folder "javacard/" at the root is a package folder too.
    builder = minimalCAP(folder: "javacard/")
    #expect(capError(builder.build()) == nil)
  }

  @Test func framing() {
    #expect(
      capError(capReplacing("Class.cap", with: [6, 0]))
        == CAPFileError(.truncatedComponent, offset: 2, component: .class))
    #expect(
      capError(capReplacing("Class.cap", with: [5, 0, 0]))
        == CAPFileError(.componentTagMismatch, offset: 0, component: .class))
    #expect(
      capError(capReplacing("Class.cap", with: [6, 0, 2, 1]))
        == CAPFileError(.componentSizeMismatch, offset: 1, component: .class))
    #expect(capError(capReplacing("Class.cap", with: [6, 0, 0])) == nil)
  }

  @Test func header() {
    let aid: [UInt8] = [0xA0, 0, 0, 0, 0x01]
    func header(_ info: [UInt8]) -> CAPFileError? {
      capError(capReplacing("Header.cap", with: componentFile(1, info)))
    }
    let magic: [UInt8] = [0xDE, 0xCA, 0xFF, 0xED]
    #expect(header(magic + [1, 2, 4, 2, 1, 5] + aid) == nil)
    #expect(
      header([0xDE, 0xCA, 0xFF, 0xEE, 1, 2, 4, 2, 1, 5] + aid)
        == CAPFileError(.invalidMagic, offset: 3, component: .header))
    #expect(
      header(magic + [1, 2, 0x0C, 2, 1, 5] + aid)
        == CAPFileError(.extendedCAPNotSupported, offset: 9, component: .header))
    #expect(
      header(magic + [1, 2, 4, 2, 1, 4] + aid)
        == CAPFileError(.invalidAIDLength, offset: 12, component: .header))
    #expect(
      header(magic + [1, 2, 4, 2, 1, 17] + aid)
        == CAPFileError(.invalidAIDLength, offset: 12, component: .header))
    #expect(
      header(magic + [1, 2, 4, 2, 1, 6] + aid)
        == CAPFileError(.truncatedComponent, offset: 18, component: .header))
    #expect(
      header(magic + [1, 2, 4, 2, 1, 5] + aid + [0])
        == CAPFileError(.trailingComponentData, offset: 18, component: .header))
    #expect(header(magic + [1, 2, 4]) == CAPFileError(.truncatedComponent, offset: 10, component: .header))
    #expect(header([0xDE]) == CAPFileError(.truncatedComponent, offset: 4, component: .header))
    // Format 2.2: the package name follows.
    #expect(header(magic + [2, 2, 4, 2, 1, 5] + aid + [3] + Array("a/b".utf8)) == nil)
    #expect(
      header(magic + [2, 2, 4, 2, 1, 5] + aid)
        == CAPFileError(.truncatedComponent, offset: 18, component: .header))
    #expect(
      header(magic + [2, 2, 4, 2, 1, 5] + aid + [4] + Array("a/b".utf8))
        == CAPFileError(.truncatedComponent, offset: 22, component: .header))
  }

  @Test func appletAndImport() {
    let aid: [UInt8] = [0xA0, 0, 0, 0, 0x01, 0x01]
    func applet(_ info: [UInt8]) -> CAPFileError? {
      capError(capReplacing("Applet.cap", with: componentFile(3, info)))
    }
    #expect(applet([0]) == nil)
    #expect(applet([1, 6] + aid + [0, 1]) == nil)
    #expect(applet([1, 6] + aid + [0]) == CAPFileError(.truncatedComponent, offset: 12, component: .applet))
    #expect(
      applet([2, 6] + aid + [0, 1]) == CAPFileError(.truncatedComponent, offset: 13, component: .applet))
    #expect(applet([1, 3] + aid + [0, 1]) == CAPFileError(.invalidAIDLength, offset: 4, component: .applet))
    #expect(
      applet([1, 6] + aid + [0, 1, 9]) == CAPFileError(.trailingComponentData, offset: 13, component: .applet)
    )
    #expect(applet([]) == CAPFileError(.truncatedComponent, offset: 3, component: .applet))
    func imports(_ info: [UInt8]) -> CAPFileError? {
      capError(capReplacing("Import.cap", with: componentFile(4, info)))
    }
    #expect(imports([0]) == nil)
    #expect(imports([1, 0, 1, 6] + aid) == nil)
    #expect(
      imports([1, 0, 1, 16] + aid) == CAPFileError(.truncatedComponent, offset: 13, component: .import))
    #expect(imports([1, 0, 1, 0]) == CAPFileError(.invalidAIDLength, offset: 6, component: .import))
    #expect(imports([0, 0]) == CAPFileError(.trailingComponentData, offset: 4, component: .import))
  }
}
