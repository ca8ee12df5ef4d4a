"""The interpreter compiled by mypyc (setup.py) plays exactly the hands the plain Python one plays.

`pip install .` compiles the interpreter where it can; the tests themselves import the source
tree (plain Python). This test runs tests/same_hands.py under both, from a folder where only the
installed package can be imported, and compares every hand of every shipped ruleset and every
seeded decision of the search bots. Where the installed package is not compiled (an editable
install, no C compiler), it is skipped with the reason; tests/test_install.py builds a compiled
install in a fresh environment and runs the same comparison.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from same_hands import run_in


def installed_build(python: str, cwd: Path) -> str:
    """Where ``python`` imports the engine from, the current folder left off the path."""
    done = subprocess.run([python, "-P", "-c", "import tonkdsl.interpreter.engine as e; print(e.__file__)"],
                          cwd=cwd, capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


def assert_same_hands(python: str, cwd: Path) -> int:
    """Compiled (``python``'s install) and plain (the source tree) print the same lines; returns how many."""
    compiled = run_in(python, cwd)
    plain = run_in(sys.executable, cwd, pure=True)
    assert compiled[0] == '{"compiled": true}' and plain[0] == '{"compiled": false}', (compiled[0], plain[0])
    assert len(compiled) == len(plain) > 500
    for mine, theirs in zip(plain[1:], compiled[1:]):
        assert theirs == mine, f"the compiled interpreter differs:\n  plain:    {mine}\n  compiled: {theirs}"
    return len(plain)


def test_the_compiled_interpreter_plays_the_same_hands(tmp_path: Path) -> None:
    where = installed_build(sys.executable, tmp_path)
    if not where.endswith(".so"):
        pytest.skip(f"tonkdsl is installed without its compiled interpreter here ({where or 'not installed'}): "
                    "an editable install, or no C compiler; tests/test_install.py compares a fresh one")
    assert_same_hands(sys.executable, tmp_path)


@pytest.mark.parametrize("command, env", [("bdist_wheel", {"TONKDSL_PURE": "1"}), ("editable_wheel", {})],
                         ids=["TONKDSL_PURE=1", "editable install"])
def test_setup_builds_no_extension_when_told_or_editable(command: str, env: dict[str, str]) -> None:
    """An editable install stays plain (compiled files beside the sources would hide every edit
    to them), and so does any install with TONKDSL_PURE=1: setup.py hands setuptools no extension."""
    root = Path(__file__).resolve().parent.parent
    code = ("import runpy, sys, setuptools; "
            f"sys.argv = ['setup.py', {command!r}]; "
            "setuptools.setup = lambda **kw: print('extensions:', len(kw['ext_modules'])); "
            "runpy.run_path('setup.py', run_name='__main__')")
    clean = {k: v for k, v in os.environ.items() if k != "TONKDSL_PURE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env={**clean, **env},
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["extensions:", "0"], done.stdout + done.stderr


def _setup_kwargs() -> dict:
    """The keywords setup.py hands setuptools (read without building anything)."""
    import runpy
    from unittest import mock

    root = Path(__file__).resolve().parent.parent
    seen: dict = {}
    with mock.patch("setuptools.setup", lambda **kw: seen.update(kw)), \
            mock.patch.dict(os.environ, {"TONKDSL_PURE": "1"}), mock.patch.object(sys, "argv", ["setup.py", "--name"]):
        cwd = os.getcwd()
        os.chdir(root)
        try:
            runpy.run_path(str(root / "setup.py"), run_name="__main__")
        finally:
            os.chdir(cwd)
    return seen


def test_a_failed_training_run_leaves_the_build_untrained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """setup.py's profile-guided build trains the instrumented build from the build folder; when
    that run fails (here: a broken package there), it says so with the run's error and the final
    build reads no counters, rather than installing the instrumented one or failing the install."""
    from setuptools import Distribution

    build_ext = _setup_kwargs()["cmdclass"]["build_ext"]
    cmd = build_ext(Distribution())
    broken = tmp_path / "build" / "tonkdsl"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('a broken build')\n")
    cmd.build_lib = str(tmp_path / "build")
    (tmp_path / "profile").mkdir()
    assert cmd._train(str(tmp_path / "profile")) is False
    err = capsys.readouterr().err
    assert "tonkdsl: the training run failed; the interpreter is compiled untrained" in err
    assert "ImportError: a broken build" in err
