"""SIGKILL the host at random moments of a simulated match (the simulator's golf, keglebillard
and carom matches), restart it: the state after the restart equals the state before, and no
event is lost or applied twice."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablesense.pub import Pub
from tablesense.replay import Replay
from tablesense.store import Store

# The host: resumes the table's event stream where the log ends (as the link does when it
# asks the firmware to replay what it missed), logs and applies each event, and prints
# "<events logged> <digest of the match state>" after each one.
HOST = r"""
import asyncio, hashlib, json, sys
from tablesense.events import parse_line
from tablesense.pub import Pub
from tablesense.store import Store, Writer
db, path = sys.argv[1], sys.argv[2]
lines = open(path).read().splitlines()

async def main():
    pub = Pub(Store(db), ["1"], writer=Writer(db))  # as `tablesense run` does
    done = pub.store.db.execute("SELECT count(*) FROM events WHERE table_id='1'").fetchone()[0]
    for line in lines[done:]:
        await pub.submit_async("1", parse_line(line), source="table")
        done += 1
        state = json.dumps(pub.snapshot("1")["state"], sort_keys=True)
        print(done, hashlib.sha1(state.encode()).hexdigest(), flush=True)
        await asyncio.sleep(0.003)
    print("end", flush=True)

asyncio.run(main())
"""


def _simulated(game: str, seed: int, limit: int = 80) -> list[str]:
    """The first events of a match played by the simulator (set-up included)."""
    from tablesense.sim.match import simulated_match

    async def collect() -> list[str]:
        out: list[str] = []
        async for event in simulated_match(game, seed=seed, speed=0, full_info=False):
            out.append(json.dumps(event.to_dict()))
            if len(out) == limit:
                break
        return out

    return asyncio.run(collect())


def _digest(pub: Pub) -> str:
    return hashlib.sha1(json.dumps(pub.snapshot("1")["state"], sort_keys=True).encode()).hexdigest()


def _host(db: Path, match: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-c", HOST, str(db), str(match)], stdout=subprocess.PIPE,
                            text=True, env=env)


@pytest.mark.parametrize(("game", "seed"), [("golf", 1), ("kegle", 2), ("carom", 3)])
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path, game: str, seed: int) -> None:
    rng = random.Random(seed)
    lines = _simulated(game, seed)
    assert json.loads(lines[0])["type"] == "setup"
    assert Replay().feed_lines(lines).to_json()["rulings"]  # a match with something to lose
    match = tmp_path / "match.jsonl"
    match.write_text("\n".join(lines) + "\n")
    db = tmp_path / "pub.db"
    kills = 0
    while kills < 3:
        host = _host(db, match)
        assert host.stdout is not None
        seen: list[tuple[int, str]] = []
        wait_for = rng.randint(1, 12)
        for out in host.stdout:
            if out.startswith("end"):
                break
            n, digest = out.split()
            seen.append((int(n), digest))
            if len(seen) >= wait_for:
                time.sleep(rng.uniform(0, 0.004))  # inside the next event, or between two
                host.send_signal(signal.SIGKILL)
                break
        host.wait(10)
        # what the host printed before it died (it may be ahead of what we had read)
        for out in host.stdout.read().splitlines():
            if out.startswith("end"):
                break
            n, digest = out.split()
            seen.append((int(n), digest))
        if host.returncode != -signal.SIGKILL:
            break  # the match ran out before the kill
        kills += 1
        store = Store(str(db))
        pub = Pub(store, ["1"])
        logged = [e.line for e in store.events(pub.table("1").match.id)]  # type: ignore[union-attr]
        last_n, last_digest = seen[-1]
        assert len(logged) in (last_n, last_n + 1), "an event was lost or logged twice"
        assert [json.loads(x) for x in logged] == [json.loads(x) for x in lines[: len(logged)]]
        assert pub.snapshot("1")["state"] == Replay().feed_lines(lines[: len(logged)]).to_json()
        if len(logged) == last_n:
            assert _digest(pub) == last_digest  # the state after restart == the state before
        store.close()
    assert kills >= 1
    host = _host(db, match)  # the rest of the match
    out, _ = host.communicate(timeout=30)
    assert out.strip().endswith("end")
    pub = Pub(Store(str(db)), ["1"])
    logged = [json.loads(e.line) for e in pub.store.events(pub.table("1").match.id)]  # type: ignore[union-attr]
    assert logged == [json.loads(x) for x in lines]
    assert pub.snapshot("1")["state"] == Replay().feed_lines(lines).to_json()
