"""No module of the project imports, directly or through others, a module that imports it back: the layers'
contracts (``make lint``) keep the packages in order, and this keeps each package's own modules in order (an import
inside a function counts too: it is a cycle deferred, not removed)."""

from __future__ import annotations

import grimp

PACKAGES = ("dvorak_core", "dvorak_engine", "dvorak_kit", "decks", "proposals", "ccg", "games", "community", "web", "dvorak_site")


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The groups of modules that import one another round (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_round_a_cycle():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    assert cycles(graph) == []


def test_a_cycle_is_found_when_there_is_one():
    graph = grimp.ImportGraph()
    for module in ("a", "a.one", "a.two", "a.three"):
        graph.add_module(module)
    graph.add_import(importer="a.one", imported="a.two")
    graph.add_import(importer="a.two", imported="a.one")
    graph.add_import(importer="a.three", imported="a.one")
    assert cycles(graph) == [["a.one", "a.two"]]
