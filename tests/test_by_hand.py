"""The merge of a table's two records of a time its sensors were out (``tablesense.by_hand``):
what the referee entered by hand and what the board replays when it is heard again.

Pure: such periods are played in memory, the referee's taps and the board's replay and live
events in any interleaving (a tap is stamped when it comes: nothing the board stamped later,
beyond the clock's lag, came before it); the log the pub would write is kept beside them, and
each question is answered as a referee who knows what happened on the table would."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablesense.by_hand import (
    EARLY_S,
    LATE_S,
    Disagreement,
    Merge,
    Sensed,
    Verdict,
    hand_event,
    rewrite,
    sensed,
)

# --- the events of a table ----------------------------------------------------------------------

KINDS: dict[str, list[dict[str, Any]]] = {  # the asked events of each game, as a sensor reports them
    "golf": [{"type": "goal", "goal": g, "ball": b} for g in "AB" for b in ("p1", "p2")],
    "kegle": [{"type": "pin", "pin": n, "state": "down"} for n in (1, 3)]
    + [{"type": "pocket", "pocket": n, "ball": b} for n in (2, 5) for b in ("red", "white")],
}


def key(ev: dict[str, Any]) -> tuple[Any, ...]:
    s = sensed(ev)
    assert s is not None
    return s.key


@dataclass
class Table:
    """The merge, and the log the pub writes by its verdicts."""

    merge: Merge = field(default_factory=Merge)
    log: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (line, event)
    refused: int = 0
    asked: list[Disagreement] = field(default_factory=list)

    def write(self, ev: dict[str, Any]) -> int:
        n = len(self.log) + 2  # line 1 is the set-up
        self.log.append((n, ev))
        return n

    def board(self, ev: dict[str, Any]) -> Verdict:
        s = sensed(ev)
        assert s is not None
        self.merge, verdict, _ = self.merge.from_board(s)
        if verdict is Verdict.APPLY:
            self.write(ev)
        return verdict

    def hand(self, ev: dict[str, Any]) -> Verdict:
        n = len(self.log) + 2
        s = sensed({**ev, "by_hand": True}, n)
        assert s is not None
        self.merge, verdict, _ = self.merge.by_hand(s)
        if verdict is Verdict.APPLY:
            assert self.write(dict(s.event)) == n
        else:
            self.refused += 1
        return verdict

    def check(self) -> None:
        self.merge, rest = self.merge.closing_rest()
        if rest is not None and self.log and self.log[-1][1]["type"] != "rest":  # a shot left open
            self.write(dict(rest.event))
            self.merge = self.merge.applied(rest)
        self.merge, outcome = self.merge.check()
        self.asked = list(outcome.asked)

    def correct(self, d: Disagreement, answer: Any) -> None:
        remove, insert = d.correction(answer)
        plan = rewrite(self.log, remove, insert)
        gone = {n for first, last in plan.voids for n in range(first, last + 1)}
        kept = [(n, ev) for n, ev in self.log if n not in gone]
        top = max([n for n, _ in self.log] + [1]) + len(plan.voids)
        for old, ev in plan.lines:
            top += 1
            kept.append((top, dict(ev)))
            if old is not None:  # a hand entry written again: its questions follow it
                self.asked = [_moved(q, old, top) for q in self.asked]
        self.log = kept

    def counted(self, kinds: set[str] | None = None) -> Counter[tuple[Any, ...]]:
        return Counter(key(ev) for _, ev in self.log
                       if ev["type"] != "rest" and (kinds is None or ev["type"] in kinds))

    def rests(self) -> int:
        return sum(1 for _, ev in self.log if ev["type"] == "rest")


def _moved(q: Disagreement, old: int, new: int) -> Disagreement:
    h = q.hand
    if h is None or h.ref != old:
        return q
    return Disagreement(q.kind, Sensed(h.t, h.kind, h.place, h.what, new, h.event), q.board)


def answer_as_the_table_was(table: Table, real: Counter[tuple[Any, ...]]) -> None:
    """Each question answered by a referee who knows what happened: what the board saw
    happened (its record is whole here); an entry is taken out where there are more of its
    kind than happened, once the board's events asked about are in."""
    board_side = Counter(key(dict(q.board.event)) for q in table.asked if q.board and q.kind != "hand")
    surplus = table.counted() + board_side
    surplus.subtract(real)
    while table.asked:
        q = table.asked.pop(0)
        hand = key(dict(q.hand.event)) if q.hand else None
        answer: Any
        if q.kind == "board":
            answer = True
        elif surplus[hand] > 0:
            surplus[hand] -= 1
            answer = "board" if q.kind == "other" else False
        else:
            answer = "both" if q.kind == "other" else True
        table.correct(q, answer)


# --- an out period, played ----------------------------------------------------------------------

@st.composite
def periods(draw: Any, referee_errs: bool) -> dict[str, Any]:
    game = draw(st.sampled_from(sorted(KINDS)))
    kinds = KINDS[game]
    t_out = 100.0
    back = t_out + draw(st.floats(1.0, 120.0))
    n = draw(st.integers(0, 14))
    times = sorted(draw(st.lists(st.floats(t_out - 30, back + 20), min_size=n, max_size=n)))
    real = [{"t": round(t, 3), **draw(st.sampled_from(kinds))} for t in times]
    rests = [{"t": round(t + 0.5, 3), "type": "rest"} for t in times if draw(st.booleans())]
    board = sorted(real + rests, key=lambda e: e["t"])
    hand: list[dict[str, Any]] = []
    for ev in board:
        if ev["t"] < t_out:  # before the sensors went out: seen on the TV, nobody enters it
            continue
        late = ev["t"] > back  # reported live: the referee may tap it all the same
        if late and not draw(st.booleans()):
            continue
        if referee_errs and ev["type"] != "rest" and draw(st.integers(0, 4)) == 0:
            if draw(st.booleans()):
                continue  # missed
            ev = {**ev, **draw(st.sampled_from(kinds))}  # another ball, pin or pocket
        d = draw(st.floats(-EARLY_S + 0.05, LATE_S - 0.05))
        hand.append({**ev, "t": round(ev["t"] + d, 3)})
    if referee_errs:
        for _ in range(draw(st.integers(0, 2))):  # entered, never happened
            hand.append({"t": round(draw(st.floats(t_out, back)), 3), **draw(st.sampled_from(kinds))})
    hand.sort(key=lambda e: e["t"])
    # the link: events before the cut came live; those of the period are replayed in one run
    # when the board is heard again, those after it come live behind them (seq order)
    before = [e for e in board if e["t"] < t_out]
    after = [e for e in board if e["t"] >= t_out]
    order = draw(st.lists(st.booleans(), min_size=len(hand) + len(after) + 1,
                          max_size=len(hand) + len(after) + 1))
    return {"game": game, "back": back, "real": real, "rests": rests, "before": before,
            "after": after, "hand": hand, "order": order}


def play(p: dict[str, Any], lost: bool = False) -> Table:
    table = Table()
    for ev in p["before"]:
        assert table.board(ev) is Verdict.APPLY
    table.merge = table.merge.went_out()
    if lost:
        table.merge = table.merge.frames_lost()
    hand, board = list(p["hand"]), [None, *p["after"]]  # None: the board's HELLO

    def may_come(ev: dict[str, Any] | None) -> bool:
        """A hand entry is stamped when it comes: a board event (or the HELLO) that came
        before it is no later than its time, give or take the clock's lag."""
        return not hand or (p["back"] if ev is None else ev["t"]) <= hand[0]["t"] + EARLY_S

    for board_next in p["order"]:
        if (board_next and board and may_come(board[0])) or not hand:
            if not board:
                break
            ev = board.pop(0)
            if ev is None:
                table.merge = table.merge.came_back(p["back"])
            else:
                table.board(ev)
        else:
            table.hand(hand.pop(0))
    for ev in hand:
        table.hand(ev)
    for ev in board:
        if ev is None:
            table.merge = table.merge.came_back(p["back"])
        else:
            table.board(ev)
    table.check()
    return table


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(periods(referee_errs=False))
def test_every_real_event_is_logged_once_whatever_the_interleaving(p: dict[str, Any]) -> None:
    """A referee who enters every ball and pin of the out period (seconds late, or live events
    too): the board's replay doubles none of them, whichever comes first, and nothing is asked."""
    table = play(p)
    assert table.asked == [], table.asked
    assert table.counted() == Counter(key(e) for e in p["real"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(periods(referee_errs=True))
def test_what_the_referee_got_wrong_is_asked_and_the_answers_make_the_match_right(p: dict[str, Any]) -> None:
    """A referee who misses events, names another ball or pin, enters some that never happened:
    every difference is a question, and the answers of one who knows leave each real event once."""
    table = play(p)
    real = Counter(key(e) for e in p["real"])
    answer_as_the_table_was(table, real)
    assert table.counted() == real


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(periods(referee_errs=False))
def test_rests_entered_by_hand_are_not_doubled_by_the_boards(p: dict[str, Any]) -> None:
    """The referee's rests made the shots while the sensors were out: the board's of the period
    are dropped; the live ones he tapped too count once."""
    table = play(p)
    assert table.rests() == len(p["rests"])


def test_a_period_the_referee_entered_nothing_in_is_replayed_as_it_comes() -> None:
    table = Table()
    table.merge = table.merge.went_out().came_back(110.0)
    evs = [{"t": 104.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 106.0, "type": "rest"}]
    assert [table.board(e) for e in evs] == [Verdict.APPLY, Verdict.APPLY]
    table.check()
    assert table.asked == [] and [ev for _, ev in table.log] == evs


def test_a_goal_the_board_saw_and_nobody_entered_is_asked_and_added_at_its_time() -> None:
    table = Table()
    table.merge = table.merge.went_out()
    hand = [{"t": 103.0, "type": "goal", "goal": "A", "ball": "p2"}, {"t": 104.0, "type": "rest"},
            {"t": 109.0, "type": "goal", "goal": "B", "ball": "p1"}]
    for e in hand:
        table.hand(e)
    table.merge = table.merge.came_back(110.0)
    board = [{"t": 101.5, "type": "goal", "goal": "A", "ball": "p2"},
             {"t": 101.9, "type": "goal", "goal": "A", "ball": "p1"},  # nobody entered this one
             {"t": 103.5, "type": "rest"}, {"t": 108.0, "type": "goal", "goal": "B", "ball": "p1"}]
    assert [table.board(e) for e in board] == [Verdict.DROP, Verdict.HOLD, Verdict.DROP, Verdict.DROP]
    table.check()
    (q,) = table.asked
    assert q.kind == "board" and q.board is not None and q.board.event["ball"] == "p1"
    table.correct(q, True)
    assert [(ev["type"], ev.get("ball"), ev["t"]) for _, ev in table.log] == [
        ("goal", "p1", 101.9), ("goal", "p2", 103.0), ("rest", None, 104.0), ("goal", "p1", 109.0)]


def test_another_ball_is_one_question_and_the_boards_answer_replaces_the_entry() -> None:
    table = Table()
    table.merge = table.merge.went_out()
    table.hand({"t": 105.0, "type": "goal", "goal": "B", "ball": "p2"})
    table.merge = table.merge.came_back(107.0)
    assert table.board({"t": 104.0, "type": "goal", "goal": "B", "ball": "p1"}) is Verdict.HOLD
    table.check()
    (q,) = table.asked
    assert q.kind == "other" and q.options == ("hand", "board", "both")
    table.correct(q, "board")
    assert [(ev["ball"], ev.get("by_hand", False)) for _, ev in table.log] == [("p1", False)]


def test_a_hand_entry_the_board_did_not_see_is_kept_without_a_question_when_frames_were_lost() -> None:
    table = Table()
    table.merge = table.merge.went_out()
    table.hand({"t": 105.0, "type": "pin", "pin": 3, "state": "down"})
    table.merge = table.merge.frames_lost().came_back(107.0)
    table.check()
    assert table.asked == [] and len(table.log) == 1


def test_while_the_board_talks_a_tap_of_what_it_reported_is_refused_and_the_reverse_dropped() -> None:
    table = Table()
    assert table.board({"t": 10.0, "type": "goal", "goal": "A", "ball": "p1"}) is Verdict.APPLY
    assert table.hand({"t": 13.0, "type": "goal", "goal": "A", "ball": "p1"}) is Verdict.DOUBLE
    assert table.hand({"t": 20.0, "type": "goal", "goal": "B", "ball": "p2"}) is Verdict.APPLY
    assert table.board({"t": 19.5, "type": "goal", "goal": "B", "ball": "p2"}) is Verdict.DROP
    # beyond the window it is another event
    assert table.hand({"t": 10.0 + LATE_S + 5, "type": "goal", "goal": "A", "ball": "p1"}) is Verdict.APPLY
    assert table.counted() == Counter({("goal", "A", "p1"): 2, ("goal", "B", "p2"): 1})


def test_an_entry_like_the_last_goal_before_the_cut_is_another_goal_until_asked() -> None:
    """A goal reported just before the board went silent and the same goal entered by hand
    just after: the entry is applied (another may have dropped), and asked about if the
    board's replay does not bring it."""
    table = Table()
    table.board({"t": 99.0, "type": "goal", "goal": "A", "ball": "p1"})
    table.merge = table.merge.went_out()
    assert table.hand({"t": 101.0, "type": "goal", "goal": "A", "ball": "p1"}) is Verdict.APPLY
    table.merge = table.merge.came_back(104.0)
    table.check()
    (q,) = table.asked
    assert q.kind == "hand" and q.board is not None and q.board.t == 99.0
    table.correct(q, False)
    assert table.counted() == Counter({("goal", "A", "p1"): 1})


def test_an_entry_taken_back_no_longer_stands_for_the_boards_event() -> None:
    """The referee undoes (or voids) a goal he entered: the board's goal it stood for is
    asked again, whether the tap came before the board's replay or after it."""
    goal = {"t": 102.0, "type": "goal", "goal": "A", "ball": "p1"}
    for tap_first in (True, False):
        table = Table()
        table.merge = table.merge.went_out()
        table.hand({"t": 101.0, "type": "rest"})
        table.merge = table.merge.came_back(104.0)
        if tap_first:
            table.hand({**goal, "t": 103.0})
            assert table.board(goal) is Verdict.DROP
        else:
            assert table.board(goal) is Verdict.HOLD
            table.hand({**goal, "t": 105.0})
        tapped = table.log[-1][0]
        table.merge = table.merge.forget(lambda ref, n=tapped: ref == n)  # the undo
        table.log = table.log[:-1]
        table.check()
        (q,) = table.asked
        assert q.kind == "board" and q.board is not None and q.board.t == 102.0, tap_first


def test_the_boards_last_rest_closes_the_shot_the_referee_left_open() -> None:
    table = Table()
    table.merge = table.merge.went_out()
    table.hand({"t": 103.0, "type": "goal", "goal": "A", "ball": "p1"})
    table.merge = table.merge.came_back(106.0)
    for e in ({"t": 102.0, "type": "goal", "goal": "A", "ball": "p1"}, {"t": 104.5, "type": "rest"}):
        table.board(e)
    table.check()
    assert [ev["type"] for _, ev in table.log] == ["goal", "rest"] and table.asked == []


def test_rewrite_voids_from_the_first_change_and_writes_the_rest_again() -> None:
    lines = [(2, {"t": 1.0, "type": "goal"}), (3, {"t": 2.0, "type": "rest"}),
             (5, {"t": 4.0, "type": "goal"}), (6, {"t": 5.0, "type": "rest"})]
    plan = rewrite(lines, remove=[2], insert=[{"t": 4.5, "type": "pin"}])
    assert plan.voids == ((2, 2), (6, 6))
    assert plan.lines == ((None, {"t": 4.5, "type": "pin"}), (6, {"t": 5.0, "type": "rest"}))
    assert rewrite(lines, insert=[{"t": 9.0, "type": "pin"}]).voids == ()
    assert rewrite(lines, remove=[5]).voids == ((5, 5),)


def test_a_board_event_in_a_shot_the_referee_took_back_goes_in_after_the_undo() -> None:
    lines = [(2, {"t": 1.0, "type": "rest"}), (3, {"t": 5.0, "type": "goal", "by_hand": True}),
             (4, {"t": 6.0, "type": "rest", "by_hand": True}),
             (5, {"t": 7.0, "type": "call", "call": "undo"}), (6, {"t": 20.0, "type": "goal"})]
    plan = rewrite(lines, insert=[{"t": 4.0, "type": "goal", "board": True}], undone={5: 3})
    assert plan.voids == ((6, 6),)
    assert plan.lines == ((None, {"t": 7.0, "type": "goal", "board": True}), (6, {"t": 20.0, "type": "goal"}))


@given(st.lists(st.floats(0, 50), max_size=12), st.lists(st.floats(0, 50), max_size=3), st.data())
def test_rewrite_gives_the_lines_kept_and_the_new_ones_in_time_order(times: list[float], new: list[float],
                                                                     data: Any) -> None:
    times = sorted(times)
    lines = [(n + 2, {"t": t, "n": n}) for n, t in enumerate(times)]
    remove = data.draw(st.sets(st.sampled_from([n for n, _ in lines])) if lines else st.just(set()))
    plan = rewrite(lines, remove, [{"t": t, "new": True} for t in new])
    gone = {n for a, b in plan.voids for n in range(a, b + 1)}
    after = [ev for n, ev in lines if n not in gone] + [dict(ev) for _, ev in plan.lines]
    assert [e["t"] for e in after] == sorted(e["t"] for e in after)
    assert sorted(e["n"] for e in after if "n" in e) == sorted(n - 2 for n, _ in lines if n not in remove)
    assert sum(1 for e in after if e.get("new")) == len(new)


@pytest.mark.parametrize("game,obj,why", [
    ("golf", {"type": "pin", "pin": 1, "state": "down"}, "are goal, rest"),
    ("golf", {"type": "goal", "goal": "C", "ball": "p1"}, "needs 'goal'"),
    ("golf", {"type": "goal", "goal": "A"}, "needs 'ball'"),
    ("kegle", {"type": "pocket", "pocket": 7, "ball": "red"}, "needs 'pocket'"),
    ("kegle", {"type": "pin", "pin": 2, "state": "down", "t": 3}, "has no 't'"),
    ("carom", {"type": "goal", "goal": "A", "ball": "p1"}, "are cushion, rest"),
])
def test_a_hand_entry_the_game_does_not_offer_is_refused_with_the_reason(game: str, obj: dict[str, Any],
                                                                         why: str) -> None:
    with pytest.raises(ValueError, match=why):
        hand_event(game, obj)


def test_each_game_offers_what_its_engine_needs() -> None:
    assert hand_event("golf", {"type": "goal", "goal": "B", "ball": "p2"}) == {"type": "goal", "goal": "B",
                                                                              "ball": "p2"}
    assert hand_event("kegle", {"type": "pocket", "pocket": 4, "ball": "white"})["pocket"] == 4
    assert hand_event("carom", {"type": "cushion", "cushion": 2}) == {"type": "cushion", "cushion": 2,
                                                                      "ball": None}
    assert hand_event("carom", {"type": "rest"}) == {"type": "rest"}
