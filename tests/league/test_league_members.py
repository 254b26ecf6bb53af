"""The members a checker process is sent (``Inbox.shared_members``) are the file's, even
while the service's committer holds its connection: a player or alias added by another
process (``league alias``, ``league add-player``) counts for the next match at once."""

from __future__ import annotations

import threading
from pathlib import Path

from league_play import lines_of, match_events
from test_league_inbox import COMP, inbox, message  # noqa: F401 (the fixture)

from tablesense.league import LeagueStore, ingest
from tablesense.league.inbox import Inbox


def test_a_player_added_by_another_process_while_a_commit_runs_is_known_to_the_next_match(
        inbox: Inbox, tmp_path: Path) -> None:  # noqa: F811
    gen, members = inbox.shared_members()  # read once: the service's first message
    assert not any("Eva" in m.names for m in members)
    committing, done = threading.Event(), threading.Event()

    def commit() -> None:  # the committer, holding the lock while it syncs
        with inbox.lock:
            committing.set()
            done.wait(30)

    holder = threading.Thread(target=commit)
    holder.start()
    try:
        assert committing.wait(30)
        with LeagueStore(str(tmp_path / "league.db")) as other:  # another process's connection
            other.add_player(other.competition(COMP), "Eva", 0.8)
        new_gen, members = inbox.shared_members()
    finally:
        done.set()
        holder.join(30)
    assert new_gen > gen, "sent again to the checker processes"
    raw = message("zaal", lines_of(match_events("Ann", "Eva", 5, 7)))
    checked = ingest.check_message("zaal", raw, members)
    assert checked.why is None and checked.entry is not None
    [out] = inbox.commit([inbox.prepared("zaal", checked)])
    assert out.kind == "stored"


def test_the_members_sent_stay_the_same_generation_while_only_matches_are_stored(inbox: Inbox) -> None:  # noqa: F811
    gen, _ = inbox.shared_members()
    inbox.take("zaal", message("zaal", lines_of(match_events("Ann", "Bob", 5, 7))))
    assert inbox.shared_members()[0] == gen, "not sent to the checker processes again"
