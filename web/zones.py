"""Which reader is which zone: the readers page and the zone map API.

    GET  /readers     the page: each hub's readers, which one last saw a tag, a zone for each
    GET  /api/zones   {map, file, problem, choices, hubs}
    POST /api/zones   the whole map (table token): checked, saved, applied to running hubs

The map is kept in the file of the ``zones`` setting when set (``companion serve --zones``),
else beside the games database (`companion.sensors.zone_config.default_path`). A POSTed
map is checked (400 ``bad_zone_map`` naming the bad entry: nothing saved, nothing
applied), written atomically, then given to every running adapter that takes a zone map
(``set_zones``, e.g. `companion.sensors.serial_hub.SerialHub`) in
``Runtime.running``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from companion.reconcile.observations import to_json as obs_json
from companion.sensors import zone_config
from companion.sensors.zone_map import ZoneMap, ZoneMapError
from web.access import has_table_token, require_table_token, runtime
from web.errors import ApiError
from web.inputs import json_object

__all__ = ["bp", "zone_file"]

bp = Blueprint("zones", __name__)
_save_lock = threading.Lock()


def zone_file() -> Path:
    """The zone map file this app reads and writes."""
    settings = runtime().settings
    if settings.zones is not None:
        return Path(settings.zones)
    return zone_config.default_path(runtime().store.path)


def _hub_adapters() -> list[Any]:
    from web.tags import sensors

    return [a for a in sensors().adapters() if callable(getattr(a, "set_zones", None))]


def _current() -> tuple[ZoneMap, str | None]:
    """The saved map (or, without a file, the map the running hubs use) and the reason a
    file could not be used."""
    path = zone_file()
    try:
        return zone_config.load(path), None
    except FileNotFoundError:
        pass
    except (OSError, ZoneMapError) as exc:
        return ZoneMap({}, {}), f"The saved zone map cannot be used: {exc}"
    for hub in _hub_adapters():
        if isinstance(hub.zones, ZoneMap):
            return hub.zones, None
    return ZoneMap({}, {}), None


@bp.get("/readers")
def readers_page() -> str:
    """The readers and their zones."""
    from web.pages import board_facts

    return render_template("readers.html", title="Readers", script="zones.js",
                           facts=board_facts())


@bp.get("/api/zones")
def get_zones() -> Response:
    """``map`` (the file's form), ``file``, ``problem`` (why the file is unusable, or
    None), ``choices`` ([{zone, group, label}]) and ``hubs``: each running hub adapter's
    ``name``, ``hub_id``, ``health`` and ``readers`` (rows of ``readers()``, each with
    the ``zone`` it uses now and its ``label``)."""
    from web.tags import without_uids

    zone_map, problem = _current()
    hubs = []
    table = has_table_token()
    for hub in _hub_adapters():
        rows = [{**r, "label": zone_config.label(r["zone"])} for r in hub.readers()]
        rows = rows if table else without_uids(rows)
        hubs.append({"name": hub.name, "hub_id": getattr(hub, "hub_id", None),
                     "health": obs_json(hub.health()), "readers": rows})
    return jsonify({
        "map": zone_config.to_json(zone_map),
        "file": zone_file().name,
        "problem": problem,
        "choices": [{"zone": z, "group": g, "label": w}
                    for z, (g, w) in zone_config.READER_ZONES.items()],
        "hubs": hubs,
    })


@bp.post("/api/zones")
def post_zones() -> Response:
    """The whole map as ``GET`` gives it (``{"hubs": {…}, "default": {…}}``): 200 with
    ``{map, file, applied}`` (the hub adapters that took it); 400 ``bad_zone_map`` naming
    the bad entry; 401 without the table token; 503 ``not_saved`` if the file cannot be
    written (the running hubs keep their map)."""
    require_table_token()
    body = json_object()
    try:
        zone_map = zone_config.parse(body)
    except ZoneMapError as exc:
        raise ApiError(400, "bad_zone_map", str(exc)) from None
    path = zone_file()
    with _save_lock:
        try:
            zone_config.save(path, zone_map)
        except OSError as exc:
            raise ApiError(503, "not_saved",
                           f"the zone map could not be saved to {path}: {exc}") from None
        applied = []
        for hub in _hub_adapters():
            hub.set_zones(zone_map)
            applied.append(hub.name)
    return jsonify({"map": zone_config.to_json(zone_map), "file": path.name,
                    "applied": applied})
