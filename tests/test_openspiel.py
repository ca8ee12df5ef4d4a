"""Rulesets as OpenSpiel games (tonkdsl/tools/openspiel.py): OpenSpiel's own random simulation
test on shipped rulesets and one with eating and a pot; no hidden card in any observation or
information state; action strings are scenario strings; states pickle and resample; OpenSpiel's
information-set MCTS plays a hand, with random rollouts or with the adapter's BotRolloutEvaluator."""
from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the 'openspiel' extra")
from tonkdsl.tools import openspiel as T  # noqa: E402
from tonkdsl.language.rng import Rng, derive_seed  # noqa: E402
from conftest import TESTS, benchmark_module  # noqa: E402

EATING_POT = str(TESTS / "rulesets" / "eating-and-pot.yaml")
GAMES = [{"ruleset": "standard", "players": 2}, {"ruleset": "hoyle-tunk", "players": 3},
         {"ruleset": "chicago", "players": 2}, {"ruleset": EATING_POT, "players": 3},
         {"ruleset": "speno", "players": 4, "stake": 2}]


@pytest.mark.parametrize("params", GAMES, ids=lambda p: str(p["ruleset"]).rsplit("/", 1)[-1])
def test_openspiel_random_simulation_test_passes(params: dict[str, object]) -> None:
    game = pyspiel.load_game(T.SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)


def _random_states(game: object, seed: int, hands: int) -> list[object]:
    """Every decision state of ``hands`` random hands."""
    rng = np.random.RandomState(seed)
    out = []
    for _ in range(hands):
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            out.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
    return out


@pytest.mark.parametrize("params", GAMES[:4], ids=lambda p: str(p["ruleset"]).rsplit("/", 1)[-1])
def test_no_hidden_card_reaches_an_observation(params: dict[str, object]) -> None:
    # A world dealt again around what a player knows must look the same to that player in every
    # observation and information state, string and tensor; the others' hands do change, so a
    # hidden card in any of them would show.
    game = pyspiel.load_game(T.SHORT_NAME, params)
    sampler = np.random.RandomState(3)
    changed = 0
    for state in _random_states(game, seed=1, hands=6):
        for p in range(game.num_players()):
            other = state.resample_from_infostate(p, sampler.uniform)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            if p == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            changed += other.hand.state.hands != state.hand.state.hands
    assert changed > 10


def test_action_strings_are_scenario_strings_and_ids_are_fixed_for_card_actions() -> None:
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": "standard", "players": 2})
    table = game.setup.table
    assert [table.text[i] for i in range(3)] == ["drop", "draw stock", "draw discard"]
    assert table.id_of("discard 5S") < table.fixed and table.id_of("hit 8S on 1") < table.fixed
    for state in _random_states(game, seed=2, hands=3):
        engine = {str(a) for a in state.hand.state.legal_actions()}
        assert {state.action_to_string(state.current_player(), a) for a in state.legal_actions()} == engine
    spread = table.id_of("spread 5S 5H 5D")
    assert spread >= table.fixed and table.id_of("spread 5S 5H 5D") == spread


def test_a_state_pickles_as_its_history_and_plays_on_the_same() -> None:
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": "chicago", "players": 2})
    state = _random_states(game, seed=4, hands=1)[-1]
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    with pytest.raises(pickle.PicklingError, match="resample_from_infostate cannot be pickled"):
        pickle.dumps(state.resample_from_infostate(0, np.random.RandomState(0).uniform))


def test_a_player_who_is_not_in_the_rulesets_range_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="Big table is for 6 to 12 players, not 4"):
        pyspiel.load_game(T.SHORT_NAME, {"ruleset": "big-table", "players": 4})


def _play_hand(state: Any, bots: list[Any], rng: np.random.RandomState) -> list[int]:
    """Plays ``state`` to its end (the deal drawn from ``rng``, each player's bot otherwise);
    returns the players' actions, each checked legal."""
    played = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            played.append(action)
            state.apply_action(action)
    return played


def test_information_set_mcts_and_a_tonkdsl_bot_play_hands() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": "standard", "players": 2})
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=30, random_state=rng)
    bots = [search, T.TonkdslBot("greedy", seed=1)]
    for _ in range(3):
        state = game.new_initial_state()
        _play_hand(state, bots, rng)
        returns = state.returns()
        assert len(returns) == 2 and returns[0] == -returns[1]  # standard money: zero-sum


def test_the_bot_rollout_evaluator_plays_the_hand_out_as_the_bot_would_through_the_adapter() -> None:
    # The greedy bot ignores its random generator, so a rollout must end exactly as the hand
    # played on through the adapter's action ids by greedy bots in every seat, the same cards
    # coming from the stock.
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": "standard", "players": 2})
    rng = np.random.RandomState(3)
    evaluator = T.BotRolloutEvaluator("greedy", seed=5)
    bots = [T.TonkdslBot("greedy", seed=1), T.TonkdslBot("montecarlo", seed=2)]
    checked, nonzero = 0, 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            # The rollout's world: the stock's cards not decided yet shuffled by the rollout's
            # generator. The twin is dealt the same stock through its chance nodes.
            world = state.hand.world(Rng(derive_seed(5, evaluator.rollouts + 1)))
            to_come = iter(reversed(world.stock[:len(world.stock) - state.hand.decided]))
            value = evaluator.evaluate(state)
            twin, greedy = state.clone(), T.TonkdslBot("greedy")
            while not twin.is_terminal():
                if twin.is_chance_node():
                    twin.apply_action(game.setup.kind_of[next(to_come)])
                    continue
                twin.apply_action(greedy.step(twin))
            assert list(value) == pytest.approx(twin.returns())
            assert value[0] == -value[1]  # standard money: zero-sum
            prior = evaluator.prior(state)
            assert sorted(a for a, _ in prior) == state.legal_actions()
            assert sum(p for _, p in prior) == pytest.approx(1.0)
            checked += 1
            nonzero += value[0] != 0
            state.apply_action(bots[state.current_player()].step(state))
        assert list(evaluator.evaluate(state)) == state.returns()  # a finished hand: its returns
    assert checked > 20 and nonzero > 10


def test_information_set_mcts_with_greedy_rollouts_plays_the_same_for_the_same_seed() -> None:
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": "chicago", "players": 2})

    def one_hand(seed: int) -> list[int]:
        rng = np.random.RandomState(seed)
        search = ismcts.ISMCTSBot(game, T.BotRolloutEvaluator("greedy", seed=seed), uct_c=2.0,
                                  max_simulations=40, random_state=np.random.RandomState(seed))
        # OpenSpiel resamples with an unseeded sampler unless given a resampler.
        sampler = np.random.RandomState(seed + 1).random_sample
        search.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
        return _play_hand(game.new_initial_state(), [search, T.TonkdslBot("montecarlo", seed=seed)], rng)

    assert one_hand(11) == one_hand(11)


def test_the_openspiel_benchmark_seeds_information_set_mcts_and_stops_at_a_misspelt_bot(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    bench = benchmark_module("bench_openspiel")
    first, again = (bench._deals(("chicago", "greedy", "ismcts:8:greedy", 3, 0, 6))["margins"] for _ in range(2))
    assert len(first) == 12 and first == again  # the same seed, the same play
    run = bench.bench("chicago", "greedy", "ismcts:6", 4, 3, 1)  # random rollouts, through the pool
    assert run["opponent"] == "ismcts:6" and run["hands"] == 4
    monkeypatch.setattr("sys.argv", ["bench_openspiel.py", "--opponents", "random,ismcts:10:greedyy"])
    with pytest.raises(SystemExit) as stopped:
        bench.main()
    assert stopped.value.code == 2
    assert ("ismcts:10:greedyy: unknown bot 'greedyy' (did you mean 'greedy'?)" in capsys.readouterr().err)


def test_the_cost_benchmark_plays_the_same_hands_natively_through_openspiel_and_on_the_floor(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    bench = benchmark_module("bench_openspiel")
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": "standard", "players": 2})
    scripts = bench._record(game, 6, "greedy", 3)
    # The floor replays python_tonk's nodes: as many player actions as the hands recorded.
    bench._SCRIPTS[:] = scripts
    floor_game = pyspiel.load_game("python_tonk_floor")
    n, _ = bench._floor(floor_game, len(scripts), "greedy")
    assert n == sum(1 for script in scripts for player, _, _ in script if player >= 0) > 6 * 10
    assert bench._through_openspiel(game, 6, "greedy", 3)[0] == n  # the same hands as recorded
    monkeypatch.setattr("sys.argv", ["bench_openspiel.py", "--cost", "--hands", "5", "--reps", "1", "--json"])
    bench.main()
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["playouts"] for r in rows] == ["random", "greedy"]
    assert all(r["ratio"] == pytest.approx(r["openspiel_us_per_action"] / r["native_us_per_action"], abs=0.01)
               for r in rows)


def test_no_other_tonkdsl_module_imports_openspiel() -> None:
    root = TESTS.parent / "tonkdsl"
    importing = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "openspiel.py" and ("import pyspiel" in p.read_text() or "open_spiel" in p.read_text())]
    assert importing == []


def test_the_example_in_the_docs_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (TESTS.parent / "docs" / "openspiel.md").read_text()
    example, search_with_greedy_rollouts = [block.split("```", 1)[0] for block in text.split("```python\n")[1:3]]
    names: dict[str, Any] = {}
    exec(compile(example, "docs/openspiel.md", "exec"), names)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) >= 2 and lines[-1].startswith("[") and lines[0].split()[0] in ("0", "1")
    exec(compile(search_with_greedy_rollouts, "docs/openspiel.md", "exec"), names)  # the second snippet
    state = names["game"].new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert names["search"].step(state) in state.legal_actions()


def test_the_answers_made_in_python_agree_with_openspiels_own_path() -> None:
    # TonkState answers current_player, legal_actions, chance_outcomes... in Python; OpenSpiel's
    # C++ State works them out through the adapter's hooks: both must say the same everywhere.
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": EATING_POT, "players": 3})
    rng = np.random.RandomState(8)
    seen = {"chance": 0, "player": 0}
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert pyspiel.State.legal_actions(state) == state.legal_actions()
            assert pyspiel.State.is_chance_node(state) == state.is_chance_node()
            assert pyspiel.State.is_player_node(state) == state.is_player_node()
            assert pyspiel.State.legal_actions_mask(state) == [
                int(a in state.legal_actions()) for a in range(len(pyspiel.State.legal_actions_mask(state)))]
            if state.is_chance_node():
                seen["chance"] += 1
                outcomes, probs = zip(*state.chance_outcomes())
                assert list(outcomes) == state.legal_actions() and sum(probs) == pytest.approx(1.0)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                seen["player"] += 1
                assert state.chance_outcomes() == []
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert pyspiel.State.is_terminal(state) and state.legal_actions() == [] and state.current_player() < 0
    assert seen["chance"] > 40 and seen["player"] > 40


def _cards_of(st: Any) -> list[int]:
    cards = [c for h in st.hands for c in h] + list(st.stock) + list(st.discard_pile)
    return cards + [c for sp in st.spreads for c in sp.cards]


def test_the_stock_is_dealt_by_chance_as_its_cards_are_needed() -> None:
    # The hands and the upcard are chance outcomes before play; each card of the stock is one
    # just before a player may take it, uniform over the cards nobody has seen and no chance
    # outcome has fixed. A card drawn is the one chance decided, and only its drawer sees it.
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": "standard", "players": 2})
    rng = np.random.RandomState(5)
    draws = 0
    for _ in range(20):
        state = game.new_initial_state()
        dealt_nodes = 0
        while state.hand.state is None:
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            dealt_nodes += 1
        assert dealt_nodes == 11  # two hands of five and the upcard: not the whole pack
        decided = None
        while not state.is_terminal():
            st = state.hand.state
            assert sorted(_cards_of(st)) == list(range(52))  # every card somewhere, once
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                unseen = [c for c in st.stock[:len(st.stock) - state.hand.decided]]
                assert sorted(a for a, _ in outcomes) == sorted(game.setup.kind_of[c] for c in unseen)
                assert [p for _, p in outcomes] == pytest.approx([1 / len(unseen)] * len(unseen))
                decided = int(rng.choice([a for a, _ in outcomes]))
                assert state.action_to_string(pyspiel.PlayerId.CHANCE, decided).startswith("stock ")
                state.apply_action(decided)
                assert st.stock[-1] == game.setup.ids_of[decided][0]  # on top now
                continue
            player = state.current_player()
            legal = [state.action_to_string(player, a) for a in state.legal_actions()]
            text = "draw stock" if "draw stock" in legal and rng.random_sample() < 0.8 else legal[-1]
            top = st.stock[-1] if st.stock else None
            state.apply_action(game.setup.table.id_of(text))
            if text == "draw stock" and top is not None:
                draws += 1
                assert top in state.hand.state.hands[player]
                name = game.setup.names[top]
                assert f"({name})" in state.information_state_string(player)
                assert f"({name})" not in state.information_state_string(1 - player)
    assert draws > 30


def test_a_buy_s_penalty_cards_are_decided_ahead_and_a_rebuilt_stock_is_dealt_by_chance_again(
        tmp_path: Any) -> None:
    # Buying takes two penalty cards at once: two stock cards are decided before anyone acts (a
    # buy is out of turn, which OpenSpiel's game, one player at a time, does not offer). A stock
    # rebuilt from the discard pile is in an order nobody has decided: its cards are chance
    # outcomes again. OpenSpiel's own checks pass on both.
    rules = tmp_path / "buy-two.yaml"
    rules.write_text("extends: standard\nname: Buy two\nplayers: {min: 3, max: 4}\n"
                     "buying: {allowed: 'true', penalty: 2, limit: 2}\n")
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": str(rules), "players": 3})
    assert game.setup.ahead == 2
    pyspiel.random_sim_test(game, num_sims=15, serialize=False, verbose=False)

    rebuilt = tmp_path / "rebuilt.yaml"
    rebuilt.write_text("extends: standard\nname: Rebuilt\nstock: {exhausted: draw_from_empty, rebuild: 2}\n")
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": str(rebuilt), "players": 2})
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    chance_after_rebuild = 0
    while not state.is_terminal():  # everyone draws from the stock and throws the card drawn away
        if state.is_chance_node():
            chance_after_rebuild += state.hand.rebuilds > 0
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            continue
        player = state.current_player()
        legal = {state.action_to_string(player, a): a for a in state.legal_actions()}
        _, _, taken = state.hand.log[-1] if state.hand.log else (0, "", ())
        drawn = [t for t in legal if t.startswith("discard ")]
        choice = "draw stock" if "draw stock" in legal else next(
            (t for t in drawn if taken and t == f"discard {game.setup.names[taken[0]]}"), drawn[0])
        state.apply_action(legal[choice])
        assert sorted(_cards_of(state.hand.state)) == list(range(52))
    assert state.hand.state.rebuilds == 2 and chance_after_rebuild > 30
    assert state.hand.state.outcome().end == "stock_exhausted"
