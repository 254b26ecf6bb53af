"""The first states of new matches, shared: a log of many matches of the same players starts
each from one frozen state (golf, keglebillard), at most ``KEPT`` of them kept."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
S = TypeVar("S")

#: how many first states a game keeps; the whole lot is let go when one more comes
KEPT = 64


class FirstStates(dict[K, S]):
    """key (what a set-up says that the first state holds) -> that first state (frozen: shared).
    ``get`` is the dict's own; ``keep`` stores one more, the lot let go at ``KEPT``."""

    __slots__ = ()

    def keep(self, key: K, state: S) -> S:
        """``state`` kept under ``key``, and returned."""
        if len(self) >= KEPT:
            self.clear()
        self[key] = state
        return state
