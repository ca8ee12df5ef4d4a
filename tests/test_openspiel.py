"""Rulesets as OpenSpiel games (tonkdsl/tools/openspiel.py): OpenSpiel's own random simulation
test on shipped rulesets and one with eating and a pot; no hidden card in any observation or
information state; action strings are scenario strings; states pickle and resample; OpenSpiel's
information-set MCTS plays a hand, with random rollouts or with the adapter's BotRolloutEvaluator."""
from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the 'openspiel' extra")
from tonkdsl.tools import openspiel as T  # noqa: E402
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
    # played on through the adapter's action ids by greedy bots in every seat.
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
            value = evaluator.evaluate(state)
            twin, greedy = state.clone(), T.TonkdslBot("greedy")
            while not twin.is_terminal():
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
