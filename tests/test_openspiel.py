"""Rulesets as OpenSpiel games (tonkdsl/tools/openspiel.py): OpenSpiel's own random simulation
test on shipped rulesets and one with eating and a pot; no hidden card in any observation or
information state; action strings are scenario strings; states pickle and resample; OpenSpiel's
information-set MCTS plays a hand."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the 'openspiel' extra")
from tonkdsl.tools import openspiel as T  # noqa: E402
from conftest import TESTS  # noqa: E402

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


def test_information_set_mcts_and_a_tonkdsl_bot_play_hands() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": "standard", "players": 2})
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=30, random_state=rng)
    bots = [search, T.TonkdslBot("greedy", seed=1)]
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                action = bots[state.current_player()].step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
        returns = state.returns()
        assert len(returns) == 2 and returns[0] == -returns[1]  # standard money: zero-sum


def test_no_other_tonkdsl_module_imports_openspiel() -> None:
    root = TESTS.parent / "tonkdsl"
    importing = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "openspiel.py" and ("import pyspiel" in p.read_text() or "open_spiel" in p.read_text())]
    assert importing == []


def test_the_example_in_the_docs_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (TESTS.parent / "docs" / "openspiel.md").read_text()
    example = text.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(example, "docs/openspiel.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) >= 2 and lines[-1].startswith("[") and lines[0].split()[0] in ("0", "1")
