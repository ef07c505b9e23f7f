// SPDX-License-Identifier: Apache-2.0
import PCSCControl

func checkPCSCControl() {
  group("PCSCControl: a feature list encodes its control codes") {
    // PC/SC Part 10 §2.2: tag, length 4, the control code big-endian.
    let answer: [UInt8] = [0x01, 0x04, 0x42, 0x33, 0x00, 0x06]
    let list = try FeatureList(parsing: answer)
    expectEqual(list.entries.count, 1, "entries")
    expectEqual(list.entries.first?.feature, .verifyPINStart, "feature")
    expectEqual(list.entries.first?.controlCode, ControlCode(rawValue: 0x4233_0006), "control code")
    expectEqual(ControlCode.pcscLite(1).rawValue, 0x4200_0001, "SCARD_CTL_CODE(1)")
    do throws(PCSCControlError) {
      _ = try FeatureList(parsing: [0x01, 0x03, 0x00])
      check(false, "a length other than 4 must not parse")
    } catch {
      expectEqual(error.offset, 1, "offset of the length byte")
    }
  }
}
