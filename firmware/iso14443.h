// ISO/IEC 14443-3 type A bookkeeping for the reader: frames, CRC_A, and the bit-wise
// anticollision of one cascade level. Pure C++ (host-testable); the MFRC522 driver
// sends the frames built here and feeds the answers back.
#pragma once
#include <stdint.h>
#include <string.h>

namespace iso14443 {

const uint8_t REQA = 0x26, WUPA = 0x52, HLTA = 0x50;
const uint8_t SEL_CL1 = 0x93, SEL_CL2 = 0x95, SEL_CL3 = 0x97;
const uint8_t CASCADE_TAG = 0x88;

// CRC_A: initial 0x6363, polynomial x^16+x^12+x^5+1 reflected (0x8408); LSB first.
inline uint16_t crc_a(const uint8_t* d, uint8_t n) {
    uint16_t c = 0x6363;
    for (uint8_t i = 0; i < n; i++) {
        uint8_t b = d[i] ^ (uint8_t)(c & 0xFF);
        b ^= (uint8_t)(b << 4);
        c = (uint16_t)((c >> 8) ^ ((uint16_t)b << 8) ^ ((uint16_t)b << 3) ^ (b >> 4));
    }
    return c;
}

// Appends the CRC_A of d[0..n) at d[n], d[n+1].
inline void append_crc(uint8_t* d, uint8_t n) {
    uint16_t c = crc_a(d, n);
    d[n] = (uint8_t)(c & 0xFF);
    d[n + 1] = (uint8_t)(c >> 8);
}

inline bool check_crc(const uint8_t* d, uint8_t n) {
    if (n < 3) return false;
    uint16_t c = crc_a(d, n - 2);
    return d[n - 2] == (uint8_t)(c & 0xFF) && d[n - 1] == (uint8_t)(c >> 8);
}

// HLTA with its CRC: 4 bytes.
inline void halt_frame(uint8_t out[4]) {
    out[0] = HLTA;
    out[1] = 0x00;
    append_crc(out, 2);
}

// One cascade level: the 40 bits UID CLn (4 bytes) + BCC, of which `known` are settled.
struct Level {
    uint8_t sel;
    uint8_t bits[5];
    uint8_t known;  // 0..40

    void start(uint8_t sel_code) {
        sel = sel_code;
        memset(bits, 0, sizeof(bits));
        known = 0;
    }

    // ANTICOLLISION frame with the known bits: SEL, NVB, the known bytes (last one
    // partial). Returns the byte count; tx_last_bits/rx_align say how many bits of the
    // last byte are sent (0 = all 8) and where the first answer bit lands.
    uint8_t anticoll_frame(uint8_t out[7], uint8_t& tx_last_bits, uint8_t& rx_align) const {
        uint8_t full = known / 8, extra = known % 8;
        out[0] = sel;
        out[1] = (uint8_t)(((2 + full) << 4) | extra);
        uint8_t n = 2;
        for (uint8_t i = 0; i < full + (extra ? 1 : 0); i++) out[n++] = bits[i];
        tx_last_bits = extra;
        rx_align = extra;
        return n;
    }

    enum Result : uint8_t { DONE, MORE, BAD };

    // Merges an answer to anticoll_frame: rx as placed in the FIFO (its first byte
    // holds the answer's first bit at position rx_align). coll_pos: 0 = no collision,
    // else the 1-based position of the first collided bit counted from bit 0 of rx[0]
    // (the MFRC522's CollPos, 32 for its code 0). On a collision the bit is settled as 1
    // and MORE is returned; DONE when all 40 bits are known and the BCC matches.
    Result merge(const uint8_t* rx, uint8_t rx_len, uint8_t coll_pos) {
        uint8_t first = known / 8, align = known % 8;
        if (rx_len == 0 || first + rx_len > 5) return BAD;
        for (uint8_t i = 0; i < rx_len; i++) {
            if (i == 0 && align) {
                uint8_t keep = (uint8_t)((1u << align) - 1);
                bits[first] = (uint8_t)((bits[first] & keep) | (rx[0] & (uint8_t)~keep));
            } else {
                bits[first + i] = rx[i];
            }
        }
        if (coll_pos) {
            uint8_t at = (uint8_t)(first * 8 + coll_pos - 1);  // 0-based bit in the 40
            if (at < known || at >= 32) return BAD;
            bits[at / 8] |= (uint8_t)(1u << (at % 8));
            // bits after the collision are meaningless: clear them
            for (uint8_t b = at + 1; b < 40; b++) bits[b / 8] &= (uint8_t)~(1u << (b % 8));
            known = at + 1;
            return MORE;
        }
        if (first + rx_len != 5) return BAD;
        known = 40;
        return (bits[0] ^ bits[1] ^ bits[2] ^ bits[3]) == bits[4] ? DONE : BAD;
    }

    // SELECT frame (all 40 bits known): SEL 0x70 UID CLn BCC CRC_A — 9 bytes.
    void select_frame(uint8_t out[9]) const {
        out[0] = sel;
        out[1] = 0x70;
        memcpy(out + 2, bits, 5);
        append_crc(out, 7);
    }
};

// The SAK says the UID goes on at the next cascade level.
inline bool sak_uid_incomplete(uint8_t sak) { return (sak & 0x04) != 0; }

inline uint8_t next_sel(uint8_t sel) { return sel == SEL_CL1 ? SEL_CL2 : SEL_CL3; }

}  // namespace iso14443
