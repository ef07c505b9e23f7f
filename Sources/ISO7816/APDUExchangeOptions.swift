// SPDX-License-Identifier: Apache-2.0
/// Which transport-level behaviours an ``APDUExchange`` applies, and its bounds
/// (ISO/IEC 7816-4:2013 §5.1, §5.1.1.1, §7.6.1; ISO/IEC 7816-3 for the T=0 origin of 61XX and 6CXX).
///
/// Each behaviour can be switched off, e.g. when secure messaging or a DESFire-style
/// continuation (91AF) is run by the caller and must see the raw responses.
public struct APDUExchangeOptions: Sendable, Hashable {
  /// Answer 61XX with GET RESPONSE and concatenate the data (§7.6.1). GET RESPONSE is sent
  /// with the plain interindustry class of the command's logical channel, never a
  /// proprietary class copied from the command; 6100 asks for 256 bytes and means 256 *or
  /// more* remain.
  public var handlesResponseAvailable: Bool
  /// Answer 6CXX by resending the same command with Ne = XX (00: 256).
  public var handlesWrongLength: Bool
  /// Split command data longer than ``maximumCommandDataLength`` into a chain (CLA bit b5
  /// set on all but the last command, §5.1.1.1).
  public var usesCommandChaining: Bool
  /// Both the card and the transport support extended length fields (§5.1): commands with
  /// Nc > 255 or Ne > 256 are sent extended instead of being chained or capped at Ne 256.
  public var usesExtendedLength: Bool
  /// The most data bytes the card accepts in one command: at most 255 with short lengths,
  /// 65535 with extended ones (e.g. from 9F65 in a GlobalPlatform FCI).
  public var maximumCommandDataLength: Int
  /// The most GET RESPONSE commands sent for one command.
  public var maximumGetResponseCount: Int
  /// The most 6CXX resends for one command.
  public var maximumResendCount: Int
  /// The most response data bytes concatenated for one command.
  public var maximumResponseSize: Int

  /// Creates options; every behaviour on, short lengths only.
  public init(
    handlesResponseAvailable: Bool = true, handlesWrongLength: Bool = true,
    usesCommandChaining: Bool = true, usesExtendedLength: Bool = false,
    maximumCommandDataLength: Int = 255, maximumGetResponseCount: Int = 512,
    maximumResendCount: Int = 2, maximumResponseSize: Int = 1 << 20
  ) {
    self.handlesResponseAvailable = handlesResponseAvailable
    self.handlesWrongLength = handlesWrongLength
    self.usesCommandChaining = usesCommandChaining
    self.usesExtendedLength = usesExtendedLength
    self.maximumCommandDataLength = maximumCommandDataLength
    self.maximumGetResponseCount = maximumGetResponseCount
    self.maximumResendCount = maximumResendCount
    self.maximumResponseSize = maximumResponseSize
  }

  /// The defaults: GET RESPONSE, 6CXX resend and chaining on, short lengths.
  public static let standard = APDUExchangeOptions()
  /// Every behaviour off: one command out, one response back, as sent.
  public static let raw = APDUExchangeOptions(
    handlesResponseAvailable: false, handlesWrongLength: false, usesCommandChaining: false,
    usesExtendedLength: true, maximumCommandDataLength: 65535)
}
