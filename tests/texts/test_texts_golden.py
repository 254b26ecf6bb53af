"""The texts as they were rendered before the move to Fluent (tests/golden/texts.json.gz), held
to the texts as they are: every recorded match's replay account, its ``--json`` state and its
score sheet in every language of the golden file, and every message key under varied
parameters (names with and without a final s, duos, counts of 0, 1, 2 and 1500, every word
of the word tables, a ball or none).

A recorded match is found by its content (the hash of its log), so renaming it keeps its
golden texts; a match the golden file does not know is not checked here.

    .venv/bin/python tests/texts/test_texts_golden.py --write   # after a deliberate change of a text
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tablesense import texts
from tablesense.club_figures import figures_of_log
from tablesense.commands import replay
from tablesense.sheet.page import About, render

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "golden" / "texts.json.gz"
MATCHES = sorted((ROOT / "matches").glob("*/*.jsonl"))
NAMES = [{"p1": "Ann", "p2": "Jens"}, {"p1": "Ann & Bo", "p2": "Lars & Mette"}, {"p1": "Max", "p2": "Inge"},
         {}]
BASES: list[dict[str, Any]] = [
    dict(goal="A", spot=2, from_spot=1, ball="p2", balls=2, frame=1, gap_us=350, member=0, pins=[2], points=1,
         run=1, series=1, remaining=20, pocket=1, pin=4, cushions=1, need=1, foul="touch", choice="outlay",
         corner="head-left", call="carom", scheme="de-bruijn", p1=1, p2=0, innings=30, seconds=40, left=1,
         made=1, target=300, distance=200, name="Ann", side="Ann", caroms=3, left1=5, left2=4, won1=0, won2=1,
         ids="p1, p2", winner="Ann", n=3, shot=1, score="x", result="y", game="golf"),
    dict(goal="B", spot=4, from_spot=3, ball="p1", balls=3, frame=2, gap_us=1500, member=1, pins=[1, 3, 5],
         points=12, run=2, series=3, remaining=1, pocket=3, pin=9, cushions=2, need=3, foul="push",
         choice="spot", corner="foot-right", call="foul", scheme="de-bruijn", p1=2, p2=2, innings=1,
         seconds=1, left=1234, made=[1, 2], target=1000, distance=1200, name="Jens", side="Jens", caroms=0,
         left1=1, left2=0, won1=2, won2=1, ids="p2", winner="Jens", n=1, shot=1200, score="", result="",
         game="kegle", text="the referee's own words"),
    dict(ball="white", balls=["p1", "white"], pins=[4], member=None, points=0, run=0, series=0, cushions=0,
         need=0, foul="woodwork", choice="masse", corner="foot-left", text=""),
    dict(ball="red", balls=1, run=3, series=2, cushions=3, foul="reste-dedans", choice="play",
         corner="head-right"),
]
#: every word of the word tables, one at a time
WORDS = ([{"foul": f} for f in ("touch", "touch-remove-object", "touch-moved", "push", "foot", "stool",
                                "wrong-ball", "moving-balls", "smoking", "jump", "woodwork", "reste-dedans",
                                "opening-shot", "no-blame", "poedel", "masse")]
         + [{"choice": c} for c in ("outlay", "play", "masse", "spot")]
         + [{"corner": c} for c in ("head-left", "head-right", "foot-right", "foot-left")]
         + [{"ball": b} for b in ("yellow", "white", "red", "p1", "p2")])
PHRASES = ("summary.", "result:", "account:", "sheet:")


def _run(path: Path, lang: str, as_json: bool) -> str:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        replay.run(argparse.Namespace(file=str(path), json=as_json, lang=lang))
    return out.getvalue()


def match_texts(path: Path, lang: str) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {"account": _run(path, lang, False), "json": _run(path, lang, True),
            "sheet": render(figures_of_log(lines), lang, About("match"))}


def key_texts(key: str, lang: str) -> list[str]:
    rule, _, what = key.partition(":")
    out = []
    for b, base in enumerate(BASES):
        for extra in [{}, *(WORDS if b == 0 else [])]:
            data = {**BASES[0], **base, **extra}
            if what:
                data["what"] = what
            data = {k: v for k, v in data.items() if v is not None}
            for names in NAMES:
                for player in ("p1", "p2", None):
                    out.append(texts.render(rule, data, lang, player, names))
            if key.startswith(PHRASES):
                out.append(texts.phrase(key, data, lang))
    return out


def _hash(path: Path) -> str:
    return hashlib.sha1(path.read_bytes()).hexdigest()[:16]


@cache
def golden() -> dict[str, Any]:
    if not GOLDEN.exists():
        pytest.skip("no golden file")
    return json.loads(gzip.decompress(GOLDEN.read_bytes()))  # type: ignore[no-any-return]


def _known() -> list[tuple[Path, str]]:
    hashes = {_hash(p): p for p in MATCHES}
    return [(hashes[h], lang) for h, lang in (k.split() for k in golden()["matches"]) if h in hashes]


def test_every_recorded_match_says_what_it_said() -> None:
    known = _known()
    assert len(known) > 300, "the recorded matches of the golden file were not found"
    wrong = []
    for path, lang in known:
        want = golden()["matches"][f"{_hash(path)} {lang}"]
        got = match_texts(path, lang)
        for part in ("account", "json", "sheet"):
            if got[part] != want[part]:
                wrong.append(f"{path.parent.name}/{path.name} {lang} {part}")
    assert not wrong, f"{len(wrong)} differ, first: {wrong[:10]}"


def test_every_message_says_what_it_said_under_varied_parameters() -> None:
    wrong = []
    for name, want in golden()["keys"].items():
        key, lang = name.split()
        if key.startswith("sheet:"):  # the sheet's words: said on the sheets of the recorded matches
            continue
        got = key_texts(key, lang)
        if got != want:
            first = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
            wrong.append(f"{key} {lang}: {got[first]!r} where it said {want[first]!r}")
    assert not wrong, f"{len(wrong)} differ: {wrong[:10]}"


def write(keys: list[str], langs: tuple[str, ...]) -> None:
    rec: dict[str, Any] = {"matches": {}, "keys": {}}
    for path in MATCHES:
        for lang in langs:
            rec["matches"][f"{_hash(path)} {lang}"] = match_texts(path, lang)
    for key in keys:
        for lang in langs:
            rec["keys"][f"{key} {lang}"] = key_texts(key, lang)
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_bytes(gzip.compress(json.dumps(rec, ensure_ascii=False, sort_keys=True, indent=0).encode(),
                                     mtime=0))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="write tests/golden/texts.json.gz")
    ap.add_argument("--write", action="store_true")
    if ap.parse_args().write:
        old = golden() if GOLDEN.exists() else {"keys": {}}
        write(sorted({k.split()[0] for k in old["keys"]}), tuple(texts.LANGS))
    sys.exit(0)
