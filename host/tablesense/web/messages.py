"""Each table's message to the screens, and how a page is kept from a queue of them.

A screen's WebSocket carries the table's snapshot (``Pub.snapshot``: the same JSON as
``GET /api/table/<id>``, but for the state's rulings: the newest ``RULINGS_SENT`` and
their number, ``rulings_count``). Eight TVs, the overview and the referee's panel may follow one
table; the pub makes and encodes the snapshot once per version of the table and cut
(``Pub.snapshot_body``, the one cache the API's whole snapshot shares), and every socket
sends those bytes. Only ``now`` (the host's clock as it sends: the pages set their clocks by
it) is put on each message as it goes. ``Pace``: how a page that answers its messages is
kept from receiving a queue of them.
"""

from __future__ import annotations

from ..pub import Pub

#: the rulings a screen's message carries, the newest (``GET /api/table/<id>`` has every one)
RULINGS_SENT = 8


def message(pub: Pub, table_id: str) -> bytes:
    """The table's snapshot as its screens get it: UTF-8 JSON, its newest rulings, ``now``
    the time it is sent."""
    return pub.snapshot_message(table_id, RULINGS_SENT)


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
