"""An MQTT 5 client with a persistent session, as both ends of the hall use it (paho-mqtt).

The session outlives a disconnection (``clean_start`` False, a session expiry), so the
broker keeps a subscriber's QoS 1 messages while it is away; paho's own thread reconnects
(0.2 s, doubling to 5 s) after a broker restart or a network outage.
"""

from __future__ import annotations

from typing import Any, Final

from companion.hall.topics import BrokerUrl

__all__ = ["SESSION_EXPIRY_S", "connect"]

SESSION_EXPIRY_S: Final = 7 * 24 * 3600
"""Seconds the broker keeps a session (and its queued messages) of a client gone away."""


def connect(url: BrokerUrl, client_id: str, *, on_connect: Any = None, on_message: Any = None,
            on_disconnect: Any = None, on_subscribe: Any = None,
            keepalive: int = 10, manual_ack: bool = False) -> Any:
    """A paho client connecting in its own thread (``loop_start`` done; nothing blocks
    here, a broker that is down is retried). ``manual_ack``: a received QoS 1 message is
    acknowledged to the broker only by ``client.ack``. Raises ImportError without paho-mqtt."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv5, manual_ack=manual_ack)
    if url.username is not None:
        client.username_pw_set(url.username, url.password)
    if url.tls:
        client.tls_set(ca_certs=url.ca)  # the system's CAs unless the URL names one
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.max_queued_messages_set(0)
    if on_connect is not None:
        client.on_connect = on_connect
    if on_message is not None:
        client.on_message = on_message
    if on_disconnect is not None:
        client.on_disconnect = on_disconnect
    if on_subscribe is not None:
        client.on_subscribe = on_subscribe
    props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    props.SessionExpiryInterval = SESSION_EXPIRY_S
    client.connect_async(url.host, url.port, keepalive=keepalive, clean_start=False,
                         properties=props)
    client.loop_start()
    return client
