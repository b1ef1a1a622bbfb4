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

static void poll(presence::Table<3>& t, Recorder& rec, std::vector<uint8_t> uids) {
    t.begin_poll();
    for (uint8_t u : uids) {
        uint8_t uid[4] = {u, 1, 2, 3};
        t.saw(uid, 4);
    }
    t.end_poll(2, 3, rec);
}

static void test_presence() {
    presence::Table<3> t;
    Recorder rec;
    poll(t, rec, {0xA0});
    CHECK(rec.events.empty());  // one poll is not enough (k = 2)
    poll(t, rec, {0xA0});
    CHECK(rec.events.size() == 1 && rec.events[0] == "SEEN A0");
    poll(t, rec, {0xA0});
    CHECK(rec.events.size() == 1);  // no repeat
    // a blip: seen once then missed → never reported
    poll(t, rec, {0xA0, 0xB0});
    poll(t, rec, {0xA0});
    CHECK(rec.events.size() == 1);
    // two misses do not make it gone (m = 3), the third does
    poll(t, rec, {});
    poll(t, rec, {});
    CHECK(rec.events.size() == 1);
    poll(t, rec, {0xA0});  // back before the third miss: counter restarts
    poll(t, rec, {});
    poll(t, rec, {});
    CHECK(rec.events.size() == 1);
    poll(t, rec, {});
    CHECK(rec.events.size() == 2 && rec.events[1] == "GONE A0");
    CHECK(t.present_count() == 0);
    // full table: the fourth UID is counted as an overflow, the others work
    poll(t, rec, {1, 2, 3, 4});
    CHECK(t.overflows == 1);
    poll(t, rec, {1, 2, 3});
    CHECK(t.present_count() == 3);
    // 7-byte UIDs and 4-byte UIDs with the same prefix are different tags
    presence::Table<3> u;
    Recorder r2;
    uint8_t seven[7] = {0x04, 1, 2, 3, 4, 5, 6};
    for (int i = 0; i < 2; i++) {
        u.begin_poll();
        u.saw(seven, 7);
        u.saw(seven, 4);
        u.end_poll(2, 3, r2);
    }
    CHECK(u.present_count() == 2);
    CHECK(!u.saw(seven, 11) && !u.saw(seven, 0));
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
