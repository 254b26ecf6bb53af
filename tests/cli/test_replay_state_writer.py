"""``tablesense replay --json`` writes the state one ruling at a time (``write_state``); what it
writes must be the state itself (``Replay.to_json``) after every line of a match, a log that
ends in the middle of a shot included (the shot shown as in progress)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from paths import TESTS

from tablesense.commands.replay import write_state
from tablesense.replay import Replay

MATCHES = TESTS / "matches"
LOGS = sorted(MATCHES.glob("*/*.jsonl"))


@pytest.mark.parametrize("log", LOGS, ids=[f"{p.parent.name}/{p.stem}" for p in LOGS])
def test_the_written_state_is_the_state_after_every_line(log: Path) -> None:
    lines = [line for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    rep = Replay()
    in_progress = 0
    for n, line in enumerate(lines, start=1):
        rep.feed_line(line, n)
        out = io.StringIO()
        write_state(rep, out)
        written = json.loads(out.getvalue())
        assert written == rep.to_json(), f"{log.name}: after line {n}"
        in_progress += bool(written.get("shot_in_progress"))
    if log.name == "duo.deciding__duo.jsonl":
        assert in_progress > 0  # the match's logs do stop inside shots: the check saw some


@pytest.mark.parametrize("enabled", [True, False])
def test_writing_the_state_leaves_the_collector_as_it_was(enabled: bool) -> None:
    """The rulings are written with the cycle collector paused; a program that writes a state
    (the command, a test, a screen) finds it on or off as it had it, the write failing too."""
    import gc

    log = MATCHES / "kegle" / "draw__after_last_series.jsonl"
    rep = Replay().feed_lines([x for x in log.read_text(encoding="utf-8").splitlines() if x.strip()])

    class Failing(io.StringIO):
        def write(self, text: str) -> int:
            if text.startswith('{"t"'):
                raise OSError("disk full")
            return super().write(text)

    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        out = io.StringIO()
        write_state(rep, out)
        assert json.loads(out.getvalue())["rulings"] and gc.isenabled() is enabled
        with pytest.raises(OSError):
            write_state(rep, Failing())
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_json_replay_writes_with_the_collector_paused_and_leaves_it_as_it_was(
        enabled: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``replay --json`` keeps the cycle collector paused from the replay until its state is
    written and let go of (a collection after the replay would walk every object it made again);
    the command's output is the state, and the collector is found as it was, a failing write too."""
    import gc
    from types import SimpleNamespace

    from tablesense.commands import replay as command

    log = MATCHES / "carom" / sorted(p.name for p in (MATCHES / "carom").glob("*.jsonl"))[0]
    seen: list[bool] = []
    writer = command.write_state

    def write(rep: Replay, out: io.StringIO, lang: str = "en") -> None:
        seen.append(gc.isenabled())
        writer(rep, out, lang)

    monkeypatch.setattr(command, "write_state", write)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        code = command.run(SimpleNamespace(file=str(log), json=True, lang="en"))
        assert gc.isenabled() is enabled and seen == [False]
        lines = [x for x in log.read_text(encoding="utf-8").splitlines() if x.strip()]
        assert json.loads(capsys.readouterr().out) == Replay().feed_lines(lines).to_json()
        assert code == 0
        monkeypatch.setattr(command, "write_state", lambda *_: (_ for _ in ()).throw(OSError("disk full")))
        with pytest.raises(OSError):
            command.run(SimpleNamespace(file=str(log), json=True, lang="en"))
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
