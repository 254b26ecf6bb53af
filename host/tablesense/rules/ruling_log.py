"""An append-only ruling log that successive immutable states share without copying.

Every engine state starts with one (``MatchState.rulings``).

A long match makes tens of thousands of rulings; ``tuple + (ruling,)`` per ruling
copies the whole tuple every time (quadratic). ``RulingLog`` is a persistent list:
each log is a node that holds the rulings added in one step and a link to the log
it extends. Appending makes one new node and copies nothing, whether it extends the
newest log or an older one (a shot resolved again from the state before it, after an
undo): older logs stay exactly as they were, and branches share what came before
them. Reading from the end (the newest rulings, ``log[len(old):]``) walks back a few
nodes; reading it whole walks them all once. From the outside it behaves like an
immutable tuple.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from .records import Ruling


class RulingLog(Sequence["Ruling"]):
    __slots__ = ("_chunk", "_n", "_prev")

    def __init__(self, items: Iterable[Ruling] = (), prev: RulingLog | None = None) -> None:
        self._chunk: tuple[Ruling, ...] = tuple(items)
        self._prev = prev if prev is not None and prev._n else None
        self._n = (self._prev._n if self._prev is not None else 0) + len(self._chunk)

    def __len__(self) -> int:
        return self._n

    def _chunks(self) -> list[tuple[Ruling, ...]]:
        out: list[tuple[Ruling, ...]] = []
        node: RulingLog | None = self
        while node is not None:
            if node._chunk:
                out.append(node._chunk)
            node = node._prev
        out.reverse()
        return out

    def __iter__(self) -> Iterator[Ruling]:
        for chunk in self._chunks():
            yield from chunk

    @overload
    def __getitem__(self, key: int) -> Ruling: ...
    @overload
    def __getitem__(self, key: slice) -> tuple[Ruling, ...]: ...
    def __getitem__(self, key: int | slice) -> Ruling | tuple[Ruling, ...]:
        if isinstance(key, slice):
            start, stop, step = key.indices(self._n)
            if step == 1 and start >= stop:
                return ()
            if step == 1:
                return self._tail(start)[: stop - start]
            return tuple(self)[key]
        if key < 0:
            key += self._n
        if not 0 <= key < self._n:
            raise IndexError("ruling index out of range")
        node: RulingLog | None = self
        while node is not None:
            first = node._n - len(node._chunk)
            if key >= first:
                return node._chunk[key - first]
            node = node._prev
        raise IndexError("ruling index out of range")  # pragma: no cover (lengths add up)

    def _tail(self, start: int) -> tuple[Ruling, ...]:
        """The rulings from index ``start`` on, walking back only as far as needed."""
        parts: list[tuple[Ruling, ...]] = []
        node: RulingLog | None = self
        while node is not None and node._n > start:
            first = node._n - len(node._chunk)
            parts.append(node._chunk[max(0, start - first):])
            node = node._prev
        parts.reverse()
        return tuple(r for part in parts for r in part)

    def extend(self, new: Iterable[Ruling]) -> RulingLog:
        """A log with ``new`` after these rulings; this log is unchanged."""
        return RulingLog(new, self)

    def __add__(self, other: Iterable[Ruling]) -> RulingLog:
        return type(self)(other, self)

    def __radd__(self, other: Iterable[Ruling]) -> RulingLog:
        return RulingLog([*other, *self])

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (RulingLog, tuple, list)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"RulingLog({list(self)!r})"


class Trail(RulingLog):
    """The same persistent list for any values a state only ever appends to (a keglebillard
    player's points as each series began, a carom player's runs): the undo chain keeps a
    state per shot, and each shares the values before it instead of holding a tuple copy of
    them all (which made a long match's memory grow with the square of its length)."""

    __slots__ = ()

    @classmethod
    def plus(cls, values: Sequence[Any], value: Any) -> Trail:
        """``values`` (a ``Trail`` or a tuple) with ``value`` after them; ``values`` unchanged."""
        if isinstance(values, Trail):
            return cls((value,), values)
        return cls((*values, value))

    def __repr__(self) -> str:
        return repr(tuple(self))
