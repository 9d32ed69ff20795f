"""The package's shape: no import cycles, one concept per file, small functions.

Read from the source with ``ast``, nothing is imported. Every import counts for the
cycle check — at module level, under ``TYPE_CHECKING`` and inside functions (the lazy
imports of heavy modules) — because a cycle held apart by laziness is still a tangle.
Registries that name ``module:attribute`` strings (``retrieve/registry.py``) are not
imports and are not followed.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "drrag_cli"
MAX_FUNCTION_LINES = 60
REASON = "Long:"  # a longer function says why in its docstring, after this word


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The drrag_cli modules ``name`` (at ``path``) imports anywhere in its body."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in found if m in known and m != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles() -> None:
    mods = modules()
    graph = {name: imports(path, name, set(mods)) for name, path in mods.items()}
    assert cycles(graph) == []


def test_the_cycle_check_sees_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_module_names_its_one_concept_first() -> None:
    """A file holds one concept, and the first line of its docstring names it. Files are split
    by concept, not by length: there is no line cap (a file cut in two to meet one was
    harder to read than the long file, docs/ANSWERS.md)."""
    unnamed = []
    for path in PACKAGE.rglob("*.py"):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = doc.splitlines()[0].strip() if doc else ""
        if not first:
            unnamed.append(str(path.relative_to(PACKAGE)))
    assert unnamed == []


def test_each_reader_file_holds_one_reader() -> None:
    """``answer/readers/``: one reader per file (a class with ``name`` and ``read``), besides
    the interface (base.py) and the registry; the registry names every one of them."""
    folder = PACKAGE / "answer" / "readers"
    registry = (folder / "registry.py").read_text(encoding="utf-8")
    for path in sorted(folder.glob("*.py")):
        if path.stem in ("__init__", "base", "registry"):
            continue
        classes = [n for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.ClassDef)]
        assert len(classes) == 1, path.name
        members = {getattr(t, "id", "") for n in classes[0].body if isinstance(n, ast.Assign) for t in n.targets}
        members |= {n.name for n in classes[0].body if isinstance(n, ast.FunctionDef)}
        assert {"name", "read"} <= members, path.name
        assert f".{path.stem}:{classes[0].name}\"" in registry, path.name


def test_functions_stay_small_or_say_why() -> None:
    long = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES and REASON not in (ast.get_docstring(node) or ""):
                    long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []
