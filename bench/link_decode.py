"""Host decode rate: EVENT frames per second through ``StreamDecoder.feed`` on one core.

Prints events/s for a realistic stream (16 channels, increasing times and seqs, fed in
4 KiB reads as a serial port delivers them) and the bytes per event on the wire.
"""

from __future__ import annotations

import random
import time

from tablesense.link.frame import F_ACTIVE, EventFrame, StreamDecoder, encode_frame

N = 200_000
READ = 4096


def stream(n: int) -> bytes:
    rng = random.Random(1)
    t = 1_000_000
    parts = []
    for seq in range(n):
        t += rng.randint(50, 5000)
        parts.append(encode_frame(EventFrame(seq & 0xFFFFFF, rng.randrange(16), seq & F_ACTIVE, t)))
    return b"".join(parts)


def main() -> None:
    data = stream(N)
    chunks = [data[i : i + READ] for i in range(0, len(data), READ)]
    best = float("inf")
    for _ in range(5):
        dec = StreamDecoder()
        start = time.process_time()  # CPU time of this process: one core, whatever else runs
        got = 0
        for c in chunks:
            got += len(dec.feed(c))
        best = min(best, time.process_time() - start)
        assert got == N and dec.bad == 0, (got, dec.bad)
    print(
        f"decode: {N / best:,.0f} events/s on one core ({N} EVENT frames in {READ}-byte reads, "
        "CPU time, best of 5)"
    )
    print(f"wire: {len(data) / N:.1f} bytes per event")


if __name__ == "__main__":
    main()
