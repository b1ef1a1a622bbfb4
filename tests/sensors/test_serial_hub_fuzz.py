"""Bad input on a real pseudo-terminal: 10⁵ bad lines (random, truncated, bad-checksum,
out-of-sequence), each after a good one → no crash, every bad line counted, every good
line's effect observed."""

from __future__ import annotations

import random
from pathlib import Path

from hub_support import PeerHub, SocatPair, wait_for

from companion.reconcile.observations import Observation, PiecesGone, PiecesSeen
from companion.sensors.hub_protocol import crc8, frame
from companion.sensors.serial_hub import SerialHub

BAD = 100_000


def _garbage(rng: random.Random) -> bytes:
    n = rng.randint(0, 120)
    return bytes(b for b in rng.randbytes(n) if b not in (10, 13))


def test_100k_bad_and_good_lines(tmp_path: Path) -> None:
    pair = SocatPair(tmp_path)
    peer = PeerHub(pair.b, readers=4)
    seen: list[Observation] = []
    hub = SerialHub(pair.a, seen.append, {0: "farm:red", 1: "farm:blue", 2: "bag", 3: "council:1"})
    hub.start()
    try:
        assert wait_for(lambda: hub.state == "streaming", 5)
        rng = random.Random(9)
        uids = [f"04{i:012X}" for i in range(6)] + ["A1B2C3D4", "0BADCAFE"]
        bad = {"garbage": 0, "truncated": 0, "checksum": 0}
        out_of_sequence = expected_obs = 0
        chunk: list[bytes] = []

        def good_line() -> bytes:
            nonlocal expected_obs
            # the peer's own sequence counter, shared with its replies to SYNC
            if rng.random() < 0.2:
                body = f"HB 1000 {rng.randint(0, 30)},{rng.randint(0, 30)},3,F"
            else:
                r, uid = rng.randrange(4), rng.choice(uids)
                if (r, uid) in peer.present:
                    peer.present.discard((r, uid))
                    body = f"GONE {r} {uid}"
                else:
                    peer.present.add((r, uid))
                    body = f"SEEN {r} {uid}"
                expected_obs += 1
            data = frame(f"{peer.seq} {body}")
            peer.seq = (peer.seq + 1) % 256
            return data

        n_bad = 0
        while n_bad < BAD:
            # a batch is built and written under the peer's lock, so that its replies to
            # SYNC never take sequence numbers in the middle of a batch
            with peer.lock:
                for _ in range(100):
                    chunk.append(good_line())
                    if rng.random() >= 0.9 or n_bad == BAD:
                        continue
                    n_bad += 1
                    kind = rng.choice(["garbage", "truncated", "checksum", "sequence"])
                    if kind == "garbage":
                        chunk.append(_garbage(rng) + b"\r\n")
                    elif kind == "truncated":
                        line = frame(f"{peer.seq} SEEN 1 {rng.choice(uids)}")
                        chunk.append(line[: rng.randint(0, len(line) - 3)] + b"\r\n")
                    elif kind == "checksum":
                        body = f"{peer.seq} GONE 2 {rng.choice(uids)}".encode()
                        chunk.append(body + b"*%02X\r\n" % (crc8(body) ^ rng.randint(1, 255)))
                    else:  # a well-formed line whose number is not the next one
                        s = (peer.seq + rng.randint(1, 254)) % 256
                        chunk.append(frame(f"{s} HB 1000 1,1,1,1"))
                        out_of_sequence += 1
                    if kind != "sequence":
                        bad[kind] += 1
                peer._write(b"".join(chunk))
                chunk = []
        expected_bad = sum(bad.values())
        assert expected_bad + out_of_sequence == BAD and min(bad.values()) > 20_000
        assert wait_for(lambda: hub.observations == expected_obs and hub.bad_lines == expected_bad,
                        60), (hub.observations, expected_obs, hub.bad_lines, expected_bad, hub.gaps,
                                2 * out_of_sequence, hub.connects, hub.last_error)
        # each out-of-sequence line breaks the sequence twice: into it and out of it
        assert hub.gaps == 2 * out_of_sequence
        stats = hub.stats()
        assert (stats["bad_lines"], stats["gaps"], stats["observations"]) == (
            expected_bad, 2 * out_of_sequence, expected_obs)
        assert hub.state == "streaming"
        want = {r: frozenset(u for (q, u) in peer.present if q == r) for r in range(4)}
        assert hub.present() == want
        n_obs = sum(isinstance(o, PiecesSeen | PiecesGone) for o in seen)
        assert n_obs == expected_obs
        # and the link still works: a new tag after all that
        peer.line("SEEN 3 DEADBEEF")
        assert wait_for(lambda: "DEADBEEF" in hub.present()[3], 5)
    finally:
        hub.close()
        peer.close()
        pair.close()


def test_overlong_line_without_end_is_one_bad_line(tmp_path: Path) -> None:
    pair = SocatPair(tmp_path)
    peer = PeerHub(pair.b, readers=2)
    hub = SerialHub(pair.a, lambda o: None, {0: "bag"})
    hub.start()
    try:
        assert wait_for(lambda: hub.state == "streaming", 5)
        peer.raw(b"x" * 5000 + b"\n")
        peer.line("SEEN 0 A1B2C3D4")
        assert wait_for(lambda: hub.present()[0] == {"A1B2C3D4"}, 5)
        assert hub.bad_lines == 1
    finally:
        hub.close()
        peer.close()
        pair.close()
