// pcsc-lite 1.9 public API (Debian libpcsclite-dev, pkg-config libpcsclite), imported by
// NFCReaderPCSC only.
#include <PCSC/winscard.h>
#include <PCSC/reader.h>
