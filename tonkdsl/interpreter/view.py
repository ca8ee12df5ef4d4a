"""What one player may see of a hand: bots and the terminal read views, never the state.

A view is made at every action, so it is a thin window: it keeps the state private and answers
only what the player may know (their own hand, the table, how many cards the others hold).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from tonkdsl.interpreter.engine import State
from tonkdsl.interpreter.melds import MeldRules
from tonkdsl.interpreter.shuffle import shuffle
from tonkdsl.interpreter.table import DRAW_LAST, START
from tonkdsl.language.cards import Pack
from tonkdsl.language.rng import Rng
from tonkdsl.language.ruleset import Ruleset


class View:
    __slots__ = ("_state", "seat", "pack", "meld_rules")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat
        self.pack: Pack = state.pack
        # The ruleset's spreads and hits (public knowledge).
        self.meld_rules: MeldRules = state.melds

    @property
    def ruleset(self) -> Ruleset:
        """The rules of the game (public)."""
        return self._state.ruleset

    @property
    def num_players(self) -> int:
        return self._state.num_players

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def hand(self) -> tuple[int, ...]:
        """The player's own cards (ids; ``hand_names`` gives their names)."""
        return tuple(self._state.hands[self.seat])

    @property
    def hand_mask(self) -> int:
        """The player's cards as a mask: bit ``c`` is set when they hold card ``c``."""
        return self._state.hand_sig[self.seat] & self.meld_rules.all_cards

    @property
    def count(self) -> int:
        return self._state.hand_value[self.seat]

    @property
    def totals(self) -> tuple[int, ...]:
        """Every count the player's hand can make, lowest first (several when some card's
        value is the holder's choice)."""
        return self.pack.totals(self._state.hands[self.seat])

    @property
    def hand_names(self) -> tuple[str, ...]:
        names = self._state.pack.names
        return tuple(names[c] for c in self._state.hands[self.seat])

    @property
    def top_discard(self) -> int | None:
        pile = self._state.discard_pile
        return pile[-1] if pile else None

    @property
    def discard_pile(self) -> tuple[int, ...]:
        """The discard pile, bottom first: every card in it was seen face up."""
        return tuple(self._state.discard_pile)

    @property
    def top_discard_name(self) -> str | None:
        top = self.top_discard
        return self._state.pack.names[top] if top is not None else None

    @property
    def spreads(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(owner seat, card ids) of each spread on the table, numbered from 1."""
        return tuple((sp.owner, tuple(sp.cards)) for sp in self._state.spreads)

    @property
    def stock_size(self) -> int:
        return len(self._state.stock)

    @property
    def cards_held(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(len(h) for h in self._state.hands)

    @property
    def counters(self) -> dict[str, int]:
        return {k: v[self.seat] for k, v in self._state.counters.items()}

    @property
    def turn_number(self) -> int:
        return self._state.turn_number

    @property
    def sides(self) -> tuple[int, ...]:
        """Each seat's side (players.sides): partners share one; alone, each seat is its own."""
        return self._state.side_of

    @property
    def dropper(self) -> int | None:
        """Who dropped, once a drop has ended the hand (public: the hands are shown)."""
        return self._state.dropper

    @property
    def dealer(self) -> int:
        return self._state.dealer

    @property
    def has_pot(self) -> bool:
        return self._state.ruleset.ante is not None

    @property
    def pot(self) -> int:
        """The money in the pot (rulesets with a pot)."""
        return self._state.pot

    @property
    def side_pots(self) -> tuple[tuple[str, int], ...]:
        """Each side pot's name and the money in it (ruleset.side_pots), in the order written."""
        return tuple((p.id, v) for p, v in zip(self._state.ruleset.side_pots, self._state.side_pots))

    @property
    def stake(self) -> int:
        return self._state.stake

    def unseen(self) -> list[int]:
        """Cards this player has not seen: the others' hands and the stock (in card id order)."""
        return self._unseen_but(0)

    def _unseen_but(self, known: int) -> list[int]:
        """The unseen cards that are not in the mask ``known``, in card id order. One mask of
        the cards seen rather than a set: a search bot asks this of every world it deals."""
        st = self._state
        seen = known | st.hand_mask(self.seat)
        for c in st.discard_pile:
            seen |= 1 << c
        for sp in st.spreads:
            for c in sp.cards:
                seen |= 1 << c
        return [c for c in range(len(st.pack.names)) if not seen >> c & 1]  # names: a tuple (Pack's len is Python)

    @property
    def last_discards(self) -> tuple[int | None, ...]:
        """Per seat, the card they last discarded if their hand has not changed since (None
        otherwise): public, and a hint at what they kept. A hand changes in its own turn, so
        only the player in the middle of a turn (they drew) has a stale last discard."""
        st = self._state
        if st.melds.draws_last:  # the draw ends each turn: every hand changed after its last discard
            return tuple(c if c >= 0 and seat == st.current and st.phase == DRAW_LAST else None
                         for seat, c in enumerate(st.last_discard))
        acting = st.current_player() if st.phase != START else -1
        return tuple(c if c >= 0 and seat != acting else None for seat, c in enumerate(st.last_discard))

    @property
    def public_cards(self) -> tuple[int, ...]:
        """Per seat, the mask of the cards everyone saw go into that hand this hand (taken from
        the discard pile or eaten), held still or not: none of them came from the stock."""
        return tuple(self._state.public_cards)

    @property
    def shown(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the cards in that hand now that everyone has seen go into it (dealt face up,
        taken from the discard pile or eaten), in hand order: what a table shows of each hand."""
        st = self._state
        return tuple(tuple(c for c in hand if st.public_cards[seat] >> c & 1) for seat, hand in enumerate(st.hands))

    @property
    def record(self) -> tuple[tuple[int, int, int], ...]:
        """The hand's public record, oldest first: (seat, kind, card) for each draw (the card -1
        when it came from the stock) and each card seen taken, laid or discarded; the kinds are
        in tonkdsl/interpreter/table.py, and reading.turns_of groups them into each player's turns."""
        return tuple(self._state.record)

    def guess_hidden(self, rng: Rng) -> tuple[list[list[int]], list[int]]:
        """A guess at the cards this player cannot see: every hand (the player's own as it is;
        each other hand keeps its size and the cards everyone saw go into it, taken from the
        discard pile or eaten) and the stock, the other unseen cards dealt at random."""
        st = self._state
        known = [0 if seat == self.seat else st.public_cards[seat] & st.hand_mask(seat)
                 for seat in range(st.num_players)]
        every_known = 0
        for mask in known:
            every_known |= mask
        cards = self._unseen_but(every_known)
        shuffle(rng, cards)
        hands = []
        for seat in range(st.num_players):
            if seat == self.seat:
                hands.append(list(st.hands[seat]))
                continue
            held = [c for c in st.hands[seat] if known[seat] >> c & 1]
            n = len(st.hands[seat]) - len(held)
            hands.append(held + cards[:n])
            cards = cards[n:]
        return hands, cards

    def world(self, hands: Sequence[Sequence[int]], stock: Sequence[int]) -> State:
        """A full state with these hands and this stock (a guess from :meth:`guess_hidden`),
        everything else as this player sees it."""
        world = self._state.clone()
        for seat, hand in enumerate(hands):
            if seat != self.seat:
                world.set_hand(seat, hand)
        world.stock = list(stock)
        return world

    def determinize(self, rng: Rng) -> State:
        """A full state consistent with what this player sees (:meth:`guess_hidden`). For
        search bots."""
        return self.world(*self.guess_hidden(rng))


def observation(state: State, seat: int) -> View:
    return View(state, seat)


MAX_ACTIONS_PER_HAND = 50_000


def play_out(state: State, policies: Sequence[Callable[[View, Any, Rng], Any]], rng: Rng) -> int:
    """Let the policies (bots) play ``state`` to its end; returns the number of actions. Used by
    simulate, lint's simulation and the search bots' rollouts."""
    if state.is_terminal():  # not state._outcome: mypyc would take it for None in the loop below
        return 0
    legal_actions, apply = state.legal_actions, state.apply
    views = [View(state, seat) for seat in range(state.num_players)]  # a view is a live window
    for n in range(1, MAX_ACTIONS_PER_HAND + 1):
        seat = state.current if state.out_of_turn_seat is None else state.out_of_turn_seat
        apply(policies[seat](views[seat], legal_actions(), rng))
        if state._outcome is not None:
            return n
    raise RuntimeError("a hand did not end")  # pragma: no cover - the engine's turn cap ends hands first
