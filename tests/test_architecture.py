"""The layers, read from the source: imports point one way and never run in a circle.

    grader/core      model, steps, registry, engine, probing, grading, hints, explain, exact
    grader/kernels   facts genres and techniques share (topology, union-find, loops, shading)
    grader/dsl       the rule language
    grader/io        readers and writers (its dispatch looks genres up by name)
    grader/genres/G  one package per genre
    grader/app       cli, batch, benchmark, reports, soak
    grader/web       `grader play`: the page and its JSON API (the app layer, beside grader/app)
    heuristics/      technique plugins, found through the entry points of pyproject.toml

Every import statement counts, also one inside a function; only imports under
`if TYPE_CHECKING:` are left out, since they never run.
"""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# layer -> the layers it may import (itself included)
ALLOWED = {
    "grader.core": {"grader.core"},
    "grader.kernels": {"grader.core", "grader.kernels"},
    "grader.dsl": {"grader.core", "grader.kernels", "grader.dsl"},
    "grader.io": {"grader.core", "grader.kernels", "grader.io", "grader.genres"},
    "grader.genres": {"grader.core", "grader.kernels", "grader.dsl", "grader.io", "grader.genres"},
    "grader.app": {"grader.core", "grader.kernels", "grader.dsl", "grader.io", "grader.genres",
                   "grader.app", "grader.web"},
    "grader.web": {"grader.core", "grader.kernels", "grader.dsl", "grader.io", "grader.genres",
                   "grader.app", "grader.web"},
    "heuristics": {"grader.core", "grader.kernels", "grader.dsl", "grader.io", "grader.genres",
                   "heuristics"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for top in ("grader", "heuristics") for p in (ROOT / top).rglob("*.py")
           if "__pycache__" not in p.parts}


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imported(name: str, path: Path) -> set[str]:
    """The project modules this module imports by name (a package's own __init__, which
    Python runs first, is not counted: it is where a package gathers its parts)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for a in child.names:      # a submodule, or a name the module defines
                    found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imported(name, path) for name, path in MODULES.items()}


def layer(name: str) -> str | None:
    return next((l for l in sorted(ALLOWED, key=len, reverse=True)
                 if name == l or name.startswith(l + ".")), None)


def test_nothing_under_grader_imports_heuristics():
    offenders = sorted(f"{m} imports {d}" for m, deps in GRAPH.items() if m.startswith("grader")
                       for d in deps if d.split(".")[0] == "heuristics")
    assert offenders == []


def test_imports_point_down_the_layers():
    offenders = []
    for m, deps in GRAPH.items():
        mine = layer(m)
        if mine is None:
            continue
        for d in deps:
            theirs = layer(d)
            if theirs is not None and theirs not in ALLOWED[mine]:
                offenders.append(f"{m} ({mine}) imports {d} ({theirs})")
    assert sorted(offenders) == []


def test_shared_families_know_no_genre_techniques():
    offenders = sorted(f"{m} imports {d}" for m, deps in GRAPH.items()
                       if m.startswith("heuristics.common") for d in deps
                       if d.startswith("heuristics.") and not d.startswith("heuristics.common"))
    assert offenders == []


def test_no_import_cycles():
    """Tarjan's strongly connected components over the whole import graph."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                cycles.append(sorted(part))

    for v in sorted(GRAPH):
        if v not in index:
            strong(v)
    assert cycles == []


def test_every_genre_is_found_by_its_name():
    """grader/genres/G holds the model and heuristics/G the techniques, named by the plugin."""
    plugins = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["grader.techniques"]
    genres = sorted(p.name for p in (ROOT / "grader" / "genres").iterdir()
                    if (p / "model.py").is_file())
    assert sorted(plugins) == genres
    for g in genres:
        assert plugins[g] == f"heuristics.{g}"
        assert plugins[g] in MODULES
