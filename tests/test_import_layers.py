"""gcnn_match's subpackages import downward only: no two of them import each other, directly or
through others. Read from the source with `ast` (every `import` and `from` statement, those
inside functions too), so nothing is imported.

`python tests/test_import_layers.py` prints the package graph and its cycles."""

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "gcnn_match"


def _subpackage(module):
    """The subpackage (or top-level module) of `gcnn_match.<name>...`; None outside it."""
    parts = module.split(".")
    if parts[0] != PACKAGE.name or len(parts) < 2:
        return None
    return parts[1]


def _imported_modules(source, package):
    """The absolute names of the modules that `source`, a module of `package` ("a.b"), imports
    anywhere in its body (relative imports resolved)."""
    package = package.split(".")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            if node.module:
                yield module
            # `from gcnn_match import files` imports the submodule `files`.
            yield from (f"{module}.{alias.name}" for alias in node.names)


def package_graph():
    """{subpackage: {subpackages it imports}}, leaving out imports within one subpackage."""
    graph = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        source = _subpackage(".".join(parts))
        if source == "__init__":
            continue
        targets = graph.setdefault(source, set())
        for module in _imported_modules(path.read_text("utf-8"), ".".join(parts[:-1])):
            target = _subpackage(module)
            if target not in (None, source, "__init__") and (
                (PACKAGE / target).is_dir() or (PACKAGE / f"{target}.py").is_file()
            ):
                targets.add(target)
    return graph


def cycles(graph):
    """The strongly connected groups of more than one subpackage (Tarjan), each as one cycle
    through its members, e.g. ["claims", "reporting", "claims"]."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_through(graph, group) for group in groups]


def _cycle_through(graph, group):
    """One closed path inside `group` from its first member (by name) back to it."""
    start = min(group)
    paths = [[start]]
    while paths:
        path = paths.pop(0)
        for target in sorted(graph[path[-1]] & group):
            if target == start:
                return path + [start]
            if target not in path:
                paths.append(path + [target])
    raise AssertionError(f"no cycle through {sorted(group)}")


def render(graph):
    return "\n".join(
        f"{source} -> {', '.join(sorted(graph[source])) or '-'}" for source in sorted(graph)
    )


def test_cycle_finder_names_a_cycle_and_passes_a_tree():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_imports_inside_functions_and_relative_imports_are_read():
    source = (
        "import numpy\n"
        "from . import sibling\n"
        "from ..data.vocab import Vocabulary\n"
        "def load():\n"
        "    from gcnn_match.training import run_dir\n"
    )
    modules = set(_imported_modules(source, "gcnn_match.claims"))
    assert {
        "numpy",
        "gcnn_match.claims.sibling",
        "gcnn_match.data.vocab",
        "gcnn_match.training.run_dir",
    } <= modules
    assert {_subpackage(m) for m in modules} == {None, "claims", "data", "training"}


def test_no_subpackages_import_each_other():
    graph = package_graph()
    found = cycles(graph)
    assert not found, (
        "subpackages importing each other:\n"
        + "\n".join(" -> ".join(cycle) for cycle in found)
        + "\n\npackage graph:\n"
        + render(graph)
    )


if __name__ == "__main__":
    graph = package_graph()
    print(render(graph))
    for cycle in cycles(graph):
        print("cycle:", " -> ".join(cycle))
