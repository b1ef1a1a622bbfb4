"""Every setting of the process, typed, with its default in one place.

`companion serve` builds a `Settings` from its options, `companion.runtime.Runtime` is
built from it, and `web.create_app(runtime)` reads it from the runtime. A test builds one
with only what it needs::

    Settings(db_path=tmp / "games.sqlite3", table_token="t")

`Settings` is frozen: a setting never changes while the process runs. What does change
(the box-check answers) lives in its own object (`companion.boxcheck.BoxAnswers`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final, Literal

__all__ = ["DEMO_SECONDS", "FeedLimits", "Settings"]

DEMO_SECONDS: Final = 1.8
"""Seconds between two demo actions: a pace a person watching the scoreboard can follow."""


@dataclass(frozen=True, kw_only=True)
class FeedLimits:
    """What the served app (`web.asgi`) allows: live streams, requests in progress, worker
    threads, body and catch-up pacing (docs/service.md says why each number)."""

    heartbeat: float = 2.0
    """Seconds between heartbeat comments on each live stream."""
    max_streams: int = 2000
    """Public live streams in all (``companion serve`` lowers it to fit the open-file limit)."""
    max_per_address: int = 64
    """Open public live streams from one client address."""
    max_buffered: int = 256 * 1024
    """Live bytes a slow stream may lag before it is cut."""
    max_reserved: int = 64
    """Streams opened with the table's or a player's token (their own cap)."""
    http_per_address: int = 8
    """Requests in progress from one address without the table token."""
    read_workers: int = 12
    """Flask threads for requests without the table token."""
    write_workers: int = 4
    """Flask threads reserved for requests with the table token."""
    retry_after: int = 5
    """Seconds, sent with every 503."""
    body_timeout: float = 10.0
    """Seconds a request's body may take to arrive, whole."""
    max_body: int = 4 * 1024 * 1024
    """Bytes a request's body may hold (413 above)."""
    catch_up_burst: int = 6
    """Long catch-ups one address may start at once..."""
    catch_up_per_second: float = 0.5
    """...and then this many a second."""
    catch_up_long: int = 50
    """A catch-up of more events than this is rate-limited per address."""


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The process's settings (see the module's docstring)."""

    db_path: Path | None = None
    """The games database; None: a fresh one in a temporary directory."""
    table_token: str | None = None
    """The table token; None: generated (`companion.table.tokens`)."""
    demo: bool = False
    """A game plays itself (`companion.demo.table`, or the simulated table with sensors)."""
    demo_interval: float = DEMO_SECONDS
    """Seconds between two demo actions."""
    sensors: Literal["none", "sim"] = "none"
    """``sim``: with ``demo``, the game is played on a simulated table seen by simulated
    sensors and the real reconciler."""
    sim_setup: str = "hub+camera"
    """With ``sensors="sim"``: which sensors the simulated table has."""
    sim_noise: str = "ordinary"
    """With ``sensors="sim"``: how the simulated table misbehaves."""
    pcsc: bool = False
    """Watch the PC/SC tap pad."""
    serial: tuple[str, ...] = ()
    """Serial ports of reader hubs (``"auto"``: a hub found by its hello)."""
    zones: Path | None = None
    """The hubs' reader → zone map; None: ``<db>.zones.json`` when present."""
    camera: str | None = None
    """A camera over the table: V4L2 index, video file, image folder or ``sim``."""
    camera_calibration: Path | None = None
    """The camera calibration; None: ``<db>.camera.json`` when present."""
    camera_source: str | None = None
    """Where the calibration page takes a frame when no camera adapter runs."""
    boxcheck_path: Path | None = None
    """The owner's box-check answers; None: `companion.boxcheck`'s default place."""
    public_url: str | None = None
    """The address phones use for links; None: this host's LAN address."""
    feed: FeedLimits = field(default_factory=FeedLimits)
    """The served app's limits."""
    hall: str | None = None
    """``mqtt://HOST[:PORT]``: publish the table's public events to a hall's broker
    (`companion.hall.outbox`); None: no hall."""
    hall_table: str | None = None
    """This table's name in the hall's topics; None: the host name."""

    def with_(self, **changes: object) -> Settings:
        """A copy with ``changes`` (field names). Raises TypeError for an unknown name."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def camera_calibration_file(self) -> Path | None:
        """The camera calibration in use: the one named, else ``<db>.camera.json``."""
        if self.camera_calibration is not None:
            return self.camera_calibration
        return None if self.db_path is None else self.db_path.with_suffix(".camera.json")
