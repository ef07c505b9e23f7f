// libnfc 1.8 public API (Debian libnfc-dev), imported by NFCReaderLibNFC only.
#include <nfc/nfc.h>
