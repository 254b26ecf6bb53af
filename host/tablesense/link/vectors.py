"""The shared protocol test vectors (tests/vectors/protocol.json), built from frame.py.

``python -m tablesense.link.vectors > tests/vectors/protocol.json`` writes them.
Each valid case is ``{"name", "fields", "hex"}``: ``fields`` holds ``type``, ``seq``
and the body fields, ``hex`` the bytes on the wire including the 0x00 delimiter.
Each corrupt case is ``{"name", "hex", "error"}``: a chunk the decoder must reject,
``error`` names why (cobs, crc, version, length, type). The firmware's MicroPython
test encodes every ``fields`` and compares with ``hex``; the host tests decode both.
"""

from __future__ import annotations

import json
import sys
from binascii import crc_hqx
from typing import Any

from .frame import (
    C_PRESENT,
    C_SATURATED,
    C_VALID,
    F_ACTIVE,
    F_HWCAP,
    F_LATE,
    F_REPLAY,
    T_MAX,
    ColourFrame,
    CountFrame,
    ErrorFrame,
    EventFrame,
    Frame,
    HeartbeatFrame,
    HelloFrame,
    PongFrame,
    ReadingFrame,
    cobs_encode,
    encode_frame,
    encode_payload,
    frame_to_dict,
)

VALID: list[tuple[str, Frame]] = [
    ("event: first frame after boot, channel 0 active at 1234 us", EventFrame(0, 0, F_ACTIVE, 1234)),
    ("event: idle edge, seq 1", EventFrame(1, 3, 0, 1300)),
    ("event: goal edge time from hardware capture", EventFrame(2, 1, F_ACTIVE | F_HWCAP, 5_000_000)),
    ("event: late edge found by the level scan", EventFrame(77, 9, F_ACTIVE | F_LATE, 60_020_000)),
    ("event: replayed edge", EventFrame(300, 15, F_REPLAY, 1_073_741_824)),
    ("event: every flag set", EventFrame(4, 2, F_ACTIVE | F_LATE | F_HWCAP | F_REPLAY, 4_294_967_296)),
    ("event: seq at the wrap 0xFFFFFF", EventFrame(0xFFFFFF, 4, F_ACTIVE, 123_456_789_012)),
    ("event: seq wrapped to 0 (the frame after 0xFFFFFF)", EventFrame(0, 4, 0, 123_456_789_212)),
    ("event: t at the top of 48 bits (2^48-1 us)", EventFrame(0x123456, 7, F_ACTIVE, T_MAX)),
    ("event: t just below 2^48", EventFrame(0xABCDEF, 255, 0, T_MAX - 1_000_000)),
    ("event: all-zero body (zero bytes inside the payload)", EventFrame(0, 0, 0, 0)),
    ("event: no zero byte in the payload", EventFrame(0x010203, 0x11, 0x05, 0x0102030405FF)),
    ("count: 5 pulses on channel 9", CountFrame(10, 9, 5, 2_000_000)),
    ("count: saturated at 255", CountFrame(11, 7, 255, 3_600_000_000)),
    ("reading: colour class 2 on channel 0", ReadingFrame(12, 0, 2, 1_250)),
    ("reading: colour unknown (0)", ReadingFrame(13, 1, 0, 1_260)),
    (
        "hello: golf board just booted, nothing sent yet (seq field 0xFFFFFF)",
        HelloFrame(0xFFFFFF, 120_000, 16, 0, 0, 0, 0, "0.1.0", "golf"),
    ),
    (
        "hello: kegle board, levels and counters",
        HelloFrame(
            41, 3_600_000_000, 17, 0b1_0000_0000_0000_0101, 2, 3, 1, "0.2.0", "kegle", "1.26.1", "esp32"
        ),
    ),
    ("hello: empty texts", HelloFrame(0, 0, 0, 0, 0, 0, 0, "", "")),
    (
        "hello: firmware 0.3 after a power-on, no crash",
        HelloFrame(0xFFFFFF, 95_000, 3, 0, 0, 0, 0, "0.3.0", "golf", "1.26.1", "esp32", 1, ""),
    ),
    (
        "hello: firmware 0.3 restarted by itself after a crash",
        HelloFrame(
            0xFFFFFF, 1_250_000, 16, 0, 0, 0, 0, "0.3.0", "kegle", "1.29.0", "esp32", 2,
            "#3 crash at 5412.3 s: OSError: [Errno 5] EIO (link.py line 287, in counts)",
        ),
    ),
    (
        "hello: firmware 0.3 after the watchdog",
        HelloFrame(12, 2_000_000, 4, 1, 0, 0, 0, "0.3.0", "carom", "1.26.0", "esp32", 3,
                   "#4 watchdog: the main loop stopped for over 5 s"),
    ),
    (
        "hello: firmware 0.4, its boot tag last",
        HelloFrame(0xFFFFFF, 101_000, 3, 0, 0, 0, 0, "0.4.0", "golf", "1.26.1", "esp32", 1, "", 0x9E3779B9),
    ),
    (
        "hello: firmware 0.4 after a crash, a boot tag with zero bytes",
        HelloFrame(0xFFFFFF, 1_300_000, 16, 0, 0, 0, 0, "0.4.0", "kegle", "1.29.0", "esp32", 2,
                   "#5 crash at 61.0 s: MemoryError: memory allocation failed (link.py line 12, in hello)",
                   0x00FF0000),
    ),
    (
        "hello: firmware 0.5 after a reset, the boot before's tag and last seq assigned",
        HelloFrame(0xFFFFFF, 240_000, 3, 0, 0, 0, 0, "0.5.0", "golf", "1.26.1", "esp32", 3,
                   "#9 watchdog: the main loop stopped for over 5 s", 0x0BADF00D, 0x9E3779B9, 19),
    ),
    (
        "hello: firmware 0.5, the boot before assigned no seq",
        HelloFrame(0xFFFFFF, 95_000, 16, 0, 0, 0, 0, "0.5.0", "kegle", "1.29.0", "esp32", 5, "",
                   0x00FF00FF, 0x12345678, 0xFFFFFF),
    ),
    (
        "hello: counters at u32 max",
        HelloFrame(7, T_MAX, 32, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, "0.1.0-dev", "carom"),
    ),
    ("heartbeat: quiet board (firmware 0.1, no settled time)", HeartbeatFrame(12, 1_000_000, 0, 0, 0)),
    ("heartbeat: frames still behind the send cursor, settled 0.25 s back",
     HeartbeatFrame(40, 5_000_000, 0, 0, 0, 4_750_000)),
    ("heartbeat: firmware 0.4, the boot tag after settled_us",
     HeartbeatFrame(41, 5_000_000, 0, 0, 0, 5_000_000, 0x9E3779B9)),
    ("heartbeat: boot tag 0xFFFFFFFF", HeartbeatFrame(0, 300_000, 1, 0, 2, 250_000, 0xFFFFFFFF)),
    ("heartbeat: counters saturated at 65535", HeartbeatFrame(0xFFFFFF, 86_400_000_000, 65535, 65535, 65535)),
    ("pong: token 0", PongFrame(3, 0)),
    ("pong: token 65535", PongFrame(3, 65535)),
    ("error: unknown command", ErrorFrame(5, 1, "unknown command: !bogus")),
    ("error: replay range gone", ErrorFrame(900, 3, "replay 12: oldest kept is 644")),
    ("error: no text", ErrorFrame(0, 2, "")),
    ("colour: a red ball under channel 1's sensor, class 1",
     ColourFrame(41, 1, C_VALID | C_PRESENT, 1, 2560, 1434, 589, 537)),
    ("colour: no sensor on channel 5 (status 0, zero counts)", ColourFrame(0, 5, 0, 0, 0, 0, 0, 0)),
    ("colour: saturated, counts at the ceiling", ColourFrame(0xFFFFFF, 0, C_VALID | C_PRESENT | C_SATURATED,
                                                             0, 65535, 40000, 30000, 65535)),
]

# How the firmware numbers its ERROR codes (docs/protocol.md)
ERROR_CODES = {1: "unknown command", 2: "bad argument", 3: "replay range gone", 4: "profile not found",
               5: "internal error while answering", 6: "sensor bus fault"}


def _wire_of_payload(payload: bytes) -> str:
    return (cobs_encode(payload) + b"\0").hex()


def _with_crc(data: bytes) -> bytes:
    return data + crc_hqx(data, 0xFFFF).to_bytes(2, "little")


def corrupt_cases() -> list[dict[str, Any]]:
    good = encode_payload(EventFrame(5, 3, F_ACTIVE, 123_456_789))
    flipped = bytearray(good)
    flipped[6] ^= 0x10
    wire_ok = cobs_encode(good)
    return [
        {"name": "crc: one bit flipped in t_us", "hex": _wire_of_payload(bytes(flipped)), "error": "crc"},
        {
            "name": "crc: crc bytes swapped",
            "hex": _wire_of_payload(good[:-2] + good[-1:-3:-1]),
            "error": "crc",
        },
        {
            "name": "version: 2 instead of 1",
            "hex": _wire_of_payload(_with_crc(bytes([0x21]) + good[1:-2])),
            "error": "version",
        },
        {
            "name": "type: 0x0 is no frame type",
            "hex": _wire_of_payload(_with_crc(bytes([0x10]) + good[1:-2])),
            "error": "type",
        },
        {
            "name": "type: 0xF is no frame type",
            "hex": _wire_of_payload(_with_crc(bytes([0x1F]) + good[1:-2])),
            "error": "type",
        },
        {
            "name": "length: event body one byte short",
            "hex": _wire_of_payload(_with_crc(good[:-3])),
            "error": "length",
        },
        {
            "name": "length: payload shorter than header+seq+crc",
            "hex": _wire_of_payload(_with_crc(b"\x11\x00")),
            "error": "length",
        },
        {
            "name": "cobs: code byte points past the end",
            "hex": (bytes([0x20]) + wire_ok[1:] + b"\0").hex(),
            "error": "cobs",
        },
        {"name": "cobs: frame cut short (tail lost)", "hex": (wire_ok[:9] + b"\0").hex(), "error": "cobs"},
    ]


def build() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for name, frame in VALID:
        payload = encode_payload(frame)
        cases.append(
            {
                "name": name,
                "fields": frame_to_dict(frame),
                "payload": payload.hex(),
                "hex": encode_frame(frame).hex(),
            }
        )
    cases.extend(corrupt_cases())
    return cases


def dumps() -> str:
    return "[\n" + ",\n".join(json.dumps(c) for c in build()) + "\n]\n"


if __name__ == "__main__":
    sys.stdout.write(dumps())
