/* A register-level model of the MFRC522 and of ISO 14443-A tags in its field, as much
 * of it as the hub firmware's driver uses: SPI register access, FIFO, Transceive with
 * bit-oriented framing, the timer timeout, collisions (ErrorReg/CollReg), SoftReset,
 * hard reset on the RST pin, antenna on/off (tags lose power and forget HALT). */
#ifndef MFRC522_SIM_H
#define MFRC522_SIM_H
#include <stdint.h>

#define SIM_TAGS_MAX 16

enum { TAG_IDLE, TAG_READY, TAG_ACTIVE, TAG_HALT };

typedef struct {
    uint8_t uid[10];
    int len;    /* 4, 7 or 10 */
    int state;
    int level;  /* cascade level a READY tag is at */
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
} sim_chip_t;

void chip_reset(sim_chip_t *c);
void chip_cs(sim_chip_t *c, int low);
uint8_t chip_byte(sim_chip_t *c, uint8_t mosi);
int chip_antenna_on(const sim_chip_t *c);
int chip_add_tag(sim_chip_t *c, const uint8_t *uid, int len);
int chip_remove_tag(sim_chip_t *c, const uint8_t *uid, int len);

#endif
