"""An append-only ruling log that successive immutable states share without copying.

Every engine state starts with one (``BaseState.rulings``).

A long match makes tens of thousands of rulings; ``tuple + (ruling,)`` per ruling
copies the whole tuple every time (quadratic). ``RulingLog`` is a view of the first
``n`` items of a list: appending at the tip appends to the shared list in place and
returns a longer view, so every older view still shows exactly what it showed
before; appending to an older view (after an undo or a re-resolved shot) copies
first. From the outside it behaves like an immutable tuple.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from .base import Ruling


class RulingLog(Sequence["Ruling"]):
    __slots__ = ("_items", "_n")

    def __init__(self, items: list[Ruling] | None = None, n: int | None = None) -> None:
        self._items = items if items is not None else []
        self._n = len(self._items) if n is None else n

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[Ruling]:
        items = self._items
        for i in range(self._n):
            yield items[i]

    @overload
    def __getitem__(self, key: int) -> Ruling: ...
    @overload
    def __getitem__(self, key: slice) -> tuple[Ruling, ...]: ...
    def __getitem__(self, key: int | slice) -> Ruling | tuple[Ruling, ...]:
        if isinstance(key, slice):
            return tuple(self._items[: self._n][key])
        if key < 0:
            key += self._n
        if not 0 <= key < self._n:
            raise IndexError("ruling index out of range")
        return self._items[key]

    def extend(self, new: Iterable[Ruling]) -> RulingLog:
        """A log with ``new`` after these rulings; this log is unchanged."""
        if self._n == len(self._items):
            items = self._items
        else:
            items = self._items[: self._n]
        items.extend(new)
        return RulingLog(items, len(items))

    def __add__(self, other: Iterable[Ruling]) -> RulingLog:
        return self.extend(other)

    def __radd__(self, other: Iterable[Ruling]) -> RulingLog:
        return RulingLog([*other, *self])

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (RulingLog, tuple, list)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"RulingLog({list(self)!r})"
