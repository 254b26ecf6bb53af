"""paho's PUBLISH decoder builds the league's ``LeanProperties`` (its tables built once) and
reads every packet's properties as paho's own ``Properties`` does."""

from __future__ import annotations

import struct
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from paho.mqtt import _packet
from paho.mqtt.enums import MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from tablesense.league.mqtt import LEAN_DECODE, LeanProperties

TOPIC = b"tablesense/pubs/kroeg/matches"

#: MQTT's UTF-8 strings: no NUL, no surrogate (paho refuses them when it reads)
NAME = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E) | st.sampled_from("éß€ü"),
               max_size=20)

#: some of the properties a PUBLISH may carry, each a strategy for its value
PUBLISH_PROPERTIES: dict[str, Any] = {
    "PayloadFormatIndicator": st.sampled_from([0, 1]),
    "MessageExpiryInterval": st.integers(0, 2**32 - 1),
    "ContentType": NAME,
    "ResponseTopic": NAME.filter(bool),
    "CorrelationData": st.binary(max_size=20),
    "TopicAlias": st.integers(1, 65535),
    "UserProperty": st.lists(st.tuples(NAME, NAME), min_size=1, max_size=3),
}


def packed(props: dict[str, Any]) -> bytes:
    """The properties' bytes as paho packs them for a PUBLISH."""
    own = Properties(PacketTypes.PUBLISH)
    for name, value in props.items():
        setattr(own, name, value)
    return own.pack()


def seen(p: Properties) -> dict[str, Any]:
    """What a decoded ``Properties`` holds: its properties, its text, its JSON."""
    fields = {k: v for k, v in vars(p).items() if k not in ("types", "names", "properties")}
    return {"fields": fields, "str": str(p), "json": p.json(), "tables": (p.types, p.names, p.properties)}


def both(*buffers: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """paho's and the lean ``Properties`` after unpacking ``buffers`` one after the other."""
    paho_own, lean = Properties(PacketTypes.PUBLISH), LeanProperties(PacketTypes.PUBLISH)
    for buf in buffers:
        assert paho_own.unpack(buf)[1] == lean.unpack(buf)[1]
    return seen(paho_own), seen(lean)


def test_paho_decodes_publish_packets_into_lean_properties() -> None:
    assert LEAN_DECODE
    packet = struct.pack("!H", len(TOPIC)) + TOPIC + struct.pack("!H", 7) + b"\x00" + b"{}"
    got = _packet.decode_publish(0x32, packet, MQTTProtocolVersion.MQTTv5)
    assert type(got.properties) is LeanProperties
    assert (got.topic, got.mid, got.qos, got.payload) == (TOPIC, 7, 1, b"{}")
    assert seen(got.properties) == seen(Properties(PacketTypes.PUBLISH))


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({}, optional=PUBLISH_PROPERTIES),
       st.fixed_dictionaries({}, optional=PUBLISH_PROPERTIES))
def test_lean_properties_unpack_as_paho_does(first: dict[str, Any], second: dict[str, Any]) -> None:
    """Any properties, and a second set unpacked into the same object (``clear`` drops the first's)."""
    paho_own, lean = both(packed(first), packed(second))
    assert lean == paho_own
    assert set(lean["fields"]) == {"packetType", *second}
