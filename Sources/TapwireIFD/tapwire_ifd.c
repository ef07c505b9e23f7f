// SPDX-License-Identifier: Apache-2.0
// Tapwire's virtual reader driver for pcscd: a pcsc-lite IFD handler (ifdhandler.h, API 3.0).
//
// reader.conf:  DEVICENAME DIR:PORT   LIBPATH .../libTapwireIFD.so   (one reader, one slot)
//
// The card: the driver listens on 127.0.0.1:PORT and speaks vpcd's socket protocol, so
// tapwire-vcard (or any vpcd card) connects as the card: frames are a big-endian u16 length
// and a payload; a 1-byte payload is a control (0 off, 1 on, 2 reset, 4 send the ATR), a
// longer one a command APDU answered by a response APDU. A connected card is present;
// closing the socket removes it.
//
// Card events at once: the driver gives pcscd a polling function (ifdhandler.h,
// TAG_IFD_POLLING_THREAD_WITH_TIMEOUT), which pcscd's event thread (pcsc-lite
// eventhandler.c) calls between two presence checks instead of sleeping 400 ms. It returns
// when a card connects to the listener, when the present card's socket is closed by its peer
// (POLLRDHUP; the card's answers arriving on it are not events), when the driver closes the
// card itself, when pcscd stops the thread (TAG_IFD_STOP_POLLING_THREAD; the thread is not
// killable), and at the latest after 400 ms (POLL_PERIOD_MS), so pcscd still checks at least
// as often as its own poll would, and the scripting below keeps its timing.
//
// The reader itself answers:
//   - PC/SC Part 3 GET DATA pseudo-APDUs (FF CA 00 00 Le: the UID, from DIR/uid as hex or a
//     default; FF CA 01 00 Le: the historical bytes of the card's ATR); Le 00 = all bytes,
//     Le larger than the data: data + 6282, Le smaller: 6CXX; other P1 or no data: 6A81;
//   - IFDHControl: the Part 10 feature request, FEATURE_GET_TLV_PROPERTIES,
//     FEATURE_IFD_PIN_PROPERTIES, an ACS-style escape (E0 00 00 18/28/29), and the
//     Rutoken-style NFC codes (see TapwireIFD.h). Any other code: IFD_NOT_SUPPORTED
//     (pcscd: SCARD_E_UNSUPPORTED_FEATURE).
//
// Scripting (files the test writes in DIR):
//   DIR/behaviour   read at START_NFC: "timeout N" (discovery stops after N s, reason 2),
//                   "cancel N" (the user cancels after N s, reason 3), "unplug N" (the
//                   reader goes away after N s), empty or absent: runs until STOP_NFC.
//   DIR/command     read at every presence check (after each card event, at least every
//                   400 ms) and before every APDU: "unplug" makes the reader go away
//                   (IFDHICCPresence, IFDHTransmitToICC and IFDHControl return
//                   IFD_NO_SUCH_DEVICE), "unplug after N" makes it go away after N more
//                   APDUs (the next one fails: a reader unplugged mid-write), "replug" brings
//                   it back, "cancel" cancels running discovery now. The driver deletes the
//                   file once read.
// Log: DIR/control.log, one line per IFDHControl call:
//   control CODE in HEX -> RC out HEX
// (CODE 8 hex digits, RC the IFD return code in decimal, HEX lowercase, "-" when empty).

#define _GNU_SOURCE // POLLRDHUP
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <PCSC/ifdhandler.h>
#include <PCSC/reader.h>

#include "TapwireIFD.h"

#define MAX_ATR 33
#define MAX_FRAME 65538
// The longest the polling function waits without an event (pcscd's own poll period,
// PCSCLITE_STATUS_POLL_RATE).
#define POLL_PERIOD_MS 400

// Reasons of LAST_NFC_STOP_REASON (Rutoken's public RtNfcStopReason values).
enum { REASON_FINISHED = 0, REASON_TIMEOUT = 2, REASON_CANCELLED = 3, REASON_NO_ERROR = 4 };
enum { SCRIPT_NONE, SCRIPT_TIMEOUT, SCRIPT_CANCEL, SCRIPT_UNPLUG };

static struct {
  pthread_mutex_t lock;
  int open;
  char dir[512];
  int listener;
  int card;
  int wake[2]; // a pipe: a byte written wakes the polling function
  unsigned char atr[MAX_ATR];
  size_t atrLength;
  int unplugged;
  int unplugAfter; // APDUs still answered before the reader goes away; -1: no such plan
  int nfcRunning;
  unsigned char stopReason;
  int script;
  double scriptAt;
} reader = {.lock = PTHREAD_MUTEX_INITIALIZER,
            .listener = -1,
            .card = -1,
            .wake = {-1, -1},
            .unplugAfter = -1,
            .stopReason = REASON_FINISHED};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void path(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", reader.dir, name); }

// Reads DIR/name into buf (NUL-terminated, trailing whitespace dropped); 0 when absent.
static int readFile(const char *name, char *buf, size_t size) {
  char file[600];
  path(file, sizeof file, name);
  FILE *f = fopen(file, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, size - 1, f);
  fclose(f);
  buf[n] = 0;
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r')) buf[--n] = 0;
  return 1;
}

static void hex(FILE *f, const unsigned char *bytes, size_t count) {
  if (count == 0) fputc('-', f);
  for (size_t i = 0; i < count; i++) fprintf(f, "%02x", bytes[i]);
}

static void logControl(DWORD code, const unsigned char *in, size_t inLength, RESPONSECODE rc,
                       const unsigned char *out, size_t outLength) {
  char file[600];
  path(file, sizeof file, "control.log");
  FILE *f = fopen(file, "a");
  if (!f) return;
  fprintf(f, "control %08lx in ", (unsigned long)code);
  hex(f, in, inLength);
  fprintf(f, " -> %ld out ", (long)rc);
  hex(f, out, outLength);
  fputc('\n', f);
  fclose(f);
}

// Wakes the polling function (called with reader.lock held).
static void wakePolling(void) {
  if (reader.wake[1] < 0) return;
  unsigned char byte = 1;
  ssize_t n = write(reader.wake[1], &byte, 1); // a full pipe already wakes it
  (void)n;
}

static void closeCard(void) {
  if (reader.card >= 0) {
    close(reader.card);
    wakePolling();
  }
  reader.card = -1;
  reader.atrLength = 0;
}

static int sendAll(int fd, const unsigned char *bytes, size_t count) {
  while (count > 0) {
    ssize_t n = send(fd, bytes, count, MSG_NOSIGNAL);
    if (n <= 0) return -1;
    bytes += n;
    count -= (size_t)n;
  }
  return 0;
}

static int recvAll(int fd, unsigned char *bytes, size_t count) {
  while (count > 0) {
    ssize_t n = recv(fd, bytes, count, 0);
    if (n <= 0) return -1;
    bytes += n;
    count -= (size_t)n;
  }
  return 0;
}

// One vpcd frame out; with answer, one frame back (at most *length bytes). -1: the card left.
static int exchange(const unsigned char *payload, size_t count, unsigned char *answer, size_t *length) {
  if (reader.card < 0) return -1;
  unsigned char header[2] = {(unsigned char)(count >> 8), (unsigned char)count};
  if (sendAll(reader.card, header, 2) || sendAll(reader.card, payload, count)) goto lost;
  if (!answer) return 0;
  if (recvAll(reader.card, header, 2)) goto lost;
  size_t size = (size_t)header[0] << 8 | header[1];
  if (size > *length) goto lost;
  if (recvAll(reader.card, answer, size)) goto lost;
  *length = size;
  return 0;
lost:
  closeCard();
  return -1;
}

// Accepts a waiting card and notices a card that left (its socket closed).
static void updateCard(void) {
  if (reader.listener < 0) return;
  if (reader.card >= 0) {
    // The peer closed (also with bytes still unread: the card left all the same, and the
    // polling function would otherwise see the same hang-up again and again).
    struct pollfd p = {.fd = reader.card, .events = POLLIN | POLLRDHUP};
    if (poll(&p, 1, 0) > 0) {
      unsigned char byte;
      if ((p.revents & (POLLRDHUP | POLLHUP | POLLERR))
          || recv(reader.card, &byte, 1, MSG_PEEK | MSG_DONTWAIT) <= 0)
        closeCard();
    }
  }
  if (reader.card < 0) {
    int fd = accept(reader.listener, NULL, NULL);
    if (fd >= 0) {
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      struct timeval tv = {.tv_sec = 10};
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      reader.card = fd;
    }
  }
}

// Applies the command file and the NFC script's deadline.
static void updateScript(void) {
  char command[64];
  if (readFile("command", command, sizeof command)) {
    char file[600];
    path(file, sizeof file, "command");
    unlink(file);
    int count = 0;
    if (strcmp(command, "unplug") == 0) reader.unplugged = 1;
    if (sscanf(command, "unplug after %d", &count) == 1 && count >= 0) reader.unplugAfter = count;
    if (strcmp(command, "replug") == 0) {
      reader.unplugged = 0;
      reader.unplugAfter = -1;
    }
    wakePolling(); // pcscd checks presence at once
    if (strcmp(command, "cancel") == 0 && reader.nfcRunning) {
      reader.nfcRunning = 0;
      reader.stopReason = REASON_CANCELLED;
    }
  }
  if (reader.nfcRunning && reader.script != SCRIPT_NONE && now() >= reader.scriptAt) {
    if (reader.script == SCRIPT_UNPLUG) {
      reader.unplugged = 1;
    } else {
      reader.stopReason = reader.script == SCRIPT_TIMEOUT ? REASON_TIMEOUT : REASON_CANCELLED;
    }
    reader.nfcRunning = 0;
    reader.script = SCRIPT_NONE;
  }
}

static RESPONSECODE openChannel(const char *dir, int port) {
  pthread_mutex_lock(&reader.lock);
  snprintf(reader.dir, sizeof reader.dir, "%s", dir);
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  RESPONSECODE rc = IFD_SUCCESS;
  if (reader.wake[0] < 0 && pipe2(reader.wake, O_NONBLOCK | O_CLOEXEC)) reader.wake[0] = reader.wake[1] = -1;
  if (fd < 0 || reader.wake[0] < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) || listen(fd, 1)) {
    if (fd >= 0) close(fd);
    rc = IFD_COMMUNICATION_ERROR;
  } else {
    reader.listener = fd;
    reader.open = 1;
  }
  pthread_mutex_unlock(&reader.lock);
  return rc;
}

RESPONSECODE IFDHCreateChannelByName(DWORD Lun, LPSTR DeviceName) {
  (void)Lun;
  char dir[512];
  snprintf(dir, sizeof dir, "%s", DeviceName ? DeviceName : "");
  char *colon = strrchr(dir, ':');
  int port = 35963;
  if (colon) {
    *colon = 0;
    port = atoi(colon + 1);
  }
  return openChannel(dir[0] ? dir : "/tmp", port);
}

RESPONSECODE IFDHCreateChannel(DWORD Lun, DWORD Channel) {
  (void)Lun;
  const char *dir = getenv("TAPWIRE_IFD_DIR");
  return openChannel(dir ? dir : "/tmp", Channel ? (int)Channel : 35963);
}

RESPONSECODE IFDHCloseChannel(DWORD Lun) {
  (void)Lun;
  pthread_mutex_lock(&reader.lock);
  closeCard();
  if (reader.listener >= 0) close(reader.listener);
  reader.listener = -1;
  // pcscd joins its event thread before closing the channel: nobody polls the pipe now.
  for (int i = 0; i < 2; i++) {
    if (reader.wake[i] >= 0) close(reader.wake[i]);
    reader.wake[i] = -1;
  }
  reader.open = 0;
  pthread_mutex_unlock(&reader.lock);
  return IFD_SUCCESS;
}

static RESPONSECODE copyOut(PUCHAR value, PDWORD length, const void *bytes, size_t count) {
  if (*length < count) return IFD_ERROR_INSUFFICIENT_BUFFER;
  memcpy(value, bytes, count);
  *length = (DWORD)count;
  return IFD_SUCCESS;
}

// pcscd's event thread calls this between two presence checks (see the file comment): it
// returns IFD_SUCCESS on a card event, a stop request or after min(timeout, 400) ms, so pcscd
// checks presence at once. timeout is in milliseconds.
static RESPONSECODE waitForCardEvent(DWORD Lun, int timeout) {
  (void)Lun;
  struct pollfd fds[2] = {{.fd = -1, .events = POLLIN}, {.fd = -1}};
  pthread_mutex_lock(&reader.lock);
  fds[0].fd = reader.wake[0];
  if (reader.unplugged) {
    // Presence answers IFD_NO_SUCH_DEVICE without looking at the sockets: only the period.
  } else if (reader.card >= 0) {
    fds[1].fd = reader.card;
    fds[1].events = POLLRDHUP; // the peer closed: the card left
  } else if (reader.listener >= 0) {
    fds[1].fd = reader.listener;
    fds[1].events = POLLIN; // a card connects
  }
  pthread_mutex_unlock(&reader.lock);
  // A descriptor closed meanwhile by another call is POLLNVAL (or, reused, polled for at
  // most POLL_PERIOD_MS): either way pcscd checks presence again soon.
  int wait = timeout >= 0 && timeout < POLL_PERIOD_MS ? timeout : POLL_PERIOD_MS;
  if (poll(fds, 2, wait) > 0 && (fds[0].revents & POLLIN)) {
    unsigned char drain[64];
    while (read(fds[0].fd, drain, sizeof drain) > 0) {}
  }
  return IFD_SUCCESS;
}

// TAG_IFD_STOP_POLLING_THREAD: pcscd has asked its event thread to end; the polling function
// returns at once.
static RESPONSECODE stopPolling(DWORD Lun) {
  (void)Lun;
  pthread_mutex_lock(&reader.lock);
  wakePolling();
  pthread_mutex_unlock(&reader.lock);
  return IFD_SUCCESS;
}

RESPONSECODE IFDHGetCapabilities(DWORD Lun, DWORD Tag, PDWORD Length, PUCHAR Value) {
  (void)Lun;
  unsigned char one = 1, zero = 0;
  RESPONSECODE (*polling)(DWORD, int) = waitForCardEvent;
  RESPONSECODE (*stop)(DWORD) = stopPolling;
  pthread_mutex_lock(&reader.lock);
  RESPONSECODE rc;
  switch (Tag) {
  case TAG_IFD_ATR: rc = copyOut(Value, Length, reader.atr, reader.atrLength); break;
  case TAG_IFD_SLOTS_NUMBER:
  case TAG_IFD_SIMULTANEOUS_ACCESS: rc = copyOut(Value, Length, &one, 1); break;
  case TAG_IFD_THREAD_SAFE:
  case TAG_IFD_SLOT_THREAD_SAFE: rc = copyOut(Value, Length, &zero, 1); break;
  // pcscd copies the function pointers out of Value (pcsc-lite readerfactory.c, eventhandler.c).
  case TAG_IFD_POLLING_THREAD_WITH_TIMEOUT: rc = copyOut(Value, Length, &polling, sizeof polling); break;
  case TAG_IFD_POLLING_THREAD_KILLABLE: rc = copyOut(Value, Length, &zero, 1); break;
  case TAG_IFD_STOP_POLLING_THREAD: rc = copyOut(Value, Length, &stop, sizeof stop); break;
  case SCARD_ATTR_VENDOR_NAME: rc = copyOut(Value, Length, "Tapwire", 8); break;
  case SCARD_ATTR_VENDOR_IFD_TYPE: rc = copyOut(Value, Length, "Tapwire Virtual NFC", 20); break;
  default: rc = IFD_ERROR_TAG;
  }
  pthread_mutex_unlock(&reader.lock);
  return rc;
}

RESPONSECODE IFDHSetCapabilities(DWORD Lun, DWORD Tag, DWORD Length, PUCHAR Value) {
  (void)Lun, (void)Tag, (void)Length, (void)Value;
  return IFD_NOT_SUPPORTED;
}

RESPONSECODE IFDHSetProtocolParameters(DWORD Lun, DWORD Protocol, UCHAR Flags, UCHAR PTS1, UCHAR PTS2,
                                       UCHAR PTS3) {
  (void)Lun, (void)Flags, (void)PTS1, (void)PTS2, (void)PTS3;
  return Protocol == SCARD_PROTOCOL_T1 || Protocol == SCARD_PROTOCOL_T0 ? IFD_SUCCESS : IFD_PROTOCOL_NOT_SUPPORTED;
}

RESPONSECODE IFDHPowerICC(DWORD Lun, DWORD Action, PUCHAR Atr, PDWORD AtrLength) {
  (void)Lun;
  pthread_mutex_lock(&reader.lock);
  updateCard();
  RESPONSECODE rc = IFD_SUCCESS;
  unsigned char control = Action == IFD_POWER_DOWN ? 0 : Action == IFD_POWER_UP ? 1 : 2;
  if (Action != IFD_POWER_DOWN && Action != IFD_POWER_UP && Action != IFD_RESET) {
    rc = IFD_NOT_SUPPORTED;
  } else if (Action == IFD_POWER_DOWN) {
    if (reader.card >= 0) exchange(&control, 1, NULL, NULL);
    reader.atrLength = 0;
  } else {
    unsigned char ask = 4;
    size_t length = MAX_ATR;
    if (exchange(&control, 1, NULL, NULL) || exchange(&ask, 1, reader.atr, &length) || length == 0) {
      closeCard();
      rc = IFD_ERROR_POWER_ACTION;
    } else {
      reader.atrLength = length;
    }
  }
  if (AtrLength) {
    DWORD count = rc == IFD_SUCCESS && Action != IFD_POWER_DOWN ? (DWORD)reader.atrLength : 0;
    if (Atr && count) memcpy(Atr, reader.atr, count);
    *AtrLength = count;
  }
  pthread_mutex_unlock(&reader.lock);
  return rc;
}

// The historical bytes of the ATR (ISO/IEC 7816-3 §8.2): T0's low nibble counts them; they
// follow the interface bytes announced by T0 and each TDi.
static size_t historicalBytes(const unsigned char **start) {
  if (reader.atrLength < 2) return 0;
  size_t k = reader.atr[1] & 0x0F, i = 2;
  unsigned char y = reader.atr[1] >> 4;
  for (;;) {
    int td = y & 0x08;
    i += (size_t)((y & 1) + ((y >> 1) & 1) + ((y >> 2) & 1));
    if (!td) break;
    if (i >= reader.atrLength) return 0;
    y = reader.atr[i] >> 4;
    i += 1;
  }
  if (i + k > reader.atrLength) return 0;
  *start = reader.atr + i;
  return k;
}

static int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// PC/SC Part 3 GET DATA, answered by the reader (see the file comment).
static void getData(const unsigned char *command, size_t count, unsigned char *out, size_t *outLength) {
  static const unsigned char defaultUID[] = {0x04, 0xA2, 0x2B, 0x92, 0xC1, 0x5E, 0x80};
  unsigned char uid[16];
  const unsigned char *data = NULL;
  size_t length = 0;
  if (command[2] == 0x00 && command[3] == 0x00) {
    char text[64];
    length = 0;
    if (readFile("uid", text, sizeof text)) {
      for (size_t i = 0; text[i] && text[i + 1] && length < sizeof uid; i += 2) {
        int hi = hexValue(text[i]), lo = hexValue(text[i + 1]);
        if (hi < 0 || lo < 0) break;
        uid[length++] = (unsigned char)(hi << 4 | lo);
      }
      data = uid;
    } else {
      data = defaultUID;
      length = sizeof defaultUID;
    }
  } else if (command[2] == 0x01 && command[3] == 0x00) {
    length = historicalBytes(&data);
  }
  size_t le = count >= 5 ? command[4] : 0;
  if (length == 0) {
    out[0] = 0x6A, out[1] = 0x81, *outLength = 2;
  } else if (le != 0 && le < length) {
    out[0] = 0x6C, out[1] = (unsigned char)length, *outLength = 2;
  } else {
    memcpy(out, data, length);
    int shorter = le != 0 && le > length;
    out[length] = shorter ? 0x62 : 0x90;
    out[length + 1] = shorter ? 0x82 : 0x00;
    *outLength = length + 2;
  }
}

RESPONSECODE IFDHTransmitToICC(DWORD Lun, SCARD_IO_HEADER SendPci, PUCHAR TxBuffer, DWORD TxLength,
                               PUCHAR RxBuffer, PDWORD RxLength, PSCARD_IO_HEADER RecvPci) {
  (void)Lun;
  if (RecvPci) *RecvPci = SendPci;
  pthread_mutex_lock(&reader.lock);
  updateScript();
  RESPONSECODE rc = IFD_SUCCESS;
  static unsigned char answer[MAX_FRAME];
  size_t length = sizeof answer;
  if (reader.unplugAfter == 0) {
    reader.unplugged = 1;
    reader.unplugAfter = -1;
    wakePolling();
  } else if (reader.unplugAfter > 0) {
    reader.unplugAfter -= 1;
  }
  if (reader.unplugged) {
    rc = IFD_NO_SUCH_DEVICE;
  } else if (TxLength >= 4 && TxBuffer[0] == 0xFF && TxBuffer[1] == 0xCA) {
    getData(TxBuffer, TxLength, answer, &length);
  } else if (exchange(TxBuffer, TxLength, answer, &length) || length < 2) {
    rc = IFD_COMMUNICATION_ERROR;
  }
  if (rc == IFD_SUCCESS) {
    if (length > *RxLength) {
      rc = IFD_ERROR_INSUFFICIENT_BUFFER;
    } else {
      memcpy(RxBuffer, answer, length);
      *RxLength = (DWORD)length;
    }
  }
  if (rc != IFD_SUCCESS) *RxLength = 0;
  pthread_mutex_unlock(&reader.lock);
  return rc;
}

RESPONSECODE IFDHICCPresence(DWORD Lun) {
  (void)Lun;
  pthread_mutex_lock(&reader.lock);
  updateScript();
  RESPONSECODE rc;
  if (reader.unplugged) {
    rc = IFD_NO_SUCH_DEVICE;
  } else {
    updateCard();
    rc = reader.card >= 0 ? IFD_ICC_PRESENT : IFD_ICC_NOT_PRESENT;
  }
  pthread_mutex_unlock(&reader.lock);
  return rc;
}

// START_NFC's buffer: "<waiting>\0<working>\0\0", nothing after.
static int validStart(const unsigned char *in, size_t count) {
  const unsigned char *first = memchr(in, 0, count);
  if (!first) return 0;
  size_t rest = count - (size_t)(first - in) - 1;
  const unsigned char *second = memchr(first + 1, 0, rest);
  if (!second) return 0;
  return (size_t)(second - in) + 2 == count && second[1] == 0;
}

static void startNFC(void) {
  char behaviour[64];
  int seconds = 0;
  reader.nfcRunning = 1;
  reader.stopReason = REASON_NO_ERROR;
  reader.script = SCRIPT_NONE;
  if (readFile("behaviour", behaviour, sizeof behaviour)) {
    char word[16] = "";
    if (sscanf(behaviour, "%15s %d", word, &seconds) == 2) {
      if (strcmp(word, "timeout") == 0) reader.script = SCRIPT_TIMEOUT;
      if (strcmp(word, "cancel") == 0) reader.script = SCRIPT_CANCEL;
      if (strcmp(word, "unplug") == 0) reader.script = SCRIPT_UNPLUG;
      reader.scriptAt = now() + seconds;
    }
  }
}

RESPONSECODE IFDHControl(DWORD Lun, DWORD dwControlCode, PUCHAR TxBuffer, DWORD TxLength, PUCHAR RxBuffer,
                         DWORD RxLength, LPDWORD pdwBytesReturned) {
  (void)Lun;
  pthread_mutex_lock(&reader.lock);
  updateScript();
  unsigned char out[64];
  size_t outLength = 0;
  RESPONSECODE rc = IFD_SUCCESS;
  const unsigned char *in = TxBuffer;
  size_t inLength = in ? TxLength : 0;
  if (reader.unplugged) {
    rc = IFD_NO_SUCH_DEVICE;
  } else {
    switch (dwControlCode) {
    case TAPWIRE_IFD_GET_FEATURE_REQUEST: {
      static const unsigned char features[] = {
          0x12, 4, 0x42, 0x33, 0x00, 0x12, // FEATURE_GET_TLV_PROPERTIES
          0x0A, 4, 0x42, 0x33, 0x00, 0x0A, // FEATURE_IFD_PIN_PROPERTIES
          0x13, 4, 0x42, 0x00, 0x00, 0x01, // FEATURE_CCID_ESC_COMMAND
      };
      memcpy(out, features, outLength = sizeof features);
      break;
    }
    case TAPWIRE_IFD_GET_TLV_PROPERTIES: {
      static const unsigned char properties[] = {
          0x01, 2, 0x00, 0x00,                // wLcdLayout: no display
          0x02, 1, 0x02,                      // bEntryValidationCondition: validation key
          0x06, 1, 0x04,                      // bMinPINSize
          0x07, 1, 0x08,                      // bMaxPINSize
          0x08, 7, 'T', 'a', 'p', 'w', 'i', 'r', 'e', // sFirmwareID
          0x0A, 4, 0x05, 0x01, 0x00, 0x00,    // dwMaxAPDUDataSize: 261
          0x0B, 2, 0x2F, 0x07,                // wIdVendor 0x072F
          0x0C, 2, 0x23, 0x22,                // wIdProduct 0x2223
      };
      memcpy(out, properties, outLength = sizeof properties);
      break;
    }
    case TAPWIRE_IFD_PIN_PROPERTIES: {
      static const unsigned char pin[] = {0x00, 0x00, 0x02, 0x00};
      memcpy(out, pin, outLength = sizeof pin);
      break;
    }
    case TAPWIRE_IFD_ESCAPE:
      // ACS-style: E0 00 00 18 00 firmware; E0 00 00 28 01 XX buzzer; E0 00 00 29 01 XX LEDs.
      if (inLength == 5 && in[0] == 0xE0 && in[3] == 0x18 && in[4] == 0x00) {
        static const unsigned char firmware[] = {0xE1, 0, 0, 0, 7, 'T', 'a', 'p', 'w', 'i', 'r', 'e'};
        memcpy(out, firmware, outLength = sizeof firmware);
      } else if (inLength == 6 && in[0] == 0xE0 && (in[3] == 0x28 || in[3] == 0x29) && in[4] == 0x01) {
        unsigned char echo[] = {0xE1, 0, 0, 0, 1, in[5]};
        memcpy(out, echo, outLength = sizeof echo);
      } else {
        rc = IFD_NOT_SUPPORTED;
      }
      break;
    case TAPWIRE_IFD_START_NFC:
      if (!validStart(in, inLength)) {
        rc = IFD_COMMUNICATION_ERROR;
      } else {
        startNFC();
      }
      break;
    case TAPWIRE_IFD_STOP_NFC:
    case TAPWIRE_IFD_STOP_NFC_WITH_ERROR:
      if (inLength && memchr(in, 0, inLength)) {
        rc = IFD_COMMUNICATION_ERROR;
      } else {
        if (reader.nfcRunning) reader.stopReason = REASON_FINISHED;
        reader.nfcRunning = 0;
        reader.script = SCRIPT_NONE;
      }
      break;
    case TAPWIRE_IFD_LAST_NFC_STOP_REASON:
      out[0] = reader.nfcRunning ? REASON_NO_ERROR : reader.stopReason;
      outLength = 1;
      break;
    case TAPWIRE_IFD_NFC_COOLDOWN:
      out[0] = 0;
      outLength = 1;
      break;
    default: rc = IFD_NOT_SUPPORTED;
    }
  }
  if (rc == IFD_SUCCESS && outLength > RxLength) rc = IFD_ERROR_INSUFFICIENT_BUFFER;
  if (rc != IFD_SUCCESS) outLength = 0;
  if (outLength) memcpy(RxBuffer, out, outLength);
  if (pdwBytesReturned) *pdwBytesReturned = (DWORD)outLength;
  logControl(dwControlCode, in, inLength, rc, out, outLength);
  pthread_mutex_unlock(&reader.lock);
  return rc;
}
