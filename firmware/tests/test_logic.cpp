// Host unit tests of the firmware's pure logic: framing, checksums, command parsing,
// debouncing and the anticollision bookkeeping. `make -C firmware/tests` builds and runs.
#include <cstdio>
#include <cstring>
#include <vector>
#include <string>

#include "../iso14443.h"
#include "../presence.h"
#include "../protocol.h"

static int failures = 0, checks = 0;
#define CHECK(cond)                                                        \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);    \
        }                                                                  \
    } while (0)

static void test_crc8() {
    // CRC-8/SMBUS check value of "123456789" is 0xF4
    CHECK(proto::crc8("123456789", 9) == 0xF4);
    CHECK(proto::crc8("", 0) == 0x00);
}

static void test_line() {
    proto::Line l;
    l.begin(7, "SEEN");
    l.raw(" ");
    l.num(2);
    l.raw(" ");
    const uint8_t uid[] = {0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80};
    l.hex(uid, 7);
    std::string s = l.finish();
    CHECK(s.rfind("7 SEEN 2 04A1B2C3D4E580*", 0) == 0);
    CHECK(s.size() == std::strlen("7 SEEN 2 04A1B2C3D4E580*CC\r\n"));
    uint8_t c = proto::crc8(s.c_str(), s.find('*'));
    char hex[3] = {proto::hex_digit(c >> 4), proto::hex_digit(c & 15), 0};
    CHECK(s.substr(s.find('*') + 1, 2) == hex);
    // an overlong line is cut, still checksummed, never overflows
    l.begin(255, "HB");
    for (int i = 0; i < 100; i++) l.raw(" 65535");
    std::string t = l.finish();
    CHECK(t.size() <= proto::LINE_MAX);
    CHECK(t.substr(t.size() - 2) == "\r\n");
    CHECK(t[t.size() - 5] == '*');
}

static std::string with_crc(const std::string& body) {
    uint8_t c = proto::crc8(body.c_str(), body.size());
    char buf[4];
    std::snprintf(buf, sizeof buf, "*%02X", c);
    return body + buf;
}

static proto::ParseError parse(const std::string& s, proto::Command& c) {
    return proto::parse_command(s.c_str(), (uint8_t)s.size(), c);
}

static void test_commands() {
    proto::Command c;
    CHECK(parse(with_crc("START"), c) == proto::PARSE_OK && c.verb == proto::CMD_START);
    CHECK(parse(with_crc("RATE 40"), c) == proto::PARSE_OK && c.verb == proto::CMD_RATE &&
          c.arg == 40 && c.has_arg);
    CHECK(parse(with_crc("RATE"), c) == proto::PARSE_BAD_ARG);
    CHECK(parse(with_crc("RATE 4x"), c) == proto::PARSE_BAD_ARG);
    CHECK(parse(with_crc("HELLO 3"), c) == proto::PARSE_BAD_ARG);
    CHECK(parse(with_crc("FLY"), c) == proto::PARSE_UNKNOWN);
    CHECK(parse(with_crc("STARTX"), c) == proto::PARSE_UNKNOWN);
    CHECK(parse("START", c) == proto::PARSE_NO_CRC);
    std::string bad = with_crc("START");
    bad[bad.size() - 1] = bad[bad.size() - 1] == '0' ? '1' : '0';
    CHECK(parse(bad, c) == proto::PARSE_BAD_CRC);
    // lowercase hex accepted
    std::string lower = with_crc("SYNC");
    for (auto& ch : lower) if (ch >= 'A' && ch <= 'F' && &ch > &lower[4]) ch = (char)(ch + 32);
    CHECK(parse(lower, c) == proto::PARSE_OK && c.verb == proto::CMD_SYNC);
}

static void test_line_reader() {
    proto::LineReader r;
    std::vector<std::string> got;
    std::string in = "AB\r\n\nCD\n" + std::string(60, 'x') + "\nEF\n";
    for (char ch : in)
        if (r.feed(ch)) { got.push_back(std::string(r.buf, r.len)); r.clear(); }
    CHECK(got.size() == 3);
    CHECK(got.size() == 3 && got[0] == "AB" && got[1] == "CD" && got[2] == "EF");
    CHECK(r.overflowed);
}

struct Recorder {
    std::vector<std::string> events;
    void operator()(presence::Event e, const presence::Slot& s) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s %02X", e == presence::EV_SEEN ? "SEEN" : "GONE", s.uid[0]);
        events.push_back(buf);
    }
};

static const presence::Timing kT = {2, 3, 300};

// One poll of reader 0 at time `ms` that found the UIDs {u, 1, 2, 3}.
static void poll(presence::Pool<3>& t, Recorder& rec, std::vector<uint8_t> uids, uint16_t ms,
                 uint8_t* dropped = nullptr) {
    t.begin_poll(0);
    for (uint8_t u : uids) {
        uint8_t uid[4] = {u, 1, 2, 3};
        if (!t.saw(0, uid, 4) && dropped) (*dropped)++;
    }
    t.end_poll(0, ms, kT, rec);
}

static void test_presence() {
    presence::Pool<3> t;
    Recorder rec;
    uint16_t ms = 65000;  // the 16-bit clock wraps during the test
    poll(t, rec, {0xA0}, ms += 20);
    CHECK(rec.events.empty());  // one poll is not enough (k = 2)
    CHECK(t.urgent(0) && !t.urgent(1));  // a new tag wants its second sighting soon
    poll(t, rec, {0xA0}, ms += 20);
    CHECK(rec.events.size() == 1 && rec.events[0] == "SEEN A0");
    CHECK(!t.urgent(0));
    poll(t, rec, {0xA0}, ms += 20);
    CHECK(rec.events.size() == 1);  // no repeat
    // a blip: seen once then missed → never reported
    poll(t, rec, {0xA0, 0xB0}, ms += 20);
    poll(t, rec, {0xA0}, ms += 20);
    CHECK(rec.events.size() == 1);
    // three misses in 60 ms are not a departure (a flicker): it must be missed 300 ms
    poll(t, rec, {}, ms += 20);
    CHECK(t.urgent(0));  // a present tag just missed: poll again soon
    poll(t, rec, {}, ms += 20);
    poll(t, rec, {}, ms += 20);
    CHECK(rec.events.size() == 1);
    poll(t, rec, {0xA0}, ms += 20);  // back: the counters start again
    uint16_t last = ms;
    poll(t, rec, {}, ms = (uint16_t)(last + 100));
    poll(t, rec, {}, ms = (uint16_t)(last + 200));
    poll(t, rec, {}, ms = (uint16_t)(last + 299));
    CHECK(rec.events.size() == 1);
    poll(t, rec, {}, ms = (uint16_t)(last + 300));
    CHECK(rec.events.size() == 2 && rec.events[1] == "GONE A0");
    // long polls: missed for 300 ms but by fewer than m = 3 polls is not gone either
    poll(t, rec, {0xC0}, ms += 20);
    poll(t, rec, {0xC0}, ms += 20);
    poll(t, rec, {}, ms += 400);
    poll(t, rec, {}, ms += 400);
    CHECK(rec.events.size() == 3);
    poll(t, rec, {}, ms += 400);
    CHECK(rec.events.size() == 4 && rec.events[3] == "GONE C0");
    CHECK(t.present_count(0) == 0);
    // the pool is full: the fourth UID is counted for the caller to report, the others work
    uint8_t dropped = 0;
    poll(t, rec, {1, 2, 3, 4}, ms += 20, &dropped);
    CHECK(dropped == 1);
    poll(t, rec, {1, 2, 3}, ms += 20);
    CHECK(t.present_count(0) == 3);
    // the same UID on two readers is two slots; a reader's poll leaves the other's alone
    presence::Pool<4> p;
    Recorder r3;
    uint8_t u[4] = {9, 9, 9, 9};
    for (uint16_t i = 0; i < 2; i++)
        for (uint8_t r = 0; r < 2; r++) {
            p.begin_poll(r);
            p.saw(r, u, 4);
            p.end_poll(r, (uint16_t)(i * 20), kT, r3);
        }
    CHECK(p.present_count(0) == 1 && p.present_count(1) == 1);
    for (uint16_t i = 0; i < 5; i++) {
        p.begin_poll(1);
        p.end_poll(1, (uint16_t)(100 + i * 100), kT, r3);
    }
    CHECK(p.present_count(0) == 1 && p.present_count(1) == 0);
    // 7-byte UIDs and 4-byte UIDs with the same prefix are different tags
    presence::Pool<3> q;
    Recorder r2;
    uint8_t seven[7] = {0x04, 1, 2, 3, 4, 5, 6};
    for (int i = 0; i < 2; i++) {
        q.begin_poll(0);
        q.saw(0, seven, 7);
        q.saw(0, seven, 4);
        q.end_poll(0, (uint16_t)(i * 20), kT, r2);
    }
    CHECK(q.present_count(0) == 2);
    CHECK(!q.saw(0, seven, 11) && !q.saw(0, seven, 0));
}

static void test_crc_a() {
    // ISO 14443-3 annex: HLTA "50 00" has CRC_A "57 CD"
    uint8_t h[4];
    iso14443::halt_frame(h);
    CHECK(h[0] == 0x50 && h[1] == 0x00 && h[2] == 0x57 && h[3] == 0xCD);
    CHECK(iso14443::check_crc(h, 4));
    h[1] = 1;
    CHECK(!iso14443::check_crc(h, 4));
    // SELECT of CL1 with cascade tag, ISO 14443-3 style: CRC round trip
    iso14443::Level l;
    l.start(iso14443::SEL_CL1);
    uint8_t ans[5] = {0x88, 0x04, 0x12, 0x34, 0x88 ^ 0x04 ^ 0x12 ^ 0x34};
    CHECK(l.merge(ans, 5, 0) == iso14443::Level::DONE);
    uint8_t f[9];
    l.select_frame(f);
    CHECK(f[0] == 0x93 && f[1] == 0x70 && f[2] == 0x88 && iso14443::check_crc(f, 9));
}

// A tiny model of tags answering ANTICOLLISION, to drive Level through collisions.
static void answer(const std::vector<std::vector<uint8_t>>& tags, const iso14443::Level& l,
                   uint8_t* rx, uint8_t& rx_len, uint8_t& coll) {
    uint8_t first = l.known / 8, align = l.known % 8;
    std::vector<int> bitv(40, -1);  // -1 nobody, 0/1, 2 collision
    for (auto& t : tags) {
        bool match = true;
        for (uint8_t b = 0; b < l.known; b++)
            if (((t[b / 8] >> (b % 8)) & 1) != ((l.bits[b / 8] >> (b % 8)) & 1)) match = false;
        if (!match) continue;
        for (uint8_t b = l.known; b < 40; b++) {
            int v = (t[b / 8] >> (b % 8)) & 1;
            bitv[b] = bitv[b] == -1 ? v : (bitv[b] == v ? v : 2);
        }
    }
    rx_len = (uint8_t)(5 - first);
    std::memset(rx, 0, 5);
    coll = 0;
    for (uint8_t b = l.known; b < 40; b++) {
        uint8_t pos = (uint8_t)(b - first * 8);  // bit index in rx
        int v = bitv[b];
        if (v == 2 && !coll) coll = (uint8_t)(pos + 1);
        if (v == 1) rx[pos / 8] |= (uint8_t)(1 << (pos % 8));
    }
    (void)align;
}

static std::vector<uint8_t> cl(std::vector<uint8_t> u) {
    u.push_back((uint8_t)(u[0] ^ u[1] ^ u[2] ^ u[3]));
    return u;
}

static void test_anticollision() {
    // three tags whose UIDs differ at bit 0, at bit 13 and at bit 30
    std::vector<std::vector<uint8_t>> tags = {
        cl({0x10, 0x20, 0x30, 0x40}), cl({0x11, 0x20, 0x30, 0x40}), cl({0x11, 0x00, 0x30, 0x40}),
        cl({0x11, 0x00, 0x30, 0x00})};
    std::vector<std::vector<uint8_t>> remaining = tags;
    std::vector<std::vector<uint8_t>> found;
    while (!remaining.empty()) {
        iso14443::Level l;
        l.start(iso14443::SEL_CL1);
        int steps = 0;
        for (;;) {
            uint8_t frame[7], last, align, rx[5], n, coll;
            uint8_t len = l.anticoll_frame(frame, last, align);
            CHECK(len == 2 + (l.known + 7) / 8);
            CHECK(frame[1] == (uint8_t)(((2 + l.known / 8) << 4) | (l.known % 8)));
            answer(remaining, l, rx, n, coll);
            iso14443::Level::Result r = l.merge(rx, n, coll);
            CHECK(r != iso14443::Level::BAD);
            if (r == iso14443::Level::DONE || r == iso14443::Level::BAD || ++steps > 40) break;
        }
        std::vector<uint8_t> got(l.bits, l.bits + 5);
        found.push_back(got);
        bool removed = false;
        for (size_t i = 0; i < remaining.size(); i++)
            if (remaining[i] == got) { remaining.erase(remaining.begin() + (long)i); removed = true; break; }
        CHECK(removed);
        if (!removed) break;
    }
    CHECK(found.size() == tags.size());
    // a bad BCC is refused
    iso14443::Level l;
    l.start(iso14443::SEL_CL1);
    uint8_t bad[5] = {1, 2, 3, 4, 5};
    CHECK(l.merge(bad, 5, 0) == iso14443::Level::BAD);
    // a collision position before the known bits is refused
    l.start(iso14443::SEL_CL1);
    l.known = 12;
    CHECK(l.merge(bad, 4, 3) == iso14443::Level::BAD);
}

int main() {
    test_crc8();
    test_line();
    test_commands();
    test_line_reader();
    test_presence();
    test_crc_a();
    test_anticollision();
    std::printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
