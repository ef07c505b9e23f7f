// SPDX-License-Identifier: Apache-2.0
import BlueZ
import Testing

/// The nesting bound of reading a D-Bus message's values (`DBusValue.maximumDepth`, 64 as
/// libdbus's `DBUS_INVALID_NESTED_TOO_DEEPLY`): values are written into a real libdbus
/// message and read back the way every received message is.
@Suite struct DBusValueBoundTests {
  /// `count` variants around `inner`.
  static func variants(_ count: Int, around inner: DBusValue = .byte(7)) -> DBusValue {
    (0..<count).reduce(inner) { value, _ in .variant(value) }
  }

  /// 64 levels alternating structs and arrays around the string "x": 32 of each, the most a
  /// valid signature holds (D-Bus Specification §"Valid Signatures").
  static let arraysAndStructs: DBusValue = (0..<64).reduce(DBusValue.string("x")) { value, level in
    level % 2 == 0 ? .structure([value]) : .array([value], elementSignature: value.signature)
  }

  /// The containers from the top down to the first value that is not one, and that value.
  static func levels(_ value: DBusValue) -> (Int, DBusValue) {
    var value = value
    var count = 0
    while true {
      switch value {
      case .variant(let inner): value = inner
      case .structure(let items), .array(let items, _):
        guard let first = items.first else { return (count, value) }
        value = first
      default: return (count, value)
      }
      count += 1
    }
  }

  @Test func theBoundIsLibdbusOwn() {
    #expect(DBusValue.maximumDepth == 64)
  }

  @Test func nestingUpToTheBoundReadsWhole() {
    for value in [Self.variants(64), Self.arraysAndStructs, Self.variants(1), .byte(7)] {
      #expect(DBusValue.throughMessage([value]) == [value])
    }
  }

  /// A container past the bound reads as `unsupported` with its type code ('v' 118, 'r'
  /// 114) and nothing under it is read: the recursion stops at the bound however deep the
  /// message goes (libdbus itself refuses more than 64 levels in a received message). At most
  /// 100 levels here: libdbus 1.14's writer corrupts its heap building 256 or more nested
  /// variants (`munmap_chunk(): invalid pointer`, also from C), a message no peer can send,
  /// since the bus daemon and libdbus's reader refuse it.
  @Test(arguments: [65, 100])
  func variantsPastTheBoundStopThere(depth: Int) throws {
    let read = try #require(DBusValue.throughMessage([Self.variants(depth)]))
    #expect(read == [Self.variants(64, around: .unsupported(118))])
  }

  @Test func structsAndArraysPastTheBoundStopThere() throws {
    let read = try #require(DBusValue.throughMessage([.variant(Self.arraysAndStructs)]))
    let (count, innermost) = Self.levels(try #require(read.first))
    #expect(count == 64)
    // The 65th container from the top is the innermost struct.
    #expect(innermost == .unsupported(114))
  }

  /// A lower bound cuts where it says (the same code path as the default).
  @Test func aLowerBoundCutsThere() {
    #expect(
      DBusValue.throughMessage([Self.variants(3)], limit: 2) == [Self.variants(2, around: .unsupported(118))])
    #expect(
      DBusValue.throughMessage([.byte(1), .variant(.byte(2))], limit: 0) == [.byte(1), .unsupported(118)])
  }
}
