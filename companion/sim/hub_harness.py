"""The reader hub's real parts for tests and benchmarks: the firmware image built with the
AVR toolchain (`build_firmware`) and run in simavr by the ``firmware/sim`` harness
(`SimHub`), socat pseudo-terminal pairs standing for the USB cable (`SocatPair`), and a
scripted peer hub answering like the firmware (`PeerHub`). Needs gcc-avr, arduino-core-avr,
libsimavr-dev and socat (see .ci/run)."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.sensors.hub_protocol import frame

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
# The firmware tree whose image is run (the harness is always this checkout's):
# VILLAGE_HUB_FIRMWARE=/some/other/firmware runs the same tests on another version of it.
IMAGE_TREE = Path(os.environ.get("VILLAGE_HUB_FIRMWARE", FIRMWARE))
MCU = {"uno": "atmega328p", "mega": "atmega2560"}
_build_lock = threading.Lock()


def build_firmware(board: str = "uno", readers: int | None = None) -> Path:
    """`make` (BOARD=…, READERS=N if given) in firmware/; returns the .elf. Raises
    CalledProcessError."""
    opts = [f"BOARD={board}"] + ([f"READERS={readers}"] if readers else [])
    with _build_lock:
        subprocess.run(["make", "-s", *opts], cwd=IMAGE_TREE, check=True, capture_output=True)
    build = f"build-{board}" + (f"-r{readers}" if readers else "")
    return IMAGE_TREE / build / "village_hub.elf"


def build_sim() -> Path:
    with _build_lock:
        subprocess.run(["make", "-s"], cwd=FIRMWARE / "sim", check=True, capture_output=True)
    return FIRMWARE / "sim" / "build" / "hub_sim"


def wait_for(cond: Callable[[], object], timeout: float, step: float = 0.01) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(step)
    return bool(cond())


class SimHub:
    """The firmware image running in simavr (firmware/sim/hub_sim); `.pty` is its UART.
    After `trace()`, `.trace` collects (simulated µs, text) of every line the hub sends
    and of every script command (text "> command")."""

    def __init__(self, elf: Path, mcu: str = "atmega328p") -> None:
        self.proc = subprocess.Popen(
            [str(build_sim()), str(elf), mcu], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self._out: queue.Queue[str] = queue.Queue()
        self.trace_lock = threading.Lock()
        self.traced: list[tuple[int, str]] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.pty = ""
        deadline = time.monotonic() + 10
        while not self.pty and time.monotonic() < deadline:
            line = self._out.get(timeout=10)
            if line.startswith("PTY "):
                self.pty = line.split()[1]
        assert self.pty, "hub_sim did not open its pty"

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        with contextlib.suppress(ValueError, OSError):  # closed by close()
            for line in self.proc.stdout:
                if line.startswith("T "):
                    _, us, text = line.rstrip("\n").split(" ", 2)
                    with self.trace_lock:
                        self.traced.append((int(us), text))
                else:
                    self._out.put(line.rstrip("\n"))

    def cmd(self, text: str) -> str:
        """Send one script command; returns the harness's answer line (OK/ERR/STATS)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        answer = ""
        while True:
            line = self._out.get(timeout=10)
            if line.startswith("STATS"):
                answer = line
            elif line.endswith(text) and line.split(" ", 1)[0] in ("OK", "ERR"):
                assert line.startswith("OK"), line
                return answer or line

    def cmds(self, texts: list[str]) -> None:
        """Send several script commands in one write (applied in the same instant of
        simulated time) and wait for each answer."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(t + "\n" for t in texts))
        self.proc.stdin.flush()
        waiting = list(texts)
        while waiting:
            line = self._out.get(timeout=10)
            verdict, _, text = line.partition(" ")
            if verdict in ("OK", "ERR") and text in waiting:
                assert verdict == "OK", line
                waiting.remove(text)

    def trace(self) -> None:
        """Start collecting the time-stamped trace (`traced`, `lines`)."""
        self.cmd("trace")

    def lines(self, since_us: int = 0, kind: str | None = None) -> list[tuple[int, str, list[str]]]:
        """The hub's traced lines from `since_us` on (only those of TYPE ``kind`` if given):
        (µs, TYPE, arguments), checksum cut."""
        with self.trace_lock:
            rows = list(self.traced)
        out = []
        for us, text in rows:
            if us < since_us or text.startswith(">"):
                continue
            words = text.split("*", 1)[0].split()
            if len(words) >= 2 and (kind is None or words[1] == kind):
                out.append((us, words[1], words[2:]))
        return out

    def wait_line(self, since_us: int, kind: str, uid: str | None = None,
                  timeout: float = 30) -> int:
        """Simulated µs of the first ``kind`` line (naming ``uid``, if given) from
        ``since_us`` on. Raises TimeoutError after ``timeout`` s of real time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for us, _, args in self.lines(since_us, kind):
                if uid is None or uid in args:
                    return us
            time.sleep(0.005)
        raise TimeoutError(f"no {kind} {uid or ''} after {since_us} us")

    def now_us(self) -> int:
        """The simulated time of a no-op command (needs `trace()`)."""
        self.cmd("trace")
        with self.trace_lock:
            return max(us for us, text in self.traced if text == "> trace")

    def command_time(self, text: str) -> int:
        """Simulated µs at which the script command `text` was applied (the last one)."""
        with self.trace_lock:
            return max(us for us, t in self.traced if t == "> " + text)

    def stats(self) -> dict[str, str]:
        return dict(p.split("=", 1) for p in self.cmd("stats").split()[1:])

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(Exception):
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(Exception):
                f.close()  # type: ignore[union-attr]

    def __enter__(self) -> SimHub:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SocatPair:
    """`socat pty,link=A pty,link=B`: the adapter opens `.a`, a peer opens `.b`."""

    def __init__(self, directory: Path) -> None:
        self.a = str(directory / "hub-a")
        self.b = str(directory / "hub-b")
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        assert shutil.which("socat"), "socat is not installed"
        self.proc = subprocess.Popen(
            ["socat", f"pty,raw,echo=0,link={self.a}", f"pty,raw,echo=0,link={self.b}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_for(lambda: os.path.exists(self.a) and os.path.exists(self.b), 5)

    def kill(self) -> None:
        """The cable is pulled: both ends vanish."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=5)
        self.proc = None
        wait_for(lambda: not os.path.exists(self.a), 2)

    def close(self) -> None:
        self.kill()


class PeerHub:
    """A scripted hub on the far end of a socat pair: answers HELLO/START/SYNC like the
    firmware, and writes whatever lines a test asks for."""

    def __init__(self, path: str, readers: int = 4, hub_id: int = 7) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        self.readers = readers
        self.hub_id = hub_id
        self.seq = 0
        self.present: set[tuple[int, str]] = set()
        self.commands: list[str] = []
        self.lock = threading.RLock()  # held across a whole replay
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def line(self, body: str) -> float:
        """Write "<seq> body*CC" with the next sequence number; returns the monotonic time
        of the write."""
        with self.lock:
            data = frame(f"{self.seq} {body}")
            self.seq = (self.seq + 1) % 256
            t = time.monotonic()
            self._write(data)
            return t

    def burst(self, bodies: list[str]) -> None:
        """Write many lines in one go, as fast as the pseudo-terminal takes them."""
        with self.lock:
            chunk = []
            for body in bodies:
                chunk.append(frame(f"{self.seq} {body}"))
                self.seq = (self.seq + 1) % 256
            self._write(b"".join(chunk))

    def seen(self, uid: str, reader: int = 0) -> float:
        """Tag ``uid`` put on ``reader``: remembered for replays, its SEEN line written."""
        self.present.add((reader, uid))
        return self.line(f"SEEN {reader} {uid}")

    def gone(self, uid: str, reader: int = 0) -> float:
        self.present.discard((reader, uid))
        return self.line(f"GONE {reader} {uid}")

    def raw(self, data: bytes) -> None:
        with self.lock:
            self._write(data)

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]

    def hello(self) -> None:
        self.line(f"HELLO village-hub proto=1 fw=0.1.0 board=peer id={self.hub_id} "
                  f"readers={self.readers} status={'O' * self.readers} rate=20")

    def sync(self) -> None:
        with self.lock:  # one consistent replay, never interleaved with other lines
            for r, uid in sorted(self.present):
                self.line(f"SEEN {r} {uid}")
            self.line(f"SYNC {len(self.present)}")

    def _serve(self) -> None:
        try:
            self._answer_commands()
        except OSError:  # the cable was pulled (or the test closed this end)
            return

    def _answer_commands(self) -> None:
        buf = b""
        while not self._stop.is_set():
            try:
                chunk = os.read(self.fd, 256)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                text = raw.rstrip(b"\r")
                body = text[:-3].decode("ascii", "replace")
                self.commands.append(body)
                if body == "HELLO":
                    self.hello()
                elif body in ("START", "SYNC"):
                    self.sync()

    def close(self) -> None:
        self._stop.set()
        with contextlib.suppress(OSError):
            os.close(self.fd)
