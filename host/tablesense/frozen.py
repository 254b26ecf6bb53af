"""Frozen records written out by hand: compared, hashed and shown field by field as a frozen
dataclass is, without ``@dataclass`` compiling its methods in every process that imports
them (the start-up of ``tablesense replay``, docs/performance.md). ``games.Game`` and
``rules.fault.Fault`` are such records."""

from __future__ import annotations

from typing import Any, ClassVar


class Frozen:
    """A record whose fields are ``_fields`` (in the order its ``repr`` shows them), kept in
    slots that only its ``__init__`` sets (``object.__setattr__``)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, field) for field in self._fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a {type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a {type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{field}={getattr(self, field)!r}" for field in self._fields)
        return f"{type(self).__name__}({shown})"


__all__ = ["Frozen"]
