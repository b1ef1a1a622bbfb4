// Debounced tag presence for one reader: pure C++ (host-testable).
// A UID is reported SEEN after `k` consecutive polls that found it, GONE after `m`
// consecutive polls that did not. A UID seen fewer than k times in a row is forgotten
// silently at its first miss.
#pragma once
#include <stdint.h>
#include <string.h>

namespace presence {

const uint8_t UID_MAX = 10;

enum SlotState : uint8_t { FREE = 0, PENDING, PRESENT };
enum Event : uint8_t { EV_SEEN, EV_GONE };

struct Slot {
    uint8_t uid[UID_MAX];
    uint8_t len;
    uint8_t hits;    // consecutive polls with the tag (saturates at 255)
    uint8_t misses;  // consecutive polls without it
    uint8_t state;
    bool seen_now;
};

template <uint8_t SLOTS>
class Table {
  public:
    Slot slots[SLOTS];
    uint16_t overflows = 0;  // UIDs dropped because every slot was taken

    Table() { clear(); }
    void clear() { memset(slots, 0, sizeof(slots)); }

    void begin_poll() {
        for (uint8_t i = 0; i < SLOTS; i++) slots[i].seen_now = false;
    }

    // Records a UID found in this poll; false if the table is full.
    bool saw(const uint8_t* uid, uint8_t len) {
        if (len == 0 || len > UID_MAX) return false;
        int free_slot = -1;
        for (uint8_t i = 0; i < SLOTS; i++) {
            Slot& s = slots[i];
            if (s.state == FREE) {
                if (free_slot < 0) free_slot = i;
            } else if (s.len == len && memcmp(s.uid, uid, len) == 0) {
                s.seen_now = true;
                return true;
            }
        }
        if (free_slot < 0) { overflows++; return false; }
        Slot& s = slots[free_slot];
        memcpy(s.uid, uid, len);
        s.len = len;
        s.hits = 0;
        s.misses = 0;
        s.state = PENDING;
        s.seen_now = true;
        return true;
    }

    // Closes a poll: updates counters and calls sink(event, slot) for each change.
    template <typename Sink>
    void end_poll(uint8_t k, uint8_t m, Sink& sink) {
        for (uint8_t i = 0; i < SLOTS; i++) {
            Slot& s = slots[i];
            if (s.state == FREE) continue;
            if (s.seen_now) {
                if (s.hits < 255) s.hits++;
                s.misses = 0;
                if (s.state == PENDING && s.hits >= k) {
                    s.state = PRESENT;
                    sink(EV_SEEN, s);
                }
            } else {
                s.hits = 0;
                if (s.misses < 255) s.misses++;
                if (s.state == PENDING) {
                    s.state = FREE;
                } else if (s.misses >= m) {
                    sink(EV_GONE, s);
                    s.state = FREE;
                }
            }
        }
    }

    uint8_t present_count() const {
        uint8_t n = 0;
        for (uint8_t i = 0; i < SLOTS; i++) n += slots[i].state == PRESENT;
        return n;
    }
};

}  // namespace presence
