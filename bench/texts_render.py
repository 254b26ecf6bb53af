"""How fast the rulings' sentences are rendered, in every language, beside anchors measured
in the same run.

- ``render``: every ruling and question of every recorded match (tests/matches/, their final
  states) rendered by ``tablesense.texts.render`` in each language; the anchor is
  ``json.dumps`` of the same rulings' data (what ``tablesense replay --json`` writes for each
  ruling beside its sentence), so the ratio says what a sentence costs beside its data;
- ``fluent.runtime en``: the same English sentences resolved by Fluent's reference
  implementation instead of the catalogues' compiled messages (why they are compiled);
- ``account``: the replay account (``tablesense replay FILE --lang L``, in this process) of
  every recorded match, beside the anchor of replaying the same matches with no account
  (``Replay().feed_lines``): what the words add to a replay.

CPU time of this process, best of ``--repeat``.

    .venv/bin/python bench/texts_render.py [--repeat R]
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import sys
import time
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from tablesense import texts
from tablesense.commands import replay
from tablesense.replay import Replay
from tablesense.rules.base import player_names

ROOT = Path(__file__).resolve().parent.parent
MATCHES = sorted((ROOT / "tests" / "matches").glob("*/*.jsonl"))


def best_cpu(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def items() -> list[tuple[str, dict[str, Any], str | None, dict[str, str]]]:
    """(rule, data, player, names) of every ruling and question of every recorded match."""
    out = []
    for path in MATCHES:
        state = Replay().feed_lines(path.read_text(encoding="utf-8").splitlines()).state
        if state is None:
            continue
        names = player_names(state)
        for item in (*state.rulings, *state.questions):
            out.append((item.rule, dict(item.data), item.player, names))
    return out


def account(paths: list[Path], lang: str) -> None:
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        for path in paths:
            replay.run(argparse.Namespace(file=str(path), json=False, lang=lang))


def replay_only(logs: list[list[str]]) -> None:
    for lines in logs:
        Replay().feed_lines(lines)


def fluent_runtime(found: list[tuple[str, dict[str, Any], str | None, dict[str, str]]]) -> None:
    """The same English sentences, each message resolved by ``fluent.runtime`` (the parameters
    put in words as ``render`` puts them, outside the timing's interest but inside its loop)."""
    for rule, data, player, names in found:
        ident = texts.message_id(texts.key_of(rule, data))
        message = BUNDLE.get_message(ident)
        BUNDLE.format_pattern(message.value, dict(texts._params(data, player, names, "en")))


def _bundle() -> Any:
    from fluent.runtime import FluentBundle, FluentResource

    bundle = FluentBundle(["en"], use_isolating=False)
    for path in sorted((Path(texts.__file__).parent / "en").glob("*.ftl")):
        bundle.add_resource(FluentResource(path.read_text(encoding="utf-8")))
    return bundle


BUNDLE = _bundle()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    found = items()
    langs = texts.LANGS
    for lang in langs:  # loaded before anything is timed
        texts.render("golf.turn", {}, lang, "p1", {})
    print(f"{len(found)} rulings and questions of {len(MATCHES)} recorded matches; "
          f"languages {', '.join(langs)}")
    anchor = best_cpu(lambda: [json.dumps(d) for _, d, _, _ in found], args.repeat)
    print(f"{'json.dumps (anchor)':<22} {anchor / len(found) * 1e6:7.2f} µs each")
    for lang in langs:
        secs = best_cpu(lambda lang=lang: [texts.render(r, d, lang, p, n) for r, d, p, n in found],
                        args.repeat)
        print(f"{'render ' + lang:<22} {secs / len(found) * 1e6:7.2f} µs each  {secs / anchor:5.2f}x anchor")
    secs = best_cpu(lambda: fluent_runtime(found), args.repeat)
    print(f"{'fluent.runtime en':<22} {secs / len(found) * 1e6:7.2f} µs each  {secs / anchor:5.2f}x anchor"
          "  (the same messages resolved by Fluent's reference implementation)")
    logs = [p.read_text(encoding="utf-8").splitlines() for p in MATCHES]
    base = best_cpu(lambda: replay_only(logs), args.repeat)
    print(f"{'replay alone (anchor)':<22} {base * 1e3:7.1f} ms for the {len(MATCHES)} matches")
    for lang in langs:
        secs = best_cpu(lambda lang=lang: account(MATCHES, lang), args.repeat)
        print(f"{'account ' + lang:<22} {secs * 1e3:7.1f} ms  {secs / base:5.2f}x anchor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
