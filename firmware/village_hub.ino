// Village reader hub: several MFRC522 readers polled one antenna at a time, debounced
// tag presence reported on the serial port in the line protocol of PROTOCOL.md.
#include <EEPROM.h>
#include <SPI.h>

#include "board.h"
#include "mfrc522.h"
#include "presence.h"
#include "protocol.h"

#define HUB_FW "0.1.0"

static const uint8_t kSeenAfter = 2;         // k: polls in a row that find a tag
static const uint8_t kGoneAfter = 3;         // m: polls in a row that miss it
static const uint16_t kHelloEveryMs = 1000;  // until the host says START
static const uint16_t kHeartbeatMs = 1000;
static const uint16_t kRetryMs = 3000;       // a faulted reader is tried again this often
static const uint16_t kResetMs = 60;         // RST high → chip ready
static const uint8_t kSettleMs = 5;          // antenna on → tags powered
static const uint8_t kIdAddr = 0;            // EEPROM byte: the hub id

enum ReaderState : uint8_t { R_OK, R_FAULT, R_RESETTING };

struct Slot {
    mfrc522::Reader chip;
    presence::Table<HUB_SLOTS> table;
    uint8_t state;
    uint32_t since;      // when the state began
    uint32_t last_poll;
    uint16_t polls;      // good polls since the last heartbeat
    uint8_t boot_polls;  // good polls since power-up or recovery (saturates)
    bool announce;       // recovered: say READY once polled k times
};

static Slot readers[HUB_READERS];
static proto::Line line;
static proto::LineReader input;
static uint8_t seq = 0;
static bool streaming = false;  // the host said START
static uint16_t rate_ms = 20;   // least time between two polls of one reader
static uint32_t last_hello = 0, last_heartbeat = 0;
static uint8_t next_reader = 0;
static bool settled = false;  // every working reader polled k times since power-up

// The presence tables mean something only once each reader has been polled k times:
// until then the hub neither says hello nor answers commands (they wait in the UART
// buffer), so a replay after a reset never reports tags as missing.
static bool check_settled() {
    for (uint8_t r = 0; r < HUB_READERS; r++)
        if (readers[r].state == R_OK && readers[r].boot_polls < kSeenAfter) return false;
    return true;
}

static uint8_t hub_id() {
    uint8_t id = EEPROM.read(kIdAddr);
    return id == 0xFF ? 1 : id;
}

static void send() {
    const char* text = line.finish();
    Serial.write(text, line.len);
}

static void send_hello() {
    line.begin(seq++, "HELLO");
    line.word("village-hub proto=");
    line.num(proto::VERSION);
    line.raw(" fw=" HUB_FW " board=" HUB_BOARD " id=");
    line.num(hub_id());
    line.raw(" readers=");
    line.num(HUB_READERS);
    line.raw(" status=");
    for (uint8_t r = 0; r < HUB_READERS; r++)
        line.raw(readers[r].state == R_OK && !readers[r].announce ? "O" : "F");
    line.raw(" rate=");
    line.num(rate_ms);
    send();
    last_hello = millis();
}

static void send_tag(const char* type, uint8_t r, const presence::Slot& s) {
    line.begin(seq++, type);
    line.raw(" ");
    line.num(r);
    line.raw(" ");
    line.hex(s.uid, s.len);
    send();
}

static void send_sync() {
    uint16_t n = 0;
    for (uint8_t r = 0; r < HUB_READERS; r++)
        for (uint8_t i = 0; i < HUB_SLOTS; i++)
            if (readers[r].table.slots[i].state == presence::PRESENT) {
                send_tag("SEEN", r, readers[r].table.slots[i]);
                n++;
            }
    line.begin(seq++, "SYNC");
    line.raw(" ");
    line.num(n);
    send();
}

static void send_reader(const char* type, uint8_t r, const char* why) {
    line.begin(seq++, type);
    line.raw(" ");
    line.num(r);
    line.word(why);
    send();
}

static void send_nak(const char* why) {
    line.begin(seq++, "NAK");
    line.word(why);
    send();
}

struct Emitter {
    uint8_t r;
    void operator()(presence::Event ev, const presence::Slot& s) {
        if (streaming) send_tag(ev == presence::EV_SEEN ? "SEEN" : "GONE", r, s);
    }
};

static void on_tag(void* ctx, const uint8_t* uid, uint8_t len) {
    static_cast<Slot*>(ctx)->table.saw(uid, len);
}

static void fault(uint8_t r, const char* why) {
    Slot& s = readers[r];
    s.chip.antenna(false);
    s.chip.hold_reset();
    s.state = R_FAULT;
    s.since = millis();
    if (streaming) send_reader("FAULT", r, why);
}

static void poll(uint8_t r) {
    Slot& s = readers[r];
    uint32_t now = millis();
    if (s.state == R_FAULT) {
        if (now - s.since >= kRetryMs) {
            s.chip.release_reset();
            s.state = R_RESETTING;
            s.since = now;
        }
        return;
    }
    if (s.state == R_RESETTING) {
        if (now - s.since < kResetMs) return;
        if (s.chip.init()) {
            s.state = R_OK;
            s.boot_polls = 0;
            s.announce = true;  // READY once its table is settled again
        } else {
            s.state = R_FAULT;  // still silent: back to waiting, no new FAULT line
            s.chip.hold_reset();
            s.since = now;
        }
        return;
    }
    if (now - s.last_poll < rate_ms) return;
    s.last_poll = now;
    uint8_t v = s.chip.probe();
    if (v == 0x00 || v == 0xFF) {
        fault(r, v ? "version=FF" : "version=00");
        return;
    }
    s.chip.antenna(true);
    delay(kSettleMs);
    s.table.begin_poll();
    int8_t found = s.chip.enumerate(on_tag, &s, HUB_SLOTS + 2);
    s.chip.antenna(false);
    if (found < 0) {
        fault(r, "timeout");
        return;
    }
    s.polls++;
    if (s.boot_polls < 255) s.boot_polls++;
    Emitter emit{r};
    s.table.end_poll(kSeenAfter, kGoneAfter, emit);
    if (s.announce && s.boot_polls >= kSeenAfter) {
        s.announce = false;
        if (streaming) {
            char v[12] = "version=";
            v[8] = proto::hex_digit(s.chip.version >> 4);
            v[9] = proto::hex_digit(s.chip.version & 0x0F);
            v[10] = 0;
            send_reader("READY", r, v);
        }
    }
}

static void heartbeat() {
    line.begin(seq++, "HB");
    line.raw(" ");
    line.num(millis());
    line.raw(" ");
    for (uint8_t r = 0; r < HUB_READERS; r++) {
        if (r) line.raw(",");
        if (readers[r].state == R_OK && !readers[r].announce) line.num(readers[r].polls);
        else line.raw("F");
        readers[r].polls = 0;
    }
    line.raw(" ");
    for (uint8_t r = 0; r < HUB_READERS; r++) {
        if (r) line.raw(",");
        line.num(readers[r].chip.errors);
        readers[r].chip.errors = 0;
    }
    send();
}

static void command(const char* text, uint8_t n) {
    proto::Command c;
    proto::ParseError e = proto::parse_command(text, n, c);
    if (e == proto::PARSE_BAD_CRC || e == proto::PARSE_NO_CRC) return send_nak("crc");
    if (e == proto::PARSE_UNKNOWN) return send_nak("unknown");
    if (e == proto::PARSE_BAD_ARG) return send_nak("arg");
    switch (c.verb) {
        case proto::CMD_HELLO:
            streaming = false;
            send_hello();
            break;
        case proto::CMD_START:
            streaming = true;
            send_sync();
            last_heartbeat = millis();
            break;
        case proto::CMD_SYNC:
            if (streaming) send_sync();
            else send_nak("not started");
            break;
        case proto::CMD_IDENT:
            send_hello();
            break;
        case proto::CMD_RATE:
            if (c.arg < 5 || c.arg > 5000) return send_nak("arg");
            rate_ms = (uint16_t)c.arg;
            line.begin(seq++, "ACK RATE ");
            line.num(rate_ms);
            send();
            break;
        case proto::CMD_SETID:
            if (c.arg < 1 || c.arg > 254) return send_nak("arg");
            EEPROM.update(kIdAddr, (uint8_t)c.arg);
            line.begin(seq++, "ACK SETID ");
            line.num(c.arg);
            send();
            break;
        default:
            break;
    }
}

void setup() {
    Serial.begin(115200);
    SPI.begin();
    for (uint8_t r = 0; r < HUB_READERS; r++) readers[r].chip.begin(kCsPins[r], kRstPins[r]);
    delay(kResetMs);
    for (uint8_t r = 0; r < HUB_READERS; r++) {
        Slot& s = readers[r];
        s.state = s.chip.init() ? R_OK : R_FAULT;
        if (s.state == R_FAULT) s.chip.hold_reset();
        s.since = millis();
    }
}

void loop() {
    if (!settled) {
        settled = check_settled();
        if (settled) send_hello();
    }
    while (settled && Serial.available()) {
        if (input.feed((char)Serial.read())) {
            command(input.buf, input.len);
            input.clear();
        }
    }
    uint32_t now = millis();
    if (settled && !streaming && now - last_hello >= kHelloEveryMs) send_hello();
    if (streaming && now - last_heartbeat >= kHeartbeatMs) {
        last_heartbeat = now;
        heartbeat();
    }
    poll(next_reader);
    next_reader = (uint8_t)((next_reader + 1) % HUB_READERS);
}
