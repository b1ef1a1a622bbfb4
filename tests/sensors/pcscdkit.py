"""A real ``pcscd --foreground`` with vsmartcard-vpcd's virtual readers, for the tap-pad tests.

The daemon reads its readers from a private config directory (``pcscd -c DIR``), one
vpcd device per channel: channel 0x8C7B gives "Virtual PCD 00 00" (TCP 35963) and
"Virtual PCD 00 01" (35964), as in Debian's ``/etc/reader.conf.d/vpcd``. (A second vpcd
device in the same daemon confuses the driver: a card on 35963 shows up on the other
device's reader; so tests use one device, or none.) Reader changes at run time are made by
restarting pcscd with another configuration: pcsc-lite 1.9.9 does not reread serial reader
configuration on ``pcscd --hotplug``. Tests need root (pcscd owns /run/pcscd) and skip with
the reason otherwise.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

DRIVER = Path("/usr/lib/pcsc/drivers/serial/libifdvpcd.so")
PCSCD = shutil.which("pcscd") or "/usr/sbin/pcscd"
MAIN = 0x8C7B  # "Virtual PCD 00 00" on 35963, "… 00 01" on 35964
READER_0 = "Virtual PCD 00 00"
READER_1 = "Virtual PCD 00 01"


def skip_reason() -> str | None:
    """Why the real-pcscd tests cannot run here, or None."""
    if os.geteuid() != 0:
        return "pcscd tests need root (pcscd owns /run/pcscd)"
    if not Path(PCSCD).exists():
        return "pcscd is not installed (apt-get install pcscd)"
    if not DRIVER.exists():
        return "vsmartcard-vpcd is not installed (apt-get install vsmartcard-vpcd)"
    try:
        import smartcard  # noqa: F401
    except ImportError:
        return "pyscard is not installed (pip install pyscard)"
    if subprocess.run(["pgrep", "-x", "pcscd"], capture_output=True).returncode == 0:
        return "another pcscd is running on this machine"
    return None


def _wait_until_free(*ports: int, timeout: float = 70.0) -> None:
    """Wait until vpcd can listen on ``ports``: after a daemon is stopped while a tag is
    connected, its side of the connection sits in TIME_WAIT (up to 60 s) and vpcd, binding
    without SO_REUSEADDR, would fail ("Address already in use"). Raises RuntimeError if a
    port stays taken (another program listens there)."""
    deadline = time.monotonic() + timeout
    for port in ports:
        while True:
            with socket.socket() as s:
                try:
                    s.bind(("0.0.0.0", port))
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"TCP port {port} (vpcd) stays in use") from None
            time.sleep(0.5)


def reader_names(channel: int) -> list[str]:
    """The readers pcscd lists for one vpcd device (only `MAIN` is used)."""
    assert channel == MAIN, "one vpcd device per daemon (see the module docstring)"
    return [READER_0, READER_1]


class Pcscd:
    """``pcscd --foreground -c DIR`` serving the vpcd devices of ``channels``."""

    def __init__(self, workdir: Path) -> None:
        self.conf = workdir / "reader.conf.d"
        self.log = workdir / "pcscd.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.channels: tuple[int, ...] = ()

    def start(self, *channels: int, timeout: float = 10.0) -> Pcscd:
        """Start the daemon with these vpcd devices (none: no reader at all) and wait until
        its readers are listed. Raises RuntimeError if it does not come up."""
        self.channels = channels or ()
        for ch in channels:
            _wait_until_free(ch, ch + 1)  # vpcd's two ports per device
        shutil.rmtree(self.conf, ignore_errors=True)
        self.conf.mkdir(parents=True)
        for ch in channels:
            (self.conf / f"vpcd-{ch:04x}").write_text(
                f'FRIENDLYNAME "Virtual PCD"\nDEVICENAME /dev/null:0x{ch:04X}\n'
                f"LIBPATH {DRIVER}\nCHANNELID 0x{ch:04X}\n"
            )
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [PCSCD, "--foreground", "-c", str(self.conf)], stdout=out, stderr=out
            )
        want = sorted(n for ch in channels for n in reader_names(ch))
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"pcscd exited: {self.log.read_text()[-2000:]}")
                if self.listed() == want:
                    return self
                time.sleep(0.05)
            raise RuntimeError(f"pcscd did not list {want} in {timeout} s: "
                               f"{self.log.read_text()[-1000:]}")
        except BaseException:
            self.stop()  # never leave a daemon behind
            raise

    def listed(self) -> list[str] | None:
        """The readers pcscd lists now, None if it cannot be reached."""
        from smartcard import scard

        hr, ctx = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
        if hr != scard.SCARD_S_SUCCESS:
            return None
        try:
            hr, names = scard.SCardListReaders(ctx, [])
            return sorted(names) if hr == scard.SCARD_S_SUCCESS else []
        finally:
            scard.SCardReleaseContext(ctx)

    def stop(self) -> None:
        """SIGTERM the daemon and wait for it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def restart(self, channels: tuple[int, ...] | None = None) -> Pcscd:
        """Stop and start again, with other vpcd devices if ``channels`` is given."""
        self.stop()
        return self.start(*(self.channels if channels is None else channels))
