"""The analyzer package's module boundaries, read from the source (AST): no module reaches into
another's private names (``from analyzer.x import _name``, ``x._name`` on an imported analyzer module,
or ``obj._name`` on another module's object: a private attribute the module does not define itself),
and the imports between analyzer modules (records and the other subpackages included) form no circle."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "analyzer"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def resolve(name: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from … import`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    package = name.split(".") if MODULES[name].name == "__init__.py" else name.split(".")[:-1]
    base = package[:len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str) -> tuple[set[str], list[str]]:
    """(analyzer modules ``name`` imports, its reaches into other modules' private names)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found: set[str] = set()
    reaches: list[str] = []
    aliases: dict[str, str] = {}             # local name -> analyzer module
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and type_checking(block.test)
                   for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:          # imports for annotations only: no import at run time
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in MODULES:
                    found.add(a.name)
                    aliases[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom):
            source = resolve(name, node)
            if source not in MODULES:
                continue
            for a in node.names:
                sub = f"{source}.{a.name}"
                if sub in MODULES:                       # from analyzer import cards
                    found.add(sub)
                    aliases[a.asname or a.name] = sub
                    continue
                found.add(source)
                if a.name.startswith("_") and not a.name.startswith("__") and source != name:
                    reaches.append(f"{name}:{node.lineno} imports {source}.{a.name}")
    defined = defined_names(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        owner = node.value.id if isinstance(node.value, ast.Name) else None
        if owner in aliases and aliases[owner] != name:
            reaches.append(f"{name}:{node.lineno} uses {aliases[owner]}.{node.attr}")
        elif owner not in aliases and owner not in ("self", "cls") and node.attr not in defined:
            # another module's object: a private attribute this module does not define
            reaches.append(f"{name}:{node.lineno} uses {ast.unparse(node)}")
    return found - {name}, reaches


def defined_names(tree: ast.Module) -> set[str]:
    """Names a module defines: functions, classes, variables and attributes it assigns."""
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store):
            out.add(n.attr)
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
    return out


def graph() -> dict[str, set[str]]:
    names = list(MODULES)
    return {n: {m for m in imports(n)[0] if m in names} for n in names}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
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
            if len(comp) > 1 or v in edges[v]:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_checks_see_the_package():
    assert {"analyzer.game", "analyzer.records.replay", "analyzer.knowledge"} <= set(MODULES)
    assert "analyzer.game" in imports("analyzer.records.replay")[0]
    assert "analyzer.cards" in imports("analyzer.game")[0]                  # from analyzer import cards as C
    assert "analyzer.records.record" in imports("analyzer.records")[0]      # the package itself


def test_the_reach_finder_finds_reaches(tmp_path, monkeypatch):
    source = tmp_path / "analyzer" / "probe.py"
    source.parent.mkdir()
    source.write_text("from analyzer.game import _hidden\nfrom analyzer import cards as C\nx = C._secret\n"
                      "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from analyzer import knowledge\n"
                      "def f(game):\n    game._mine = 1\n    return game._result, game._mine\n")
    monkeypatch.setitem(MODULES, "analyzer.probe", source)
    found, reaches = imports("analyzer.probe")
    assert found == {"analyzer.game", "analyzer.cards"}
    assert [r.split(" ", 1)[1] for r in reaches] == ["imports analyzer.game._hidden", "uses analyzer.cards._secret",
                                                     "uses game._result"]


def test_no_module_reaches_into_another_s_private_names():
    reaches = [r for n in MODULES for r in imports(n)[1]]
    assert reaches == []


def test_no_import_cycle_among_analyzer_modules():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
