"""Any ruleset as a PettingZoo AEC environment (the ``pettingzoo`` extra).

    from tonkdsl.tools.pettingzoo_env import env
    e = env(ruleset="my-rules.yaml", players=3)   # a ruleset file, or a shipped name
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else pick(obs["observation"], obs["action_mask"])
        e.step(action)

One episode is one hand. The agents are ``player_0`` ... in seat order, the dealer last (so
``player_0`` plays first); the agent to act is whoever the hand waits on, out of turn too (an
eat, a fold, a drop at any time). Actions are the integers of :class:`encoding.ActionTable`
(the OpenSpiel game's): ``Discrete(fixed + SPARE_IDS)``, the legal ones marked in
``action_mask``. The observation is built from the player's ``View`` only (their hand, the top
discard, the pile, the spreads, how many cards each holds, the stock's size, who is to play):
nothing of another player's hand. Rewards come at the end of the hand, in stakes: the money each
won or lost (on a score sheet, the value the search bots play for, ``bots.hand_value``). The deal
is seeded: ``reset(seed=s)`` deals the same hand for the same ``s``; without a seed, the next
hand of the environment's own sequence.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State, deal
from tonkdsl.interpreter.view import MAX_ACTIONS_PER_HAND, observation
from tonkdsl.language.limits import MAX_STAKE
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.resources import base_ruleset_name
from tonkdsl.language.rng import derive_seed
from tonkdsl.tools import encoding

NAME = "tonk_v0"


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks around it (actions in range, the order of
    calls kept); :class:`raw_env` without them."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801  (PettingZoo's name; it has no type stubs)
    metadata = {"render_modes": ["ansi"], "name": NAME, "is_parallelizable": False}

    def __init__(self, ruleset: str | None = None, players: int = 2, stake: int = 1, seed: int = 0,
                 render_mode: str | None = None) -> None:
        super().__init__()
        ruleset = ruleset or base_ruleset_name()  # the game most shipped rulesets extend, as every command
        if not 1 <= stake <= MAX_STAKE:
            raise ValueError(f"the stake is a whole number from 1 to {MAX_STAKE:,}, not {stake}")
        rs = load_ruleset(ruleset)
        if not rs.players_min <= players <= rs.players_max:
            raise ValueError(f"{rs.name} is for {rs.players_min} to {rs.players_max} players, not {players}")
        self.ruleset, self.players, self.stake, self.render_mode = rs, players, stake, render_mode
        self.dealer = players - 1
        self.sides = rs.sides_for(players) if rs.side_size else None
        probe = deal(rs, players, seed=0, dealer=self.dealer, stake=stake, sides=self.sides)
        names = list(dict.fromkeys(probe.pack.names))
        self.index = {name: i for i, name in enumerate(names)}
        self.table = encoding.ActionTable(names, len(probe.pack.names) // max(1, probe.melds.min_size) + 1)
        self.pieces = encoding.view_pieces(players, len(names), shown=bool(rs.face_up))
        width = sum(size for _, size in self.pieces)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        # Counts of cards by name, how many each holds, the stock: at most the pack's size.
        bound = float(max(len(probe.pack.names), 1))
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, bound, (width,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.size,), np.int8)})
        self._action_space = spaces.Discrete(self.table.size)
        self.base_seed, self.hands_dealt = seed, 0
        self.state: State | None = None
        self._legal: dict[int, A.Action] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # --- the hand -------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.base_seed, self.hands_dealt = seed, 0
        hand_seed = derive_seed(self.base_seed, self.hands_dealt)  # hand i of the seed, as tonk simulate deals it
        self.hands_dealt += 1
        self.state = deal(self.ruleset, self.players, seed=hand_seed, dealer=self.dealer, stake=self.stake,
                          sides=self.sides)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.actions_played = 0
        self._next()

    def _next(self) -> None:
        """Whose move it is, with their legal actions; or the hand's end, with the rewards."""
        st = self.state
        assert st is not None
        if st.is_terminal() or self.actions_played >= MAX_ACTIONS_PER_HAND:
            ended = st.is_terminal()
            out = st.outcome() if ended else None
            values = encoding.returns(self.ruleset, self.players, self.stake, out)
            for seat, agent in enumerate(self.agents):
                self.rewards[agent] = values[seat]
                self.terminations[agent] = ended
                self.truncations[agent] = not ended  # the engine's cap on a hand's actions
                self.infos[agent] = {"end": out.end if out is not None else None}
            self._legal = {}
            self._accumulate_rewards()
            return
        seat = st.current_player()
        self.agent_selection = self.possible_agents[seat]
        self._legal = {self.table.id_of(str(a)): a for a in st.legal_actions()}
        for agent in self.agents:
            self.infos[agent] = {"legal": len(self._legal)} if agent == self.agent_selection else {}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self._legal:
            text = self.table.text[int(action)] if action is not None and 0 <= int(action) < len(self.table.text) else action
            raise ValueError(f"{agent} may not play {text!r} now (see the observation's action_mask)")
        st = self.state
        assert st is not None
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        st.apply(self._legal[int(action)], player=st.current_player())
        self.actions_played += 1
        self._next()

    # --- what a player sees -----------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        vector = np.zeros(sum(size for _, size in self.pieces), np.float32)
        parts: dict[str, np.ndarray] = {}
        at = 0
        for name, size in self.pieces:
            parts[name] = vector[at:at + size]
            at += size
        mask = np.zeros(self.table.size, np.int8)
        st = self.state
        if st is not None:
            to_play = -1 if st.is_terminal() else st.current_player()
            encoding.fill_from_view(parts, observation(st, seat), self.index, to_play)
            if agent == self.agent_selection:
                mask[list(self._legal)] = 1
        return {"observation": vector, "action_mask": mask}

    def action_text(self, action: int) -> str:
        """The scenario string of an action id (``discard 5S``)."""
        return self.table.text[action]

    def card_value(self, name: str) -> int:
        """What a card counts in this ruleset, by its name (``QS``: 10)."""
        pack = self.state.pack if self.state is not None else None
        if pack is None:
            raise ValueError("no hand is dealt yet: call reset() first")
        return int(pack.values[pack.names.index(name)])

    def count_of(self, seat: int) -> int:
        """The count of ``seat``'s hand, as that player sees it (their own View)."""
        if self.state is None:
            raise ValueError("no hand is dealt yet: call reset() first")
        return int(observation(self.state, seat).count)

    def render(self) -> str | None:
        st = self.state
        if self.render_mode != "ansi" or st is None:
            return None
        names = st.pack.names
        hands = " | ".join(" ".join(names[c] for c in h) for h in st.hands)
        return f"hands: {hands}; stock {len(st.stock)}; to play: {self.agent_selection}"

    def close(self) -> None:
        self.state = None
