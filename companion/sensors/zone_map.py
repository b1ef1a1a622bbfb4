"""The zone map: which piece zone each reader of each hub sits under (``hardware.md``).

    zones = parse_zone_map({"hubs": {"1": {"0": "farm:red"}}, "default": {"0": "bag"}})
    zones.zone(1, 0)      # "farm:red"; a reader the map does not name: "unmapped"

This module is the file's format only; where the file lives, which zones a reader may
have, and saving and loading it are `companion.sensors.zone_config`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["UNMAPPED", "ZoneMap", "ZoneMapError", "parse_zone_map"]

UNMAPPED = "unmapped"


class ZoneMapError(ValueError):
    """A zone map file that is not one (see ``hardware.md``)."""


@dataclass(frozen=True, slots=True)
class ZoneMap:
    """Reader → zone, per hub id; ``default`` applies to hubs the file does not list."""

    hubs: Mapping[int, Mapping[int, str]]
    default: Mapping[int, str]

    def zone(self, hub_id: int | None, reader: int) -> str:
        table = self.hubs.get(hub_id, self.default) if hub_id is not None else self.default
        return table.get(reader, UNMAPPED)


def parse_zone_map(data: Any) -> ZoneMap:
    """``{"hubs": {"1": {"0": "farm:red", …}}, "default": {…}}`` → ZoneMap.

    Raises ZoneMapError naming what is wrong."""
    if not isinstance(data, Mapping) or set(data) - {"hubs", "default"}:
        raise ZoneMapError('a zone map is {"hubs": {hub id: {reader: zone}}, "default": {…}}')

    def table(t: Any, where: str) -> dict[int, str]:
        if not isinstance(t, Mapping):
            raise ZoneMapError(f"{where}: expected {{reader: zone}}")
        out: dict[int, str] = {}
        for k, v in t.items():
            if not str(k).isdigit() or not isinstance(v, str) or not v:
                raise ZoneMapError(f"{where}: {k!r}: {v!r} is not reader index: zone")
            out[int(k)] = v
        return out

    hubs_raw = data.get("hubs", {})
    if not isinstance(hubs_raw, Mapping):
        raise ZoneMapError("hubs: expected {hub id: {reader: zone}}")
    hubs: dict[int, dict[int, str]] = {}
    for h, t in hubs_raw.items():
        if not str(h).isdigit():
            raise ZoneMapError(f"hubs: {h!r} is not a hub id")
        hubs[int(h)] = table(t, f"hub {h}")
    return ZoneMap(hubs, table(data.get("default", {}), "default"))
