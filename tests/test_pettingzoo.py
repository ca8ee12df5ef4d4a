"""Any ruleset as a PettingZoo AEC environment: PettingZoo's own checks, the seeded deal, what a
player sees, and rewards that are the hand's money in stakes."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs the 'pettingzoo' extra")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from tonkdsl.tools.pettingzoo_env import env, raw_env  # noqa: E402

TESTS = Path(__file__).resolve().parent
RULESETS = [("standard", 2), ("hoyle-tunk", 3), ("chicago", 3),
            (str(TESTS / "rulesets" / "eating-and-pot.yaml"), 3),  # eating, and a pot that carries over
            (str(TESTS / "variations" / "x30-partners.yaml"), 4)]  # partners: a side's money


@pytest.mark.parametrize("ruleset, players", RULESETS, ids=[Path(r).stem for r, _ in RULESETS])
def test_pettingzoos_api_test_passes(ruleset: str, players: int) -> None:
    with warnings.catch_warnings():  # its advice for Dict observations, as on its own card games
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(ruleset=ruleset, players=players), num_cycles=400, verbose_progress=False)
        seed_test(lambda: env(ruleset=ruleset, players=players), num_cycles=200)


def _play(e: raw_env, seed: int, pick: str = "random") -> tuple[list[str], dict[str, float]]:
    """A hand played to its end, each agent taking a random legal action but a drop (seeded), or
    its last legal action."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    played, total = [], {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_iter=5_000):
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        quiet = [a for a in legal if e.unwrapped.action_text(int(a)) != "drop"] or list(legal)  # hands that last
        action = int(rng.choice(quiet) if pick == "random" else legal[-1])
        played.append(f"{agent} {e.unwrapped.action_text(action)}")
        e.step(action)
    return played, total


def test_the_deal_is_seeded_and_money_is_zero_sum() -> None:
    e = env(ruleset="standard", players=3)
    a, money = _play(e, 11)
    b, again = _play(e, 11)
    c, _ = _play(e, 12)
    assert a == b and money == again and a != c
    assert len(a) > 3 and a[0].startswith("player_0 ")  # the dealer's left plays first
    assert sum(money.values()) == pytest.approx(0.0) and any(money.values())


def test_rewards_are_the_hands_money_in_stakes() -> None:
    one, two = env(ruleset="standard", players=2, stake=1), env(ruleset="standard", players=2, stake=3)
    _, money = _play(one, 5, "last")
    _, money3 = _play(two, 5, "last")
    assert money == money3  # in stakes, whatever the stake


def test_an_agent_sees_its_own_hand_and_not_the_others() -> None:
    e = raw_env(ruleset="standard", players=2)
    e.reset(seed=3)
    st = e.state
    names = st.pack.names
    mine, theirs = e.observe("player_0"), e.observe("player_1")
    width = len(e.index)
    offset = 2 * 2  # player, to_play
    hand0 = mine["observation"][offset:offset + width]
    assert {n for n, i in e.index.items() if hand0[i]} == {names[c] for c in st.hands[0]}
    assert hand0.sum() == len(st.hands[0])
    hand1 = theirs["observation"][offset:offset + width]
    assert {n for n, i in e.index.items() if hand1[i]} == {names[c] for c in st.hands[1]}
    assert mine["action_mask"].any() and not theirs["action_mask"].any()  # player_0 is to move


def test_an_illegal_action_is_refused_with_its_words() -> None:
    e = raw_env(ruleset="standard", players=2)
    e.reset(seed=3)
    illegal = int(np.flatnonzero(e.observe("player_0")["action_mask"] == 0)[20])
    with pytest.raises(ValueError, match=r"player_0 may not play '.*' now \(see the observation's action_mask\)"):
        e.step(illegal)


def test_the_training_example_learns_to_beat_random() -> None:
    import subprocess
    import sys

    example = TESTS.parent / "examples" / "train_pettingzoo.py"
    done = subprocess.run([sys.executable, str(example), "--minutes", "0.05", "--eval", "400", "--seed", "3"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("against random, 400 hands, seats alternating: +") and last.endswith("(beats random)"), last
