"""A message the league's own code fails on (its checker process died twice on it, a bug)
is listed with the refused ones: each such message of a pub on its own line, not only the
first."""

from __future__ import annotations

from league_play import START, lines_of, match_events
from test_league_inbox import inbox, message  # noqa: F401 (the fixture)

from tablesense.league.inbox import Inbox
from tablesense.league.messages import match_id


def test_every_message_that_killed_its_checker_is_listed_and_a_resend_is_refused_before(
        inbox: Inbox) -> None:  # noqa: F811
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    first, second = message("zaal", lines), message("zaal", lines, started=START + 3600)
    why = "its checker process died twice (EOFError)"
    outs = inbox.commit([inbox.unreadable("zaal", why, raw=raw) for raw in (first, second, b"\xff junk")])
    assert [o.kind for o in outs] == ["refused"] * 3
    listed = sorted(m for _, m, _, _ in inbox.refused())
    assert listed == sorted([match_id("zaal", "1", START), match_id("zaal", "1", START + 3600), "zaal:?"])
    known = inbox.known("zaal", first)
    assert known is not None and known.known is not None and known.known.text == "refused before"


def test_a_message_naming_another_pubs_match_does_not_refuse_that_match(inbox: Inbox) -> None:  # noqa: F811
    theirs = message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7)))
    inbox.commit([inbox.unreadable("zaal", "its checker process died twice (EOFError)", raw=theirs)])
    assert inbox.known("kroeg", theirs) is None, "kroeg's own match is still checked"
