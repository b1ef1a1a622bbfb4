"""``companion serve``: options, the demo table, the token file, and the deploy files."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from servicekit import REPO, ServerProcess

from companion import addresses, serve
from companion.bench.sse import SSEClient


def test_options_and_defaults() -> None:
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args([])
    assert (args.host, args.port, args.db, args.token, args.demo) == (
        "0.0.0.0",
        8000,
        None,
        None,
        False,
    )
    assert args.threads >= 2  # Flask threads; live streams hold none (web.asgi)
    args = parser.parse_args(["--port", "9", "--db", "x.db", "--token", "t", "--demo"])
    assert (args.port, args.db, args.token, args.demo) == (9, Path("x.db"), "t", True)


def test_token_file_is_made_once_and_private(tmp_path: Path) -> None:
    path = tmp_path / "games.token"
    token = serve.load_or_make_token(path)
    assert len(token) >= 32
    assert path.stat().st_mode & 0o777 == 0o600
    assert serve.load_or_make_token(path) == token


def test_lan_address_of_a_given_host_is_itself() -> None:
    assert addresses.lan_address("127.0.0.1") == "127.0.0.1"


def test_demo_table_plays_by_itself(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory("--demo", "--speed", "0.2")
    with SSEClient("127.0.0.1", server.port, timeout=15) as sse:
        events = [sse.next_event().json() for _ in range(6)]
    sources = {e["source"] for e in events}
    assert sources & {"demo", "virtual_bag"}
    seqs = [e["seq"] for e in events if e["kind"] == "action"]
    assert seqs == sorted(seqs) and len(seqs) >= 4
    assert all(e["state"]["game_id"] == events[0]["game_id"] for e in events)


def test_serve_prints_url_token_and_qr(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            str(tmp_path / "db" / "g.sqlite3"),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(5)]
        qr = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stdout:
            proc.stdout.close()
    token = (tmp_path / "db" / "g.token").read_text().strip()
    assert lines[2].startswith("village-companion: scoreboard http://127.0.0.1:")
    assert lines[3].startswith("village-companion: table URL http://127.0.0.1:")
    assert lines[3].rstrip().endswith(f"/play#token={token}")
    assert lines[4].strip() == f"village-companion: table token {token}"
    assert "█" in qr
    assert proc.returncode == 0  # SIGTERM is a clean stop


def _unit() -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    text = (REPO / "deploy" / "village-companion.service").read_text().replace("\\\n", " ")
    for line in text.splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            keys.setdefault(key.strip(), []).append(value.strip())
    return keys


def test_systemd_unit_restarts_and_starts_at_boot() -> None:
    unit = _unit()
    assert unit["Restart"] == ["on-failure"]
    assert "network-online.target" in unit["After"][0]
    assert "network-online.target" in unit["Wants"][0]
    assert unit["WantedBy"] == ["multi-user.target"]
    assert "-m companion.serve" in unit["ExecStart"][0]
    assert unit["User"] == ["village"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_unit_verifies() -> None:
    out = subprocess.run(
        ["systemd-analyze", "verify", str(REPO / "deploy" / "village-companion.service")],
        capture_output=True,
        text=True,
    )
    problems = [
        line
        for line in (out.stdout + out.stderr).splitlines()
        if line.strip() and "is not executable" not in line
    ]
    assert problems == []


def test_install_script_parses() -> None:
    script = REPO / "deploy" / "install.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    assert script.stat().st_mode & 0o111


def _stop(proc: subprocess.Popen[str]) -> int:
    """SIGTERM to a server started here and its exit code (10 s at most); killed and its
    pipe closed however that ends, so no process outlives its test."""
    proc.terminate()
    try:
        return proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        if proc.stdout:
            proc.stdout.close()


def test_demo_prints_both_urls_and_its_pace(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion.serve", "--host", "127.0.0.1", "--port", "0"),
            *("--db", str(tmp_path / "d.sqlite3"), "--demo", "--no-qr", "--speed", "2.5"),
            *("--public-url", "http://table.example:8000/"),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline().rstrip() for _ in range(6)]
    finally:
        code = _stop(proc)
    assert code == 0, "stopped by SIGTERM during start-up: a clean exit"
    assert "village-companion: scoreboard http://table.example:8000/" in lines
    assert any(
        x.startswith("village-companion: table URL http://table.example:8000/play#token=")
        for x in lines
    )
    assert "village-companion: demo: one action every 2.5 s (--speed to change)" in lines


def test_sigterm_at_any_moment_of_start_up_is_a_clean_stop(tmp_path: Path) -> None:
    """SIGTERM after each line the server prints while starting, and once it serves: each
    time it exits 0 within 10 s. (A CI run caught the start-up's SIGTERM swallowed — the
    handler's SystemExit raised inside a weakref callback, "Exception ignored" — and the
    server ran on; that race cannot be forced here, so this checks the moments around it.)"""
    for after in range(1, 7):
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1", "--port", "0",
             "--db", str(tmp_path / f"s{after}.sqlite3"), "--no-qr"],
            cwd=REPO, stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            lines = [proc.stdout.readline() for _ in range(min(after, 5))]
            if after == 6:  # serving: the scoreboard answers, then the signal
                port = int(lines[1].rstrip().rsplit(":", 1)[1])
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
                    assert page.status == 200
        finally:
            code = _stop(proc)
        assert code == 0, f"SIGTERM after {after} step(s) of start-up: exit {code}"


def test_public_url_never_loopback_unless_given() -> None:
    from web.pages import public_base

    lan = lambda: "192.168.1.20"  # noqa: E731
    assert public_base(None, "http://127.0.0.1:8000/", lan) == "http://192.168.1.20:8000"
    assert public_base(None, "http://localhost:8000/", lan) == "http://192.168.1.20:8000"
    assert public_base(None, "http://192.168.1.5:8000/", lan) == "http://192.168.1.5:8000"
    assert public_base("http://127.0.0.1:9/", "http://x/", lan) == "http://127.0.0.1:9"
    assert addresses.public_url("http://t:1/", "0.0.0.0", 5) == "http://t:1"
    assert addresses.public_url(None, "10.0.0.7", 5) == "http://10.0.0.7:5"


def test_speed_must_be_positive() -> None:
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    assert parser.parse_args([]).speed == serve.DEMO_SECONDS
    assert serve.run(parser.parse_args(["--speed", "0"])) == 2
