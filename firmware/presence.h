// Debounced tag presence for every reader of the hub, in one pool of slots shared by all
// readers (so one reader can hold every figure of the game): pure C++ (host-testable).
// A UID is reported SEEN after `k` consecutive polls of its reader that found it, GONE
// once it has been missed by at least `m` consecutive polls AND for at least `gone_ms`
// (a flicker at a field's edge is shorter than that, so it never makes a GONE). A UID
// seen fewer than k times in a row is forgotten silently at its first miss.
#pragma once
#include <stdint.h>
#include <string.h>

namespace presence {

const uint8_t UID_MAX = 10;

enum SlotState : uint8_t { FREE = 0, PENDING, PRESENT };
enum Event : uint8_t { EV_SEEN, EV_GONE };

struct Slot {
    uint8_t uid[UID_MAX];
    uint8_t len : 4;       // 4, 7 or 10 bytes (bit fields: 48 slots fit the Uno's RAM)
    uint8_t state : 2;     // a SlotState
    uint8_t seen_now : 1;  // found by the poll in progress
    uint8_t reader;
    uint8_t count;     // PENDING: polls in a row that found it; PRESENT: polls that missed it
    uint16_t last_ms;  // PRESENT: low 16 bits of the clock when a poll last found it
};

struct Timing {
    uint8_t seen_after;  // k
    uint8_t gone_after;  // m
    uint16_t gone_ms;    // least time missed before GONE
};

template <uint8_t SLOTS>
class Pool {
  public:
    Slot slots[SLOTS];

    Pool() { clear(); }
    void clear() { memset(slots, 0, sizeof(slots)); }

    void begin_poll(uint8_t reader) {
        for (uint8_t i = 0; i < SLOTS; i++)
            if (slots[i].reader == reader) slots[i].seen_now = false;
    }

    // Records a UID that reader found in this poll; false if it has no slot and none is
    // free (the caller reports the overflow) or the UID is malformed.
    bool saw(uint8_t reader, const uint8_t* uid, uint8_t len) {
        if (len == 0 || len > UID_MAX) return false;
        int free_slot = -1;
        for (uint8_t i = 0; i < SLOTS; i++) {
            Slot& s = slots[i];
            if (s.state == FREE) {
                if (free_slot < 0) free_slot = i;
            } else if (s.reader == reader && s.len == len && memcmp(s.uid, uid, len) == 0) {
                s.seen_now = true;
                return true;
            }
        }
        if (free_slot < 0) return false;
        Slot& s = slots[free_slot];
        memcpy(s.uid, uid, len);
        s.len = len;
        s.reader = reader;
        s.count = 0;
        s.state = PENDING;
        s.seen_now = true;
        return true;
    }

    // Closes a poll of `reader` at time now_ms: updates its slots and calls
    // sink(event, slot) for each change.
    template <typename Sink>
    void end_poll(uint8_t reader, uint16_t now_ms, const Timing& t, Sink& sink) {
        for (uint8_t i = 0; i < SLOTS; i++) {
            Slot& s = slots[i];
            if (s.state == FREE || s.reader != reader) continue;
            if (s.seen_now) {
                if (s.state == PENDING) {
                    if (++s.count >= t.seen_after) {
                        s.state = PRESENT;
                        s.count = 0;
                        s.last_ms = now_ms;
                        sink(EV_SEEN, s);
                    }
                } else {
                    s.count = 0;
                    s.last_ms = now_ms;
                }
            } else if (s.state == PENDING) {
                s.state = FREE;
            } else {
                if (s.count < 255) s.count++;
                if (s.count >= t.gone_after && (uint16_t)(now_ms - s.last_ms) >= t.gone_ms) {
                    sink(EV_GONE, s);
                    s.state = FREE;
                }
            }
        }
    }

    // A poll of this reader soon would settle something: a tag waiting for its k-th
    // sighting, or a present tag just missed.
    bool urgent(uint8_t reader) const {
        for (uint8_t i = 0; i < SLOTS; i++) {
            const Slot& s = slots[i];
            if (s.reader != reader) continue;
            if (s.state == PENDING || (s.state == PRESENT && s.count > 0)) return true;
        }
        return false;
    }

    uint8_t present_count(uint8_t reader) const {
        uint8_t n = 0;
        for (uint8_t i = 0; i < SLOTS; i++)
            n += slots[i].state == PRESENT && slots[i].reader == reader;
        return n;
    }
};

}  // namespace presence
