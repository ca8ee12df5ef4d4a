"""The package's layers: the language below the interpreter below the tools, the CLI on top.
Each of the first three is a folder of tonkdsl; a module imports only from its own layer or the
layers below (imports for type checking only are not imports), and every module sits in a layer,
so a new one must be placed. docs/engine.md explains the layers."""
from __future__ import annotations

import ast
import subprocess
import sys
import warnings
from pathlib import Path

import tonkdsl

ROOT = Path(tonkdsl.__file__).parent
ORDER = ["language", "interpreter", "tools", "cli"]
CLI_MODULES = {"cli", "__main__", "docgen", "__init__"}  # tonkdsl/ itself: the CLI on top


def _layer_of_path(path: Path) -> str | None:
    parts = path.relative_to(ROOT).parts
    if len(parts) == 1:
        return "cli" if parts[0].removesuffix(".py") in CLI_MODULES else None
    return parts[0] if parts[0] in ORDER else None


def _layer_of_module(name: str) -> str | None:
    """The layer of a module named 'tonkdsl.<...>' (a public name of the package counts as the
    module it comes from)."""
    parts = name.split(".")
    if len(parts) >= 2 and parts[1] in ORDER[:3]:
        return parts[1]
    if len(parts) == 2 and parts[1] in CLI_MODULES:
        return "cli"
    return None


def _runtime_imports(path: Path) -> set[str]:
    """The tonkdsl modules that ``path`` imports when it runs (full dotted names)."""
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
                for alias in node.names:
                    if alias.name.startswith("__"):
                        continue  # the package's own attributes (__version__)
                    home = tonkdsl._HOMES.get(alias.name)  # a public name: the module it comes from
                    found.add(f"tonkdsl.{home}" if home else f"tonkdsl.{alias.name}")
            elif node.module and node.module.startswith("tonkdsl."):
                found.add(node.module)

        def visit_Import(self, node: ast.Import) -> None:
            found.update(a.name for a in node.names if a.name.startswith("tonkdsl."))

    Visitor().visit(ast.parse(path.read_text()))
    return found


def test_every_module_sits_in_a_layer() -> None:
    homeless = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py") if _layer_of_path(p) is None]
    assert homeless == [], "put the new module in a layer's folder (docs/engine.md)"


def test_no_import_runs_upward() -> None:
    upward, unknown = [], []
    for path in sorted(ROOT.rglob("*.py")):
        if path == ROOT / "__init__.py":
            continue  # the package's lazy public names (PEP 562) point into every layer
        layer = _layer_of_path(path)
        assert layer is not None
        for imported in _runtime_imports(path):
            target = _layer_of_module(imported)
            if target is None:
                unknown.append(f"{path.relative_to(ROOT)} imports {imported} (an old path or no module)")
            elif ORDER.index(target) > ORDER.index(layer):
                upward.append(f"{path.relative_to(ROOT)} ({layer}) imports {imported} ({target})")
    assert upward == [] and unknown == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tonkdsl.interpreter.engine import State\n"
                      "def f():\n    from tonkdsl.tools.strong import StrongBot\n    from tonkdsl import deal\n")
    found = _runtime_imports(sample)
    assert found == {"tonkdsl.tools.strong", "tonkdsl.interpreter.engine"}  # 'deal' is the engine's
    assert [_layer_of_module(m) for m in sorted(found)] == ["interpreter", "tools"]


def test_the_old_module_paths_still_import_as_the_same_modules() -> None:
    from tonkdsl.interpreter import engine
    from tonkdsl.tools.lint import odds

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import tonkdsl.engine as old_engine
        from tonkdsl.lint.odds import compute as old_compute
    assert old_engine is engine and old_compute is odds.compute and sys.modules["tonkdsl.lint.odds"] is odds
    assert [str(w.message) for w in caught if w.category is DeprecationWarning][:1] == [
        "tonkdsl.engine is now tonkdsl.interpreter.engine; the old path will go in a later version"]


def test_an_old_path_in_a_fresh_process_loads_each_module_once() -> None:
    code = ("import sys, warnings; warnings.simplefilter('ignore')\n"
            "from tonkdsl.expr.compiler import compile_expr\n"
            "import tonkdsl.language.expr.compiler as new\n"
            "assert compile_expr is new.compile_expr\n"
            "print(sorted(m for m in sys.modules if m.endswith('expr.compiler')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['tonkdsl.expr.compiler', 'tonkdsl.language.expr.compiler']"
