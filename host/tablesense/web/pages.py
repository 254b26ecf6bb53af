"""Pages rendered on the host: a table's match history and a match's rulings (the club's score
sheet is ``tablesense.sheet``'s, at ``/sheet/<id>``)."""

from __future__ import annotations

import bisect
import json
import re
import time
from functools import cache
from html import escape
from typing import Any

from .. import texts
from ..errors import TablesenseError
from ..events import parse_line
from ..replay import Replay
from ..rules.base import player_names
from ..shots import Cutter, Role
from ..store import MatchRow


@cache
def strings(lang: str) -> dict[str, str]:
    """The screens' words of ``lang`` (``texts/<lang>/screen.json``), English for anything missing."""
    return texts.screen(lang) | _corners("en") | _corners(lang)


def _corners(lang: str) -> dict[str, str]:
    """``corner.<corner>``: carom's corners in the rulings' own words (``texts/<lang>/words.ftl``)."""
    return {f"corner.{corner}": word for corner, word in texts.words("corner", lang).items()}


def _players(players: dict[str, Any]) -> str:
    def name(v: Any) -> str:
        return " & ".join(v) if isinstance(v, list) else str(v)

    return f"{escape(name(players.get('p1', '?')))} – {escape(name(players.get('p2', '?')))}"


def _when(epoch: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch)) if epoch else ""


_STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#111}
table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{border:1px solid #999;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#eee}
.num{text-align:right;font-variant-numeric:tabular-nums}
@media print{a.noprint,.noprint{display:none}body{margin:0}}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
"""


def history_html(table_id: str, matches: list[MatchRow], lang: str) -> str:
    s = strings(lang)
    rows = []
    for m in matches:
        result = s["in_play"]
        if m.result:
            winner = m.result.get("winner")
            won = f"{s['winner']}: {_name(m.players, winner)} · " if winner and winner != "draw" else ""
            result = escape(won + named(str(m.result.get("summary") or ""), m.players))
        rows.append(
            f"<tr><td class=num>{m.id}</td><td>{escape(s.get('game.' + m.game, m.game))}</td>"
            f"<td>{_players(m.players)}</td><td>{_when(m.started)}</td><td>{_when(m.ended)}</td>"
            f"<td>{result}</td><td><a href='/sheet/{m.id}'>{s['sheet']}</a> · "
            f"<a href='/match/{m.id}/rulings'>{s['rulings']}</a> · "
            f"<a href='/match/{m.id}.jsonl'>{s['export']}</a></td></tr>"
        )
    body = "".join(rows) or f"<tr><td colspan=7>{s['no_match']}</td></tr>"
    return (
        f"<!doctype html><html lang={lang}><meta charset=utf-8>"
        f"<meta name=viewport content='width=device-width,initial-scale=1'>"
        f"<title>{s['history']} · {s['table']} {escape(table_id)}</title><style>{_STYLE}</style>"
        f"<main><h1>{s['history']} · {s['table']} {escape(table_id)}</h1>"
        f"<p class=noprint><a href='/table/{escape(table_id)}'>{s['tv']}</a> · "
        f"<a href='/'>{s['overview']}</a></p>"
        f"<table><tr><th>#</th><th>{s['game']}</th><th>{s['player']}</th><th>{s['started']}</th>"
        f"<th>{s['ended']}</th><th>{s['result']}</th><th><span class=sr>{s['sheet']}</span></th></tr>"
        f"{body}</table></main></html>"
    )


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "✔" if value else ""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, (list, dict)):
        return escape(json.dumps(value, ensure_ascii=False))
    return escape(str(value))


def rulings_html(match: MatchRow, lines: list[str], lang: str) -> str:
    """A match's rulings, printable: the players, the final score, every ruling that stands with
    its rule id and shot (the club's score sheet is ``tablesense.sheet``'s: ``/sheet/<id>``)."""
    s = strings(lang)
    rep = Replay()
    starts: list[float] = []  # when each shot began (tablesense.shots: late settles are in theirs)
    cutter = Cutter(game=match.game)
    problems: list[str] = []
    for n, line in enumerate(lines, start=1):
        try:
            event = parse_line(line)
            rep.apply(event)
        except TablesenseError as exc:
            problems.append(f"<tr><td class=num>{n}</td><td colspan=3>! {escape(str(exc))}</td></tr>")
            continue
        role, cutter = cutter.feed(event)
        if role is Role.OPEN or role is Role.EMPTY:
            starts.append(event.t)
    account = []  # the rulings that stand (undone ones are gone from the final state)
    names = player_names(rep.state) if rep.state is not None else {}
    for r in rep.state.rulings if rep.state is not None else ():
        shot = max(1, bisect.bisect_right(starts, r.t))  # a call after a rest amends that shot
        who = escape(_name(match.players, r.player)) if r.player else ""
        said = escape(r.say(lang, names))
        account.append(f"<tr><td class=num>{shot}</td><td class=num>{r.t:.1f}</td>"
                       f"<td><code>{escape(r.rule)}</code></td><td>{who} {said}</td></tr>")
    state: dict[str, Any] = rep.to_json() if rep.engine else {}
    score_rows = []
    for key, value in state.items():
        if isinstance(value, dict) and set(value) >= {"p1", "p2"}:
            label = s.get(key, key.replace("_", " "))
            score_rows.append(f"<tr><th>{escape(label)}</th><td class=num>{_cell(value['p1'])}</td>"
                              f"<td class=num>{_cell(value['p2'])}</td></tr>")
    winner = state.get("winner")
    result = s["in_play"]
    if winner == "draw":
        result = s["draw"]
    elif winner:
        result = f"{s['winner']}: {escape(_name(match.players, winner))}"
    p1, p2 = (escape(_name(match.players, p)) for p in ("p1", "p2"))
    rulings = "".join(account) + "".join(problems)
    game = s.get("game." + match.game, match.game)
    return (
        f"<!doctype html><html lang={lang}><meta charset=utf-8><title>{s['rulings']} #{match.id}</title>"
        f"<style>{_STYLE}</style><main><h1>{s['rulings']} · {escape(game)}</h1>"
        f"<p>{s['table']} {escape(match.table_id)} · {s['match']} #{match.id} · {_when(match.started)}"
        f" · {s['result']}: <strong>{result}</strong></p>"
        f"<p class=noprint><button onclick='print()'>{s['print']}</button> "
        f"<a href='/sheet/{match.id}'>{s['sheet']}</a> · "
        f"<a href='/match/{match.id}.jsonl'>{s['export']}</a></p>"
        f"<table><tr><th><span class=sr>{s['score']}</span></th><th>{p1}</th><th>{p2}</th></tr>"
        f"{''.join(score_rows)}</table>"
        f"<h2>{s['rulings']}</h2><table><tr><th>{s['shot']}</th><th>{s['time']}</th><th>{s['rule']}</th>"
        f"<th>{s['rulings']}</th></tr>{rulings}</table></main></html>"
    )


_PLAYER = re.compile(r"\bp([12])\b")


def named(text: str, players: dict[str, Any]) -> str:
    """An engine's summary with the players' names for p1/p2 ("p1 Gerda 2" reads "Gerda 2")."""
    for p in ("p1", "p2"):
        if p in players:
            text = text.replace(f"{p} {_name(players, p)}", _name(players, p))
    return _PLAYER.sub(lambda mt: _name(players, "p" + mt.group(1)), text)


def _name(players: dict[str, Any], player: str | None) -> str:
    v = players.get(player or "", player or "")
    return " & ".join(v) if isinstance(v, list) else str(v)
