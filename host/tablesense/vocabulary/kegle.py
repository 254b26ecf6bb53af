"""The names of kegle as referees write them (``tablesense.vocabulary``): canonical id ->
the other spellings, in English, Dutch and Danish."""

from __future__ import annotations

from . import Vocabulary

VOCABULARY = Vocabulary(
    fouls={},
    balls={},
    calls={},
)
