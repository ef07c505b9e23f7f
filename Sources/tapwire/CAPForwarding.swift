// SPDX-License-Identifier: Apache-2.0
/// `tapwire cap`: its help here, the work in `tapwire-nfc cap` (deflated CAP entries need
/// zlib, and `tapwire` itself links no system library).
enum CAPForwarding {
  static let usage = """
    usage: tapwire cap info [--json] [--block-size N] FILE.cap

    Reads a Java Card CAP file (a ZIP: stored and deflated entries, CRC-32 checked, no ZIP64)
    and prints its package AID, name and version, its applets and imported packages, the
    component sizes in load order (Descriptor and Debug are listed but never loaded), and the
    load file data block LOAD sends (GlobalPlatform Card Specification 2.3 §11.6): its size
    and how many LOAD blocks it takes.

    exit status: 0 read, 1 the file is not a CAP file this reads (the error code, its offset in
      the file, or in the component named), 2 bad usage

    examples:
      tapwire cap info Corpus/cap/seeds/stored-1.cap
      tapwire cap info --json applet.cap
    """
}
