// SPDX-License-Identifier: Apache-2.0
/// The URI scheme name string mapping of the URI AD type (Core Specification Supplement
/// Part A §1.18; Bluetooth Assigned Numbers §2.7 "URI Schemes").
///
/// The URI AD data starts with one Unicode code point, UTF-8 encoded, that stands for a
/// scheme: U+0001 is "no scheme" (the URI follows in full), U+0002... the schemes below.
public enum URIScheme {
  /// The code point meaning "no scheme: the URI is written in full".
  public static let emptyScheme: UInt32 = 0x01

  /// The scheme text (`"https:"`) for a code point, or `nil` when none is assigned.
  public static func name(for codePoint: UInt32) -> String? {
    if codePoint == emptyScheme { return "" }
    guard codePoint >= firstAssigned else { return nil }
    let index = Int(codePoint - firstAssigned)
    guard index < names.count else { return nil }
    return names[index]
  }

  /// The code point for a URI's scheme (the longest assigned prefix of `uri` ending in
  /// `:`), or ``emptyScheme`` when none matches.
  public static func codePoint(for uri: String) -> (codePoint: UInt32, schemeLength: Int) {
    let utf8 = Array(uri.utf8)
    guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return (emptyScheme, 0) }
    let scheme = String(decoding: utf8[0...colon], as: UTF8.self)
    for (i, name) in names.enumerated() where name == scheme {
      return (firstAssigned + UInt32(i), colon + 1)
    }
    return (emptyScheme, 0)
  }

  static let firstAssigned: UInt32 = 0x02

  /// Schemes for code points 0x02 onwards, in code point order.
  static let names: [String] = [
    "aaa:", "aaas:", "about:", "acap:", "acct:", "cap:", "cid:", "coap:", "coaps:", "crid:",
    "data:", "dav:", "dict:", "dns:", "file:", "ftp:", "geo:", "go:", "gopher:", "h323:",
    "http:", "https:", "iax:", "icap:", "im:", "imap:", "info:", "ipp:", "ipps:", "iris:",
    "iris.beep:", "iris.xpc:", "iris.xpcs:", "iris.lwz:", "jabber:", "ldap:", "mailto:",
    "mid:", "msrp:", "msrps:", "mtqp:", "mupdate:", "news:", "nfs:", "ni:", "nih:", "nntp:",
    "opaquelocktoken:", "pop:", "pres:", "reload:", "rtsp:", "rtsps:", "rtspu:", "service:",
    "session:", "shttp:", "sieve:", "sip:", "sips:", "sms:", "snmp:", "soap.beep:",
    "soap.beeps:", "stun:", "stuns:", "tag:", "tel:", "telnet:", "tftp:", "thismessage:",
    "tn3270:", "tip:", "turn:", "turns:", "tv:", "urn:", "vemmi:", "ws:", "wss:", "xcon:",
    "xcon-userid:", "xmlrpc.beep:", "xmlrpc.beeps:", "xmpp:", "z39.50r:", "z39.50s:", "acr:",
    "adiumxtra:", "afp:", "afs:", "aim:", "apt:", "attachment:", "aw:", "barion:", "beshare:",
    "bitcoin:", "bolo:", "callto:", "chrome:", "chrome-extension:", "com-eventbrite-attendee:",
    "content:", "cvs:", "dlna-playsingle:", "dlna-playcontainer:", "dtn:", "dvb:", "ed2k:",
    "facetime:", "feed:", "feedready:", "finger:", "fish:", "gg:", "git:", "gizmoproject:",
    "gtalk:", "ham:", "hcp:", "icon:", "ipn:", "irc:", "irc6:", "ircs:", "itms:", "jar:",
    "jms:", "keyparc:", "lastfm:", "ldaps:", "magnet:", "maps:", "market:", "message:", "mms:",
    "ms-help:", "ms-settings-power:", "msnim:", "mumble:", "mvn:", "notes:", "oid:", "palm:",
    "paparazzi:", "pkcs11:", "platform:", "proxy:", "psyc:", "query:", "res:", "resource:",
    "rmi:", "rsync:", "rtmfp:", "rtmp:", "secondlife:", "sftp:", "sgn:", "skype:", "smb:",
    "smtp:", "soldat:", "spotify:", "ssh:", "steam:", "submit:", "svn:", "teamspeak:",
    "teliaeid:", "things:", "udp:", "unreal:", "ut2004:", "ventrilo:", "view-source:",
    "webcal:", "wtai:", "wyciwyg:", "xfire:", "xri:", "ymsgr:", "example:",
    "ms-settings-cloudstorage:", "bluetooth:", "bl:",
  ]
}
