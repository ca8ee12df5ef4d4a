"""``tonk tournament``: duplicate deals, margins over deals, Elo ratings with bootstrap intervals."""
from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from tonkdsl.cli import main
from tonkdsl.tools import tournament as tour
from tonkdsl.tools.bots import hand_value, policy
from tonkdsl.tools.ratings import ELO_AVERAGE, Games, fit, games_of, rate
from tonkdsl.tools.simulate import play_hand, ruleset_of
from tonkdsl.language.rng import derive_seed


def test_two_bots_are_rated_by_their_share_with_one_drawn_game_added() -> None:
    # 60 won, 30 drawn, 10 lost: 75 points of 100, plus the prior's drawn game: 75.5 of 101.
    a, b = fit(2, {(0, 1): Games(60, 30, 10)})
    assert a - b == pytest.approx(400 * math.log10(75.5 / 25.5))
    assert (a + b) / 2 == pytest.approx(ELO_AVERAGE)


def test_ratings_of_three_bots_average_1500_and_follow_their_results() -> None:
    pairs = {(0, 1): Games(70, 0, 30), (0, 2): Games(90, 0, 10), (1, 2): Games(70, 0, 30)}
    elo = fit(3, pairs)
    assert sum(elo) / 3 == pytest.approx(ELO_AVERAGE)
    assert elo[0] > elo[1] > elo[2]
    # The fit's fixed point: each bot's expected points equal the points it scored (prior included).
    for k in range(3):
        expected = scored = 0.0
        for (i, j), g in pairs.items():
            if k in (i, j):
                other = j if k == i else i
                n = g.played + 1
                expected += n / (1 + 10 ** ((elo[other] - elo[k]) / 400))
                scored += (g.points if k == i else g.played - g.points) + 0.5
        assert expected == pytest.approx(scored, rel=1e-6)


def test_a_bot_that_wins_every_game_gets_a_finite_elo_with_an_interval_around_it() -> None:
    ratings = rate(["a", "b"], {(0, 1): [1.0, 2.0, 0.5] * 10}, seed=3)
    best, worst = ratings
    assert (best.bot, worst.bot) == ("a", "b")
    assert math.isfinite(best.elo) and best.elo - worst.elo == pytest.approx(400 * math.log10(30.5 / 0.5))
    for r in ratings:
        assert r.elo_low <= r.elo <= r.elo_high and r.margin_low <= r.margin <= r.margin_high
    assert (best.points, best.played, worst.points) == (30, 30, 0)


def test_the_margin_rating_is_the_margin_against_the_field_and_ranks_the_bots() -> None:
    # a beats b by 1 a hand, b beats c by 1, a beats c by 3: ratings (1 + 3) / 3, (-1 + 1) / 3, (-3 - 1) / 3.
    deals = {(0, 1): [1.0, 1.0, 1.0, 1.0], (0, 2): [3.0, 2.0, 4.0, 3.0], (1, 2): [0.0, 2.0, 1.0, 1.0]}
    ratings = rate(["a", "b", "c"], deals, seed=1)
    assert [(r.bot, r.margin) for r in ratings] == [("a", pytest.approx(4 / 3)), ("b", pytest.approx(0.0)),
                                                    ("c", pytest.approx(-4 / 3))]
    assert sum(r.margin for r in ratings) == pytest.approx(0.0)
    assert games_of(deals[1, 2]) == Games(3, 1, 0)


def test_ratings_need_every_pair_on_as_many_deals() -> None:
    with pytest.raises(ValueError, match="every pair of bots on as many deals"):
        rate(["a", "b", "c"], {(0, 1): [1.0], (0, 2): [1.0]})
    with pytest.raises(ValueError, match="every pair of bots on as many deals"):
        rate(["a", "b", "c"], {(0, 1): [1.0], (0, 2): [1.0], (1, 2): [1.0, 0.0]})


def test_ratings_and_intervals_are_the_same_for_the_same_seed() -> None:
    deals = {(0, 1): [1.0, -1.0, 0.0, 2.0, -0.5] * 8, (0, 2): [1.0, 1.0, -2.0, 0.5, 0.0] * 8,
             (1, 2): [0.5, -1.0, 1.5, 0.0, 1.0] * 8}
    first = rate(["x", "y", "z"], deals, seed=11)
    assert first == rate(["x", "y", "z"], deals, seed=11)
    assert [r.elo_low for r in first] != [r.elo_low for r in rate(["x", "y", "z"], deals, seed=12)]
    for r in first:
        assert r.elo_low < r.elo < r.elo_high and r.margin_low < r.margin < r.margin_high


def test_a_deal_is_played_twice_with_the_seats_swapped() -> None:
    rs = ruleset_of("standard")
    greedy, mc = policy("greedy"), policy("montecarlo")
    (m0, m1), = tour.play_deals(rs, greedy, mc, seed=5, start=3, count=1)
    seed = derive_seed(5, 3)
    first, _ = play_hand(rs, [greedy, mc], seed, dealer=0)
    second, _ = play_hand(rs, [mc, greedy], seed, dealer=0)
    assert m0 == hand_value(first, 0, False, False) - hand_value(first, 1, False, False)
    assert m1 == hand_value(second, 1, False, False) - hand_value(second, 0, False, False)


@given(st.integers(0, 2**32), st.sampled_from(["standard", "chicago", "pushups"]))
def test_a_bot_against_itself_draws_every_deal(seed: int, name: str) -> None:
    rs = ruleset_of(name)
    bot = policy("greedy")
    for m0, m1 in tour.play_deals(rs, bot, bot, seed, 0, 3):
        assert m0 + m1 == 0


def test_results_do_not_depend_on_the_workers_and_swapping_the_bots_negates_the_margins() -> None:
    one = tour.run("standard", ["random", "greedy", "montecarlo"], 12, seed=4)
    two = tour.run("standard", ["random", "greedy", "montecarlo"], 12, seed=4, workers=2)
    assert one.matches == two.matches and one.ratings == two.ratings
    swapped = tour.run("standard", ["montecarlo", "greedy"], 12, seed=4)
    (forward,), = [[m for m in one.matches if (m.bot, m.opponent) == ("greedy", "montecarlo")]]
    (back,) = swapped.matches
    assert back.margin == pytest.approx(-forward.margin)
    assert (back.games.won, back.games.drawn, back.games.lost) == \
        (forward.games.lost, forward.games.drawn, forward.games.won)
    assert one.costs["montecarlo"].decisions > 0 and one.costs["montecarlo"].seconds > 0


def test_the_margin_is_a_hand_average_and_its_interval_is_over_deals() -> None:
    t = tour.run("standard", ["random", "greedy"], 20, seed=9)
    (m,) = t.matches
    margins = tour.play_deals(ruleset_of("standard"), policy("random"), policy("greedy"), 9, 0, 20)
    per_deal = [(x + y) / 2 for x, y in margins]
    assert m.margin == pytest.approx(sum(x + y for x, y in margins) / 40)
    assert m.high - m.margin == pytest.approx(1.96 * _stdev(per_deal) / math.sqrt(20))
    assert m.games.won == sum(1 for d in per_deal if d > 0) and m.games.lost == sum(1 for d in per_deal if d < 0)
    assert m.hands == 40 and t.unit == "stakes"


def _stdev(xs: list[float]) -> float:
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))


def test_the_command_prints_margins_and_a_ranking() -> None:
    r = CliRunner().invoke(main, ["tournament", "standard", "-n", "10", "--seed", "2"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == ("standard (Standard Tonk): 10 deals, each played twice by every pair with the seats "
                        "swapped; two players; seed 2")
    pairs = lines.index(next(line for line in lines if line.startswith("bot ")))
    assert lines[pairs].split()[:2] == ["bot", "vs"] and len(lines[pairs + 2].split()) >= 8
    assert lines[pairs + 5] == ""  # three pairs of three bots
    head = lines.index(next(line for line in lines if line.strip().startswith("rank")))
    t = tour.run("standard", ["random", "greedy", "montecarlo"], 10, seed=2)
    assert set(lines[head + 1]) == {"-"}  # the table's rule under its header (rich, tools/tables.py)
    assert [line.split()[1] for line in lines[head + 2:head + 5]] == [r.bot for r in t.ratings]
    best = t.ratings[0]
    assert lines[head + 2].split()[2] == f"{best.margin:+.3f}"
    assert f"{best.elo:.0f}   [{best.elo_low:.0f}, {best.elo_high:.0f}]" in lines[head + 2]


def test_the_command_json_has_every_pair_and_the_ranking_for_each_ruleset() -> None:
    r = CliRunner().invoke(main, ["tournament", "standard", "pushups", "--bots", "greedy,random", "-n", "6", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert (data["bots"], data["deals"], data["players"]) == (["greedy", "random"], 6, 2)
    standard, pushups = data["rulesets"]
    assert (standard["unit"], pushups["unit"]) == ("stakes", "points")
    (m,) = standard["matches"]
    assert (m["bot"], m["opponent"], m["hands"]) == ("greedy", "random", 12)
    assert m["ci95"][0] <= m["margin"] <= m["ci95"][1]
    assert sum(m["games"].values()) == 6
    assert [e["rank"] for e in standard["ranking"]] == [1, 2]
    assert {e["bot"] for e in standard["ranking"]} == {"greedy", "random"}
    best = standard["ranking"][0]
    assert best["margin_ci95"][0] <= best["margin"] <= best["margin_ci95"][1]
    assert best["elo_ci95"][0] <= best["elo"] <= best["elo_ci95"][1]
    assert best["margin"] == pytest.approx(abs(m["margin"]) / 2)  # two bots: half the margin above the average


@pytest.mark.parametrize("args, message", [
    (["standard", "--bots", "greedy"], "a tournament needs at least two bots (--bots greedy,montecarlo)"),
    (["standard", "--bots", "greedy,greedy"], "greedy listed twice: each bot plays every other once"),
    (["standard", "--bots", "greedy,smart"], "unknown bot 'smart'"),
    (["big-table"], "big-table: Big table is for 6 to 12 players; a tournament seats two"),
    (["no-such-ruleset"], "no-such-ruleset"),
])
def test_bad_input_is_refused_with_exit_2(args: list[str], message: str) -> None:
    r = CliRunner().invoke(main, ["tournament", *args])
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output
