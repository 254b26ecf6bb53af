"""``tablesense replay FILE [--json]``: the match state after a log, or a readable account."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from ..errors import TablesenseError
from ..events import Rest, parse_line
from ..replay import LineError, Replay, effective_lines
from ..rules import Ruling


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="match log or scenario, JSON Lines ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print the final state as one JSON object")


def run(args: argparse.Namespace) -> int:
    try:
        fh = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    except OSError as exc:
        print(f"tablesense replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    with fh:
        lines = fh.read().splitlines()
    rep = Replay()
    if args.json:
        rep.feed_lines(lines)
        print(json.dumps(rep.to_json(), ensure_ascii=False))
    else:
        _account(rep, lines)
    for err in rep.errors:
        print(f"tablesense replay: {args.file}: {err}", file=sys.stderr)
    return 1 if rep.errors else 0


def _key(r: Ruling) -> tuple[float, str, str | None, str]:
    return (r.t, r.rule, r.player, r.text)


def _account(rep: Replay, lines: list[str]) -> None:
    """Shot by shot: each ruling as it is made, the score after each shot."""
    shot = 0
    for n, text in effective_lines(lines):
        before = Counter(_key(r) for r in rep.state.rulings) if rep.state else Counter()
        try:
            event = parse_line(text)
            rep.apply(event)
        except TablesenseError as exc:
            rep.errors.append(LineError(n, str(exc), text))
            print(f"  ! line {n}: {exc}")
            continue
        assert rep.state is not None and rep.engine is not None
        if event.type == "setup":
            print(f"match: {event.game}  " + "  ".join(f"{k}={v}" for k, v in rep.state.players))
            before = Counter()
        # a late call may re-decide a shot and rebuild the rulings: print only what is new
        for r in rep.state.rulings:
            if before[_key(r)] > 0:
                before[_key(r)] -= 1
                continue
            who = f" [{r.player}]" if r.player else ""
            print(f"  t={r.t:.6f} {r.rule}{who} {r.text}".rstrip())
        for q in rep.state.questions:
            if q.t == event.t and event.type != "call":
                print(f"  ? {q.id}: {q.text}")
        if isinstance(event, Rest):
            shot += 1
            print(f"shot {shot}: {rep.engine.summary(rep.state)}")
    if rep.state is not None and rep.engine is not None:
        state = rep.state
        end = rep.engine.result_text(state) if state.finished else f"in play, {state.at_table} at the table"
        print(f"result: {end}")
