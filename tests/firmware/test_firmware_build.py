"""The firmware builds with the Debian AVR toolchain for the Uno and the Mega, fits, and
its pure logic passes its host g++ unit tests."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def test_host_unit_tests_of_the_pure_logic() -> None:
    out = subprocess.run(["make", "-s", "-C", str(FIRMWARE / "tests")], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    m = re.search(r"(\d+) checks, 0 failures", out.stdout)
    assert m and int(m.group(1)) > 50, out.stdout


@pytest.mark.parametrize(("board", "mcu", "ram"), [("uno", "atmega328p", 2048),
                                                   ("mega", "atmega2560", 8192)])
def test_builds_and_fits(board: str, mcu: str, ram: int) -> None:
    out = subprocess.run(["make", "-s", f"BOARD={board}"], cwd=FIRMWARE, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    elf = FIRMWARE / f"build-{board}" / "village_hub.elf"
    assert elf.exists() and (FIRMWARE / f"build-{board}" / "village_hub.hex").exists()
    size = subprocess.run(["avr-size", "-A", str(elf)], capture_output=True, text=True,
                          check=True).stdout
    sections = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\.(\w+)\s+(\d+)", size, re.M)}
    static_ram = sections.get("data", 0) + sections.get("bss", 0)
    # leave a quarter of the RAM to the stack
    assert static_ram < 0.75 * ram, f"{mcu}: {static_ram} bytes of static RAM"
    arch = subprocess.run(["avr-objdump", "-f", str(elf)], capture_output=True, text=True,
                          check=True).stdout
    assert f"architecture: {'avr:6' if mcu == 'atmega2560' else 'avr:5'}" in arch, arch
