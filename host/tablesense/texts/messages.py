"""A language's messages: its Fluent files (``<lang>/*.ftl``) parsed once, each message
compiled to a Python function of its parameters the first time it is said.

The files are Project Fluent's syntax (parsed by ``fluent.syntax``), and a message means what
Fluent says it means: text and ``{ $parameter }``, a select expression (``{ $n -> [one] ...
*[other] ... }``) by the language's plural rules (CLDR, through Babel) or on a word, a
reference to another message (``{ golf_frame_opening }``, with the same parameters) or to one
of the language's terms (``{ -fault }``), and ``GENITIVE($name)``. Compiled here rather than
resolved by ``fluent.runtime`` because a ruling's sentence is said often (the replay account
says every one, and the score line after every shot): a message of text and parameters
compiles to a Python format string (bench/texts_render.py measures it).

The plural rules of English, Dutch and Danish are written out (``PLURAL_RULES``, held to
Babel's by a test): Babel's import and locale data cost more than the rest of a replay's
start-up. Two departures from ``fluent.runtime``, both to say numbers as the texts always have: a
number is written as Python writes it (``1500``, not ``1,500`` or ``1.500``), and a missing
parameter as ``?`` (``Params``).

``GENITIVE($name)`` is the name as an owner, by the language's own terms: ``-genitive``
added to it, or ``-genitive-sibilant`` after a name that ends in one of ``-sibilants``
(Danish: ``Anns kugle``, ``Jens' kugle``).

A language's files are not parsed when it is first used: they are cut into their entries
(a message or term starts at the beginning of a line, its other lines are indented), and an
entry is compiled when it is first said. A message of one line of text and ``{ $parameter }``
(most of them) compiles straight to its format string, and so does each line of a message
that also selects on a parameter with a variant a line (``{ $player_plural -> *[no] stays
[yes] stay }``, a duo's verb); any other is parsed with ``fluent.syntax`` then, alone
(``fluent.syntax`` is imported only for such a message). A whole
file is parsed only for ``errors`` (the check of the languages). The first ruling of a replay
used to parse every file of its language (tens of milliseconds of a process's start-up).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .languages import ftl_names
from .params import Params

if TYPE_CHECKING:
    from fluent.syntax import ast as ftl

Render = Callable[[Mapping[str, Any]], str]
Part = str | Render


class MessageError(ValueError):
    """A message file that cannot be read, or a message that cannot be compiled."""


def text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


#: a message or a term: its first line (its id at the start of the line, then ``=``) and the
#: lines after it up to the next such first line or a comment (compiled when first used, by
#: ``re``'s own cache: a replay finds the entries it says one by one, ``_Cut``)
_ENTRY = r"(?m)^(-?)([a-zA-Z][a-zA-Z0-9_-]*) *=.*(?:\n(?!#|-?[a-zA-Z][a-zA-Z0-9_-]* *=).*)*"
#: a select on a parameter, its variants a line each, its ``}`` at the start of a line (these two
#: are compiled when first used, by ``re``'s own cache: a message of one line needs neither)
_SELECT = (r"\{ *\$([a-zA-Z][a-zA-Z0-9_-]*) *->\n"
           r"((?: +\*?\[[a-zA-Z][a-zA-Z0-9_-]*\][^\n]*\n)+) *\}")
_VARIANT = r" +(\*?)\[([a-zA-Z][a-zA-Z0-9_-]*)\] *(.*)"


def entries(source: str) -> Iterator[tuple[bool, str, str]]:
    """The messages and terms of a Fluent file, not parsed: (a term?, id, its source).

    An entry starts at the beginning of a line with its id and ``=``; its other lines (a
    multiline value, variants, attributes, a select's closing ``}``) are the lines after it
    up to the next entry or comment (what is not Fluent is found by the parser:
    ``Language.errors``). Lines are ``str.splitlines``'s, found by one regular expression
    over the file rather than a Python step a line."""
    for m in re.finditer(_ENTRY, "\n".join(source.splitlines())):
        yield bool(m.group(1)), m.group(2), m.group(0).rstrip() + "\n"


class Language:
    """The messages of one language, read from its folders (the package's first)."""

    def __init__(self, code: str, folders: Sequence[str | os.PathLike[str]]) -> None:
        self.code = code
        #: its files (``*.ftl``), folder by folder, each folder's by name (listed with ``os``:
        #: a replay's start-up does without ``pathlib``)
        self.paths = [os.path.join(folder, name) for folder in map(os.fspath, folders)
                      for name in sorted(ftl_names(folder))]
        texts = [(os.path.basename(path), "\n".join(_read(path).splitlines())) for path in self.paths]
        self._source = _Cut(texts, term=False)  # message id -> its entry's source
        self._term_source = _Cut(texts, term=True)
        self.messages = _Entries(self._source, self._parse_message)
        self.terms = _Entries(self._term_source, self._parse_term)
        self._errors: list[str] | None = None
        self._compiled: dict[str, Render] = {}
        self._plural: Callable[[Any], str] | None = None
        self._plurals: dict[tuple[type, Any], str] = {}  # a count's category, once per count

    @property
    def files(self) -> dict[str, str]:
        """Message id -> the file it is in."""
        return self._source.files()

    # -- parsing, when needed

    def _parse(self, text: str) -> Any:
        from fluent.syntax import FluentParser

        return FluentParser().parse_entry(text)

    def _parse_message(self, ident: str, text: str) -> ftl.Message:
        from fluent.syntax import ast as ftl

        entry = self._parse(text)
        if not isinstance(entry, ftl.Message) or entry.id.name != ident:
            raise MessageError(f"{self.code}: {ident} is not a Fluent message ({self.files.get(ident)})")
        return entry

    def _parse_term(self, name: str, text: str) -> ftl.Term:
        from fluent.syntax import ast as ftl

        entry = self._parse(text)
        if not isinstance(entry, ftl.Term) or entry.id.name != name:
            raise MessageError(f"{self.code}: -{name} is not a Fluent term")
        return entry

    @property
    def errors(self) -> list[str]:
        """What in the files is not Fluent (``file:line: why: 'the line'``): every file parsed."""
        if self._errors is None:
            from fluent.syntax import FluentParser
            from fluent.syntax import ast as ftl

            errors: list[str] = []
            parser = FluentParser()
            for path in self.paths:
                resource_text = _read(path)
                for entry in parser.parse(resource_text).body:
                    if isinstance(entry, ftl.Junk):
                        line = resource_text[: entry.span.start].count("\n") + 1
                        why = entry.annotations[0].message if entry.annotations else "not Fluent"
                        errors.append(f"{path}:{line}: {why}: {entry.content.splitlines()[0]!r}")
            self._errors = errors
        return self._errors

    # -- saying a message

    def has(self, ident: str) -> bool:
        return ident in self._source

    def say(self, ident: str, params: Mapping[str, Any]) -> str | None:
        """The message ``ident`` with ``params`` (a ``Params``), or None if there is none."""
        render = self._compiled.get(ident)
        if render is None:
            if ident not in self._source:
                return None
            render = self.compile(ident)
        return render(params)

    def compile(self, ident: str) -> Render:
        render = self._compiled.get(ident)
        if render is None:
            render = self._simple(ident)
            if render is None:
                message = self.messages[ident]
                if message.value is None:
                    raise MessageError(f"{self.code}: {ident} has no value")
                render = self._pattern(message.value)
            self._compiled[ident] = render
        return render

    def _simple(self, ident: str) -> Render | None:
        """A message of text and ``{ $parameter }``s, and of selects on a parameter whose variants
        are a line of those each (``{ $player_plural -> *[no] stays [yes] stay }``), compiled
        without the parser (text and parameters to the format string ``_pattern`` makes of
        them); None for any other."""
        source = self._source[ident]
        head, _, value = source.rstrip("\n").partition("=")
        value = value.strip(" ")
        if not value or head.strip() != ident:
            return None
        if "\n" not in value:
            return _format(value) if _line_format(value) is not None else None
        pieces: list[Any] = []  # text, and (parameter, variants, default) for each select
        at = 0
        for m in re.finditer(_SELECT, value):
            select = _variants(m.group(2))
            if select is None or _line_format(value[at:m.start()]) is None:
                return None
            pieces += [value[at:m.start()], (m.group(1), *select)]
            at = m.end()
        if not pieces or _line_format(value[at:]) is None:
            return None
        pieces.append(value[at:])
        if len(pieces) == 3:  # one select (most): the whole message's format string for each variant
            head, (name, variants, default), tail = pieces
            return self._choose(name, [(k, _format(head + said + tail)) for k, said in variants],
                                _format(head + default + tail))
        parts = [_format(x) if isinstance(x, str) else
                 self._choose(x[0], [(k, _format(said)) for k, said in x[1]], _format(x[2])) for x in pieces]
        return lambda p: "".join([part(p) for part in parts])

    def _choose(self, name: str, variants: list[tuple[str, Render]], default: Render) -> Render:
        """The variant a select on ``name`` says: a word by its key (``yes``), a number by its
        plural category in the language (``one``), else the default."""
        by_word: dict[str, Render] = {}
        for k, render in variants:
            by_word.setdefault(k, render)
        plural = self.plural

        def choose(p: Mapping[str, Any]) -> str:
            v = p[name]
            if v.__class__ is str:
                return by_word.get(v, default)(p)
            for k, render in variants:
                if _match(v, k, plural):
                    return render(p)
            return default(p)

        return choose

    # -- compiling

    def _pattern(self, pattern: ftl.Pattern) -> Render:
        from fluent.syntax import ast as ftl

        parts: list[Part] = []
        for element in pattern.elements:
            if isinstance(element, ftl.TextElement):
                parts.append(element.value)
            else:
                parts.append(self._inline(element.expression))  # type: ignore[union-attr]
        if all(isinstance(p, str) for p in parts):
            constant = "".join(parts)  # type: ignore[arg-type]
            return lambda p: constant
        names = [getattr(p, "variable", None) for p in parts if not isinstance(p, str)]
        if all(names):  # text and parameters only: a format string
            fmt = "".join(p.replace("{", "{{").replace("}", "}}") if isinstance(p, str)
                          else "{" + p.variable + "}" for p in parts)  # type: ignore[union-attr]
            return fmt.format_map  # type: ignore[return-value]
        return lambda p: "".join([x if isinstance(x, str) else x(p) for x in parts])

    def _inline(self, expr: Any) -> Part:
        """A placeable's text."""
        from fluent.syntax import ast as ftl

        if isinstance(expr, ftl.VariableReference):
            return _Variable(expr.id.name)
        if isinstance(expr, ftl.StringLiteral):
            return str(expr.parse()["value"])
        if isinstance(expr, ftl.NumberLiteral):
            return str(expr.value)
        if isinstance(expr, ftl.Placeable):
            return self._inline(expr.expression)
        if isinstance(expr, ftl.MessageReference):
            if expr.attribute is not None:
                raise MessageError(f"{self.code}: {expr.id.name}.{expr.attribute.name}: no attributes here")
            ident = expr.id.name
            if ident not in self.messages:
                raise MessageError(f"{self.code}: no message {ident}")
            return lambda p: self.compile(ident)(p)
        if isinstance(expr, ftl.TermReference):
            return self._term(expr)
        if isinstance(expr, ftl.FunctionReference):
            return self._function(expr)
        if isinstance(expr, ftl.SelectExpression):
            return self._select(expr)
        raise MessageError(f"{self.code}: {type(expr).__name__} is not used in these texts")

    def _term(self, expr: ftl.TermReference) -> Part:
        from fluent.syntax import ast as ftl

        term = self.terms.get(expr.id.name)
        if term is None:
            raise MessageError(f"{self.code}: no term -{expr.id.name}")
        args = Params()
        if expr.arguments is not None:
            for named in expr.arguments.named:  # a term sees only what it is given (literals)
                args[named.name.name] = named.value.parse()["value"]
        if all(isinstance(e, ftl.TextElement) for e in term.value.elements):
            return "".join(e.value for e in term.value.elements)  # type: ignore[union-attr]
        render = self._pattern(term.value)
        return lambda p: render(args)

    def term_text(self, name: str) -> str:
        term = self.terms.get(name)
        if term is None:
            raise MessageError(f"{self.code}: no term -{name}")
        return self._pattern(term.value)(Params())

    def _function(self, expr: ftl.FunctionReference) -> Part:
        name = expr.id.name
        if name != "GENITIVE":
            raise MessageError(f"{self.code}: no function {name} (only GENITIVE)")
        if len(expr.arguments.positional) != 1:
            raise MessageError(f"{self.code}: GENITIVE takes one name")
        arg = self._inline(expr.arguments.positional[0])
        own, sibilant = self.term_text("genitive"), self.term_text("genitive-sibilant")
        letters = tuple(self.term_text("sibilants").split())

        def genitive(p: Mapping[str, Any]) -> str:
            name = arg if isinstance(arg, str) else arg(p)
            return name + (sibilant if name.lower().endswith(letters) else own)

        return genitive

    def _select(self, expr: ftl.SelectExpression) -> Render:
        from fluent.syntax import ast as ftl

        selector = expr.selector
        if isinstance(selector, ftl.VariableReference):
            key_name = selector.id.name

            def value(p: Mapping[str, Any]) -> Any:
                return p[key_name]
        else:
            part = self._inline(selector)

            def value(p: Mapping[str, Any]) -> Any:
                return part if isinstance(part, str) else part(p)
        variants: list[tuple[Any, Render]] = []
        default: Render | None = None
        for variant in expr.variants:
            key = variant.key
            k = key.parse()["value"] if isinstance(key, ftl.NumberLiteral) else key.name
            render = self._pattern(variant.value)
            variants.append((k, render))
            if variant.default:
                default = render
        assert default is not None  # the parser refuses a select expression without one
        plural = self.plural

        def select(p: Mapping[str, Any]) -> str:
            v = value(p)
            for k, render in variants:
                if _match(v, k, plural):
                    return render(p)
            return default(p)  # type: ignore[misc]

        return select

    def plural(self, n: Any) -> str:
        """``n``'s plural category in this language (CLDR: one, few, many, other, ...)."""
        key = (type(n), n)
        category = self._plurals.get(key)
        if category is None:
            if self._plural is None:
                self._plural = PLURAL_RULES.get(self.code) or _babel_plural(self.code)
            category = self._plurals[key] = self._plural(n)
        return category

    # -- what a message reads (the check of the languages)

    def variables(self, ident: str, seen: frozenset[str] = frozenset()) -> set[str]:
        """The parameters message ``ident`` reads, through the messages it refers to."""
        from fluent.syntax import ast as ftl

        out: set[str] = set()

        def walk(node: Any) -> None:
            if isinstance(node, ftl.VariableReference):
                out.add(node.id.name)
            elif isinstance(node, ftl.MessageReference):
                if node.id.name in self.messages and node.id.name not in seen:
                    out.update(self.variables(node.id.name, seen | {ident}))
            elif isinstance(node, ftl.TermReference):
                return  # a term reads only its own arguments, literals
            elif isinstance(node, ftl.BaseNode):
                for value in vars(node).values():
                    for child in value if isinstance(value, list) else [value]:
                        walk(child)

        walk(self.messages[ident].value)
        return out


def _one_if_one(n: Any) -> str:
    """CLDR's cardinal plural rule of English and Dutch (``one: i = 1 and v = 0``): ``one`` for 1,
    and for 1.0 (Babel reads a whole float as the integer), ``other`` for any other number."""
    return "one" if abs(n) == 1 else "other"


def _one_below_two(n: Any) -> str:
    """CLDR's rule of Danish (``one: n = 1 or t != 0 and i = 0,1``): ``one`` for 1 and for a
    number with decimals between 0 and 2 (0.5, 1.5), ``other`` for 0 and the rest."""
    return "one" if 0 < abs(n) < 2 else "other"


#: the plural rules of the package's languages, written out: what Babel's ``plural_form`` says
#: (a test holds them to it), without Babel's import and locale data (~0.1 s of CPU, more than
#: the rest of a replay's start-up); a language not here asks Babel
PLURAL_RULES: dict[str, Callable[[Any], str]] = {"en": _one_if_one, "nl": _one_if_one, "da": _one_below_two}


def _babel_plural(code: str) -> Callable[[Any], str]:
    """The language's plural rule from CLDR, through Babel."""
    from babel import Locale

    rule: Callable[[Any], str] = Locale.parse(code.replace("-", "_")).plural_form
    return rule


def _read(path: str) -> str:
    """A message file's text (newlines as ``Path.read_text`` gives them)."""
    with open(path, encoding="utf-8") as f:
        return f.read()


def _variants(lines: str) -> tuple[list[tuple[str, str]], str] | None:
    """A select's variants of one line each (key, text) and its default's text, or None."""
    variants: list[tuple[str, str]] = []
    default: str | None = None
    for line in lines.splitlines():
        m = re.fullmatch(_VARIANT, line)
        said = m.group(3).rstrip(" ") if m else ""
        if m is None or not said or _line_format(said) is None:
            return None
        variants.append((m.group(2), said))
        if m.group(1):
            if default is not None:
                return None
            default = said
    return None if default is None else (variants, default)


def _format(text: str) -> Render:
    """Text and ``{ $parameter }``s within one line (``_line_format``) said with the parameters
    (a format string)."""
    if "{" not in text:
        return lambda p: text
    return _line_format(text).format_map  # type: ignore[union-attr,return-value]


#: what a parameter's name starts with, and what the rest of it is made of (``[a-zA-Z][a-zA-Z0-9_-]*``)
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_NAME_CHARACTERS = _NAME_START | frozenset("0123456789_-")


def _line_format(text: str) -> str | None:
    """``text`` as a format string (each ``{ $parameter }`` as ``{parameter}``) when it is text and
    such placeables within one line; None for anything else (another placeable, a brace of its own,
    a line's end). Read by hand, not by a regular expression: the two patterns this did were
    compiled at import, 1.2M instructions of every replay's start-up (docs/performance.md)."""
    if "\n" in text:
        return None
    parts: list[str] = []
    at = 0
    while (start := text.find("{", at)) >= 0:
        if 0 <= text.find("}", at, start):  # a brace of its own before the placeable
            return None
        name = start + 1
        while text.startswith(" ", name):
            name += 1
        if not text.startswith("$", name) or text[name + 1:name + 2] not in _NAME_START:
            return None
        end = name + 2
        while end < len(text) and text[end] in _NAME_CHARACTERS:
            end += 1
        close = end
        while text.startswith(" ", close):
            close += 1
        if not text.startswith("}", close):
            return None
        parts += [text[at:start], "{", text[name + 1:end], "}"]
        at = close + 1
    if "}" in text[at:]:
        return None
    parts.append(text[at:])
    return "".join(parts)


#: what an id starts with, and what the rest of it is made of (``[a-zA-Z][a-zA-Z0-9_-]*``)
_ID_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ID_CHARACTERS = _ID_START | frozenset("0123456789_-")


def _is_id(text: str) -> bool:
    return text[:1] in _ID_START and _ID_CHARACTERS.issuperset(text)


def _starts_entry(line: str) -> bool:
    """``line`` starts a message or a term (``_ENTRY``'s first line: ``-?``, an id, spaces, ``=``)."""
    head, equals, _ = line.partition("=")
    head = head.rstrip(" ")
    return bool(equals) and _is_id(head[1:] if head[:1] == "-" else head)


def _entry_at(text: str, at: int) -> str:
    """The source of the entry whose first line starts at ``at`` in ``text`` (its lines joined by
    ``\\n``), as ``entries`` gives it: up to the next entry or comment."""
    end = text.find("\n", at)
    while end >= 0:
        after = text.find("\n", end + 1)
        line = text[end + 1:] if after < 0 else text[end + 1:after]
        if line[:1] == "#" or _starts_entry(line):
            break
        end = after
    return (text[at:] if end < 0 else text[at:end]).rstrip() + "\n"


def _last_entry(texts: list[tuple[str, str]], head: str) -> str | None:
    """The source of the last entry whose first line is ``head`` (an id, or ``-`` and a term's),
    spaces and ``=``, in the last of ``texts`` that has one: the one ``entries`` of every file in
    turn, each written over the one before, would leave."""
    for _name, text in reversed(texts):
        at = len(text)
        while (at := text.rfind(head, 0, at + len(head) - 1)) >= 0:
            end = at + len(head)
            while text.startswith(" ", end):
                end += 1
            if (at == 0 or text[at - 1] == "\n") and text.startswith("=", end):
                return _entry_at(text, at)
    return None


class _Cut(Mapping[str, str]):
    """A language's messages (or terms) by id -> its entry's source, its files cut into entries
    (``entries``) only for a walk over them all (the check of the languages, ``keys``): one id
    is found by a search for its first line, the last file's first (``_last_entry``). A replay's
    first sentence cut every file of its language, 3M instructions of its start-up."""

    __slots__ = ("_every", "_files", "_found", "_term", "_texts")

    def __init__(self, texts: list[tuple[str, str]], term: bool) -> None:
        self._texts = texts  # (a file's name, its text)
        self._term = term
        self._found: dict[str, str | None] = {}
        self._every: dict[str, str] | None = None
        self._files: dict[str, str] = {}

    def _cut(self) -> dict[str, str]:
        """Every entry of the files, each file's in turn (a later one wins)."""
        if self._every is None:
            every: dict[str, str] = {}
            for name, text in self._texts:
                for is_term, ident, source in entries(text):
                    if is_term == self._term:
                        every[ident] = source
                        self._files[ident] = name
            self._every = every
        return self._every

    def files(self) -> dict[str, str]:
        """Id -> the file its entry is in."""
        self._cut()
        return self._files

    def __getitem__(self, ident: str) -> str:
        if self._every is not None:
            return self._every[ident]
        try:
            source = self._found[ident]
        except KeyError:
            source = self._found[ident] = (
                _last_entry(self._texts, "-" + ident if self._term else ident)
                if isinstance(ident, str) and _is_id(ident) else None)
        if source is None:
            raise KeyError(ident)
        return source

    def __contains__(self, ident: object) -> bool:
        try:
            self[ident]  # type: ignore[index]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._cut())

    def __len__(self) -> int:
        return len(self._cut())


class _Entries(Mapping[str, Any]):
    """Messages (or terms) by id, each parsed the first time it is looked up."""

    __slots__ = ("_parse", "_parsed", "_source")

    def __init__(self, source: Mapping[str, str], parse: Callable[[str, str], Any]) -> None:
        self._source = source
        self._parse = parse
        self._parsed: dict[str, Any] = {}

    def __getitem__(self, ident: str) -> Any:
        entry = self._parsed.get(ident)
        if entry is None:
            entry = self._parsed[ident] = self._parse(ident, self._source[ident])
        return entry

    def __contains__(self, ident: object) -> bool:
        return ident in self._source

    def __iter__(self) -> Iterator[str]:
        return iter(self._source)

    def __len__(self) -> int:
        return len(self._source)


class _Variable:
    """``{ $name }``: the parameter as text (a callable part that names its variable)."""

    __slots__ = ("variable",)

    def __init__(self, name: str) -> None:
        self.variable = name

    def __call__(self, p: Mapping[str, Any]) -> str:
        return text(p[self.variable])


def _match(value: Any, key: Any, plural: Callable[[Any], str]) -> bool:
    """A select expression's variant ``key`` against ``value``, as fluent.runtime matches."""
    if _is_number(value):
        return value == key if _is_number(key) else plural(value) == key
    if _is_number(key):
        return bool(plural(key) == value)
    return bool(value == key)
