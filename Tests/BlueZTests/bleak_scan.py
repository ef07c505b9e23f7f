#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An independent BlueZ client: scans with bleak (its BlueZ backend, on the bus in
DBUS_SYSTEM_BUS_ADDRESS), prints "scanning" once discovery runs, scans until standard input closes (at most SECONDS)
and
prints one JSON object per device, sorted by address: address, name, rssi,
manufacturerData {company: hex}, serviceData {uuid: hex}."""
import asyncio
import json
import sys

from bleak import BleakScanner


async def main(seconds):
    scanner = BleakScanner()
    await scanner.start()
    print("scanning", flush=True)
    stdin_closed = asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    try:
        await asyncio.wait_for(stdin_closed, seconds)
    except asyncio.TimeoutError:
        pass
    await scanner.stop()
    found = scanner.discovered_devices_and_advertisement_data
    for address in sorted(found):
        device, adv = found[address]
        print(json.dumps({
            "address": device.address,
            "name": adv.local_name,
            "rssi": adv.rssi,
            "manufacturerData": {str(k): v.hex() for k, v in sorted(adv.manufacturer_data.items())},
            "serviceData": {k: v.hex() for k, v in sorted(adv.service_data.items())},
        }, sort_keys=True), flush=True)


asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0))
