"""The strong bot (tonkdsl/strong.py): it reads only its view, decides every kind of choice,
plays under every ruleset, and the same seed gives the same play. Its strength is measured by
benchmarks/bench_bots.py (figures in docs/play.md), not here."""
from click.testing import CliRunner
import pytest

from tonkdsl import actions as A
from tonkdsl import load_ruleset
from tonkdsl.bots import bot_problem, greedy_bot, policy
from tonkdsl.cli import main
from tonkdsl.resources import shipped_ruleset_names
from tonkdsl.rng import Rng
from tonkdsl.simulate import play_hand
from tonkdsl.strong import StrongBot
from tonkdsl.view import View


def test_the_same_view_gives_the_same_choice_whatever_the_hidden_cards() -> None:
    rs = load_ruleset("standard")
    for seed in range(20):
        state = rs.new_hand(2, seed=seed)
        if state.is_terminal():
            continue
        me = state.current_player()
        other = 1 - me
        twin = state.clone()
        # The opponent's hand and the stock differ; everything seat `me` may see is the same.
        hidden = list(twin.hands[other]) + list(twin.stock)
        Rng(seed).shuffle(hidden)
        n = len(twin.hands[other])
        twin.set_hand(other, hidden[:n])
        twin.stock = hidden[n:]
        bot = StrongBot(rollouts=24)
        a = bot(View(state, me), state.legal_actions(), Rng(99))
        b = bot(View(twin, me), twin.legal_actions(), Rng(99))
        assert a == b


def test_a_world_keeps_the_cards_everyone_saw_taken() -> None:
    rs = load_ruleset("standard")
    state = rs.new_hand(3, seed=4)
    top = state.discard_pile[-1]
    taker = state.current_player()
    state.apply(A.DrawDiscard())  # everyone saw `top` go into the taker's hand
    watcher = (taker + 1) % 3
    for k in range(30):
        world = View(state, watcher).determinize(Rng(k))
        assert top in world.hands[taker]
        assert sorted(world.hands[watcher]) == sorted(state.hands[watcher])
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        in_play = sorted([c for h in world.hands for c in h] + list(world.stock))
        assert in_play == sorted([c for h in state.hands for c in h] + list(state.stock))  # cards conserved


def test_the_same_seed_gives_the_same_hand() -> None:
    rs = load_ruleset("speno")
    runs = [play_hand(rs, [StrongBot(rollouts=16), greedy_bot], seed=3, dealer=1) for _ in range(2)]
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", shipped_ruleset_names())
def test_it_plays_every_shipped_ruleset_to_the_end(name: str) -> None:
    rs = load_ruleset(name)
    bot = StrongBot(rollouts=4)
    players = max(2, rs.players_min)
    out, actions = play_hand(rs, [bot] + [greedy_bot] * (players - 1), seed=1, dealer=players - 1)
    assert sum(out.payouts) + out.pot_change == 0 and actions > 0
    assert bot.stats.decisions >= 0 and bot.stats.rollouts >= 2 * bot.stats.decisions


def test_bot_names_and_budgets() -> None:
    assert bot_problem("strong") is None and bot_problem("strong:200") is None
    assert "only the strong bot takes a budget" in (bot_problem("greedy:3") or "")
    assert "from 1 to 100,000" in (bot_problem("strong:0") or "")
    assert "unknown bot 'clever'" in (bot_problem("clever") or "")
    assert isinstance(policy("strong:12"), StrongBot) and policy("strong:12").rollouts == 12
    res = CliRunner().invoke(main, ["simulate", "standard", "-n", "2", "--players", "2", "--bots", "strong:8,greedy"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["simulate", "standard", "-n", "2", "--players", "2", "--bots", "strong:0,greedy"])
    assert res.exit_code == 2 and "from 1 to 100,000" in res.output
