"""One fault record for every game: what a referee calls, which seed rule it is, what it costs.

A game's package lists its faults as ``Fault`` rows (``rules/<game>/fouls.py``): the
catalogue id a ruling cites (``seeds/<game>.md``), the seed paragraph it comes from (the
catalogue's ``seed`` column, a test keeps them equal), what it costs in the game's own
terms (``then``: golf's balls put back and replacement spot, keglebillard's new outlay or
red in hand, carom's jump), the names a referee may call it by besides its id, and the
button the referee panel shows for it (None: a fault the engine finds alone, never called).

In the manner of python-chess's one ``Termination``: the panel, the command line and the
texts read this one shape; only ``then`` is the game's own.
"""

from typing import Generic, TypeVar

from ..frozen import Frozen


class Button(Frozen):
    """How the referee panel offers a fault (``web/fouls.py`` draws it): frozen, compared, hashed
    and shown field by field (``Frozen``: a ``NamedTuple`` class is ~0.75M instructions of every
    replay's start-up, its ``__new__`` compiled from a string at import)."""

    __slots__ = ("call", "common", "place", "profiles", "zone")
    _fields = ("call", "common", "profiles", "zone", "place")

    #: the ``foul`` name the panel sends (a name the game's engine accepts, docs/events.md);
    #: its words are the web string ``foul.<game>.<call>`` (texts/<lang>/screen.json)
    call: str
    #: shown at once; the rare ones are one tap away
    common: bool
    #: the rule variants that know it (carom's profiles, golf's format); empty: every one
    profiles: tuple[str, ...]
    #: golf: True only in zone play, False only before it; None: always
    zone: bool | None
    #: where the panel shows it among the buttons of its group, lower first (the fouls a
    #: referee calls most lead); equal places keep the fault table's order
    place: int

    def __init__(self, call: str, common: bool = False, profiles: tuple[str, ...] = (),
                 zone: bool | None = None, place: int = 99) -> None:
        set_field = object.__setattr__
        set_field(self, "call", call)
        set_field(self, "common", common)
        set_field(self, "profiles", profiles)
        set_field(self, "zone", zone)
        set_field(self, "place", place)


Then = TypeVar("Then")


class Fault(Frozen, Generic[Then]):
    """One fault of a game's table of faults: frozen, compared, hashed and shown field by field
    as a frozen dataclass is; ``Frozen`` rather than ``@dataclass`` for the start-up of
    ``tablesense replay`` (frozen.py)."""

    __slots__ = ("aliases", "button", "id", "seed", "then")
    _fields = ("id", "seed", "then", "aliases", "button")

    #: the catalogue id every ruling on it cites (``"kegle.fault.no-cushion"``)
    id: str
    #: the seed paragraph(s), as the catalogue's ``seed`` column writes them (``"5.11"``)
    seed: str
    #: what it costs, in the game's own terms
    then: Then
    #: other names a referee may write for it (read at the input edge, ``rules/<game>/names.py``)
    aliases: tuple[str, ...]
    #: the referee panel's button for it; None: not called from the panel
    button: Button | None

    def __init__(self, id: str, seed: str, then: Then, aliases: tuple[str, ...] = (),
                 button: Button | None = None) -> None:
        set_field = object.__setattr__
        set_field(self, "id", id)
        set_field(self, "seed", seed)
        set_field(self, "then", then)
        set_field(self, "aliases", aliases)
        set_field(self, "button", button)


__all__ = ["Button", "Fault"]
