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

Old rulings are kept packed: a live table keeps every state an undo can reach, and a
ruling as objects (the ``Ruling``, its time, its parameters' tuples, a node and its
tuple) took about the log line's own bytes for each line. Each time a log's length
passes a multiple of ``PACK_EVERY``, the nodes below its newest ``KEEP`` items (down to
the last packed one) are packed into one string of bytes (``_pack``: ``marshal``, a
``Ruling`` as its four fields, ~50 bytes where it took ~350; a pickle for a value marshal
cannot write) that every one of them shares: each packed node is "the node below the run,
then the first so many items of this string", and is linked straight to the node below the
run, so the nodes between are freed unless a state still holds them. What a node reads is
unchanged (marshal and pickle keep every type as it was: a tuple a tuple, an int an int);
reading a packed node's items reads its string back (a fraction of a microsecond an item),
and reading the newest rulings (``log[len(old):]``) does not reach them. Packing rewrites
nodes in place (their content unchanged): a log is read and extended on one thread.

Rulings made only when read (``made``): an engine may hand the log what to build a step's
rulings from instead of the rulings: ``made(log, count, [make, *args])`` is ``log`` and the
``count`` rulings ``make(*args)`` gives. A replay reads few of the rulings it makes (the last
match's; the newest of each step, on a screen), and a ruling as an object (a ``Ruling``, its
parameters' tuples) costs several times the few values it is made from: the node keeps ``make``
and ``args`` (a list, ``[make, *args]``: a node's items are a tuple, packed bytes or this) and
builds its rulings each time they are read. Nothing is written back, so what a reader sees never
depends on what was read before. Packing packs a recipe as it is, not its rulings (``_pack_made``:
the maker by its number, its values), so they are made once, when read; a recipe whose values
``marshal`` cannot write has its rulings made and packed as any others. A log ``PACK_EVERY`` long
or longer has a new node's rulings made at once: each read of a recipe gives new objects, and a
reader that finds a step's new rulings by identity (the readable account, ``new_rulings``) would
read the whole log back each step (the long carom match's account took minutes so).
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

import msgspec

from .records import Ruling

#: a log packs its older items each time its length passes a multiple of this
PACK_EVERY = 128
#: the newest items that stay as they are (at least): what a step reads back is never packed
KEEP = 16


class _Pickle:
    """``pickle``, imported the first time it is used: only a value ``marshal`` cannot write
    needs it, and a replay's start-up does without its import (docs/performance.md)."""

    def __getattr__(self, name: str) -> Any:
        import pickle as module

        globals()["pickle"] = module
        return getattr(module, name)


pickle: Any = _Pickle()
_FIELDS = msgspec.structs.astuple
#: what a pickle starts with: a pickle for what ``marshal`` cannot write (pickle protocol 2+)
_PICKLED = b"\x80"


def _pack(items: list[Any]) -> bytes | None:
    """``items`` as one ``marshal`` string (rulings as their fields: the class is the same for
    every one; ``marshal`` writes plain values only, each exactly as it is, and fast), else a
    pickle; None when something among them cannot be pickled either (it stays as it is)."""
    rulings = set(map(type, items)) == _RULING
    values = list(map(_FIELDS, items)) if rulings else items
    try:
        return marshal.dumps((rulings, values), 4)
    except ValueError:  # a value of another class than marshal's: pickle keeps it as it is
        pass
    try:
        return pickle.dumps((rulings, values), pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None


def _pack_made(chunks: list[Any]) -> bytes | None:
    """The nodes' ``chunks``, tuples of rulings and the recipes of rulings made only when read
    (``made``: lists, ``[make, *args]``), as one ``marshal`` string: a ruling as its fields (a
    tuple), a recipe as ``[the maker's number, *args]`` (``_MAKERS``: a maker is a function, which
    ``marshal`` does not write); None when an item is not a ``Ruling`` or a recipe's values are not
    what ``marshal`` writes (the caller then makes the rulings and packs those, ``_pack``)."""
    entries: list[Any] = []
    for chunk in chunks:
        if chunk.__class__ is tuple:
            if set(map(type, chunk)) - _RULING:
                return None
            entries += map(_FIELDS, chunk)
            continue
        maker = chunk[0]
        try:
            number = _MAKER_AT.get(maker)
        except TypeError:  # (a maker that cannot be a key: not numbered)
            return None
        if number is None:
            number = _MAKER_AT[maker] = len(_MAKERS)
            _MAKERS.append(maker)
        entries.append([number, *chunk[1:]])
    try:
        return marshal.dumps((_MADE, entries), 4)
    except ValueError:
        return None


def _unpack(blob: bytes, count: int) -> tuple[Any, ...]:
    """The first ``count`` items packed in ``blob``."""
    rulings, items = pickle.loads(blob) if blob.startswith(_PICKLED) else marshal.loads(blob)
    if rulings == _MADE:  # rulings and recipes (``_pack_made``): made now, up to ``count``
        out: list[Ruling] = []
        for entry in items:
            if len(out) >= count:
                break
            if entry.__class__ is list:
                out += _MAKERS[entry[0]](*entry[1:])
            else:
                out.append(Ruling(*entry))
        return tuple(out[:count])
    if rulings:
        return tuple([Ruling(t=t, rule=rule, player=player, data=data)
                      for t, rule, player, data in items[:count]])
    return tuple(items[:count])


def _as_fields(items: Sequence[Any]) -> list[Any]:
    """Each ``Ruling`` of ``items`` as its fields (a tuple), any other item as it is."""
    if set(map(type, items)) == _RULING:
        return list(map(_FIELDS, items))
    return [_FIELDS(r) if r.__class__ is Ruling else r for r in items]


def _unpack_fields(blob: bytes, count: int) -> list[Any]:
    """The first ``count`` items packed in ``blob`` (``_unpack``), each ``Ruling`` as its fields."""
    if blob.startswith(_PICKLED):
        return _as_fields(_unpack(blob, count))
    rulings, items = marshal.loads(blob)
    if rulings is True:  # ``_pack``'s rulings: their fields as they were packed
        return items[:count]  # type: ignore[no-any-return]
    if rulings != _MADE:
        return items[:count]  # type: ignore[no-any-return]  (not rulings: as they are)
    out: list[Any] = []  # rulings' fields and recipes (``_pack_made``): the recipes' rulings made now
    for entry in items:
        if len(out) >= count:
            break
        if entry.__class__ is list:
            out += _as_fields(_MAKERS[entry[0]](*entry[1:]))
        else:
            out.append(entry)
    return out[:count]


_RULING = {Ruling}
#: the mark of a string ``_pack_made`` wrote (``_pack`` marks its own True or False)
_MADE = 2
#: the makers of rulings made only when read, numbered as ``_pack_made`` wrote them (a process's own:
#: a packed string is never written out)
_MAKERS: list[Any] = []
_MAKER_AT: dict[Any, int] = {}


class RulingLog(Sequence[Ruling]):
    __slots__ = ("_chunk", "_n", "_prev")

    def __init__(self, items: Iterable[Ruling] = (), prev: RulingLog | None = None) -> None:
        #: this node's items: a tuple; once packed, the string of bytes whose first ``_own`` items
        #: they are; or, made only when read (``made``), the list ``[make, *args]``
        chunk = tuple(items)
        self._chunk: tuple[Ruling, ...] | bytes | list[Any] = chunk
        if prev is None or not prev._n:
            self._prev: RulingLog | None = None
            self._n = len(chunk)
            return
        self._prev = prev
        below = prev._n
        self._n = n = below + len(chunk)
        if n // PACK_EVERY != below // PACK_EVERY:
            self._pack_below()

    def __len__(self) -> int:
        return self._n

    def _own(self) -> tuple[Ruling, ...]:
        """This node's items (not those of the nodes below it)."""
        chunk = self._chunk
        if type(chunk) is tuple:
            return chunk
        if type(chunk) is list:  # made only when read (``made``): ``[make, *args]``
            return chunk[0](*chunk[1:])  # type: ignore[no-any-return]
        assert isinstance(chunk, bytes)
        count = self._n - (self._prev._n if self._prev is not None else 0)
        return _unpack(chunk, count) if count else ()

    def _pack_below(self) -> None:
        """Pack the nodes below the newest ``KEEP`` items, down to the last packed node, into one
        string of bytes they share, each linked straight to the node below them (what each reads is
        unchanged). Nothing when there are fewer than ``KEEP`` such items."""
        # the nodes above ``node`` hold ``top - node._n`` items: walked down past the newest ``KEEP``
        node: RulingLog | None = self
        top = self._n
        while node is not None and top - node._n < KEEP and node._chunk.__class__ is not bytes:
            node = node._prev
        run: list[RulingLog] = []
        chunks: list[Any] = []  # each node's own (the walk stops at a packed node), newest first
        while node is not None:
            chunk = node._chunk
            if chunk.__class__ is bytes:
                break
            run.append(node)
            chunks.append(chunk)
            node = node._prev
        base = node  # a packed node, or None: the start of the log
        below = base._n if base is not None else 0
        if not run or run[0]._n - below < KEEP:
            return
        run.reverse()
        chunks.reverse()
        blob = None
        if list in set(map(type, chunks)):  # recipes (``made``) packed as they are: made when read
            blob = _pack_made(chunks)
            if blob is None:  # a value marshal cannot write: the rulings made, packed as any others
                blob = _pack([r for part in run for r in part._own()])
        else:
            items: list[Any] = []
            for chunk in chunks:
                items += chunk
            blob = _pack(items)
        if blob is None:
            return
        for part in run:
            part._chunk = blob
            part._prev = base

    def _chunks(self) -> list[tuple[Ruling, ...]]:
        out: list[tuple[Ruling, ...]] = []
        node: RulingLog | None = self
        while node is not None:
            if node._chunk:  # (a list ``made`` keeps is never empty)
                out.append(node._own())
            node = node._prev
        out.reverse()
        return out

    def __iter__(self) -> Iterator[Ruling]:
        for chunk in self._chunks():
            yield from chunk

    def parts(self) -> list[tuple[Ruling, ...]]:
        """The rulings as tuples, oldest first, that joined are the log (a reader of every
        ruling maps over each, without a generator's step a ruling)."""
        return self._chunks()

    def field_parts(self) -> list[Sequence[Any]]:
        """``parts`` with each ``Ruling`` as its fields, ``(t, rule, player, data)`` (any other
        item as it is): a packed run's are read back as they were packed, without making its
        ``Ruling``s (a writer of every ruling needs only their fields: ``replay --json``)."""
        out: list[Sequence[Any]] = []
        node: RulingLog | None = self
        while node is not None:
            chunk = node._chunk
            if chunk.__class__ is bytes:
                count = node._n - (node._prev._n if node._prev is not None else 0)
                out.append(_unpack_fields(chunk, count) if count else ())  # type: ignore[arg-type]
            elif chunk:  # (a list ``made`` keeps is never empty)
                out.append(_as_fields(node._own()))
            node = node._prev
        out.reverse()
        return out

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
            first = node._prev._n if node._prev is not None else 0
            if key >= first:
                return node._own()[key - first]
            node = node._prev
        raise IndexError("ruling index out of range")  # pragma: no cover (lengths add up)

    def _tail(self, start: int) -> tuple[Ruling, ...]:
        """The rulings from index ``start`` on, walking back only as far as needed."""
        parts: list[tuple[Ruling, ...]] = []
        node: RulingLog | None = self
        while node is not None and node._n > start:
            first = node._prev._n if node._prev is not None else 0
            parts.append(node._own()[max(0, start - first):])
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


_new = object.__new__


def made(log: RulingLog, count: int, recipe: list[Any]) -> RulingLog:
    """``log`` and ``count`` rulings after it (one at least) made only when read: ``recipe`` is
    ``[make, *args]``, and ``make(*args)`` gives them (a pure function of ``args``: the same rulings
    at every read). The log keeps the list as it is (the caller hands it over, never to change it);
    ``log`` unchanged. The node is made without ``RulingLog``'s frame (its fields set here)."""
    node = _new(RulingLog)
    below = log._n
    if not below:
        node._chunk = recipe
        node._prev = None
        node._n = count
        return node  # type: ignore[no-any-return]
    # a log as long as a packed one: its newest rulings made now, the objects every read gives (a reader
    # that finds what is new by identity, the readable account's ``new_rulings``, reads back only to them)
    node._chunk = recipe if below < PACK_EVERY else recipe[0](*recipe[1:])
    node._prev = log
    node._n = n = below + count
    if n // PACK_EVERY != below // PACK_EVERY:
        node._pack_below()
    return node  # type: ignore[no-any-return]


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
