"""Any ruleset as an OpenSpiel game: ``import tonkdsl.tools.openspiel`` registers ``python_tonk``.

    import pyspiel
    import tonkdsl.tools.openspiel  # registers the game
    game = pyspiel.load_game("python_tonk", {"ruleset": "my-rules.yaml", "players": 3, "stake": 1})

The optional extra ``pip install ".[openspiel]"`` installs OpenSpiel; no other tonkdsl module
imports it. The adapter reads only the interpreter's public API: the hand's ``State``
(``legal_actions``, ``apply``, ``outcome``, ``clone``), the player's ``View`` and the actions'
scenario strings. docs/openspiel.md says it all with an example.

One OpenSpiel game is one hand:

- **The deal is chance.** One chance outcome per card, in the order the ruleset deals: each
  player's hand in seat order, the upcard where the ruleset turns one, then the stock from its
  top. Each outcome is a card id of the pack (uniform over the cards not dealt yet), so a hand's
  chance history is a uniform shuffle; the cards are then dealt with ``deal(..., layout=...)``,
  which checks the automatic wins on the deal as every tonkdsl deal does.
- **Actions are integers** whose ``action_to_string`` is the scenario string (``discard 5S``,
  ``spread 5S 5H 5D``, ``hit 8S on 1``). The first ids are fixed for every game of a ruleset:
  the actions without a card, then ``discard C``, ``slap C on N`` and ``hit C on N`` for every
  card name C and spread number N. Spreads and hits of several cards are too many to number in
  advance (a hand of seven can spread thousands of ways with wild cards): each gets the next
  free id the first time the process meets it, kept by the game's parameters for the life of the
  process (``ActionTable``). Legal actions are listed in ascending id order.
- **Returns** are in stakes: the money each player won or lost in the hand (partners playing for
  their side); on a score sheet, the player's score against the others' average, negated where
  the lowest score wins (the value the search bots use, ``tonkdsl.tools.bots.hand_value``).
- **Observations** are built from the player's ``View`` only: their own hand, the top discard,
  the discard pile, the spreads, how many cards each player holds, the stock's size, whose turn.
  The information state adds the hand's public actions in order and what the player drew from
  the stock themselves (perfect recall); nothing else about another player's hand or the stock.
- ``resample_from_infostate`` deals the cards the player cannot see at random around what they
  know (``View.guess_hidden``: cards everyone saw taken stay where they went), so OpenSpiel's
  information-set MCTS runs on any ruleset.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pyspiel

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State, deal
from tonkdsl.interpreter.table import Layout
from tonkdsl.interpreter.view import MAX_ACTIONS_PER_HAND, View, observation, play_out
from tonkdsl.language.limits import MAX_STAKE
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.resources import base_ruleset_name
from tonkdsl.language.rng import Rng, derive_seed
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.tools import encoding
from tonkdsl.tools.bots import hand_value, policy

SHORT_NAME = "python_tonk"
MIN_PLAYERS, MAX_PLAYERS = 2, 12  # a ruleset narrows it (players.min, players.max)
SIMPLE, SPARE_IDS = encoding.SIMPLE, encoding.SPARE_IDS
# OpenSpiel asks for bounds on the returns: a bound, not the range (OpenSpiel's random simulation
# test checks every return against it on the rulesets tests/test_openspiel.py plays).
UTILITY_BOUND = 1_000.0

# Without a ruleset: the game most shipped rulesets extend, as every tonk command starts from.
_DEFAULTS = {"ruleset": base_ruleset_name(), "players": 2, "stake": 1}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Tonk (tonkdsl: any ruleset)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    # Money is zero-sum only without a pot (an ante stays in it) and points never are.
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class ActionTable(encoding.ActionTable):
    """The game's integer actions and their scenario strings (tools/encoding.py; see the
    module's docstring); running out of spare ids is an OpenSpiel error."""

    def id_of(self, text: str) -> int:
        try:
            return super().id_of(text)
        except encoding.ActionIdsExhausted as exc:
            raise pyspiel.SpielError(f"python_tonk: {exc}") from None


@dataclass
class _Setup:
    """What every state of one game shares (never copied with a state)."""

    ruleset: Ruleset
    players: int
    stake: int
    dealer: int
    sizes: tuple[int, ...]  # cards dealt to each seat
    upcard: bool
    pack_size: int
    names: tuple[str, ...]  # the pack's card names, by card id
    name_index: dict[str, int]  # a card name's place in the observation tensors (and chance outcome)
    distinct: tuple[str, ...]  # the card names, each once
    table: ActionTable
    key: tuple[str, int, int]  # the game's parameters: ruleset, players, stake

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Setup":
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _setup, self.key  # pickled as its parameters (a ruleset holds compiled code)


_SETUPS: dict[tuple[str, int, int], _Setup] = {}


def _setup(ruleset: str, players: int, stake: int) -> _Setup:
    """The shared part of every game with these parameters in this process (one action table)."""
    key = (ruleset, players, stake)
    if key not in _SETUPS:
        _SETUPS[key] = _new_setup(*key)
    return _SETUPS[key]


def _new_setup(ruleset: str, n: int, stake: int) -> _Setup:
    if not 1 <= stake <= MAX_STAKE:  # returns are in stakes: a stake of 0 would divide by zero
        raise pyspiel.SpielError(f"python_tonk: the stake is a whole number from 1 to {MAX_STAKE:,}, not {stake}")
    rs = load_ruleset(ruleset)
    if not rs.players_min <= n <= rs.players_max:
        raise pyspiel.SpielError(f"python_tonk: {rs.name} is for {rs.players_min} to {rs.players_max} players, not {n}")
    dealer = n - 1  # the player to the dealer's left, player 0, plays first
    probe = deal(rs, n, seed=0, dealer=dealer, stake=stake, sides=rs.sides_for(n) if rs.side_size else None)
    names = probe.pack.names
    distinct = list(dict.fromkeys(names))
    return _Setup(rs, n, stake, dealer, tuple(len(h) for h in probe.dealt_hands), bool(probe.discard_pile) and rs.upcard,
                  len(names), tuple(names), {name: i for i, name in enumerate(distinct)}, tuple(distinct),
                  ActionTable(distinct, len(names) // max(1, probe.melds.min_size) + 1), (ruleset, n, stake))


class TonkGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """One hand of a tonkdsl ruleset."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        self.setup = _setup(str(merged["ruleset"]), int(merged["players"]), int(merged["stake"]))
        s = self.setup
        info = pyspiel.GameInfo(
            num_distinct_actions=s.table.size, max_chance_outcomes=len(s.distinct), num_players=s.players,
            min_utility=-UTILITY_BOUND, max_utility=UTILITY_BOUND, utility_sum=None,
            max_game_length=s.pack_size + MAX_ACTIONS_PER_HAND)
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self) -> "TonkState":
        return TonkState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "TonkObserver":
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return TonkObserver(self.setup, perfect_recall=perfect)


def _dealt(setup: _Setup, cards: list[int]) -> State:
    """The hand dealt from the chance outcomes: each seat's cards in seat order, the upcard where
    the ruleset turns one, then the stock from its top."""
    hands, at = {}, 0
    for seat, size in enumerate(setup.sizes):
        hands[seat] = cards[at:at + size]
        at += size
    upcard = cards[at] if setup.upcard else None
    at += 1 if setup.upcard else 0
    rs = setup.ruleset
    return deal(rs, setup.players, seed=0, dealer=setup.dealer, stake=setup.stake,
                layout=Layout(hands, upcard, cards[at:]),
                sides=rs.sides_for(setup.players) if rs.side_size else None)


class _Hand:
    """The engine's state of the hand and its history, copied cheaply with a state."""

    def __init__(self, setup: _Setup, state: State | None, dealt: list[int] | None,
                 log: list[tuple[int, str, int | None]]) -> None:
        self.setup = setup
        self.state = state
        # The card ids in chance order (None in a resampled world, which no chance history made).
        self.dealt = dealt
        # (player, action text, card drawn from the stock: None when unknown to this world)
        self.log = log

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Hand":
        return _Hand(self.setup, self.state.clone() if self.state is not None else None,
                     list(self.dealt) if self.dealt is not None else None, list(self.log))

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its history (an engine state holds compiled code): dealt again and replayed.
        if self.dealt is None:
            raise pickle.PicklingError("python_tonk: a state made by resample_from_infostate cannot be pickled")
        return _replayed, (self.setup, list(self.dealt), list(self.log))


def _replayed(setup: _Setup, dealt: list[int], log: list[tuple[int, str, int | None]]) -> _Hand:
    state = _dealt(setup, dealt) if len(dealt) == setup.pack_size else None
    for player, text, _ in log:
        assert state is not None
        state.apply(A.parse_action(text), player=player)
    return _Hand(setup, state, dealt, log)


def _returns(setup: _Setup, st: State | None) -> list[float]:
    """Each player's return for a hand (0 for every player until it is over)."""
    return encoding.returns(setup.ruleset, setup.players, setup.stake, st.outcome() if st is not None else None)


class TonkState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: TonkGame) -> None:
        super().__init__(game)
        self.setup = game.setup
        self.hand = _Hand(self.setup, None, [], [])

    # --- chance: the deal -------------------------------------------------------------------
    def current_player(self) -> int:
        st = self.hand.state
        if st is None:
            return int(pyspiel.PlayerId.CHANCE)
        if st.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return st.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        # By card name: identical cards (two jokers, two decks) are one outcome, as likely as
        # the copies left.
        left = self._undealt()
        counts: dict[int, int] = {}
        for c in left:
            k = self.setup.name_index[self.setup.names[c]]
            counts[k] = counts.get(k, 0) + 1
        return [(k, n / len(left)) for k, n in sorted(counts.items())]

    def _undealt(self) -> list[int]:
        return sorted(set(range(self.setup.pack_size)) - set(self.hand.dealt or ()))

    # --- play -------------------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        st = self.hand.state
        if st is None or st.is_terminal() or player != st.current_player():
            return []
        table = self.setup.table
        return sorted(table.id_of(str(a)) for a in st.legal_actions())

    def _apply_action(self, action: int) -> None:
        hand = self.hand
        if hand.state is None:
            assert hand.dealt is not None
            name = self.setup.distinct[action]
            hand.dealt.append(next(c for c in self._undealt() if self.setup.names[c] == name))
            if len(hand.dealt) == self.setup.pack_size:
                hand.state = _dealt(self.setup, hand.dealt)
            return
        st = hand.state
        player = st.current_player()
        text = self.setup.table.text[action]
        before = list(st.hands[player])
        st.apply(A.parse_action(text), player=player)
        drawn = None
        if text == "draw stock":  # what the player saw and nobody else did
            new = [c for c in st.hands[player] if c not in before]
            drawn = new[0] if new else None
        hand.log.append((player, text, drawn))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self.setup.distinct[action]}"
        return self.setup.table.text[action]

    def is_terminal(self) -> bool:
        return self.hand.state is not None and self.hand.state.is_terminal()

    def returns(self) -> list[float]:
        return _returns(self.setup, self.hand.state)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> "TonkState":
        """A state the player cannot tell from this one: the hidden cards dealt again at random
        around what they know (View.guess_hidden); others' draws from the stock become unknown."""
        twin: TonkState = self.clone()
        st = self.hand.state
        if st is None or st.is_terminal():
            return twin
        view = observation(st, player_id)
        rng = Rng(int(probability_sampler() * 2**53))
        twin.hand.state = view.world(*view.guess_hidden(rng))
        twin.hand.log = [(p, text, drawn if p == player_id else None) for p, text, drawn in self.hand.log]
        twin.hand.dealt = None
        return twin

    def __str__(self) -> str:
        st = self.hand.state
        if st is None:
            return f"dealing: {len(self.hand.dealt or ())} of {self.setup.pack_size} cards"
        names = self.setup.names
        hands = " | ".join(" ".join(names[c] for c in h) for h in st.hands)
        return f"hands: {hands}; stock {len(st.stock)}; actions: {'; '.join(t for _, t, _ in self.hand.log)}"


class TonkObserver:
    """Observations and information states from one player's View (OpenSpiel's PyObserver)."""

    def __init__(self, setup: _Setup, *, perfect_recall: bool) -> None:
        self.setup = setup
        self.perfect_recall = perfect_recall
        k, n = len(setup.name_index), setup.players
        pieces = encoding.view_pieces(n, k)
        if perfect_recall:
            pieces += [("seen", k), ("drew_from_stock", k)]
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def _view(self, state: TonkState, player: int) -> View | None:
        st = state.hand.state
        return observation(st, player) if st is not None else None

    def set_from(self, state: TonkState, player: int) -> None:
        self.tensor.fill(0)
        d, index, names = self.dict, self.setup.name_index, self.setup.names
        d["player"][player] = 1
        view = self._view(state, player)
        if view is None:
            return
        encoding.fill_from_view(d, view, index, state.current_player())
        if self.perfect_recall:
            for c in self._seen(state, view):
                d["seen"][index[names[c]]] = 1
            for p, _, drawn in state.hand.log:
                if p == player and drawn is not None:
                    d["drew_from_stock"][index[names[drawn]]] += 1

    def _seen(self, state: TonkState, view: View) -> set[int]:
        """Every card the player has seen: their hand, the pile, the spreads, what they drew."""
        seen = set(view.hand) | set(view.discard_pile)
        for _, cards in view.spreads:
            seen.update(cards)
        seen.update(drawn for p, _, drawn in state.hand.log if p == view.seat and drawn is not None)
        return seen

    def string_from(self, state: TonkState, player: int) -> str:
        view = self._view(state, player)
        names = self.setup.names
        if view is None:
            return f"p{player} dealing"
        to_play = state.current_player()
        parts = [f"p{player}", "hand " + " ".join(sorted(view.hand_names)),
                 f"top {view.top_discard_name or '-'}", f"stock {view.stock_size}",
                 "held " + ",".join(map(str, view.cards_held)),
                 "spreads " + " / ".join(" ".join(names[c] for c in cards) for _, cards in view.spreads),
                 f"to play {to_play if to_play >= 0 else '-'}"]
        if self.perfect_recall:
            # The hand's public actions in order; a draw from the stock names its card to the
            # drawer alone.
            parts.append("actions " + "; ".join(
                f"{p} {text}" + (f" ({names[drawn]})" if p == player and drawn is not None else "")
                for p, text, drawn in state.hand.log))
        else:
            parts.append("discards " + " ".join(names[c] for c in view.discard_pile))
        return " | ".join(parts)


class TonkdslBot(pyspiel.Bot):  # type: ignore[misc]
    """A tonkdsl bot (``greedy``, ``montecarlo``, ``strong``, ``strong:N``...) as an OpenSpiel bot:
    it reads the player's View only, as at any tonkdsl table; seeded per decision."""

    def __init__(self, name: str, seed: int = 0) -> None:
        super().__init__()
        self.name = name
        self.policy = policy(name)
        self.seed = seed
        self.decisions = 0

    def step(self, state: TonkState) -> int:
        st = state.hand.state
        assert st is not None
        player = st.current_player()
        self.decisions += 1
        action = self.policy(observation(st, player), st.legal_actions(),
                             Rng(derive_seed(self.seed, self.decisions)))
        return state.setup.table.id_of(str(action))

    def restart_at(self, state: TonkState) -> None:
        pass

    def inform_action(self, state: TonkState, player_id: int, action: int) -> None:
        pass


class BotRolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and information-set MCTS whose rollouts are played by a
    tonkdsl bot in every seat (``greedy`` by default) rather than at random, with uniform priors.

    A random player drops or discards its best cards early, so random rollouts judge Tonk badly
    (docs/openspiel.md). The rollout plays the engine's copy of the state to its end with
    ``play_out``, as the strong bot's rollouts do, without going through the adapter's action ids
    at every step. It has OpenSpiel's ``Evaluator`` methods (``evaluate``, ``prior``); seeded, so
    a search with it plays the same for the same seed."""

    def __init__(self, bot: str = "greedy", n_rollouts: int = 1, seed: int = 0) -> None:
        self.bot = bot
        self.policy = policy(bot)
        self.n_rollouts = n_rollouts
        self.seed = seed
        self.rollouts = 0

    def evaluate(self, state: TonkState) -> np.ndarray:
        st = state.hand.state
        if st is None or st.is_terminal():
            return np.array(state.returns())
        total = np.zeros(state.setup.players)
        for _ in range(self.n_rollouts):
            self.rollouts += 1
            world = st.clone()
            play_out(world, [self.policy] * world.num_players, Rng(derive_seed(self.seed, self.rollouts)))
            total += _returns(state.setup, world)
        return total / self.n_rollouts

    def prior(self, state: TonkState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


pyspiel.register_game(_GAME_TYPE, TonkGame)

__all__ = ["SHORT_NAME", "TonkGame", "TonkState", "TonkObserver", "ActionTable", "TonkdslBot", "BotRolloutEvaluator"]
