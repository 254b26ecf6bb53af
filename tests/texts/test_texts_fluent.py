"""Every message means what Project Fluent says it means: ``tablesense.texts`` compiles the
catalogues itself (for speed), and here each message of each language is said by it and by
``fluent.runtime``, the reference implementation, under several sets of parameters (a count
of 0, 1, 2 and 21, names with and without a final s, the referee's own words or none, a side
of one name or a duo), and the two must agree word for word. A translator who knows Fluent
can trust what they know."""

from __future__ import annotations

from typing import Any

import pytest
from fluent.runtime import FluentBundle, FluentResource

from tablesense import texts
from tablesense.texts.languages import folders
from tablesense.texts.params import Params

SAMPLES: list[Any] = [0, 1, 2, 21, "Ann", "Jens", "Ann & Bo"]
#: parameters that are yes or no (the referee's own words given, a side of more than one name)
YES_NO = frozenset({"text_given", "player_plural", "opponent_plural"})


def bundle(lang: str) -> FluentBundle:
    language = texts.language(lang)

    def genitive(name: Any) -> str:  # the same rule, from the same terms, as fluent.runtime's function
        name = str(name)
        sibilants = tuple(language.term_text("sibilants").split())
        return name + (language.term_text("genitive-sibilant") if name.lower().endswith(sibilants)
                       else language.term_text("genitive"))

    out = FluentBundle([lang], use_isolating=False, functions={"GENITIVE": genitive})
    for folder in folders(lang):
        for path in sorted(folder.glob("*.ftl")):
            out.add_resource(FluentResource(path.read_text(encoding="utf-8")))
    return out


@pytest.mark.parametrize("lang", texts.LANGS)
def test_every_message_says_what_fluent_runtime_says(lang: str) -> None:
    language, reference = texts.language(lang), bundle(lang)
    checked, wrong = 0, []
    for ident in language.messages:
        variables = sorted(language.variables(ident))
        for i, sample in enumerate(SAMPLES):
            params = {v: SAMPLES[(i + j) % len(SAMPLES)] if v not in YES_NO else ("yes", "no")[(i + j) % 2]
                      for j, v in enumerate(variables)}
            if variables:
                params[variables[0]] = sample
            ours = language.say(ident, Params(params))
            theirs, errors = reference.format_pattern(reference.get_message(ident).value, params)
            assert not errors, f"{lang} {ident}: {errors}"
            checked += 1
            if ours != theirs:
                wrong.append(f"{ident} {params}: {ours!r} where Fluent says {theirs!r}")
    assert checked > 1000
    assert wrong == []


def test_a_plain_ruling_is_said_without_parsing_the_files() -> None:
    """Start-up: the first sentence of a replay costs no parse of the language's files; a
    message of text and parameters compiles without ``fluent.syntax`` (a process's import)."""
    import subprocess
    import sys

    code = ("import sys; from tablesense import texts; "
            "print(texts.render('golf.goal', {'goal': 2}, 'nl', 'p1', {'p1': 'Ann'})); "
            "print('fluent.syntax' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    said, parsed = done.stdout.splitlines()
    assert said == texts.render("golf.goal", {"goal": 2}, "nl", "p1", {"p1": "Ann"})
    assert "Ann" in said and "2" in said
    assert parsed == "False"


def test_a_message_cut_from_its_file_is_the_message_the_parser_reads() -> None:
    """The entries a file is cut into (``messages.entries``) are its messages and terms, each
    parsed alone to what the whole file's parse gives."""
    from fluent.syntax import FluentParser
    from fluent.syntax import ast as ftl

    from tablesense.texts.messages import entries

    for lang in texts.LANGS:
        for folder in folders(lang):
            for path in sorted(folder.glob("*.ftl")):
                source = path.read_text(encoding="utf-8")
                whole = {(isinstance(e, ftl.Term), e.id.name): e
                         for e in FluentParser(with_spans=False).parse(source).body
                         if isinstance(e, (ftl.Message, ftl.Term))}
                cut = {(term, ident): FluentParser(with_spans=False).parse_entry(text)
                       for term, ident, text in entries(source)}
                assert cut.keys() == whole.keys(), path
                for k, entry in cut.items():  # the same value and attributes (a comment stays behind)
                    assert entry.value.equals(whole[k].value), f"{path}: {k[1]}"
                    theirs = whole[k].attributes
                    assert [a.to_json() for a in entry.attributes] == [a.to_json() for a in theirs]
