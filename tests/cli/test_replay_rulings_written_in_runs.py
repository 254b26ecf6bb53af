"""``replay --json`` writes a run of rulings at once (``rulings_json``): their times by one
``msgspec`` call, a ruling of ``int`` parameters from its shape, the others from the store. Each
must be what the general path writes, ``json.JSONEncoder(ensure_ascii=False).encode(
r.to_dict(names, lang))``, byte for byte, whatever the times and the rulings around it."""

from __future__ import annotations

import json
import math

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_replay_ruling_json import INT_RULINGS, ODD_NAMES, REPLAYS, RULINGS

from tablesense.commands import replay as replay_command
from tablesense.commands.replay import _times, rulings_json
from tablesense.rules import Ruling
from tablesense.rules.base import player_names
from tablesense.texts import LANGS

GENERAL = json.JSONEncoder(ensure_ascii=False).encode


def _time_as_the_encoder_writes_it(t: object) -> str:
    return GENERAL({"t": t})[:-1]


EDGE_TIMES = [0.0, -0.0, 1e-4, -1e-4, 9.999999999999999e-05, 0.00012, 1e-05, 5e-324,
              2.2250738585072014e-308, 1e16, 9999999999999998.0, 1e15, 123456789012345.6, 0.1 + 0.2,
              1.7976931348623157e308, math.nan, math.inf, -math.inf, 0, -1, 3, 2**63, 2**64, -(2**64), 10**30,
              True, False, 7.5, 100.0]


def test_edge_times_are_written_as_the_encoder_writes_them() -> None:
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    assert _times(EDGE_TIMES, dumps) == [_time_as_the_encoder_writes_it(t) for t in EDGE_TIMES]
    for t in EDGE_TIMES:  # alone, and among plain floats
        run = [1.5, t, 2.25]
        assert _times(run, dumps) == [_time_as_the_encoder_writes_it(x) for x in run]


@settings(max_examples=400, deadline=None)
@given(ts=st.lists(st.floats() | st.floats(1e-5, 1e17) | st.floats(-1, 1) | st.integers(-2**70, 2**70)
                   | st.booleans() | st.decimals(0, 10**6, places=6).map(float), max_size=40))
def test_any_times_are_written_as_the_encoder_writes_them(ts: list[float]) -> None:
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    assert _times(ts, dumps) == [_time_as_the_encoder_writes_it(t) for t in ts]


def test_a_million_times_msgspec_writes_without_an_exponent_are_repr() -> None:
    """The ground of ``_times``: where msgspec writes a float with neither an exponent nor
    ``0.0000``, it writes ``repr``'s digits (random bits, decimals of up to 6 places, scaled)."""
    import random
    import struct

    rnd = random.Random(27)
    checked = 0
    for _ in range(100):
        xs = [struct.unpack("<d", rnd.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(4000)]
        xs += [round(rnd.uniform(0, 10 ** rnd.randint(0, 9)), rnd.randint(0, 7)) for _ in range(4000)]
        xs += [rnd.uniform(-1, 1) * 10.0 ** rnd.randint(-6, 17) for _ in range(2000)]
        for x, s in zip(xs, msgspec.json.encode(xs).decode()[1:-1].split(","), strict=True):
            if not ("e" in s or "n" in s or "0.0000" in s):
                assert s == float.__repr__(x)
                checked += 1
    assert checked > 500_000


MIXED = st.one_of(RULINGS, INT_RULINGS)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rulings=st.lists(MIXED, min_size=1, max_size=40), lang=st.sampled_from([*LANGS, "xx"]),
       names=st.sampled_from(ODD_NAMES), kept=st.sampled_from([2, replay_command.RULINGS_KEPT]),
       as_fields=st.lists(st.booleans(), min_size=40, max_size=40), cut=st.integers(1, 40),
       fresh_after=st.sampled_from([1, 3, replay_command.FRESH_AFTER]))
def test_any_run_of_rulings_written_at_once_is_what_the_general_path_writes(
        rulings: list[Ruling], lang: str, names: dict[str, str], kept: int, as_fields: list[bool], cut: int,
        fresh_after: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rulings and their fields mixed, in runs cut anywhere, each run written twice (the second
    time from the stores); rules taken to their shapes first after 1, 3 or 256 new rulings."""
    with monkeypatch.context() as m:
        m.setattr(replay_command, "RULINGS_KEPT", kept)
        m.setattr(replay_command, "FRESH_AFTER", fresh_after)
        write = rulings_json(names, lang)
        items = [msgspec.structs.astuple(r) if f else r for r, f in zip(rulings, as_fields, strict=False)]
        want = [GENERAL(r.to_dict(names, lang)) for r in rulings]
        for _ in range(2):
            got = write(items[:cut]) + write(items[cut:]) if items[cut:] else write(items)
            assert got == want


@pytest.mark.parametrize("lang", LANGS)
def test_every_recorded_matchs_rulings_written_at_once_are_what_the_general_path_writes(lang: str) -> None:
    for log, rep in REPLAYS.items():
        if rep.state is None:
            continue
        names = player_names(rep.state)
        rulings = list(rep.state.rulings)
        want = [GENERAL(r.to_dict(names, lang)) for r in rulings]
        assert rulings_json(names, lang)(rulings) == want, log.name
        fields = [f for part in rep.state.rulings.field_parts() for f in part]
        assert rulings_json(names, lang)(fields) == want, log.name


@pytest.mark.parametrize("lang", LANGS)
def test_a_rule_of_new_totals_then_of_other_parameters_is_written_each_way_right(lang: str) -> None:
    """``carom.carom``'s new totals take the rule to its shapes first; then rulings of the same
    rule that have none (a list, a bool, a ``t``) and that are said again, from the store."""
    names = {"p1": "Ann", "p2": "Bo"}
    rulings = [Ruling(2.5 * made, "carom.carom", "p1" if made % 3 else "p2",
                      (("made", made), ("cushions", 3)))
               for made in range(1, replay_command.FRESH_AFTER + 40)]
    rulings += [Ruling(1.0 + i, "carom.carom", "p1", (("made", [i] if i % 2 else True), ("cushions", i % 3)))
                for i in range(20)]
    rulings += [Ruling(1.0, "carom.carom", "p2", (("made", 4), ("t", 3))), *rulings[:30]]
    write = rulings_json(names, lang)
    assert write(rulings) == [GENERAL(r.to_dict(names, lang)) for r in rulings]


