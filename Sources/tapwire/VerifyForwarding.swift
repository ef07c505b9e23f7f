// SPDX-License-Identifier: Apache-2.0
/// `tapwire verify signature|sun|ndef`: its help here, the work in `tapwire-nfc verify` (the
/// checks need libcrypto, and `tapwire` itself links no system library).
enum VerifyForwarding {
  static let usage = """
    usage: tapwire verify signature UID SIGNATURE [--family NAME] [--json]
           tapwire verify sun URL (--key HEX | --meta-key HEX --file-key HEX) [--mac-input FROM]
                              [--picc-param NAME] [--enc-param NAME] [--mac-param NAME]
                              [--uid-param NAME] [--ctr-param NAME] [--json]
           tapwire verify ndef FILE --trust CERT.pem [--trust CERT.pem...] [--json]

    signature  checks an originality signature: the maker's ECDSA signature over the chip's
               UID (NXP AN11350, AN11341, AN13452, AN12998, AN12196, AN12343; ST AN5101,
               AN5660, AN5580). UID and SIGNATURE in hex as the tag gives them (READ_SIG,
               Read_Sig, GetSignature; an ISO 15693 UID as printed, E0 first). Without
               --family, every maker key whose curve fits the signature's length is tried
               (16+16 bytes secp128r1, 24+24 P-192, 28+28 P-224) and the key that verifies
               names the family. A genuine signature proves the maker issued the UID, not
               that the chip is the maker's: a UID-changeable clone can replay a genuine pair.
               families: \(familyList)
    sun        checks an NTAG 424 DNA SUN URL (NXP AN12196; LRP mode AN12304/AN12321): the
               PICC data (picc_data= or e=) decrypted with the SDMMetaReadKey, or the plain
               uid= and ctr= mirror; the SDMMAC (cmac= or c=) with session keys from the
               SDMFileReadKey, over the encrypted file data (enc=) and "&cmac=" when there is
               some, else over nothing; then the file data decrypted. 24-byte PICC data is
               LRP mode. Keys are never printed: only their check values.
    ndef       checks each Signature record (NFC Forum Signature RTD 2.0) of the NDEF message
               in FILE (binary, or hex text): the TYPE, ID and PAYLOAD of the records it covers
               (from the message start or the previous Signature record), ECDSA P-192, P-224
               or P-256 with SHA-256 (the value in DER or r‖s), the X.509 chain in the record
               validated to a --trust certificate (PEM). A signature or chain given only by
               URI is not fetched: reported, never passed.

    exit status: 0 genuine / valid / every signature verified, 1 not genuine, no signature,
      unknown family / not valid, a malformed URL (the error code and its offset in the URL) /
      a signature that does not verify, or none, 2 bad usage

    examples:
      tapwire verify signature 04E10CDA993C80 8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3
      tapwire verify signature --json --family ST25TV E00208000A227AAA FE458A550ACD30B45B9C4D10676FC63E30AC69027217547FBDF04A8F7942AD3B
      tapwire verify sun 'https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086' --key 00000000000000000000000000000000
    """

  /// The family names `--family` takes (TagTrust's key table, copied here because `tapwire`
  /// does not link the checks; a test compares the two).
  static let familyList = """
    NTAG21x (or NTAG210, NTAG212, NTAG213, NTAG215, NTAG216), UltralightEV1, NXPTagInfo, MIFAREClassicEV1, MIFAREClassicQL88,
                 UltralightAES, UltralightAESAlt, NTAG22xDNA, NTAG424DNA, DESFireEV2, DESFireLight,
                 DESFireEV1, NTAG413DNA, DESFireEV2XL, DESFireEV3, MIFAREPlusEV1, MIFAREPlusEV2,
                 MIFAREPlusTroika, NTAG5, ICODE, ICODESLIX2, ICODEDNA, ICODE3, ST25TA, ST25TN,
                 ST25TV, VivoKeySpark1
    """
}
