"""The library's layers import only downward, and no module imports itself back through others
(docs/design.md, "Layout"). Read from the source with ast: lazy imports inside functions count too."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "attncheck"

#: layer -> the layers it may import (its own included)
ALLOWED = {
    "core": {"core"},
    "numeric": {"core", "numeric"},
    "stats": {"core", "stats"},
    "engine": {"core", "numeric", "stats", "engine"},
    "certify": {"core", "numeric", "stats", "certify"},
    "report": {"core", "report"},
    "papers": {"core", "numeric", "stats", "papers"},
    "run": {"core", "numeric", "stats", "engine", "certify", "report", "papers", "run"},
}
FRONT = {"attncheck", "attncheck.cli", "attncheck.pytest_plugin", "attncheck.__main__"}


def module_of(path: Path) -> str:
    parts = ["attncheck", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The attncheck modules a file imports: `from X import y` is X.y where that is a module, else X."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("attncheck")}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import (write attncheck.* imports)"
            if node.module and node.module.startswith("attncheck"):
                out |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                        for a in node.names}
    return out


def graph() -> dict[str, set[str]]:
    files = {module_of(p): p for p in PACKAGE.rglob("*.py")}
    return {m: {i for i in imports(p, set(files)) if i in files and i != m} for m, p in files.items()}


def layer(module: str) -> str | None:
    parts = module.split(".")
    return None if module in FRONT else parts[1]


def test_no_module_imports_upward_and_no_paper_imports_another():
    bad = []
    for m, deps in graph().items():
        mine = layer(m)
        if mine is None:
            continue
        for d in deps:
            theirs = layer(d)
            if theirs is None or theirs not in ALLOWED[mine]:
                bad.append(f"{m} -> {d}")
            elif mine == theirs == "papers" and d != "attncheck.papers" and m.split(".")[2] != d.split(".")[2]:
                bad.append(f"{m} -> {d} (a paper imports another)")
    assert not bad, "upward imports:\n" + "\n".join(sorted(bad))


def test_no_import_cycle():
    g = graph()
    # a package's own face (__init__) importing its submodules is not a cycle of code: drop package -> child edges
    g = {m: {d for d in deps if not d.startswith(m + ".")} for m, deps in g.items()}
    state, stack, cycles = {}, [], []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for d in sorted(g[m]):
            if state.get(d) == "open":
                cycles.append(stack[stack.index(d):] + [d])
            elif d not in state:
                visit(d)
        stack.pop()
        state[m] = "done"

    for m in sorted(g):
        if m not in state:
            visit(m)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_layers_cover_the_package():
    assert {layer(m) for m in graph()} - {None} == set(ALLOWED)
