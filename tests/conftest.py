import os
import sys
from typing import Any
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The README's test command and CI draw the same examples on every run (derandomize: each test's
# examples come from a seed fixed by the test itself; no example database feeds in what another
# run found), so a run fails only on a change, never on a new draw. Exploring is done on purpose
# with the 'explore' profile, which draws freely and keeps what it finds in .hypothesis/; what it
# finds is pinned as an explicit test (docs/security.md, "Fuzzing").
_FIXED = dict(deadline=None, derandomize=True, database=None, print_blob=True,
              suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=40, **_FIXED)
settings.register_profile("quick", max_examples=8, **_FIXED)
settings.register_profile("explore", max_examples=int(os.environ.get("TONK_EXPLORE_EXAMPLES", "3000")), deadline=None, derandomize=False, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", parent=settings.get_profile("explore"))  # the older name
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _without_local_constants() -> None:
    """Hypothesis also draws the literals of the project's modules loaded so far in the process
    ("local constants"). Which modules a pytest-xdist worker has loaded depends on the tests it
    ran before, which depends on timing: a fixed run would draw other examples from run to run.
    The fixed profiles draw without them (a private hook of Hypothesis: where it is gone, the
    examples are drawn as Hypothesis draws them)."""
    try:
        from hypothesis.internal.conjecture import providers
        none = type(providers._local_constants)()
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - another Hypothesis
        return
    providers._get_local_constants = lambda: none


if settings.default.derandomize:
    _without_local_constants()

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SHARED = ROOT.parent / "shared"  # the project's shared folder, when beside the repo (optional)
EXAMPLES = ROOT / "examples"  # the public scenario examples, kept in the repo


BENCHMARKS = ROOT / "benchmarks"


def benchmark_module(name: str) -> Any:
    """The benchmark script ``benchmarks/NAME.py`` as a module, with what it imports from its
    folder (duplicate.py, as when it is run), under its own name: its worker processes unpickle
    its functions by module name."""
    import importlib.util

    if str(BENCHMARKS) not in sys.path:
        sys.path.append(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def write(tmp_path: Path):
    """Write a file under tmp_path and return its path."""
    def _write(name: str, text: str) -> Path:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        return p
    return _write


def refused(path: Path, code: str) -> Any:
    """The one diagnostic of ``code`` with which loading ``path`` is refused."""
    from tonkdsl import LoadError, load_ruleset
    with pytest.raises(LoadError) as exc:
        load_ruleset(path)
    (d,) = [d for d in exc.value.diagnostics if d.code == code]
    return d


def _fuzz_counts() -> dict[str, int]:
    fuzzing = sys.modules.get("fuzzing")
    return dict(getattr(fuzzing, "COUNTS", None) or {})


# With pytest-xdist (the suite runs on every core) the fuzz cases are counted in the workers:
# each sends its counts when it finishes, and the controller adds them up for the summary.
_FROM_WORKERS: dict[str, int] = {}


class _WorkerCounts:
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        for kind, n in (getattr(node, "workeroutput", {}) or {}).get("fuzz_counts", {}).items():
            _FROM_WORKERS[kind] = _FROM_WORKERS.get(kind, 0) + n


def pytest_configure(config: Any) -> None:
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_WorkerCounts(), "tonk-worker-counts")


def pytest_sessionfinish(session: Any) -> None:
    output = getattr(session.config, "workeroutput", None)  # set in an xdist worker only
    if output is not None:
        output["fuzz_counts"] = _fuzz_counts()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The number of fuzz cases run, per kind (tests/fuzzing.py counts them)."""
    counts = _fuzz_counts()
    for kind, n in _FROM_WORKERS.items():
        counts[kind] = counts.get(kind, 0) + n
    if counts:
        terminalreporter.section("fuzz cases run, by kind")
        for kind, n in sorted(counts.items()):
            terminalreporter.write_line(f"{n:>7,}  {kind}")
        terminalreporter.write_line(f"{sum(counts.values()):>7,}  in all")


