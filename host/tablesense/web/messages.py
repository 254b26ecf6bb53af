"""Each table's message to the screens: built and encoded once per version of the table.

A screen's WebSocket carries the table's snapshot (``Pub.snapshot``: the same JSON as
``GET /api/table/<id>``, but for the state's rulings: the newest ``RULINGS_SENT`` and
their number, ``rulings_count``). Eight TVs, the overview and the referee's panel may follow one
table; the snapshot is made, and encoded to UTF-8 JSON, once per version of the table
(``Table.version``) by whichever socket asks first, and every socket sends those bytes.
Only ``now`` (the host's clock as it sends: the pages set their clocks by it) is put on
each message as it goes. ``Pace``: how a page that answers its messages is kept from
receiving a queue of them.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from ..pub import Pub

_ENCODE = msgspec.json.Encoder().encode


#: the rulings a screen's message carries, the newest (``GET /api/table/<id>`` has every one)
RULINGS_SENT = 8


def _recent_rulings(snap: dict[str, Any]) -> None:
    """The state's rulings cut to the newest ``RULINGS_SENT``, their number in
    ``rulings_count``: no screen shows a match's earlier rulings (the last shot's line is
    told by the host, ``view.last_shot``), and with them every message grew with the match."""
    state = snap.get("state")
    rulings = state.get("rulings") if isinstance(state, dict) else None
    if isinstance(rulings, list):
        state["rulings"] = rulings[-RULINGS_SENT:]
        state["rulings_count"] = len(rulings)


class Messages:
    """The screens' messages of one pub's tables, each kept until its table changes."""

    __slots__ = ("_kept", "pub")

    def __init__(self, pub: Pub) -> None:
        self.pub = pub
        self._kept: dict[str, tuple[int, bytes]] = {}  # table -> (its version, its body)

    def body(self, table_id: str) -> bytes:
        """The table's snapshot as JSON without its closing brace and ``now``, made once per version."""
        version = self.pub.table(table_id).version
        kept = self._kept.get(table_id)
        if kept is None or kept[0] != version:
            snap = self.pub.snapshot(table_id)
            del snap["now"]
            _recent_rulings(snap)
            kept = self._kept[table_id] = (version, _ENCODE(snap)[:-1])
        return kept[1]

    def message(self, table_id: str) -> bytes:
        """The table's snapshot as its screens get it: UTF-8 JSON, ``now`` the time it is sent."""
        body = self.body(table_id)
        return b"%b%b\"now\":%b}" % (body, b"," if len(body) > 1 else b"", repr(time.time()).encode())


#: messages a page that answers may have unanswered before it is sent more. Not one or two:
#: on a loaded machine an answer's round trip (the page, the browser's network process, the
#: host, each waiting for a CPU) took 0.3-1 s, and a TV paced by it fell a second behind a
#: stream of ten events a second; eight keep it fed while bounding what can queue
IN_FLIGHT = 8


class Pace:
    """A page's messages still unanswered. A page that acknowledges them (``?ack=1``)
    sends any message back once it has shown one; while ``IN_FLIGHT`` are unanswered it
    is sent nothing, and then the newest state of each table that changed meanwhile: a
    page whose browser falls behind skips states instead of working through a queue of
    them (the queue would sit in the socket's buffers and the browser, out of the host's
    reach). A client that does not ask is sent every change at once, as before."""

    __slots__ = ("acks", "unanswered")

    def __init__(self, acks: bool) -> None:
        self.acks = acks
        self.unanswered = 0

    def free(self) -> bool:
        """Whether the page may be sent its tables' changes now."""
        return not self.acks or self.unanswered < IN_FLIGHT

    def sending(self) -> None:
        if self.acks:
            self.unanswered += 1

    def answered(self) -> bool:
        """The page answered a message; True when that makes it free again (its sender
        wakes). Answers beyond the messages sent count for nothing."""
        if not self.acks or self.unanswered == 0:
            return False
        self.unanswered -= 1
        return self.unanswered == IN_FLIGHT - 1
