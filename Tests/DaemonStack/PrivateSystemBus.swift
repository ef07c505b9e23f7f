// SPDX-License-Identifier: Apache-2.0

/// A private D-Bus bus of the system type (`dbus-daemon` with its own configuration, a unix
/// socket in a stack's directory, every message allowed), for the BlueZ tests and benchmarks:
/// the parts of a ``DaemonNamespace`` script that start it.
package enum PrivateSystemBus {
  /// The bus daemon.
  package static let daemon = "/usr/bin/dbus-daemon"
  /// Debian's dbus-bin (a dependency of dbus): asks the bus whether it answers yet.
  package static let send = "/usr/bin/dbus-send"

  /// The address clients use for the bus of `directory`.
  package static func address(directory: String) -> String { "unix:path=\(directory)/bus" }

  /// The bus configuration, to write to `directory/bus.conf`.
  package static func configuration(directory: String) -> String {
    """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>system</type>
      <listen>unix:path=\(directory)/bus</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow user="*"/>
        <allow own="*"/>
        <allow send_type="method_call"/>
        <allow send_type="signal"/>
        <allow send_type="method_return"/>
        <allow send_type="error"/>
        <allow receive_type="method_call"/>
        <allow receive_type="signal"/>
        <allow receive_type="method_return"/>
        <allow receive_type="error"/>
      </policy>
    </busconfig>

    """
  }

  /// Script lines that start the bus in the background (announcing its PID, log in
  /// `directory/bus.log`), wait until it answers (up to 20 s), and export
  /// `DBUS_SYSTEM_BUS_ADDRESS` for what the script starts next.
  package static func startScript(directory: String) -> String {
    """
    \(daemon) --config-file=\(directory)/bus.conf --nofork > \(directory)/bus.log 2>&1 &
    echo "pid $!"
    # Ready when the bus answers (its socket file appears at bind(), before listen()).
    for i in $(seq 400); do
      \(send) --bus=unix:path=\(directory)/bus --print-reply --dest=org.freedesktop.DBus \
        /org/freedesktop/DBus org.freedesktop.DBus.GetId > /dev/null 2>&1 && break
      sleep 0.05
    done
    export DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(directory)/bus

    """
  }
}
