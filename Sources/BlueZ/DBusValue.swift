// SPDX-License-Identifier: Apache-2.0
import CDBus

/// One D-Bus value as BlueZ sends it (D-Bus Specification §"Type System"): the basic types,
/// arrays, dictionaries (arrays of dict entries), structs and variants.
public indirect enum DBusValue: Sendable, Hashable {
  /// `y`
  case byte(UInt8)
  /// `b`
  case bool(Bool)
  /// `n`
  case int16(Int16)
  /// `q`
  case uint16(UInt16)
  /// `i`
  case int32(Int32)
  /// `u`
  case uint32(UInt32)
  /// `x`
  case int64(Int64)
  /// `t`
  case uint64(UInt64)
  /// `d`
  case double(Double)
  /// `s`
  case string(String)
  /// `o`
  case objectPath(String)
  /// `g`
  case signature(String)
  /// `a…` with the element signature (needed to write an empty array).
  case array([DBusValue], elementSignature: String)
  /// `a{…}`: key/value pairs in order, with the key and value signatures.
  case dictionary([DBusPair], keySignature: String, valueSignature: String)
  /// `(…)`
  case structure([DBusValue])
  /// `v`
  case variant(DBusValue)
  /// A file descriptor or another type BlueZ does not send here.
  case unsupported(Int32)

  /// The value inside any number of variants.
  public var unwrapped: DBusValue {
    if case .variant(let inner) = self { return inner.unwrapped }
    return self
  }

  /// The string of `s`, `o` and `g` values.
  public var stringValue: String? {
    switch unwrapped {
    case .string(let s), .objectPath(let s), .signature(let s): return s
    default: return nil
    }
  }

  /// Integers of any width, as `Int`.
  public var intValue: Int? {
    switch unwrapped {
    case .byte(let v): return Int(v)
    case .int16(let v): return Int(v)
    case .uint16(let v): return Int(v)
    case .int32(let v): return Int(v)
    case .uint32(let v): return Int(v)
    case .int64(let v): return Int(v)
    case .uint64(let v): return Int(exactly: v)
    default: return nil
    }
  }

  /// `b` values.
  public var boolValue: Bool? {
    if case .bool(let b) = unwrapped { return b }
    return nil
  }

  /// `ay` values.
  public var bytesValue: [UInt8]? {
    guard case .array(let items, _) = unwrapped else { return nil }
    var bytes: [UInt8] = []
    for item in items {
      guard case .byte(let b) = item else { return nil }
      bytes.append(b)
    }
    return bytes
  }

  /// Array elements.
  public var arrayValue: [DBusValue]? {
    if case .array(let items, _) = unwrapped { return items }
    return nil
  }

  /// Dictionary entries.
  public var dictionaryValue: [DBusPair]? {
    if case .dictionary(let pairs, _, _) = unwrapped { return pairs }
    return nil
  }

  /// `a{sv}` as a Swift dictionary of the unwrapped values.
  public var propertyMap: [String: DBusValue]? {
    guard let pairs = dictionaryValue else { return nil }
    var map: [String: DBusValue] = [:]
    for pair in pairs {
      if let key = pair.key.stringValue { map[key] = pair.value.unwrapped }
    }
    return map
  }

  /// The value's D-Bus signature.
  public var signature: String {
    switch self {
    case .byte: return "y"
    case .bool: return "b"
    case .int16: return "n"
    case .uint16: return "q"
    case .int32: return "i"
    case .uint32: return "u"
    case .int64: return "x"
    case .uint64: return "t"
    case .double: return "d"
    case .string: return "s"
    case .objectPath: return "o"
    case .signature: return "g"
    case .array(_, let element): return "a" + element
    case .dictionary(_, let key, let value): return "a{" + key + value + "}"
    case .structure(let items): return "(" + items.map(\.signature).joined() + ")"
    case .variant: return "v"
    case .unsupported(let type): return String(UnicodeScalar(UInt8(truncatingIfNeeded: type)))
    }
  }
}

/// One entry of a ``DBusValue/dictionary(_:keySignature:valueSignature:)``.
public struct DBusPair: Sendable, Hashable {
  /// The key.
  public var key: DBusValue
  /// The value.
  public var value: DBusValue

  /// Creates an entry.
  public init(_ key: DBusValue, _ value: DBusValue) {
    self.key = key
    self.value = value
  }
}

// MARK: Reading and writing libdbus message iterators

extension DBusValue {
  /// The deepest nesting of containers (arrays, dict entries, structs, variants) that
  /// ``read(_:depth:limit:)`` follows: 64, libdbus's own bound on a received message (it
  /// refuses one nested deeper as `DBUS_INVALID_NESTED_TOO_DEEPLY`: 32 levels of arrays and 32
  /// of structs, D-Bus Specification §"Valid Signatures", and as many variants counted with
  /// them). Reading recurses once per level, so the bound holds even if a libdbus without
  /// that check hands over a deeper message; a container past it reads as
  /// ``unsupported(_:)`` with its type code.
  package static let maximumDepth = 64

  /// Reads the value at `iter` (libdbus `dbus_message_iter_get_*`), `depth` containers deep;
  /// containers past `limit` read as ``unsupported(_:)``.
  static func read(_ iter: inout DBusMessageIter, depth: Int = 0, limit: Int = maximumDepth) -> DBusValue {
    let type = unsafe dbus_message_iter_get_arg_type(&iter)
    let isContainer =
      type == DBUS_TYPE_VARIANT || type == DBUS_TYPE_STRUCT || type == DBUS_TYPE_ARRAY
      || type == DBUS_TYPE_DICT_ENTRY
    if isContainer && depth >= limit { return .unsupported(type) }
    switch type {
    case DBUS_TYPE_BYTE: return unsafe .byte(basic(&iter, UInt8(0)))
    case DBUS_TYPE_BOOLEAN: return unsafe .bool(basic(&iter, dbus_bool_t(0)) != 0)
    case DBUS_TYPE_INT16: return unsafe .int16(basic(&iter, Int16(0)))
    case DBUS_TYPE_UINT16: return unsafe .uint16(basic(&iter, UInt16(0)))
    case DBUS_TYPE_INT32: return unsafe .int32(basic(&iter, Int32(0)))
    case DBUS_TYPE_UINT32: return unsafe .uint32(basic(&iter, UInt32(0)))
    case DBUS_TYPE_INT64: return unsafe .int64(basic(&iter, Int64(0)))
    case DBUS_TYPE_UINT64: return unsafe .uint64(basic(&iter, UInt64(0)))
    case DBUS_TYPE_DOUBLE: return unsafe .double(basic(&iter, Double(0)))
    case DBUS_TYPE_STRING, DBUS_TYPE_OBJECT_PATH, DBUS_TYPE_SIGNATURE:
      var pointer: UnsafePointer<CChar>? = nil
      unsafe dbus_message_iter_get_basic(&iter, &pointer)
      let text = unsafe pointer.map { unsafe String(cString: $0) } ?? ""
      if type == DBUS_TYPE_STRING { return .string(text) }
      return type == DBUS_TYPE_OBJECT_PATH ? .objectPath(text) : .signature(text)
    case DBUS_TYPE_VARIANT:
      var sub = unsafe DBusMessageIter()
      unsafe dbus_message_iter_recurse(&iter, &sub)
      return unsafe .variant(read(&sub, depth: depth + 1, limit: limit))
    case DBUS_TYPE_STRUCT:
      var sub = unsafe DBusMessageIter()
      unsafe dbus_message_iter_recurse(&iter, &sub)
      return unsafe .structure(readAll(&sub, depth: depth + 1, limit: limit))
    case DBUS_TYPE_ARRAY:
      let element = unsafe signatureOfContents(&iter)
      var sub = unsafe DBusMessageIter()
      unsafe dbus_message_iter_recurse(&iter, &sub)
      if unsafe dbus_message_iter_get_element_type(&iter) == DBUS_TYPE_DICT_ENTRY {
        var pairs: [DBusPair] = []
        while unsafe dbus_message_iter_get_arg_type(&sub) == DBUS_TYPE_DICT_ENTRY {
          var entry = unsafe DBusMessageIter()
          unsafe dbus_message_iter_recurse(&sub, &entry)
          let items = unsafe readAll(&entry, depth: depth + 2, limit: limit)
          if items.count == 2 { pairs.append(DBusPair(items[0], items[1])) }
          unsafe dbus_message_iter_next(&sub)
        }
        // element is "{KV}"; split off the one-character basic key.
        let inner = element.dropFirst().dropLast()
        return .dictionary(
          pairs, keySignature: String(inner.prefix(1)), valueSignature: String(inner.dropFirst()))
      }
      return unsafe .array(readAll(&sub, depth: depth + 1, limit: limit), elementSignature: element)
    default:
      return .unsupported(type)
    }
  }

  static func readAll(_ iter: inout DBusMessageIter, depth: Int = 0, limit: Int = maximumDepth) -> [DBusValue]
  {
    var values: [DBusValue] = []
    while unsafe dbus_message_iter_get_arg_type(&iter) != DBUS_TYPE_INVALID {
      unsafe values.append(read(&iter, depth: depth, limit: limit))
      unsafe dbus_message_iter_next(&iter)
    }
    return values
  }

  /// `values` written into a new signal message and read back with `limit`: the path every
  /// received message's arguments take (for the tests of the bound).
  package static func throughMessage(_ values: [DBusValue], limit: Int = maximumDepth) -> [DBusValue]? {
    guard let message = unsafe dbus_message_new_signal("/", "org.tapwire.Test", "Values") else { return nil }
    defer { unsafe dbus_message_unref(message) }
    var append = unsafe DBusMessageIter()
    unsafe dbus_message_iter_init_append(message, &append)
    for value in values { unsafe value.write(&append) }
    var iter = unsafe DBusMessageIter()
    guard unsafe dbus_message_iter_init(message, &iter) != 0 else { return [] }
    return unsafe readAll(&iter, limit: limit)
  }

  static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
    var value = initial
    unsafe dbus_message_iter_get_basic(&iter, &value)
    return value
  }

  static func signatureOfContents(_ iter: inout DBusMessageIter) -> String {
    var sub = unsafe DBusMessageIter()
    unsafe dbus_message_iter_recurse(&iter, &sub)
    guard let raw = unsafe dbus_message_iter_get_signature(&sub) else { return "v" }
    defer { unsafe dbus_free(raw) }
    let text = unsafe String(cString: raw)
    // The signature of the sub-iterator is that of its remaining elements; an empty array has
    // none, so fall back to the parent's signature minus its leading "a".
    if !text.isEmpty {
      let single = Self.firstCompleteType(text)
      if !single.isEmpty { return single }
    }
    guard let parent = unsafe dbus_message_iter_get_signature(&iter) else { return "v" }
    defer { unsafe dbus_free(parent) }
    return unsafe String(String(cString: parent).dropFirst())
  }

  /// The first complete type of a signature (`a{sv}s` → `a{sv}`).
  static func firstCompleteType(_ signature: String) -> String {
    var depth = 0
    var out = ""
    for c in signature {
      out.append(c)
      switch c {
      case "(", "{": depth += 1
      case ")", "}": depth -= 1
      case "a": continue
      default: break
      }
      if depth == 0 && c != "a" { return out }
    }
    return out
  }

  /// Appends the value at `iter` (libdbus `dbus_message_iter_append_*`, `open_container`).
  func write(_ iter: inout DBusMessageIter) {
    switch self {
    case .byte(let v): unsafe Self.append(&iter, DBUS_TYPE_BYTE, v)
    case .bool(let v): unsafe Self.append(&iter, DBUS_TYPE_BOOLEAN, dbus_bool_t(v ? 1 : 0))
    case .int16(let v): unsafe Self.append(&iter, DBUS_TYPE_INT16, v)
    case .uint16(let v): unsafe Self.append(&iter, DBUS_TYPE_UINT16, v)
    case .int32(let v): unsafe Self.append(&iter, DBUS_TYPE_INT32, v)
    case .uint32(let v): unsafe Self.append(&iter, DBUS_TYPE_UINT32, v)
    case .int64(let v): unsafe Self.append(&iter, DBUS_TYPE_INT64, v)
    case .uint64(let v): unsafe Self.append(&iter, DBUS_TYPE_UINT64, v)
    case .double(let v): unsafe Self.append(&iter, DBUS_TYPE_DOUBLE, v)
    case .string(let s), .objectPath(let s), .signature(let s):
      let type =
        if case .string = self { DBUS_TYPE_STRING } else if case .objectPath = self {
          DBUS_TYPE_OBJECT_PATH
        } else {
          DBUS_TYPE_SIGNATURE
        }
      unsafe s.withCString { pointer in
        var p: UnsafePointer<CChar>? = unsafe pointer
        _ = unsafe dbus_message_iter_append_basic(&iter, type, &p)
      }
    case .array(let items, let element):
      unsafe Self.container(&iter, DBUS_TYPE_ARRAY, element) { sub in
        for item in items { unsafe item.write(&sub) }
      }
    case .dictionary(let pairs, let key, let value):
      unsafe Self.container(&iter, DBUS_TYPE_ARRAY, "{" + key + value + "}") { sub in
        for pair in pairs {
          unsafe Self.container(&sub, DBUS_TYPE_DICT_ENTRY, nil) { entry in
            unsafe pair.key.write(&entry)
            unsafe pair.value.write(&entry)
          }
        }
      }
    case .structure(let items):
      unsafe Self.container(&iter, DBUS_TYPE_STRUCT, nil) { sub in
        for item in items { unsafe item.write(&sub) }
      }
    case .variant(let inner):
      unsafe Self.container(&iter, DBUS_TYPE_VARIANT, inner.signature) { sub in unsafe inner.write(&sub) }
    case .unsupported:
      break
    }
  }

  static func append<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ type: Int32, _ value: T) {
    var v = value
    _ = unsafe dbus_message_iter_append_basic(&iter, type, &v)
  }

  static func container(
    _ iter: inout DBusMessageIter, _ type: Int32, _ signature: String?,
    _ body: (inout DBusMessageIter) -> Void
  ) {
    var sub = unsafe DBusMessageIter()
    if let signature {
      unsafe signature.withCString { _ = unsafe dbus_message_iter_open_container(&iter, type, $0, &sub) }
    } else {
      _ = unsafe dbus_message_iter_open_container(&iter, type, nil, &sub)
    }
    unsafe body(&sub)
    _ = unsafe dbus_message_iter_close_container(&iter, &sub)
  }
}

// libdbus's DBUS_TYPE_* macros are casts Swift does not import: the same codes, the type
// characters of the D-Bus signature grammar.
let DBUS_TYPE_INVALID: Int32 = 0
let DBUS_TYPE_BYTE = Int32(UInt8(ascii: "y"))
let DBUS_TYPE_BOOLEAN = Int32(UInt8(ascii: "b"))
let DBUS_TYPE_INT16 = Int32(UInt8(ascii: "n"))
let DBUS_TYPE_UINT16 = Int32(UInt8(ascii: "q"))
let DBUS_TYPE_INT32 = Int32(UInt8(ascii: "i"))
let DBUS_TYPE_UINT32 = Int32(UInt8(ascii: "u"))
let DBUS_TYPE_INT64 = Int32(UInt8(ascii: "x"))
let DBUS_TYPE_UINT64 = Int32(UInt8(ascii: "t"))
let DBUS_TYPE_DOUBLE = Int32(UInt8(ascii: "d"))
let DBUS_TYPE_STRING = Int32(UInt8(ascii: "s"))
let DBUS_TYPE_OBJECT_PATH = Int32(UInt8(ascii: "o"))
let DBUS_TYPE_SIGNATURE = Int32(UInt8(ascii: "g"))
let DBUS_TYPE_ARRAY = Int32(UInt8(ascii: "a"))
let DBUS_TYPE_VARIANT = Int32(UInt8(ascii: "v"))
let DBUS_TYPE_STRUCT = Int32(UInt8(ascii: "r"))
let DBUS_TYPE_DICT_ENTRY = Int32(UInt8(ascii: "e"))
/// DBUS_MESSAGE_TYPE_SIGNAL.
let DBUS_MESSAGE_TYPE_SIGNAL: Int32 = 4
