"""Benchmark of the hardware tooling: profile loading and validation, the firmware build
(mpy-cross over every firmware file), the flash plan, and the doctor's frame rate; and each
table's power budget (tablesense.table.power) beside what a USB port gives."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from tablesense.deploy.build import build
from tablesense.deploy.doctor import Doctor
from tablesense.deploy.plan import make_plan
from tablesense.link.frame import CountFrame, EventFrame, HelloFrame
from tablesense.table.power import USB_MA, budget
from tablesense.table.profile import board_config, load_profile


def per_call(fn, n: int) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n


def main() -> None:
    for pid in ("golf", "kegle", "carom"):
        s = per_call(lambda pid=pid: load_profile(pid), 200)
        print(f"load_profile({pid!r}) with validation: {s * 1e3:.3f} ms")
    kegle = load_profile("kegle")
    print(f"board_config(kegle): {per_call(lambda: board_config(kegle), 2000) * 1e6:.1f} us")
    profiles = [load_profile(p) for p in ("golf", "kegle", "carom")]
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        arts = build(Path(tmp), profiles, profiles[0])
        mpys = sum(1 for a in arts if a.remote.endswith(".mpy"))
        took = (time.perf_counter() - t) * 1e3
        print(f"firmware build (mpy-cross -march=xtensawin, {mpys} modules, {len(arts) - mpys} others): "
              f"{took:.0f} ms")
        size = sum(a.local.stat().st_size for a in arts)
        print(f"bytes to copy to a clean board: {size}")
        on_board = {a.remote: a.sha256 for a in arts}
        on_board["/wire.mpy"] = "0" * 64
        s = per_call(lambda: make_plan("/dev/ttyUSB0", arts, on_board, "0.1.0", "golf"), 2000)
        print(f"flash plan (updated board, 1 file changed): {s * 1e6:.1f} us")
    doc = Doctor(kegle)
    doc.feed(HelloFrame(0, 0, 16, 0, 0, 0, 0, "0.1.0", "kegle"))
    frames = []
    for k in range(50_000):
        t = k * 1000
        frames.append(EventFrame(k, k % 6, k % 2, t) if k % 3 else CountFrame(k, 11 + k % 4, 2, t))
    t0 = time.perf_counter()
    for f in frames:
        doc.feed(f)
    print(f"doctor: {len(frames) / (time.perf_counter() - t0):,.0f} frames/s")
    for pid in ("golf", "kegle", "carom"):
        b = budget(load_profile(pid))
        print(f"power, {pid}: 3V3 {b.rail_3v3_ma} mA, 5 V {b.rail_5v_ma} mA, {b.usb_ma} mA through USB "
              f"(a USB port: {USB_MA} mA){': a supply for the sensors' if b.supply else ''}")


if __name__ == "__main__":
    main()
