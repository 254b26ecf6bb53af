"""A shot whose frames were lost on the line (a cut) or never read (a host restarted from
its checkpoint) gets them replayed: its events come once and in table-time order, and one
``rest`` ends it, at the quiet time after its last activity.

The first thing the host hears after the loss may be the board's heartbeat, which reports
the frames written meanwhile before any of them has come. Its time is the board's clock
now, seconds past the replayed frames: taken as the table's time, every replayed frame of
a rolling shot (the bed's motion sensor counts every 20 ms) came after its own quiet time
and got a ``rest`` of its own, and the events came out behind ones already released (the
season soak, seed 11: 156 rests in 3 s on zaal-2, table time going back).

The real firmware runs under MicroPython's unix port in real time (the carom table's
profile: four cushions and the motion sensor on pulse counters), read through
``tablesense.sim.cable.Cable``, whose ``cut`` loses every byte both ways.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tablesense.events import Cushion, Event, Rest
from tablesense.link import Checkpoint, LinkStatus, table_items
from tablesense.link.checkpoint import Dedupe
from tablesense.pub import _line
from tablesense.sim.cable import Cable
from tablesense.sim.fitl import FirmwareProcess, start_firmware
from tablesense.table.profile import board_config_json, load_profile

pytestmark = pytest.mark.micropython

PROFILE = load_profile("carom")
QUIET_S = PROFILE.rest_quiet_ms / 1000
ROLL_S = 0.8  # the balls roll this long; the motion sensor counts at every scan
CUSHIONS = (0.1, 0.35, 0.6)  # seconds into the shot: a cushion hit each (cushions 1, 2, 3)


def shot(t0_us: int) -> list[dict[str, int]]:
    edges = [{"t_us": t0_us + k * 20_000, "ch": 4, "pulses": 3} for k in range(int(ROLL_S / 0.02))]
    edges += [{"t_us": t0_us + int(s * 1e6), "ch": i, "pulses": 2} for i, s in enumerate(CUSHIONS)]
    return sorted(edges, key=lambda e: e["t_us"])


@pytest.fixture
def board(tmp_path: Path) -> tuple[FirmwareProcess, Cable]:
    path = tmp_path / "carom.json"
    path.write_text(board_config_json(PROFILE), encoding="utf-8")
    fw = start_firmware(path, realtime=True)
    cable = Cable(fw.port)
    yield fw, cable
    cable.close()
    fw.stop()


async def read(items: Any, log: list[Event], until: Any, statuses: list[LinkStatus],
               checkpoints: list[Checkpoint], dedupe: Dedupe | None = None, seconds: float = 20.0) -> None:
    """One host's life: its events into ``log`` (those ``dedupe`` says the log has, skipped,
    as the pub does) until ``until(log)``, or for ``seconds``."""

    async def go() -> None:
        async for item in items:
            if isinstance(item, Checkpoint):
                checkpoints.append(item)
            elif isinstance(item, LinkStatus):
                pass  # on_status has it
            elif dedupe is None or not dedupe.seen(_line(item)):
                log.append(item)
            if until(log):
                return

    try:
        await asyncio.wait_for(go(), seconds)
    except TimeoutError:
        pass
    finally:
        await items.aclose()


def check(log: list[Event], t0: float, said: str) -> None:
    times = [e.t for e in log]
    assert times == sorted(times), f"table time goes back: {times}\n{said}"
    cushions = [(e.cushion, round(e.t - t0, 3)) for e in log if isinstance(e, Cushion)]
    assert [c for c, _ in cushions] == [1, 2, 3], f"{log}\n{said}"
    rests = [e.t for e in log if isinstance(e, Rest)]
    last = t0 + ROLL_S - 0.02  # the last motion count
    assert len(rests) == 1, f"one rest ends the shot, not {len(rests)}: {rests}\n{said}"
    assert last + QUIET_S <= rests[0] <= last + QUIET_S + 0.1, f"{rests}\n{said}"


async def test_a_shot_whose_end_falls_in_a_cut_gets_one_rest_and_its_events_in_order(
    board: tuple[FirmwareProcess, Cable],
) -> None:
    """The line is cut 0.3 s into the shot for 2 s: the shot ends meanwhile, and the first
    thing after the cut is the board's heartbeat."""
    fw, cable = board
    log: list[Event] = []
    statuses: list[LinkStatus] = []
    t0 = 0.0

    def until(log: list[Event]) -> bool:
        nonlocal t0
        if not t0 and statuses and statuses[-1].kind == "hello":
            t0_us = int(statuses[-1].data["uptime_us"]) + 300_000
            t0 = t0_us / 1e6
            fw.send_edges(shot(t0_us))
            asyncio.get_running_loop().call_later(0.6, cable.cut, 2.0)  # 0.3 s into the shot
        return False

    items = table_items(cable.url, PROFILE, on_status=statuses.append, backoff=(0.05, 0.2))
    await read(items, log, until, statuses, [], seconds=8.0)  # the rest is due 2.6 s after the shot
    said = "\n".join(map(str, statuses))
    assert any(s.kind == "gap" for s in statuses), f"the cut lost no frame: the test proves nothing\n{said}"
    check(log, t0, said)


async def test_a_host_restarted_mid_shot_resumes_with_one_rest_and_its_events_in_order(
    board: tuple[FirmwareProcess, Cable],
) -> None:
    """The host is stopped just after the shot's first cushion; the next one starts from the
    checkpoint saved before the shot, while a cut loses its HELLO request (so that the first
    thing it hears is the board's heartbeat), and reads the shot's frames as they are
    replayed. The events the first host logged are skipped as the pub skips them."""
    fw, cable = board
    log: list[Event] = []
    statuses: list[LinkStatus] = []
    checkpoints: list[Checkpoint] = []
    t0 = 0.0

    def first(log: list[Event]) -> bool:
        nonlocal t0
        if not t0 and statuses and statuses[-1].kind == "hello":
            t0_us = int(statuses[-1].data["uptime_us"]) + 300_000
            t0 = t0_us / 1e6
            fw.send_edges(shot(t0_us))
        return any(isinstance(e, Cushion) for e in log)

    await read(table_items(cable.url, PROFILE, on_status=statuses.append), log, first, statuses, checkpoints)
    assert checkpoints, "no checkpoint before the shot"
    cp = checkpoints[-1]
    dedupe = Dedupe([_line(e) for e in log])  # what the pub logged after its checkpoint (all of it)
    cable.cut(1.2)  # the shot ends meanwhile; the new host's !hello is lost
    items = table_items(cable.url, PROFILE, resume=cp, on_status=statuses.append, backoff=(0.05, 0.2),
                        hello_timeout=10.0)
    await read(items, log, lambda _: False, statuses, checkpoints, dedupe, seconds=6.0)
    said = "\n".join(map(str, statuses))
    assert any(s.kind == "replay" for s in statuses), f"nothing was replayed: the test proves nothing\n{said}"
    check(log, t0, said)
