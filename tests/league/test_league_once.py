"""A match enters the league once, by what it is (the digest of its log), not by what it is
called: the same log under another id, from another pub, written with other JSON spacing or
sent again is counted once or refused with the reason; junk variants of a message and of
its log are refused with the reason and listed; no player gets a phantom game.

On a real league SQLite file (``Inbox.take``); the same over a real Mosquitto:
test_league_edge.py.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from league_play import START, lines_of, match_events
from test_league_inbox import COMP, message, results

from tablesense.league import LeagueStore, result_from_lines, standings
from tablesense.league.digest import match_digest
from tablesense.league.inbox import Inbox
from tablesense.league.limits import BACKWARDS_S, MAX_LOG_LINES, MAX_MESSAGE_BYTES
from tablesense.league.logcheck import check_lines
from tablesense.league.messages import encode, match_id, match_message
from tablesense.league.view import league_view

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def make_inbox(path: Path) -> Inbox:
    store = LeagueStore(str(path))
    comp = store.create(COMP, season="2026-2027", profile="club")
    for name in ("Ann", "Bob", "Cor"):
        store.add_player(comp, name, 0.8)
    return Inbox(store)


def played(inbox: Inbox) -> dict[str, int]:
    store = inbox.store
    comp = store.competition(COMP)
    return {s.name: s.played for s in standings(store.players(comp), store.results(comp))}


def listed(inbox: Inbox, reason: str) -> bool:
    return reason in [r for _, _, r, _ in inbox.refused(10_000)]


# --- the same log, written otherwise -----------------------------------------------------

def rewrite(line: str, rnd: random.Random) -> str:
    """The same event in other JSON: key order, spacing, number and string spelling, a key
    no release reads."""
    obj = json.loads(line)
    keys = list(obj)
    rnd.shuffle(keys)
    if rnd.random() < 0.3:
        keys.append("~note")
        obj["~note"] = "written by another tool"
    sep = rnd.choice([(",", ":"), (", ", ": "), (" ,", " : ")])
    text = "{" + sep[0].join(f"{json.dumps(k)}{sep[1]}{_spell(obj[k], rnd)}" for k in keys) + "}"
    assert json.loads(text) == obj
    return text


def _spell(value: Any, rnd: random.Random) -> str:
    if isinstance(value, float) and value == int(value) and rnd.random() < 0.5:
        return rnd.choice([f"{int(value)}", f"{value:.3f}", f"{value:e}"])
    if isinstance(value, float):
        return rnd.choice([repr(value), f"{value:.9f}"]) if float(f"{value:.9f}") == value else repr(value)
    if isinstance(value, str) and rnd.random() < 0.5:
        return json.dumps(value, ensure_ascii=True).replace("A", "\\u0041")
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{_spell(v, rnd)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def test_the_digest_reads_the_events_not_their_spelling() -> None:
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    digest = match_digest(e for _, e in check_lines(lines).events)
    for seed in range(20):
        rnd = random.Random(seed)
        other = [rewrite(line, rnd) for line in lines]
        assert match_digest(e for _, e in check_lines(other).events) == digest, seed
    moved = [json.dumps({**json.loads(line), "t": json.loads(line)["t"] + 0.001}) for line in lines]
    assert match_digest(e for _, e in check_lines(moved).events) != digest, "other times: another match"
    others = lines_of(match_events("Ann", "Cor", 5, 7))
    assert match_digest(e for _, e in check_lines(others).events) != digest, "other players: another match"


def test_the_same_match_counts_once_whatever_its_id_sender_or_spelling(tmp_path: Path) -> None:
    inbox = make_inbox(tmp_path / "league.db")
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    first = inbox.take("kroeg", message("kroeg", lines))
    assert first.kind == "stored"

    @given(pub=st.sampled_from(["kroeg", "zaal", "hoek"]), later=st.floats(0, 10 * 86400),
           seed=st.integers(0, 2**32), named=st.booleans())
    @SETTINGS
    def again(pub: str, later: float, seed: int, named: bool) -> None:
        rnd = random.Random(seed)
        other = [rewrite(line, rnd) for line in lines]
        over = {"competition": COMP} if named else {}
        out = inbox.take(pub, message(pub, other, started=START + later, **over))
        if pub == "kroeg" and round(later * 1000) == 0:
            assert out.kind == "duplicate", out  # its own id again: the same match, said once
        else:
            assert out.kind in ("refused", "duplicate"), out
            if out.kind == "refused":
                assert f"the same match as {first.match_id} (sent by kroeg)" in out.text
                assert listed(inbox, out.text)
        assert results(inbox) == [("Ann", "Bob", (20, 19))]
        assert played(inbox) == {"Ann": 1, "Bob": 1, "Cor": 0}

    again()


def test_a_revision_that_changes_nothing_replaces_the_result_once(inbox: Inbox) -> None:
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    assert inbox.take("kroeg", message("kroeg", lines)).kind == "stored"
    assert inbox.take("kroeg", message("kroeg", lines, revision=len(lines) + 2)).kind == "replaced"
    assert results(inbox) == [("Ann", "Bob", (20, 19))]


def test_a_match_entered_by_league_import_is_not_taken_again_from_a_pub(inbox: Inbox) -> None:
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    store = inbox.store
    match = check_lines(lines)
    store.add_result(store.competition(COMP), result_from_lines(lines, source="ann-bob.jsonl"),
                     match_digest(e for _, e in match.events))
    out = inbox.take("kroeg", message("kroeg", lines))
    assert out.kind == "refused" and "the same match as ann-bob.jsonl (entered by league import)" in out.text
    assert len(results(inbox)) == 1


@pytest.fixture
def inbox(tmp_path: Path) -> Inbox:
    return make_inbox(tmp_path / "league.db")


# --- a match that does not fit its competition --------------------------------------------

def test_a_libre_log_naming_a_driebanden_competition_is_refused_with_the_reason(tmp_path: Path) -> None:
    inbox = make_inbox(tmp_path / "league.db")
    drie = inbox.store.create("Driebanden 2026", discipline="driebanden", profile="club")
    for name in ("Ann", "Bob"):
        inbox.store.add_player(drie, name, 0.3)
    lines = lines_of(match_events("Ann", "Bob", 5, 7))  # a libre match
    out = inbox.take("kroeg", message("kroeg", lines, competition="Driebanden 2026"))
    assert out.kind == "refused" and out.text == ("'Driebanden 2026' is a driebanden competition; "
                                                  "this log is a libre match")
    assert inbox.store.results(drie) == []
    assert inbox.take("kroeg", message("kroeg", lines, started=START + 60)).kind == "stored", \
        "not naming one: the libre competition"
    assert inbox.store.results(drie) == [] and len(results(inbox)) == 1
    again = inbox.take("zaal", message("zaal", lines, competition="Driebanden 2026"))
    assert again.kind == "refused", "another pub naming the other competition: still the one match"
    assert len(results(inbox)) == 1 and inbox.store.results(drie) == []


def test_a_message_that_names_another_game_than_its_log_is_refused_with_the_reason(inbox: Inbox) -> None:
    golf = [json.dumps({"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}})]
    out = inbox.take("kroeg", encode(match_message("kroeg", "1", START, "kegle", {"p1": "Ann", "p2": "Bob"},
                                                   golf, {})))
    assert out.kind == "refused" and "the message says kegle but its log is a golf match" in out.text
    said = inbox.take("kroeg", encode(match_message("kroeg", "2", START, "carom", {"p1": "Ann", "p2": "Bob"},
                                                    golf, {})))
    assert "the message says carom but its log is a golf match" in said.text


# --- junk ------------------------------------------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**90, 2**90),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
                    st.sampled_from(["inf", "nan", "1e300", "", "\n", "x" * 400, 2**80, 1e300, -1e300]))
junk_values = st.recursive(
    scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
    max_leaves=6)
DEEP = "\u0000deep\u0000"  # replaced by nesting too deep for any reader


def dumps(obj: Any, depth: int) -> bytes:
    """JSON as a careless or hostile sender writes it: NaN and Infinity as they come, and
    ``DEEP`` as ``depth`` nested arrays."""
    text = json.dumps(obj)  # allow_nan: NaN, Infinity appear as Python writes them
    return text.replace(json.dumps(DEEP), "[" * depth + "]" * depth).encode()


FIELDS = ["v", "id", "pub", "table", "started", "game", "players", "competition", "revision", "result", "log"]


def test_junk_variants_of_a_message_are_the_same_match_or_refused_and_listed(tmp_path: Path) -> None:
    inbox = make_inbox(tmp_path / "league.db")
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    original = json.loads(message("kroeg", lines))
    assert inbox.take("kroeg", encode(original)).kind == "stored"

    @given(field=st.sampled_from(FIELDS), value=junk_values | st.just(DEEP), drop=st.booleans(),
           depth=st.sampled_from([50, 5_000, 200_000]), inner=st.sampled_from(["", "p1", "caroms", "0"]))
    @SETTINGS
    def variant(field: str, value: Any, drop: bool, depth: int, inner: str) -> None:
        msg = json.loads(json.dumps(original))
        if drop:
            del msg[field]
        elif inner and isinstance(msg[field], dict) and inner in msg[field]:
            msg[field][inner] = value
        elif inner == "0" and isinstance(msg[field], list):
            msg[field][0] = value
        else:
            msg[field] = value
        out = inbox.take("kroeg", dumps(msg, depth))
        # a higher revision of the same match is no junk: it replaces the one stored (the same
        # result here, so the tables below stay as they are)
        revised = type(msg.get("revision")) is int and msg["revision"] > original["revision"]
        kinds = ("refused", "duplicate", "replaced") if revised else ("refused", "duplicate")
        assert out.kind in kinds, (field, value, out)
        if out.kind == "refused":
            assert out.text and "\n" not in out.text and len(out.text) <= 300
            assert listed(inbox, out.text)
        assert results(inbox) == [("Ann", "Bob", (20, 19))]
        assert played(inbox) == {"Ann": 1, "Bob": 1, "Cor": 0}

    variant()
    view = league_view(inbox, [])
    json.dumps(view, allow_nan=False)  # the page's data stays JSON


@pytest.mark.parametrize(("name", "change", "reason"), [
    ("version 1.0", {"v": 1.0}, "message version 1.0 (this league reads 1)"),
    ("version true", {"v": True}, "message version True"),
    ("version 2^80", {"v": 2**80}, "message version 1208925819614629174706176"),
    ("table null", {"table": None}, "at `$.table`"),
    ("start inf", {"started": "inf"}, "Expected `float`, got `str` - at `$.started`"),
    ("start 1e300", {"started": 1e300}, "at `$.started`"),
    ("year 14962", {"started": 409_999_999_999.0}, "at `$.started`"),
    ("year -29719", {"started": -999_999_999_999.0}, "at `$.started`"),
    ("revision 2^80", {"revision": 2**80}, "at `$.revision`"),
    ("revision NaN", {"revision": float("nan")}, "not a JSON match message"),
    ("a name of 10,000 characters", {"players": {"p1": "A" * 10_000, "p2": "Bob"}}, "at `$.players.p1`"),
])
def test_each_junk_variant_is_refused_with_a_reason_that_says_what(
        inbox: Inbox, name: str, change: dict[str, Any], reason: str) -> None:
    msg = {**json.loads(message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7)))), **change}
    out = inbox.take("kroeg", json.dumps(msg).encode())
    assert out.kind == "refused" and reason in out.text, out
    assert listed(inbox, out.text)
    assert results(inbox) == []


def test_a_start_in_the_future_is_refused(inbox: Inbox) -> None:
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    out = inbox.take("kroeg", message("kroeg", lines), now=START - 3 * 86400)
    assert out.kind == "refused" and "in the future: the pub's clock is wrong" in out.text


def test_an_id_that_is_not_its_pub_table_and_start_is_refused(inbox: Inbox) -> None:
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    out = inbox.take("kroeg", message("kroeg", lines, id="kroeg:1:5"))
    own = match_id("kroeg", "1", START)
    assert out.kind == "refused" and f"is not its pub, table and start ({own})" in out.text


def junk_line(kind: str, n: int, lines: list[str]) -> str:
    t = json.loads(lines[n - 1])["t"]
    return {
        "NaN": '{"t": NaN, "type": "rest"}',
        "Infinity in a field": '{"t": 5.0, "type": "cushion", "cushion": Infinity}',
        "nested too deep": '{"t": 5.0, "type": "rest", "positions": {"red": ' + "[" * 3000 + "]" * 3000
                           + "}}",
        "nested deeper than an event": '{"t": 5.0, "type": "call", "call": "x", "answer": ' + "[" * 9 + "1"
                                       + "]" * 9 + "}",
        "t -1": '{"t": -1, "type": "rest"}',
        "t 1e308": '{"t": 1e308, "type": "rest"}',
        "t 2^70": '{"t": 1180591620717411303424, "type": "rest"}',
        "t as text": '{"t": "5", "type": "rest"}',
        # a rest far ahead of its match: the line after it runs back in time
        "back in time": json.dumps({"t": t + BACKWARDS_S + 5, "type": "rest"}),
        "a number beyond any count": '{"t": 5.0, "type": "call", "call": "spot", "spot": ' + str(2**80) + "}",
        "not an event": "[1, 2, 3]",
        "not JSON": "{\"t\": 5.0, \"type\": ",
        "a second set-up": lines[0],
        "too long": json.dumps({"t": t, "type": "rest", "note": "x" * 20_000}),
        "an unknown event": json.dumps({"t": t, "type": "teleport"}),
    }[kind]


@given(kind=st.sampled_from(["NaN", "Infinity in a field", "nested too deep", "nested deeper than an event",
                             "t -1", "t 1e308", "t 2^70", "t as text", "back in time",
                             "a number beyond any count", "not an event", "not JSON", "a second set-up",
                             "too long", "an unknown event"]),
       where=st.integers(2, 160))
@SETTINGS
def test_a_log_with_a_junk_line_is_refused_naming_the_line(kind: str, where: int) -> None:
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    bad = [*lines[:where - 1], junk_line(kind, where - 1, lines), *lines[where - 1:]]
    named = where + 1 if kind == "back in time" else where
    with tempfile.TemporaryDirectory() as d:
        inbox = make_inbox(Path(d) / "league.db")
        out = inbox.take("kroeg", message("kroeg", lines, log=bad, revision=len(bad)))
        assert out.kind == "refused" and f"line {named}" in out.text, (kind, out)
        assert listed(inbox, out.text) and results(inbox) == []
        inbox.store.close()


@pytest.mark.parametrize(("players", "reason"), [
    ({"p1": "", "p2": "Bob"}, "player p1: a name is empty"),
    ({"p1": "Ann\nBob", "p2": "Bob"}, "a name cannot hold the control character U+000A"),
    ({"p1": "A" * 10_000, "p2": "Bob"}, "a name has at most 64 characters"),
    ({"p1": " Ann", "p2": "Bob"}, "has a space at an end"),
])
def test_a_set_up_with_names_that_are_no_names_is_refused(inbox: Inbox, players: dict[str, str],
                                                          reason: str) -> None:
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    setup = {**json.loads(lines[0]), "players": players}
    log = [json.dumps(setup), *lines[1:]]
    out = inbox.take("kroeg", message("kroeg", lines, log=log, players={"p1": "Ann", "p2": "Bob"}))
    assert out.kind == "refused" and "line 1" in out.text and reason in out.text, out
    assert len(out.text) <= 300


def test_a_log_too_long_is_refused_with_the_reason(inbox: Inbox) -> None:
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    long = lines + ['{"t": 99999, "type": "rest"}'] * (MAX_LOG_LINES + 1 - len(lines))
    out = inbox.take("kroeg", message("kroeg", lines, log=long, revision=len(long)))
    assert out.kind == "refused" and f"at most {MAX_LOG_LINES:,} lines" in out.text


def test_a_message_too_big_is_refused_before_a_byte_of_it_is_read(inbox: Inbox) -> None:
    raw = b"[" * (MAX_MESSAGE_BYTES + 1)  # read as JSON this would be nested four million deep
    out = inbox.take("kroeg", raw)
    assert out.kind == "refused" and "the league reads at most 4.2 MB" in out.text
    out = inbox.refuse_unread("kroeg", raw)
    assert out is not None and out.kind == "refused", "refused as it arrives, not handed to the workers"
