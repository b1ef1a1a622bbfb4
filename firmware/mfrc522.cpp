#include "mfrc522.h"

#include <Arduino.h>
#include <SPI.h>

namespace mfrc522 {

#ifndef HUB_SPI_HZ
#define HUB_SPI_HZ 4000000  // lower it (make SPI_HZ=1000000) for long cables
#endif
static const SPISettings kSpi(HUB_SPI_HZ, MSBFIRST, SPI_MODE0);
// The chip's own timer, in 25 us ticks, gives up on an answer after 13 ticks (325 us): a
// tag answers REQA, ANTICOLLISION and SELECT after its frame delay time, 1236/fc = 91 us
// (ISO/IEC 14443-3 6.2.1.1), and the timer stops at the answer's 5th bit, ~140 us after
// our frame. After HLTA a tag must stay silent, but has 1 ms to object (6.4.3): that one
// waits 41 ticks (1.03 ms). Past kTransceiveTimeoutMs without the chip saying anything,
// the chip is taken for dead.
static const uint16_t kTransceiveTimeoutMs = 10;
static const uint8_t kMaxFailures = 6;  // garbled selections tolerated in one poll
static const uint8_t kPrescaler = 0xA9;
static const uint8_t kAnswerTicks = 12;  // TReload: reload + 1 ticks
static const uint8_t kHaltTicks = 40;

void Reader::begin(uint8_t cs_pin, uint8_t rst_pin) {
    cs = cs_pin;
    rst = rst_pin;
    pinMode(cs, OUTPUT);
    digitalWrite(cs, HIGH);
    pinMode(rst, OUTPUT);
    digitalWrite(rst, HIGH);
}

void Reader::hold_reset() { digitalWrite(rst, LOW); }
void Reader::release_reset() { digitalWrite(rst, HIGH); }

void Reader::write(uint8_t reg, uint8_t v) {
    SPI.beginTransaction(kSpi);
    digitalWrite(cs, LOW);
    SPI.transfer((uint8_t)(reg << 1) & 0x7E);
    SPI.transfer(v);
    digitalWrite(cs, HIGH);
    SPI.endTransaction();
}

void Reader::write_many(uint8_t reg, const uint8_t* v, uint8_t n) {
    SPI.beginTransaction(kSpi);
    digitalWrite(cs, LOW);
    SPI.transfer((uint8_t)(reg << 1) & 0x7E);
    for (uint8_t i = 0; i < n; i++) SPI.transfer(v[i]);
    digitalWrite(cs, HIGH);
    SPI.endTransaction();
}

uint8_t Reader::read(uint8_t reg) {
    SPI.beginTransaction(kSpi);
    digitalWrite(cs, LOW);
    SPI.transfer((uint8_t)(0x80 | ((reg << 1) & 0x7E)));
    uint8_t v = SPI.transfer(0);
    digitalWrite(cs, HIGH);
    SPI.endTransaction();
    return v;
}

bool Reader::init() {
    write(CommandReg, CmdSoftReset);
    uint32_t t0 = millis();
    // PowerDown (bit 4) clears when the soft reset is over
    while ((read(CommandReg) & 0x10) && millis() - t0 < 50) {
    }
    version = read(VersionReg);
    if (version == 0x00 || version == 0xFF) return false;
    write(TModeReg, 0x80);       // timer starts at the end of each transmission
    write(TPrescalerReg, kPrescaler);  // 13.56 MHz / (2*169+1) ≈ 40 kHz: 25 µs ticks
    write(TReloadRegH, 0x00);
    write(TReloadRegL, kAnswerTicks);
    write(TxASKReg, 0x40);       // 100 % ASK, as type A wants
    write(ModeReg, 0x3D);        // CRC preset 0x6363
    write(TxModeReg, 0x00);      // no hardware CRC: the CRC_A is made and checked here
    write(RxModeReg, 0x00);
    antenna(false);
    // read back one register we wrote: a chip that ignores writes is no chip
    return configured();
}

bool Reader::configured() { return read(TPrescalerReg) == kPrescaler; }

void Reader::antenna(bool on) {
    if (on) set_bits(TxControlReg, 0x03);
    else clear_bits(TxControlReg, 0x03);
}

Status Reader::transceive(const uint8_t* tx, uint8_t tx_len, uint8_t tx_last_bits,
                          uint8_t rx_align, uint8_t* rx, uint8_t& rx_len, uint8_t& coll_pos) {
    uint8_t rx_max = rx_len;
    rx_len = 0;
    coll_pos = 0;
    write(CommandReg, CmdIdle);
    write(ComIrqReg, 0x7F);     // clear every interrupt request bit
    write(FIFOLevelReg, 0x80);  // flush the FIFO
    write_many(FIFODataReg, tx, tx_len);
    uint8_t framing = (uint8_t)((rx_align << 4) | tx_last_bits);
    write(BitFramingReg, framing);
    write(CommandReg, CmdTransceive);
    write(BitFramingReg, (uint8_t)(framing | 0x80));  // StartSend
    uint32_t t0 = millis();
    uint8_t irq;
    for (;;) {
        irq = read(ComIrqReg);
        if (irq & 0x30) break;   // RxIRq or IdleIRq: an answer
        if (irq & 0x01) return TIMEOUT;  // TimerIRq: nobody answered
        if (millis() - t0 > kTransceiveTimeoutMs) return DEAD;
    }
    write(BitFramingReg, framing);  // StartSend off
    uint8_t err = read(ErrorReg);
    if (err & 0x13) return ERROR;  // BufferOvfl, ParityErr, ProtocolErr
    uint8_t n = read(FIFOLevelReg) & 0x7F;
    if (n > rx_max) return ERROR;
    for (uint8_t i = 0; i < n; i++) rx[i] = read(FIFODataReg);
    rx_len = n;
    if (err & 0x08) {  // CollErr
        uint8_t coll = read(CollReg);
        if (coll & 0x20) return ERROR;  // CollPosNotValid
        coll_pos = coll & 0x1F;
        if (coll_pos == 0) coll_pos = 32;
        return COLLISION;
    }
    return OK;
}

Status Reader::select(uint8_t* uid, uint8_t& len) {
    iso14443::Level level;
    level.start(iso14443::SEL_CL1);
    len = 0;
    uint8_t frame[9], rx[8];
    for (uint8_t cl = 0; cl < 3; cl++) {
        for (uint8_t step = 0; step < 40 && level.known < 40; step++) {
            uint8_t last_bits, align, rx_len = sizeof(rx), coll;
            uint8_t n = level.anticoll_frame(frame, last_bits, align);
            write(CollReg, 0x00);  // ValuesAfterColl off: bits after a collision are cleared
            Status st = transceive(frame, n, last_bits, align, rx, rx_len, coll);
            if (st != OK && st != COLLISION) return st;
            if (level.merge(rx, rx_len, st == COLLISION ? coll : 0) == iso14443::Level::BAD)
                return ERROR;
        }
        if (level.known < 40) return ERROR;
        level.select_frame(frame);
        uint8_t rx_len = sizeof(rx), coll;
        Status st = transceive(frame, 9, 0, 0, rx, rx_len, coll);
        if (st != OK) return st == COLLISION ? ERROR : st;
        if (rx_len != 3 || !iso14443::check_crc(rx, 3)) return ERROR;
        uint8_t sak = rx[0];
        if (level.bits[0] == iso14443::CASCADE_TAG && iso14443::sak_uid_incomplete(sak)) {
            if (len + 3 > UID_MAX) return ERROR;
            for (uint8_t i = 1; i < 4; i++) uid[len++] = level.bits[i];
            level.start(iso14443::next_sel(level.sel));
            continue;
        }
        if (len + 4 > UID_MAX) return ERROR;
        for (uint8_t i = 0; i < 4; i++) uid[len++] = level.bits[i];
        return OK;
    }
    return ERROR;
}

int8_t Reader::enumerate(Sink sink, void* ctx, uint8_t max_tags) {
    int8_t found = 0;
    uint8_t failures = 0;
    bool just_failed = false;
    while (found < (int8_t)max_tags && failures < kMaxFailures) {
        uint8_t req = iso14443::REQA, atqa[4], n = sizeof(atqa), coll;
        Status st = transceive(&req, 1, 7, 0, atqa, n, coll);
        if (st == TIMEOUT) {
            // A tag whose selection failed was left half-selected; this REQA sent it
            // back to IDLE without an answer. One more REQA gives it another chance.
            if (just_failed) {
                just_failed = false;
                continue;
            }
            break;  // nobody (left) in the field
        }
        just_failed = false;
        if (st == DEAD) return -1;
        // OK or COLLISION (several tags with different ATQA): someone is there
        uint8_t uid[UID_MAX], len;
        st = select(uid, len);
        if (st == DEAD) return -1;
        if (st != OK) {
            errors++;
            failures++;
            just_failed = true;
            continue;
        }
        sink(ctx, uid, len);
        found++;
        uint8_t halt[4];
        iso14443::halt_frame(halt);
        n = sizeof(atqa);
        write(TReloadRegL, kHaltTicks);  // loaded when the timer starts, after the frame
        st = transceive(halt, 4, 0, 0, atqa, n, coll);  // no answer = halted
        write(TReloadRegL, kAnswerTicks);
        if (st == DEAD) return -1;
    }
    return found;
}

}  // namespace mfrc522
