"""A read of the members that fails half way (the database busy, a disk error: the service's
check threads try it again, ``LeagueService._retrying``) leaves nothing half read behind: the
try after it reads a member another process added, not the members from before. (The
service once noted the file's change before it read the members, and the try after a failed
read took the old members for the new file's: the checkers were sent them until another
process's commit, and a match naming the new player was checked without him.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from test_league_inbox import COMP, inbox  # noqa: F401 (the fixture)

from tablesense.league import LeagueStore
from tablesense.league.inbox import Inbox


def _fails_once(con: sqlite3.Connection, table: str) -> list[bool]:
    """``con``'s next read of ``table`` refused by SQLite (its authorizer), once."""
    failed: list[bool] = []

    def authorize(action: int, arg1: str | None, *_: object) -> int:
        if action == sqlite3.SQLITE_READ and arg1 == table and not failed:
            failed.append(True)
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    con.set_authorizer(authorize)
    return failed


def test_a_member_added_by_another_process_is_sent_after_a_read_of_the_members_failed(
        inbox: Inbox, tmp_path: Path) -> None:  # noqa: F811
    gen, _ = inbox.shared_members()
    reader = inbox._reading().db
    # the read of the count of changes fails, then the read of the members
    for table, name in (("league_member_changes", "Eva"), ("players", "Fay")):
        with LeagueStore(str(tmp_path / "league.db")) as other:  # another process's connection
            other.add_player(other.competition(COMP), name, 0.8)
        failed = _fails_once(reader, table)
        try:
            inbox.shared_members()
        except sqlite3.DatabaseError:
            pass
        finally:
            reader.set_authorizer(None)
        assert failed, f"no read of {table}"
        new_gen, members = inbox.shared_members()  # the check thread's next try
        assert new_gen > gen and any(name in m.names for m in members), \
            f"a failed read of {table}: the members from before {name} was added sent"
        gen = new_gen
