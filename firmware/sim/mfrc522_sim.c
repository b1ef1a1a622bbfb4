#include "mfrc522_sim.h"

#include <string.h>

enum {
    CommandReg = 0x01, ComIrqReg = 0x04, DivIrqReg = 0x05, ErrorReg = 0x06, Status2Reg = 0x08,
    FIFODataReg = 0x09, FIFOLevelReg = 0x0A, ControlReg = 0x0C, BitFramingReg = 0x0D,
    CollReg = 0x0E, TxControlReg = 0x14, VersionReg = 0x37,
};

static uint16_t crc_a(const uint8_t *d, int n) {
    uint16_t c = 0x6363;
    for (int i = 0; i < n; i++) {
        uint8_t b = d[i] ^ (uint8_t)(c & 0xFF);
        b ^= (uint8_t)(b << 4);
        c = (uint16_t)((c >> 8) ^ ((uint16_t)b << 8) ^ ((uint16_t)b << 3) ^ (b >> 4));
    }
    return c;
}

static void tags_power_off(sim_chip_t *c) {
    for (int i = 0; i < c->ntags; i++) c->tags[i].state = TAG_IDLE;
}

void chip_reset(sim_chip_t *c) {
    memset(c->regs, 0, sizeof c->regs);
    c->regs[CommandReg] = 0x20;
    c->regs[ComIrqReg] = 0x14;
    c->regs[FIFOLevelReg] = 0;
    c->regs[TxControlReg] = 0x80;
    c->regs[VersionReg] = 0x92;
    c->fifo_n = 0;
    tags_power_off(c);
}

void chip_cs(sim_chip_t *c, int low) {
    c->cs_low = low;
    if (low) c->first = 1;
}

int chip_antenna_on(const sim_chip_t *c) {
    return !c->dead && !c->rst_low && (c->regs[TxControlReg] & 0x03) != 0;
}

int chip_add_tag(sim_chip_t *c, const uint8_t *uid, int len) {
    if (c->ntags >= SIM_TAGS_MAX) return -1;
    sim_tag_t *t = &c->tags[c->ntags++];
    memset(t, 0, sizeof *t);
    memcpy(t->uid, uid, (size_t)len);
    t->len = len;
    t->state = TAG_IDLE;
    return 0;
}

int chip_remove_tag(sim_chip_t *c, const uint8_t *uid, int len) {
    for (int i = 0; i < c->ntags; i++)
        if (c->tags[i].len == len && memcmp(c->tags[i].uid, uid, (size_t)len) == 0) {
            c->tags[i] = c->tags[--c->ntags];
            return 0;
        }
    return -1;
}

/* The 5 bytes (UID CLn + BCC) a tag answers at a cascade level. */
static int tag_level_bytes(const sim_tag_t *t, int level, uint8_t out[5]) {
    int levels = t->len == 4 ? 1 : t->len == 7 ? 2 : 3;
    if (level >= levels) return -1;
    const uint8_t *u = t->uid + 3 * level;
    if (level < levels - 1) {
        out[0] = 0x88;
        memcpy(out + 1, u, 3);
    } else {
        memcpy(out, u, 4);
    }
    out[4] = out[0] ^ out[1] ^ out[2] ^ out[3];
    return levels;
}

static int bit_of(const uint8_t *b, int i) { return (b[i / 8] >> (i % 8)) & 1; }

static void fifo_push(sim_chip_t *c, uint8_t v) {
    if (c->fifo_n < 64) c->fifo[c->fifo_n++] = v;
    else c->regs[ErrorReg] |= 0x10;
}

/* Bits merged from every answering tag: 0, 1, or 2 = collision. Puts the answer in the
 * FIFO starting at bit position rx_align of its first byte; returns 0 if nobody
 * answered, else 1 (and sets ErrorReg/CollReg on a collision). */
static int answer_bits(sim_chip_t *c, const int *bits, int nbits, int rx_align) {
    if (nbits <= 0) return 0;
    int total = rx_align + nbits, nbytes = (total + 7) / 8, coll = 0;
    uint8_t out[8] = {0};
    for (int i = 0; i < nbits; i++) {
        int pos = rx_align + i;
        if (bits[i] == 2) {
            if (!coll) coll = pos + 1;
        } else if (bits[i] == 1 && !coll) {
            out[pos / 8] |= (uint8_t)(1 << (pos % 8));
        }
    }
    for (int i = 0; i < nbytes; i++) fifo_push(c, out[i]);
    c->regs[ControlReg] = (uint8_t)((c->regs[ControlReg] & ~0x07) | (total % 8));
    if (coll) {
        c->regs[ErrorReg] |= 0x08;
        c->regs[CollReg] = (uint8_t)((c->regs[CollReg] & 0x80) | (coll >= 32 ? 0 : coll));
        c->regs[ComIrqReg] |= 0x02;
    } else {
        c->regs[CollReg] = (uint8_t)((c->regs[CollReg] & 0x80) | 0x20);
    }
    return 1;
}

static int answer_bytes(sim_chip_t *c, const uint8_t *b, int n) {
    for (int i = 0; i < n; i++) fifo_push(c, b[i]);
    c->regs[ControlReg] &= (uint8_t)~0x07;
    c->regs[CollReg] = (uint8_t)((c->regs[CollReg] & 0x80) | 0x20);
    return 1;
}

static int tags_respond(sim_chip_t *c, const uint8_t *f, int n, int tx_last, int rx_align) {
    int nbits = tx_last ? (n - 1) * 8 + tx_last : n * 8;
    if (nbits == 7 && (f[0] == 0x26 || f[0] == 0x52)) {  /* REQA / WUPA */
        int bits[16], any = 0;
        for (int i = 0; i < c->ntags; i++) {
            sim_tag_t *t = &c->tags[i];
            if (t->state == TAG_READY || t->state == TAG_ACTIVE) {
                /* not a valid command in these states: back to IDLE, no answer */
                t->state = TAG_IDLE;
                continue;
            }
            if (!(t->state == TAG_IDLE || (f[0] == 0x52 && t->state == TAG_HALT))) continue;
            t->state = TAG_READY;
            t->level = 0;
            uint8_t atqa[2] = {(uint8_t)(t->len == 4 ? 0x04 : t->len == 7 ? 0x44 : 0x84), 0x00};
            for (int b = 0; b < 16; b++) {
                int v = bit_of(atqa, b);
                bits[b] = !any ? v : (bits[b] == v ? v : 2);
            }
            any = 1;
        }
        return any ? answer_bits(c, bits, 16, 0) : 0;
    }
    if (nbits == 32 && f[0] == 0x50 && f[1] == 0x00) {  /* HLTA */
        if (crc_a(f, 2) != (uint16_t)(f[2] | f[3] << 8)) return 0;
        for (int i = 0; i < c->ntags; i++)
            if (c->tags[i].state == TAG_ACTIVE) c->tags[i].state = TAG_HALT;
        return 0;
    }
    if (n >= 2 && (f[0] == 0x93 || f[0] == 0x95 || f[0] == 0x97)) {
        int level = (f[0] - 0x93) / 2;
        if (f[1] == 0x70) {  /* SELECT */
            if (nbits != 72 || crc_a(f, 7) != (uint16_t)(f[7] | f[8] << 8)) return 0;
            /* every tag whose UID CLn matches is selected at this level (tags sharing
             * their first UID bytes go on to the next cascade level together) */
            int answered = 0, bits[8];
            for (int i = 0; i < c->ntags; i++) {
                sim_tag_t *t = &c->tags[i];
                if (t->state != TAG_READY || t->level != level) continue;
                uint8_t cl[5];
                int levels = tag_level_bytes(t, level, cl);
                if (levels > 0 && memcmp(cl, f + 2, 5) == 0) {
                    uint8_t sak1;
                    if (level + 1 < levels) {
                        t->level = level + 1;
                        sak1 = 0x04;
                    } else {
                        t->state = TAG_ACTIVE;
                        sak1 = t->len == 4 ? 0x08 : 0x00;
                    }
                    for (int b = 0; b < 8; b++) {
                        int v = (sak1 >> b) & 1;
                        bits[b] = !answered ? v : (bits[b] == v ? v : 2);
                    }
                    answered = 1;
                } else {
                    t->state = TAG_IDLE;  /* not selected: back to idle */
                }
            }
            if (!answered) return 0;
            for (int b = 0; b < 8; b++)
                if (bits[b] == 2) return answer_bits(c, bits, 8, 0);  /* garbled SAK */
            uint8_t sak[3];
            sak[0] = 0;
            for (int b = 0; b < 8; b++) sak[0] |= (uint8_t)(bits[b] << b);
            uint16_t crc = crc_a(sak, 1);
            sak[1] = (uint8_t)(crc & 0xFF);
            sak[2] = (uint8_t)(crc >> 8);
            return answer_bytes(c, sak, 3);
        }
        /* ANTICOLLISION: NVB says how many bits of UID CLn follow */
        int known = ((f[1] >> 4) - 2) * 8 + (f[1] & 0x0F);
        if (known < 0 || known >= 40 || nbits != 16 + known) return 0;
        int bits[40], any = 0;
        for (int i = 0; i < c->ntags; i++) {
            sim_tag_t *t = &c->tags[i];
            if (t->state != TAG_READY || t->level != level) continue;
            uint8_t cl[5];
            if (tag_level_bytes(t, level, cl) < 0) continue;
            int match = 1;
            for (int b = 0; b < known; b++)
                if (bit_of(cl, b) != bit_of(f + 2, b)) match = 0;
            if (!match) continue;
            for (int b = known; b < 40; b++) {
                int v = bit_of(cl, b);
                bits[b - known] = !any ? v : (bits[b - known] == v ? v : 2);
            }
            any = 1;
        }
        return any ? answer_bits(c, bits, 40 - known, rx_align) : 0;
    }
    return 0;  /* anything else: no tag answers */
}

static void transceive(sim_chip_t *c) {
    uint8_t frame[64];
    int n = c->fifo_n;
    memcpy(frame, c->fifo, (size_t)n);
    c->fifo_n = 0;
    uint8_t bf = c->regs[BitFramingReg];
    c->regs[ErrorReg] = 0;
    c->transceives++;
    int answered = chip_antenna_on(c) &&
                   tags_respond(c, frame, n, bf & 0x07, (bf >> 4) & 0x07);
    if (answered && c->noise_pct > 0) {
        c->rng ^= c->rng << 13;
        c->rng ^= c->rng >> 17;
        c->rng ^= c->rng << 5;
        if ((int)(c->rng % 100) < c->noise_pct) {  /* a disturbed field: bits flipped */
            c->garbled++;
            for (int i = 0; i < c->fifo_n; i++) c->fifo[i] ^= (uint8_t)(c->rng >> (8 + i));
            c->regs[ErrorReg] |= 0x02;  /* ParityErr */
            c->regs[ComIrqReg] |= 0x02; /* ErrIRq */
        }
    }
    if (answered) {
        c->answers++;
        c->regs[ComIrqReg] |= 0x20 | 0x04;  /* RxIRq, HiAlertIRq-ish */
    } else {
        c->regs[ComIrqReg] |= 0x01;  /* TimerIRq: the 25 ms timer ran out */
    }
}

static uint8_t reg_read(sim_chip_t *c, uint8_t a) {
    switch (a) {
    case FIFODataReg: {
        if (!c->fifo_n) return 0;
        uint8_t v = c->fifo[0];
        memmove(c->fifo, c->fifo + 1, (size_t)--c->fifo_n);
        return v;
    }
    case FIFOLevelReg: return (uint8_t)c->fifo_n;
    default: return c->regs[a & 0x3F];
    }
}

static void reg_write(sim_chip_t *c, uint8_t a, uint8_t v) {
    switch (a) {
    case CommandReg:
        if ((v & 0x0F) == 0x0F) {  /* SoftReset */
            chip_reset(c);
            c->regs[CommandReg] = 0x00;  /* reset done at once */
        } else {
            c->regs[CommandReg] = v & 0x3F;
        }
        break;
    case ComIrqReg:
        if (v & 0x80) c->regs[ComIrqReg] |= v & 0x7F;
        else c->regs[ComIrqReg] &= (uint8_t)~(v & 0x7F);
        break;
    case FIFOLevelReg:
        if (v & 0x80) {
            c->fifo_n = 0;
            c->regs[ErrorReg] &= (uint8_t)~0x10;
        }
        break;
    case FIFODataReg: fifo_push(c, v); break;
    case BitFramingReg:
        c->regs[BitFramingReg] = v & 0x7F;
        if ((v & 0x80) && (c->regs[CommandReg] & 0x0F) == 0x0C) transceive(c);
        break;
    case TxControlReg:
        c->regs[TxControlReg] = v;
        if (!(v & 0x03)) tags_power_off(c);
        break;
    case VersionReg: break;  /* read only */
    default: c->regs[a & 0x3F] = v;
    }
}

uint8_t chip_byte(sim_chip_t *c, uint8_t mosi) {
    if (c->dead || c->rst_low) return c->dead ? c->dead_value : 0x00;
    if (c->first) {
        c->first = 0;
        c->read_mode = (mosi & 0x80) != 0;
        c->addr = (mosi >> 1) & 0x3F;
        return 0;
    }
    if (c->read_mode) {
        uint8_t out = reg_read(c, c->addr);
        c->addr = (mosi >> 1) & 0x3F;
        return out;
    }
    reg_write(c, c->addr, mosi);
    return 0;
}
