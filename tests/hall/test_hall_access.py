"""One credential per table on a real Mosquitto: a table publishes only under its own topic,
a wrong password or none is refused, the hall and the tables work with theirs; and the same
over TLS with a self-signed certificate."""

from __future__ import annotations

import json
import random
import shutil
import socket
import ssl
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from hallkit import Broker, hall_rows, need, play, published_form, wait_until

from companion.hall.access import HALL_USER, Access, acl_text, hash_password
from companion.hall.ingest import Hall
from companion.hall.outbox import HallPublisher
from companion.hall.topics import ROOT, events_topic, parse_broker_url, state_topic
from companion.store import EventStore
from companion.table import TableService


def _secured(tmp_path: Path, access: Access, tls: str = "") -> Broker:
    need("paho.mqtt")
    broker = Broker(tmp_path, f"allow_anonymous false\npassword_file {access.passwd}\n"
                    f"acl_file {access.acl}\n{tls}", scheme="mqtts" if tls else "mqtt")
    broker.start()
    return broker


def _client(broker: Broker, user: str | None, password: str | None,
            ca: str | None = None) -> tuple[Any, threading.Event, list[Any], list[Any]]:
    """A paho client; (client, connected, reasons given at connect, messages received)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    if user is not None:
        c.username_pw_set(user, password)
    if ca is not None:
        c.tls_set(ca_certs=ca)
    ok = threading.Event()
    reasons: list[Any] = []
    got: list[Any] = []

    def on_connect(client: Any, u: Any, flags: Any, reason: Any, props: Any) -> None:
        reasons.append(reason)
        if not reason.is_failure:
            ok.set()
    c.on_connect = on_connect
    c.on_message = lambda client, u, m: got.append((m.topic, m.payload))
    c.connect_async("127.0.0.1", broker.port)
    c.loop_start()
    return c, ok, reasons, got


def test_the_password_hash_is_mosquittos() -> None:
    # PBKDF2-HMAC-SHA512, 101 rounds, salt and digest in base64 ($7$, as mosquitto_passwd)
    h = hash_password("secret", b"0123456789ab")
    kind, rounds, salt, digest = h.split("$")[1:]
    assert (kind, rounds, salt) == ("7", "101", "MDEyMzQ1Njc4OWFi")
    assert len(digest) == 88  # 64 bytes in base64
    assert hash_password("secret", b"0123456789ab") == h != hash_password("secret")


def test_the_acl_names_each_tables_own_topics_only() -> None:
    text = acl_text(["t1"])
    assert f"user {HALL_USER}\ntopic readwrite {ROOT}/#" in text
    assert "user t1\ntopic write village/hall/t1/events\ntopic write village/hall/t1/state\n" \
        "topic read village/hall/t1/ack\ntopic read village/hall/_hall/online" in text
    with pytest.raises(ValueError):
        Access(Path("/nonexistent")).add_table("a/#")


def test_a_table_cannot_publish_under_another_tables_topic(tmp_path: Path) -> None:
    access = Access(tmp_path / "access")
    pw_a, pw_b = access.add_table("a"), access.add_table("b")
    broker = _secured(tmp_path, access)
    clients = []
    try:
        hall, hall_ok, _, seen = _client(broker, HALL_USER, access.hall_password())
        clients.append(hall)
        assert hall_ok.wait(10)
        hall.subscribe(f"{ROOT}/#", qos=1)
        hall.publish(f"{ROOT}/probe", b"", qos=1)
        wait_until(lambda: bool(seen), 10, "the hall's subscription")
        seen.clear()
        table_a, a_ok, _, _ = _client(broker, "a", pw_a)
        clients.append(table_a)
        assert a_ok.wait(10)
        for topic in (events_topic("b"), state_topic("b"), f"{ROOT}/b/ack", f"{ROOT}/_hall/online",
                      events_topic("a")):
            table_a.publish(topic, json.dumps({"from": "a", "to": topic}), qos=1).wait_for_publish(5)
        wait_until(lambda: any(t == events_topic("a") for t, _ in seen), 10, "a's own message")
        table_a.publish(state_topic("a"), b"{}", qos=1).wait_for_publish(5)
        wait_until(lambda: any(t == state_topic("a") for t, _ in seen), 10, "a's state")
        assert sorted(t for t, _ in seen) == [events_topic("a"), state_topic("a")]
        # a wrong password, another table's password, no password: refused
        for user, password in (("a", "wrong"), ("a", pw_b), (None, None), ("c", pw_a)):
            c, c_ok, reasons, _ = _client(broker, user, password)
            clients.append(c)
            wait_until(lambda r=reasons: bool(r), 10, "the broker's answer")
            assert reasons[0].is_failure and not c_ok.is_set(), (user, reasons)
        # taken away: refused once the broker has read its files again (SIGHUP)
        assert access.remove_table("a")
        assert broker.proc is not None
        broker.proc.send_signal(1)

        def refused() -> bool:
            c, _ok, reasons, _ = _client(broker, "a", pw_a)
            clients.append(c)
            wait_until(lambda: bool(reasons), 10, "the broker's answer")
            return bool(reasons[0].is_failure)
        wait_until(refused, 10, "a's credential to be refused")
    finally:
        for c in clients:
            c.loop_stop()
            c.disconnect()
        broker.stop()


def _game_through(broker_url: str, hall_url: str, dsn: str, tmp_path: Path) -> None:
    """A game of table ``a`` through the hall with the given URLs: the hall holds it."""
    service = TableService(EventStore(tmp_path / "a.sqlite3"), "tok")
    pub = HallPublisher(service.store.path, "a", parse_broker_url(broker_url), poll=0.1)
    service.add_listener(pub.wake)
    hall = Hall(parse_broker_url(hall_url), dsn)
    try:
        hall.start()
        pub.start()
        service.new_game(["red", "blue"])
        play(service, random.Random(4), 40)
        want = published_form("a", service.store)
        wait_until(lambda: [tuple(r) for r in hall_rows(dsn, "a")] == want, 20,
                   "the hall to hold a's game")
        wait_until(lambda: pub.acked().get(1) == service.seq(), 10, "the acknowledgement")
    finally:
        pub.stop()
        hall.stop()
        service.store.close()


def test_a_table_and_the_hall_with_their_credentials(tmp_path: Path, dsn: str) -> None:
    access = Access(tmp_path / "access")
    pw = access.add_table("a")
    broker = _secured(tmp_path, access)
    try:
        _game_through(f"mqtt://a:{pw}@127.0.0.1:{broker.port}",
                      f"mqtt://{HALL_USER}:{access.hall_password()}@127.0.0.1:{broker.port}",
                      dsn, tmp_path)
    finally:
        broker.stop()


def test_over_tls_with_a_self_signed_certificate(tmp_path: Path, dsn: str) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True, timeout=30)
    access = Access(tmp_path / "access")
    pw = access.add_table("a")
    broker = _secured(tmp_path, access, f"certfile {cert}\nkeyfile {key}\n")
    try:
        # without the café's CA the certificate is not trusted (the system's CAs only)
        with pytest.raises(ssl.SSLCertVerificationError), \
                socket.create_connection(("127.0.0.1", broker.port), 5) as raw, \
                ssl.create_default_context().wrap_socket(raw, server_hostname="127.0.0.1"):
            pass
        trusting = ssl.create_default_context(cafile=str(cert))
        with socket.create_connection(("127.0.0.1", broker.port), 5) as raw, \
                trusting.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            assert tls.version() in ("TLSv1.2", "TLSv1.3")
        base = f"127.0.0.1:{broker.port}?ca={cert}"
        _game_through(f"mqtts://a:{pw}@{base}",
                      f"mqtts://{HALL_USER}:{access.hall_password()}@{base}", dsn, tmp_path)
    finally:
        broker.stop()
