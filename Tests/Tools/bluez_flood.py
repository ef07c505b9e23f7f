#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Floods a BlueZ scanner with PropertiesChanged, for `TapwireFlood` (Benchmarks/TapwireFlood).

Drives python3-dbusmock's bluez5 template on the bus in DBUS_SYSTEM_BUS_ADDRESS, like
Tests/BlueZTests/bluez_mock.py. One command per line on stdin, one answer line on stdout:
  crowd HCI N            adapter HCI (added if missing) gets N devices C0:00:00:00:HH:LL, each
                         advertising the example reader profile (company 0xFFFF, 01 + serial
                         TWnnnnnn + battery), RSSI -60                              -> ok N
  flood HCI N COUNT      COUNT PropertiesChanged(org.bluez.Device1, {RSSI, ManufacturerData})
                         signals, round robin over the first N devices of the crowd, sent by
                         the mock itself (the owner of org.bluez, which the scanner's match
                         rule names as sender) as fast as it can       -> ok COUNT SECONDS

The flood runs inside the mock's process as a method added with dbusmock's AddMethod: each
signal is built with dbus.lowlevel.SignalMessage and flushed every 256 messages, so the bus
daemon receives it while the loop runs.
"""
import sys
import time

import dbus

ADAPTER = 'org.bluez.Adapter1'
MOCK = 'org.freedesktop.DBus.Mock'

# Run in the mock (self: the adapter object, args: devices, count). The RSSI changes with
# every signal and the manufacturer data is sent each time, as BlueZ does with DuplicateData:
# each signal is a new report for the scanner and ReaderDiscovery, and the list of readers
# (serial, name, battery) stays the same, as in a crowd of readers that stay put.
FLOOD = """
import dbus.lowlevel
devices, count = int(args[0]), int(args[1])
base = self.__dbus_object_path__ + '/dev_C0_00_00_00_'
# Loops, not comprehensions: dbusmock runs this with exec() and separate locals, which a
# comprehension's own scope cannot see.
paths = []
serials = []
for i in range(devices):
    paths.append(base + '%02X_%02X' % (i >> 8, i & 255))
    serials.append(b'\\x01' + ('TW%06d' % i).encode() + bytes([90]))
connection = self.connection
for n in range(count):
    i = n % devices
    message = dbus.lowlevel.SignalMessage(paths[i], 'org.freedesktop.DBus.Properties', 'PropertiesChanged')
    data = dbus.Array(serials[i], signature='y')
    message.append('org.bluez.Device1',
                   {'RSSI': dbus.Int16(-40 - n % 50),
                    'ManufacturerData': dbus.Dictionary({dbus.UInt16(0xFFFF): data}, signature='qv')},
                   dbus.Array([], signature='s'), signature='sa{sv}as')
    connection.send_message(message)
    if n % 256 == 255:
        connection.flush()
connection.flush()
ret = dbus.UInt32(count)
"""

bus = dbus.SystemBus()
for _ in range(200):
    if bus.name_has_owner('org.bluez'):
        break
    time.sleep(0.05)
bluez = dbus.Interface(bus.get_object('org.bluez', '/org/bluez'), 'org.bluez.Mock')
adapters = set()


def crowd(hci, count):
    if hci not in adapters:
        bluez.AddAdapter(hci, 'tapwire-flood')
        mock = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + hci), MOCK)
        mock.AddMethod(ADAPTER, 'TapwireFlood', 'uu', 'u', FLOOD)
        adapters.add(hci)
    for i in range(count):
        address = 'C0:00:00:00:%02X:%02X' % (i >> 8, i & 255)
        path = bluez.AddDevice(hci, address, 'TW-%04d' % i)
        serial = b'\x01' + ('TW%06d' % i).encode() + bytes([90])
        props = dbus.Interface(bus.get_object('org.bluez', path), 'org.freedesktop.DBus.Properties')
        props.Set('org.bluez.Device1', 'RSSI', dbus.Int16(-60))
        props.Set('org.bluez.Device1', 'ManufacturerData',
                  dbus.Dictionary({dbus.UInt16(0xFFFF): dbus.Array(serial, signature='y')}, signature='qv'))
    return str(count)


def flood(hci, devices, count):
    adapter = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + hci), ADAPTER)
    start = time.monotonic()
    sent = adapter.TapwireFlood(dbus.UInt32(devices), dbus.UInt32(count), timeout=3600)
    return '%d %.3f' % (sent, time.monotonic() - start)


print('ready', flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    try:
        if words[0] == 'crowd':
            print('ok', crowd(words[1], int(words[2])), flush=True)
        elif words[0] == 'flood':
            print('ok', flood(words[1], int(words[2]), int(words[3])), flush=True)
        else:
            print('error unknown command', words[0], flush=True)
    except dbus.exceptions.DBusException as e:
        print('error', e.get_dbus_name(), e.get_dbus_message(), flush=True)
    except Exception as e:  # a bad command line: say so, keep serving
        print('error', type(e).__name__, e, flush=True)
