"""The golf score line (``GolfEngine.summary``: the replay account after each shot, the line the
pub keeps with a finished match for its results page) says "zone play" only while zone play
lasts: from a player's last ball but one to the end of the frame (seed "Zone play: Start of
zone play"), never on a match that is over."""

from __future__ import annotations

import pytest
from test_golf_helpers import miss, one_one, play, scores

from tablesense.replay import Replay

ZONE_PLAY = {"en": "zone play", "nl": "zonespel", "da": "zonespil"}


def _summary(rep: Replay, lang: str) -> str:
    assert rep.engine is not None and rep.state is not None
    return str(rep.engine.summary(rep.state, lang))


@pytest.mark.parametrize("lang", sorted(ZONE_PLAY))
def test_the_score_line_says_zone_play_while_a_player_has_one_ball_left(lang: str) -> None:
    assert ZONE_PLAY[lang] in _summary(play(one_one()), lang)
    assert ZONE_PLAY[lang] not in _summary(play(scores(1.0, "p1", 3)), lang)


@pytest.mark.parametrize("lang", sorted(ZONE_PLAY))
def test_a_finished_match_score_line_does_not_say_zone_play(lang: str) -> None:
    # p1 wins frame 1 with zone play reached in it, then frame 2 the same way: the match is over
    frame = scores(0.0, "p1", 4) + miss(10.0) + scores(20.0, "p2", 4) + miss(30.0) + scores(40.0, "p1", 1)
    frame2 = [dict(e, t=e["t"] + 100.0) for e in frame]
    rep = play(frame, frame2)
    assert rep.state is not None and rep.state.finished and rep.state.winner == "p1"
    assert ZONE_PLAY[lang] not in _summary(rep, lang)
