"""The hubs' zone map file: where it lives, which zones a reader may have, save and load.

The file (format: `companion.sensors.zone_map.parse_zone_map`, explained in
``hardware.md``) lives beside the games database: ``games.sqlite3`` → ``games.zones.json``
(`default_path`). A reader's zone is a piece zone of ``docs/sensing.md`` where a reader
can sit (`READER_ZONES`, each with the words the page shows); readers the map does not
name are ``unmapped``.

    path = default_path(db)
    save(path, zone_map)      # checked, then written atomically (temp file + rename)
    zone_map = load(path)     # OSError, ZoneMapError
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from companion.sensors.zone_map import ZoneMap, ZoneMapError, parse_zone_map
from companion.village import zones as Z
from companion.village.vocabulary import Building, Color, Section

__all__ = [
    "READER_ZONES", "allowed_text", "check", "default_path", "label", "load", "save",
    "to_json",
]

_COUNCIL = {1: "lowest", 4: "highest"}
_CHURCH = {1: "right", 4: "left"}


def _cities() -> list[str]:
    from companion.village import data

    return list(data.load().city_rewards)


def _reader_zones() -> dict[str, tuple[str, str]]:
    """zone → (group, words), in the order the page offers them."""
    out: dict[str, tuple[str, str]] = {}
    for c in Color:
        out[Z.farm(c)] = ("Farms", f"{c.value.capitalize()} farm")
    out[Z.BAG] = ("Black bag", "Black bag's mouth")
    for lvl in range(1, 5):
        extra = f" ({_COUNCIL[lvl]})" if lvl in _COUNCIL else ""
        out[Z.zone(Z.COUNCIL, lvl)] = ("Council", f"Council level {lvl}{extra}")
    for w in range(1, 5):
        extra = f" ({_CHURCH[w]})" if w in _CHURCH else ""
        out[Z.zone(Z.CHURCH, w)] = ("Church", f"Church window {w}{extra}")
    for b in Building:
        if b is not Building.MILL:  # no member may stand there
            out[Z.craft(b)] = ("Craft buildings", b.value.capitalize())
    for city in _cities():
        words = "-".join(p.capitalize() for p in city.split("-"))
        out[Z.zone(Z.TRAVEL, city)] = ("Travel map", f"Travel map, {words}")
    for c in Color:
        out[Z.zone(Z.UNBORN, c)] = ("Beside the farms", f"{c.value.capitalize()}, not yet born")
    for s in Section:
        out[Z.chronicle(s)] = ("Chronicle", f"Chronicle, {s.value}")
    out[Z.GRAVES] = ("Chronicle", "Anonymous graves")
    return out


READER_ZONES: dict[str, tuple[str, str]] = _reader_zones()


def label(zone: str) -> str:
    """The words for a reader zone (the zone itself when it is not one)."""
    return READER_ZONES.get(zone, (None, zone))[1]


def allowed_text() -> str:
    """What a reader zone may be, in one sentence for error messages."""
    crafts = "|".join(b.value for b in Building if b is not Building.MILL)
    return ("a reader zone is one of farm:<colour>, unborn:<colour> (red, yellow, blue, "
            "white), bag, council:1…4, church:1…4, "
            f"craft:<{crafts}>, travel:<{'|'.join(_cities())}>, "
            "chronicle:<council|crafts|travel|church|farm>, graves")


def check(zone_map: ZoneMap) -> ZoneMap:
    """Return ``zone_map`` if every reader has a reader zone; raises ZoneMapError naming
    the first bad entry and what is allowed."""
    tables = [(f"hub {h}", t) for h, t in sorted(zone_map.hubs.items())]
    tables.append(("default", zone_map.default))
    for where, table in tables:
        for reader, zone in sorted(table.items()):
            if zone not in READER_ZONES:
                raise ZoneMapError(
                    f"{where}, reader {reader}: {zone!r} is not a zone a reader can have; "
                    f"{allowed_text()}")
    return zone_map


def parse(data: Any) -> ZoneMap:
    """JSON data → a checked ZoneMap; raises ZoneMapError naming the bad entry."""
    return check(parse_zone_map(data))


def to_json(zone_map: ZoneMap) -> dict[str, Any]:
    """The file's form: ``{"hubs": {"1": {"0": "farm:red"}}, "default": {}}``."""
    return {
        "hubs": {str(h): {str(r): z for r, z in sorted(t.items())}
                 for h, t in sorted(zone_map.hubs.items())},
        "default": {str(r): z for r, z in sorted(zone_map.default.items())},
    }


def default_path(db_path: str | Path) -> Path:
    """Where the zone map lives beside the games database: ``<db stem>.zones.json``."""
    return Path(db_path).with_suffix(".zones.json")


def load(path: str | Path) -> ZoneMap:
    """Read and check a zone map file.

    Raises OSError (FileNotFoundError when there is none), ZoneMapError (not JSON, not a
    zone map, or a zone a reader cannot have; the message names the entry)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ZoneMapError(f"{path}: not JSON: {exc}") from None
    except UnicodeDecodeError:
        raise ZoneMapError(f"{path}: not a text file") from None
    try:
        return parse(data)
    except ZoneMapError as exc:
        raise ZoneMapError(f"{path}: {exc}") from None


def save(path: str | Path, zone_map: ZoneMap) -> Path:
    """Check ``zone_map`` and write it to ``path`` atomically (a temporary file in the
    same folder, then renamed over the old file): a failed save leaves the old file whole.

    Raises ZoneMapError (a bad zone; nothing written), OSError (the folder cannot be
    written)."""
    check(zone_map)
    path = Path(path)
    text = json.dumps(to_json(zone_map), indent=2) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path
