"""tonk simulate: totals independent of the number of workers (process pool and a Dask
LocalCluster), confidence intervals, side-by-side significance, --out, --plot."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tonkdsl.cli import main
from tonkdsl.tools import simulate as sim
from tonkdsl.tools.stats import Tally, mean_ci, quantile, wilson

SPEC = sim.Spec("standard", ("greedy", "greedy", "random"), 42)


def as_tuple(t: Tally) -> tuple:
    return (t.hands, t.sessions, t.actions, dict(t.endings), dict(t.rules), t.pay_sum, t.pay_sq, t.score_sum,
            dict(t.lengths))


def test_totals_do_not_depend_on_workers() -> None:
    one = sim.run(SPEC, 600, workers=1)
    two = sim.run(SPEC, 600, workers=2)
    assert as_tuple(one) == as_tuple(two)
    assert sum(one.pay_sum) == 0 and one.hands == 600


def test_sessions_with_the_big_one_are_split_on_session_boundaries() -> None:
    spec = sim.Spec(str(Path(__file__).parent / "variations" / "combo-big-one-natural-units.yaml"),
                    ("greedy", "random", "greedy"), 3)
    a = sim.run(spec, 700, workers=1)
    b = sim.run(spec, 700, workers=3)
    assert as_tuple(a) == as_tuple(b) and a.sessions == 234  # 233 sessions of 3 hands and one of 1


@pytest.mark.slow
def test_dask_local_cluster_equals_local_run() -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = sim.run(SPEC, 500, scheduler=cluster.scheduler_address)
    local = sim.run(SPEC, 500)
    assert as_tuple(remote) == as_tuple(local)


def test_tasks_are_sent_a_window_at_a_time_and_come_back_in_order() -> None:
    from concurrent.futures import Future

    from tonkdsl.tools.pool import _window

    made, in_flight, most = [], [], [0]

    def tasks():  # made as they are asked for: a billion hands are never listed at once
        for i in range(1000):
            made.append(i)
            yield i

    def submit(task: int) -> Future:
        fut: Future = Future()
        fut.set_result(task * task)
        in_flight.append(task)
        most[0] = max(most[0], len(in_flight))
        return fut

    results = []
    for r in _window(submit, tasks(), 8):
        in_flight.pop(0)
        results.append(r)
        assert len(made) <= len(results) + 9
    # At most the window's eight in flight, and the one being handed back.
    assert results == [i * i for i in range(1000)] and most[0] == 9


@pytest.mark.slow
def test_a_tournament_on_dask_equals_the_local_one() -> None:
    distributed = pytest.importorskip("dask.distributed")
    from tonkdsl.tools import tournament as tour

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = tour.run("standard", ["greedy", "random"], 40, 5, scheduler=cluster.scheduler_address)
    local = tour.run("standard", ["greedy", "random"], 40, 5)
    assert [(m.bot, m.opponent, m.margin, m.low, m.high) for m in remote.matches] == \
        [(m.bot, m.opponent, m.margin, m.low, m.high) for m in local.matches]


def test_intervals() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(0, 100)[0] == pytest.approx(0.0, abs=1e-12) and wilson(0, 100)[1] < 0.04
    mean, lo, hi = mean_ci(10, 100, 10)  # ten values summing to 10 with squares summing to 100
    assert mean == 1 and lo < mean < hi
    assert mean_ci(10, 10, 10) == (1.0, 1.0, 1.0)  # ten 1s: no spread
    from collections import Counter
    hist = Counter({10: 5, 20: 4, 90: 1})
    assert quantile(hist, 0.5) == 10 and quantile(hist, 0.9) == 20


def run_cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["simulate", *args])
    return r.exit_code, r.output


def test_json_has_intervals_and_is_deterministic() -> None:
    code, out = run_cli("standard", "-n", "300", "--seed", "5", "--json")
    assert code == 0
    data = json.loads(out)
    (r,) = data["rulesets"]
    assert r["hands"] == 300 and sum(e["hands"] for e in r["endings"].values()) == 300
    dw = r["endings"]["drop_won"]
    assert dw["ci95"][0] <= dw["share"] <= dw["ci95"][1]
    assert len(r["seats"]) == 3 and abs(sum(s["net"] for s in r["seats"])) == 0
    assert r["length"]["median"] <= r["length"]["p90"]
    assert "drop-won" in r["rules"]
    code, again = run_cli("standard", "-n", "300", "--seed", "5", "--json", "--workers", "2")
    assert json.loads(again)["rulesets"] == data["rulesets"]


def test_side_by_side_marks_significant_differences() -> None:
    code, out = run_cli("standard", "seattle", "-n", "1500", "--seed", "2", "--json")
    data = json.loads(out)
    assert "endings.initial_tonk" in data["significant"]["seattle"]  # 49/50 with seven cards: far more often
    code, text = run_cli("standard", "seattle", "-n", "300", "--seed", "2")
    assert code == 0 and "* differs from the first ruleset" in text


def test_out_writes_one_line_per_hand(tmp_path: Path) -> None:
    out = tmp_path / "hands.jsonl"
    code, _ = run_cli("speno", "-n", "120", "--out", str(out), "--workers", "2")
    lines = out.read_text().splitlines()
    assert code == 0 and len(lines) == 120
    rec = json.loads(lines[7])
    assert rec["hand"] == 7 and sum(rec["payouts"]) == 0 and rec["end"]


def test_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "p.png"
    code, out = run_cli("standard", "speno", "-n", "100", "--plot", str(path))
    assert code == 0 and path.stat().st_size > 1000


def test_a_score_sheet_is_reported_per_hand_with_intervals() -> None:
    from tonkdsl.cli import main
    res = CliRunner().invoke(main, ["simulate", "pushups", "-n", "200", "--players", "3", "--seed", "1"])
    assert res.exit_code == 0 and "score per hand, by seat" in res.output
    res = CliRunner().invoke(main, ["simulate", "pushups", "-n", "200", "--players", "3", "--seed", "1", "--json"])
    seat = json.loads(res.output)["rulesets"][0]["seats"][0]
    assert seat["score_per_hand"] > 0 and seat["score_ci95"][0] <= seat["score_per_hand"] <= seat["score_ci95"][1]
    res = CliRunner().invoke(main, ["simulate", "standard", "-n", "50", "--players", "3"])
    assert "score per hand" not in res.output  # money only: no score sheet to report


def test_a_pot_carries_over_as_a_table_plays_it(tmp_path: Path) -> None:
    from tonkdsl.docgen import recipe_blocks
    from conftest import ROOT
    path = tmp_path / "pot.yaml"
    path.write_text(recipe_blocks((ROOT / "docs" / "recipes.md").read_text())["playing-for-a-pot"])
    assert "session:" not in path.read_text()  # and standard sets no session length either
    out = CliRunner().invoke(main, ["simulate", str(path), "-n", "200", "--json"])
    data = json.loads(out.output)["rulesets"][0]
    assert data["pot"] == {"session_hands": sim.POT_SESSION_HANDS, "set_by_ruleset": False}
    assert data["sessions"] == 200 // sim.POT_SESSION_HANDS
    # Within an evening the pot is won again and again: what is left at its end is a few antes,
    # not every ante of every hand (one-hand sessions left 3 a hand in it).
    assert data.get("pot_left", 0) / data["sessions"] < 3 * 3
    text = CliRunner().invoke(main, ["simulate", str(path), "-n", "200"]).output
    assert (f"carries over from hand to hand within sessions of {sim.POT_SESSION_HANDS} hands (the ruleset sets "
            "no session.hands; a table plays on)") in text


def test_a_points_game_reports_its_score_rules_and_a_match_counts_matches() -> None:
    from conftest import TESTS
    text = CliRunner().invoke(main, ["simulate", "pushups", "-n", "60"]).output
    lines = text.splitlines()
    head = lines.index(next(line for line in lines if line.startswith("score rules that scored (Push-ups)")))
    assert lines[head].endswith("  share of hands") and lines[head + 2].startswith("  pushed ")
    assert "rules that paid (Push-ups)" not in text
    match = str(TESTS / "variations" / "x16-match-first-to-50.yaml")
    text = CliRunner().invoke(main, ["simulate", match, "-n", "6"]).output
    assert text.startswith("6 matches (") and " hands) per ruleset, 3 players" in text
    done: list[int] = []
    sim.run(sim.Spec(match, ("greedy",) * 3, 0), 4, progress=done.append)
    assert done == [1, 2, 3, 4]  # the bar moves each match, in matches


def test_a_player_count_out_of_range_reads_plainly() -> None:
    out = CliRunner().invoke(main, ["simulate", "speno", "--players", "9"])
    assert out.exit_code == 2 and "Speno (Baltimore SF Society) is for 2 to 8 players" in out.output


def test_runs_merge_into_the_report_of_all_their_hands(tmp_path: Path) -> None:
    runner = CliRunner()
    files = []
    for seed in (1, 2, 3):
        r = runner.invoke(main, ["simulate", "standard", "-n", "300", "--seed", str(seed), "--json"])
        assert r.exit_code == 0, r.output
        path = tmp_path / f"run{seed}.json"
        path.write_text(r.output, encoding="utf-8")
        files.append(path)
    merged = runner.invoke(main, ["merge", *map(str, files), "--json"])
    assert merged.exit_code == 0, merged.output
    data = json.loads(merged.output)
    (m,) = data["rulesets"]
    runs = [json.loads(p.read_text(encoding="utf-8"))["rulesets"][0] for p in files]
    assert data["seeds"] == [1, 2, 3] and m["hands"] == 900
    for kind in m["endings"]:  # the counts add up exactly, and the intervals are those of the sum
        assert m["endings"][kind]["hands"] == sum(r["endings"][kind]["hands"] for r in runs)
    total = sim.Tally.from_json(runs[0]["tally"])
    for r in runs[1:]:
        total.add(sim.Tally.from_json(r["tally"]))
    assert m["seats"] == sim.summary(total)["seats"]
    text = runner.invoke(main, ["merge", *map(str, files)]).output
    assert text.startswith("900 hands per ruleset, 3 players (greedy, greedy, greedy), seeds 1, 2, 3; ")


def test_runs_that_do_not_add_up_are_refused(tmp_path: Path) -> None:
    runner = CliRunner()
    one = tmp_path / "one.json"
    one.write_text(runner.invoke(main, ["simulate", "standard", "-n", "50", "--seed", "1", "--json"]).output,
                   encoding="utf-8")
    two = tmp_path / "two.json"
    two.write_text(runner.invoke(main, ["simulate", "standard", "-n", "50", "--players", "2", "--json"]).output,
                   encoding="utf-8")
    same = runner.invoke(main, ["merge", str(one), str(one)])
    assert same.exit_code == 2
    assert (f"error: {one} and {one} both ran standard with seed 1: the same hands would count twice (give each "
            "run its own --seed)") in same.output
    other = runner.invoke(main, ["merge", str(one), str(two)])
    assert other.exit_code == 2 and "only runs of the same bots, players and stake add up" in other.output
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    bad = runner.invoke(main, ["merge", str(junk)])
    assert bad.exit_code == 2 and f"error: {junk} is not JSON" in bad.output
    shaped = tmp_path / "shaped.json"
    shaped.write_text('{"bots": ["greedy"], "players": 3, "rulesets": [1, 2]}', encoding="utf-8")
    odd = runner.invoke(main, ["merge", str(shaped)])
    assert odd.exit_code == 2 and f"error: {shaped} is not the output of tonk simulate --json" in odd.output
