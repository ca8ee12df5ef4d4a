"""The strong bot (tonkdsl/tools/strong.py): it reads only its view, decides every kind of choice,
plays under every ruleset, and the same seed gives the same play. Its strength is measured by
benchmarks/bench_bots.py (figures in docs/play.md), not here."""
import math
from pathlib import Path
from typing import Any

from click.testing import CliRunner
import pytest

from tonkdsl import load_ruleset
from tonkdsl.cli import main
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State, deal
from tonkdsl.interpreter.greedy import KEEP_BONUS, TAKE_AT, habit_bot
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View
from tonkdsl.language.resources import shipped_ruleset_names
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import bot_problem, drop_value, greedy_bot, hand_value, policy
from tonkdsl.tools.simulate import play_hand
from tonkdsl.tools.strong import StrongBot, default_rollouts, default_work
from conftest import benchmark_module


def test_the_same_view_gives_the_same_choice_whatever_the_hidden_cards() -> None:
    rs = load_ruleset("standard")
    for seed in range(20):
        state = deal(rs, 2, seed=seed)
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
    state = deal(rs, 3, seed=4)
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
    assert bot_problem("grediy") == ("unknown bot 'grediy' (did you mean 'greedy'?) (bots: random, greedy, montecarlo, "
                                     "strong; strong:N gives the strong bot N rollouts)")
    assert "(did you mean 'strong'?)" in (bot_problem("strnog:200") or "")
    budgeted, default = policy("strong:12"), policy("strong")
    assert isinstance(budgeted, StrongBot) and budgeted.rollouts == 12
    assert isinstance(default, StrongBot) and default.rollouts is None  # the default budget, by hand size:
    assert [default_rollouts(n) for n in (3, 5, 6, 7, 10, 11)] == [2048, 2048, 4096, 4096, 4096, 6144]
    res = CliRunner().invoke(main, ["simulate", "standard", "-n", "2", "--players", "2", "--bots", "strong:8,greedy"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["simulate", "standard", "-n", "2", "--players", "2", "--bots", "strong:0,greedy"])
    assert res.exit_code == 2 and "from 1 to 100,000" in res.output


# --- what the bot infers and how it judges: its parts, each with what it must get right ---------


from tonkdsl.tools.strong import (DROPPER_SAMPLES, OWN_MARGIN, Dropper, _clear_gain, _mean,  # noqa: E402
                                  _paired_gain, kept_above_discard, likely_worlds)


def _ids(state: State, names: str) -> list[int]:
    return [state.card_id(n) for n in names.split()]


def test_a_hand_fits_a_discard_when_it_kept_only_lower_cards_or_partial_spreads() -> None:
    state = deal(load_ruleset("standard"), 2, seed=1)
    near, values = state.melds.near(2), state.pack.values
    (six,) = _ids(state, "6D")
    assert kept_above_discard(_ids(state, "AC 2H 3S 4C"), six, near, values) == 0
    assert kept_above_discard(_ids(state, "AC 2H KS 4C"), six, near, values) == 1  # a loose king kept
    assert kept_above_discard(_ids(state, "AC 2H KS KD"), six, near, values) == 0  # a pair of kings is kept with reason
    assert kept_above_discard(_ids(state, "AC 2H QS 9D"), six, near, values) == 2
    # Letting go of half a pair (6D with 6H) while a loose 4 stays: one more against.
    assert kept_above_discard(_ids(state, "AC 6H 4S 2D"), six, near, values) == 1


def test_the_view_tells_each_players_last_discard_until_their_hand_changes() -> None:
    state = deal(load_ruleset("standard"), 2, seed=5)
    me = state.current_player()
    assert View(state, 1 - me).last_discards == (None, None)
    state.apply(A.DrawStock())
    discard = next(a for a in state.legal_actions() if type(a) is A.Discard)
    state.apply(discard)
    card = state.card_id(discard.card)
    assert View(state, 1 - me).last_discards[me] == card
    state.apply(A.DrawStock())  # the other player's turn: my hand has not changed
    assert View(state, me).last_discards[me] == card
    state.apply(next(a for a in state.legal_actions() if type(a) is A.Discard))
    state.apply(A.DrawStock())
    assert View(state, 1 - me).last_discards[me] is None  # I drew: my hand changed


def test_likely_worlds_mostly_fit_each_players_last_discard() -> None:
    rs = load_ruleset("standard")
    for seed in range(200):  # the first deal where the first player's highest card is 7 or less
        state = deal(rs, 2, seed=seed)
        me = state.current_player()
        state.apply(A.DrawStock())
        if max(state.pack.values[c] for c in state.hands[me]) <= 7:
            break
    top = max(state.hands[me], key=lambda c: state.pack.values[c])
    state.apply(A.Discard(state.pack.names[top]))  # the cards kept are likely as low, or partial spreads
    view = View(state, 1 - me)
    near, values = state.melds.near(2), state.pack.values
    plain = [kept_above_discard(view.determinize(Rng(k)).hands[me], top, near, values) for k in range(150)]
    likely = likely_worlds(view, Rng(3), 150)
    fits = [kept_above_discard(w.hands[me], top, near, values) for w in likely]
    # A guess is weighed 0.25 for each loose card kept above the discard: about 1.6 such cards in
    # a plain guess here, about 0.6 in a likely world.
    assert sum(fits) / len(fits) < 0.5 * sum(plain) / len(plain)
    for world in likely:  # still worlds the watcher cannot tell from the real one
        assert sorted(world.hands[1 - me]) == sorted(state.hands[1 - me])
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        in_play = sorted([c for h in world.hands for c in h] + list(world.stock))
        assert in_play == sorted([c for h in state.hands for c in h] + list(state.stock))


def test_the_model_dropper_drops_a_low_hand_and_keeps_a_high_one() -> None:
    rs = load_ruleset("standard")
    state = deal(rs, 2, seed=2)
    me = state.current_player()
    for hand, drops in (("AC AD 2C 2D 3H", True), ("KC KD QC QH JS", False)):
        state.set_hand(me, _ids(state, hand))
        chosen = Dropper()(View(state, me), state.legal_actions(), Rng(1))
        assert (type(chosen) is A.Drop) is drops, hand


def test_a_pot_counts_as_the_tables_in_the_strong_bots_valuation() -> None:
    """A caught dropper who matches a pot of two antes pays in 3 and the other 1 (its ante): the
    pot gains 4, of which each of two players will win back half on average. Counted as the
    table's, the hand is worth -1 to the dropper; counted as montecarlo counts (money paid this
    hand), -3. A side's share is its seats' shares; where no pot moved nothing changes."""
    caught = Outcome("drop_caught", (1,), (-3, -1), (25, 27), pot_change=4)
    assert hand_value(caught, 0, False, False) == -3.0
    assert hand_value(caught, 0, False, False, pot_shared=True) == -1.0
    assert hand_value(caught, 1, False, False, pot_shared=True) == 1.0
    four = Outcome("drop_caught", (1,), (-3, -1, -1, -1), (0,) * 4, pot_change=6)
    assert hand_value(four, 0, False, False, (0, 1, 0, 1), pot_shared=True) == -4 + 6 * 2 / 4
    won = Outcome("drop_won", (0,), (1, -1), (5, 27))
    assert hand_value(won, 0, False, False, pot_shared=True) == hand_value(won, 0, False, False) == 1.0


def test_the_strong_bot_drops_for_a_pot_once_a_drop_wins_more_often_than_not() -> None:
    """For a pot of two antes a drop won takes it (+1) and a caught one matches it (-3, -1 counted
    as the table's). With a count of 31 on the first turn a drop wins some 56% of the time
    against five unseen cards: money alone says keep the hand (4 x 0.56 - 3 < 0, montecarlo
    keeps it); counted as the table's it gains (2 x 0.56 - 1 > 0), and the strong bot drops."""
    rs = load_ruleset(Path(__file__).resolve().parent / "variations" / "x16-pot.yaml")
    state = deal(rs, 2, seed=2)
    me = state.current_player()
    state.set_hand(me, _ids(state, "4C 5D 6H 7S 9C"))
    view = View(state, me)
    assert drop_value(view, Rng(1), 400) < 0 < drop_value(view, Rng(1), 400, pot_shared=True)
    assert type(policy("montecarlo")(view, state.legal_actions(), Rng(3))) is not A.Drop
    bot = StrongBot()
    assert bot.own.pot_shared and not bot.dropper.pot_shared  # the others' model counts as montecarlo
    assert type(bot(view, state.legal_actions(), Rng(3))) is A.Drop
    judged = bot.judged
    assert judged is not None and 0.5 < judged.wins < 0.75
    assert judged.drop == pytest.approx(2 * judged.wins - 1)  # every drop is won (+1) or caught (-1)


def test_the_bots_own_model_drops_only_for_a_gain_above_its_margin() -> None:
    """A drop that gains 0.44 stakes on average (a count of 28 against five unseen cards): the
    others' model takes it; the model of the bot's own seat, which leaves half a stake for what
    playing on is worth (OWN_MARGIN), keeps the hand."""
    state = deal(load_ruleset("standard"), 2, seed=2)
    me = state.current_player()
    state.set_hand(me, _ids(state, "2C 4D 6H 7S 9C"))
    view = View(state, me)
    assert 0 < drop_value(view, Rng(1), DROPPER_SAMPLES) < OWN_MARGIN
    assert type(Dropper()(view, state.legal_actions(), Rng(1))) is A.Drop
    assert type(Dropper(margin=OWN_MARGIN)(view, state.legal_actions(), Rng(1))) is not A.Drop


def test_the_bots_own_seat_is_played_by_its_own_model_in_the_rollouts() -> None:
    state = deal(load_ruleset("standard"), 2, seed=5)
    me = state.current_player()
    bot = StrongBot(rollouts=16)
    asked: dict[str, set[int]] = {"own": set(), "others": set()}

    def spy(model: Dropper, name: str) -> Dropper:
        class Spy(Dropper):
            def __call__(self, view: View, legal: Any, rng: Rng) -> A.Action:
                asked[name].add(view.seat)
                return super().__call__(view, legal, rng)
        return Spy(model.samples, model.margin, model.base)

    bot.own, bot.dropper = spy(bot.own, "own"), spy(bot.dropper, "others")
    assert bot.own.margin == OWN_MARGIN and bot.dropper.margin == 0
    bot(View(state, me), state.legal_actions(), Rng(2))
    assert asked["own"] == {me} and me not in asked["others"]


@pytest.mark.parametrize("name", ["standard", "pushups"])  # money, and points on a score sheet
def test_the_montecarlo_bot_drops_a_low_hand_and_keeps_a_high_one(name: str) -> None:
    state = deal(load_ruleset(name), 2, seed=2)
    me = state.current_player()
    montecarlo = policy("montecarlo")
    for hand, drops in (("AC AD 2C 2D 3H", True), ("KC KD QC QH JS", False)):
        state.set_hand(me, _ids(state, hand))
        assert A.Drop() in state.legal_actions()
        chosen = montecarlo(View(state, me), state.legal_actions(), Rng(1))
        assert (type(chosen) is A.Drop) is drops, hand


def test_the_montecarlo_bot_knocks_where_a_last_round_follows_the_knock() -> None:
    """In hoyle-tunk a knock comes after the draw, then the discard and a round for the others:
    no world ends at the knock, so the worlds are played on to their end. Judged only by the
    worlds a knock ends at once (as the model players of the strong bot still judge), a knock
    there is worth nothing and montecarlo never knocked; played on, a knock with 1 unmatched
    after the discard is worth some 30 points against a hand dealt at random, and it knocks."""
    rs = load_ruleset("hoyle-tunk")
    state = deal(rs, 2, seed=2)
    me = state.current_player()
    state.apply(A.DrawStock())
    state.set_hand(me, _ids(state, "3C 4C 5C 6D 6H 6S AH KD"))
    assert A.Drop() in state.legal_actions()
    view = View(state, me)
    assert drop_value(view, Rng(1), 24) == 0.0
    assert drop_value(view, Rng(1), 24, play_on=True) > 10
    assert type(policy("montecarlo")(view, state.legal_actions(), Rng(1))) is A.Drop


def test_a_drop_no_world_ends_is_judged_on_one_world() -> None:
    """Whether a drop ends the hand at once is public: where it does not (hoyle-tunk's knock is
    followed by the discard and a last round), the worlds stop at the first, not dealt in vain."""
    from tonkdsl.tools.bots import drop_outcomes

    rs = load_ruleset("hoyle-tunk")
    state = deal(rs, 2, seed=2)
    me = state.current_player()
    state.apply(A.DrawStock())
    state.set_hand(me, _ids(state, "3C 4C 5C 6D 6H 6S AH KD"))
    view = View(state, me)
    rng, one = Rng(1), Rng(1)
    assert list(drop_outcomes(view, rng, 16)) == []
    view.determinize(one)  # one world dealt, no more
    assert rng.next_u64() == one.next_u64()
    # In standard every world a drop is judged on ends at once: all of them are dealt.
    state = deal(load_ruleset("standard"), 2, seed=3)
    assert len(list(drop_outcomes(View(state, state.current_player()), Rng(1), 16))) == 16


def test_the_default_budget_stops_when_its_rollouts_have_played_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default search stops once its rollouts have played DEFAULT_WORK actions (at a world's
    end, every legal action played in each world so far), well short of its most rollouts; a
    budget given in rollouts plays them all; the same seed, the same choice."""
    import tonkdsl.tools.strong as S

    monkeypatch.setattr(S, "DEFAULT_WORK", 400)
    state = deal(load_ruleset("washington-state"), 2, seed=5)
    me = state.current_player()
    legal = state.legal_actions()
    assert len(legal) > 1
    choices, played = [], []
    for _ in range(2):
        bot = StrongBot()
        choices.append(bot(View(state, me), legal, Rng(7)))
        played.append(bot.stats.actions)
        assert 400 <= bot.stats.actions and bot.stats.rollouts < default_rollouts(5) // 4
    assert choices[0] == choices[1] and played[0] == played[1]
    given = StrongBot(rollouts=64)
    given(View(state, me), legal, Rng(7))
    assert given.stats.rollouts >= 64 - len(legal)  # every rollout of the budget, whatever they play


def test_the_default_work_falls_with_every_player_at_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rollout action costs about twice as much at four players as at two (benchmarks/bench_cost.py):
    the default search plays half as many actions there, and as many as ever between two."""
    import tonkdsl.tools.strong as S

    assert [default_work(n) for n in (2, 3, 4, 6)] == [12_000, 8_000, 6_000, 4_000]
    monkeypatch.setattr(S, "DEFAULT_WORK", 400)
    state = deal(load_ruleset("washington-state"), 4, seed=5)
    me = state.current_player()
    legal = state.legal_actions()
    bot = StrongBot()
    bot(View(state, me), legal, Rng(7))
    # It stops at the end of the first world past 200 actions (every legal action played in it),
    # where the two-player work would have taken it past 400.
    assert 200 <= bot.stats.actions < 400, bot.stats.actions


def test_an_action_replaces_the_habit_only_for_a_clear_gain() -> None:
    habit_values = [0.0, 1.0, -1.0, 0.0] * 5
    noisy = [v + d for v, d in zip(habit_values, [1.2, -1.0] * 10)]  # +0.1 on average: not clear
    clear = [v + 0.5 for v in habit_values]  # better by 0.5 in every world
    alike = [1.0] * 20
    assert _clear_gain([habit_values, noisy], alike, 0, [1], 20) == 0
    assert _clear_gain([habit_values, noisy, clear], alike, 0, [1, 2], 20) == 2


def test_the_worlds_weights_decide_which_action_gains() -> None:
    # The other action is better by 1 in the first ten worlds and worse by 1 in the last ten:
    # alike, no gain; with the first ten worlds far likelier (the record's odds), a clear one.
    habit_values = [0.0] * 20
    other = [1.0] * 10 + [-1.0] * 10
    assert _clear_gain([habit_values, other], [1.0] * 20, 0, [1], 20) == 0
    assert _clear_gain([habit_values, other], [1.0] * 10 + [0.01] * 10, 0, [1], 20) == 1
    assert _mean(other, [1.0] * 10 + [0.0] * 10, 20) == 1.0


def test_a_paired_gain_has_the_standard_error_of_its_mean() -> None:
    # Differences 1, 0, 1, 0: the mean 0.5, their standard deviation sqrt(1/3), its error over
    # four worlds sqrt(1/3) / 2; a world of weight 0 counts for nothing, and only the first n count.
    mean, spread = _paired_gain([1.0, 0.0, 1.0, 0.0, 9.0], [0.0] * 5, [1.0] * 5, 4)
    assert mean == 0.5 and spread == pytest.approx(math.sqrt(1 / 3) / 2)
    assert _paired_gain([1.0, 0.0, 5.0], [0.0] * 3, [1.0, 1.0, 0.0], 3)[0] == 0.5


def _drop_hand(rs_name: str, seed: int) -> State:
    """A hand of two players that the first player to act ends by dropping."""
    state = deal(load_ruleset(rs_name), 2, seed=seed)
    state.apply(A.Drop())
    assert state.is_terminal()
    return state


def test_the_strong_bot_learns_who_drops_early_from_the_hands_it_sees_end() -> None:
    from tonkdsl.interpreter.greedy import DROP_AT
    from tonkdsl.tools.bots import tell_hand_over

    bot = StrongBot(rollouts=8)
    assert bot.dropper_share(0) == bot.dropper_share(1) == 0.5  # nothing seen: half and half
    early = low = 0
    for seed in range(40):
        state = _drop_hand("standard", seed)
        dropper = state.dropper
        assert dropper is not None
        seat = 1 - dropper  # the bot sits in the other seat and sees the drop
        tell_hand_over([bot if s == seat else None for s in range(2)], state)
        if state.outcome().counts[dropper] > DROP_AT:  # type: ignore[union-attr]
            early += 1
        else:
            low += 1
    assert early > 10
    seen = [bot.drops_seen.get(s, [0, 0]) for s in range(2)]
    assert sum(t[1] for t in seen) == early and sum(t[0] for t in seen) == low
    for s, (low_s, high_s) in bot.drops_seen.items():  # the seat that acts first
        assert bot.dropper_share(s) == (high_s + 1) / (low_s + high_s + 2) > 0.6
    # Its own drops teach it nothing; a seat seen dropping only low stays at half and half.
    own = StrongBot(rollouts=8)
    state = _drop_hand("standard", 0)
    tell_hand_over([own if s == state.dropper else None for s in range(2)], state)
    assert own.drops_seen == {}
    own.drops_seen[1] = [5, 0]
    assert own.dropper_share(1) == 0.5


def test_bots_that_learn_are_the_same_whatever_the_workers_and_their_own_in_each_sitting() -> None:
    from tonkdsl.tools import tournament as tour
    from tonkdsl.tools.bots import new_policy

    assert new_policy("strong") is not new_policy("strong")  # each sitting's bots are new
    assert policy("strong") is policy("strong")
    one = tour.run("standard", ["strong:12", "montecarlo"], 12, seed=2, workers=1)
    two = tour.run("standard", ["strong:12", "montecarlo"], 12, seed=2, workers=2)
    assert one.matches == two.matches and one.ratings == two.ratings


def test_a_games_bots_learn_from_its_hands_and_again_when_it_is_loaded(tmp_path: Path) -> None:
    from tonkdsl.tools.play import new_game, resume_game

    save = tmp_path / "game.yaml"
    game = new_game("standard", players=2, bots=["strong:8"], stake=1, hands=4, seed=3, save=save)
    seen = 0
    for _ in range(3):
        state = game.start_hand()
        if not state.is_terminal():
            game.apply(state.current_player(), A.Drop())  # whoever is to act drops: the hand ends
        seen += state.dropper == 0  # the person's drops are the ones the bot (seat 1) sees
        game.finish_hand()
    bot = game.bot(1)
    assert isinstance(bot, StrongBot) and sum(map(sum, bot.drops_seen.values())) == seen >= 1
    loaded = resume_game(save).bot(1)  # a new bot, shown the ends of the hands played
    assert isinstance(loaded, StrongBot) and loaded is not bot and loaded.drops_seen == bot.drops_seen




def test_the_room_benchmarks_bot_is_told_the_hands_only_where_a_drop_is_open() -> None:
    """benchmarks/bench_room.py measures what knowing the others' hands at drop decisions is worth
    (docs/strong-bot.md, "Where the room is"): its bot's worlds there hold the real hands and the real
    stock's cards in another order; elsewhere they are the strong bot's own guesses."""
    room = benchmark_module("bench_room")
    state = deal(load_ruleset("standard"), 2, seed=2)
    me = state.current_player()
    view, other = View(state, me), 1 - me
    told = room.ToldBot()
    told.drop_open = True
    worlds = list(told.worlds(view, Rng(1), 5, 64))
    assert len(worlds) == 5
    assert all(w.hands == state.hands and sorted(w.stock) == sorted(state.stock) for w in worlds)
    assert any(w.stock != state.stock for w in worlds)  # it is not told what it will draw
    told.drop_open = False
    guessed = list(told.worlds(view, Rng(1), 5, 64))
    assert [w.hands for w in guessed] == [w.hands for w in StrongBot().worlds(view, Rng(1), 5, 64)]
    assert any(sorted(w.hands[other]) != sorted(state.hands[other]) for w in guessed)
    assert type(told(view, state.legal_actions(), Rng(3))) in {type(a) for a in state.legal_actions()}


def test_the_room_benchmarks_signal_weighs_the_worlds_by_a_noisy_count() -> None:
    """bench_room.py --signal SIGMA (docs/strong-bot.md, "How sharp a reading the goal needs"): the
    copy weighs its worlds by the other's count told with a normal error of SIGMA points, on top of
    the bot's own reading; the same error at the same point of the same deal."""
    room = benchmark_module("bench_room")
    state = deal(load_ruleset("standard"), 2, seed=2)
    me = state.current_player()
    view, other = View(state, me), 1 - me
    values = view.pack.values
    real = sum(values[c] for c in state.hands[other])
    worlds = list(StrongBot().worlds(view, Rng(1), 64, 64))
    counts = [sum(values[c] for c in w.hands[other]) for w in worlds]
    exact = room.SignalBot(0.0).world_odds(view)
    assert exact is not None
    weights = [exact(w) for w in worlds]
    nearest = min(abs(c - real) for c in counts)
    best = max(range(len(worlds)), key=weights.__getitem__)
    assert abs(counts[best] - real) == nearest  # told exactly: the world nearest the real count weighs most
    assert all(weights[i] <= weights[best] for i in range(len(worlds)))
    far = [weights[i] for i in range(len(worlds)) if abs(counts[i] - real) > nearest + 5]
    assert far and max(far) < 1e-6 * weights[best]
    loose = room.SignalBot(1e9).world_odds(view)  # an error of a billion points: the bot's reading,
    reading = StrongBot().world_odds(view)        # times the same factor in every world
    assert loose is not None
    ratios = [loose(w) / (reading(w) if reading is not None else 1.0) for w in worlds]
    assert all(r == pytest.approx(ratios[0], rel=1e-6) for r in ratios)
    again = room.SignalBot(8.0).world_odds(view)
    eight = room.SignalBot(8.0).world_odds(view)
    assert again is not None and eight is not None and [again(w) for w in worlds] == [eight(w) for w in worlds]


def test_the_room_benchmark_scores_chances_by_brier_and_auc() -> None:
    room = benchmark_module("bench_room")
    noted = [(0.9, True), (0.8, True), (0.8, False), (0.3, False), (0.1, True)]
    assert room.brier(noted) == pytest.approx((0.01 + 0.04 + 0.64 + 0.09 + 0.81) / 5)
    # wins 0.9, 0.8, 0.1 against losses 0.8, 0.3: (1 + 1) + (0.5 + 1) + (0 + 0) of 6 pairs
    assert room.auc(noted) == pytest.approx(3.5 / 6)
    assert math.isnan(room.auc([(0.5, True), (0.4, True)]))  # no loss to rank the wins against


def test_the_reading_benchmark_scores_each_reading_at_each_drop_decision() -> None:
    """benchmarks/bench_reading.py (docs/strong-bot.md, "Where the room is") judges the readings of the
    record at montecarlo's drop decisions (the weights themselves: tests/test_reading.py)."""
    reading = benchmark_module("bench_reading")
    rows, figures = reading._part(("standard", "greedy", 0, 3, 16, 0.2, 6.0, 3))
    assert rows and all(len(r) == 1 + len(reading.READINGS) and all(0.0 <= x <= 1.0 for x in r) for r in rows)
    assert {r[0] for r in rows} <= {0.0, 1.0}  # the truth: the drop won or it did not
    assert len(figures) == len(rows) and all(len(f) == len(reading.FIGURES) for f in figures)
    held, mine = figures[0][:2]
    assert held == mine == 5  # the first drop decision comes before anyone draws a card
    scores = reading.scores(rows)  # what --json prints of them
    assert list(scores) == list(reading.READINGS)
    assert scores["whole record"]["brier"] == pytest.approx(sum((r[3] - r[0]) ** 2 for r in rows) / len(rows))
    assert scores["uniform"]["against_uniform"] == {"mean": 0.0, "low": 0.0, "high": 0.0}


def test_the_reading_benchmarks_fit_finds_what_a_known_model_put_in() -> None:
    """bench_reading.py --fit (docs/strong-bot.md, "How sharp a reading the goal needs"): the
    logistic fit recovers the coefficients of data drawn from a known logistic model, and its
    cross-validated chances tell the outcomes apart as the model's own would."""
    import numpy as np

    reading = benchmark_module("bench_reading")
    rng = np.random.default_rng(5)
    x = rng.normal(size=(4000, 2))
    truth = 1 / (1 + np.exp(-(0.5 + 2.0 * x[:, 0] - 1.0 * x[:, 1])))
    y = (rng.random(4000) < truth).astype(float)
    w = reading.logistic_fit(x, y)
    assert w == pytest.approx([0.5, 2.0, -1.0], abs=0.15)
    chances = reading.cross_validated(x, y)
    won = [bool(t) for t in y]
    assert len(chances) == 4000 and all(0 < c < 1 for c in chances)
    assert reading.auc(list(zip(chances, won))) == pytest.approx(reading.auc(list(zip(truth, won))), abs=0.005)
    rows = [(t, *(c, c, 0.5, 1 - c)) for t, c in zip(y, truth)]  # readings: the truth twice, none, its opposite
    report = reading.fit_report(rows, [tuple(r) for r in x])
    assert report["uniform"]["auc"] == report["last discard"]["auc"] == pytest.approx(1 - report["record, drops by card"]["auc"])
    assert report["whole record"]["auc"] == 0.5 and report["whole record"]["brier"] == pytest.approx(0.25)
    # Recalibrated, the opposite reading is as good as the truth; the fit on all of it as well.
    assert report["record, drops by card"]["recalibrated"] == pytest.approx(report["uniform"]["recalibrated"], abs=0.002)
    assert report["fit"]["auc"] == pytest.approx(report["uniform"]["auc"], abs=0.005)


def test_the_calibration_benchmark_notes_each_drop_decision_with_what_came_of_it() -> None:
    """benchmarks/bench_calibration.py (docs/strong-bot.md, "Reading the whole record, and the bot's own
    model") sets the search's judgement of a drop beside what a drop would really have done."""
    calibration = benchmark_module("bench_calibration")
    state = deal(load_ruleset("standard"), 2, seed=2)
    me = state.current_player()
    bot = calibration.Watched()
    bot.rollouts = 16
    view = View(state, me)
    assert A.Drop() in state.legal_actions()
    action = bot(view, state.legal_actions(), Rng(1))
    judged = bot.judged
    assert judged is not None and 0.0 <= judged.wins <= 1.0
    state.apply(A.Drop())  # the hand ends with that drop: what it did is its worth too
    outcome = state.outcome()
    assert outcome is not None
    bot.hand_over(View(state, me), outcome)
    (row,) = bot.rows
    assert row["won"] == (outcome.payouts[me] > 0) and row["dropped"] == (type(action) is A.Drop)
    assert row["drop"] == judged.drop and row["play"] == judged.play
    assert row["paid"] == outcome.payouts[me]  # what the drop paid the bot, in stakes
    out = calibration.report([{**row, "wins": 0.85, "won": True, "dropped": True, "worth": 1.0},
                              {**row, "wins": 0.81, "won": False, "dropped": False, "play": 0.1, "worth": -2.0,
                               "paid": 1.0}])
    assert out["drops"]["n"] == 1 and out["chance"] == [
        {"from": 0.8, "to": 0.9, "n": 2, "expected": pytest.approx(0.83), "won": 0.5, "dropped": 1}]
    assert out["play_on"] == [{"about": 0.0, "n": 1, "expected": 0.1, "realized": -2.0}]
    # Where it played on, the drop would have paid 1 and the hand ended at -2: a bolder bot wins.
    assert out["played_on_by_chance"] == [{"from": 0.8, "to": 0.9, "n": 1, "realized": -2.0, "drop_would_pay": 1.0}]
    # A close call: the drop and playing on within one (two) standard errors of the search's noise.
    assert row["spread"] == judged.spread > 0
    close = calibration.report([{**row, "drop": 0.2, "play": 0.15, "spread": 0.06},
                                {**row, "drop": 0.2, "play": 0.1, "spread": 0.06},
                                {**row, "drop": -0.5, "play": 0.1, "spread": 0.06}])["close_calls"]
    assert close["within_one"] == 1 and close["within_two"] == 2
    # Settling a call is worth the most where it is closest, and nothing where there is no noise.
    settle = calibration.settling_worth
    assert close["settling_worth"] == pytest.approx(settle(0.05, 0.06) + settle(0.1, 0.06) + settle(-0.6, 0.06))
    assert settle(0.0, 0.06) == pytest.approx(0.06 / math.sqrt(2 * math.pi)) and settle(0.3, 0.0) == 0.0
    assert settle(0.05, 0.06) > settle(0.1, 0.06) > settle(-0.6, 0.06) > 0


def test_the_benchmarks_that_play_deals_refuse_no_deals_or_workers_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    """bench_calibration, bench_endings and bench_room share their arguments (duplicate.py): no
    deals or no workers is a usage error, not a traceback from an empty match."""
    import argparse

    duplicate = benchmark_module("duplicate")
    ap = argparse.ArgumentParser(prog="bench")
    duplicate.sitting_arguments(ap, "greedy", "the bot it plays against")
    assert ap.parse_args(["chicago", "--deals", "5"]).deals == 5
    for wrong, said in ((["--deals", "0"], "argument --deals: '0': give 1 or more"),
                        (["--workers", "two"], "argument --workers: 'two': give a whole number, 1 or more")):
        with pytest.raises(SystemExit) as stop:
            ap.parse_args(wrong)
        assert stop.value.code == 2 and said in capsys.readouterr().err


def test_the_endings_benchmark_splits_the_tournaments_margin_by_ending_and_winner() -> None:
    """benchmarks/bench_endings.py (docs/strong-bot.md, "Where the margin comes from") sorts a match's
    hands by ending and winner; its rows add up to the margin `tonk tournament` counts."""
    from tonkdsl.tools.bots import new_policy
    from tonkdsl.tools.tournament import play_deals

    endings = benchmark_module("bench_endings")
    part = endings._sitting(("standard", "greedy", "montecarlo", 7, 0, 6))
    out = endings.report([part], 6)
    margins = play_deals(load_ruleset("standard"), new_policy("greedy"), new_policy("montecarlo"), 7, 0, 6)
    assert out["margin_per_deal"] == pytest.approx(sum(a + b for a, b in margins) / 2 / 6)
    assert sum(e["hands"] for e in out["endings"]) == 12
    assert sum(e["margin_per_deal"] for e in out["endings"]) == pytest.approx(out["margin_per_deal"])
    # Each drop either won or was caught, and a caught drop is won by the other side.
    caught = {e["won_by"]: e["hands"] for e in out["endings"] if e["end"] == "drop_caught"}
    won = {e["won_by"]: e["hands"] for e in out["endings"] if e["end"] == "drop_won"}
    assert out["drops"]["bot"] == {"drops": won.get("bot", 0) + caught.get("opponent", 0), "won": won.get("bot", 0)}
    assert out["drops"]["opponent"] == {"drops": won.get("opponent", 0) + caught.get("bot", 0),
                                        "won": won.get("opponent", 0)}
    assert out["drops"]["opponent"]["drops"] > 0  # montecarlo drops in six deals of standard
    # Two parts' hands add up.
    assert endings.report([part, part], 12)["margin_per_deal"] == pytest.approx(out["margin_per_deal"])


def test_the_bot_keeps_its_judgement_of_a_drop_only_where_one_was_open() -> None:
    state = deal(load_ruleset("standard"), 2, seed=2)
    bot = StrongBot(rollouts=16)
    me = state.current_player()
    bot(View(state, me), state.legal_actions(), Rng(1))
    assert bot.judged is not None
    state.apply(A.DrawStock())
    bot(View(state, me), state.legal_actions(), Rng(1))  # after the draw: discards only
    assert bot.judged is None


def _discard_decision(hand: str) -> tuple[State, int]:
    """A standard hand of two at ``hand``'s holder's discard (six cards, none in a spread)."""
    state = deal(load_ruleset("standard"), 2, seed=2)
    me = state.current_player()
    state.apply(next(a for a in state.legal_actions() if type(a) is A.DrawStock))
    state.set_hand(me, _ids(state, hand))
    return state, me


def test_the_habit_lets_a_high_card_of_a_partial_spread_go_before_a_much_lower_loose_card() -> None:
    state, me = _discard_decision("KC KD 4S 2H AC 3D")
    view, legal = View(state, me), state.legal_actions()
    assert str(greedy_bot(view, legal, Rng(1))) == "discard 4S"  # never breaks the pair while 4S is loose
    assert str(habit_bot(view, legal, Rng(1))) == "discard KC"  # a king less KEEP_BONUS still beats a four
    state, me = _discard_decision("7C 7D 6S 2H AC 3D")
    assert str(habit_bot(View(state, me), state.legal_actions(), Rng(1))) == "discard 6S"  # 7 - 3 < 6: the pair stays


@pytest.mark.parametrize("hand, top, takes", [
    ("KC QD 9S 8H 7C", "3D", True),   # worth TAKE_AT or less, and cards worth more are held
    ("KC QD 9S 8H 7C", "5D", False),  # worth more than TAKE_AT: from the stock, as the greedy player
    ("AC 2D 3S AH 2S", "4D", False),  # nothing held is worth more
])
def test_the_habit_takes_a_low_top_discard(hand: str, top: str, takes: bool) -> None:
    state = deal(load_ruleset("standard"), 2, seed=2)
    me = state.current_player()
    state.set_hand(me, _ids(state, hand))
    state.discard_pile[-1] = state.card_id(top)
    plays = [a for a in state.legal_actions() if type(a) is not A.Drop]  # the search asks it without the drop
    assert {A.DrawStock, A.DrawDiscard} <= {type(a) for a in plays}
    assert TAKE_AT == 4 and KEEP_BONUS == 3
    chosen = habit_bot(View(state, me), plays, Rng(1))
    assert type(chosen) is (A.DrawDiscard if takes else A.DrawStock)
    assert type(greedy_bot(View(state, me), plays, Rng(1))) is A.DrawStock


def test_the_bots_habit_and_its_own_seats_model_are_the_habit_the_others_greedy() -> None:
    bot = StrongBot()
    assert bot.own.base is habit_bot and bot.dropper.base is greedy_bot


def test_bench_cost_measures_the_default_budget_at_each_table_size(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/bench_cost.py: a row for each table size the ruleset seats (a size it does not
    seat is left out), the work of docs/play.md in its figures, and a plain error for a misspelt
    ruleset or bot."""
    import json

    cost = benchmark_module("bench_cost")
    assert cost.main(["standard", "--players", "4,13", "--hands", "1", "--opponent", "greedy", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (row,) = report["rows"]  # standard seats at most 12
    assert row["players"] == 4 and row["hands"] == 1 and row["decisions"] >= 1
    assert 0 < row["ms_per_decision"] <= row["slowest_ms"] + 1e-9
    # Each decision stops at the end of the first world past its work (or at its most rollouts):
    # at four players past 6,000 actions, not 12,000.
    assert 0 < row["actions_per_decision"] <= default_work(4) + 1_000
    # No decision made: no figure a decision (null in --json), not a time of 0.
    empty = cost.measure("standard", 2, 0, "greedy", 0)
    assert empty["decisions"] == 0 and empty["ms_per_decision"] is None and empty["us_per_action"] is None
    with pytest.raises(SystemExit) as stop:
        cost.main(["stnadard", "--hands", "1"])
    assert stop.value.code == 2
    assert "no shipped ruleset is called 'stnadard' (did you mean 'standard'?)" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        cost.main(["standard", "--opponent", "montecarol", "--hands", "1"])
    assert stop.value.code == 2
    assert "--opponent: unknown bot 'montecarol' (did you mean 'montecarlo'?)" in capsys.readouterr().err
