"""The ``tonk`` command: a thin layer that parses options, calls the library and renders.

Exit codes: 0 ok; 1 a rule failure (an illegal action, a scenario that does not match its
expectations); 2 bad input (a file that cannot be read or is not valid).
"""
from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Sequence

import click

from tonkdsl.language.diagnostics import LoadError, printable
from tonkdsl.language.limits import MAX_STAKE

if TYPE_CHECKING:
    from tonkdsl.language.diagnostics import Diagnostic

# Each command imports what it needs when it runs: 'tonk --help' and every '--help' start without
# loading the engine, jsonschema and lark (docs/cli.md: under 0.25 s).


def echo(message: Any = None, **kwargs: Any) -> None:
    """click.echo for every line the commands print: a name, message or source line taken
    from a file reaches the terminal with its control characters shown as '?' (an escape
    sequence in a ruleset's name must not retitle the window or fill the clipboard)."""
    click.echo(printable(message) if isinstance(message, str) else message, **kwargs)

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3

# How much the commands say beyond their results: 0 with -q (no progress bars, no warnings or
# notes: errors and results only), 1 by default, 2 with -v (the trace of an internal error on the
# screen, and how long a simulation took).
_VERBOSITY = {"level": 1}


def say(message: str) -> None:
    """A warning or a note on standard error, unless -q."""
    if _VERBOSITY["level"] > 0:
        echo(message, err=True)


def quiet() -> bool:
    return _VERBOSITY["level"] <= 0


def _print_diagnostics(diags: Sequence[Diagnostic]) -> None:
    for d in diags:
        echo(d.render(), err=True)


def _bad_input(exc: LoadError, as_json: bool) -> NoReturn:
    if as_json:
        echo(json.dumps({"diagnostics": [d.to_json() for d in exc.diagnostics]}, indent=2))
    else:
        _print_diagnostics(exc.diagnostics)
    sys.exit(EXIT_BAD_INPUT)


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``tonk --version``: the version, and whether the interpreter runs compiled (read only when
    asked: importing the interpreter is not free)."""
    if not value or ctx.resilient_parsing:
        return
    from tonkdsl import __version__
    from tonkdsl.interpreter import engine

    kind = ("plain Python" if engine.__file__.endswith(".py") else
            "compiled by mypyc")
    echo(f"tonk (tonkdsl) {__version__}, interpreter {kind}, Python {sys.version.split()[0]}")
    ctx.exit(0)


class _Tonk(click.Group):
    """The command group; a fault of tonkdsl's own (not the user's input) exits 3, with a message
    that asks for a bug report and the trace kept in a file, never a traceback on the screen."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            # The reader of the output closed it (tonk replay ... | head): no fault, nothing more to
            # say. Python's advice: point stdout at devnull, so that its flush at exit fails no more.
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError):
                pass
            sys.exit(EXIT_OK)
        except Exception as exc:  # (SystemExit is not an Exception: the commands' own exits pass)
            import tempfile
            import traceback

            trace = Path(tempfile.gettempdir()) / f"tonk-internal-error-{os.getpid()}.txt"
            try:
                trace.write_text(f"tonk {' '.join(sys.argv[1:])}\n\n{traceback.format_exc()}", encoding="utf-8")
                kept = f"; the trace is in {trace}"
            except OSError:
                kept = ""
            if _VERBOSITY["level"] >= 2:
                echo(traceback.format_exc(), err=True)
            echo(f"tonk: internal error, a bug in tonkdsl rather than in your files: {type(exc).__name__}: {exc}. "
                 f"Please report it with the command you ran{kept}.", err=True)
            sys.exit(EXIT_INTERNAL)


@click.group(cls=_Tonk, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version, whether the interpreter is compiled, and exit.")
@click.option("-q", "--quiet", "quiet_flag", is_flag=True,
              help="Say only results and errors: no progress bars, warnings or notes.")
@click.option("-v", "--verbose", is_flag=True,
              help="Say more: the trace of an internal error, how long a simulation took.")
def main(quiet_flag: bool, verbose: bool) -> None:
    """tonk: Tonk's house rules as data.

    Rulesets are YAML files or the names of shipped rulesets (see 'tonk rulesets'). Exit codes:
    0 ok, 1 rule or expectation failure, 2 bad input, 3 an internal error (a bug to report).
    """
    if quiet_flag and verbose:
        raise click.UsageError("-q and -v say opposite things: give one of them")
    _VERBOSITY["level"] = 0 if quiet_flag else 2 if verbose else 1


@main.command()
@click.argument("rulesets", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--allow-path", "allow", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="A folder that 'extends' may reach outside the file's own folder and the working folder.")
def validate(rulesets: tuple[str, ...], as_json: bool, allow: tuple[Path, ...]) -> None:
    """Check ruleset files (or shipped names): exit 0 when all are valid, 2 listing every problem."""
    from tonkdsl.language.loader import load_ruleset

    results: list[dict[str, Any]] = []
    bad = False
    for ref in rulesets:
        target: str | Path = Path(ref) if ref.endswith((".yaml", ".yml")) or "/" in ref else ref
        try:
            rs = load_ruleset(target, allow_paths=allow)
            results.append({"ruleset": ref, "valid": True, "name": rs.name, "diagnostics": []})
            if not as_json:
                echo(f"{ref}: valid ({rs.name})")
        except LoadError as exc:
            bad = True
            results.append({"ruleset": ref, "valid": False,
                            "diagnostics": [d.to_json() for d in exc.diagnostics]})
            if not as_json:
                _print_diagnostics(exc.diagnostics)
                n = len(exc.diagnostics)
                echo(f"{ref}: {n} problem{'s' if n != 1 else ''}", err=True)
    if as_json:
        echo(json.dumps(results if len(results) > 1 else results[0], indent=2))
    sys.exit(EXIT_BAD_INPUT if bad else EXIT_OK)


@main.command("replay")
@click.argument("scenario", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--allow-path", "allow", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="A folder that 'ruleset' and 'extends' may reach outside the file's own folder and the working folder.")
def replay_cmd(scenario: Path, as_json: bool, allow: tuple[Path, ...]) -> None:
    """Replay a scenario file and print how the hand ends (see scenario-format.md)."""
    from tonkdsl.tools.scenario import load_scenario, refusal_words, replay

    try:
        result = replay(load_scenario(scenario, allow_paths=allow))
    except LoadError as exc:
        _bad_input(exc, as_json)
    data = result.to_json()
    if as_json:
        echo(json.dumps(data))
    elif result.error is not None:
        e = result.error
        where = f"hand {e['hand']}, " if "hand" in e else ""
        if e.get("kind") == "ruleset" and not e["index"]:
            echo(f"{scenario}: {where}ruleset error: {e['message']}", err=True)
        elif e.get("kind") == "ruleset":
            echo(f"{scenario}: {where}ruleset error at action {e['index']} ({e['action']}): {e['message']}",
                       err=True)
        elif not e["index"] and not e["action"]:  # a hand that could not be dealt: its message names it
            echo(f"{scenario}: {refusal_words(e)}", err=True)
        else:
            echo(f"{scenario}: {where}action {e['index']} ({e['action']}) is illegal: {e['message']}", err=True)
    elif "hands" in data:
        _render_session(data)
    else:
        _render_result(data)
    sys.exit(EXIT_FAIL if result.error is not None else EXIT_OK)


def _render_session(data: dict[str, Any]) -> None:
    for i, hand in enumerate(data["hands"]):
        winners = ", ".join(hand["winners"]) or "nobody"
        how = f"{hand['end']}, winners: {winners}" if hand["end"] else f"in progress, next: {hand['next']}"
        echo(f"hand {i + 1} (dealer {hand['dealer']}, stake {hand['stake']}): {how}")
    width = max(len(n) for n in data["ledger"])
    echo("player".ljust(width) + "  ledger  scores  settlement")
    for name in data["ledger"]:
        echo(f"{name:<{width}}  {data['ledger'][name]:>+6}  {data['scores'][name]:>+6}  "
                   f"{data['settlement'][name]:>+10}")
    for i, column in enumerate(data.get("columns") or [], 1):  # parallel score columns (session.columns)
        totals = ", ".join(f"{n} {v:+d}" for n, v in column["totals"].items())
        echo(f"column {i} ({'closed' if column['closed'] else 'open'}): {totals}; best: "
             + (", ".join(column["winners"]) or "nobody"))
    if data.get("next"):
        echo(f"session in progress: {data['next']} to play")
    else:
        echo("session won by: " + (", ".join(data["winners"]) or "nobody"))


def _render_result(data: dict[str, Any]) -> None:
    if data["end"] is None:
        echo(f"in progress after {data['actions_applied']} actions; next: {data['next']}")
    else:
        winners = ", ".join(data["winners"]) or "nobody"
        echo(f"end: {data['end']}   winners: {winners}")
        if data.get("message"):
            echo(f"  {data['message']}")
    width = max(len(n) for n in data["counts"])
    for name, count in data["counts"].items():
        echo(f"  {name:<{width}}  count {count:>3}   payout {data['payouts'][name]:+d}")
    for p in data.get("payments", []):
        echo(f"  {p['from']} pays {p['to']} {p['amount']}  ({p['rule']})")


@main.command()
@click.argument("scenarios", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per scenario.")
@click.option("--allow-path", "allow", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="A folder that 'ruleset' and 'extends' may reach outside the file's own folder and the working folder.")
def check(scenarios: tuple[Path, ...], as_json: bool, allow: tuple[Path, ...]) -> None:
    """Replay scenarios and compare with their 'expect' sections: exit 0 when all match.

    A folder stands for the .yaml files in it; a ruleset among them is skipped, and said so."""
    from tonkdsl.tools.scenario import compare, load_scenario, replay

    # A folder's rulesets (the one `tonk new` writes beside its golden hand) are skipped, not refused.
    in_folders = {p for s in scenarios if _is_dir(s) for p in s.glob("*.yaml")}
    scenarios = tuple(p for s in scenarios for p in (sorted(s.glob("*.yaml")) if _is_dir(s) else [s]))
    failed = bad = skipped = 0
    report: list[dict[str, Any]] = []
    for path in scenarios:
        try:
            result = replay(load_scenario(path, allow_paths=allow))
        except LoadError as exc:
            if path in in_folders and [d.code for d in exc.diagnostics] == ["scenario-is-ruleset"]:
                skipped += 1
                report.append({"scenario": str(path), "status": "skipped", "why": "a ruleset, not a scenario"})
                if not as_json:
                    echo(f"SKIP  {path} (a ruleset, not a scenario: tonk validate and tonk lint check it)")
                continue
            bad += 1
            report.append({"scenario": str(path), "status": "invalid",
                           "diagnostics": [d.to_json() for d in exc.diagnostics]})
            if not as_json:
                _print_diagnostics(exc.diagnostics)
            continue
        problems = compare(result)
        if result.scenario.expect is None:
            problems = problems or []
        status = "fail" if problems else "pass"
        failed += status == "fail"
        report.append({"scenario": str(path), "status": status, "problems": problems})
        if not as_json:
            echo(f"{status.upper()}  {path}")
            for p in problems:
                echo(f"      {p}")
    if as_json:
        echo(json.dumps(report, indent=2))
    else:
        passed = len(scenarios) - failed - bad - skipped
        echo(f"{passed} passed, {failed} failed" + (f", {bad} invalid" if bad else "")
             + (f", {skipped} ruleset{'s' if skipped > 1 else ''} skipped" if skipped else ""))
    sys.exit(EXIT_BAD_INPUT if bad else EXIT_FAIL if failed else EXIT_OK)


@main.command("simulate")
@click.argument("rulesets", nargs=-1, required=True)
@click.option("-n", "--hands", default=1000, show_default=True, type=click.IntRange(1),
              help="How many hands to play (per ruleset); for a ruleset that plays matches, how many matches. "
                   "No cap: the tasks are made and sent a window at a time.")
@click.option("--players", default=3, show_default=True, type=click.IntRange(2, 12))
@click.option("--seed", default=0, show_default=True, type=int, help="Master seed; hand i uses a seed derived from it.")
@click.option("--bots", default="greedy", show_default=True,
              help="One bot for every seat, or a comma-separated list per seat (random, greedy, montecarlo, strong or strong:N for N rollouts).")
@click.option("--stake", default=1, show_default=True, type=click.IntRange(1, MAX_STAKE))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 256),
              help="Processes on this machine (the totals do not depend on it).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Run on a Dask cluster (needs the 'dask' extra).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one JSON line per hand (one ruleset only).")
@click.option("--plot", "plot", type=click.Path(dir_okay=False, path_type=Path),
              help="Draw endings and money per seat to a .png or .svg (needs the 'plot' extra).")
@click.option("--allow-path", "allow", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="A folder that the ruleset's 'extends' may reach outside its own folder and the working folder.")
def simulate_cmd(rulesets: tuple[str, ...], hands: int, players: int, seed: int, bots: str, stake: int,
                 workers: int, scheduler: str | None, as_json: bool, out: Path | None, plot: Path | None,
                 allow: tuple[Path, ...]) -> None:
    """Play seeded hands between bots and report what the rules do, with 95% confidence intervals.

    With several rulesets, differences from the first that are significant at the 95% level
    are marked with '*'."""
    from tonkdsl.interpreter.engine import RulesetError
    from tonkdsl.tools import simulate as sim
    from tonkdsl.tools.bots import bot_problem
    from tonkdsl.tools.report_sim import compare, render_text

    names = [b.strip() for b in bots.split(",")]
    allowed = tuple(str(a.resolve()) for a in allow)  # absolute: the workers load the ruleset again
    if len(names) == 1:
        names *= players
    unknown = [p for p in map(bot_problem, names) if p]
    if unknown or len(names) != players:
        msg = unknown[0] if unknown else f"--bots lists {len(names)} bots for {players} players"
        raise click.BadParameter(msg, param_hint="--bots")
    if out is not None and len(rulesets) > 1:
        raise click.BadParameter("--out takes one ruleset", param_hint="--out")
    _check_output(out, "--out")
    _check_output(plot, "--plot", (".png", ".svg"))
    if plot is not None:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:  # said now, not after the whole simulation
            echo("error: --plot needs matplotlib: pip install 'tonkdsl[plot]'", err=True)
            sys.exit(EXIT_BAD_INPUT)
    specs = []
    for ref in rulesets:
        key, rs = _simulated_ruleset(ref, as_json, allowed)
        if not rs.players_min <= players <= rs.players_max:
            raise click.BadParameter(f"{printable(rs.name)} is for {_player_span(rs)} players", param_hint="--players")
        _check_dealable(ref, rs, players, seed)
        _check_match(ref, rs, players, hands, as_json)
        specs.append((ref, rs, sim.Spec(key, tuple(names), seed, stake, allowed)))
    results = []
    try:
        for ref, rs, spec in specs:
            handle = out.open("w", encoding="utf-8") if out is not None else None
            started = time.perf_counter()
            try:
                tally = _run_with_progress(sim, spec, hands, workers, scheduler, handle, ref, as_json)
            finally:
                if handle is not None:
                    handle.close()
            if _VERBOSITY["level"] >= 2:
                took = max(time.perf_counter() - started, 1e-9)
                echo(f"{ref}: {tally.hands:,} hands in {took:.2f} s ({tally.hands / took:,.0f} hands/s)", err=True)
            data = sim.summary(tally)
            data["never_paid"] = [r for r in sim.paying_rules(rs) if r not in data["rules"]]
            data["tally"] = tally.to_json()  # the integer counts: tonk merge adds runs up exactly
            if rs.ante is not None and not rs.session.is_match:  # what the pot figures mean
                data["pot"] = {"session_hands": sim.session_length(rs), "set_by_ruleset": bool(rs.session.hands)}
            results.append((ref, rs.name, data))
    except ImportError as exc:
        echo(f"error: {exc.name or 'a module'} is not installed; pip install 'tonkdsl[dask]' for "
                   "--scheduler", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except (RulesetError, ValueError, OSError) as exc:
        echo(f"error: {exc}", err=True)
        sys.exit(EXIT_FAIL)
    marks = compare(results)
    if plot is not None:
        from tonkdsl.tools.report_sim import plot_results

        try:
            plot_results(results, plot)
        except ImportError:
            echo("error: --plot needs matplotlib: pip install 'tonkdsl[plot]'", err=True)
            sys.exit(EXIT_BAD_INPUT)
    if as_json:
        echo(json.dumps({"seed": seed, "bots": names, "players": players, "hands": hands, "stake": stake,
                               "rulesets": [{"ruleset": ref, "name": name, **data} for ref, name, data in results],
                               "significant": marks}, indent=2))
        return
    echo(render_text(results, marks, names, seed))


# Above this, simulate says what a run of matches is about to cost before it starts.
MATCH_ESTIMATE_SAID = 30.0


def _check_match(ref: str, rs: Any, players: int, matches: int, quiet: bool) -> None:
    """Before matches are simulated: one that can never end is refused (tonk lint's
    match-never-ends), and where the first seeded matches of greedy bots do not end (or are long),
    what the run will cost is said before it starts (not with --json, whose report counts the
    matches stopped at the cap)."""
    import time

    from tonkdsl.interpreter.session import MAX_MATCH_HANDS
    from tonkdsl.tools.lint.checks import match_never_ends, played_matches

    if not rs.session.is_match or rs.session.hands:
        return
    if match_never_ends(rs):
        echo(f"error: {ref}: the match can never end: its end condition is never true and no one is ever "
             "eliminated (tonk lint says where: match-never-ends)", err=True)
        sys.exit(EXIT_FAIL)
    if quiet:
        return
    start = time.perf_counter()
    played = played_matches(rs, players)
    took = time.perf_counter() - start
    if played is None:
        return  # a rule failing in play: the simulation says how
    estimate = took / len(played.lengths) * matches
    if played.capped is not None:
        say(f"warning: {ref}: a match may never end: greedy bots played {MAX_MATCH_HANDS:,} hands "
            f"(MAX_MATCH_HANDS) of a match seeded {played.capped} and its end never came (tonk lint: "
            f"match-may-not-end); such a match is stopped there and won by nobody, and {matches:,} of them take "
            f"about {_duration(estimate)}")
    elif estimate > MATCH_ESTIMATE_SAID:
        say(f"{ref}: {matches:,} matches of about {sum(played.lengths) // len(played.lengths)} hands: about "
            f"{_duration(estimate)} with greedy bots")


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


def _simulated_ruleset(ref: str, as_json: bool, allow: tuple[str, ...] = ()) -> tuple[str, Any]:
    """The key by which simulate's workers load ``ref`` (a shipped name or an absolute path)
    and the ruleset; an unreadable or invalid file stops the command (exit 2)."""
    from tonkdsl.tools.simulate import ruleset_of

    target = _target(ref)
    key = str(Path(target).resolve()) if isinstance(target, Path) else target
    try:
        return key, ruleset_of(key, allow)
    except LoadError as exc:
        _bad_input(exc, as_json)


def _player_span(rs: Any) -> str:
    return str(rs.players_min) if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"


def _check_dealable(ref: str, rs: Any, players: int, seed: int) -> None:
    """A pack that cannot deal these players is bad input, found before any hand is played."""
    from tonkdsl.interpreter.engine import RulesetError, deal

    try:
        deal(rs, players, seed=seed)
    except ValueError as exc:
        echo(f"error: {ref} cannot be dealt to {players} players: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except RulesetError:
        pass  # a rule that fails is reported when the hands are played (exit 1)


# Hands the legality check plays before a table opens (random and greedy bots, 2 each seed): a
# tenth of a second for most rulesets.
TABLE_CHECK_SEEDS = 8


def _check_table(ref: str, rs: Any, players: int) -> None:
    """A short legality check before a table opens: what it finds is said (the table opens: a
    hand where a rule fails is void, nothing lost, and the host deals again)."""
    from tonkdsl.tools.legality import check

    report = check(rs, seeds=range(TABLE_CHECK_SEEDS), players=[players], ruleset_ref=ref, stop_after=1)
    for f in report.findings:
        say(f"warning: {ref} breaks at play ({f}); a hand where it happens is void at the table, nothing lost. "
            f"tonk lint {ref} --simulate 400 --witness DIR writes such a hand")


def _run_with_progress(sim: Any, spec: Any, hands: int, workers: int, scheduler: str | None, handle: Any,
                       label: str, quiet: bool) -> Any:
    unit = "matches" if sim.ruleset_of(spec.ruleset, spec.allow).session.is_match else "hands"
    with _progress_bar(f"simulating {label}", hands, unit, quiet) as progress:
        return sim.run(spec, hands, workers=workers, scheduler=scheduler, out=handle, progress=progress)


@contextlib.contextmanager
def _progress_bar(label: str, total: int, unit: str, quiet: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress callback (told how many are done) drawing a bar on a terminal; None when quiet
    or when standard error is not a terminal."""
    if quiet or _VERBOSITY["level"] <= 0 or not sys.stderr.isatty():
        yield None
        return
    import time

    # The bar appears once a run has lasted half a second: a short run does not pay for
    # importing rich (0.07 s) nor flash a bar.
    started = time.monotonic()
    state: dict[str, Any] = {}

    def progress(done: int) -> None:
        if "bar" not in state:
            if time.monotonic() - started < 0.5:
                return
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn(unit),
                           TimeRemainingColumn(), transient=True)
            state["bar"], state["task"] = bar, bar.add_task(label, total=total)
            bar.start()
        state["bar"].update(state["task"], completed=done)

    try:
        yield progress
    finally:
        if "bar" in state:
            state["bar"].stop()


@main.command("merge")
@click.argument("runs", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the merged result as JSON (tonk simulate --json's shape).")
def merge_cmd(runs: tuple[Path, ...], as_json: bool) -> None:
    """Add up the results of several 'tonk simulate --json' runs into one report.

    The runs must have simulated the same rulesets with the same bots, players and stake, each
    with its own --seed: the report is then exactly the one a single run of all those hands
    would print, intervals included. Exit 2 when the runs do not add up."""
    from tonkdsl.tools.merge_runs import MergeError, merge
    from tonkdsl.tools.report_sim import compare, render_text

    docs = []
    for path in runs:
        try:
            docs.append((str(path), json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, UnicodeDecodeError) as exc:
            echo(f"error: cannot read {path}: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except json.JSONDecodeError as exc:
            echo(f"error: {path} is not JSON ({exc.msg}, line {exc.lineno}): give the output of tonk simulate --json",
                 err=True)
            sys.exit(EXIT_BAD_INPUT)
    try:
        merged = merge(docs)
    except MergeError as exc:
        echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    if as_json:
        echo(json.dumps({**merged.to_json(), "significant": compare(merged.results)}, indent=2))
        return
    seeds = ", ".join(map(str, merged.seeds))
    echo(render_text(merged.results, compare(merged.results), merged.bots,
                     f"seeds {seeds}" if len(merged.seeds) > 1 else f"seed {seeds}"))


@main.command("tournament")
@click.argument("rulesets", nargs=-1, required=True)
@click.option("--bots", default="random,greedy,montecarlo", show_default=True,
              help="The bots, comma-separated, at least two (random, greedy, montecarlo, strong or strong:N).")
@click.option("-n", "--deals", default=200, show_default=True, type=click.IntRange(2, 10_000_000),
              help="Deals per pair of bots; each is played twice, the seats swapped.")
@click.option("--seed", default=0, show_default=True, type=int, help="Master seed; deal i uses a seed derived from it.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 256),
              help="Processes on this machine (the results do not depend on it, the costs do).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Run on a Dask cluster (needs the 'dask' extra); the results are the same.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--allow-path", "allow", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="A folder that the ruleset's 'extends' may reach outside its own folder and the working folder.")
def tournament_cmd(rulesets: tuple[str, ...], bots: str, deals: int, seed: int, workers: int, scheduler: str | None,
                   as_json: bool, allow: tuple[Path, ...]) -> None:
    """Every pair of bots on the same duplicate deals, two players: margins with 95% intervals,
    a ranking by rating (margin against the field's average) with Elo beside it, and each bot's
    time per decision.

    Each deal is played twice by every pair, each bot in each seat, so luck of the cards and of
    the turn cancels out. docs/play.md shows the shipped bots' table."""
    from tonkdsl.interpreter.engine import RulesetError
    from tonkdsl.tools import tournament as tour
    from tonkdsl.tools.bots import bot_problem

    names = [b.strip() for b in bots.split(",") if b.strip()]
    problems = [p for p in map(bot_problem, names) if p]
    if problems:
        raise click.BadParameter(problems[0], param_hint="--bots")
    if len(names) < 2:
        raise click.BadParameter("a tournament needs at least two bots (--bots greedy,montecarlo)", param_hint="--bots")
    twice = sorted({b for b in names if names.count(b) > 1})
    if twice:
        raise click.BadParameter(f"{', '.join(twice)} listed twice: each bot plays every other once", param_hint="--bots")
    allowed = tuple(str(a.resolve()) for a in allow)  # absolute: the workers load the ruleset again
    keys = []
    for ref in rulesets:
        key, rs = _simulated_ruleset(ref, as_json, allowed)
        if not rs.players_min <= 2 <= rs.players_max:
            echo(f"error: {ref}: {printable(rs.name)} is for {_player_span(rs)} players; a tournament seats two",
                 err=True)
            sys.exit(EXIT_BAD_INPUT)
        _check_dealable(ref, rs, 2, seed)
        keys.append((ref, key))
    results = []
    hands = deals * len(tour.pairs_of(names)) * 2
    try:
        for ref, key in keys:
            with _progress_bar(f"tournament {ref}", hands, "hands", quiet=as_json) as progress:
                results.append(tour.run(key, names, deals, seed, label=ref, workers=workers, progress=progress,
                                        allow=allowed, scheduler=scheduler))
    except ImportError as exc:
        echo(f"error: {exc.name or 'a module'} is not installed; pip install 'tonkdsl[dask]' for --scheduler", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except (RulesetError, ValueError, OSError) as exc:
        echo(f"error: {exc}", err=True)
        sys.exit(EXIT_FAIL)
    if as_json:
        echo(json.dumps({"seed": seed, "bots": names, "deals": deals, "players": 2,
                         "rulesets": [tour.to_json(t) for t in results]}, indent=2))
        return
    echo("\n\n".join(tour.render_text(t) for t in results))


@main.command("play")
@click.argument("ruleset", required=False)
@click.option("--players", default=3, show_default=True, type=click.IntRange(2, 12))
@click.option("--seed", default=None, type=int, help="Seed of the deals (default: a random one, shown).")
@click.option("--bots", default="greedy", show_default=True,
              help="The bots at the other seats: one for all, or a comma-separated list (random, greedy, montecarlo, strong or strong:N for N rollouts).")
@click.option("--stake", default=1, show_default=True, type=click.IntRange(1, MAX_STAKE))
@click.option("--hands", default=None, type=click.IntRange(1), help="Hands in the session (default: the ruleset's, or 1).")
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option("--save", "save", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the game after every action (atomically) to this file.")
@click.option("--resume", "resume", type=click.Path(dir_okay=False, path_type=Path),
              help="Continue a game saved with --save.")
@click.option("--allow-path", "allow", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="A folder that the ruleset's 'extends' (or a saved game's 'ruleset') may reach outside its own "
                   "folder and the working folder.")
def play_cmd(ruleset: str | None, players: int, seed: int | None, bots: str, stake: int, hands: int | None,
             name: str, save: Path | None, resume: Path | None, allow: tuple[Path, ...]) -> None:
    """Play Tonk against bots in the terminal under any ruleset.

    Type actions as in scenario files ('draw stock', 'spread 8D 8H 8C', 'hit 8S on 1',
    'discard 6S', 'drop'), a number from the menu, or a short form; 'help' lists them."""
    import random as _random

    from tonkdsl.interpreter.engine import RulesetError
    from tonkdsl.tools.play import Player, new_game, resume_game
    from tonkdsl.tools.screen import Screen

    _check_save(save, resume)
    try:
        if resume is not None:
            game = resume_game(resume, allow_paths=allow)
            if save is not None:
                game.save_path = save
                game.hold_save()
        else:
            if ruleset is None:
                raise click.UsageError("give a RULESET to play, or --resume FILE")
            if seed is None:
                seed = _random.SystemRandom().randrange(2**31)
            game = new_game(ruleset, players=players, bots=[b.strip() for b in bots.split(",") if b.strip()],
                            stake=stake, hands=hands, seed=seed, save=save, name=name, allow_paths=allow)
    except LoadError as exc:
        _bad_input(exc, False)
    except ValueError as exc:
        raise click.BadParameter(printable(str(exc))) from None
    _check_dealable(ruleset or str(resume), game.ruleset, len(game.names), game.seed)
    screen = Screen()
    screen.say(f"{game.ruleset.name}: {len(game.names)} players ({', '.join(game.names)}), seed {game.seed}"
               + (f", saved to {game.save_path}" if game.save_path else ""))

    def read(prompt: str) -> str:
        return input(prompt)
    try:
        sys.exit(Player(game, screen, read, pause=sys.stdin.isatty()).run())
    except KeyboardInterrupt:  # Ctrl-C: say where the game is, never a traceback
        where = (f"the game is saved in {game.save_path}: continue it with tonk play --resume {game.save_path}"
                 if game.save_path else "the game was not saved (tonk play --save FILE keeps a game)")
        echo(f"\nStopped: {where}.", err=True)
        sys.exit(130)
    except RulesetError as exc:
        echo(f"error: {exc}" + (f" (the game up to here is saved in {game.save_path})" if game.save_path else ""),
                   err=True)
        sys.exit(EXIT_FAIL)


class _Seconds(click.FloatRange):
    """A number of seconds in a range: click's FloatRange lets 'nan' through (every comparison
    with NaN is false), and a NaN turn clock or bot delay made the stand-in play every turn."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        got = super().convert(value, param, ctx)
        if got != got:  # NaN
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return got


@main.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk over stdin and stdout (the default, and the only way; editors "
              "that pass the flag are understood).")
def lsp_cmd(stdio: bool) -> None:
    """Run the language server for ruleset and scenario files (needs the 'lsp' extra).

    An editor starts it and talks to it over stdin and stdout: findings of validate and lint
    as you type, the rules sheet on hover, names completed where they are allowed, go to
    definition in the file a ruleset extends, and a quick fix for every "did you mean".
    docs/editor.md says how to set up VS Code, Neovim and Helix."""
    try:
        from tonkdsl.tools.lsp.server import run
    except ImportError as exc:
        echo(f"error: {exc.name or 'a module'} is not installed: pip install 'tonkdsl[lsp]'", err=True)
        sys.exit(EXIT_BAD_INPUT)
    run()


@main.command("serve")
@click.argument("ruleset", required=False)
@click.option("--seats", default=2, show_default=True, type=click.IntRange(2, 12), help="Seats at the table.")
@click.option("--bots", default="", help="Bots in the last seats, comma-separated (random, greedy, montecarlo, "
              "strong or strong:N); the other seats are for people.")
@click.option("--names", default="", help="The people's names, comma-separated (default Player1, Player2, ...).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Where to listen: 127.0.0.1 for this machine only, 0.0.0.0 to share on the LAN.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--seed", default=None, type=int, help="Seed of the deals (default: a random one, shown).")
@click.option("--stake", default=1, show_default=True, type=click.IntRange(1, MAX_STAKE))
@click.option("--hands", default=None, type=click.IntRange(1),
              help="Hands in the session (default: the ruleset's; a match plays to its end; else 10).")
@click.option("--save", "save", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the game after every action (atomically) to this file; the table's link, code and "
                   "seats are kept next to it (FILE.table), so that --resume keeps them.")
@click.option("--resume", "resume", type=click.Path(dir_okay=False, path_type=Path),
              help="Continue a game saved with --save (by tonk serve or tonk play), with the same link and seats.")
@click.option("--turn-time", default=None, type=_Seconds(5, 3600), metavar="SECONDS",
              help="A person's time for a turn; then a bot plays their seat until they are back (a person whose "
                   "browser is gone is waited for 30 s at most, with or without it).")
@click.option("--bot-delay", default=0.6, show_default=True, type=_Seconds(0, 10),
              help="Seconds between two bot actions, so that people can follow.")
@click.option("--max-connections", default=None, type=click.IntRange(8), metavar="N",
              help="Connections served at once (default 512, and always at least 100 below the open-file limit); "
                   "a request that does not arrive whole in 5 seconds is closed. See docs/security.md.")
@click.option("--allow-path", "allow", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="A folder that the ruleset's 'extends' (or a saved game's 'ruleset') may reach outside its own "
                   "folder and the working folder.")
def serve_cmd(ruleset: str | None, seats: int, bots: str, names: str, host: str, port: int, seed: int | None,
              stake: int, hands: int | None, save: Path | None, resume: Path | None, turn_time: float | None,
              bot_delay: float, max_connections: int | None, allow: tuple[Path, ...]) -> None:
    """Open a table in the browser for people and bots, under any ruleset (needs the 'serve' extra).

    Prints the link to open and, with --host 0.0.0.0, the one to share on the LAN. The link
    carries the table's join code: only people who have it take a seat."""
    import random as _random

    try:
        import uvicorn

        from tonkdsl.tools.serve import lan_address, make_game
        from tonkdsl.tools.serve.app import create_app
        from tonkdsl.tools.serve.guard import connection_cap, guarded_h11
        from tonkdsl.tools.serve.room import IdentityError, Room
    except ImportError as exc:
        echo(f"error: {exc.name or 'a module'} is not installed: pip install 'tonkdsl[serve]'", err=True)
        sys.exit(EXIT_BAD_INPUT)
    _check_save(save, resume)
    if seed is None:
        seed = _random.SystemRandom().randrange(2**31)
    try:
        game = make_game(ruleset, seats=seats, bots=[b.strip() for b in bots.split(",") if b.strip()],
                         names=[n.strip() for n in names.split(",") if n.strip()], stake=stake, hands=hands,
                         seed=seed, save=save, resume=resume, allow_paths=allow)
    except LoadError as exc:
        _bad_input(exc, False)
    except ValueError as exc:
        raise click.BadParameter(printable(str(exc))) from None
    _check_dealable(ruleset or str(resume), game.ruleset, len(game.names), game.seed)
    _check_table(ruleset or str(resume), game.ruleset, len(game.names))
    kept = game.save_path.with_name(game.save_path.name + ".table") if game.save_path else None
    try:
        if resume is not None and kept is not None and not kept.exists():
            old = resume.with_name(resume.name + ".table")  # resumed into another save: the table moves too
            if old.exists():
                from tonkdsl.tools.files import write_atomic

                write_atomic(kept, old.read_bytes(), private=True)  # the table file is whole or absent
        room = Room(game, identity_path=kept, turn_time=turn_time)
    except (IdentityError, OSError) as exc:
        echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    app = create_app(room, bot_delay=bot_delay)
    shown = "127.0.0.1" if host in ("127.0.0.1", "localhost") else lan_address() if host == "0.0.0.0" else host
    echo(f"{game.ruleset.name}: {len(game.names)} seats ({', '.join(game.names)}), seed {game.seed}"
               + (f", {game.hands} hands" if game.hands else ", a match to its end")
               + (f", saved to {game.save_path}" if game.save_path else ""))
    echo(f"open: http://{shown}:{port}/t/{room.table_id}?code={room.code}")
    echo("each person's own seat link (it takes their seat from any device: send it again to a friend who "
         "changes device):")
    for name, link in room.seat_links(f"http://{shown}:{port}").items():
        echo(f"  {name}: {link}")
    if host not in ("127.0.0.1", "localhost"):
        echo("share this link with the people at the table (it carries the join code)")
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=16_384,
                http=guarded_h11(connection_cap(max_connections)))


@main.command("lint")
@click.argument("rulesets", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text", show_default=True,
              help="text (like a compiler), json, or SARIF 2.1.0 for editors and CI.")
@click.option("--json", "fmt", flag_value="json", help="The same as --format json (as every command's --json).")
@click.option("--strict", is_flag=True, help="Warnings fail too (exit 1).")
@click.option("--simulate", "sim", type=click.IntRange(0), default=0, metavar="N",
              help="Also simulate N hands: the legality check (a state with no legal action, an offer refused, a "
                   "rule failing at play: errors, breaks-at-play), and notes on rules that never took effect "
                   "(N is also the --witness budget).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the --simulate and --witness hands.")
@click.option("--witness", "witness", type=click.Path(file_okay=False, path_type=Path), default=None, metavar="DIR",
              help="Write, for each rule a hand can make happen, such a hand as a scenario file in DIR "
                   "(tonk check DIR/*.yaml replays them); 2,000 hands at most unless --simulate says.")
@click.option("--allow-path", "allow", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="A folder that 'extends' may reach outside the file's own folder and the working folder.")
def lint_cmd(rulesets: tuple[str, ...], fmt: str, strict: bool, sim: int, seed: int, witness: Path | None,
             allow: tuple[Path, ...]) -> None:
    """Find what is contradictory, impossible, unreachable or surprising in rulesets.

    Exit 0 clean, 1 errors (or warnings with --strict), 2 unreadable or invalid input.
    The checks and their codes are listed in docs/lint.md."""
    from tonkdsl.interpreter.engine import RulesetError
    from tonkdsl.tools.lint import lint
    from tonkdsl.tools.lint import report

    from tonkdsl.tools.lint.checks import LintReport

    if witness is not None:  # the folder is made before any work, or the command stops plainly
        try:
            witness.mkdir(parents=True, exist_ok=True)
            if not os.access(witness, os.W_OK):
                raise PermissionError(13, "permission denied")
        except OSError as exc:
            echo(f"error: --witness: cannot write into {witness}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
    reports = []
    invalid = False
    for ref in rulesets:
        target: str | Path = Path(ref) if ref.endswith((".yaml", ".yml")) or "/" in ref else ref
        try:
            folder = None if witness is None else witness if len(rulesets) == 1 else witness / Path(ref).stem
            reports.append(lint(target, allow_paths=allow, simulate=sim, seed=seed, witness=folder))
        except LoadError as exc:
            # A file that cannot be read or is not valid is reported like the others (its load
            # errors are its findings) and the run goes on; the exit status is then 2.
            invalid = True
            reports.append(LintReport(ref, list(exc.diagnostics), valid=False))
        except RulesetError as exc:
            echo(f"{ref}: error: the ruleset failed while simulating: {exc}", err=True)
            sys.exit(EXIT_FAIL)
    render = {"text": report.text, "json": report.as_json, "sarif": report.sarif}[fmt]
    echo(render(reports))
    failed = any(r.errors() or (strict and r.warnings()) for r in reports)
    sys.exit(EXIT_BAD_INPUT if invalid else EXIT_FAIL if failed else EXIT_OK)


_FORMAT_WORDS = {"md": "Markdown", "text": "plain text", "html": "HTML"}
_FORMAT_OF_SUFFIX = {".md": "md", ".markdown": "md", ".txt": "text", ".html": "html", ".htm": "html"}


@main.command("explain")
@click.argument("ruleset")
@click.option("--format", "fmt", type=click.Choice(["md", "text", "html"]), default="text", show_default=True)
@click.option("--stake", default=1, show_default=True, type=click.IntRange(1, MAX_STAKE), help="Work amounts out for this stake.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
@click.option("--allow-path", "allow", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="A folder that the ruleset's 'extends' may reach outside its own folder and the working folder.")
def explain_cmd(ruleset: str, fmt: str, stake: int, output: Path | None, allow: tuple[Path, ...]) -> None:
    """Print a complete rules sheet of RULESET, made from its data."""
    from tonkdsl.language.loader import load_ruleset
    from tonkdsl.tools.explain import explain

    try:
        rs = load_ruleset(_target(ruleset), allow_paths=allow)
    except LoadError as exc:
        _bad_input(exc, False)
    if output is not None and output.suffix.lower() in _FORMAT_OF_SUFFIX and _FORMAT_OF_SUFFIX[output.suffix.lower()] != fmt:
        wanted = _FORMAT_OF_SUFFIX[output.suffix.lower()]
        echo(f"error: -o {output} names a {_FORMAT_WORDS[wanted]} file, but --format is {fmt}: "
                   f"add --format {wanted}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    _check_output(output, "-o")
    text = explain(rs, fmt, stake)
    if output is not None:
        output.write_text(text, encoding="utf-8")
    else:
        echo(text, nl=False)


@main.command("diff")
@click.argument("a")
@click.argument("b")
@click.option("--stake", default=1, show_default=True, type=click.IntRange(1, MAX_STAKE))
@click.option("--json", "as_json", is_flag=True, help="Print the differences as JSON.")
def diff_cmd(a: str, b: str, stake: int, as_json: bool) -> None:
    """Say in plain words how ruleset B differs from ruleset A, each with its YAML path.

    Exit 0 when they are the same, 1 when they differ, 2 on bad input."""
    from tonkdsl.language.loader import load_doc, load_ruleset
    from tonkdsl.tools.explain.diff import diff

    try:
        for ref in (a, b):
            load_ruleset(_target(ref))
        da, db = load_doc(_target(a)).data, load_doc(_target(b)).data
    except LoadError as exc:
        _bad_input(exc, as_json)
    found = diff(da, db, stake)
    if as_json:
        echo(json.dumps([{"path": d.path, "text": d.text} for d in found], indent=2))
    else:
        for d in found:
            echo(f"{d.text}  ({d.path})")
        echo(f"{len(found)} difference{'s' * (len(found) != 1)} between {a} and {b}")
    sys.exit(EXIT_FAIL if found else EXIT_OK)


@main.command("new")
@click.argument("name")
@click.option("--from", "base", default=None,
              help="The ruleset to start from (a shipped name or a path; default: the game most shipped "
                   "rulesets extend, standard).")
@click.option("--dir", "folder", default=".", type=click.Path(file_okay=False, path_type=Path), show_default=True)
@click.option("--force", is_flag=True, help="Overwrite existing files.")
def new_cmd(name: str, base: str | None, folder: Path, force: bool) -> None:
    """Write a starter ruleset NAME.yaml (extending --from) and a starter scenario NAME-hand.yaml."""
    from tonkdsl.language.resources import base_ruleset_name
    from tonkdsl.tools.starter import write_starter

    base = base or base_ruleset_name()
    for written in (folder / f"{name}.yaml", folder / f"{name}-hand.yaml"):
        problem = _output_problem(written) if folder.is_dir() else None
        if problem is not None:
            echo(f"error: {problem}", err=True)
            sys.exit(EXIT_BAD_INPUT)
    try:
        paths = write_starter(name, base, folder, force=force)
    except LoadError as exc:
        _bad_input(exc, False)
    except FileExistsError as exc:
        raise click.UsageError(f"{exc} exists already (use --force to overwrite)") from None
    except OSError as exc:  # a --dir that cannot be made (a file on its way), a folder not writable
        echo(f"error: cannot write into {folder}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for p in paths:
        echo(f"wrote {p}")
    echo(f"next: edit {paths[0]}, then 'tonk validate {paths[0]}', 'tonk lint {paths[0]}' and "
               f"'tonk check {paths[1]}'")


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # e.g. a name too long for the file system: not a folder, reported when read
        return False


MAX_NAME_BYTES = 255  # the longest file name most file systems take


def _output_problem(path: Path, suffixes: Sequence[str] = ()) -> str | None:
    """Why ``path`` cannot be written, found before any work is done (None when it can)."""
    if suffixes and path.suffix.lower() not in suffixes:
        return f"{path} must end in {' or '.join(suffixes)}"
    if any(len(part.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES for part in path.parts):
        return f"a name in {str(path)[:60]}... is longer than {MAX_NAME_BYTES} bytes"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"cannot write {path}: the folder {folder} does not exist"
    if path.exists() and not path.is_file():
        return f"cannot write {path}: it is not a regular file"
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"cannot write {path}: permission denied"
    return None


def _check_output(path: Path | None, option: str, suffixes: Sequence[str] = ()) -> None:
    """Refuse a bad output path before the work (exit 2); say when an existing file is replaced."""
    if path is None:
        return
    problem = _output_problem(path, suffixes)
    if problem is not None:
        echo(f"error: {option}: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    if path.exists():
        say(f"note: {option} replaces the existing file {path}")


def _check_save(save: Path | None, resume: Path | None) -> None:
    """A --save path that can be written and holds no other game (exit 2 before any play). A
    game resumed without --save is saved over its own file: that file must be writable too."""
    if save is None:
        try:
            problem = _output_problem(resume) if resume is not None and resume.is_file() else None
        except OSError:  # a name the file system cannot take: --resume says so when it reads the file
            problem = None
        if problem is not None:
            echo(f"error: --resume: the game is saved to the file it continues after every move, but {problem}; "
                 "pass --save FILE to save it elsewhere", err=True)
            sys.exit(EXIT_BAD_INPUT)
        return
    problem = _output_problem(save)
    if problem is not None:
        echo(f"error: --save: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    if save.exists() and (resume is None or save.resolve() != resume.resolve()):
        # Never write a new game over another one: it may be a game in progress.
        echo(f"error: --save: {save} exists already (a saved game?); continue it with --resume {save}, "
                   "or save to another file", err=True)
        sys.exit(EXIT_BAD_INPUT)


def _target(ref: str) -> str | Path:
    return Path(ref) if ref.endswith((".yaml", ".yml")) or "/" in ref else ref


@main.command("schema")
@click.option("--path", "show_path", is_flag=True, help="Print the schema file's path instead of its text.")
@click.option("--write", "write_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Copy the schema into this folder as ruleset.schema.json (for the modeline "
                   "'# yaml-language-server: $schema=./ruleset.schema.json').")
@click.option("--force", is_flag=True, help="With --write: replace a ruleset.schema.json that is not tonkdsl's.")
def schema_cmd(show_path: bool, write_dir: Path | None, force: bool) -> None:
    """Print the JSON Schema of ruleset files (for editors: see docs/rulesets.md)."""
    if write_dir is not None:
        from tonkdsl.tools.starter import write_schema

        try:
            write_dir.mkdir(parents=True, exist_ok=True)
            echo(f"wrote {write_schema(write_dir, force=force)}")
        except FileExistsError as exc:
            echo(f"error: {exc} exists and is not tonkdsl's schema: it was left as it is (use --force to replace it)",
                 err=True)
            sys.exit(EXIT_BAD_INPUT)
        except OSError as exc:
            echo(f"error: cannot write the schema into {write_dir}: {exc.strerror}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        return
    from tonkdsl.language.resources import schema_path

    path = schema_path()
    echo(str(path) if show_path else path.read_text(encoding="utf-8"), nl=show_path)


@main.command("docs")
@click.argument("topic", required=False)
@click.option("--path", "show_path", is_flag=True, help="Print the file's path instead of its text.")
def docs_cmd(topic: str | None, show_path: bool) -> None:
    """Read the documentation that ships with tonk: with no TOPIC, list the topics; 'tonk docs
    reference' is every key of a ruleset file, 'tonk docs expressions' the expression language."""
    from tonkdsl.language.diagnostics import did_you_mean
    from tonkdsl.language.resources import docs_topics

    topics = docs_topics()
    if topic is None:
        width = max(map(len, topics), default=0)
        for name, page in topics.items():
            title = next((line.lstrip("# ").strip() for line in page.read_text(encoding="utf-8").splitlines()
                          if line.startswith("# ")), "")
            echo(f"{name:<{width}}  {title}")
        return
    path = topics.get(topic.removesuffix(".md"))
    if path is None:
        echo(f"error: no topic '{topic}'{did_you_mean(topic, topics)}; 'tonk docs' lists them", err=True)
        sys.exit(EXIT_BAD_INPUT)
    echo(str(path) if show_path else path.read_text(encoding="utf-8"), nl=show_path)


@main.command("rulesets")
def list_rulesets() -> None:
    """List the shipped rulesets."""
    from tonkdsl.language.resources import shipped_ruleset_names

    for name in shipped_ruleset_names():
        echo(name)


if __name__ == "__main__":  # pragma: no cover
    main()
