"""How ``league show`` says a golf scheme: what a match gives, nothing said that counts nothing
("1 point a frame won", not "a win 0, a loss 0, 1 a frame won")."""

from __future__ import annotations

from dataclasses import replace

from tablesense.league.scheme import builtin
from tablesense.rules.golf.league import scheme_lines


def test_a_point_a_frame_scheme_says_only_the_frames() -> None:
    said = scheme_lines(builtin("golf-frames", "golf"))
    assert said == ["matches to 2 winning frames; 1 point a frame won"]


def test_a_match_scheme_says_the_win_and_the_loss() -> None:
    assert scheme_lines(builtin("golf-match", "golf")) == ["matches to 2 winning frames; a win 2, a loss 0"]
    both = replace(builtin("golf-match", "golf"), per_frame=2)
    assert scheme_lines(both) == ["matches to 2 winning frames; a win 2, a loss 0, 2 points a frame won"]
