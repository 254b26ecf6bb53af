"""Host decode rate: EVENT frames per second through ``StreamDecoder.feed`` on one core,
beside its anchor measured in the same run.

The stream: 200,000 EVENT frames of 16 channels, increasing times and seqs. The anchor:
a bare loop over the same reads that does only what every decoder of this format must,
with the ``cobs`` package's C extension: split at the delimiters, ``cobs.cobs.decode``,
``binascii.crc_hqx`` of the payload against its CRC, ``struct.unpack_from`` of the
fields (no records built, no checks of length, version or type, no error kept).

Printed for 4 KiB reads (as a serial port hands over a burst or a replay; the figure of
issue 27) and for a frame a read (16 bytes, as a quiet table's frames come one by one:
the decoder's chunk-by-chunk path): events/s of the anchor and of ``feed``, and their
ratio; CPU time of this process, best of 7, all four interleaved.

Run: .venv/bin/python bench/link_decode.py
"""

from __future__ import annotations

import random
import struct
import time
from binascii import crc_hqx
from collections.abc import Callable

from cobs.cobs import decode as cobs_decode

from tablesense.link.frame import F_ACTIVE, EventFrame, StreamDecoder, encode_frame

N = 200_000
READ = 4096
ROUNDS = 7


def stream(n: int) -> bytes:
    rng = random.Random(1)
    t = 1_000_000
    parts = []
    for seq in range(n):
        t += rng.randint(50, 5000)
        parts.append(encode_frame(EventFrame(seq & 0xFFFFFF, rng.randrange(16), seq & F_ACTIVE, t)))
    return b"".join(parts)


def anchor(reads: list[bytes]) -> int:
    """The bare loop: C COBS + crc_hqx + unpack_from over every frame of the reads."""
    fields = struct.Struct("<IBBIH").unpack_from
    crc = struct.Struct("<H").unpack_from
    n = 0
    rest = b""
    for data in reads:
        chunks = (rest + data).split(b"\0")
        rest = chunks.pop()
        for chunk in chunks:
            if chunk:
                p = cobs_decode(chunk)
                if crc_hqx(p[:-2], 0xFFFF) == crc(p, len(p) - 2)[0]:
                    fields(p)
                    n += 1
    return n


def feed(reads: list[bytes]) -> int:
    dec = StreamDecoder()
    n = 0
    for data in reads:
        n += len(dec.feed(data))
    assert dec.bad == 0, dec.errors[:3]
    return n


def best(fn: Callable[[list[bytes]], int], reads: list[bytes], times: list[float]) -> None:
    """One timed run of fn over the reads, its CPU time appended to times."""
    start = time.process_time()  # CPU time of this process: one core, whatever else runs
    got = fn(reads)
    times.append(time.process_time() - start)
    assert got == N, (fn.__name__, got)


def main() -> None:
    data = stream(N)
    ways = {f"{READ}-byte reads": [data[i : i + READ] for i in range(0, len(data), READ)],
            "a frame a read": [data[i : i + 16] for i in range(0, len(data), 16)]}
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(ROUNDS):  # interleaved: a change in the machine's load hits all of them
        for way, reads in ways.items():
            for fn in (anchor, feed):
                best(fn, reads, times.setdefault((way, fn.__name__), []))
    print(f"frame decode, {N:,} EVENT frames, one core (CPU time, best of {ROUNDS}, interleaved):")
    for way in ways:
        a = N / min(times[way, "anchor"])
        r = N / min(times[way, "feed"])
        print(f"  {way}: anchor (C COBS + crc_hqx + unpack_from, bare loop) {a:>10,.0f} events/s")
        print(f"  {way}: StreamDecoder.feed {r:>44,.0f} events/s  {r / a:5.2f}x the anchor")
    print(f"wire: {len(data) / N:.1f} bytes per event")


if __name__ == "__main__":
    main()
