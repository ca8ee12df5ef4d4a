"""The package's layers: the language below the interpreter below the tools, the CLI on top.
Each of the first three is a folder of tonkdsl; a module imports only from its own layer or the
layers below (imports for type checking only are not imports): import-linter's contract in
pyproject.toml. Every module sits in a layer, so a new one must be placed. docs/engine.md
explains the layers."""
from __future__ import annotations

import ast
import shutil
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


def test_every_module_sits_in_a_layer() -> None:
    homeless = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py") if _layer_of_path(p) is None]
    assert homeless == [], "put the new module in a layer's folder (docs/engine.md)"


def _lint_imports(config: Path, *path: Path) -> subprocess.CompletedProcess[str]:
    """import-linter's check, in a process of its own (it takes over the standard streams)."""
    code = ("import sys; sys.path[:0] = sys.argv[2:]\nfrom importlinter.cli import lint_imports\n"
            "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))")
    return subprocess.run([sys.executable, "-c", code, str(config), *map(str, path)], capture_output=True, text=True,
                          cwd=config.parent, timeout=300)


def test_no_import_runs_upward() -> None:
    """import-linter's layers contract (pyproject.toml, [tool.importlinter]), imports for type
    checking left out."""
    done = _lint_imports(ROOT.parent / "pyproject.toml")
    assert done.returncode == 0 and "1 kept, 0 broken" in done.stdout, done.stdout + done.stderr


def test_no_module_below_the_cli_takes_a_public_name_of_the_package() -> None:
    """``from tonkdsl import deal`` loads whatever layer the name lives in (the package's lazy
    public names, PEP 562): import-linter sees an import of the package itself, so it is
    refused here. The package's own attributes (``__version__``) may be read."""
    taken = []
    for path in sorted(ROOT.rglob("*.py")):
        if _layer_of_path(path) == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "tonkdsl" and not node.level:
                taken += [f"{path.relative_to(ROOT)}: {a.name}" for a in node.names if not a.name.startswith("__")]
    assert taken == []


def test_the_contract_sees_an_upward_import(tmp_path: Path) -> None:
    """The contract run on a copy of the package, renamed (the installed package would be found
    first), with one upward import added."""
    copy = tmp_path / "tonkcopy"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "schema"))
    for path in copy.rglob("*.py"):
        path.write_text(path.read_text(encoding="utf-8").replace("tonkdsl", "tonkcopy"), encoding="utf-8")
    with (copy / "language" / "limits.py").open("a", encoding="utf-8") as f:
        f.write("\nfrom tonkcopy.tools.tables import table\n")
    config = tmp_path / "pyproject.toml"
    config.write_text((ROOT.parent / "pyproject.toml").read_text(encoding="utf-8").replace("tonkdsl", "tonkcopy"),
                      encoding="utf-8")
    done = _lint_imports(config, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "tonkcopy.language.limits -> tonkcopy.tools.tables" in done.stdout


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
