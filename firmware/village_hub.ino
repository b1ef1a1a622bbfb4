// Village reader hub: several MFRC522 readers polled one antenna at a time, debounced
// tag presence reported on the serial port in the line protocol of PROTOCOL.md.
#include <EEPROM.h>
#include <SPI.h>

#include "board.h"
#include "mfrc522.h"
#include "presence.h"
#include "protocol.h"

#define HUB_FW "0.2.0"

// SEEN at the first poll that finds a tag (its UID passed the BCC and CRC_A checks; a
// passing hand is the reconciler's settle to absorb); GONE once m = 3 polls in a row
// missed it over at least 300 ms: longer than a tag at a field's edge drops out
// (PROTOCOL.md, "Timing").
static const presence::Timing kTiming = {1, 3, 300};
static const uint8_t kSettledAfter = 2;      // polls of each reader before the first HELLO
// A reader with a present tag just missed is polled every kUrgentMs + 0..kJitterMs-1 ms
// (at random, so as not to sample a flickering tag in step with its flicker), between
// the polls in turn; one that reported a GONE less than kWatchMs ago (the tag may be
// flickering back) every 2 * (kUrgentMs + 0..kJitterMs-1) ms.
static const uint8_t kUrgentMs = 12;
static const uint8_t kJitterMs = 8;
static const uint16_t kWatchMs = 500;
static const uint16_t kHelloEveryMs = 1000;  // until the host says START
static const uint16_t kHeartbeatMs = 1000;
static const uint16_t kRetryMs = 1000;       // a faulted reader is tried again this often
static const uint16_t kResetMs = 60;         // RST high → chip ready
// antenna on → first REQA: a tag must accept REQA within 5 ms of unmodulated field, so a
// reader gives it at least 5.1 ms (ISO/IEC 14443-3, 5.2)
static const uint16_t kSettleUs = 5100;
static const uint8_t kMaxPerPoll = 64;       // tags enumerated in one poll, at most
static const uint8_t kIdAddr = 0;            // EEPROM byte: the hub id

enum ReaderState : uint8_t { R_OK, R_FAULT, R_RESETTING };

struct Slot {
    mfrc522::Reader chip;
    uint8_t state;
    uint32_t since;      // when the state began
    uint32_t last_poll;
    uint16_t polls;      // good polls since the last heartbeat
    uint8_t boot_polls;  // good polls since power-up or recovery (saturates)
    bool announce;       // recovered: say READY once polled twice
    uint8_t full;        // tags its last poll found but had no slot for (as last reported)
    uint8_t extra_ms;    // random wait added before its next urgent poll
    bool missed;         // a present tag was missed by its last poll (tags.urgent, kept)
    bool watching;       // reported a GONE lately: a flickering tag would come back
    uint16_t watch_until;
};

static Slot readers[HUB_READERS];
static presence::Pool<HUB_TAGS> tags;
static proto::Line line;
static proto::LineReader input;
static uint8_t seq = 0;
static bool streaming = false;  // the host said START
static uint16_t rate_ms = 20;   // least time between two polls of one reader
static uint32_t last_hello = 0, last_heartbeat = 0;
static uint8_t next_reader = 0, next_urgent = 0;
static bool last_urgent = false;
static uint16_t rng = 0xACE1;

// xorshift16: the jitter that keeps polls from locking into phase with a flickering tag
static uint8_t random_below(uint8_t n) {
    rng ^= (uint16_t)(rng << 7);
    rng ^= (uint16_t)(rng >> 9);
    rng ^= (uint16_t)(rng << 8);
    return (uint8_t)(rng % n);
}
static bool settled = false;  // every working reader polled k times since power-up

// The presence tables mean something only once each reader has been polled k times:
// until then the hub neither says hello nor answers commands (they wait in the UART
// buffer), so a replay after a reset never reports tags as missing.
static bool check_settled() {
    for (uint8_t r = 0; r < HUB_READERS; r++)
        if (readers[r].state == R_OK && readers[r].boot_polls < kSettledAfter) return false;
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
        for (uint8_t i = 0; i < HUB_TAGS; i++)
            if (tags.slots[i].state == presence::PRESENT && tags.slots[i].reader == r) {
                send_tag("SEEN", r, tags.slots[i]);
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
        if (ev == presence::EV_GONE) {
            readers[r].watching = true;
            readers[r].watch_until = (uint16_t)(millis() + kWatchMs);
        }
        if (streaming) send_tag(ev == presence::EV_SEEN ? "SEEN" : "GONE", r, s);
    }
};

struct PollCtx {
    uint8_t r;
    uint8_t dropped;  // tags found with no slot free for them
};

static void on_tag(void* ctx, const uint8_t* uid, uint8_t len) {
    PollCtx* c = static_cast<PollCtx*>(ctx);
    if (!tags.saw(c->r, uid, len) && c->dropped < 255) c->dropped++;
}

static void send_full(uint8_t r, uint8_t n) {
    line.begin(seq++, "FULL");
    line.raw(" ");
    line.num(r);
    line.raw(" ");
    line.num(n);
    send();
}

static void fault(uint8_t r, const char* why) {
    Slot& s = readers[r];
    s.chip.antenna(false);
    s.chip.hold_reset();
    s.state = R_FAULT;
    s.since = millis();
    if (streaming) send_reader("FAULT", r, why);
}

// A faulted reader is released from reset kRetryMs after its last try began, and
// initialised kResetMs later; checked on every pass of the loop, not only at its turn.
static void service_fault(uint8_t r, uint32_t now) {
    Slot& s = readers[r];
    if (s.state == R_FAULT) {
        if (now - s.since >= kRetryMs) {
            s.chip.release_reset();
            s.state = R_RESETTING;
            s.since = now;
        }
    } else if (s.state == R_RESETTING && now - s.since >= kResetMs) {
        if (s.chip.init()) {
            s.state = R_OK;
            s.boot_polls = 0;
            s.announce = true;  // READY once its table is settled again
        } else {
            s.state = R_FAULT;  // still silent: back to waiting, no new FAULT line
            s.chip.hold_reset();
            s.since = now - kResetMs;  // the next try kRetryMs after this one began
        }
    }
}

static void poll(uint8_t r) {
    Slot& s = readers[r];
    s.last_poll = millis();
    uint8_t v = s.chip.probe();
    if (v == 0x00 || v == 0xFF) {
        fault(r, v ? "version=FF" : "version=00");
        return;
    }
    if (!s.chip.configured()) {  // it reset itself: set it up again at once
        s.chip.errors++;
        if (!s.chip.init()) {
            fault(r, "init");
            return;
        }
    }
    s.chip.antenna(true);
    delayMicroseconds(kSettleUs);
    tags.begin_poll(r);
    PollCtx ctx = {r, 0};
    int8_t found = s.chip.enumerate(on_tag, &ctx, kMaxPerPoll);
    s.chip.antenna(false);
    if (found < 0) {
        uint8_t v2 = s.chip.probe();
        if (v2 != 0x00 && v2 != 0xFF && !s.chip.configured() && s.chip.init()) {
            s.chip.errors++;  // it reset itself during the poll: this poll is void
            return;
        }
        fault(r, "timeout");
        return;
    }
    s.polls++;
    if (s.boot_polls < 255) s.boot_polls++;
    Emitter emit{r};
    tags.end_poll(r, (uint16_t)millis(), kTiming, emit);
    // the random part of the wait before this reader's next urgent poll (pick): a tag
    // flickering in and out of the field is not sampled in step with its flicker
    s.extra_ms = random_below(kJitterMs);
    s.missed = tags.urgent(r);  // changes only at this reader's end_poll
    if (ctx.dropped != s.full) {
        s.full = ctx.dropped;
        if (streaming) send_full(r, s.full);
    }
    if (s.announce && s.boot_polls >= kSettledAfter) {
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

// Polls in turn wait rate_ms after the reader's last poll; urgent ones kUrgentMs and a
// random extra.
static bool due(uint8_t r, uint32_t now, uint8_t urgency) {
    const Slot& s = readers[r];
    uint32_t wait = urgency ? ((uint32_t)kUrgentMs + s.extra_ms) * urgency : rate_ms;
    return s.state == R_OK && now - s.last_poll >= wait;
}

// 1: a present tag was just missed; 2: watching after a GONE; 0: nothing to settle.
static uint8_t urgency(uint8_t r, uint32_t now) {
    Slot& s = readers[r];
    if (s.watching && (int16_t)((uint16_t)now - s.watch_until) >= 0) s.watching = false;
    return s.missed ? 1 : s.watching ? 2 : 0;
}

// Which reader to poll next: in turn, but every other poll may go to a reader with
// something to settle (a present tag just missed, a tag gone lately; with k > 1 a new
// tag to confirm), so a departure is confirmed, or a flicker ruled out, by dense polls.
// HUB_READERS when none is due.
static uint8_t pick(uint32_t now) {
    if (!last_urgent) {
        for (uint8_t i = 0; i < HUB_READERS; i++) {
            uint8_t u = (uint8_t)((next_urgent + i) % HUB_READERS);
            uint8_t level = urgency(u, now);
            if (level && due(u, now, level)) {
                next_urgent = (uint8_t)((u + 1) % HUB_READERS);
                last_urgent = true;
                return u;
            }
        }
    }
    last_urgent = false;
    for (uint8_t i = 0; i < HUB_READERS; i++) {
        uint8_t r = (uint8_t)((next_reader + i) % HUB_READERS);
        if (due(r, now, 0)) {
            next_reader = (uint8_t)((r + 1) % HUB_READERS);
            return r;
        }
    }
    return HUB_READERS;
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
            for (uint8_t r = 0; r < HUB_READERS; r++) {  // the first HB counts from here
                readers[r].polls = 0;
                readers[r].chip.errors = 0;
                readers[r].full = 0;  // said again after the next poll if still so
            }
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
    for (uint8_t r = 0; r < HUB_READERS; r++) service_fault(r, now);
    uint8_t r = pick(now);
    if (r < HUB_READERS) poll(r);
}
