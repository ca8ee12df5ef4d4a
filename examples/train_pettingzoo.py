"""Train a small policy on any ruleset through the PettingZoo environment, and play it against random.

    python examples/train_pettingzoo.py [--ruleset standard] [--minutes 3] [--eval 2000] [--seed 0]

Needs the 'pettingzoo' extra. The policy is linear over a few features of each legal action (its
kind, the value of the card it discards, the player's count when it drops, the cards a spread or
hit lays), softmax over the legal actions, trained with REINFORCE (a running-mean baseline) in
the seat of ``player_0`` against a uniformly random ``player_1``, on hands of two players. Then
it plays EVAL hands against random, seats alternating, and prints its mean return in stakes a
hand with a 95% interval. Numpy only: no deep-learning library.
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from tonkdsl.tools.pettingzoo_env import raw_env

KINDS = ("drop", "draw stock", "draw discard", "discard", "spread", "hit")
WIDTH = len(KINDS) + 4  # the kind, then: the discard's value, the count at a drop, cards laid, a bias


def features(env: raw_env, action: int, count: float) -> np.ndarray:
    text = env.action_text(action)
    f = np.zeros(WIDTH)
    kind = next((i for i, k in enumerate(KINDS) if text.startswith(k)), None)
    if kind is not None:
        f[kind] = 1.0
    words = text.split()
    if words[0] == "discard":
        f[len(KINDS)] = env.card_value(words[1]) / 10
    if words[0] == "drop":
        f[len(KINDS) + 1] = count / 10
    if words[0] in ("spread", "hit"):
        f[len(KINDS) + 2] = sum(1 for w in words[1:] if w not in ("on",) and not w.isdigit()) / 5
    f[-1] = 1.0
    return f


def choose(env: raw_env, obs: dict[str, np.ndarray], theta: np.ndarray | None, rng: np.random.Generator,
           seat: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    legal = np.flatnonzero(obs["action_mask"])
    if theta is None:
        return int(rng.choice(legal)), np.zeros(0), np.zeros(0), np.zeros(0)
    count = env.count_of(seat)
    feats = np.stack([features(env, int(a), count) for a in legal])
    logits = feats @ theta
    p = np.exp(logits - logits.max())
    p /= p.sum()
    k = int(rng.choice(len(legal), p=p))
    return int(legal[k]), feats[k], feats, p


def play(env: raw_env, theta: np.ndarray, learner: str, rng: np.random.Generator,
         trace: list[tuple[np.ndarray, np.ndarray, np.ndarray]] | None) -> float:
    env.reset()
    total = 0.0
    for agent in env.agent_iter(max_iter=10_000):
        obs, reward, term, trunc, _ = env.last()
        if agent == learner:
            total += reward
        if term or trunc:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        action, chosen, feats, p = choose(env, obs, theta if agent == learner else None, rng, seat)
        if trace is not None and agent == learner:
            trace.append((chosen, feats, p))
        env.step(action)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--eval", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rate", type=float, default=0.02)
    args = parser.parse_args()
    env = raw_env(ruleset=args.ruleset, players=2, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(WIDTH)
    baseline, hands = 0.0, 0
    stop = time.monotonic() + 60 * args.minutes
    while time.monotonic() < stop:
        trace: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        ret = play(env, theta, "player_0", rng, trace)
        advantage = ret - baseline
        baseline += 0.01 * (ret - baseline)
        for chosen, feats, p in trace:  # the gradient of log softmax: chosen features minus expected ones
            theta += args.rate * advantage * (chosen - p @ feats)
        hands += 1
        if hands % 2000 == 0:
            print(f"{hands:>7,} hands trained, running mean return {baseline:+.3f} stakes a hand", flush=True)
    print(f"trained on {hands:,} hands; weights: " + ", ".join(
        f"{name} {w:+.2f}" for name, w in zip([*KINDS, "discard value", "count at drop", "cards laid", "bias"], theta)))
    returns = [play(env, theta, "player_0" if i % 2 == 0 else "player_1", rng, None) for i in range(args.eval)]
    mean = float(np.mean(returns))
    half = 1.96 * float(np.std(returns, ddof=1)) / math.sqrt(len(returns))
    print(f"against random, {args.eval:,} hands, seats alternating: {mean:+.3f} [{mean - half:+.3f}, "
          f"{mean + half:+.3f}] stakes a hand" + (" (beats random)" if mean - half > 0 else ""))


if __name__ == "__main__":
    main()
