"""The package's modules import one another in one direction: no circle, nothing running back
up. Read from the source (``ast``), so it holds for every module, not only the ones a test
happens to load: every ``import`` counts, at the top, inside a function (a lazy import
still runs back up) and under ``if TYPE_CHECKING:`` (a type that needs a module above is a
floor in the wrong place too)."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

HOST = Path(__file__).resolve().parent.parent / "host"


def package_modules(host: Path = HOST) -> dict[str, Path]:
    """module name -> its file, for every module of ``host``/tablesense."""
    modules = {}
    for path in sorted((host / "tablesense").rglob("*.py")):
        parts = list(path.relative_to(host).with_suffix("").parts)
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imports_of(tree: ast.AST, package: str, modules: Mapping[str, Path]) -> set[str]:
    """The package's modules that the ``import`` statements anywhere in ``tree`` load:
    ``from a import b`` loads the submodule ``a.b`` when there is one, else ``a`` itself;
    relative imports are resolved against ``package``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in modules:
                    out.add(f"{target}.{alias.name}")
                elif target in modules:
                    out.add(target)
    return out


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    """module -> the package's modules it imports."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = imports_of(ast.parse(path.read_text(encoding="utf-8")), package, modules) - {name}
    return graph


def circles(graph: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def a_path_round(graph: Mapping[str, set[str]], circle: frozenset[str]) -> list[str]:
    """One way round ``circle``: the modules in import order, back to the first."""
    start = min(circle)
    paths = {start: [start]}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for child in sorted(graph[node] & circle):
            if child == start:
                return [*paths[node], start]
            if child not in paths:
                paths[child] = [*paths[node], child]
                todo.append(child)
    raise AssertionError(f"{sorted(circle)} is no circle")


def test_no_module_imports_back_up_into_a_circle() -> None:
    graph = import_graph(package_modules())
    new = circles(graph)
    assert not new, "import circles:\n" + "\n".join(" -> ".join(a_path_round(graph, c)) for c in new)


def test_the_walk_finds_a_circle_through_a_lazy_and_a_type_only_import(tmp_path: Path) -> None:
    """The walker itself: a circle closed by an import inside a function and one closed under
    ``TYPE_CHECKING`` are both found; a package importing its own submodule is none."""
    files = {
        "tablesense/__init__.py": "",
        "tablesense/low.py": "def f():\n    from .high import g\n",
        "tablesense/high.py": "from . import low\n",
        "tablesense/kind/__init__.py": "from .a import A\n",
        "tablesense/kind/a.py": "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from .b import B\nA = 1\n",
        "tablesense/kind/b.py": "from tablesense.kind.a import A\n",
        "tablesense/fine/__init__.py": "from . import leaf\n",
        "tablesense/fine/leaf.py": "import os\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = circles(import_graph(package_modules(tmp_path)))
    assert sorted(map(sorted, found)) == [["tablesense.high", "tablesense.low"],
                                          ["tablesense.kind.a", "tablesense.kind.b"]]
