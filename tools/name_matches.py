"""Name the recorded matches of tests/matches/<game>/ for what they check.

    .venv/bin/python tools/name_matches.py            # show what would be renamed
    .venv/bin/python tools/name_matches.py --apply    # git mv them, rewrite the references
    .venv/bin/python tools/name_matches.py --check    # every name follows the convention

The convention (tests/matches/README.md): ``<rule>__<situation>.jsonl`` beside its
``<rule>__<situation>.expect.json``, where ``<rule>`` is the rule's id in seeds/<game>.md
without the game (``fault.no-cushion`` for ``kegle.fault.no-cushion``) or one of the
behaviours of the log that are no rule (BEHAVIOURS), and ``<situation>`` says in words
(``_`` between them) what happens in the match.

A match whose name has no ``__`` yet (an ``outsider*`` match, or one added under an older
name) gets one: its rule is the one it checks, read from the match when RULE does not name
it: an ``undo`` call makes it ``undo``; a log the engine refuses lines of (``errors`` in the
expected state), ``log``; the fault of its last shot (``last_shot.faults``); else the
rarest rule among the rulings and questions of its replayed state (the rarest over all the
recorded matches of the game: ``kegle.pin`` or ``golf.goal`` are in most). Its situation is
the old name without the ``outsider``/``outsider2`` prefix, or SITUATION's words. Names
already in the convention are never touched, so the script can run again after others
added matches: it renames only the new ones.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MATCHES = ROOT / "tests" / "matches"
SEEDS = ROOT / "seeds"
# where a match may be named: every text file under these is rewritten on --apply
REFERENCES = ("tests", "docs", "host", "bench", "tools", "README.md", "Makefile", "examples")
TEXT = {".py", ".md", ".json", ".toml", ".txt", ".html", ".js", ""}

BEHAVIOURS = {
    "undo": "the referee's `undo` call (docs/events.md, Referee calls)",
    "log": "a log the engine refuses lines of: the state's `errors` (docs/events.md)",
}
ID_ROW = re.compile(r"^\|\s*`((?:golf|kegle|carom)\.[a-z0-9][a-z0-9.-]*)`")
NAME = re.compile(r"^(?P<rule>[a-z0-9][a-z0-9.-]*)__(?P<situation>[a-z0-9][a-z0-9_-]*)$")
LEGACY = re.compile(r"^outsider\d*_")

# The rule a match checks, where the reading above picks another (old name: rule).
RULE: dict[str, str] = {
    "carom/outsider2_contacts_one_ball": "carom",
    "carom/outsider2_de_bruijn_round_down": "match-points.de-bruijn",
    "carom/outsider2_driebanden_example_targets": "target.moyenne",
    "carom/outsider2_moyenne_targets": "target.moyenne",
    "carom/outsider_moyennes": "target.moyenne",
    "carom/outsider2_high_run_average": "series",
    "carom/outsider2_nastoot_foul_end": "nastoot",
    "carom/outsider2_second_shot_not_a_break": "opening-shot.direct",
    "carom/outsider2_zone_ball_on_line": "zone.line",
    "carom/outsider_bandstoten_1": "bandstoten",
    "carom/outsider_basic_run": "series",
    "carom/outsider_driebanden_2": "driebanden",
    "carom/outsider_driebanden_out_of_order": "driebanden",
    "carom/outsider_liemers_break_ok": "opening-shot.cushion",
    "carom/outsider_no_call_no_carom": "carom",
    "carom/outsider_positions_first_zone": "zone",
    "carom/outsider_zone_out": "zone",
    "carom/bandstoten_kampioen_white_wins": "bandstoten",
    "carom/bandstoten_liemers_countdown": "countdown",
    "carom/driebanden_kampioen_nastoot_short": "nastoot",
    "carom/driebanden_liemers_contacts": "driebanden",
    "carom/libre_kampioen_fouls": "foul.carom-void",
    "carom/libre_kampioen_nastoot_draw": "draw",
    "carom/libre_liemers_reste_dedans": "dedans.reste",
    "golf/outsider2_frame2_other_player_opens": "frame.opening",
    "golf/outsider2_one_one_zone": "zone.play",
    "golf/outsider2_undo_nothing": "undo",
    "golf/outsider_duo": "duo.order",
    "golf/outsider_null_ball_goal_asks": "goal",
    "golf/outsider_one_one_off_no_goal": "off-table.one-one",
    "golf/outsider_opp_last_ball_off": "off-table.opponent",
    "golf/outsider_zone_miss_no_question": "zone.play",
    "golf/best_of_three": "match.won",
    "golf/double_finish": "frame.double-finish",
    "golf/double_finish_p2_first": "frame.double-finish",
    "golf/duo": "duo.deciding",
    "golf/one_one": "off-table.one-one",
    "kegle/outsider2_cushion_null_counts": "fault.no-cushion",
    "kegle/outsider2_foul_turn_p2_then_p1_scores": "fault.noticed",
    "kegle/outsider2_late_foul_named_shooter": "fault.noticed",
    "kegle/outsider2_p2_first_last_series_short": "last-series",
    "kegle/outsider2_pocket_null_unanswered_next": "white-in-hole",
    "kegle/outsider2_second_player_reaches_ends_match": "same-series",
    "kegle/outsider2_start_after_first_shot": "lag",
    "kegle/outsider2_three_reds_reset_by_pin": "fault.three-reds",
    "kegle/outsider_first_reaches_wins": "last-series",
    "kegle/outsider_jumped_then_opponent": "fault.jumped-ball",
    "kegle/outsider_last_series_fault": "last-series",
    "kegle/outsider_last_series_short": "last-series",
    "kegle/outsider_pocket_null_open": "fault.red-in-hole",
    "kegle/outsider_series_no_up_events": "fault.pins-not-up",
    "kegle/outsider_targets": "distance",
    "kegle/draw_after_last_series": "draw",
    "kegle/jumped_ball": "fault.jumped-ball",
    "kegle/red_in_hole_with_pins": "fault.red-in-hole",
    "kegle/simulated_full_information": "shot",
    "kegle/won_after_equal_series": "same-series",
}

# What happens, where the old name without its prefix says it badly (old name: words).
SITUATION: dict[str, str] = {
    "carom/outsider2_contacts_one_ball": "contacts_with_one_ball_only_no_carom",
    "carom/outsider2_driebanden_example_targets": "driebanden_example",
    "carom/outsider2_high_run_average": "high_run_and_average",
    "carom/outsider2_jump_call": "referee_call",
    "carom/outsider2_nastoot_foul_end": "foul_ends_it",
    "carom/outsider2_nastoot_late_carom": "late_carom",
    "carom/outsider2_poedel": "no_carom_ends_the_inning",
    "carom/outsider2_undo_after_foul": "after_a_foul",
    "carom/outsider2_undo_match_end": "match_end",
    "carom/outsider2_undo_twice": "twice",
    "carom/outsider_bandstoten_1": "one_cushion_before_the_third_ball",
    "carom/outsider_basic_run": "run_of_two",
    "carom/outsider_countdown": "counts_down",
    "carom/outsider_draw": "libre",
    "carom/outsider_draw_liemers": "liemers",
    "carom/outsider_driebanden_2": "two_cushions_not_enough",
    "carom/outsider_nastoot_pending": "pending",
    "carom/outsider_nastoot_short": "short_match_won",
    "carom/outsider_undo_carom": "carom",
    "carom/outsider_undo_miss": "miss",
    "carom/outsider_zone_out": "ball_leaves_the_zone",
    "golf/outsider2_undo_after_foul": "after_a_foul",
    "golf/outsider2_undo_frame_win": "frame_win",
    "golf/outsider2_undo_match_end": "match_end",
    "golf/outsider2_undo_nothing": "nothing_to_undo",
    "golf/outsider2_undo_twice": "twice",
    "golf/outsider_duo": "pairs_take_turns",
    "golf/outsider_foot": "referee_call",
    "golf/outsider_jump": "referee_call",
    "golf/outsider_match_won": "two_frames_to_nil",
    "golf/outsider_own_goal": "own_ball_in_own_goal",
    "golf/outsider_push": "referee_call",
    "golf/outsider_undo_goal": "goal",
    "golf/outsider_undo_late_foul": "late_foul",
    "golf/outsider_wrong_ball": "referee_call",
    "kegle/outsider2_disqualify": "referee_call",
    "kegle/outsider2_red_and_white_in_holes": "red_and_white_in_holes",
    "kegle/outsider2_red_and_white_same_time": "red_and_white_topple_pins_at_once",
    "golf/outsider2_foul_hold_back_opponent": "held_back_opponent_ball",
    "kegle/outsider2_foul_no_rail": "called_no-rail",
    "kegle/outsider2_cushion_null_counts": "cushion_of_an_unknown_ball_counts",
    "golf/outsider_match_2_1": "two_frames_to_one",
    "kegle/outsider_pin_ball_white": "pin_toppled_by_a_white_scores",
    "kegle/outsider2_undo_answer": "answer",
    "kegle/outsider2_undo_carom": "carom",
    "kegle/outsider2_undo_draw_reopens_last_series": "draw_reopens_last_series",
    "kegle/outsider2_undo_red_in_hole": "red_in_hole",
    "kegle/outsider2_undo_twice": "twice",
    "kegle/outsider_draw": "both_reach_the_distance",
    "kegle/outsider_no_cushion_twice": "second_set-up_in_a_row",
    "kegle/outsider_targets": "own_targets",
    "kegle/outsider_three_reds": "third_shot_without_a_pin",
    "kegle/outsider_undo_foul": "foul",
    "kegle/outsider_undo_shot": "shot",
    "kegle/outsider_undo_win": "win",
}


def catalogue(game: str) -> set[str]:
    """The rule ids of seeds/<game>.md without the game (``fault.no-cushion``)."""
    path = SEEDS / f"{game}.md"
    rows = (ID_ROW.match(line) for line in path.read_text().splitlines()) if path.exists() else ()
    return {m.group(1).split(".", 1)[1] for m in rows if m}


def replayed(log: Path) -> dict:
    """The final state `tablesense replay LOG --json` prints (run in this process)."""
    from tablesense.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["replay", str(log), "--json"])
    return json.loads(out.getvalue())


def cited(state: dict) -> list[str]:
    """The rule ids of a state's rulings and open questions, in order."""
    return [r["rule"] for r in [*state.get("rulings", []), *state.get("questions", [])] if r.get("rule")]


def key(log: Path) -> str:
    return f"{log.parent.name}/{log.stem}"


def new_names(logs: list[Path]) -> dict[Path, str]:
    """The new stem of each match not yet named by the convention."""
    todo = [log for log in logs if not NAME.match(log.stem)]
    if not todo:
        return {}
    states = {log: replayed(log) for log in logs}
    seen: dict[str, Counter[str]] = {}
    for log, state in states.items():
        seen.setdefault(log.parent.name, Counter()).update(set(cited(state)))
    out: dict[Path, str] = {}
    for log in todo:
        game, text = log.parent.name, log.read_text()
        expected = json.loads(log.with_suffix(".expect.json").read_text())
        faults = (expected.get("last_shot") or {}).get("faults") or []
        rules = cited(states[log])
        if key(log) in RULE:
            rule = RULE[key(log)]
        elif '"call": "undo"' in text:
            rule = "undo"
        elif "errors" in expected:
            rule = "log"
        elif faults:
            rule = faults[0]
        elif rules:
            rule = min(reversed(rules), key=lambda r: seen[game][r])
        else:
            rule = "?"
        rule = rule.removeprefix(f"{game}.")
        situation = SITUATION.get(key(log)) or without_rule(LEGACY.sub("", log.stem), rule)
        out[log] = f"{rule}__{situation}"
    return out


def without_rule(situation: str, rule: str) -> str:
    """The situation's words without a first word or two the rule already says
    (``pin__pin_rocks_back_up`` is ``pin__rocks_back_up``); all of them said: as it was."""
    said = set(re.split(r"[.-]", rule)) | ({"foul"} if rule.startswith(("fault.", "foul.")) else set())
    words = situation.split("_")
    rest = list(words)
    while rest and rest[0] in said:
        rest.pop(0)
    return "_".join(rest) if rest else situation


def problems(logs: list[Path]) -> list[str]:
    """Names not in the convention: the rule no id of the game's catalogue nor a behaviour."""
    out = []
    for log in logs:
        m = NAME.match(log.stem)
        if not m:
            out.append(f"{key(log)}: not <rule>__<situation>")
        elif m["rule"] not in catalogue(log.parent.name) | set(BEHAVIOURS):
            out.append(f"{key(log)}: {m['rule']} is no rule of seeds/{log.parent.name}.md nor a behaviour")
        if not log.with_suffix(".expect.json").exists():
            out.append(f"{key(log)}: no {log.stem}.expect.json beside it")
    return out


def rewrite_references(renames: dict[Path, str], before: dict[Path, str] | None = None) -> list[Path]:
    """Replace each old ``<game>/<stem>.jsonl`` and ``<stem>.jsonl`` / ``.expect.json`` in the
    text files of REFERENCES; a bare stem shared by two games with two new names is left
    (and said). Read the diff: a bare ``duo.jsonl`` may be a file a test writes, no match.
    The renames of earlier runs (``before``) only as ``<game>/<stem>``, which names no other file."""
    by_stem: dict[str, set[str]] = {}
    for log, new in renames.items():
        by_stem.setdefault(log.stem, set()).add(new)
    pairs: list[tuple[re.Pattern[str], str]] = []
    for log, new in {**(before or {}), **renames}.items():
        game, old = log.parent.name, log.stem
        after = r"(?=\.jsonl|\.expect\.json|[`'\" )]|$)"
        pairs.append((re.compile(rf"\b{game}/{re.escape(old)}\b{after}"), f"{game}/{new}"))
    for old, news in by_stem.items():
        if len(news) == 1:
            bare = re.compile(rf"(?<![\w/.-]){re.escape(old)}(?=\.jsonl|\.expect\.json)")
            pairs.append((bare, next(iter(news))))
        else:
            print(f"  not rewritten (two games, two names): {old}.jsonl -> {sorted(news)}", file=sys.stderr)
    changed = []
    files = subprocess.run(["git", "ls-files", *REFERENCES], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    for name in files:
        path = ROOT / name
        if path.suffix not in TEXT or MATCHES in path.parents or path == Path(__file__).resolve():
            continue
        if not path.is_file():
            continue
        text = path.read_text(errors="surrogateescape")
        new_text = text
        for pattern, repl in pairs:
            new_text = pattern.sub(repl, new_text)
        if new_text != text:
            path.write_text(new_text, errors="surrogateescape")
            changed.append(path)
    return changed


def renamed_before() -> dict[Path, str]:
    """Matches git's history saw renamed (old .jsonl -> the new stem), where the new one is
    still there and the old one is not: their references are mended on every --apply, so a
    line merged from a branch that still names ``outsider_no_cushion_twice.jsonl`` follows."""
    log = subprocess.run(["git", "log", "-M", "--diff-filter=R", "--name-status", "--format=", "--",
                          "tests/matches"], cwd=ROOT, capture_output=True, text=True, check=False).stdout
    out: dict[Path, str] = {}
    for line in log.splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[1].endswith(".jsonl"):
            old, new = ROOT / parts[1], ROOT / parts[2]
            if new.exists() and not old.exists() and old.parent == new.parent:
                out.setdefault(old, new.stem)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--apply", action="store_true", help="git mv the matches and rewrite references")
    parser.add_argument("--check", action="store_true", help="exit 1 if a name breaks the convention")
    args = parser.parse_args(argv)
    logs = sorted(MATCHES.glob("*/*.jsonl"))
    if args.check:
        bad = problems(logs)
        print("\n".join(bad) or f"{len(logs)} recorded matches, every name <rule>__<situation>")
        return 1 if bad else 0
    renames = new_names(logs)
    taken = {key(log) for log in logs if log not in renames}
    clash = Counter(f"{log.parent.name}/{new}" for log, new in renames.items())
    dupes = sorted(n for n in clash if clash[n] > 1 or n in taken)
    if dupes:
        print("two matches would get one name: " + ", ".join(dupes), file=sys.stderr)
        return 1
    for log, new in renames.items():
        print(f"{key(log)} -> {log.parent.name}/{new}")
    if not args.apply:
        print(f"{len(renames)} to rename (--apply does it)")
        return 0
    for log, new in renames.items():
        for old in (log, log.with_suffix(".expect.json")):
            target = old.with_name(new + old.name[len(log.stem):])
            subprocess.run(["git", "mv", str(old), str(target)], cwd=ROOT, check=True)
    for path in rewrite_references(renames, renamed_before()):
        print(f"  references rewritten: {path.relative_to(ROOT)}")
    bad = problems(sorted(MATCHES.glob("*/*.jsonl")))
    print("\n".join(bad) or "every name <rule>__<situation>")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
