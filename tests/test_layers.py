"""The package's layers: the language below the interpreter below the tools, the CLI on top. A
module imports only from its own layer or the layers below (imports for type checking only are
not imports); every module has its layer, so a new one must be placed. docs/engine.md explains
the layers."""
from __future__ import annotations

import ast
from pathlib import Path

import tonkdsl

ROOT = Path(tonkdsl.__file__).parent

LAYERS: dict[str, set[str]] = {
    # The language: ruleset text to an immutable compiled Ruleset (and the small things it uses).
    "language": {"cards", "diagnostics", "expr", "yamlsrc", "merge", "schema_check", "resources", "ruleset",
                 "loader", "names", "limits", "rng"},
    # The interpreter: hands dealt and played under a Ruleset.
    "interpreter": {"actions", "table", "melds", "outcome", "turn", "turn_flow", "engine", "dealer", "session",
                    "view"},
    # The tools: what people and programs do with hands.
    "tools": {"bots", "strong", "simulate", "stats", "report_sim", "lint", "explain", "play", "screen", "serve",
              "scenario", "starter"},
    "cli": {"cli", "__main__", "docgen"},
}
ORDER = list(LAYERS)
LAYER_OF = {module: ORDER.index(layer) for layer, modules in LAYERS.items() for module in modules}


def _top_module(path: Path) -> str:
    return path.relative_to(ROOT).parts[0].removesuffix(".py")


def _runtime_imports(path: Path) -> set[str]:
    """The tonkdsl modules (first part of the name) that ``path`` imports when it runs."""
    found: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                for child in node.orelse:
                    self.visit(child)
                return
            self.generic_visit(node)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.level:  # a relative import stays inside its own package
                return
            if node.module == "tonkdsl":
                found.update(alias.name for alias in node.names if alias.name in LAYER_OF)
            elif node.module and node.module.startswith("tonkdsl."):
                found.add(node.module.split(".")[1])

        def visit_Import(self, node: ast.Import) -> None:
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("tonkdsl."))

    Visitor().visit(ast.parse(path.read_text()))
    return found


def test_every_module_has_a_layer() -> None:
    modules = {_top_module(p) for p in ROOT.rglob("*.py")} - {"__init__"}
    assert modules - set(LAYER_OF) == set(), "place the new module in a layer (tests/test_layers.py)"


def test_no_import_runs_upward() -> None:
    upward = []
    for path in sorted(ROOT.rglob("*.py")):
        module = _top_module(path)
        if module == "__init__":
            continue  # the package's lazy public names (PEP 562) point into every layer
        for imported in _runtime_imports(path):
            if LAYER_OF[imported] > LAYER_OF[module]:
                upward.append(f"{path.relative_to(ROOT)} ({ORDER[LAYER_OF[module]]}) imports "
                              f"{imported} ({ORDER[LAYER_OF[imported]]})")
    assert upward == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tonkdsl.engine import State\n"
                      "def f():\n    from tonkdsl.strong import StrongBot\n    from tonkdsl import deal\n")
    assert _runtime_imports(sample) == {"strong"}  # 'deal' is a public name, not a module
