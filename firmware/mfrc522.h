// A small MFRC522 driver: registers over SPI, one transceive, and the enumeration of
// every ISO 14443-A tag in the field (REQA, anticollision cascade, SELECT, HLTA).
#pragma once
#include <stdint.h>
#include "iso14443.h"

namespace mfrc522 {

// Registers (MFRC522 datasheet, section 9).
enum Reg : uint8_t {
    CommandReg = 0x01, ComIEnReg = 0x02, ComIrqReg = 0x04, DivIrqReg = 0x05, ErrorReg = 0x06,
    FIFODataReg = 0x09, FIFOLevelReg = 0x0A, ControlReg = 0x0C, BitFramingReg = 0x0D,
    CollReg = 0x0E, ModeReg = 0x11, TxModeReg = 0x12, RxModeReg = 0x13, TxControlReg = 0x14,
    TxASKReg = 0x15, TModeReg = 0x2A, TPrescalerReg = 0x2B, TReloadRegH = 0x2C,
    TReloadRegL = 0x2D, VersionReg = 0x37,
};
enum Cmd : uint8_t { CmdIdle = 0x00, CmdTransceive = 0x0C, CmdSoftReset = 0x0F };

enum Status : uint8_t {
    OK = 0,     // an answer
    TIMEOUT,    // no tag answered (the chip's timer ran out)
    COLLISION,  // several tags answered at once
    ERROR,      // parity, protocol, CRC or framing error
    DEAD,       // the chip itself did not answer (unplugged, unpowered, hung)
};

const uint8_t UID_MAX = 10;

class Reader {
  public:
    uint8_t cs, rst;
    uint8_t version = 0;
    uint16_t errors = 0;  // ERROR/COLLISION outcomes that lost a tag

    void begin(uint8_t cs_pin, uint8_t rst_pin);
    void hold_reset();    // RST low: the chip powers down
    void release_reset(); // RST high: it starts (ready ~50 ms later)
    // Soft reset, timer and modulation setup, antenna off; false if the version
    // register reads 0x00 or 0xFF (no chip answering).
    bool init();
    void antenna(bool on);
    // Reads the version register: 0x00 or 0xFF means nothing answers on the bus.
    uint8_t probe() { return read(VersionReg); }
    // False when the chip lost our settings (it reset itself: a supply dip, its RST pin
    // bouncing): init() again before using it.
    bool configured();

    // Enumerates every tag in the field, calling sink(ctx, uid, len) once per tag.
    // Returns the number found, or -1 when the chip stopped answering.
    typedef void (*Sink)(void* ctx, const uint8_t* uid, uint8_t len);
    int8_t enumerate(Sink sink, void* ctx, uint8_t max_tags);

    Status transceive(const uint8_t* tx, uint8_t tx_len, uint8_t tx_last_bits, uint8_t rx_align,
                      uint8_t* rx, uint8_t& rx_len, uint8_t& coll_pos);

  private:
    void write(uint8_t reg, uint8_t v);
    void write_many(uint8_t reg, const uint8_t* v, uint8_t n);
    uint8_t read(uint8_t reg);
    void set_bits(uint8_t reg, uint8_t mask) { write(reg, read(reg) | mask); }
    void clear_bits(uint8_t reg, uint8_t mask) { write(reg, read(reg) & (uint8_t)~mask); }
    Status select(uint8_t* uid, uint8_t& len);
};

}  // namespace mfrc522
