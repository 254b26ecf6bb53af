"""Records written out by hand: compared and shown field by field as a dataclass is (a frozen one
hashed too), without ``@dataclass`` compiling its methods in every process that imports them
(the start-up of ``tablesense replay``, docs/performance.md). ``games.Game`` and
``rules.fault.Fault`` are frozen such records, ``replay.Replay`` a mutable one (its fields are
set a few times a line: a msgspec Struct's set costs more than a slot's)."""

from __future__ import annotations

from typing import Any, ClassVar


class Record:
    """A record whose fields are ``_fields`` (in the order its ``repr`` shows them), kept in
    slots; compared as a dataclass is, unhashable as a mutable dataclass is."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    __hash__ = None  # type: ignore[assignment]

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, field) for field in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        shown = ", ".join(f"{field}={getattr(self, field)!r}" for field in self._fields)
        return f"{type(self).__name__}({shown})"


class Frozen(Record):
    """A ``Record`` whose slots only its ``__init__`` sets (``object.__setattr__``), hashed
    by its fields."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a {type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a {type(self).__name__} is frozen")

    def __hash__(self) -> int:
        return hash(self._values())


__all__ = ["Frozen", "Record"]
