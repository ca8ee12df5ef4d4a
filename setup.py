"""Build of tonkdsl: the package, its data, and the interpreter compiled by mypyc where it can be.

``pip install .`` compiles the modules of ``tonkdsl/interpreter/`` listed in ``COMPILED`` with
mypyc (C extensions that run the same code about 2.6 times as fast, trained). Where that cannot be done (no C
compiler, mypyc failing, ``TONKDSL_PURE=1`` in the environment, or an editable install, whose
compiled files would hide edits to the sources) the package installs as plain Python, which
gives the same results (tests/test_compiled.py checks that both play the same hands).

With GCC and ``TONKDSL_PGO=1`` in the environment the compiled interpreter is also trained
(profile-guided optimisation, ``TrainedBuildExt``): compiled once with counters, run on a short
training run, compiled again for what that run did most: about 6% faster to run, for a build of
about three minutes rather than one (the README's first command must show its result within 90 s
on a fresh two-core machine, so training is asked for, not the default).
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

# The hot path of every simulation, rollout and witness search. Not compiled: actions.py
# (ActionList subclasses list) and table.py (RulesetError subclasses RuntimeError), which mypyc
# cannot compile as native classes, and the language and tools layers, which stay plain.
COMPILED = ["asking", "board", "dealer", "engine", "greedy", "grouping", "judge", "melds", "outcome", "reading", "session",
            "shuffle", "turn", "turn_flow", "view"]


def _editable() -> bool:
    return any(arg in ("editable_wheel", "develop") for arg in sys.argv) or "--inplace" in sys.argv


def _c_compiler_fails() -> str:
    """Why the C compiler that would build the extensions cannot compile a line of C ("" when it
    can). Asked before mypyc runs: mypyc first type-checks and translates the interpreter (a
    minute or more), all for nothing where nothing can compile its output. Not asked on Windows,
    where setuptools finds MSVC by itself (no CC)."""
    if os.name == "nt":
        return ""
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    with tempfile.TemporaryDirectory(prefix="tonkdsl-cc-") as folder:
        source = Path(folder, "probe.c")
        source.write_text("int tonkdsl_probe(void) { return 0; }\n")
        try:
            done = subprocess.run([*command, "-c", str(source), "-o", str(Path(folder, "probe.o"))],
                                  capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.SubprocessError) as exc:
            return f"{' '.join(command)} could not run ({exc})"
    return "" if done.returncode == 0 else f"{' '.join(command)} failed on a line of C (exit {done.returncode})"


def compiled_extensions() -> list[Extension]:
    """The mypyc extensions, or none (with the reason on stderr) where they cannot be built."""
    if os.environ.get("TONKDSL_PURE") or _editable():
        return []
    failure = _c_compiler_fails()
    if failure:
        print(f"tonkdsl: no working C compiler ({failure}); installing the pure-Python interpreter", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("tonkdsl: mypyc is not installed; installing the pure-Python interpreter", file=sys.stderr)
        return []
    paths = [f"tonkdsl/interpreter/{name}.py" for name in COMPILED]
    try:
        # Not strict: `mypy tonkdsl` checks the types; here mypy only reads them to compile.
        # multi_file: a C file per module rather than one of 7 MB, so that the C compiler runs on
        # every core at once (TrainedBuildExt): the build in about half the wall time on two cores.
        extensions = mypycify(["--ignore-missing-imports", "--python-version", "3.11", *paths], opt_level="3",
                               group_name="tonkdsl", multi_file=True)
    except BaseException as exc:  # mypyc exits on a type error: fall back rather than fail the install
        print(f"tonkdsl: mypyc could not compile the interpreter ({exc!r}); installing it as pure Python",
              file=sys.stderr)
        return []
    for ext in extensions:
        ext.optional = True  # no C compiler: setuptools warns and the .py modules are used
    return extensions


# With GCC, whose output we measured (benchmarks/bench_simulate.py, docs/simulate.md): calls between
# the interpreter's own functions may be inlined and made directly, not through the symbol table
# (-fno-semantic-interposition, as CPython builds itself), and calls into libpython skip the PLT
# stub (-fno-plt). Together about 5% on a simulation of standard.
GCC_FLAGS = ["-fno-semantic-interposition", "-fno-plt"]

# The training run of the profile-guided build: every shipped ruleset with greedy bots, and a few
# hands of the strong bot (its rollouts, judged drops and determinized worlds). It runs the built
# package from the build folder, in a fresh process, in about 10 seconds; its results are thrown
# away (only the counters are kept), and the counters choose how the code is laid out and
# inlined, never what it computes.
TRAINING = """
from tonkdsl import load_ruleset
from tonkdsl.language.resources import shipped_ruleset_names
from tonkdsl.tools.bots import greedy_bot
from tonkdsl.tools.simulate import simulate
from tonkdsl.tools.strong import StrongBot
for name in shipped_ruleset_names():
    rs = load_ruleset(name)
    simulate(rs, [greedy_bot] * max(rs.players_min, min(3, rs.players_max)), 1000, 1)
for name in ("standard", "speno"):
    simulate(load_ruleset(name), [StrongBot(), greedy_bot], 2, 1)
"""


def _is_gcc(program: str) -> bool:
    try:
        out = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out  # clang says "clang version", and is left as it is


class TrainedBuildExt(build_ext):
    """Builds the extensions as setuptools does; with GCC, adds ``GCC_FLAGS`` and (with
    ``TONKDSL_PGO=1``) trains them: an instrumented build runs ``TRAINING``, then the final build
    reads its counters. Whatever fails on the way (the training, a missing module in the build
    environment), the final build is still made, untrained: an instrumented build is never
    what gets installed."""

    def build_extension(self, ext: Extension) -> None:
        """One extension, its C files compiled on every core at once (setuptools compiles them one
        after the other); linked as setuptools links them."""
        compile_one = self.compiler.compile
        jobs = os.cpu_count() or 1

        def compile_all(sources: list[str], *args: object, **kwargs: object) -> list[str]:
            if len(sources) < 2 or jobs < 2:
                return compile_one(sources, *args, **kwargs)
            from concurrent.futures import ThreadPoolExecutor

            # The biggest files first, so that the last one to finish is a small one.
            order = sorted(sources, key=lambda src: -os.path.getsize(src) if os.path.exists(src) else 0)
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                done = dict(zip(order, pool.map(lambda src: compile_one([src], *args, **kwargs), order)))
            return [obj for src in sources for obj in done[src]]

        self.compiler.compile = compile_all  # type: ignore[method-assign]
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = compile_one  # type: ignore[method-assign]

    def build_extensions(self) -> None:
        compiler = getattr(self.compiler, "compiler_so", None) or [""]
        if not self.extensions or self.compiler.compiler_type != "unix" or not _is_gcc(compiler[0]):
            super().build_extensions()
            return
        for ext in self.extensions:
            ext.extra_compile_args = [*ext.extra_compile_args, *GCC_FLAGS]
        if os.environ.get("TONKDSL_PGO", "0") != "1":
            super().build_extensions()
            return
        profile = tempfile.mkdtemp(prefix="tonkdsl-pgo-")
        try:
            self._build_with([f"-fprofile-generate={profile}"], ["-fprofile-generate"])
            trained = self._train(profile)
            self._build_with([f"-fprofile-use={profile}", "-fprofile-partial-training", "-Wno-missing-profile"]
                             if trained else [], [])
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    def _build_with(self, cflags: list[str], ldflags: list[str]) -> None:
        base = [(ext, list(ext.extra_compile_args), list(ext.extra_link_args)) for ext in self.extensions]
        for ext, compile_args, link_args in base:
            ext.extra_compile_args = compile_args + cflags
            ext.extra_link_args = link_args + ldflags
        self.force = self.compiler.force = True  # the second build compiles the same files again
        try:
            super().build_extensions()
        finally:
            for ext, compile_args, link_args in base:
                ext.extra_compile_args, ext.extra_link_args = compile_args, link_args

    def _train(self, profile: str) -> bool:
        # The built package first; pip's build environment (lark, pyyaml) stays on the path after it.
        path = [str(Path(self.build_lib).resolve()), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        try:
            done = subprocess.run([sys.executable, "-P", "-c", TRAINING], cwd=profile, env=env,
                                  capture_output=True, text=True, timeout=900)
        except (OSError, subprocess.SubprocessError) as exc:
            print(f"tonkdsl: the training run could not start ({exc!r}); the interpreter is compiled untrained",
                  file=sys.stderr)
            return False
        if done.returncode != 0:
            print("tonkdsl: the training run failed; the interpreter is compiled untrained:\n"
                  + done.stderr[-2000:], file=sys.stderr)
            return False
        if not any(name.endswith(".gcda") for _, _, names in os.walk(profile) for name in names):
            print("tonkdsl: the training run counted nothing (the instrumented build was not the one run); "
                  "the interpreter is compiled untrained", file=sys.stderr)
            return False
        return True


# grammars/, rulesets/ and docs/ live at the top of the repository and ship inside the package as
# tonkdsl/grammars, tonkdsl/rulesets and tonkdsl/docs (tonkdsl/language/resources.py finds both).
DATA = {"grammars": ["*.lark"], "rulesets": ["*.yaml"], "docs": ["*.md", "recipe-sheets/*", "rulesets/*"]}

EXTENSIONS = compiled_extensions()

setup(
    # The data folders are listed as packages too (setuptools asks it of folders it installs).
    packages=find_packages(include=["tonkdsl", "tonkdsl.*"]) + [f"tonkdsl.{d}" for d in DATA]
    + ["tonkdsl.docs.rulesets", "tonkdsl.schema"],
    package_dir={f"tonkdsl.{d}": d for d in DATA},
    package_data={"tonkdsl": ["schema/*", "tools/serve/*.html", "py.typed"],
                  **{f"tonkdsl.{d}": globs for d, globs in DATA.items()}},
    ext_modules=EXTENSIONS,
    cmdclass={"build_ext": TrainedBuildExt},
    # One build folder for each kind of build, so that a plain build never packs the extensions
    # an earlier compiled build of the same checkout left in build/ (setuptools reuses it).
    options={"build": {"build_base": "build/compiled" if EXTENSIONS else "build/plain"}},
)
