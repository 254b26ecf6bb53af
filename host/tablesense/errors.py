"""Errors by kind, each a ValueError carrying its context.

- ``BadFrame``: bytes on the wire that are not a valid frame.
- ``BadEvent``: a table-event record (log line, scenario line) that is malformed.
- ``IllegalCall``: an event or referee call that is well formed but impossible in
  the current state of the match (a goal for a player with no balls left, an answer
  to a question nobody asked).
"""

from __future__ import annotations


class TablesenseError(ValueError):
    """Base of every error tablesense raises on bad input."""


class BadFrame(TablesenseError):
    """A wire frame failed to decode (COBS, length, CRC, version)."""


class BadEvent(TablesenseError):
    """A table event is malformed: unknown type, missing or mistyped field."""


class IllegalCall(TablesenseError):
    """A well-formed event or referee call that the match state does not allow."""
