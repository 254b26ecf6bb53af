"""The league's bounds on what a pub may send, in one place (docs/league.md "What the league takes").

Each is far above what a real match needs (a carom match to 20 is about 1,000 log lines and
60 kB; a libre match to 250 caroms seen by a camera some 5,000 lines) and far below what
would let one message cost the league much: a log at ``MAX_LOG_LINES`` replays in seconds.
The broker is told the same size (``broker_config``: Mosquitto's ``message_size_limit``), so a
bigger message never leaves it; the service checks again before it reads a byte of JSON.
"""

from __future__ import annotations

#: the largest message (bytes) the league takes: Mosquitto's ``message_size_limit`` and the
#: service's own check before parsing
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
#: the largest live-state message (a score line; bytes)
MAX_LIVE_BYTES = 64 * 1024
#: the most event lines in a match's log
MAX_LOG_LINES = 50_000
#: the longest event line (characters)
MAX_LINE_CHARS = 16 * 1024
#: the most nested JSON inside one event line (a rest's positions: object, list, list)
MAX_LINE_DEPTH = 8
#: the largest magnitude of any number in an event line but ``t``
MAX_NUMBER = 1e15

#: the most sensor events in one shot (between two rests): a real shot has tens; more would
#: make the rule engines, which gather a shot's evidence as it comes, slow for nothing
MAX_SHOT_EVENTS = 2_000

#: ``t`` is seconds on the table's clock: never below 0, never above this (31 years)
MAX_T = 1e9
#: how far ``t`` may step back from the latest ``t`` before it (events released late by the
#: link's reordering, a camera's contacts merged by time); more is no table's clock
BACKWARDS_S = 60.0

#: a match's start (epoch seconds): not before 2000-01-01, not after 2100-01-01 ...
MIN_STARTED = 946_684_800.0
MAX_STARTED = 4_102_444_800.0
#: ... and not later than this after the league received it (a pub's clock a little fast)
FUTURE_S = 24 * 3600.0

#: a player's name: 1..MAX_NAME characters, no control characters
MAX_NAME = 100
#: a competition's name as a message names it
MAX_COMPETITION = 200
#: a fixture's id as a match message names it (the team night it was played for)
MAX_FIXTURE = 10**9
#: a message's revision (events in its match log, corrections included)
MAX_REVISION = 10 * MAX_LOG_LINES
#: the largest count a reported result may carry (caroms, innings, targets, points)
MAX_COUNT = 1_000_000
#: a setup's targets and distances, and a moyenne
MAX_TARGET = 10_000
MAX_MOYENNE = 1_000.0

#: the longest reason or id kept for a refusal (the rest is cut: a 50 MB name is not echoed)
MAX_SAID = 300


def short(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: what a one-line message may quote."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return f"an integer of about {int(abs(value).bit_length() * 0.30103) + 1:,} digits"
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + f"... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def cut(text: str, limit: int = MAX_SAID) -> str:
    """One line of at most ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
