/* A register-level model of the MFRC522 and of ISO 14443-A tags in its field, as much
 * of it as the hub firmware's driver uses: SPI register access, FIFO, Transceive with
 * bit-oriented framing, collisions (ErrorReg/CollReg), SoftReset, hard reset on the RST
 * pin, antenna on/off (tags lose power and forget HALT).
 *
 * Timing, in the AVR's simulated time (sim_now_ns): a Transceive's answer lands in the
 * FIFO only once the frame has been sent, the tag's frame delay time has passed and the
 * answer has been received, all at 106 kbit/s (1 etu = 128/fc = 9.44 us; FDT 1236/fc =
 * 91 us; ISO/IEC 14443-3 sections 6.1.2, 6.2.1); the timer (TModeReg TAuto, TPrescaler,
 * TReload; MFRC522 datasheet 8.5) starts at the end of the transmission, stops at the
 * answer's 5th bit, and raises TimerIRq when it runs out (never, if TAuto is clear, as
 * after a reset). A tag answers only once it has been powered by the field for
 * SIM_TAG_BOOT_NS (a PICC must accept REQA within 5 ms of unmodulated field, ISO/IEC
 * 14443-3 5.2: the model takes the whole 5 ms, as a slow tag may); any break in its power
 * (antenna off, out of the field) sends it back to IDLE. */
#ifndef MFRC522_SIM_H
#define MFRC522_SIM_H
#include <stdint.h>

#define SIM_TAGS_MAX 64
#define SIM_TAG_BOOT_NS 5000000ULL

/* The AVR's simulated time in ns, provided by the harness. */
uint64_t sim_now_ns(void);

enum { TAG_IDLE, TAG_READY, TAG_ACTIVE, TAG_HALT };

typedef struct {
    uint8_t uid[10];
    int len;    /* 4, 7 or 10 */
    int state;
    int level;  /* cascade level a READY tag is at */
    uint64_t placed_ns;     /* when it came into the field (the phase of a flicker) */
    uint64_t on_ns, off_ns; /* flicker: in the field on_ns, out of it off_ns, repeated */
    uint64_t power_ns;      /* start of the power-up it is in (to see breaks) */
} sim_tag_t;

typedef struct {
    int cs_low, rst_low;
    int dead;            /* the chip does not answer: MISO reads dead_value */
    uint8_t dead_value;
    uint8_t regs[64];
    uint8_t fifo[64];
    int fifo_n;
    int first, read_mode;
    uint8_t addr;
    sim_tag_t tags[SIM_TAGS_MAX];
    int ntags;
    unsigned long transceives, answers, garbled;
    int noise_pct;       /* this share of answers arrives garbled (parity error) */
    uint32_t rng;        /* xorshift state for the noise */
    uint64_t field_ns;   /* when the antenna came on */
    /* a Transceive in progress: its answer (if any) is applied at done_ns */
    int busy, answered;
    uint64_t done_ns, timer_ns;  /* timer_ns: TimerIRq due (0: the timer does not run) */
    uint8_t rx[64];
    int rx_n;
    uint8_t rx_err, rx_coll, rx_ctrl, rx_irq;
} sim_chip_t;

void chip_reset(sim_chip_t *c);
void chip_cs(sim_chip_t *c, int low);
uint8_t chip_byte(sim_chip_t *c, uint8_t mosi);
int chip_antenna_on(const sim_chip_t *c);
int chip_add_tag(sim_chip_t *c, const uint8_t *uid, int len);
int chip_remove_tag(sim_chip_t *c, const uint8_t *uid, int len);
/* The tag is in the field on_ms, out of it off_ms, over and over from now. */
int chip_flicker_tag(sim_chip_t *c, const uint8_t *uid, int len, int on_ms, int off_ms);

#endif
