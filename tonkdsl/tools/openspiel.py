"""Any ruleset as an OpenSpiel game: ``import tonkdsl.tools.openspiel`` registers ``python_tonk``.

    import pyspiel
    import tonkdsl.tools.openspiel  # registers the game
    game = pyspiel.load_game("python_tonk", {"ruleset": "my-rules.yaml", "players": 3, "stake": 1})

The optional extra ``pip install ".[openspiel]"`` installs OpenSpiel; no other tonkdsl module
imports it. The adapter reads only the interpreter's public API: the hand's ``State``
(``legal_actions``, ``apply``, ``outcome``, ``clone``), the player's ``View`` and the actions'
scenario strings. docs/openspiel.md says it all with an example.

One OpenSpiel game is one hand:

- **The deal is chance.** One chance outcome per card dealt: each player's hand in seat order,
  then the upcard where the ruleset turns one (``deal 7H``). The stock's cards are chance
  outcomes too, but only as they are needed (``stock 7H``), as OpenSpiel's gin rummy deals its
  stock: just before a player acts, the top card of the stock (the top N where an action takes
  N, a buy's penalty cards) is decided, uniform over the cards nobody has seen and no outcome
  has fixed. Nobody sees the stock's order, so this is the same game as a stock shuffled at the
  deal, for a few chance nodes a hand rather than the whole pack. Each outcome is a card name's
  index (identical cards are one outcome, as likely as the copies left). A stock rebuilt from
  the discard pile is shuffled by the engine as at any table, and its cards are decided by
  chance again as they are needed. The hand is dealt with ``deal(..., layout=...)``, which
  checks the automatic wins on the deal as every tonkdsl deal does.
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
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Callable

import numpy as np
import pyspiel

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State, deal
from tonkdsl.interpreter.rules import plan_for
from tonkdsl.interpreter.shuffle import shuffle
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
    ids_of: tuple[tuple[int, ...], ...]  # by name index: the card ids of that name
    kind_of: tuple[int, ...]  # by card id: its name index
    ahead: int  # stock cards decided before a player acts (the most one action takes)
    dealt: int  # cards dealt as chance outcomes before play: the hands and the upcard
    one_of_each: bool  # no two cards of the pack share a name
    copies: tuple[int, ...]  # by name index: the cards of that name in the pack
    every_kind: tuple[int, ...]  # every name index
    every_card: frozenset[int]  # every card id
    discard_ids: dict[str, int]  # by card name: the id of its discard
    # Filled as they are met: an engine action's id (ActionTable.id_of of its text), the id of
    # an action without a card by its class, the chance outcomes by cards left (uniform()).
    action_ids: dict[A.Action, int] = field(default_factory=dict)
    type_ids: dict[type, int] = field(default_factory=dict)
    uniform_pairs: dict[int, list[tuple[int, float]]] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Setup":
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _setup, self.key  # pickled as its parameters (a ruleset holds compiled code)

    def uniform(self, left: int) -> list[tuple[int, float]]:
        """(name index, 1 / left) for every name index: the chance outcomes with ``left`` cards
        to choose from, in a pack of one card of each name (made once per ``left``)."""
        pairs = self.uniform_pairs.get(left)
        if pairs is None:
            pairs = self.uniform_pairs[left] = [(k, 1.0 / left) for k in range(len(self.distinct))]
        return pairs

    def id_of(self, action: A.Action) -> int:
        """An engine action's id. A discard's is worked out from its card and an action without a
        card is known by its class, with no hash of the action (a playout asks at every move)."""
        kind = type(action)
        if kind is A.Discard:
            return self.discard_ids[action.card]  # type: ignore[attr-defined]
        known = self.type_ids.get(kind)
        if known is not None:
            return known
        known = self.action_ids.get(action)
        if known is None:
            known = self.action_ids[action] = self.table.id_of(str(action))
            if not kind.__dataclass_fields__:
                self.type_ids[kind] = known
        return known


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
    index = {name: i for i, name in enumerate(distinct)}
    sizes = tuple(len(h) for h in probe.dealt_hands)
    upcard = bool(probe.discard_pile) and rs.upcard
    ahead = max(1 if "stock" in rs.draw_from else 0, plan_for(rs).stock_cards)
    return _Setup(
        ruleset=rs, players=n, stake=stake, dealer=dealer, sizes=sizes, upcard=upcard, pack_size=len(names),
        names=tuple(names), name_index=index, distinct=tuple(distinct),
        table=ActionTable(distinct, len(names) // max(1, probe.melds.min_size) + 1), key=(ruleset, n, stake),
        ids_of=tuple(tuple(c for c in range(len(names)) if names[c] == name) for name in distinct),
        kind_of=tuple(index[name] for name in names), ahead=ahead, dealt=sum(sizes) + upcard,
        one_of_each=len(distinct) == len(names), copies=tuple(names.count(name) for name in distinct),
        every_kind=tuple(range(len(distinct))), every_card=frozenset(range(len(names))),
        discard_ids={name: len(encoding.SIMPLE) + i for i, name in enumerate(distinct)})


class TonkGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """One hand of a tonkdsl ruleset."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        self.setup = _setup(str(merged["ruleset"]), int(merged["players"]), int(merged["stake"]))
        s = self.setup
        # Every chance node deals a card or decides one of the stock's, at most ``ahead`` of them
        # before each player action and the cards that action takes.
        longest = s.dealt + s.ahead + MAX_ACTIONS_PER_HAND * (1 + s.ahead)
        info = pyspiel.GameInfo(
            num_distinct_actions=s.table.size, max_chance_outcomes=len(s.distinct), num_players=s.players,
            min_utility=-UTILITY_BOUND, max_utility=UTILITY_BOUND, utility_sum=None, max_game_length=longest)
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self) -> "TonkState":
        return TonkState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "TonkObserver":
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return TonkObserver(self.setup, perfect_recall=perfect)


# A player's action in a hand's history: (player, action text, the cards they took from the
# stock, which only they saw: () when none, or unknown to a resampled world)
Logged = tuple[int, str, tuple[int, ...]]


class _Hand:
    """The engine's state of the hand, its history and its chance bookkeeping, copied cheaply
    with a state.

    The stock's cards are decided only as they are needed (as OpenSpiel's gin rummy does), not
    all at the deal: a hand of Tonk sees a few of its stock's cards, and each chance node costs
    a round trip through OpenSpiel. The engine holds the undealt cards in the stock in any
    order; before a player acts, the top ``ahead`` cards are decided by chance outcomes, each
    swapped to the top from the cards not decided yet. Since nobody sees the stock's order, this
    is the same game as a stock shuffled at the deal."""

    __slots__ = ("setup", "state", "history", "dealt", "counts", "kinds", "left", "decided", "log", "rebuilds",
                 "replayable", "moves", "move_ids", "legal_ids", "chosen", "to_play")

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        self.state: State | None = None  # None while the hands are dealt
        # Every action of the hand in order, a chance outcome as its id and a player's as its
        # text: a state pickles as this and is played again from it.
        self.history: list[int | str] = []
        self.dealt: list[int] = []  # the card ids dealt by chance before play, in order
        self.counts = list(setup.copies)  # by name index: cards not decided yet
        self.kinds = list(setup.every_kind)  # the name indexes whose count is not 0, ascending
        self.left = setup.pack_size  # cards not decided yet
        self.decided = 0  # cards on top of the stock decided by chance
        self.log: list[Logged] = []
        self.rebuilds = 0  # the engine's count of rebuilt stocks when last seen
        self.replayable = True  # False for a world made by resample_from_infostate
        # The player's legal actions in this position, each worked out once when first asked
        # (None until then): the engine's list (a bot chooses from it), their ids side by side,
        # and the ids ascending (legal_actions); the move a TonkdslBot chose, with its id.
        self.moves: list[A.Action] | None = None
        self.move_ids: list[int] | None = None
        self.legal_ids: list[int] = []
        self.chosen: tuple[int, A.Action] | None = None
        # Who acts now (a player, chance, or terminal), worked out after each move rather than at
        # each question: OpenSpiel asks it several times a move.
        self.to_play = _CHANCE

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Hand":
        twin = _Hand.__new__(_Hand)
        twin.setup = self.setup
        twin.state = self.state.clone() if self.state is not None else None
        twin.history, twin.dealt, twin.log = list(self.history), list(self.dealt), list(self.log)
        twin.counts, twin.kinds = list(self.counts), list(self.kinds)
        twin.left, twin.decided, twin.rebuilds, twin.replayable = self.left, self.decided, self.rebuilds, self.replayable
        # Never changed, only replaced: shared.
        twin.moves, twin.move_ids, twin.legal_ids, twin.chosen = self.moves, self.move_ids, self.legal_ids, self.chosen
        twin.to_play = self.to_play
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its history (an engine state holds compiled code): dealt again and replayed.
        if not self.replayable:
            raise pickle.PicklingError("python_tonk: a state made by resample_from_infostate cannot be pickled")
        return _replayed, (self.setup, list(self.history))

    # --- where the hand is ------------------------------------------------------------------
    def player(self) -> int:
        """Who acts now (kept in ``to_play`` after each move)."""
        st = self.state
        if st is None:
            return _CHANCE
        if st.is_terminal():
            return _TERMINAL
        if self.decided < self.setup.ahead and self.decided < len(st.stock):
            return _CHANCE  # the next stock card is decided before anyone acts
        return st.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        # By card name: identical cards (two jokers, two decks) are one outcome, as likely as
        # the copies left.
        left, kinds = self.left, self.kinds
        if self.setup.one_of_each and len(kinds) > 1:
            # Every card once, so every outcome is as likely: the pairs are made once per number
            # of cards left and picked with no Python loop (a playout asks at every chance node).
            return list(itemgetter(*kinds)(self.setup.uniform(left)))
        counts = self.counts
        return [(k, counts[k] / left) for k in kinds]

    def moves_of(self, st: State) -> list[A.Action]:
        """The engine's legal actions in this position."""
        if self.moves is None:
            self.moves = st.legal_actions()
        return self.moves

    def legal_ids_of(self, st: State) -> list[int]:
        """The legal actions' ids, ascending."""
        if self.move_ids is None:
            self.move_ids = ids = list(map(self.setup.id_of, self.moves_of(st)))
            self.legal_ids = sorted(set(ids))  # identical cards: one id, either card
        return self.legal_ids

    # --- moves --------------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        if self.to_play == _CHANCE:
            self._decide(action)
            self.history.append(action)
            if self.state is not None:  # still dealing: chance again
                self.to_play = self.player()
            return
        st, setup = self.state, self.setup
        assert st is not None
        player = st.current_player()
        moves, ids, chosen = self.moves, self.move_ids, self.chosen
        self.moves = self.move_ids = self.chosen = None
        text = setup.table.text[action]
        if chosen is not None and chosen[0] == action:
            move = chosen[1]
        elif moves is not None and ids is not None and action in ids:
            move = moves[ids.index(action)]
        else:
            move = A.parse_action(text)
        stock = st.stock
        before, top = len(stock), stock[-setup.ahead:] if setup.ahead else []
        held = list(st.hands[player]) if not stock else None  # a draw may rebuild the stock
        st.apply(move, player=player)
        taken: tuple[int, ...] = ()
        if st.rebuilds != self.rebuilds:  # the discard pile became the stock: its order is not decided
            self.rebuilds = st.rebuilds
            if held is not None:
                taken = tuple(c for c in st.hands[player] if c not in held)
            self._undecide_stock()
        elif len(st.stock) < before:
            gone = before - len(st.stock)
            taken = tuple(reversed(top[-gone:]))
            self.decided = max(0, self.decided - gone)
        self.log.append((player, text, taken))
        self.history.append(text)
        self.to_play = self.player()

    def _decide(self, k: int) -> None:
        """Chance outcome ``k`` (a card name's index): the next card dealt, or the next card of
        the stock decided (swapped to the top of the cards not decided yet)."""
        setup = self.setup
        if self.counts[k] <= 0:
            raise pyspiel.SpielError(f"python_tonk: no {setup.distinct[k]} is left to deal")
        st = self.state
        if st is None:
            ids = setup.ids_of[k]
            self.dealt.append(ids[len(ids) - self.counts[k]])
        else:
            stock, at = st.stock, len(st.stock) - 1 - self.decided
            if setup.one_of_each:
                j = stock.index(setup.ids_of[k][0])
            else:
                kind = setup.kind_of
                j = next(i for i in range(at, -1, -1) if kind[stock[i]] == k)
            stock[j], stock[at] = stock[at], stock[j]
            self.decided += 1
        self.counts[k] -= 1
        if not self.counts[k]:
            self.kinds.remove(k)
        self.left -= 1
        if st is None and len(self.dealt) == setup.dealt:
            self.state = _dealt(setup, self.dealt)
            self.rebuilds = self.state.rebuilds

    def world(self, rng: Rng) -> State:
        """A copy of the engine's state to play on outside OpenSpiel (a rollout): the stock's
        cards not decided yet shuffled, as chance would deal them (the engine holds them in an
        order of no meaning)."""
        assert self.state is not None
        world = self.state.clone()
        stock = world.stock
        undecided = stock[:len(stock) - self.decided]
        shuffle(rng, undecided)
        stock[:len(undecided)] = undecided
        return world

    def _undecide_stock(self) -> None:
        """The stock's order is not decided (a rebuilt stock, a world dealt again): every card in
        it is a chance outcome to come."""
        st = self.state
        assert st is not None
        self.decided = 0
        self.counts = [0] * len(self.setup.distinct)
        for c in st.stock:
            self.counts[self.setup.kind_of[c]] += 1
        self.kinds = [k for k, n in enumerate(self.counts) if n]
        self.left = len(st.stock)


_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


def _dealt(setup: _Setup, cards: list[int]) -> State:
    """The hand dealt from the chance outcomes: each seat's cards in seat order, then the
    upcard where the ruleset turns one; the stock holds the rest, its order decided later."""
    hands, at = {}, 0
    for seat, size in enumerate(setup.sizes):
        hands[seat] = cards[at:at + size]
        at += size
    upcard = cards[at] if setup.upcard else None
    rs = setup.ruleset
    # The stock: the cards not dealt, in an order of no meaning (a set's of small whole numbers).
    return deal(rs, setup.players, seed=0, dealer=setup.dealer, stake=setup.stake,
                layout=Layout(hands, upcard, list(setup.every_card.difference(cards))),
                sides=rs.sides_for(setup.players) if rs.side_size else None)


def _replayed(setup: _Setup, history: list[int | str]) -> _Hand:
    hand = _Hand(setup)
    for move in history:
        hand.apply(move if isinstance(move, int) else setup.table.id_of(move))
    return hand


def _returns(setup: _Setup, st: State | None) -> list[float]:
    """Each player's return for a hand (0 for every player until it is over)."""
    return encoding.returns(setup.ruleset, setup.players, setup.stake, st.outcome() if st is not None else None)


class TonkState(pyspiel.State):  # type: ignore[misc]
    """A state of the hand. ``current_player``, ``is_chance_node``, ``is_terminal``,
    ``legal_actions`` and ``chance_outcomes`` are answered here in Python: a Python caller
    (a playout, a search) then reads them without a round trip through OpenSpiel's C++ State,
    which asks this class for each of them anyway (tests/test_openspiel.py checks both agree)."""

    def __init__(self, game: TonkGame) -> None:
        super().__init__(game)
        self.setup = game.setup
        self.hand = _Hand(self.setup)

    def current_player(self) -> int:
        return self.hand.to_play

    def is_chance_node(self) -> bool:
        return self.hand.to_play == _CHANCE

    def is_terminal(self) -> bool:
        return self.hand.to_play == _TERMINAL

    def is_player_node(self) -> bool:
        return self.hand.to_play >= 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        hand = self.hand
        return hand.chance_outcomes() if hand.to_play == _CHANCE else []

    def legal_actions(self, player: int | None = None) -> list[int]:
        hand = self.hand
        to_play = hand.to_play
        if player is None:
            player = to_play
        if to_play == _CHANCE:
            return [k for k, _ in hand.chance_outcomes()] if player == _CHANCE else []
        if player != to_play or to_play < 0:
            return []
        assert hand.state is not None
        return list(hand.legal_ids_of(hand.state))

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        self.hand.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self.setup.distinct[action]}" if self.hand.state is None else f"stock {self.setup.distinct[action]}"
        return self.setup.table.text[action]

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
        hand = twin.hand
        hand.state = view.world(*view.guess_hidden(rng))
        hand.log = [(p, text, taken if p == player_id else ()) for p, text, taken in self.hand.log]
        hand.replayable, hand.moves, hand.move_ids, hand.chosen = False, None, None, None
        decided = min(self.hand.decided, len(hand.state.stock))
        hand._undecide_stock()  # the guessed stock is dealt at random: its top counts as decided
        for c in hand.state.stock[len(hand.state.stock) - decided:]:
            hand.counts[self.setup.kind_of[c]] -= 1
        hand.kinds = [k for k, n in enumerate(hand.counts) if n]
        hand.left -= decided
        hand.decided = decided
        hand.to_play = hand.player()
        return twin

    def __str__(self) -> str:
        st = self.hand.state
        if st is None:
            return f"dealing: {len(self.hand.dealt)} of {self.setup.dealt} cards"
        names = self.setup.names
        hands = " | ".join(" ".join(names[c] for c in h) for h in st.hands)
        return f"hands: {hands}; stock {len(st.stock)}; actions: {'; '.join(t for _, t, _ in self.hand.log)}"


class TonkObserver:
    """Observations and information states from one player's View (OpenSpiel's PyObserver)."""

    def __init__(self, setup: _Setup, *, perfect_recall: bool) -> None:
        self.setup = setup
        self.perfect_recall = perfect_recall
        k, n = len(setup.name_index), setup.players
        pieces = encoding.view_pieces(n, k, shown=bool(setup.ruleset.face_up))
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
            for p, _, taken in state.hand.log:
                if p == player:
                    for c in taken:
                        d["drew_from_stock"][index[names[c]]] += 1

    def _seen(self, state: TonkState, view: View) -> set[int]:
        """Every card the player has seen: their hand, the pile, the spreads, what they drew."""
        seen = set(view.hand) | set(view.discard_pile)
        for _, cards in view.spreads:
            seen.update(cards)
        for p, _, taken in state.hand.log:
            if p == view.seat:
                seen.update(taken)
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
        if self.setup.ruleset.face_up:  # (deal.face_up) the others' cards everyone has seen
            parts.append("shown " + " / ".join(" ".join(names[c] for c in cards) if seat != player else ""
                                               for seat, cards in enumerate(view.shown)))
        if self.perfect_recall:
            # The hand's public actions in order; a draw from the stock names its card to the
            # drawer alone.
            parts.append("actions " + "; ".join(
                f"{p} {text}" + (f" ({' '.join(names[c] for c in taken)})" if p == player and taken else "")
                for p, text, taken in state.hand.log))
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
        hand = state.hand
        st = hand.state
        assert st is not None
        player = st.current_player()
        self.decisions += 1
        action = self.policy(observation(st, player), hand.moves_of(st), Rng(derive_seed(self.seed, self.decisions)))
        chosen = state.setup.id_of(action)
        hand.chosen = (chosen, action)  # applied as it is if it is applied next, never looked up again
        return chosen

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
            rng = Rng(derive_seed(self.seed, self.rollouts))
            world = state.hand.world(rng)
            play_out(world, [self.policy] * world.num_players, rng)
            total += _returns(state.setup, world)
        return total / self.n_rollouts

    def prior(self, state: TonkState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


pyspiel.register_game(_GAME_TYPE, TonkGame)

__all__ = ["SHORT_NAME", "TonkGame", "TonkState", "TonkObserver", "ActionTable", "TonkdslBot", "BotRolloutEvaluator"]
