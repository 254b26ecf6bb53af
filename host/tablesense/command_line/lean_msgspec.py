"""msgspec imported without ``typing_extensions``, for a short command's start-up.

msgspec asks ``typing_extensions`` first for ``get_type_hints``, ``Required`` and ``NotRequired``
(``msgspec._utils``), and ``typing`` when it is not installed. Its import brings ``inspect``
with ``ast``, ``dis`` and ``tokenize``: ~40M instructions, a sixth of a replay's start-up
(docs/performance.md). On Python 3.11 and later ``typing`` has all three, and the package's
annotations are ``typing``'s only, so msgspec reads them the same either way.

``import_msgspec`` imports msgspec with ``typing_extensions`` hidden, then shows it again: a
later ``import typing_extensions`` (aiohttp's) works as ever, and only msgspec keeps
``typing``'s. Nothing is done when either is imported already (a test run, another command).

msgspec's ``__init__`` also imports four modules a replay never uses: ``inspect`` (its types, a
few dozen Structs made at import), ``_json_schema`` (with ``textwrap``, whose regular expressions
are compiled at import), ``toml`` and ``yaml``: ~11M instructions, 6 % of a replay's start-up.
``import_msgspec`` puts a stand-in for each in ``sys.modules`` first (``Later``): msgspec binds it
as it would the module, and the module itself is imported the first time one of its names is
asked for (then it is in ``sys.modules`` and msgspec's attribute, as ever; the stand-in forwards
to it). ``msgspec.json.schema`` and ``schema_components`` (``json``'s import takes them from
``_json_schema``) call the real ones.

msgspec's C init imports ``datetime``, ``uuid`` and others for a class or method of theirs
(``datetime.datetime.astimezone``, ``uuid.UUID``), which it keeps. Two of them cost more than the
class: ``datetime.py`` runs a whole Python implementation (~4M instructions) and then replaces it
by ``from _datetime import *``, and ``uuid`` imports ``platform`` (~9M, its regular expressions
compiled at import) to call ``platform.system()`` once. ``import_msgspec`` lends them for the
import's duration (``_lent``): ``_datetime`` as ``datetime`` (the very classes ``datetime``
re-exports: msgspec keeps what it would have kept), and for ``platform`` a ``Later`` whose
``system()`` says ``"Linux"`` where ``os.uname()`` does (what ``platform.system()`` says then;
anything else asks the real one). Both leave ``sys.modules`` after it: a later ``import
datetime`` or ``import platform`` imports the real module, ``uuid``'s ``platform`` forwards to it.

msgspec's ``_utils`` asks at import whether ``typing.ForwardRef`` takes ``is_class`` (new in Python
3.11) by making ``ForwardRef("Foo", is_class=True)``, which compiles ``"Foo"``: a process's first
``compile()`` makes the interpreter's AST types (~9M instructions, 6 % of a replay's start-up).
``import_msgspec`` answers that one call without compiling (``_forward_ref_probe``: it succeeds, as
the real one does on 3.11+), every other call to the real class, which is ``typing``'s again after
the import. The 9M are saved only where nothing else on the start-up's path compiles (a
``typing.NamedTuple`` of string annotations, ``from __future__ import annotations``, compiles each).

``lean_start`` imports it so and then the command's module, with the cyclic collector paused:
those imports make objects that live as long as the process, which the collector (run by their
count) walked several times for nothing (~21M instructions, a tenth of a short replay's start-up);
they are then frozen (``gc.freeze``: left out of later collections), and the collector set back
as it was. In a process that has msgspec already (a test run) only the command's module is loaded.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from types import ModuleType

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (as ``cli``'s)
    from collections.abc import Callable

HIDDEN = "typing_extensions"
#: msgspec's modules its ``__init__`` imports that a replay never uses: imported when first used
LATER = ("msgspec.inspect", "msgspec._json_schema", "msgspec.toml", "msgspec.yaml")


class Later(ModuleType):
    """Stands in for one of msgspec's modules (``LATER``), or ``platform`` for ``uuid``'s import,
    until one of its names is asked for: then the module is imported (``real``) and the name is
    its."""

    def __getattr__(self, name: str) -> object:
        if name.startswith("__") and name.endswith("__"):  # (the import system's look: ``__path__``)
            raise AttributeError(name)
        return getattr(real(self.__name__), name)


def real(name: str) -> ModuleType:
    """The module ``name`` itself, imported now if a ``Later`` stands in for it."""
    module = sys.modules.get(name)
    if module is None or isinstance(module, Later):
        if module is not None:
            del sys.modules[name]
        module = importlib.import_module(name)
    return module


def _schema(*args: object, **kwargs: object) -> object:
    return real("msgspec._json_schema").schema(*args, **kwargs)


def _schema_components(*args: object, **kwargs: object) -> object:
    return real("msgspec._json_schema").schema_components(*args, **kwargs)


def _system() -> str:
    """``platform.system()``: ``"Linux"`` where ``os.uname().sysname`` says so (``platform.uname``
    renames only an empty, ``win32``, ``java``, ``Microsoft`` or ``unknown`` system), else asked of
    the real module."""
    return "Linux" if os.uname().sysname == "Linux" else real("platform").system()


def _lent() -> dict[str, ModuleType]:
    """What ``import_msgspec`` lends msgspec's C init for its import (name -> module): those of
    ``datetime`` and ``platform`` not imported yet, where it can."""
    modules = sys.modules
    lent: dict[str, ModuleType] = {}
    if "datetime" not in modules:
        try:
            import _datetime
        except ImportError:  # (an interpreter without the C module: ``datetime`` as ever)
            pass
        else:
            lent["datetime"] = _datetime
    if "platform" not in modules and "uuid" not in modules and hasattr(os, "uname"):
        platform = lent["platform"] = Later("platform")
        platform.system = _system  # type: ignore[attr-defined]  (what ``uuid``'s import calls)
    return lent


def _take_back(lent: dict[str, ModuleType]) -> None:
    """The modules lent for msgspec's import out of ``sys.modules`` again (the real ones are then
    imported by the next ``import``)."""
    modules = sys.modules
    for name, module in lent.items():
        if modules.get(name) is module:
            del modules[name]


def _forward_ref_probe(real: type) -> Callable[..., object]:
    """``typing.ForwardRef`` for msgspec's import: its feature test (``ForwardRef("Foo",
    is_class=True)``, the result thrown away) answered without a ``compile()``; any other call made
    by the real class ``real``."""

    def forward_ref(*args: object, **kwargs: object) -> object:
        if args == ("Foo",) and kwargs == {"is_class": True}:
            return None
        return real(*args, **kwargs)

    return forward_ref


def import_msgspec() -> None:
    """Import msgspec, without ``typing_extensions`` when it is not imported yet (Python 3.11+),
    and with its modules a replay does not use (``LATER``) imported only when first used."""
    modules = sys.modules
    if "msgspec" in modules or HIDDEN in modules or sys.version_info < (3, 11) \
            or any(name in modules for name in LATER):
        return
    for name in LATER:
        modules[name] = Later(name)
    modules[LATER[1]].schema = _schema  # type: ignore[attr-defined]  (what ``__init__`` takes from it)
    modules[LATER[1]].schema_components = _schema_components  # type: ignore[attr-defined]
    modules[HIDDEN] = None  # type: ignore[assignment]  (``import`` then raises ImportError)
    lent = _lent()
    modules.update(lent)
    import typing  # (msgspec's C init imports it first)

    forward_ref = typing.ForwardRef
    typing.ForwardRef = _forward_ref_probe(forward_ref)  # type: ignore[misc]
    try:
        import msgspec  # noqa: F401
    except BaseException:
        for name in LATER:
            if isinstance(modules.get(name), Later):
                del modules[name]
        raise
    finally:
        typing.ForwardRef = forward_ref  # type: ignore[misc]
        _take_back(lent)
        if HIDDEN in modules and modules[HIDDEN] is None:
            del modules[HIDDEN]


def lean_start(load: Callable[[], ModuleType | None]) -> ModuleType | None:
    """``load()`` (a command's module) after ``import_msgspec``, the start-up's imports made with the
    cyclic collector paused and then frozen out of its walks; in a process that has msgspec already
    (a test run, another command), ``load()`` alone."""
    if "msgspec" in sys.modules:
        return load()
    collecting = gc.isenabled()
    gc.disable()
    try:
        import_msgspec()
        return load()
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
