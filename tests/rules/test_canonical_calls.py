"""The engines read a referee's call with its names canonical (``vocabulary.canonical_call``);
the shot stage looks each way of writing a call up once per vocabulary
(``shot_engine.canonical``). Looked up or remembered, a call must come out as
``canonical_call`` gives it, for every game and profile."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import Call
from tablesense.rules.shot_engine import canonical
from tablesense.vocabulary import canonical_call, for_game

VOCABULARIES = [for_game("golf"), for_game("kegle"), for_game("carom"), for_game("carom", "liemers"),
                for_game("carom", "club"), for_game("nothing")]
WORDS = ["foul", "Foul", "jump", "Jump ", "sprong", "touch", "off_table", "Ball off table", "push",
         "carom", "undo", "start", "time", "spot", "edge", "p1", "P2", "red", "Red", "white", "wit",
         "double-hit", "no_foot_on_floor", "frozen", "stool", "xyz", ""]


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(range(len(VOCABULARIES))), st.sampled_from(WORDS),
       st.one_of(st.none(), st.sampled_from(WORDS)), st.one_of(st.none(), st.sampled_from(WORDS)),
       st.one_of(st.none(), st.sampled_from(["p1", "p2"])))
def test_a_call_reads_the_same_looked_up_or_remembered(which: int, name: str, foul: str | None,
                                                      ball: str | None, player: str | None) -> None:
    vocab = VOCABULARIES[which]
    call = Call(t=1.0, call=name, foul=foul, ball=ball, player=player)
    expected = canonical_call(vocab, call)
    for _ in range(2):  # the first time looked up, then remembered
        got = canonical(vocab, call)
        assert got == expected
        assert (got is call) == (expected is call)
