"""``tablesense replay FILE [--json]``: the match state after a log, or a readable account.

The log is streamed, never held: it is read twice (once for the referee panel's void
records, once to replay), standard input through a temporary spool file. Time and
memory grow with the lines, not with their square: a line's new rulings are found from
the end of the ruling log, not by comparing all of it (``bench/replay_scale.py``).

A bad line (not UTF-8, not JSON, nested too deeply, a number too long or out of range, a
wrong field, a bad player's name, impossible in the match) is named by its line number
on standard error, in one line of at most 300 characters, and the replay goes on with
the next one (exit 1). One problem is one line: a set-up refused is named once and the
events of its match skipped under it; a clock that runs backwards across shots is named
once a match (docs/events.md, "Times"). An empty log is an error (exit 2). A reader that
goes away (``| head``) ends the replay quietly, exit 0 (docs/events.md).
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from marshal import dumps as marshal_dumps
from operator import methodcaller
from types import SimpleNamespace
from typing import IO, Any

import msgspec

from ..errors import TablesenseError
from ..events import Event, Rest, parse_line
from ..replay import (
    LineError,
    NoSetup,
    Replay,
    effective_stream,
    history_for,
    scan_chunks,
    scan_log,
    text_problem,
)
from ..rules import Ruling
from ..rules.base import player_names, replace
from ..rules.ruling_log import RulingLog
from ..rules.shot_engine import MatchState
from ..shots import Cutter, Role
from ..texts import LANGS, int_sentence, phrase

TYPE_CHECKING = False
if TYPE_CHECKING:  # the annotations only: a replay's start-up imports no argparse (quick_args)
    import argparse

EXAMPLES = """
tablesense replay examples/golf-match.jsonl
tablesense replay examples/golf-match.jsonl --json
tablesense replay examples/golf-match.jsonl --lang nl
tablesense demo --game kegle --direct --speed 0 --print | tablesense replay -
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="match log or scenario, JSON Lines ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    p.add_argument("--lang", default="en", choices=LANGS,
                   help="the language of the rulings' and questions' sentences (default en)")


def quick_args(words: Sequence[str]) -> SimpleNamespace | None:
    """The arguments of the common command lines, ``FILE [--json] [--lang CODE]`` in any
    order (``--lang=CODE`` too), as ``add_arguments``' parser gives them, read without
    argparse (``tablesense.cli``: its import and the parser are a good part of a short
    replay's start-up); None for anything else (help, ``--``, an abbreviation, an option
    or a value it does not know, no FILE or two): argparse reads those and says what is wrong."""
    file: str | None = None
    json_out = False
    lang = "en"
    rest = iter(words)
    for word in rest:
        if word == "--json":
            json_out = True
        elif word == "--lang" or word.startswith("--lang="):
            value = next(rest, None) if word == "--lang" else word[len("--lang="):]
            if value not in LANGS:
                return None
            lang = value
        elif (word.startswith("-") and word != "-") or file is not None:
            return None
        else:
            file = word
    if file is None:
        return None
    return SimpleNamespace(file=file, json=json_out, lang=lang)


def run(args: argparse.Namespace) -> int:
    """The command: exit 0, 1 (bad lines, named on standard error) or 2 (no log to replay).

    With ``--json`` the cyclic collector stays paused from the replay until the state is written
    and the replay let go of (``_run`` returned): the replay makes no reference cycles, and the
    objects it made while paused (``Replay.feed_chunks``), all of them still held when the output
    is written, would be walked once more by the first collection after it (~25M instructions for
    100k lines of a long carom match: a tenth of the writing). The collector is set back as it was."""
    if not args.json:
        return _run(args)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run(args)
    finally:
        if collecting:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    try:
        fh = _open(args.file)
    except OSError as exc:
        print(f"tablesense replay: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    with fh:
        lines = _reader(fh)
        if not any(text.strip() for text in lines()):
            print(f"tablesense replay: {args.file} holds no events", file=sys.stderr)
            return 2
        if is_edges_file(lines()):  # said once, not as a bad line per edge
            print(f"tablesense replay: {args.file} is an edges file (sensor edges for the firmware, not "
                  f"table events): play it with tablesense sim {args.file}", file=sys.stderr)
            return 2
        quick = scan_chunks(_chunks(fh))  # no void record: no Python step a line to find that out
        scan = quick if quick is not None else scan_log(lines())
        rep = Replay(history=history_for(scan.undos))  # no more states kept than its undos reach
        out = sys.stdout
        if args.json:  # the engines' fast loop: nothing to print until the end
            if quick is not None:  # no void record: the lines cut a chunk at a time
                rep.feed_chunks(_chunks(fh), guard=True)
            else:
                rep.feed_counted(effective_stream(lines, scan), guard=True)
            write_state(rep, out, args.lang)
        else:
            applied = _events(rep, effective_stream(lines, scan), lambda e: out.write(f"  ! {e}\n"))
            _account(rep, applied, out, args.lang)
        out.flush()
    for err in rep.errors:
        print(f"tablesense replay: {args.file}: {err}", file=sys.stderr)
    return 1 if rep.errors else 0


def is_edges_file(lines: Iterator[str]) -> bool:
    """Whether the file is ``tablesense sim``'s edges file: its first line, or the one after a
    header (an object with no ``type``), is a sensor edge (``t_us`` or ``clock_us``, no ``type``)."""
    seen = 0
    for text in lines:
        if not text.strip():
            continue
        try:
            item = json.loads(text)
        except ValueError:
            return False
        if not isinstance(item, dict) or "type" in item:
            return False
        if "t_us" in item or "clock_us" in item:
            return True
        seen += 1
        if seen == 2:
            return False
    return False


def _open(path: str) -> IO[bytes]:
    """The log as a seekable binary file (it is read more than once); standard input, a pipe
    (``replay <(zcat log.gz)``, a FIFO) is spooled to a temporary file first."""
    fh = sys.stdin.buffer if path == "-" else open(path, "rb")
    if fh.seekable():
        return fh
    import shutil  # a pipe only: a file's replay does not load them
    import tempfile

    spool = tempfile.TemporaryFile(prefix="tablesense-replay-")
    with contextlib.ExitStack() as own:
        if fh is not sys.stdin.buffer:
            own.callback(fh.close)
        shutil.copyfileobj(fh, spool, 1 << 20)
    return spool


def _chunks(fh: IO[bytes]) -> Iterator[bytes]:
    """The file's bytes from the start, a mebibyte at a time."""
    fh.seek(0)
    return iter(partial(fh.read, 1 << 20), b"")


def _reader(fh: IO[bytes]) -> Callable[[], Iterator[str]]:
    """A function giving the file's lines from the start, each time it is called. Lines
    end at ``\\n`` (as editors and ``wc -l`` count them); bytes that are not UTF-8 are kept
    as surrogates and the line is refused with their column (``replay.text_problem``)."""

    text = io.TextIOWrapper(fh, encoding="utf-8", errors="surrogateescape", newline="\n")
    strip = methodcaller("rstrip", "\r\n")

    def lines() -> Iterator[str]:
        text.seek(0)
        return map(strip, text)  # the file's own iterator: no Python frame a line

    return lines


def _events(rep: Replay, lines: Iterator[tuple[int, str]],
            on_error: Callable[[LineError], None]) -> Iterator[Event]:
    """Apply each counted line to ``rep``; yield each event applied. A bad line is recorded
    in ``rep.errors``, handed to ``on_error`` and skipped; one problem is one error
    (``Replay.refused``: a refused set-up covers the events of its match; ``Replay.timed``:
    a clock running backwards is said once a match)."""
    for n, text in lines:
        problem = text_problem(text)
        no_setup = False
        if problem is None:
            try:
                event = parse_line(text)
                rep.apply(event)
            except TablesenseError as exc:
                problem, no_setup = str(exc), isinstance(exc, NoSetup)
            except Exception as exc:  # an engine that fails on one line costs that line only
                problem = f"internal error of the rule engine: {exc!r}"[:300]
            else:
                late = rep.timed(event, n)
                if late is not None:
                    on_error(late)
                yield event
                continue
        err = rep.refused(n, text, problem, no_setup)
        if err is not None:
            on_error(err)


def write_state(rep: Replay, out: IO[str], lang: str = "en") -> None:
    """``rep.to_json()`` as one line of JSON, the rulings written one at a time (a long
    match's rulings are never all held as dicts, nor the whole text)."""
    if rep.engine is None or rep.state is None:
        out.write(json.dumps(rep.to_json(), ensure_ascii=False) + "\n")
        return
    live = getattr(rep.engine, "live", None)  # a shot in progress, shown as if it stopped now
    state = live(rep.state) if live is not None else rep.state
    names = player_names(state)
    shown_json = getattr(rep.engine, "shown_json", rep.engine.to_json)  # the state is shown (live) already
    head = shown_json(_without_rulings(state), lang)
    if rep.errors:
        head["errors"] = [e.to_dict() for e in rep.errors]
    out.write("{")
    for i, (key, value) in enumerate(head.items()):
        out.write((", " if i else "") + json.dumps(key) + ": ")
        if key != "rulings":
            out.write(json.dumps(value, ensure_ascii=False))
            continue
        out.write("[")
        paused = gc.isenabled()
        if paused:  # the rulings read back and written make no reference cycles: the collector
            gc.disable()  # would only walk them, a third of reading a packed log back
        try:
            write = rulings_json(names, lang)
            rulings = state.rulings
            parts = rulings.field_parts() if isinstance(rulings, RulingLog) else [tuple(rulings)]
            sep = ""
            for chunk in parts:  # written a few hundred at a time: one write each, none held long
                for at in range(0, len(chunk), 512):
                    out.write(sep + ", ".join(write(chunk[at:at + 512])))
                    sep = ", "
        finally:
            if paused:
                gc.enable()
        out.write("]")
    out.write("}\n")


_INF = float("inf")


def _braced(text: str) -> str:
    """``text`` as a format string writes it."""
    return text.replace("{", "{{").replace("}", "}}")


#: parameters a ruling's JSON writes itself (``Ruling.to_dict``): a ruling with one of them among
#: its parameters is not written from a shape (``ruling_json``)
_RESERVED = frozenset({"t", "rule", "player", "text", "what"})
#: the distinct rulings (but for their time) whose JSON ``ruling_json`` keeps at most; past it,
#: it starts again (a match whose rulings all differ is written as before, not held)
RULINGS_KEPT = 4096
#: a rule with this many rulings written from their shape and not found in the store (a carom's
#: running total) has its rulings written from their shape first (``rulings_json``)
FRESH_AFTER = 256


def ruling_json(names: Mapping[str, str] | None, lang: str) -> Callable[[Ruling], str]:
    """A function giving a ruling's JSON as ``json.JSONEncoder(ensure_ascii=False).encode(
    r.to_dict(names, lang))`` writes it, byte for byte: ``rulings_json`` of one ruling."""
    write = rulings_json(names, lang)
    return lambda r: write((r,))[0]


def rulings_json(names: Mapping[str, str] | None, lang: str) -> Callable[[Sequence[Any]], list[str]]:
    """A function giving the JSON of each of a run of rulings (``Ruling``s, or their fields
    ``(t, rule, player, data)`` as ``RulingLog.field_parts`` gives them) as ``json.JSONEncoder(
    ensure_ascii=False).encode(r.to_dict(names, lang))`` writes it, byte for byte, its sentence
    rendered once for each distinct ruling.

    A ruling's JSON is its time (``t``, written first) and the rest, a function of its rule,
    player and parameters. The times of a run are written by one ``msgspec`` call (``_times``).
    The rest is encoded once per distinct (rule, player, parameters as ``marshal`` writes them)
    and kept (the store). Their ``marshal`` bytes and not the parameters themselves: they may
    hold lists (not hashable), and ``1``, ``1.0`` and ``True`` are equal keys of a dict but
    written differently; ``marshal`` writes each type its own way, the same bytes load as the
    same values (equal values written as different bytes are only encoded twice). A ruling whose
    parameters are all ``int``s has the rest from one format string kept for its (rule, player,
    keys) when its sentence is text and those values (``shaped``, ``texts.int_sentence``); a rule
    whose rulings are seldom said twice (``carom.carom`` says the running total) has them so
    before the store is asked, and not kept there (``FRESH_AFTER``). A ruling with a parameter
    ``t`` (it would overwrite the time), or one that ``marshal`` cannot write (a subclass of
    ``str``), is encoded whole. Each store holds at most ``RULINGS_KEPT`` and starts again
    past it (a match whose rulings all differ is not held)."""
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    tails: dict[tuple[str, str | None, bytes], str | None] = {}
    shapes: dict[tuple[Any, ...], str | None] = {}
    fresh: dict[str, int] = {}  # a rule's rulings written from their shape not found in the store
    fresh_rules: set[str] = set()  # the rules of ``FRESH_AFTER`` such rulings: from the shape first

    def shaped(rule: str, player: str | None, keys: tuple[str, ...]) -> str | None:
        """The format string of the JSON after the time of a ruling of ``rule``, ``player`` and
        parameters ``keys`` whose values are all ``int``s (``{0}`` the first value, ...), or None
        when its sentence is not text and those values (``texts.int_sentence``)."""
        if _RESERVED.intersection(keys):
            return None
        parts = int_sentence(rule, keys, lang, player, names)
        if parts is None:
            return None
        out = [", " + dumps("rule") + ": " + dumps(rule)]
        if player is not None:
            out.append(", " + dumps("player") + ": " + dumps(player))
        if any(p.__class__ is int or p for p in parts):  # (``to_dict`` leaves an empty sentence out)
            out.append(", " + dumps("text") + ': "')
            out.extend(dumps(p)[1:-1] if p.__class__ is str else p for p in parts)  # type: ignore[misc]
            out.append('"')
        for i, k in enumerate(keys):
            out.extend((", " + dumps(k) + ": ", i))
        out.append("}")
        return "".join(_braced(p) if p.__class__ is str else "{" + str(p) + "}" for p in out)

    def general(fields: Any) -> str:
        r = Ruling(*fields) if fields.__class__ is tuple else fields
        return dumps(r.to_dict(names, lang))  # type: ignore[no-any-return]

    def tail(fields: tuple[Any, str, str | None, Any]) -> str | None:
        """The ruling's JSON after its time (``, "rule": ...}``), or None to encode it whole."""
        for k, _ in fields[3]:
            if k == "t":
                return None
        out = Ruling(*fields).to_dict(names, lang)
        del out["t"]
        return ", " + dumps(out)[1:]

    def from_shape(rule: str, player: str | None, data: Any) -> str | None:
        """The ruling's JSON after its time from its shape's format string, when its parameters
        are all ``int``s under ``str`` keys and its sentence is text and them; else None."""
        try:
            for k, v in data:
                if v.__class__ is not int or k.__class__ is not str:
                    return None
        except (TypeError, ValueError):  # (not pairs)
            return None
        keys, values = zip(*data)
        shape = (rule, player, keys)
        fmt = shapes.get(shape, _ABSENT)
        if fmt is _ABSENT:
            if len(shapes) >= RULINGS_KEPT:
                shapes.clear()
            fmt = shapes[shape] = shaped(rule, player, keys)
        return None if fmt is None else fmt.format(*values)  # type: ignore[no-any-return]

    def write(run: Sequence[Any]) -> list[str]:
        fields = [r if r.__class__ is tuple else _FIELDS(r) if r.__class__ is Ruling else r for r in run]
        out: list[str] = []
        for head, f in zip(_times([f[0] if f.__class__ is tuple else f.t for f in fields], dumps), fields):
            if f.__class__ is not tuple:  # not a ``Ruling`` itself: its own ``to_dict``
                out.append(general(f))
                continue
            _, rule, player, data = f
            if rule in fresh_rules:  # its rulings seldom said before: from the shape, not the store
                rest = from_shape(rule, player, data) if data else None
                if rest is not None:
                    out.append(head + rest)
                    continue
            try:
                key = (rule, player, marshal_dumps(data))
            except ValueError:  # a parameter marshal cannot write: the general path
                out.append(general(f))
                continue
            rest = tails.get(key, _ABSENT)
            if rest is _ABSENT:
                if len(tails) >= RULINGS_KEPT:
                    tails.clear()
                rest = from_shape(rule, player, data) if data else None
                if rest is None:
                    rest = tail(f)
                else:
                    new = fresh[rule] = fresh.get(rule, 0) + 1
                    if new >= FRESH_AFTER:
                        fresh_rules.add(rule)
                tails[key] = rest
            out.append(general(f) if rest is None else head + rest)
        return out

    return write


_FIELDS = msgspec.structs.astuple
_ABSENT: Any = object()
_NUMBERS = {float, int}
_encode_json = msgspec.json.encode


def _times(ts: list[Any], dumps: Callable[[Any], str]) -> list[str]:
    """``'{"t": '`` and each time as the encoder writes it (``float.__repr__`` for a finite
    float, the encoder itself for any other value), the run's written by one ``msgspec``
    call: for a float of ``1e-4 <= abs(t) < 1e16`` (and zero) it writes the same digits as
    ``repr`` (both the shortest that reads back as the float, the nearer on a tie:
    tests/cli/test_replay_ruling_json.py), an ``int`` as ``repr``; a time it writes another
    way (an exponent, ``0.0000...``, ``null`` for NaN and the infinities) is written the
    general way."""
    if ts and set(map(type, ts)) <= _NUMBERS:
        try:
            text = _encode_json(ts).decode()
        except (OverflowError, TypeError, ValueError):  # (an int past 64 bits)
            text = ""
        if text:
            said = ('{"t": ' + text[1:-1].replace(",", ',{"t": ')).split(",")
            if "e" in text or "n" in text or "0.0000" in text:
                said = [_time(t, dumps) if "e" in s or "n" in s or "0.0000" in s else s
                        for t, s in zip(ts, said)]
            return said
    return [_time(t, dumps) for t in ts]


def _time(t: Any, dumps: Callable[[Any], str]) -> str:
    """``'{"t": '`` and ``t`` as the encoder writes it."""
    if t.__class__ is float and -_INF < t < _INF:
        return '{"t": ' + float.__repr__(t)
    return '{"t": ' + dumps(t)


def _without_rulings(state: Any) -> Any:
    """``state`` without its rulings (they are written one at a time)."""
    if isinstance(state, MatchState):
        return replace(state, rulings=RulingLog())
    return replace(state, rulings=())


def _key(r: Ruling) -> tuple[float, str, str | None, str]:
    return (r.t, r.rule, r.player, repr(r.data))


def new_rulings(old: Sequence[Ruling], new: Sequence[Ruling]) -> list[Ruling]:
    """The rulings of ``new`` that ``old`` did not have, in order.

    A late call may re-decide a shot and rebuild the end of the log, and an undo shortens
    it; the part the two logs share is the same objects (the engines extend the log
    they are given). That shared start is found by galloping back from the end and a
    binary search (O(log n)); only the tails are compared, as a multiset of rulings.
    """
    if old is new:
        return []
    m = min(len(old), len(new))
    shared = m
    if m and old[m - 1] is not new[m - 1]:
        bad, step = m - 1, 1  # old[bad] is not new[bad]
        good = bad - step
        while good >= 0 and old[good] is not new[good]:
            bad, step = good, step * 2
            good = bad - step
        good = max(good, -1)
        while bad - good > 1:
            mid = (good + bad) // 2
            if old[mid] is new[mid]:
                good = mid
            else:
                bad = mid
        shared = good + 1
    gone = Counter(_key(old[i]) for i in range(shared, len(old)))
    out: list[Ruling] = []
    for i in range(shared, len(new)):
        r = new[i]
        k = _key(r)
        if gone[k] > 0:
            gone[k] -= 1
        else:
            out.append(r)
    return out


_ACCOUNT_LINE = {Role.SETTLE: "account:settled", Role.INCIDENT: "account:incident"}


def _account(rep: Replay, applied: Iterator[Event], out: IO[str], lang: str = "en") -> None:
    """Shot by shot (``tablesense.shots``): each ruling as it is made, the score when each
    shot comes to rest, again after a late settle and after an incident between shots."""
    write = out.write
    cutter = Cutter()
    before: Sequence[Ruling] = ()
    asking: set[float] = set()  # the times at which a live view may ask (``asks_live``)
    for event in applied:
        state, engine = rep.state, rep.engine
        assert state is not None and engine is not None
        role, cutter = cutter.feed(event)
        if event.type == "setup":
            write(phrase("account:match", {"game": event.game}, lang) + "  "
                  + "  ".join(f"{k}={v}" for k, v in state.players) + "\n")
            before = ()
        for r in new_rulings(before, state.rulings):
            who = f" [{r.player}]" if r.player else ""
            write(f"  t={r.t:.6f} {r.rule}{who} {r.say(lang, player_names(state))}".rstrip() + "\n")
        before = state.rulings
        if event.type != "call":
            shown = state
            live = getattr(engine, "live", None)  # a question asked while the shot is in progress
            if live is not None:
                asks = getattr(engine, "asks_live", None)
                if asks is None or asks(event):  # (a drop held before a shot may open it: any state)
                    asking.add(event.t)
                if event.t in asking or not getattr(state, "in_shot", False) or getattr(state, "held", ()):
                    shown = live(state)
                else:  # a shot's live view resolves all of it: only where it may ask at this time
                    shown = None
            for q in shown.questions if shown is not None else ():
                if q.t == event.t:
                    write(f"  ? {q.id}: {q.say(lang, player_names(state))}\n")
        if isinstance(event, Rest):
            line = _ACCOUNT_LINE.get(role, "account:shot")
            write(phrase(line, {"shot": cutter.shot, "score": engine.summary(state, lang)}, lang) + "\n")
    if rep.state is not None and rep.engine is not None:
        state = rep.state
        write(phrase("account:result", {"result": result_text(rep.engine, state, lang)}, lang) + "\n")


def result_text(engine: Any, state: Any, lang: str) -> str:
    """How the match ended, the winner by name ("won by Ann"), or that it is in play and who
    is at the table."""
    names = player_names(state)
    if state.finished and state.winner in names:
        return phrase("result:won", {"winner": names[state.winner]}, lang)
    if not state.finished and state.at_table in names:
        return phrase("result:in-play", {"side": names[state.at_table]}, lang)
    return str(engine.result_text(state, lang))
