"""The league service's checker processes (``league/checkers.py``) over a real Mosquitto
(``league_broker``): they die with the service, even one killed outright in the middle of a
replay; one that dies is replaced and its message checked again; a message that kills its
checker every time is listed as unreadable and the next match goes on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from league_broker import Broker, broker, free_port, serve_league, wait_port  # noqa: F401 (the fixture)
from league_play import START, lines_of, long_match_lines, match_events
from test_league_edge import refusals, send
from test_league_inbox import message
from test_league_mqtt import league_db, matches, until

from tablesense.league.broker_url import parse_broker_url
from tablesense.league.checkers import default_count
from tablesense.league.limits import MAX_LOG_LINES
from tablesense.league.messages import match_id
from tablesense.league.service import LeagueService

pytestmark = pytest.mark.skipif(default_count() == 0, reason="checker processes are Linux's")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the name (None: no such process)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> list[int]:
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = _stat(int(name))
            if st is not None and int(st[1]) == pid:
                out.append(int(name))
    return out


def running(pid: int) -> bool:
    """The process exists and is no zombie (a dead child its new parent has not reaped)."""
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")


def cpu_ticks(pid: int) -> int:
    st = _stat(pid)
    return 0 if st is None else int(st[11]) + int(st[12])


async def test_a_service_killed_outright_in_a_replay_leaves_no_checker_process(
        broker: Broker, tmp_path: Path) -> None:  # noqa: F811
    db = league_db(tmp_path / "league.db")
    http = free_port()
    proc = serve_league(broker, db, http, tmp_path / "serve.log")
    try:
        kids = await until(lambda: len(children(proc.pid)) >= 2 and children(proc.pid),
                           what="the checker processes")
        before = {k: cpu_ticks(k) for k in kids}
        await send(broker, "zaal", message("zaal", long_match_lines("Cor", "Dirk", MAX_LOG_LINES)))
        await until(lambda: any(cpu_ticks(k) > before[k] + 10 for k in kids), timeout=60,
                    what="a checker replaying the long log")
        proc.send_signal(signal.SIGKILL)  # the service, in the middle of the long log's replay
        proc.wait(10)
        await until(lambda: not any(running(k) for k in kids), timeout=10,
                    what="the checkers to end with the service")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert not any(running(k) for k in kids), f"orphan checkers: {[k for k in kids if running(k)]}"


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSTOP], ids=["killed", "stops-answering"])
async def test_a_checker_killed_or_stuck_is_replaced_and_the_match_stored(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sig: signal.Signals) -> None:  # noqa: F811
    """A checker killed from outside, or stuck for good (SIGSTOP stands in for a lock a thread of
    the service held when it was forked: its silence gives it away): it is replaced, and the
    match is not left waiting for ever."""
    from tablesense.league import checkers

    monkeypatch.setattr(checkers, "ANSWER_S", 2.0)
    service = LeagueService(parse_broker_url(broker.url("league")), str(league_db(tmp_path / "league.db")),
                            on_outcome=lambda out: None, checkers=2)
    service.start()
    try:
        assert await asyncio.to_thread(service.subscriber.connected.wait, 10)
        assert service.checkers is not None
        first = service.checkers.pids()
        for pid in first:
            os.kill(pid, sig)
        await send(broker, "kroeg", message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7))))
        await until(lambda: matches(service) == [match_id("kroeg", "1", START)], timeout=60,
                    what="the match stored")
        now = service.checkers.pids()
        assert set(now) - set(first), "the checker that took the match is a new one"
        assert service.inbox.refused() == []
    finally:
        for pid in first:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        await asyncio.to_thread(service.close)
    assert not any(running(k) for k in first + now)


async def test_a_message_that_kills_its_checker_is_listed_and_the_next_goes_on(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    from tablesense.league import ingest

    real = ingest.replayed

    def fatal(rec: Any, should_stop: Any = None) -> Any:
        if rec.pub == "zaal":  # a stand-in for a log that kills the interpreter replaying it
            os._exit(9)
        return real(rec, should_stop)

    monkeypatch.setattr(ingest, "replayed", fatal)  # before the start: the checker processes have it
    service = LeagueService(parse_broker_url(broker.url("league")), str(league_db(tmp_path / "league.db")),
                            on_outcome=lambda out: None, checkers=2)
    service.start()
    try:
        assert await asyncio.to_thread(service.subscriber.connected.wait, 10)
        lines = lines_of(match_events("Ann", "Bob", 5, 7))
        await send(broker, "zaal", message("zaal", lines))
        [(pub, _, reason)] = await until(lambda: refusals(service), what="the message listed")
        assert pub == "zaal" and "its checker process died twice" in reason
        await send(broker, "kroeg", message("kroeg", lines))
        await until(lambda: matches(service) == [match_id("kroeg", "1", START)], what="the next match")
        assert service.waiting() == 0
        assert service.checkers is not None and all(running(k) for k in service.checkers.pids())
    finally:
        await asyncio.to_thread(service.close)
