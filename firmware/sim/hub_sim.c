/* Runs the hub firmware image (.elf) in simavr with simulated MFRC522 readers on the
 * SPI bus, one per chip-select pin, and bridges the AVR's UART to a pseudo-terminal.
 *
 *   hub_sim FIRMWARE.elf [atmega328p|atmega2560]
 *
 * Prints "PTY /dev/pts/N" once the bridge is up. Reads a script on stdin, one command
 * a line, and answers "OK <line>" (or "ERR <line>") on stdout after applying it:
 *   add R UIDHEX     a tag (4, 7 or 10 bytes) enters reader R's field
 *   remove R UIDHEX  it leaves
 *   dead R [HH]      reader R stops answering (MISO reads HH, default 00)
 *   alive R          it answers again (as after a power cycle)
 *   noisy R PCT      PCT % of reader R's answers arrive garbled (parity error)
 *   flicker R UIDHEX ON OFF   the tag (already added) is in the field ON ms, out of it
 *                    OFF ms, over and over from now (a tag at the edge of a field)
 *   glitch R         reader R resets itself (a supply dip): registers back to their
 *                    power-up values, the chip still answers
 *   reset            the AVR resets (as when a host opens the port of a real board)
 *   trace            from now on, print "T <us> <line>" for each line the hub sends and
 *                    "T <us> > <command>" for each script command, <us> the AVR's
 *                    simulated time in microseconds
 *   stats            "STATS overlap=N conflicts=N r0=transceives/answers ..."
 *   quit
 * overlap counts moments when two antennas were on at once; conflicts counts SPI
 * bytes clocked while two chip selects were low. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#include <simavr/avr_ioport.h>
#include <simavr/avr_spi.h>
#include <simavr/avr_uart.h>
#include <simavr/parts/uart_pty.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_irq.h>

#include "mfrc522_sim.h"

typedef struct { char port; int bit; } pin_t;

/* Arduino pin → port/bit, for the pins board.h uses. */
static const pin_t uno_cs[] = {{'B', 2}, {'B', 1}, {'B', 0}, {'D', 7}, {'D', 6}, {'D', 5}};
static const pin_t uno_rst[] = {{'C', 0}, {'C', 1}, {'C', 2}, {'C', 3}, {'C', 4}, {'C', 5}};
static const pin_t mega_cs[] = {{'A', 0}, {'A', 1}, {'A', 2}, {'A', 3}, {'A', 4}, {'A', 5},
                                {'A', 6}, {'A', 7}, {'C', 7}, {'C', 6}, {'C', 5}, {'C', 4}};
static const pin_t mega_rst[] = {{'C', 3}, {'C', 2}, {'C', 1}, {'C', 0}, {'D', 7}, {'G', 2},
                                 {'G', 1}, {'G', 0}, {'L', 7}, {'L', 6}, {'L', 5}, {'L', 4}};

#define MAX_READERS 12
static sim_chip_t chips[MAX_READERS];
static int nchips;
static avr_t *avr;
static avr_irq_t *spi_in;
static unsigned long overlap, conflicts;
static int tracing;

uint64_t sim_now_ns(void) { return avr ? avr->cycle * 1000ULL / 16ULL : 0; }

static void on_uart_byte(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)param;
    static char buf[160];
    static size_t len;
    if (value == '\n') {
        buf[len] = 0;
        if (len && buf[len - 1] == '\r') buf[len - 1] = 0;
        if (tracing) {
            printf("T %llu %s\n", (unsigned long long)(sim_now_ns() / 1000), buf);
            fflush(stdout);
        }
        len = 0;
    } else if (len < sizeof buf - 1) {
        buf[len++] = (char)value;
    }
}

static void check_overlap(void) {
    int on = 0;
    for (int i = 0; i < nchips; i++) on += chip_antenna_on(&chips[i]);
    if (on > 1) overlap++;
}

static void on_spi_byte(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)param;
    int selected = 0;
    uint8_t out = 0xFF;  /* nobody selected: MISO floats high */
    for (int i = 0; i < nchips; i++)
        if (chips[i].cs_low) {
            selected++;
            out = chip_byte(&chips[i], (uint8_t)value);
            check_overlap();
        }
    if (selected > 1) conflicts++;
    avr_raise_irq(spi_in, out);
}

static void on_cs(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    chip_cs((sim_chip_t *)param, value == 0);
}

static void on_rst(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    sim_chip_t *c = (sim_chip_t *)param;
    int low = value == 0;
    if (c->rst_low && !low) chip_reset(c);  /* rising edge: the chip starts afresh */
    c->rst_low = low;
}

static int parse_uid(const char *hex, uint8_t *uid) {
    int n = 0;
    size_t len = strlen(hex);
    if (len % 2 || len / 2 > 10) return -1;
    for (size_t i = 0; i < len; i += 2) {
        unsigned v;
        if (!isxdigit((unsigned char)hex[i]) || !isxdigit((unsigned char)hex[i + 1])) return -1;
        sscanf(hex + i, "%2x", &v);
        uid[n++] = (uint8_t)v;
    }
    return (n == 4 || n == 7 || n == 10) ? n : -1;
}

/* simavr 1.6 completes every SPI byte 100 us after SPDR is written, whatever the clock
 * (a real ATmega at 16 MHz with SPI at 4 MHz takes 2 us): 50 times too slow for a
 * driver that is mostly SPI traffic. This write handler for SPDR takes the place of
 * simavr's and completes the byte after 8 SCK periods, SCK = F_CPU / (4, 16, 64 or 128
 * by SPR1:SPR0, halved by SPI2X) (ATmega328P datasheet, SPI section). */
static avr_cycle_count_t spi_byte_done(avr_t *a, avr_cycle_count_t when, void *param) {
    (void)when;
    avr_spi_t *p = (avr_spi_t *)param;
    avr_raise_interrupt(a, &p->spi);
    avr_raise_irq(p->io.irq + SPI_IRQ_OUTPUT, a->data[p->r_spdr]);
    return 0;
}

static void spi_write(avr_t *a, avr_io_addr_t addr, uint8_t v, void *param) {
    static const int divider[4] = {4, 16, 64, 128};
    avr_spi_t *p = (avr_spi_t *)param;
    avr_regbit_clear(a, p->spi.raised);  /* writing SPDR clears SPIF */
    avr_core_watch_write(a, addr, v);
    int d = divider[a->data[p->r_spcr] & 0x03];
    if (avr_regbit_get(a, p->spr[2])) d /= 2;
    avr_cycle_timer_register(a, (avr_cycle_count_t)(8 * d), spi_byte_done, p);
}

static void clock_spi_faithfully(void) {
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (io->kind && !strcmp(io->kind, "spi")) {
            avr_spi_t *p = (avr_spi_t *)io;
            avr->io[AVR_DATA_TO_IO(p->r_spdr)].w.c = spi_write;
            avr->io[AVR_DATA_TO_IO(p->r_spdr)].w.param = p;
            return;
        }
    fprintf(stderr, "no SPI module found\n");
    exit(1);
}

static int command(char *line) {
    char verb[16] = "", arg[32] = "";
    int r = -1;
    int got = sscanf(line, "%15s %d %31s", verb, &r, arg);
    if (got < 1) return -1;
    if (!strcmp(verb, "quit")) exit(0);
    if (!strcmp(verb, "trace")) {
        tracing = 1;
        return 0;
    }
    if (!strcmp(verb, "reset")) {
        avr_reset(avr);
        return 0;
    }
    if (!strcmp(verb, "stats")) {
        printf("STATS overlap=%lu conflicts=%lu", overlap, conflicts);  /* rN=tx/answers/garbled */
        for (int i = 0; i < nchips; i++)
            printf(" r%d=%lu/%lu/%lu", i, chips[i].transceives, chips[i].answers, chips[i].garbled);
        printf("\n");
        return 0;
    }
    if (got < 2 || r < 0 || r >= nchips) return -1;
    sim_chip_t *c = &chips[r];
    uint8_t uid[10];
    if (!strcmp(verb, "add") || !strcmp(verb, "remove")) {
        int n = parse_uid(arg, uid);
        if (n < 0) return -1;
        return verb[0] == 'a' ? chip_add_tag(c, uid, n) : chip_remove_tag(c, uid, n);
    }
    if (!strcmp(verb, "flicker")) {
        int on = 0, off = 0;
        int n = parse_uid(arg, uid);
        if (n < 0 || sscanf(line, "%*s %*d %*s %d %d", &on, &off) != 2) return -1;
        return chip_flicker_tag(c, uid, n, on, off);
    }
    if (!strcmp(verb, "glitch")) {
        chip_reset(c);
        return 0;
    }
    if (!strcmp(verb, "dead")) {
        unsigned v = 0;
        if (got == 3) sscanf(arg, "%x", &v);
        c->dead = 1;
        c->dead_value = (uint8_t)v;
        return 0;
    }
    if (!strcmp(verb, "noisy")) {
        int pct = atoi(arg);
        if (got < 3 || pct < 0 || pct > 100) return -1;
        c->noise_pct = pct;
        return 0;
    }
    if (!strcmp(verb, "alive")) {
        c->dead = 0;
        chip_reset(c);
        return 0;
    }
    return -1;
}

static void poll_stdin(void) {
    static char buf[256];
    static size_t len;
    fd_set fds;
    struct timeval tv = {0, 0};
    FD_ZERO(&fds);
    FD_SET(0, &fds);
    if (select(1, &fds, NULL, NULL, &tv) <= 0) return;
    ssize_t n = read(0, buf + len, sizeof buf - 1 - len);
    if (n <= 0) exit(0);  /* the test went away */
    len += (size_t)n;
    char *nl;
    while ((nl = memchr(buf, '\n', len))) {
        *nl = 0;
        if (tracing) printf("T %llu > %s\n", (unsigned long long)(sim_now_ns() / 1000), buf);
        int rc = command(buf);
        printf("%s %s\n", rc == 0 ? "OK" : "ERR", buf);
        fflush(stdout);
        size_t used = (size_t)(nl - buf) + 1;
        memmove(buf, nl + 1, len - used);
        len -= used;
    }
    if (len == sizeof buf - 1) len = 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIRMWARE.elf [atmega328p|atmega2560]\n", argv[0]);
        return 2;
    }
    const char *mcu = argc > 2 ? argv[2] : "atmega328p";
    int mega = strcmp(mcu, "atmega2560") == 0;
    const pin_t *cs = mega ? mega_cs : uno_cs, *rst = mega ? mega_rst : uno_rst;
    nchips = mega ? 12 : 6;

    elf_firmware_t f;
    memset(&f, 0, sizeof f);
    if (elf_read_firmware(argv[1], &f) != 0) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    avr = avr_make_mcu_by_name(mcu);
    if (!avr) {
        fprintf(stderr, "unknown mcu %s\n", mcu);
        return 1;
    }
    avr_init(avr);
    f.frequency = 16000000;
    avr->frequency = 16000000;
    avr_load_firmware(avr, &f);
    avr->frequency = 16000000;

    for (int i = 0; i < nchips; i++) {
        chip_reset(&chips[i]);
        chips[i].rst_low = 0;
        chips[i].rng = 0x9E3779B9u + (uint32_t)i;
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(cs[i].port), cs[i].bit),
                                on_cs, &chips[i]);
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(rst[i].port), rst[i].bit),
                                on_rst, &chips[i]);
    }
    clock_spi_faithfully();
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), on_spi_byte, NULL);
    spi_in = avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT);

    static uart_pty_t pty;
    uart_pty_init(avr, &pty);
    uart_pty_connect(&pty, '0');
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_byte, NULL);
    printf("PTY %s\n", pty.port[0].slavename);
    fflush(stdout);

    for (unsigned long i = 0;; i++) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "avr stopped: state %d\n", state);
            return 1;
        }
        if ((i & 0x3FFF) == 0) poll_stdin();
    }
}
