"""`tablesense replay` over junk, generated (hypothesis): whatever lines a log holds, the
replay never prints a traceback, says each problem in exactly one line of bounded length
on stderr, and exits as docs/cli.md says (0 clean, 1 a problem found, 2 nothing to read).

The junk is built to be refused at the edge whatever the match's state: not JSON, not
UTF-8, not an object, a time out of range (negative, past 2^53 µs, 2^70, 1e308, 1e999),
a field of the wrong kind or out of range, a bad player's name in a set-up. Real match
logs (examples/, tests/matches/) carry it, so the lines around it are real play.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import ROOT

from tablesense.cli import main
from tablesense.log_checks import MAX_NAME, MAX_T, TimeOrder, check_name, name_problem
from tablesense.replay import Replay

LOGS = [ROOT / "examples/golf-match.jsonl", *sorted((ROOT / "tests/matches/kegle").glob("*.jsonl"))[:3],
        *sorted((ROOT / "tests/matches/carom").glob("*.jsonl"))[:3]]
CLEAN = {}
for _path in LOGS:
    _lines = [x for x in _path.read_text().splitlines() if x.strip()]
    if not Replay().feed_lines(_lines).errors:
        CLEAN[_path.name] = _lines
assert len(CLEAN) >= 3, "real logs to carry the junk"
LINE = re.compile(r"^tablesense replay: [^:]+: line (\d+): (.+)$")
HUGE = [-1, -0.5, -1e-7, MAX_T * 2, 2**70, 1e308, -1e308, 10**30]


def _json(obj: object) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode()


bad_names = st.one_of(
    st.just(""), st.just("\n"), st.just("   "), st.just("\t\t"), st.just("a\nb"), st.just("\u202eevil"),
    st.just("x" * (MAX_NAME + 1)), st.just("y" * 10_000), st.integers(), st.none(), st.just([]),
    st.text(min_size=1, max_size=8).map(lambda s: s + "\x00"),
    st.text(alphabet=st.characters(categories=["Cc"]), min_size=1, max_size=5),
)
junk = st.one_of(
    st.binary(max_size=60).map(lambda b: b.replace(b"\n", b" ").replace(b"\r", b" ") + b"\xff"),  # not UTF-8
    st.text(max_size=40).map(lambda s: ("#" + s.replace("\n", " ").replace("\r", " ")).encode()),  # not JSON
    st.sampled_from([b"[]", b"1", b'"rest"', b"null", b"[" * 50_000, b'{"t": NaN, "type": "rest"}',
                     b'{"t": 1e999, "type": "rest"}', b'{"t": Infinity, "type": "rest"}',
                     b'{"t": ' + b"9" * 5000 + b', "type": "rest"}']),
    st.builds(lambda t, k: _json({"t": t, "type": k}), st.sampled_from(HUGE),
              st.sampled_from(["rest", "goal", "pin", "cushion", "call"])),
    st.builds(lambda t: _json({"t": t, "type": "nothing-like-it"}), st.floats(0, 100)),
    st.builds(lambda n: _json({"t": 1.0, "type": "pocket", "pocket": n, "ball": "red"}),
              st.one_of(st.integers(max_value=0), st.integers(min_value=7), st.text(max_size=5))),
    st.builds(lambda n: _json({"t": 1.0, "type": "call", "call": "spot", "ball": "p1", "spot": n}),
              st.one_of(st.integers(max_value=0), st.integers(min_value=100),
                        st.sampled_from([2**70, -2**63]))),
    st.builds(lambda v: _json({"t": 1.0, "type": "rest", "positions": {"red": [v, 0.5]}}),
              st.sampled_from(["x", None, True, [0.5]])),
    st.sampled_from([b'{"t": 1.0, "type": "rest", "positions": {"red": [NaN, 0.5]}}',
                     b'{"t": 1.0, "type": "rest", "positions": {"red": [0.5, -Infinity]}}',
                     b'{"t": 1.0, "type": "rest", "note": [1, {"x": NaN}]}']),
    st.builds(lambda t: _json({"t": t, "type": "goal", "goal": "B", "ball": "p1"}), st.sampled_from(HUGE)),
)


def _replay(tmp_path: Path, lines: list[bytes], *extra: str) -> tuple[int, str, str]:
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join(lines) + b"\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", str(log), *extra])  # an exception here is the traceback a user would see
    return code, out.getvalue(), err.getvalue()


def _said(err: str) -> list[int]:
    """The line numbers named on stderr; every stderr line is one of those, and short."""
    named = []
    for text in err.splitlines():
        m = LINE.match(text)
        assert m is not None, text
        assert len(text) <= 400, len(text)
        named.append(int(m.group(1)))
    return named


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(log=st.sampled_from(sorted(CLEAN)), data=st.data(), as_json=st.booleans())
def test_each_junk_line_is_one_line_on_stderr_and_the_play_around_it_counts(
        tmp_path: Path, log: str, data: st.DataObject, as_json: bool) -> None:
    clean = [x.encode() for x in CLEAN[log]]
    lines = list(clean)
    places = sorted(data.draw(st.lists(st.integers(1, len(clean)), min_size=1, max_size=6)))
    bad = []
    for shift, at in enumerate(places):  # junk after the set-up, anywhere in the play
        lines.insert(at + shift, data.draw(junk))
        bad.append(at + shift + 1)
    code, out, err = _replay(tmp_path, lines, *(["--json"] if as_json else []))
    assert "Traceback" not in err + out
    assert code == 1
    assert _said(err) == bad  # each junk line once, nothing else
    clean_code, want, clean_err = _replay(tmp_path, clean, "--json")
    assert clean_code == 0 and clean_err == ""  # the same log without the junk: nothing to say
    if as_json:  # the junk changed nothing of the match
        got = json.loads(out)
        got.pop("errors")
        assert got == json.loads(want)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(log=st.sampled_from(sorted(CLEAN)), name=bad_names, side=st.sampled_from(["p1", "p2"]),
       duo=st.booleans())
def test_a_set_up_with_a_bad_name_is_one_line_whatever_follows(tmp_path: Path, log: str, name: object,
                                                                  side: str, duo: bool) -> None:
    """Was: one error for the set-up and one more for every event after it (166 lines)."""
    setup = json.loads(CLEAN[log][0])
    setup["players"][side] = [name, "Cor"] if duo else name
    lines = [_json(setup), *(x.encode() for x in CLEAN[log][1:])]
    code, out, err = _replay(tmp_path, lines)
    assert "Traceback" not in err and code == 1
    assert _said(err) == [1]
    assert "player" in err and len(err) < 400
    assert "match:" not in out  # no match to referee: nothing replayed under the old set-up either


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(log=st.sampled_from(sorted(CLEAN)), data=st.data(), back=st.floats(0.001, 1e6))
def test_a_clock_running_back_across_shots_is_said_once(tmp_path: Path, log: str, data: st.DataObject,
                                                         back: float) -> None:
    """From some rest on, every time is moved back (beyond the rest before): one line, at
    the first event before that rest; the events are still applied (exit 1)."""
    objs = [json.loads(x) for x in CLEAN[log]]
    rests = [i for i, o in enumerate(objs) if o["type"] == "rest" and i + 1 < len(objs)]
    if not rests:
        return
    cut = data.draw(st.sampled_from(rests))
    first = None
    for i in range(cut + 1, len(objs)):
        objs[i]["t"] = max(0.0, round(objs[i]["t"] - back, 6))
        if first is None and objs[i]["t"] < objs[cut]["t"] - 1e-6:
            first = i + 1
    code, _out, err = _replay(tmp_path, [_json(o) for o in objs])
    assert "Traceback" not in err
    backwards = [int(m) for m in re.findall(r"line (\d+): the time runs backwards", err)]
    assert backwards == ([first] if first else [])
    assert code == (1 if first or err else 0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(log=st.sampled_from(sorted(CLEAN)), seed=st.randoms(use_true_random=False))
def test_times_that_go_back_within_a_shot_are_tolerated(tmp_path: Path, log: str, seed: object) -> None:
    """Inside a shot ``t`` orders the events, whatever their order in the file: the times of
    each shot's events before its rest shuffled among them are never called backwards."""
    objs = [json.loads(x) for x in CLEAN[log]]
    shot: list[int] = []
    for i, o in enumerate(objs):
        if o["type"] in ("rest", "setup", "call"):
            times = [objs[k]["t"] for k in shot]
            seed.shuffle(times)  # type: ignore[attr-defined]
            for k, t in zip(shot, times):
                objs[k]["t"] = t
            shot = []
        else:
            shot.append(i)
    _code, _out, err = _replay(tmp_path, [_json(o) for o in objs])
    assert "Traceback" not in err and "backwards" not in err


def test_an_event_before_any_set_up_is_one_line_for_the_lot(tmp_path: Path) -> None:
    rows = [_json({"t": float(k), "type": "cushion", "cushion": 1 + k % 4}) for k in range(200)]
    code, _out, err = _replay(tmp_path, rows)
    assert code == 1 and _said(err) == [1] and "before any 'setup'" in err


def test_a_fifty_megabyte_name_is_refused_in_a_short_line(tmp_path: Path) -> None:
    setup = {"t": 0, "type": "setup", "game": "golf", "players": {"p1": "A" * 50_000_000, "p2": "Bob"}}
    code, out, err = _replay(tmp_path, [_json(setup), b'{"t": 1, "type": "rest"}'])
    assert code == 1 and len(err) < 300 and len(out) < 300
    assert "at most 64 characters, not 50000000" in err


@pytest.mark.parametrize("name", ["Ann", "Jørgen Ødegård", "van der Berg-Oosterhuis", "李小龙", "Zoë 🎱",
                                  "x" * MAX_NAME])
def test_good_names_are_taken(name: str) -> None:
    assert name_problem(name) is None and check_name(name) == name


def test_times_order_is_said_once_a_match() -> None:
    order = TimeOrder()
    said = [order.see(k, t) for k, t in [("setup", 0.0), ("goal", 4.0), ("rest", 5.0), ("goal", 4.0),
                                         ("rest", 3.0), ("goal", 1.0), ("setup", 10.0), ("goal", 9.0)]]
    assert [s is not None for s in said] == [False, False, False, True, False, False, False, True]
