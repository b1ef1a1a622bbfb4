"""The hall's names: broker URLs, table names, topics; and what serve says of a bad one."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hall.topics import (
    BrokerUrl,
    check_table_name,
    events_topic,
    parse_broker_url,
    table_of,
)
from companion.runtime import Runtime
from companion.settings import Settings


def test_broker_urls() -> None:
    assert parse_broker_url("mqtt://hall.local") == BrokerUrl("hall.local", 1883)
    assert parse_broker_url("mqtt://u:p@10.0.0.2:1884") == BrokerUrl("10.0.0.2", 1884, "u", "p")
    for bad in ("http://hall", "mqtt://", "mqtt://h:99999", "hall:1883"):
        with pytest.raises(ValueError):
            parse_broker_url(bad)


@pytest.mark.parametrize("name", ["a/b", "+", "#", "", "_hall", "x" * 65, "café"])
def test_a_table_name_cannot_escape_its_topic_tree(name: str) -> None:
    with pytest.raises(ValueError):
        check_table_name(name)


def test_topics_name_their_table() -> None:
    assert events_topic("cafe-3") == "village/hall/cafe-3/events"
    assert table_of("village/hall/cafe-3/events") == "cafe-3"
    assert table_of("village/hall/_hall/online") is None
    assert table_of("village/other/t/events") is None


def test_the_runtime_refuses_a_hall_it_cannot_use(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mqtt://"):
        Runtime(Settings(db_path=tmp_path / "g.sqlite3", hall="http://x"))
    with pytest.raises(ValueError, match="table name"):
        Runtime(Settings(db_path=tmp_path / "g.sqlite3", hall="mqtt://x", hall_table="a/b"))


def test_tls_broker_urls(tmp_path: Path) -> None:
    ca = tmp_path / "ca.pem"
    ca.write_text("x")
    assert parse_broker_url("mqtts://hall.local") == BrokerUrl("hall.local", 8883, tls=True)
    assert parse_broker_url(f"mqtts://t1:p%40ss@hall:8884?ca={ca}") == BrokerUrl(
        "hall", 8884, "t1", "p@ss", True, str(ca))
    for bad in (f"mqtt://hall?ca={ca}", "mqtts://hall?ca=/no/such/file"):
        with pytest.raises(ValueError):
            parse_broker_url(bad)
