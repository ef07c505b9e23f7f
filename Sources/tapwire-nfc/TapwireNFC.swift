import Foundation
import NDEF
import NFCReader
import NFCReaderLibNFC
import PN532Simulator

/// `tapwire-nfc`: the commands that touch a reader (libnfc) or run the PN532 simulator.
/// `tapwire read`, `tapwire simulate` and `tapwire apdu` run it, so that `tapwire` itself
/// builds and runs without libnfc.
@main
struct TapwireNFC {
  static let usage = """
    usage: tapwire-nfc simulate [--tag ntag213|ntag215|ntag216|ultralight] [--image FILE]
           tapwire-nfc dump [--device CONNSTRING] [--timeout SECONDS]

      simulate  run a PN532 reader on a pseudo-terminal serving a Type 2 tag (blank, or
                the memory image in FILE); prints the device path and the libnfc
                connection string, and runs until standard input closes
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
    guard let product = products[name] else {
      fail("unknown tag '\(name)' (\(products.keys.sorted().joined(separator: ", ")))")
    }
    let tag: SimulatedType2Tag
    do throws(SimulatorError) {
      if let path = value(after: "--image", in: arguments) {
        guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
        tag = try SimulatedType2Tag(product: product, memory: [UInt8](data))
      } else {
        tag = try SimulatedType2Tag(product: product, uid: [0x04, 0x54, 0x57, 0x01, 0x02, 0x03, 0x04])
      }
    } catch {
      fail("\(error)", status: 1)
    }
    let simulator: PN532Simulator
    do throws(SimulatorError) {
      simulator = try PN532Simulator(tag: .type2(tag))
    } catch {
      fail("\(error)", status: 1)
    }
    FileHandle.standardOutput.write(Data("\(simulator.devicePath)\n\(simulator.connstring)\n".utf8))
    // Serve until standard input closes (the caller stops us by closing it, or by PID).
    _ = FileHandle.standardInput.readDataToEndOfFile()
    simulator.close()
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
          guard case .type2 = tag.kind else {
            await reader.close()
            fail(
              "tag \(tag.uid.map { String(format: "%02X", $0) }.joined()) is \(tag.kind); only Type 2 dumps here yet",
              status: 1)
          }
          let image = try await reader.readMemory(of: tag)
          print("t2t " + image.map { String(format: "%02x", $0) }.joined())
          await reader.close()
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
