// SPDX-License-Identifier: Apache-2.0
extension OriginalityKey {
  /// The public list the keys without an application note of their own come from; every
  /// key below is also checked there (RfidResearchGroup/proxmark3,
  /// `client/src/crypto/originality.c`, with self-test pairs in `tools/recover_pk.py`).
  static let publicList = "proxmark3 client/src/crypto/originality.c"

  /// Every manufacturer key this library knows, NXP first (ISO/IEC 14443 chips by curve,
  /// then ISO/IEC 15693), then ST's TruST25 keys.
  ///
  /// Families sharing a key are one entry with ``alsoFamilies``, unless they sign differently
  /// (NTAG21x and NTAG 5 share a key, but NTAG 5 signs its UID reversed).
  public static let all: [OriginalityKey] = [
    // secp128r1, NXP ISO/IEC 14443.
    OriginalityKey(
      family: "NTAG21x", alsoFamilies: ["NTAG210", "NTAG212", "NTAG213", "NTAG215", "NTAG216"],
      chips: "NTAG 210, 212, 213, 215, 216", curve: .secp128r1,
      publicKey: HexDigits.literal("04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61"),
      source: "NXP AN11350 (NTAG 21x originality signature validation)", rule: .nxp),
    OriginalityKey(
      family: "UltralightEV1", chips: "MIFARE Ultralight EV1 (MF0UL11, MF0UL21)", curve: .secp128r1,
      publicKey: HexDigits.literal("0490933BDCD6E99B4E255E3DA55389A827564E11718E017292FAF23226A96614B8"),
      source: "NXP AN11341 (MIFARE Ultralight EV1 originality signature validation)", rule: .nxp),
    OriginalityKey(
      family: "NXPTagInfo", chips: "NXP chips TagInfo checks with this key (NTAG 210/212 reported)",
      curve: .secp128r1,
      publicKey: HexDigits.literal("04A748B6A632FBEE2C0897702B33BEA1C074998E17B84ACA04FF267E5D2C91F6DC"),
      source: "NXP TagInfo, as listed in \(publicList)", rule: .nxp),
    OriginalityKey(
      family: "MIFAREClassicEV1", chips: "MIFARE Classic EV1 (MF1S50yy, MF1S70yy; 4- and 7-byte UIDs)",
      curve: .secp128r1,
      publicKey: HexDigits.literal("044F6D3F294DEA5737F0F46FFEE88A356EED95695DD7E0C27A591E6F6F65962BAF"),
      source: "NXP MIFARE Classic EV1 data sheet (READ_SIG), key as listed in \(publicList)", rule: .nxp),
    OriginalityKey(
      family: "MIFAREClassicQL88", chips: "MIFARE Classic QL88", curve: .secp128r1,
      publicKey: HexDigits.literal("046F70AC557F5461CE5052C8E4A7838C11C7A236797E8A0730A101837C004039C2"),
      source: publicList, rule: .nxp),
    // prime192v1 (P-192), NXP ISO/IEC 14443.
    OriginalityKey(
      family: "UltralightAES", chips: "MIFARE Ultralight AES (MF0AES)", curve: .prime192v1,
      publicKey: HexDigits.literal(
        "0453BF8C49B7BD9FE3207A91513B9C1D238ECAB07186B772104AB535F7D3AE63CF7C7F3DD0D169DA3E99E43C6399621A86"),
      source: "NXP AN13452 (MIFARE Ultralight AES features and hints)", rule: .nxp),
    OriginalityKey(
      family: "UltralightAESAlt", chips: "MIFARE Ultralight AES, second key (seen on hotel cards)",
      curve: .prime192v1,
      publicKey: HexDigits.literal(
        "04DC34DAA903F2726A6225B11C692AF6AB4396575CA12810CBBCE3F781A097B3833B50AB364A70D9C2B641A728A599AE74"),
      source: "NXP TagInfo, as listed in \(publicList)", rule: .nxp),
    OriginalityKey(
      family: "NTAG22xDNA", chips: "NTAG 223 DNA, NTAG 224 DNA (and their StatusDetect variants)",
      curve: .prime192v1,
      publicKey: HexDigits.literal(
        "0485D5B9353B4FAA77581BA2AE96630C5876D6E8603308ABE9A81A0B506F52D02D04FEE6F2D365B3DEE7B9FAD9133E2976"),
      source: "NXP AN12998 (NTAG 22x DNA features and hints)", rule: .nxp),
    // secp224r1 (P-224), NXP ISO/IEC 14443-4.
    OriginalityKey(
      family: "NTAG424DNA", alsoFamilies: ["DESFireEV2", "DESFireLight"],
      chips: "NTAG 424 DNA, NTAG 424 DNA TagTamper, DESFire EV2, DESFire Light", curve: .secp224r1,
      publicKey: HexDigits.literal(
        "048A9B380AF2EE1B98DC417FECC263F8449C7625CECE82D9B916C992DA209D68422B81EC20B65A66B5102A61596AF3379200599316A00A1410"
      ),
      source: "NXP AN12196 (NTAG 424 DNA and NTAG 424 DNA TagTamper features and hints)", rule: .nxp),
    OriginalityKey(
      family: "DESFireEV2", alsoFamilies: ["NTAG424DNA", "DESFireLight"],
      chips: "DESFire EV2, DESFire Light EV2, NTAG 424 DNA, NTAG 424 DNA TagTamper", curve: .secp224r1,
      publicKey: HexDigits.literal(
        "04B304DC4C615F5326FE9383DDEC9AA892DF3A57FA7FFB3276192BC0EAA252ED45A865E3B093A3D0DCE5BE29E92F1392CE7DE321E3E5C52B3A"
      ),
      source: "NXP DESFire EV2 (GetSignature), key as listed in \(publicList)", rule: .nxp),
    OriginalityKey(
      family: "DESFireLight", chips: "MIFARE DESFire Light", curve: .secp224r1,
      publicKey: HexDigits.literal(
        "040E98E117AAA36457F43173DC920A8757267F44CE4EC5ADD3C54075571AEBBF7B942A9774A1D94AD02572427E5AE0A2DD36591B1FB34FCF3D"
      ),
      source: "NXP AN12343 (MIFARE DESFire Light features and hints)", rule: .nxp),
    OriginalityKey(
      family: "DESFireEV1", alsoFamilies: ["NTAG413DNA"], chips: "DESFire EV1, NTAG 413 DNA",
      curve: .secp224r1,
      publicKey: HexDigits.literal(
        "04BB5D514F7050025C7D0F397310360EEC91EAF792E96FC7E0F496CB4E669D414F877B7B27901FE67C2E3B33CD39D1C797715189AC951C2ADD"
      ),
      source: "NXP NTAG 413 DNA (Read_Sig), key as listed in \(publicList)", rule: .nxp),
    OriginalityKey(
      family: "DESFireEV2XL", chips: "MIFARE DESFire EV2 XL", curve: .secp224r1,
      publicKey: HexDigits.literal(
        "04CD5D45E50B1502F0BA4656FF37669597E7E183251150F9574CC8DA56BF01C7ABE019E29FEA48F9CE22C3EA4029A765E1BC95A89543BAD1BC"
      ),
      source: publicList, rule: .nxp),
    OriginalityKey(
      family: "DESFireEV3", chips: "MIFARE DESFire EV3", curve: .secp224r1,
      publicKey: HexDigits.literal(
        "041DB46C145D0A36539C6544BD6D9B0AA62FF91EC48CBC6ABAE36E0089A46F0D08C8A715EA40A63313B92E90DDC1730230E0458A33276FB743"
      ),
      source: publicList, rule: .nxp),
    OriginalityKey(
      family: "MIFAREPlusEV1", chips: "MIFARE Plus EV1 (4- and 7-byte UIDs)", curve: .secp224r1,
      publicKey: HexDigits.literal(
        "044409ADC42F91A8394066BA83D872FB1D16803734E911170412DDF8BAD1A4DADFD0416291AFE1C748253925DA39A5F39A1C557FFACD34C62E"
      ),
      source: publicList, rule: .nxp),
    OriginalityKey(
      family: "MIFAREPlusEV2", chips: "MIFARE Plus EV2", curve: .secp224r1,
      publicKey: HexDigits.literal(
        "04BB49AE4447E6B1B6D21C098C1538B594A11A4A1DBF3D5E673DEACDEB3CC512D1C08AFA1A2768CE20A200BACD2DC7804CD7523A0131ABF607"
      ),
      source: publicList, rule: .nxp),
    OriginalityKey(
      family: "MIFAREPlusTroika", chips: "MIFARE Plus (Troika transport cards)", curve: .secp224r1,
      publicKey: HexDigits.literal(
        "040F732E0EA7DF2B38F791BF89425BF7DCDF3EE4D976669E3831F324FF15751BD52AFF1782F72FF2731EEAD5F63ABE7D126E03C856FFB942AF"
      ),
      source: publicList, rule: .nxp),
    // secp128r1, NXP ISO/IEC 15693: the UID reversed.
    OriginalityKey(
      family: "NTAG5", chips: "NTAG 5 link, NTAG 5 boost (the NTAG21x key, UID reversed)", curve: .secp128r1,
      publicKey: HexDigits.literal("04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61"),
      source: "NXP NTAG 5 (READ SIGNATURE), key as listed in \(publicList)", rule: .nxpVicinity),
    OriginalityKey(
      family: "ICODE", alsoFamilies: ["ICODESLIX2", "ICODEDNA", "ICODE3"],
      chips: "ICODE SLIX2, ICODE DNA, ICODE 3",
      curve: .secp128r1,
      publicKey: HexDigits.literal("048878A2A2D3EEC336B4F261A082BD71F9BE11C4E2E896648B32EFA59CEA6E59F0"),
      source: "NXP ICODE SLIX2/DNA (READ SIGNATURE), key as listed in \(publicList)", rule: .nxpVicinity),
    // secp128r1, ST TruST25: SHA-256 of the UID.
    OriginalityKey(
      family: "ST25TA", chips: "ST25TA512B, ST25TA02KB, ST25TA02KB-D, ST25TA02KB-P (key ID 01)",
      curve: .secp128r1,
      publicKey: HexDigits.literal("041D92163650161A2548D33881C235D0FB2315C2C31A442F23C87ACF14497C0CBA"),
      source: "ST AN5101 (TruST25 digital signature for ST25TA devices)", rule: .st),
    OriginalityKey(
      family: "ST25TN", chips: "ST25TN512, ST25TN01K (key ID 05)", curve: .secp128r1,
      publicKey: HexDigits.literal("0440004F974F7C76BC8718E523D85FA7B354A9A992BFA966CB8219242F9D274FD6"),
      source: "ST AN5660 (TruST25 digital signature for ST25TN devices)", rule: .st),
    OriginalityKey(
      family: "ST25TV", chips: "ST25TV512C, ST25TV02KC (key ID 04)", curve: .secp128r1,
      publicKey: HexDigits.literal("04101E188A8B4CDDBC62D5BC3E0E6850F0C2730E744B79765A0E079907FBDB01BC"),
      source: "ST AN5580 (TruST25 digital signature for ST25TV512C and ST25TV02KC)", rule: .st),
    // A third party's ISO/IEC 15693 implant, listed beside the makers' keys in the same list.
    OriginalityKey(
      family: "VivoKeySpark1", chips: "VivoKey Spark 1 implant", curve: .secp128r1,
      publicKey: HexDigits.literal("04D64BB732C0D214E7EC580736ACF847284B502C25C0F7F2FA86AACE1DADA4387A"),
      source: publicList, rule: OriginalityRule(signedData: .sha256OfUID, reversedSignature: true)),
  ]
}
