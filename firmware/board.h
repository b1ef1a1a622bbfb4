// Pins of each reader per board (hardware.md has the wiring table).
#pragma once
#include <Arduino.h>

#if defined(__AVR_ATmega2560__)
#define HUB_BOARD "mega"
#ifndef HUB_READERS
#define HUB_READERS 12
#endif
// tags tracked by the whole hub, on any reader (presence.h: 16 bytes each)
#define HUB_TAGS 64
static const uint8_t kCsPins[] = {22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33};
static const uint8_t kRstPins[] = {34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45};
#elif defined(__AVR_ATmega328P__)
#define HUB_BOARD "uno"
#ifndef HUB_READERS
#define HUB_READERS 6
#endif
// every figure of a game at once: 4 families x 11 + 4 monks (hardware.md)
#define HUB_TAGS 48
// D13/D12/D11 are SCK/MISO/MOSI, shared by every reader.
static const uint8_t kCsPins[] = {10, 9, 8, 7, 6, 5};
static const uint8_t kRstPins[] = {A0, A1, A2, A3, A4, A5};
#else
#error "village hub: build for an atmega328p (uno, nano) or an atmega2560 (mega)"
#endif

static_assert(HUB_READERS >= 1 && HUB_READERS <= sizeof(kCsPins), "HUB_READERS out of range");
