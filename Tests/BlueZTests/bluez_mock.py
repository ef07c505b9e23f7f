#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Drives python3-dbusmock's bluez5 template on the bus in DBUS_SYSTEM_BUS_ADDRESS.

One command per line on stdin, one answer line on stdout ("ok ..." or "error NAME").
  adapter NAME                  AddAdapter
  device HCI ADDRESS NAME       AddDevice (Connect/Disconnect then follow the Connected property)
  set HCI ADDRESS JSON          Properties.Set of each property: RSSI, TxPower (int16),
                                ManufacturerData {"company": "hex"}, ServiceData {"uuid": "hex"},
                                UUIDs [..], AddressType, Name, AdvertisingFlags "hex"
  remove HCI ADDRESS            Adapter1.RemoveDevice
  drop HCI ADDRESS              DisconnectDevice (the link drops on the radio side)
  refuse HCI ADDRESS            Device1.Connect fails from now on with org.bluez.Error.Failed
  power HCI 0|1                 Adapter1.Powered
  busy HCI                      Adapter1.StartDiscovery fails with org.bluez.Error.InProgress
  calls HCI ADDRESS             "ok M1 M2 ...": the Device1 methods called so far, in order
  adaptercalls HCI              "ok M1 M2 ...": the Adapter1 discovery methods called so far, in order
  slow HCI ADDRESS SECONDS      Device1.Connect answers (connected) after SECONDS (the whole mock waits)
  stall HCI ADDRESS             Device1.Disconnect answers after 6 s (the whole mock waits)
  already HCI ADDRESS           the device is connected (by another client): Connected true, and
                                Device1.Connect fails with org.bluez.Error.AlreadyConnected, as
                                real BlueZ answers then
  restart                       BlueZ restarts: the mock owning org.bluez is killed (the bus says
                                NameOwnerChanged org.bluez OLD ""), a new one takes the name
                                (NameOwnerChanged org.bluez "" NEW), with no adapter
  discovering HCI               "ok 1" while the adapter discovers (Adapter1.Discovering), else "ok 0"
                                (the template sets it in StartDiscovery's reply; bluetoothd sets it
                                once the controller has started scanning, a moment later)
  unplug HCI                    the adapter goes away: RemoveAdapterWithDevices (InterfacesRemoved
                                of each device, then of org.bluez.Adapter1)
"""
import json
import os
import signal
import subprocess
import sys
import time

import dbus

DEVICE = 'org.bluez.Device1'
ADAPTER = 'org.bluez.Adapter1'
PROPS = 'org.freedesktop.DBus.Properties'
MOCK = 'org.freedesktop.DBus.Mock'

bus = dbus.SystemBus()
for _ in range(200):
    if bus.name_has_owner('org.bluez'):
        break
    time.sleep(0.05)
bluez = dbus.Interface(bus.get_object('org.bluez', '/org/bluez'), 'org.bluez.Mock')

# Where this mock differs from real BlueZ (bluetoothd 5.x), and what the tests rely on:
# - Connect/Disconnect below emit PropertiesChanged(Connected) on every call, even when the
#   value does not change; BlueZ emits it only on a change. The adapter must not count on an
#   event to learn that a Disconnect of a disconnected device did nothing.
# - Disconnect of a device that is not connected succeeds here; BlueZ may answer
#   org.bluez.Error.NotConnected, which the adapter treats as success (not tested here).
# - `already` fakes another client's connection by setting Connected and making Connect fail
#   with org.bluez.Error.AlreadyConnected. BlueZ's reply to Connect on a connected device
#   depends on its version and the bearer (it may simply succeed); the adapter takes both as
#   connected, so the test covers the error path only.
# - `stall` blocks the mock's whole main loop for 6 s (dbusmock runs method code
#   synchronously): signals and other calls wait too, where BlueZ would go on serving them.
# - `slow` blocks the mock's main loop like `stall`: a Disconnect sent while Connect is pending
#   is answered after it. bluetoothd answers that Disconnect at once and fails the pending
#   Connect; here the Connect succeeds and the Disconnect then takes the link down.
# - `calls` and `adaptercalls` read dbusmock's call log; BlueZ keeps none (the tests use it as
#   the daemon side).
# - `restart` kills the mock with SIGKILL and starts a fresh one: the bus announces the owner
#   leaving, then the new owner. bluetoothd stopping cleanly first powers its adapters off
#   (each connected device's Connected goes false, the adapter's Powered false) and removes
#   its objects (InterfacesRemoved), none of which a crash sends; the adapter must end on
#   NameOwnerChanged alone, and the test covers that harder case.
# - `unplug` removes the devices and then the adapter (InterfacesRemoved each); an unplugged
#   USB adapter in BlueZ also drops each connection first (Connected false, reason Timeout or
#   Local depending on the kernel), which the mock does not send.
# - `power HCI 0` only sets Powered (PropertiesChanged of the adapter); BlueZ also disconnects
#   each device first (Connected false). The adapter must end on Powered alone.
# Connect and Disconnect that keep the Connected property the only state, so a drop from the
# radio side (DisconnectDevice) can be followed by a new Connect.
SET_CONNECTED = (
    "self.props['org.bluez.Device1']['Connected'] = dbus.Boolean({0}, variant_level=1); "
    "self.EmitSignal('org.freedesktop.DBus.Properties', 'PropertiesChanged', 'sa{{sv}}as', "
    "['org.bluez.Device1', {{'Connected': dbus.Boolean({0}, variant_level=1)}}, []])")


def path(hci, address):
    return '/org/bluez/%s/dev_%s' % (hci, address.replace(':', '_').upper())


def value(name, v):
    if name in ('RSSI', 'TxPower'):
        return dbus.Int16(v)
    if name == 'ManufacturerData':
        return dbus.Dictionary({dbus.UInt16(int(k, 0)): dbus.Array(bytes.fromhex(h), signature='y')
                                for k, h in v.items()}, signature='qv')
    if name == 'ServiceData':
        return dbus.Dictionary({k: dbus.Array(bytes.fromhex(h), signature='y') for k, h in v.items()},
                               signature='sv')
    if name == 'UUIDs':
        return dbus.Array(v, signature='s')
    if name == 'AdvertisingFlags':
        return dbus.Array(bytes.fromhex(v), signature='y')
    if name == 'Appearance':
        return dbus.UInt16(v)
    return dbus.String(v)


def run(words):
    command = words[0]
    if command == 'adapter':
        p = bluez.AddAdapter(words[1], 'tapwire-test')
        # BlueZ 5.56+ lists the adapter's roles; bleak reads them, the template has none.
        dbus.Interface(bus.get_object('org.bluez', p), MOCK).AddProperty(
            ADAPTER, 'Roles', dbus.Array(['central', 'peripheral'], signature='s'))
        return p
    if command == 'device':
        p = bluez.AddDevice(words[1], words[2], ' '.join(words[3:]))
        mock = dbus.Interface(bus.get_object('org.bluez', p), MOCK)
        mock.AddMethod(DEVICE, 'Connect', '', '', SET_CONNECTED.format('True'))
        mock.AddMethod(DEVICE, 'Disconnect', '', '', SET_CONNECTED.format('False'))
        return p
    if command == 'set':
        props = dbus.Interface(bus.get_object('org.bluez', path(words[1], words[2])), PROPS)
        for name, v in json.loads(' '.join(words[3:])).items():
            props.Set(DEVICE, name, value(name, v))
        return ''
    if command == 'remove':
        adapter = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + words[1]), ADAPTER)
        adapter.RemoveDevice(dbus.ObjectPath(path(words[1], words[2])))
        return ''
    if command == 'drop':
        bluez.DisconnectDevice(words[1], words[2])
        return ''
    if command == 'refuse':
        mock = dbus.Interface(bus.get_object('org.bluez', path(words[1], words[2])), MOCK)
        mock.AddMethod(DEVICE, 'Connect', '', '',
                       "raise dbus.exceptions.DBusException('refused', name='org.bluez.Error.Failed')")
        return ''
    if command == 'power':
        props = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + words[1]), PROPS)
        props.Set(ADAPTER, 'Powered', dbus.Boolean(words[2] == '1'))
        return ''
    if command == 'busy':
        mock = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + words[1]), MOCK)
        mock.AddMethod(ADAPTER, 'StartDiscovery', '', '',
                       "raise dbus.exceptions.DBusException('busy', name='org.bluez.Error.InProgress')")
        return ''
    if command == 'calls':
        mock = dbus.Interface(bus.get_object('org.bluez', path(words[1], words[2])), MOCK)
        return ' '.join(str(call[1]) for call in mock.GetCalls() if call[1] in ('Connect', 'Disconnect'))
    if command == 'adaptercalls':
        mock = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + words[1]), MOCK)
        return ' '.join(str(call[1]) for call in mock.GetCalls()
                        if call[1] in ('StartDiscovery', 'StopDiscovery', 'SetDiscoveryFilter'))
    if command == 'slow':
        mock = dbus.Interface(bus.get_object('org.bluez', path(words[1], words[2])), MOCK)
        mock.AddMethod(DEVICE, 'Connect', '', '',
                       "__import__('time').sleep(%s); " % float(words[3]) + SET_CONNECTED.format('True'))
        return ''
    if command == 'stall':
        mock = dbus.Interface(bus.get_object('org.bluez', path(words[1], words[2])), MOCK)
        mock.AddMethod(DEVICE, 'Disconnect', '', '',
                       "__import__('time').sleep(6); " + SET_CONNECTED.format('False'))
        return ''
    if command == 'already':
        device = bus.get_object('org.bluez', path(words[1], words[2]))
        mock = dbus.Interface(device, MOCK)
        mock.AddMethod(DEVICE, 'Connect', '', '',
                       "raise dbus.exceptions.DBusException('connected', name='org.bluez.Error.AlreadyConnected')")
        dbus.Interface(device, PROPS).Set(DEVICE, 'Connected', dbus.Boolean(True))
        return ''
    if command == 'restart':
        return restart()
    if command == 'discovering':
        props = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + words[1]), PROPS)
        return '1' if props.Get(ADAPTER, 'Discovering') else '0'
    if command == 'unplug':
        bluez.RemoveAdapterWithDevices(words[1])
        return ''
    raise ValueError('unknown command ' + command)


# The mock started by `restart` (the first one is the test's, stopped by PID), stopped here
# when the input closes.
restarted = None


def restart():
    global bluez, restarted
    daemon = dbus.Interface(bus.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus'),
                            'org.freedesktop.DBus')
    # Not reaped (a zombie keeps its PID, which the test's stop signals by number).
    os.kill(int(daemon.GetConnectionUnixProcessID('org.bluez')), signal.SIGKILL)
    for _ in range(200):
        if not bus.name_has_owner('org.bluez'):
            break
        time.sleep(0.02)
    if restarted is not None:
        restarted.kill()
    restarted = subprocess.Popen([sys.executable, '-m', 'dbusmock', '--system', '--template', 'bluez5'],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        if bus.name_has_owner('org.bluez'):
            break
        time.sleep(0.02)
    bluez = dbus.Interface(bus.get_object('org.bluez', '/org/bluez'), 'org.bluez.Mock')
    return str(restarted.pid)


print('ready', flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    try:
        print('ok', run(words), flush=True)
    except dbus.exceptions.DBusException as e:
        print('error', e.get_dbus_name(), flush=True)
    except Exception as e:  # a bad command line: say so, keep serving
        print('error', type(e).__name__, e, flush=True)
if restarted is not None:
    restarted.kill()
    restarted.wait()
