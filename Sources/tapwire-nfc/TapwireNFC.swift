import Foundation
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCWire
import PN532Simulator

/// `tapwire-nfc`: the commands that touch a reader (libnfc) or run the PN532 simulator.
/// `tapwire read`, `tapwire simulate` and `tapwire apdu` run it, so that `tapwire` itself
/// builds and runs without libnfc.
@main
struct TapwireNFC {
  static let usage = """
    usage: tapwire-nfc simulate [--tag ntag213|ntag215|ntag216|ultralight|type4] [--image FILE]
           tapwire-nfc dump [--device CONNSTRING] [--timeout SECONDS]

      simulate  run a PN532 reader on a pseudo-terminal serving a Type 2 tag (blank, or
                the memory image in FILE) or a Type 4 tag (FILE: its NDEF message);
                prints the device path and the libnfc connection string, and runs
                until standard input closes
      dump      wait for a tag and print its format and bytes: "t2t <memory image hex>" for
                Type 2, "ndef <message hex>" for Type 4
    """

  static func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("tapwire: \(message)\n".utf8))
    exit(status)
  }

  static func main() async {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else { fail(usage) }
    arguments.removeFirst()
    switch command {
    case "simulate": simulate(arguments)
    case "dump": await dump(arguments)
    case "-h", "--help", "help": print(usage)
    default: fail("unknown command '\(command)'\n\(usage)")
    }
  }

  static func value(after flag: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
  }

  static func simulate(_ arguments: [String]) {
    let products: [String: Type2Product] = [
      "ntag213": .ntag213, "ntag215": .ntag215, "ntag216": .ntag216, "ultralight": .ultralight,
    ]
    let name = value(after: "--tag", in: arguments) ?? "ntag215"
    let image: [UInt8]?
    if let path = value(after: "--image", in: arguments) {
      guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
      image = [UInt8](data)
    } else {
      image = nil
    }
    let tag: SimulatedTag
    do throws(SimulatorError) {
      if name == "type4" {
        // For a Type 4 tag, --image is the NDEF message held in its NDEF file.
        let system = Type4FileSystem.ndef(message: image ?? [0xD0, 0x00, 0x00])
        tag = .type4(try SimulatedType4Tag(uid: [0x08, 0x54, 0x57, 0x04], applet: .fileSystem(system)))
      } else {
        guard let product = products[name] else {
          fail("unknown tag '\(name)' (\((products.keys.sorted() + ["type4"]).joined(separator: ", ")))")
        }
        if let image {
          tag = .type2(try SimulatedType2Tag(product: product, memory: image))
        } else {
          tag = .type2(
            try SimulatedType2Tag(product: product, uid: [0x04, 0x54, 0x57, 0x01, 0x02, 0x03, 0x04]))
        }
      }
    } catch {
      fail("\(error)", status: 1)
    }
    let simulator: PN532Simulator
    do throws(SimulatorError) {
      simulator = try PN532Simulator(tag: tag)
    } catch {
      fail("\(error)", status: 1)
    }
    FileHandle.standardOutput.write(Data("\(simulator.devicePath)\n\(simulator.connstring)\n".utf8))
    // Serve until standard input closes (the caller stops us by closing it, or by PID).
    _ = FileHandle.standardInput.readDataToEndOfFile()
    simulator.close()
  }

  /// "t2t <memory image>" for a Type 2 tag, "ndef <message>" for a Type 4 tag (read
  /// through the Type 4 NDEF procedure; an empty tag gives the Empty record).
  static func read(_ tag: LibNFCTag, with reader: LibNFCReader) async throws(ReaderError) -> String {
    switch tag.kind {
    case .type2:
      return "t2t " + Hex.string(try await reader.readMemory(of: tag))
    case .type4:
      do throws(LibNFCNDEFError) {
        let message = try await reader.readNDEF(from: tag)
        return "ndef " + Hex.string((try? message?.encodedBytes()) ?? [0xD0, 0x00, 0x00])
      } catch {
        if let readerError = error.readerError { throw readerError }
        throw ReaderError(.tagError, "\(error)")
      }
    default:
      throw ReaderError(
        .unsupportedFeature,
        "tag \(Hex.string(tag.uid)) is \(tag.kind); only Type 2 and Type 4 tags are read here yet")
    }
  }

  static func dump(_ arguments: [String]) async {
    let connstring = value(after: "--device", in: arguments)
    let timeout = Double(value(after: "--timeout", in: arguments) ?? "") ?? 10
    let reader: LibNFCReader
    do throws(ReaderError) {
      reader = try await LibNFCReader.open(connstring: connstring)
    } catch {
      fail("no reader: \(error)", status: 1)
    }
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while ContinuousClock.now < deadline {
      do throws(ReaderError) {
        if let tag = try await reader.poll() {
          let line = try await read(tag, with: reader)
          await reader.close()
          print(line)
          return
        }
      } catch {
        await reader.close()
        fail("read failed: \(error)", status: 1)
      }
      try? await Task.sleep(for: .milliseconds(100))
    }
    await reader.close()
    fail("no tag within \(timeout) s", status: 1)
  }
}
