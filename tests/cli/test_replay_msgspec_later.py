"""A replay's start-up imports msgspec without the four modules its ``__init__`` imports and a
replay never uses (``command_line.lean_msgspec.LATER``: ``inspect``, ``_json_schema`` with
``textwrap``, ``toml``, ``yaml``); each is imported the first time one of its names is asked for,
and then works as after a plain ``import msgspec``. Checked in fresh processes."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import msgspec.inspect
import msgspec.json
from helpers.child_python import run_child, short_golf_log

#: a replay, then what the stand-ins were, then each module used: its results as text
AFTER_A_REPLAY = """
import json, sys
from tablesense.cli import main
main(json.loads(sys.argv[1]))
later = sorted(n for n in ("msgspec.inspect", "msgspec._json_schema", "msgspec.toml", "msgspec.yaml")
               if type(sys.modules.get(n)).__name__ == "Later")
textwrap = "textwrap" in sys.modules
import msgspec, msgspec.json
class Shot(msgspec.Struct):
    t: float
    balls: list[str] = []
out = [repr(msgspec.inspect.type_info(Shot)), msgspec.json.schema(Shot),
       msgspec.json.schema_components([Shot]), callable(msgspec.toml.decode), callable(msgspec.yaml.encode),
       [type(sys.modules[n]).__name__ for n in ("msgspec.inspect", "msgspec._json_schema")]]
import msgspec.toml
out.append(msgspec.toml is sys.modules["msgspec.toml"] and type(msgspec.toml).__name__)
print(json.dumps([later, textwrap, out], default=repr), file=sys.stderr)
"""


class Shot(msgspec.Struct):
    t: float
    balls: list[str] = []


def test_a_replays_msgspec_imports_its_unused_modules_when_first_used(tmp_path: Path) -> None:
    log = short_golf_log(tmp_path)
    done = run_child(AFTER_A_REPLAY, json.dumps(["replay", str(log), "--json"]))
    assert json.loads(done.stdout)["game"] == "golf"  # it did replay
    later, textwrap, out = json.loads(done.stderr.strip().splitlines()[-1])
    assert later == ["msgspec._json_schema", "msgspec.inspect", "msgspec.toml", "msgspec.yaml"]
    assert textwrap is False  # (``_json_schema``'s import, not made)
    info, schema, components, toml, yaml, kinds, toml_module = out
    # this process imported msgspec whole: the same answers (the class's name is the only text of it)
    assert info == repr(msgspec.inspect.type_info(Shot)).replace(__name__, "__main__")
    assert schema == json.loads(json.dumps(msgspec.json.schema(Shot)))
    assert components == json.loads(json.dumps(msgspec.json.schema_components([Shot])))
    assert toml is True and yaml is True
    assert kinds == ["module", "module"]  # imported, in ``sys.modules`` in the stand-ins' place
    assert toml_module == "module"


FAILED_IMPORT = """
import json, sys
sys.modules["msgspec._core"] = None  # (msgspec's import fails)
from tablesense.command_line.lean_msgspec import LATER, import_msgspec
try:
    import_msgspec()
except ImportError:
    pass
print(json.dumps([[n for n in LATER if n in sys.modules], "typing_extensions" in sys.modules,
                  "msgspec" in sys.modules, [n in sys.modules for n in ("datetime", "platform")]]))
"""


def test_a_failed_msgspec_import_leaves_no_stand_in_behind_and_takes_the_lent_modules_back() -> None:
    assert json.loads(run_child(FAILED_IMPORT).stdout) == [[], False, False, [False, False]]
