// Line protocol of the village reader hub (see PROTOCOL.md): pure C++, no Arduino,
// so it compiles with the host g++ for unit tests as well as with avr-g++.
#pragma once
#include <stdint.h>
#include <string.h>

namespace proto {

const uint8_t VERSION = 1;
const uint8_t LINE_MAX = 128;  // longest line, checksum and CR LF included

// CRC-8, polynomial 0x07, initial value 0x00, no reflection (CRC-8/SMBUS).
inline uint8_t crc8(const char* s, uint16_t n) {
    uint8_t c = 0;
    for (uint16_t i = 0; i < n; i++) {
        c ^= (uint8_t)s[i];
        for (uint8_t b = 0; b < 8; b++) c = (c & 0x80) ? (uint8_t)((c << 1) ^ 0x07) : (uint8_t)(c << 1);
    }
    return c;
}

inline char hex_digit(uint8_t v) { return (char)(v < 10 ? '0' + v : 'A' + v - 10); }

inline int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// Builds one outgoing line: "<seq> <TYPE> <args...>*CC\r\n". Overlong content is cut
// (never overflows) and the line is still checksummed.
class Line {
  public:
    char buf[LINE_MAX];
    uint8_t len;

    void begin(uint8_t seq, const char* type) {
        len = 0;
        num(seq);
        raw(" ");
        raw(type);
    }
    void raw(const char* s) {
        while (*s && len < LINE_MAX - 6) buf[len++] = *s++;
    }
    void word(const char* s) { raw(" "); raw(s); }
    void num(uint32_t v) {
        char tmp[11];
        uint8_t n = 0;
        do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
        while (n && len < LINE_MAX - 6) buf[len++] = tmp[--n];
    }
    void hex(const uint8_t* b, uint8_t n) {
        for (uint8_t i = 0; i < n && len < LINE_MAX - 7; i++) {
            buf[len++] = hex_digit(b[i] >> 4);
            buf[len++] = hex_digit(b[i] & 0x0F);
        }
    }
    // Appends "*CC\r\n" and a NUL; returns the line.
    const char* finish() {
        uint8_t c = crc8(buf, len);
        buf[len++] = '*';
        buf[len++] = hex_digit(c >> 4);
        buf[len++] = hex_digit(c & 0x0F);
        buf[len++] = '\r';
        buf[len++] = '\n';
        buf[len] = 0;
        return buf;
    }
};

enum Verb : uint8_t { CMD_NONE, CMD_HELLO, CMD_START, CMD_SYNC, CMD_RATE, CMD_IDENT, CMD_SETID };
enum ParseError : uint8_t { PARSE_OK, PARSE_NO_CRC, PARSE_BAD_CRC, PARSE_UNKNOWN, PARSE_BAD_ARG };

struct Command {
    Verb verb;
    uint32_t arg;
    bool has_arg;
};

// Parses a host command "VERB [number]*CC" (CR and LF already stripped).
inline ParseError parse_command(const char* s, uint8_t n, Command& out) {
    out.verb = CMD_NONE;
    out.arg = 0;
    out.has_arg = false;
    if (n < 4 || s[n - 3] != '*') return PARSE_NO_CRC;
    int h = hex_value(s[n - 2]), l = hex_value(s[n - 1]);
    if (h < 0 || l < 0) return PARSE_NO_CRC;
    uint8_t body = n - 3;
    if (crc8(s, body) != (uint8_t)(h * 16 + l)) return PARSE_BAD_CRC;
    uint8_t i = 0;
    while (i < body && s[i] != ' ') i++;
    struct { const char* name; Verb verb; bool needs_arg; } verbs[] = {
        {"HELLO", CMD_HELLO, false}, {"START", CMD_START, false}, {"SYNC", CMD_SYNC, false},
        {"RATE", CMD_RATE, true},    {"IDENT", CMD_IDENT, false}, {"SETID", CMD_SETID, true},
    };
    for (uint8_t v = 0; v < sizeof(verbs) / sizeof(verbs[0]); v++) {
        if (strlen(verbs[v].name) == i && memcmp(verbs[v].name, s, i) == 0) {
            out.verb = verbs[v].verb;
            if (i < body) {
                uint8_t j = i + 1;
                if (j >= body) return PARSE_BAD_ARG;
                uint32_t a = 0;
                for (; j < body; j++) {
                    if (s[j] < '0' || s[j] > '9' || a > 100000000UL) return PARSE_BAD_ARG;
                    a = a * 10 + (uint32_t)(s[j] - '0');
                }
                out.arg = a;
                out.has_arg = true;
            }
            if (verbs[v].needs_arg != out.has_arg) return PARSE_BAD_ARG;
            return PARSE_OK;
        }
    }
    return PARSE_UNKNOWN;
}

// Collects bytes from the serial port into lines; a line longer than the buffer is
// dropped whole (reported by `overflowed`).
class LineReader {
  public:
    char buf[40];
    uint8_t len = 0;
    bool overflowed = false;
    bool skipping = false;

    // Feeds one byte; returns true when buf holds a complete line of `len` bytes.
    bool feed(char c) {
        if (c == '\r') return false;
        if (c == '\n') {
            bool done = !skipping && len > 0;
            if (skipping) overflowed = true;
            skipping = false;
            if (!done) len = 0;
            return done;
        }
        if (skipping) return false;
        if (len >= sizeof(buf) - 1) { skipping = true; len = 0; return false; }
        buf[len++] = c;
        buf[len] = 0;
        return false;
    }
    void clear() { len = 0; }
};

}  // namespace proto
