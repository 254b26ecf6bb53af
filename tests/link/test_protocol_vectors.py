"""The shared hex vectors (tests/vectors/protocol.json) against the host's frame codec."""

from __future__ import annotations

import json
from binascii import crc_hqx

import pytest
from paths import TESTS

from tablesense.errors import BadFrame
from tablesense.link import vectors
from tablesense.link.frame import decode_frame, encode_frame, frame_from_dict, frame_to_dict

FILE = TESTS / "vectors" / "protocol.json"
CASES = json.loads(FILE.read_text())
VALID = [c for c in CASES if "fields" in c]
CORRUPT = [c for c in CASES if "error" in c]
ERROR_WORDS = {
    "crc": "CRC",
    "version": "version",
    "type": "unknown frame type",
    "cobs": "COBS",
    "length": "bytes",
}


def test_file_is_what_the_generator_writes() -> None:
    assert FILE.read_text() == vectors.dumps()


def test_every_frame_type_and_edge_is_covered() -> None:
    assert {c["fields"]["type"] for c in VALID} == {
        "event",
        "count",
        "reading",
        "hello",
        "heartbeat",
        "pong",
        "error",
        "colour",
    }
    seqs = {c["fields"]["seq"] for c in VALID}
    assert {0, 0xFFFFFF} <= seqs
    assert max(c["fields"].get("t_us", 0) for c in VALID) == 2**48 - 1
    assert any(b"\0" in bytes.fromhex(c["payload"]) for c in VALID)
    hellos = [c["fields"] for c in VALID if c["fields"]["type"] == "hello"]
    assert {h.get("reset_cause") for h in hellos} >= {None, 1, 2, 3}  # before 0.3, and its causes
    assert any(h.get("crash") for h in hellos)
    assert {c["error"] for c in CORRUPT} == set(ERROR_WORDS)


def test_crc_is_ccitt_false() -> None:
    assert crc_hqx(b"123456789", 0xFFFF) == 0x29B1  # the catalogue check value


@pytest.mark.parametrize("case", VALID, ids=[c["name"] for c in VALID])
def test_valid_vector_round_trips(case: dict) -> None:
    wire = bytes.fromhex(case["hex"])
    assert wire.endswith(b"\0") and b"\0" not in wire[:-1]
    frame = decode_frame(wire)
    assert frame_to_dict(frame) == case["fields"]
    assert encode_frame(frame_from_dict(case["fields"])) == wire
    if case["fields"]["type"] in ("event", "count", "reading"):
        assert len(wire) == 16  # the contract: at most 16 bytes on the wire


@pytest.mark.parametrize("case", CORRUPT, ids=[c["name"] for c in CORRUPT])
def test_corrupt_vector_is_rejected_with_its_reason(case: dict) -> None:
    with pytest.raises(BadFrame, match=ERROR_WORDS[case["error"]]):
        decode_frame(bytes.fromhex(case["hex"]))
