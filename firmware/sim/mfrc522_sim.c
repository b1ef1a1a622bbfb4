#include "mfrc522_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* HUB_SIM_DEBUG=1: every Transceive and antenna switch on stderr, with its time */
static int debug_on(void) {
    static int on = -1;
    if (on < 0) on = getenv("HUB_SIM_DEBUG") != NULL;
    return on;
}

enum {
    CommandReg = 0x01, ComIrqReg = 0x04, DivIrqReg = 0x05, ErrorReg = 0x06, Status2Reg = 0x08,
    FIFODataReg = 0x09, FIFOLevelReg = 0x0A, ControlReg = 0x0C, BitFramingReg = 0x0D,
    CollReg = 0x0E, TxControlReg = 0x14, TModeReg = 0x2A, TPrescalerReg = 0x2B,
    TReloadRegH = 0x2C, TReloadRegL = 0x2D, VersionReg = 0x37,
};

/* ISO/IEC 14443-2/-3 type A at 106 kbit/s: one bit (etu) is 128 carrier cycles of
 * 13.56 MHz; the PICC's frame delay time after a REQA/ANTICOLLISION/SELECT is 1236/fc
 * (last bit 1; 1172/fc after a 0: the longer is taken). */
#define FC_HZ 13560000ULL
#define ETU_NS (128ULL * 1000000000ULL / FC_HZ)
#define FDT_NS (1236ULL * 1000000000ULL / FC_HZ)

/* Time on air of a frame of nbits data bits: start bit, one parity bit per whole byte,
 * end of frame. */
static uint64_t frame_ns(int nbits) {
    return ETU_NS * (uint64_t)(1 + nbits + nbits / 8 + 1);
}

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
    c->busy = 0;
    c->timer_ns = 0;
    tags_power_off(c);
}

/* Is the tag in the field now, and since when (the start of this stay)? */
static int tag_coupled(const sim_tag_t *t, uint64_t now, uint64_t *since) {
    if (!t->on_ns) {
        *since = t->placed_ns;
        return 1;
    }
    uint64_t phase = (now - t->placed_ns) % (t->on_ns + t->off_ns);
    if (phase >= t->on_ns) return 0;
    *since = now - phase;
    return 1;
}

/* Brings the tag's state up to now (IDLE after any break in its power); 1 if it has been
 * powered long enough to answer. */
static int tag_ready(sim_chip_t *c, sim_tag_t *t, uint64_t now) {
    uint64_t since;
    if (!chip_antenna_on(c) || !tag_coupled(t, now, &since)) {
        t->state = TAG_IDLE;
        t->power_ns = 0;
        return 0;
    }
    if (c->field_ns > since) since = c->field_ns;
    if (since != t->power_ns) {
        t->state = TAG_IDLE;
        t->power_ns = since;
    }
    return now - since >= SIM_TAG_BOOT_NS;
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
    t->placed_ns = sim_now_ns();
    return 0;
}

int chip_flicker_tag(sim_chip_t *c, const uint8_t *uid, int len, int on_ms, int off_ms) {
    if (on_ms <= 0 || off_ms < 0) return -1;
    for (int i = 0; i < c->ntags; i++)
        if (c->tags[i].len == len && memcmp(c->tags[i].uid, uid, (size_t)len) == 0) {
            c->tags[i].placed_ns = sim_now_ns();
            c->tags[i].on_ns = (uint64_t)on_ms * 1000000ULL;
            c->tags[i].off_ns = (uint64_t)off_ms * 1000000ULL;
            return 0;
        }
    return -1;
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
    uint64_t now = sim_now_ns();
    int ready[SIM_TAGS_MAX];
    for (int i = 0; i < c->ntags; i++) ready[i] = tag_ready(c, &c->tags[i], now);
    if (nbits == 7 && (f[0] == 0x26 || f[0] == 0x52)) {  /* REQA / WUPA */
        int bits[16], any = 0;
        for (int i = 0; i < c->ntags; i++) {
            sim_tag_t *t = &c->tags[i];
            if (!ready[i]) continue;
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
            if (ready[i] && c->tags[i].state == TAG_ACTIVE) c->tags[i].state = TAG_HALT;
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
                if (!ready[i] || t->state != TAG_READY || t->level != level) continue;
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
            if (!ready[i] || t->state != TAG_READY || t->level != level) continue;
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

/* The timer's period as programmed (MFRC522 datasheet 8.5: (2*TPrescaler+1) *
 * (TReload+1) / 13.56 MHz); 0 when TAuto is clear (the timer does not start by itself). */
static uint64_t timer_period_ns(const sim_chip_t *c) {
    if (!(c->regs[TModeReg] & 0x80)) return 0;
    uint64_t presc = ((uint64_t)(c->regs[TModeReg] & 0x0F) << 8) | c->regs[TPrescalerReg];
    uint64_t reload = ((uint64_t)c->regs[TReloadRegH] << 8) | c->regs[TReloadRegL];
    return (2 * presc + 1) * (reload + 1) * 1000000000ULL / FC_HZ;
}

/* Applies what has happened by now: the answer of a Transceive, the timer running out. */
static void chip_update(sim_chip_t *c) {
    uint64_t now = sim_now_ns();
    if (c->timer_ns && now >= c->timer_ns) {
        c->regs[ComIrqReg] |= 0x01;  /* TimerIRq */
        c->timer_ns = 0;
    }
    if (c->busy && c->answered && now >= c->done_ns) {
        c->busy = 0;
        for (int i = 0; i < c->rx_n; i++) fifo_push(c, c->rx[i]);
        c->regs[ErrorReg] |= c->rx_err;
        c->regs[CollReg] = c->rx_coll;
        c->regs[ControlReg] = c->rx_ctrl;
        c->regs[ComIrqReg] |= c->rx_irq;
    }
}

/* Starts a Transceive: the tags' answer is worked out now and lands when it would have
 * been received (chip_update). */
static void transceive(sim_chip_t *c) {
    uint8_t frame[64];
    int n = c->fifo_n;
    memcpy(frame, c->fifo, (size_t)n);
    c->fifo_n = 0;
    uint8_t bf = c->regs[BitFramingReg];
    int tx_last = bf & 0x07, nbits = tx_last ? (n - 1) * 8 + tx_last : n * 8;
    uint64_t tx_end = sim_now_ns() + frame_ns(nbits);
    if (debug_on())
        fprintf(stderr, "D %llu %p tx %02X bits %d\n", (unsigned long long)(sim_now_ns() / 1000),
                (void *)c, frame[0], nbits);
    uint8_t irq0 = c->regs[ComIrqReg], coll0 = c->regs[CollReg], ctrl0 = c->regs[ControlReg];
    c->regs[ErrorReg] = 0;
    c->transceives++;
    int answered = chip_antenna_on(c) && tags_respond(c, frame, n, tx_last, (bf >> 4) & 0x07);
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
    if (answered) c->answers++;
    /* the answer, held back until it has been received */
    c->busy = 1;
    c->answered = answered;
    c->rx_n = c->fifo_n;
    memcpy(c->rx, c->fifo, (size_t)c->fifo_n);
    c->fifo_n = 0;
    c->rx_err = c->regs[ErrorReg];
    c->rx_coll = c->regs[CollReg];
    c->rx_ctrl = c->regs[ControlReg];
    c->rx_irq = (uint8_t)((c->regs[ComIrqReg] & ~irq0) | 0x20 | 0x04);  /* RxIRq, HiAlertIRq */
    c->regs[ErrorReg] = 0;
    c->regs[CollReg] = coll0;
    c->regs[ControlReg] = ctrl0;
    c->regs[ComIrqReg] = irq0;
    int rx_bits = c->rx_n * 8 - ((c->rx_ctrl & 0x07) ? 8 - (c->rx_ctrl & 0x07) : 0);
    c->done_ns = tx_end + FDT_NS + frame_ns(rx_bits);
    uint64_t period = timer_period_ns(c);
    c->timer_ns = period ? tx_end + period : 0;
    /* the timer stops at the answer's 5th bit (start bit + 4) */
    if (answered && c->timer_ns && tx_end + FDT_NS + 5 * ETU_NS <= c->timer_ns) c->timer_ns = 0;
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
            if ((v & 0x0F) != 0x0C) c->busy = 0;  /* another command cancels a Transceive */
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
        if ((v & 0x03) && !(c->regs[TxControlReg] & 0x03)) c->field_ns = sim_now_ns();
        if (debug_on())
            fprintf(stderr, "D %llu %p field %d\n", (unsigned long long)(sim_now_ns() / 1000),
                    (void *)c, v & 0x03);
        c->regs[TxControlReg] = v;
        if (!(v & 0x03)) tags_power_off(c);
        break;
    case VersionReg: break;  /* read only */
    default: c->regs[a & 0x3F] = v;
    }
}

uint8_t chip_byte(sim_chip_t *c, uint8_t mosi) {
    if (c->dead || c->rst_low) return c->dead ? c->dead_value : 0x00;
    chip_update(c);
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
