"""A non-editable `pip install .` into a fresh venv, used from another folder, loads every shipped
ruleset by name and runs the command (grammars and rulesets ship inside the wheel); where a C
compiler is found, its interpreter is compiled (setup.py) and plays the same hands as the plain
one."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tonkdsl.language.resources import shipped_ruleset_names
from conftest import ROOT, SHARED
from test_compiled import assert_same_hands, installed_build


# Build leftovers and local state, left out where the tree is not a git checkout (an unpacked sdist).
_NOT_SOURCES = {"build", "dist", "test-artifacts", "__pycache__", ".pytest_cache", ".mypy_cache", ".hypothesis",
                "node_modules", ".import_linter_cache"}


def copy_checkout(build: Path) -> None:
    """The repository's files (tracked and new, not ignored) copied to ``build``: an install from
    there cannot see the checkout's top-level folders nor its build leftovers. From an unpacked
    sdist (no git), its files but the build leftovers."""
    if (ROOT / ".git").exists():
        files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"],
                               check=True, capture_output=True, text=True).stdout.split()
    else:
        files = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()
                 and not _NOT_SOURCES & set(p.relative_to(ROOT).parts)
                 and not any(part.endswith(".egg-info") or part.startswith(".venv") for part in p.relative_to(ROOT).parts)]
    for f in files:
        if (ROOT / f).is_file():
            (build / f).parent.mkdir(parents=True, exist_ok=True)
            (build / f).write_bytes((ROOT / f).read_bytes())


@pytest.mark.slow
def test_fresh_venv_non_editable_install(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    build = tmp_path / "src"
    copy_checkout(build)
    # The default build (untrained, a C file per module compiled on every core), as .ci/run installs
    # it; tests/test_compiled.py compares that one's hands with the plain interpreter's.
    subprocess.run([str(py), "-m", "pip", "install", "-q", str(build)], check=True,
                   env={k: v for k, v in os.environ.items() if k != "TONKDSL_PGO"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    names = shipped_ruleset_names()
    code = ("import tonkdsl, tonkdsl.language.resources as r; "
            "assert 'site-packages' in tonkdsl.__file__, tonkdsl.__file__; "
            f"[tonkdsl.load_ruleset(n) for n in {names!r}]; "
            "print(r.grammar_text()[:2], len(r.shipped_ruleset_names()))")
    out = subprocess.run([str(py), "-c", code], cwd=elsewhere, env=env, check=True, capture_output=True, text=True)
    assert out.stdout.split() == ["//", str(len(names))]
    tonk = venv / "bin" / "tonk"
    res = subprocess.run([str(tonk), "validate", *names], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    res = subprocess.run([str(tonk), "docs", "reference"], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert res.returncode == 0 and "# Ruleset file reference" in res.stdout, res.stderr  # docs ship in the wheel
    examples = sorted(str(p) for p in (ROOT / "examples").glob("*.yaml"))
    if (SHARED / "examples").is_dir():
        examples += sorted(str(p) for p in (SHARED / "examples").glob("*.yaml"))
    scenarios = sorted(str(p) for p in (ROOT / "tests" / "scenarios").glob("*.yaml"))
    res = subprocess.run([str(tonk), "check", "--allow-path", str(ROOT / "tests"), *examples, *scenarios], cwd=elsewhere, env=env,
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    if shutil.which("cc") or shutil.which("gcc"):
        assert installed_build(str(py), elsewhere).endswith(".so"), "a C compiler is here: the interpreter should be compiled"
        assert_same_hands(str(py), elsewhere)


@pytest.mark.slow
def test_without_a_c_compiler_the_wheel_is_plain_python(tmp_path: Path) -> None:
    """No C compiler (CC names a program that always fails): setup.py finds it cannot compile a
    line of C, says so and builds no extension (without running mypyc first), and the wheel holds
    the plain modules, every file of a compiled wheel but the extensions (tests/test_compiled.py
    shows the two play the same hands)."""
    build = tmp_path / "src"
    copy_checkout(build)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TONKDSL_PURE")}
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(tmp_path / "wheel"),
                           str(build)], env={**env, "CC": "false"}, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    said = done.stdout + done.stderr  # pip -v passes on what setup.py says
    assert "tonkdsl: no working C compiler (false failed on a line of C (exit 1))" in said, said[-3000:]
    import zipfile

    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith(".so")]
    modules = {f"tonkdsl/interpreter/{m}.py" for m in ("engine", "turn", "turn_flow", "melds", "view")}
    assert modules <= set(names)
    assert "tonkdsl/rulesets/standard.yaml" in names and "tonkdsl/grammars/expr.lark" in names
    # A typed package (PEP 561) with its license (PEP 639: the license file in the metadata's folder).
    assert "tonkdsl/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), [n for n in names if "dist-info" in n]


@pytest.mark.slow
def test_the_sdist_holds_what_the_tests_and_the_license_need(tmp_path: Path) -> None:
    """The source distribution: the tests read examples/ and benchmarks/; LICENSE and CHANGELOG.md
    ship with it (python -m build, in its own isolated environment)."""
    import tarfile

    build = tmp_path / "src"
    copy_checkout(build)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "build", "--sdist", "-o", str(tmp_path / "dist"), str(build)],
                          env={**env, "TONKDSL_PURE": "1"}, capture_output=True, text=True, check=False)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    (sdist,) = (tmp_path / "dist").glob("*.tar.gz")
    names = {n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n}
    assert {"LICENSE", "CHANGELOG.md", "tonkdsl/py.typed", "examples/speno-seed-example-1.yaml",
            "benchmarks/bench_simulate.py"} <= names

