"""The tap pad in the service: a real pcscd with vpcd's virtual reader, the `PcscPad` the
`Runtime` builds (``PCSC``), an unknown tag at play time shown on the tags page, enrolled on
the spot through the API, then recognised by the reconciler's next tap."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from pcscdkit import READER_0, Pcscd
from vcard import VirtualTag

from companion.runtime import Runtime
from companion.settings import Settings
from web import create_app

TOKEN = "pad-table-token"
AUTHZ = {"Authorization": f"Bearer {TOKEN}"}  # taps name tag UIDs: the table only
UID = "04A2B3C4D5E680"


def _wait(check: Any, timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if got := check():
            return got
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_unknown_tag_enrolled_on_the_spot(pcscd: Pcscd, tmp_path: Path) -> None:
    with Runtime(Settings(db_path=tmp_path / "g.sqlite3", table_token=TOKEN, pcsc=True)) as rt:
        rt.service.new_game(["red", "blue"])
        client = create_app(rt).test_client()
        _wait(lambda: [a for a in client.get("/api/sensors").get_json()["adapters"]
                       if a["name"] == "pad" and a["health"]["state"] == "up"])
        last = client.get("/api/tags/taps", headers=AUTHZ).get_json()["last"]
        with VirtualTag(UID, 35963):
            taps = client.get(f"/api/tags/taps?after={last}&wait=5", headers=AUTHZ).get_json()["taps"]
        assert [(t["uid"], t["piece"], t["reader"]) for t in taps] == [(UID, None, READER_0)]
        r = client.post("/api/tags/enrol", json={"uid": UID, "piece": "red-1a"},
                        headers={"Authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 201, r.get_json()
        time.sleep(0.8)  # lifted
        with VirtualTag(UID, 35963):
            taps = client.get(f"/api/tags/taps?after={taps[-1]['seq']}&wait=5",
                              headers=AUTHZ).get_json()["taps"]
        assert [(t["uid"], t["piece"]) for t in taps] == [(UID, "red-1a")]
        # the same tap reached the reconciler (its taps since the last commit)
        assert _wait(lambda: "red-1a" in rt.reconciler.table.tapped(), 5)
