"""A replay's start-up imports msgspec with ``_datetime`` lent as ``datetime`` and a stand-in for
``platform`` (``command_line.lean_msgspec._lent``): msgspec's C init keeps the same classes it
would keep after a plain import, and both names leave ``sys.modules`` after it. Checked in a fresh
process that made a replay's start-up: the real modules import after it, and msgspec decodes,
converts and encodes dates, times, UUIDs and decimals (Hypothesis) as this process does, which
imported msgspec plainly."""

from __future__ import annotations

import datetime
import json
import platform
import subprocess
import sys
import typing
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import msgspec._utils
import msgspec.msgpack
import pytest
from helpers.child_python import host_env, run_child, short_golf_log
from hypothesis import given, settings
from hypothesis import strategies as st

#: a replay's start-up, what it left in ``sys.modules``, then the real modules imported
AFTER_A_REPLAY = """
import json, sys
from tablesense.cli import main
main(json.loads(sys.argv[1]))
before = {n: n in sys.modules for n in ("datetime", "platform")}
uuid_platform = type(sys.modules["uuid"].platform).__name__
import _datetime, datetime, platform, uuid
print(json.dumps([before, uuid_platform, datetime.__file__, platform.__file__,
                  [datetime.datetime is _datetime.datetime, datetime.date is _datetime.date,
                   datetime.timezone is _datetime.timezone,
                   datetime.datetime_CAPI is _datetime.datetime_CAPI],
                  platform.system(), uuid.platform.system(), uuid.platform.machine(),
                  uuid._LINUX, uuid._AIX,
                  type(sys.modules["uuid"].platform).__name__]), file=sys.stderr)
"""

#: a type's name and a JSON text decoded, converted and encoded again by msgspec (JSON and
#: MessagePack: an aware time's takes ``astimezone``); run in the child after a replay's start-up
#: (``ROUND_TRIPS``: a line of standard input each) and in this process (``_answer``)
ANSWER = """
import datetime, decimal, json, uuid, msgspec, msgspec.msgpack
TYPES = {"datetime": datetime.datetime, "date": datetime.date, "time": datetime.time,
         "timedelta": datetime.timedelta, "uuid": uuid.UUID, "decimal": decimal.Decimal}
def answer(kind, text):
    try:
        value = msgspec.json.decode(text, type=TYPES[kind])
        converted = msgspec.convert(json.loads(text), TYPES[kind])
        packed = msgspec.msgpack.encode(value)
        return [repr(value), msgspec.json.encode(value).decode(), repr(converted),
                msgspec.json.encode([value, converted]).decode(), packed.hex(),
                repr(msgspec.msgpack.decode(packed, type=TYPES[kind]))]
    except Exception as exc:
        return [type(exc).__name__, str(exc)]
"""
ROUND_TRIPS = """
import json, sys
from tablesense.cli import main
main(json.loads(sys.argv[1]))
print(json.dumps(sorted(n for n in ("datetime", "platform", "decimal", "uuid") if n in sys.modules)),
      flush=True)
""" + ANSWER + """
for line in sys.stdin:
    print(json.dumps(answer(*json.loads(line))), flush=True)
"""

_IN_THIS_PROCESS: dict[str, Any] = {}
exec(ANSWER, _IN_THIS_PROCESS)  # (msgspec imported plainly here)
#: the types asked about, by name (the same table the child answers from)
TYPES: dict[str, type] = _IN_THIS_PROCESS["TYPES"]


def _answer(kind: str, text: str) -> list[str]:
    """What ``ROUND_TRIPS`` answers, in this process (msgspec imported plainly)."""
    return _IN_THIS_PROCESS["answer"](kind, text)  # type: ignore[no-any-return]


def test_after_a_replays_start_up_datetime_and_platform_are_the_real_modules(tmp_path: Path) -> None:
    done = run_child(AFTER_A_REPLAY, json.dumps(["replay", str(short_golf_log(tmp_path)), "--json"]))
    assert json.loads(done.stdout)["game"] == "golf"  # it did replay
    (before, uuid_platform, datetime_file, platform_file, same_classes, system, uuid_system, machine,
     linux, aix, after) = json.loads(done.stderr.strip().splitlines()[-1])
    assert before == {"datetime": False, "platform": False}  # lent for msgspec's import only
    assert uuid_platform == "Later"  # (``uuid``'s own name for it: forwards to the real module)
    assert datetime_file.endswith("datetime.py") and platform_file.endswith("platform.py")
    assert same_classes == [True, True, True, True]
    assert system == uuid_system == platform.system()
    assert machine == platform.machine()
    assert [linux, aix] == [uuid._LINUX, uuid._AIX]  # type: ignore[attr-defined]
    assert after == "Later"


@pytest.fixture(scope="module")
def lean_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[subprocess.Popen[str]]:
    """A process after a replay's start-up, answering ``ROUND_TRIPS``' lines."""
    log = short_golf_log(tmp_path_factory.mktemp("lent"))
    child = subprocess.Popen([sys.executable, "-c", ROUND_TRIPS, json.dumps(["replay", str(log), "--json"])],
                             env=host_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    state = child.stdout.readline()
    assert json.loads(state)["game"] == "golf"  # the replay's own output, one line
    assert json.loads(child.stdout.readline()) == ["decimal", "uuid"]  # datetime and platform: lent only
    yield child
    assert child.stdin is not None
    child.stdin.close()
    child.wait(timeout=60)


def _asked(child: subprocess.Popen[str], kind: str, text: str) -> list[str]:
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps([kind, text]) + "\n")
    child.stdin.flush()
    answer: list[str] = json.loads(child.stdout.readline())
    return answer


OFFSETS = st.builds(datetime.timezone, st.timedeltas(min_value=datetime.timedelta(hours=-23, minutes=-59),
                                                     max_value=datetime.timedelta(hours=23, minutes=59)))
#: a value of each type, and JSON texts near and not quite them
VALUES: st.SearchStrategy[tuple[str, Any]] = st.one_of(
    st.tuples(st.just("datetime"), st.datetimes(timezones=st.none() | OFFSETS)),
    st.tuples(st.just("date"), st.dates()),
    st.tuples(st.just("time"), st.times(timezones=st.none() | OFFSETS)),
    st.tuples(st.just("timedelta"), st.timedeltas()),
    st.tuples(st.just("uuid"), st.uuids()),
    st.tuples(st.just("decimal"), st.decimals(allow_nan=False, allow_infinity=False)),
)


def _texts(kind: str, value: Any) -> list[str]:
    """JSON texts of ``value``: as msgspec writes it, as its ``str``, and cut short."""
    written = msgspec.json.encode(value).decode()
    return [written, json.dumps(str(value)), written[:-3] + '"', json.dumps(str(value).upper())]


@settings(max_examples=150)
@given(VALUES, st.sampled_from(list(TYPES)))
def test_msgspec_after_a_replays_start_up_reads_and_writes_dates_uuids_and_decimals_as_ever(
        lean_process: subprocess.Popen[str], kind_value: tuple[str, Any], other: str) -> None:
    kind, value = kind_value
    for text in _texts(kind, value):
        for asked in (kind, other):  # its own type, and another one (msgspec's refusal, worded the same)
            assert _asked(lean_process, asked, text) == _answer(asked, text), (asked, text)


def test_a_replays_start_up_in_a_process_with_datetime_lends_nothing() -> None:
    # a process that has imported datetime (or uuid) already: the lean import leaves them alone
    probe = """
import datetime, json, sys
from tablesense.command_line.lean_msgspec import _lent
print(json.dumps(sorted(_lent())))
"""
    for first, lent in (("datetime", ["platform"]), ("datetime, uuid", [])):
        done = run_child(probe.replace("datetime,", f"{first},", 1))
        assert json.loads(done.stdout) == lent


#: msgspec imported the lean way with every ``compile()`` of a text counted; then what its
#: ``_forward_ref`` makes, and a Struct of string annotations (``from __future__ import
#: annotations``) read and written
NO_COMPILE = """
import builtins, json, sys, typing
real_compile, compiled = builtins.compile, []
def counting(source, *args, **kwargs):
    if isinstance(source, str):  # (a module's source is bytes: a stale .pyc)
        compiled.append(source)
    return real_compile(source, *args, **kwargs)
from tablesense.command_line.lean_msgspec import import_msgspec
forward_ref = typing.ForwardRef
builtins.compile = counting
import_msgspec()
builtins.compile = real_compile
import msgspec, msgspec._utils
ref = msgspec._utils._forward_ref("Shot")
space = {}
exec(sys.argv[1], space)
shot = msgspec.json.decode(b'{"t": 1.5, "balls": ["red", "white"]}', type=space["Shot"])
print(json.dumps([compiled, typing.ForwardRef is forward_ref,
                  [type(ref).__name__, ref.__forward_arg__, ref.__forward_is_class__,
                   ref.__forward_is_argument__],
                  repr(shot), msgspec.json.encode(shot).decode(), msgspec.json.schema(space["Shot"])]))
"""
SHOT = ("from __future__ import annotations\nimport msgspec\n\n\n"
        "class Shot(msgspec.Struct):\n    t: float\n    balls: list[str] = []\n")


def test_msgspecs_lean_import_compiles_nothing_and_reads_string_annotations_as_ever() -> None:
    done = run_child(NO_COMPILE, SHOT)
    compiled, restored, ref, shot, written, schema = json.loads(done.stdout)
    assert compiled == []  # msgspec's feature test answered without a compile()
    assert restored is True  # ``typing.ForwardRef`` is the class again
    made = msgspec._utils._forward_ref("Shot")  # this process: msgspec imported plainly
    assert ref == [type(made).__name__, made.__forward_arg__, made.__forward_is_class__,
                   made.__forward_is_argument__]
    space: dict[str, Any] = {}
    exec(SHOT, space)
    mine = msgspec.json.decode(b'{"t": 1.5, "balls": ["red", "white"]}', type=space["Shot"])
    assert [shot, written, schema] == [repr(mine), msgspec.json.encode(mine).decode(),
                                       json.loads(json.dumps(msgspec.json.schema(space["Shot"])))]


def test_the_forward_ref_probe_answers_msgspecs_test_alone() -> None:
    from tablesense.command_line.lean_msgspec import _forward_ref_probe

    probe = _forward_ref_probe(typing.ForwardRef)
    assert probe("Foo", is_class=True) is None  # msgspec's test: succeeds (on 3.11+ the real one does)
    for args, kwargs in ((("Foo",), {}), (("Foo",), {"is_class": False}), (("Bar",), {"is_class": True}),
                         (("int",), {"is_argument": False, "is_class": True})):
        made = probe(*args, **kwargs)
        assert made == typing.ForwardRef(*args, **kwargs)  # type: ignore[arg-type]
        assert type(made) is typing.ForwardRef
    with pytest.raises(SyntaxError):
        probe("not a type (")
