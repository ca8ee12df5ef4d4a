"""Build of tonkdsl: the package, its data, and the interpreter compiled by mypyc where it can be.

``pip install .`` compiles the modules of ``tonkdsl/interpreter/`` listed in ``COMPILED`` with
mypyc (C extensions that run the same code about 1.8 times as fast). Where that cannot be done (no C
compiler, mypyc failing, ``TONKDSL_PURE=1`` in the environment, or an editable install, whose
compiled files would hide edits to the sources) the package installs as plain Python, which
gives the same results (tests/test_compiled.py checks that both play the same hands).
"""
from __future__ import annotations

import os
import sys

from setuptools import Extension, find_packages, setup

# The hot path of every simulation, rollout and witness search. Not compiled: actions.py
# (ActionList subclasses list) and table.py (RulesetError subclasses RuntimeError), which mypyc
# cannot compile as native classes, and the language and tools layers, which stay plain.
COMPILED = ["asking", "board", "dealer", "engine", "greedy", "grouping", "judge", "melds", "outcome", "session", "shuffle", "turn", "turn_flow", "view"]


def _editable() -> bool:
    return any(arg in ("editable_wheel", "develop") for arg in sys.argv) or "--inplace" in sys.argv


def compiled_extensions() -> list[Extension]:
    """The mypyc extensions, or none (with the reason on stderr) where they cannot be built."""
    if os.environ.get("TONKDSL_PURE") or _editable():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("tonkdsl: mypyc is not installed; installing the pure-Python interpreter", file=sys.stderr)
        return []
    paths = [f"tonkdsl/interpreter/{name}.py" for name in COMPILED]
    try:
        # Not strict: `mypy tonkdsl` checks the types; here mypy only reads them to compile.
        extensions = mypycify(["--ignore-missing-imports", "--python-version", "3.11", *paths], opt_level="3",
                               group_name="tonkdsl")
    except BaseException as exc:  # mypyc exits on a type error: fall back rather than fail the install
        print(f"tonkdsl: mypyc could not compile the interpreter ({exc!r}); installing it as pure Python",
              file=sys.stderr)
        return []
    for ext in extensions:
        ext.optional = True  # no C compiler: setuptools warns and the .py modules are used
    return extensions


# grammars/, rulesets/ and docs/ live at the top of the repository and ship inside the package as
# tonkdsl/grammars, tonkdsl/rulesets and tonkdsl/docs (tonkdsl/language/resources.py finds both).
DATA = {"grammars": ["*.lark"], "rulesets": ["*.yaml"], "docs": ["*.md", "recipe-sheets/*", "rulesets/*"]}

EXTENSIONS = compiled_extensions()

setup(
    # The data folders are listed as packages too (setuptools asks it of folders it installs).
    packages=find_packages(include=["tonkdsl", "tonkdsl.*"]) + [f"tonkdsl.{d}" for d in DATA]
    + ["tonkdsl.docs.rulesets", "tonkdsl.schema"],
    package_dir={f"tonkdsl.{d}": d for d in DATA},
    package_data={"tonkdsl": ["schema/*", "tools/serve/*.html"],
                  **{f"tonkdsl.{d}": globs for d, globs in DATA.items()}},
    ext_modules=EXTENSIONS,
    # One build folder for each kind of build, so that a plain build never packs the extensions
    # an earlier compiled build of the same checkout left in build/ (setuptools reuses it).
    options={"build": {"build_base": "build/compiled" if EXTENSIONS else "build/plain"}},
)
