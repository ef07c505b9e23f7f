// SPDX-License-Identifier: Apache-2.0
/// A GlobalPlatform card content management command, as far as status words are concerned:
/// the instruction and, for INSTALL, its kind (GlobalPlatform Card Specification 2.3 §11).
public struct GlobalPlatformCommandKind: RawRepresentable, Sendable, Hashable {
  /// INS in the high byte, the INSTALL P1 role bits (or 0) in the low byte.
  public let rawValue: UInt16
  /// Wraps a raw value.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// DELETE (§11.2).
  public static let delete = GlobalPlatformCommandKind(rawValue: 0xE4_00)
  /// GET STATUS (§11.4).
  public static let getStatus = GlobalPlatformCommandKind(rawValue: 0xF2_00)
  /// INSTALL [for load] (§11.5.2.3.1).
  public static let installForLoad = GlobalPlatformCommandKind(rawValue: 0xE6_02)
  /// INSTALL [for install] with or without [for make selectable] (§11.5.2.3.2).
  public static let installForInstall = GlobalPlatformCommandKind(rawValue: 0xE6_04)
  /// INSTALL of another kind ([for make selectable], [for extradition], [for personalization]...).
  public static let install = GlobalPlatformCommandKind(rawValue: 0xE6_00)
  /// LOAD (§11.6).
  public static let load = GlobalPlatformCommandKind(rawValue: 0xE8_00)
  /// SELECT (§11.9).
  public static let select = GlobalPlatformCommandKind(rawValue: 0xA4_00)
  /// SET STATUS (§11.10).
  public static let setStatus = GlobalPlatformCommandKind(rawValue: 0xF0_00)

  /// The kind of `command`, from its INS and (INSTALL) P1: b2 for load, b3 for install.
  public init(_ command: CommandAPDU) {
    let ins = UInt16(command.ins.rawValue) << 8
    guard command.ins == .gpInstall else {
      self.init(rawValue: ins)
      return
    }
    if command.p1 & 0x02 != 0 {
      self = .installForLoad
    } else if command.p1 & 0x04 != 0 {
      self = .installForInstall
    } else {
      self = .install
    }
  }
}

/// What a status word means in answer to a GlobalPlatform command, in GlobalPlatform's words
/// (Card Specification 2.3 §11.1.3 for every command, and each command's "Error Conditions"
/// table: §11.2.3.2 DELETE, §11.4.3.2 GET STATUS, §11.5.3.2 INSTALL, §11.6.3.2 LOAD,
/// §11.9.3.2 SELECT, §11.10.3.2 SET STATUS), and what to check on the host side.
public struct GlobalPlatformStatusExplanation: Sendable, Hashable {
  /// The command it applies to; nil for the general error conditions (§11.1.3) of every command.
  public let command: GlobalPlatformCommandKind?
  /// The status word.
  public let statusWord: StatusWord
  /// GlobalPlatform's meaning.
  public let meaning: String
  /// What usually causes it and what to check.
  public let check: String

  /// Creates an explanation.
  public init(command: GlobalPlatformCommandKind?, statusWord: StatusWord, meaning: String, check: String) {
    self.command = command
    self.statusWord = statusWord
    self.meaning = meaning
    self.check = check
  }

  /// The explanation of `statusWord` for `command`: the command's own entry, else the
  /// general one, else nil (then ``StatusWord/meaning`` is what ISO/IEC 7816-4 says).
  public static func explain(_ statusWord: StatusWord, for command: GlobalPlatformCommandKind)
    -> GlobalPlatformStatusExplanation?
  {
    table.first { $0.command == command && $0.statusWord == statusWord }
      ?? table.first { $0.command == nil && $0.statusWord == statusWord }
  }

  /// Every explanation: per command first, then the general ones.
  public static let table: [GlobalPlatformStatusExplanation] = [
    // INSTALL [for load] (§11.5.3.2).
    .init(
      command: .installForLoad, statusWord: .incorrectData, meaning: "incorrect parameters in data field",
      check:
        "the load file AID (5 to 16 bytes), the security domain AID (empty or an SD on the card), the hash (length 0 unless the card needs one; SHA-1 or SHA-256 as the SD expects) and the load parameters"
    ),
    .init(
      command: .installForLoad, statusWord: .conditionsOfUseNotSatisfied,
      meaning: "conditions of use not satisfied",
      check:
        "a load file with this AID is already on the card (DELETE it with related objects first), the card is locked, or the security domain lacks the privilege to load (token or DAP required)"
    ),
    .init(
      command: .installForLoad, statusWord: .notEnoughMemory, meaning: "not enough memory space",
      check: "the card has no room for the load file: delete unused packages and instances"),
    .init(
      command: .installForLoad, statusWord: .referencedDataNotFound, meaning: "referenced data not found",
      check: "the security domain AID is not on the card (omit it to let the card choose)"),
    .init(
      command: .installForLoad, statusWord: .memoryFailure, meaning: "memory failure",
      check: "the card could not write its registry: list the card before retrying"),
    // INSTALL [for install] (§11.5.3.2).
    .init(
      command: .installForInstall, statusWord: .incorrectData, meaning: "incorrect parameters in data field",
      check:
        "the install parameters (C9 with what the applet's install method accepts), the privileges (1 or 3 bytes, none the card refuses such as a second Card Reset / Default Selected), and the AIDs; the applet's install method may also throw this"
    ),
    .init(
      command: .installForInstall, statusWord: .conditionsOfUseNotSatisfied,
      meaning: "conditions of use not satisfied",
      check:
        "the instance AID is already in use (DELETE the instance first), the load file is not LOADED, or the applet's install method refused (e.g. Java Card API version or a missing imported package on the card)"
    ),
    .init(
      command: .installForInstall, statusWord: .notEnoughMemory, meaning: "not enough memory space",
      check:
        "the applet's constructor could not allocate: delete unused instances, or check install parameters that size buffers"
    ),
    .init(
      command: .installForInstall, statusWord: .referencedDataNotFound, meaning: "referenced data not found",
      check:
        "the load file AID (package not loaded) or the module AID (no such applet class in the package, see the CAP's Applet component) is not on the card"
    ),
    .init(
      command: .installForInstall, statusWord: .memoryFailure, meaning: "memory failure",
      check: "the card could not write: list the card before retrying"),
    // Other INSTALL kinds (§11.5.3.2).
    .init(
      command: .install, statusWord: .incorrectData, meaning: "incorrect parameters in data field",
      check: "the AIDs, privileges and parameters of this INSTALL kind"),
    .init(
      command: .install, statusWord: .referencedDataNotFound, meaning: "referenced data not found",
      check: "an AID the command names is not on the card"),
    // LOAD (§11.6.3.2).
    .init(
      command: .load, statusWord: .notEnoughMemory, meaning: "not enough memory space",
      check: "the load file does not fit: delete unused packages and instances"),
    .init(
      command: .load, statusWord: .memoryFailure, meaning: "memory failure",
      check: "the card could not write the block: the load is aborted, start again with INSTALL [for load]"),
    .init(
      command: .load, statusWord: .conditionsOfUseNotSatisfied, meaning: "conditions of use not satisfied",
      check:
        "a block out of sequence (P2 numbers from 00, P1 80 only on the last), no INSTALL [for load] before, or the card rejected the load file: a package in the CAP's Import component (e.g. the Java Card API version) is not on the card, or the hash differs from INSTALL [for load]'s"
    ),
    .init(
      command: .load, statusWord: .incorrectData, meaning: "incorrect values in command data",
      check:
        "the load file is malformed for the card (CAP format or Java Card version newer than the card's, components in the wrong order) or a block was corrupted"
    ),
    .init(
      command: .load, statusWord: .wrongLength, meaning: "wrong length in Lc",
      check: "the block is too long once wrapped: size blocks for the security level and the card's 9F65"),
    // DELETE (§11.2.3.2).
    .init(
      command: .delete, statusWord: .referencedDataNotFound, meaning: "referenced data not found",
      check: "no object with this AID on the card (list the card to compare)"),
    .init(
      command: .delete, statusWord: .fileNotFound, meaning: "application not found",
      check: "no application with this AID on the card"),
    .init(
      command: .delete, statusWord: .incorrectData, meaning: "incorrect values in command data",
      check: "the data must be 4F with a 5 to 16 byte AID"),
    .init(
      command: .delete, statusWord: .conditionsOfUseNotSatisfied, meaning: "conditions of use not satisfied",
      check:
        "the object is referenced: a load file with instances (DELETE with related objects, P2 80), a package another package imports, the ISD, or an application currently selected"
    ),
    .init(
      command: .delete, statusWord: .memoryFailure, meaning: "memory failure",
      check: "the card could not update its registry: list the card before retrying"),
    // GET STATUS (§11.4.3.2).
    .init(
      command: .getStatus, statusWord: .moreDataAvailable, meaning: "more data available",
      check: "send GET STATUS again with P2 b1 set (next occurrence) until 9000"),
    .init(
      command: .getStatus, statusWord: .referencedDataNotFound, meaning: "referenced data not found",
      check: "no entry matches the search criteria: an empty subset, not an error"),
    .init(
      command: .getStatus, statusWord: .incorrectData, meaning: "incorrect values in command data",
      check: "the search criteria must be 4F with an AID prefix (4F 00 for every entry)"),
    // SET STATUS (§11.10.3.2).
    .init(
      command: .setStatus, statusWord: .incorrectData, meaning: "incorrect values in command data",
      check:
        "the AID, or a state transition the specification does not allow (e.g. unlocking what is not locked)"),
    .init(
      command: .setStatus, statusWord: .referencedDataNotFound, meaning: "referenced data not found",
      check: "no application or security domain with this AID"),
    // SELECT (§11.9.3.2).
    .init(
      command: .select, statusWord: .fileNotFound, meaning: "selected application or file not found",
      check: "no selectable application with this AID (it may be LOCKED or only INSTALLED)"),
    .init(
      command: .select, statusWord: .functionNotSupported,
      meaning: "function not supported, e.g. card life cycle state is CARD_LOCKED",
      check: "the card is locked: only the ISD can be selected"),
    .init(
      command: .select, statusWord: .selectedFileDeactivated, meaning: "card life cycle state is CARD_LOCKED",
      check: "the card is locked: unlock it (SET STATUS) through the ISD"),
    // Every command (§11.1.3).
    .init(
      command: nil, statusWord: .securityStatusNotSatisfied, meaning: "security status not satisfied",
      check:
        "no secure channel is open, or its security level is below what the command needs: authenticate (INITIALIZE UPDATE, EXTERNAL AUTHENTICATE); after any error the card may have closed the channel"
    ),
    .init(
      command: nil, statusWord: .conditionsOfUseNotSatisfied, meaning: "conditions of use not satisfied",
      check: "the card or the object is in a life cycle state that forbids the command (locked, terminated)"),
    .init(
      command: nil, statusWord: .incorrectParameters, meaning: "incorrect P1 P2",
      check:
        "P1/P2 the card does not support for this command (e.g. a GET STATUS subset or INSTALL combination)"),
    .init(
      command: nil, statusWord: .wrongLength, meaning: "wrong length in Lc",
      check: "Lc and the data disagree, or the wrapped data is longer than the card accepts"),
    .init(
      command: nil, statusWord: .executionError, meaning: "no specific diagnosis",
      check: "the card failed without saying why: list the card, then retry once"),
    .init(
      command: nil, statusWord: .logicalChannelNotSupported,
      meaning: "logical channel not supported or not active",
      check: "the class byte names a channel the card has not opened"),
    .init(
      command: nil, statusWord: .instructionNotSupported, meaning: "invalid instruction",
      check: "the selected application is not a security domain: select the ISD first"),
    .init(
      command: nil, statusWord: .classNotSupported, meaning: "invalid class",
      check: "the class byte: 80 for plain GlobalPlatform commands, 84 with secure messaging"),
    .init(
      command: nil, statusWord: .memoryFailure, meaning: "memory failure",
      check: "the card could not write: list the card before retrying"),
  ]
}
