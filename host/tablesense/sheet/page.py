"""The score sheet as an HTML page made for printing on A4 (``tablesense sheet``, the pub's
``/sheet/<match>``), in the table's language: the figures of ``tablesense.club_figures`` laid out as
the club's paper sheet lays them out.

- carom: the scorer's sheet, inning by inning for both players (run and total), the
  equalising inning marked; then caroms, target and its share, innings, tonight's and the
  registered moyenne, high run, match points;
- keglebillard: series by series (points and total); points, distance, series, highest
  series, average per series;
- golf: frame by frame (its winner, the balls each side had left, its turns); frames won
  of the best of 3.

Each figure's cell carries ``data-player``, ``data-figure`` and, for a number,
``data-value`` (with a decimal point, whatever the language writes), so a program reads
the sheet as a person does. The words are ``texts/<lang>_sheet.py``'s; decimals are
written as the language writes them (0,333 in Dutch and Danish).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from ..club_figures import CaromFigures, Figures, GolfFigures, KegleFigures
from ..texts import decimal_mark, has_text, phrase

#: rows of innings (series) per block: longer matches get blocks side by side (two on a
#: row of A4, 60 innings on the first page)
ROWS = 30


@dataclass(frozen=True, slots=True)
class About:
    """Where the match comes from: a file, or a match of a pub's database."""

    source: str
    table: str | None = None
    match: int | None = None
    started: float | None = None
    ended: float | None = None


class _Say:
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.mark = decimal_mark(lang)

    def __call__(self, key: str, **params: Any) -> str:
        return escape(phrase(f"sheet:{key}", params, self.lang))

    def num(self, value: float, digits: int) -> str:
        text = f"{value:.{digits}f}"
        return text.replace(".", self.mark)


STYLE = """
@page{size:A4 portrait;margin:12mm 12mm 14mm}
html{font:10pt/1.3 system-ui,"DejaVu Sans",sans-serif;color:#000;background:#fff}
body{margin:1.5rem auto;max-width:186mm;padding:0 4mm}
h1{font-size:15pt;margin:0 0 1mm}
h2{font-size:11pt;margin:5mm 0 1.5mm}
p{margin:0 0 1.5mm}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{border:.3mm solid #444;padding:.4mm 1.8mm;text-align:right}
th{background:#e8e8e8;font-weight:600}
th.name,td.name,th.what{text-align:left}
.blocks{display:flex;flex-wrap:wrap;gap:4mm;align-items:flex-start}
.blocks table{break-inside:avoid;font-size:9pt}
td.equalising{font-weight:700;background:#fff0b3}
td.playing{font-style:italic}
.summary{min-width:60%;break-inside:avoid;font-size:9pt}
.legend{font-size:9pt}
h2.signed{break-after:avoid}
.signatures{display:flex;gap:8mm;margin-top:12mm;break-inside:avoid}
.signatures div{flex:1;border-top:.3mm solid #000;padding-top:1mm;font-size:9pt}
@media print{.noprint{display:none}body{margin:0;max-width:none;padding:0}
th,td.equalising{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
"""


def render(fig: Figures, lang: str, about: About) -> str:
    """The whole page."""
    say = _Say(lang)
    game = say(f"game.{fig.game}") if has_text(f"sheet:game.{fig.game}", "en") else escape(fig.game)
    if fig.carom is not None:
        game += " · " + say(f"discipline.{fig.carom.discipline}")
    names = [fig.names.get(p, p) for p in ("p1", "p2")]
    players = " – ".join(escape(n) for n in names)
    head = [f"<h1>{say('title')} · {game}</h1>",
            f"<p class=players><strong>{players}</strong></p>",
            f"<p class=meta>{_meta(say, about)}</p>",
            f"<p class=result>{say('result')}: <strong data-figure=result>{escape(_result(fig, lang))}"
            "</strong></p>",
            f"<p class=noprint><button type=button onclick='print()'>{say('print')}</button></p>"]
    if fig.carom is not None:
        body = _carom(say, fig.carom)
    elif fig.kegle is not None:
        body = _kegle(say, fig.kegle)
    elif fig.golf is not None:
        body = _golf(say, fig.golf, names)
    else:
        body = []
    tail = _errors(say, fig) + _signatures(say, names)
    title = f"{say('title')} · {game} · {players}"
    return (f"<!doctype html><html lang={lang}><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width,initial-scale=1'><title>{title}</title>"
            f"<style>{STYLE}</style></head><body><main>" + "".join(head + body + tail)
            + "</main></body></html>\n")


def _meta(say: _Say, about: About) -> str:
    parts = []
    if about.table:
        parts.append(f"{say('table')} {escape(about.table)}")
    if about.match is not None:
        parts.append(f"{say('match')} #{about.match}")
    if about.started:
        parts.append(f"{say('started')} {_when(about.started)}")
    if about.ended:
        parts.append(f"{say('ended')} {_when(about.ended)}")
    if not parts:
        parts.append(escape(about.source))
    return " · ".join(parts)


def _when(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch))


def _result(fig: Figures, lang: str) -> str:
    if fig.finished and fig.winner == "draw":
        return phrase("result:draw", {}, lang)
    if fig.finished and fig.winner:
        return phrase("result:won", {"winner": fig.names.get(fig.winner, fig.winner)}, lang)
    if fig.finished:
        return phrase("result:finished", {}, lang)
    return phrase("sheet:in-play", {}, lang)


def _cell(player: str, figure: str, value: float | int | None, text: str | None = None,
          cls: str = "") -> str:
    data = f" data-value={value}" if value is not None else ""
    klass = f" class='{cls}'" if cls else ""
    shown = text if text is not None else ("" if value is None else str(value))
    return f"<td{klass} data-player={player} data-figure={figure}{data}>{shown}</td>"


def _pairs_table(say: _Say, kind: str, label: str, value_label: str, names: Sequence[str],
                 rows: Iterable[tuple[int, Sequence[str]]]) -> str:
    """One block of the inning (series) table: number, then value and total per player."""
    head = (f"<tr><th scope=col rowspan=2>{say(label)}</th>"
            + "".join(f"<th scope=colgroup colspan=2 class=name>{escape(n)}</th>" for n in names) + "</tr>"
            + "<tr>" + f"<th scope=col>{say(value_label)}</th><th scope=col>{say('total')}</th>" * 2
            + "</tr>")
    body = "".join(f"<tr data-n={n}><th scope=row>{n}</th>{''.join(cells)}</tr>" for n, cells in rows)
    return f"<table class={kind}><thead>{head}</thead><tbody>{body}</tbody></table>"


def _blocks(say: _Say, kind: str, label: str, value_label: str, names: Sequence[str],
            rows: list[tuple[int, Sequence[str]]]) -> str:
    chunks = [rows[i:i + ROWS] for i in range(0, len(rows), ROWS)] or [[]]
    return "<div class=blocks>" + "".join(_pairs_table(say, kind, label, value_label, names, c)
                                          for c in chunks) + "</div>"


def _carom(say: _Say, c: CaromFigures) -> list[str]:
    names = [p.name for p in c.players]
    by_n = [{i.number: i for i in p.innings} for p in c.players]
    last = max((i.number for p in c.players for i in p.innings), default=0)
    mark = say("equalising-mark")
    rows: list[tuple[int, Sequence[str]]] = []
    for n in range(1, last + 1):
        cells = []
        for p, innings in zip(c.players, by_n):
            inning = innings.get(n)
            if inning is None:
                cells += [_cell(p.player, "run", None), _cell(p.player, "total", None)]
                continue
            marks = (("equalising", inning.equalising), ("playing", inning.playing))
            cls = " ".join(c for c, on in marks if on)
            shown = f"{inning.run}{' ' + mark if inning.equalising else ''}{' …' if inning.playing else ''}"
            cells += [_cell(p.player, "run", inning.run, shown, cls),
                      _cell(p.player, "total", inning.total, cls=cls)]
        rows.append((n, cells))
    legend = [say("breaker", name=_name(c, c.breaker))]
    if c.equalising:
        legend.append(f"{mark}: {say('equalising')} ({escape(_name(c, c.equalising))})")
    registered = any(p.registered is not None for p in c.players)  # columns with nothing to say are left out
    points = any(p.match_points is not None for p in c.players)
    summary_head = ("player", "caroms", "target", "percent", "innings", "moyenne",
                    *(("registered",) if registered else ()), "high-run",
                    *(("match-points",) if points else ()))
    summary_rows = []
    for p in c.players:
        summary_rows.append(
            f"<tr><th scope=row class=name>{escape(p.name)}</th>"
            + _cell(p.player, "caroms", p.caroms) + _cell(p.player, "target", p.target)
            + _cell(p.player, "percent", round(p.percent, 1), say.num(p.percent, 1))
            + _cell(p.player, "innings", p.innings_played)
            + _cell(p.player, "moyenne", p.moyenne, say.num(p.moyenne, 3))
            + (_cell(p.player, "registered", p.registered,
                     say.num(p.registered, 3) if p.registered is not None else "") if registered else "")
            + _cell(p.player, "high-run", p.high_run)
            + (_cell(p.player, "match-points", p.match_points) if points else "") + "</tr>")
    return [f"<h2>{say('innings')}</h2>", _blocks(say, "innings", "inning", "run", names, rows),
            f"<p class=legend>{' · '.join(legend)}</p>",
            _summary(say, summary_head, summary_rows)]


def _name(c: CaromFigures, player: str) -> str:
    return next((p.name for p in c.players if p.player == player), player)


def _kegle(say: _Say, k: KegleFigures) -> list[str]:
    names = [p.name for p in k.players]
    by_n = [{s.number: s for s in p.series} for p in k.players]
    last = max((s.number for p in k.players for s in p.series), default=0)
    rows: list[tuple[int, Sequence[str]]] = []
    for n in range(1, last + 1):
        cells = []
        for p, series in zip(k.players, by_n):
            s = series.get(n)
            if s is None:
                cells += [_cell(p.player, "points", None), _cell(p.player, "total", None)]
                continue
            cls = "playing" if s.playing else ""
            cells += [_cell(p.player, "points", s.points, f"{s.points}{' …' if s.playing else ''}", cls),
                      _cell(p.player, "total", s.total, cls=cls)]
        rows.append((n, cells))
    first = next((p.name for p in k.players if p.player == k.first), k.first)
    summary_rows = [
        f"<tr><th scope=row class=name>{escape(p.name)}</th>"
        + _cell(p.player, "points", p.points) + _cell(p.player, "distance", p.distance)
        + _cell(p.player, "series", len(p.series)) + _cell(p.player, "highest", p.highest)
        + _cell(p.player, "average", p.average, say.num(p.average, 2)) + "</tr>"
        for p in k.players]
    return [f"<h2>{say('series')}</h2>", _blocks(say, "series", "series", "points", names, rows),
            f"<p class=legend>{say('first', name=first)}</p>",
            _summary(say, ("player", "points", "distance", "series-count", "highest", "average"),
                     summary_rows)]


def _golf(say: _Say, g: GolfFigures, names: Sequence[str]) -> list[str]:
    head = (f"<tr><th scope=col>{say('frame')}</th><th scope=col class=name>{say('frame-winner')}</th>"
            + "".join(f"<th scope=col>{say('balls-left', name=n)}</th>" for n in names)
            + f"<th scope=col>{say('turns')}</th></tr>")
    rows = []
    for f in g.frames:
        winner = escape(names[0 if f.winner == "p1" else 1]) if f.winner in ("p1", "p2") else say("in-play")
        rows.append(f"<tr data-n={f.number}><th scope=row>{f.number}</th>"
                    f"<td class=name data-figure=winner data-value={f.winner or 'none'}>{winner}</td>"
                    + _cell("p1", "balls-left", f.balls_left[0]) + _cell("p2", "balls-left", f.balls_left[1])
                    + _cell("", "turns", f.turns) + "</tr>")
    summary_rows = [f"<tr><th scope=row class=name>{escape(n)}</th>"
                    + _cell(p, "frames-won", g.frames_won[i]) + "</tr>"
                    for i, (p, n) in enumerate(zip(("p1", "p2"), names))]
    return [f"<h2>{say('frame')} · {say('best-of', n=g.best_of)}</h2>",
            f"<table class=frames><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>",
            _summary(say, ("player", "frames-won"), summary_rows)]


def _summary(say: _Say, head: Sequence[str], rows: Sequence[str]) -> str:
    cols = "".join(f"<th scope=col class={'what' if k == 'player' else k}>{say(k)}</th>" for k in head)
    return f"<h2>{say('result')}</h2><table class=summary><thead><tr>{cols}</tr></thead>" \
           f"<tbody>{''.join(rows)}</tbody></table>"


def _errors(say: _Say, fig: Figures) -> list[str]:
    if not fig.errors:
        return []
    items = "".join(f"<li>{escape(str(e))}</li>" for e in fig.errors)
    return [f"<h2>{say('errors')}</h2><ul class=errors>{items}</ul>"]


def _signatures(say: _Say, names: Sequence[str]) -> list[str]:
    who = [escape(n) for n in names] + [say("referee"), say("scorer")]
    return [f"<h2 class=signed>{say('signatures')}</h2><div class=signatures>"
            + "".join(f"<div>{w}</div>" for w in who) + "</div>"]
