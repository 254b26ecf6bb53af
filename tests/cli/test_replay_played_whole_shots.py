"""A played table (``Replay()``, ``feed_lines``: every undo kept, ``play``) takes a whole shot at
once (``ShotEngine.whole_played``: its states before shots cut where ``play`` cuts them,
``_shallow``, found by eight links walked unrolled, ``_eight_deep``) and a pin set up between
shots in one step (``held_pin_played``): every recorded match of every game, logged as recorded
and with undos among its shots, and the bench's long matches (chains of states before shots cut
over and over), end in the same state, links and all, with the fast paths as without them, and an
undo after another from it reaches the same states; with a state kept whole every few events too."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest
from paths import MATCHES, ROOT
from test_replay_fast_paths import ways
from test_replay_played_shot_and_call import shape, walked

from tablesense.replay import Replay
from tablesense.rules import shot_engine
from tablesense.rules.shot_engine import ShotEngine

LOGS = sorted(MATCHES.glob("*/*.jsonl"))
#: the ways of logging a match tried here (``test_replay_fast_paths.ways``)
WAYS = ("as recorded", "an undo after every third rest", "two undos after every fifth rest",
        "an undo while the balls roll, every fourth shot", "no strike sensor")


def played(lines: list[str]) -> tuple[Any, ...]:
    rep = Replay().feed_lines(lines)
    return shape(rep.state, {}), rep.errors, rep.to_json(), rep.events, walked(rep)


def _slow(monkeypatch: pytest.MonkeyPatch) -> None:
    todo: list[type[ShotEngine[Any]]] = [ShotEngine]
    while todo:
        cls = todo.pop()
        monkeypatch.setattr(cls, "takes_whole", False)
        monkeypatch.setattr(cls, "takes_called", False)
        monkeypatch.setattr(cls, "takes_held", False)
        todo += cls.__subclasses__()


@pytest.mark.parametrize("keep", [shot_engine.KEEP_EVERY, 7])
@pytest.mark.parametrize("game", ["golf", "kegle", "carom"])
def test_a_played_table_ends_and_undoes_where_it_does_without_its_fast_paths(
        game: str, keep: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shot_engine, "KEEP_EVERY", keep)
    logs = [(path.stem, way, logged) for path in LOGS if path.parent.name == game
            for way, logged in ways(path.read_text(encoding="utf-8").splitlines()) if way in WAYS]
    fast = [played(logged) for _, _, logged in logs]
    _slow(monkeypatch)
    for (stem, way, logged), want in zip(logs, fast, strict=True):
        assert played(logged) == want, f"{stem}, {way}: the fast paths end or undo elsewhere"


def _bench(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("depth", [shot_engine.BEFORE_DEPTH, 3])
def test_the_bench_matches_played_end_and_undo_where_they_do_without_the_fast_paths(
        depth: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shot_engine, "BEFORE_DEPTH", depth)  # the unrolled walk and the general one
    logs = [_bench("golf_replay").synthetic_log(600), _bench("golf_replay").long_match(600),
            _bench("kegle_replay").synthetic_match(80), _bench("carom_replay").synthetic_match(100)]
    fast = [played(lines) for lines in logs]
    _slow(monkeypatch)
    for lines, want in zip(logs, fast, strict=True):
        assert played(lines) == want


def test_a_chain_of_states_before_shots_is_cut_once_eight_deep() -> None:
    """The unrolled walk of a played shot taken at once (``_eight_deep``) finds a chain deep enough
    to cut where ``play``'s walk (``_shallow``) cuts it: eight states deep or more, back to
    ``BEFORE_DEPTH``; a shallower one is left as it is."""
    from tablesense.rules.shot_engine import MatchState, _cut_before, _eight_deep, _shallow

    def depth(state: Any) -> int:
        n, node = 0, state.before
        while node is not None:
            n, node = n + 1, node.before
        return n

    state = MatchState(game="golf")
    for n in range(12):
        assert depth(state) == n
        assert _eight_deep(state) is (n >= 8)
        assert depth(_shallow(state)) == (shot_engine.BEFORE_DEPTH - 1 if n >= 8 else n)
        assert depth(_shallow(state, 0)) == (shot_engine.BEFORE_DEPTH - 1 if n >= 4 else n)
        assert (_shallow(state) is state) is (n < 8)
        if n >= shot_engine.BEFORE_DEPTH:
            assert depth(_cut_before(state)) == shot_engine.BEFORE_DEPTH - 1
        state = MatchState(game="golf", before=state)
