"""The generic turn interpreter: one :class:`State` class plays every ruleset.

A hand is dealt by :func:`deal` (or :meth:`Ruleset.new_hand`). The state answers
``current_player()``, ``legal_actions()``, ``apply(action)``, ``is_terminal()``, ``outcome()``
and ``clone()``; what happens at each step is read from the ruleset, never from its name.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from tonkdsl import actions as A
from tonkdsl.cards import CardSyntaxError, format_card, parse_card
from tonkdsl.expr.compiler import EvalError
from tonkdsl.melds import MeldRules
from tonkdsl.names import EvalContext
from tonkdsl.outcome import Outcome, Payment, deal_win_payments, net, run_scores, run_transfers
from tonkdsl.rng import Rng
from tonkdsl.ruleset import DealWin, Ruleset

MAX_TURNS = 2000  # a hand longer than this ends as a dead hand (see docs/security.md)

START, PLAY, EXTRA, OVER = "start", "play", "extra_discard", "over"


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str()`` says why in a player's words."""


class RulesetError(RuntimeError):
    """A ruleset expression failed while playing (division by zero, a negative payout)."""


@dataclass
class PlayerStats:
    dealt_count: int = 0
    spreads: int = 0
    spreads_this_turn: int = 0
    hits: int = 0
    turns: int = 0
    out_by_spread: bool = False


@dataclass
class TableSpread:
    owner: int
    kind: str
    cards: list[int]


@dataclass(frozen=True)
class Layout:
    """Cards fixed by a scenario: hands by seat, the upcard, the top of the stock (top first)."""

    hands: Mapping[int, Sequence[int]]
    upcard: int | None = None
    stock_top: Sequence[int] = ()


class State:
    """One hand in progress. Create it with :func:`deal`."""

    def __init__(self, ruleset: Ruleset, num_players: int, dealer: int, stake: int, unit: int | None = None) -> None:
        self.ruleset = ruleset
        self.pack = ruleset.pack
        self.melds = _melds_for(ruleset)
        self.num_players = num_players
        self.dealer = dealer
        self.stake = stake
        # The unit of a score sheet kept in units: the session's base stake, so that a hand
        # played for a higher stake counts for more units.
        self.unit = unit or stake
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.stock: list[int] = []  # the top of the stock is the last element
        self.discard_pile: list[int] = []  # the top discard is the last element
        self.spreads: list[TableSpread] = []
        self.current = (dealer + 1) % num_players
        self.phase = START
        self.turn_number = 0
        self.round_number = 1
        self.taken_discard: int | None = None
        self.hit_cards_this_turn = 0
        self.stats = [PlayerStats() for _ in range(num_players)]
        self.counters: dict[str, list[int]] = {c.name: [c.initial] * num_players for c in ruleset.counters}
        self.fired: set[tuple[int, int, int, int]] = set()
        self.events_fired: set[tuple[str, int]] = set()  # (counter, event index) that changed a value
        self.deal_winners: set[int] = set()
        # Slapping: the discard that may be slapped (card, discarder) until the next player
        # draws, and the slapper who owes an extra discard.
        self.slap_window: tuple[int, int] | None = None
        self.extra_discard_seat: int | None = None
        self.spread_log: list[tuple[int, int]] = []  # (seat, cards) of each new spread, in order
        self.dealt_hands: tuple[tuple[int, ...], ...] = ()
        self._outcome: Outcome | None = None
        self._name_to_id = {n: i for i, n in reversed(list(enumerate(self.pack.names)))}

    # --- queries ------------------------------------------------------------------------
    def current_player(self) -> int:
        """The player to act (a slapper who owes an extra discard acts before the next player)."""
        return self.extra_discard_seat if self.extra_discard_seat is not None else self.current

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def count(self, seat: int) -> int:
        values = self.pack.values
        return sum(values[c] for c in self.hands[seat])

    def counts(self) -> tuple[int, ...]:
        return tuple(self.count(s) for s in range(self.num_players))

    def card_id(self, name: str) -> int:
        return self._name_to_id.get(name, -1)

    def top_discard(self) -> int | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def clone(self) -> "State":
        twin = copy.copy(self)
        twin.hands = [list(h) for h in self.hands]
        twin.stock = list(self.stock)
        twin.discard_pile = list(self.discard_pile)
        twin.spreads = [TableSpread(s.owner, s.kind, list(s.cards)) for s in self.spreads]
        twin.stats = [copy.copy(s) for s in self.stats]
        twin.counters = {k: list(v) for k, v in self.counters.items()}
        twin.fired = set(self.fired)
        twin.events_fired = set(self.events_fired)
        twin.deal_winners = set(self.deal_winners)
        twin.spread_log = list(self.spread_log)
        return twin

    def _ctx(self, **roles: Any) -> EvalContext:
        return EvalContext(self, **roles)

    def _eval(self, compiled: Any, ctx: EvalContext) -> Any:
        try:
            return compiled(ctx)
        except EvalError as exc:
            raise RulesetError(f"the rule '{compiled.source}' failed: {exc}") from None

    # --- legal actions ------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[A.Action]:
        """Every action the player to act (or ``seat``, out of turn: slaps) may take now.

        Empty once the hand is over."""
        if self._outcome is not None:
            return []
        rs = self.ruleset
        names = self.pack.names
        if seat is not None and seat != self.current_player():
            return self._slap_options(seat)
        seat = self.current_player()
        out: list[A.Action] = []
        if self.phase == EXTRA:
            return [A.Discard(n) for n in dict.fromkeys(names[c] for c in self.hands[seat])]
        if self.phase == START:
            out.extend(self._slap_options(seat))
            if self._can_drop(seat):
                out.append(A.Drop())
            if self._claimable(seat) is not None:
                out.append(A.Claim())
            if "stock" in rs.draw_from:
                out.append(A.DrawStock())
            if self._can_draw_discard(seat):
                out.append(A.DrawDiscard())
            return out
        hand = self.hands[seat]
        for combo in self.melds.spreads_in(hand):
            spread = A.Spread(tuple(names[c] for c in combo))
            if not self._strands(seat, combo, spread):
                out.append(spread)
        for number, combo in self._hit_options(seat):
            hit = A.Hit(tuple(names[c] for c in combo), number)
            if not self._strands(seat, combo, hit):
                out.append(hit)
        if self._discard_allowed_now() and self._held_spread(seat) is None:
            seen: set[str] = set()
            for c in hand:
                if rs.not_the_card_taken and c == self.taken_discard:
                    continue
                if names[c] not in seen:
                    seen.add(names[c])
                    out.append(A.Discard(names[c]))
        return out

    def _slap_options(self, seat: int) -> list[A.Action]:
        slapping = self.ruleset.slapping
        if slapping is None or self.slap_window is None or self.phase != START:
            return []
        if slapping.priority == "next_player" and seat != self.current:
            return []
        card, _discarder = self.slap_window
        out: list[A.Action] = []
        for i, sp in enumerate(self.spreads):
            if self._slap_fits(seat, card, sp):
                out.append(A.Slap(self.pack.names[card], i + 1))
        return out

    def _slap_fits(self, seat: int, card: int, sp: TableSpread) -> bool:
        slapping = self.ruleset.slapping
        if slapping is None or not self._may_hit(seat, sp):
            return False
        check = self.melds.is_book if sp.kind == "book" else self.melds.is_run
        if not check(sp.cards + [card]):
            return False
        return bool(self._eval(slapping.allowed, self._ctx(actor=seat, owner=sp.owner)))

    def _held_spread(self, seat: int) -> tuple[int, ...] | None:
        """A spread the player holds and must lay before discarding, if the ruleset says so."""
        rs = self.ruleset
        if rs.hold_allowed is None or self._eval(rs.hold_allowed, self._ctx(actor=seat)):
            return None
        for combo in self.melds.spreads_in(self.hands[seat]):
            if rs.hold_except is not None and self._eval(rs.hold_except, self._ctx(actor=seat, spread=combo)):
                continue
            if not self._strands(seat, combo, A.Spread(tuple(self.pack.names[c] for c in combo))):
                return combo
        return None

    def _strands(self, seat: int, cards: Sequence[int], action: A.Action) -> bool:
        """Whether playing ``cards`` would leave the player stuck: still holding the card taken
        from the discard pile, which may not be discarded (or must be used first), with no way
        to go on. Such a play is refused, so that a hand can always continue."""
        taken = self.taken_discard
        rs = self.ruleset
        if taken is None or not (rs.not_the_card_taken or rs.discard_must_be_used):
            return False
        rest = list(self.hands[seat])
        for c in cards:
            rest.remove(c)
        if taken not in rest:
            return False
        if not rs.discard_must_be_used and len(rest) > 1:
            return False  # another card can be discarded
        twin = self.clone()
        twin.taken_discard = None  # play the action without this check, then look at what is left
        twin._apply(action)
        twin.taken_discard = taken
        return not twin.is_terminal() and twin.current == seat and twin.phase == PLAY and not twin.legal_actions()

    def _can_drop(self, seat: int) -> bool:
        return bool(self._eval(self.ruleset.drop_allowed, self._ctx(actor=seat)))

    def _claimable(self, seat: int) -> DealWin | None:
        rs = self.ruleset
        ctx = self._ctx(actor=seat)
        if rs.claim_when is not None and not self._eval(rs.claim_when, ctx):
            return None
        for rule in rs.deal_wins:
            if rule.claim is not None and self._eval(rule.claim, ctx) and self._eval(rule.when, ctx):
                return rule
        return None

    def _can_draw_discard(self, seat: int) -> bool:
        rs = self.ruleset
        if "discard" not in rs.draw_from or not self.discard_pile:
            return False
        card = self.discard_pile[-1]
        hand = self.hands[seat] + [card]
        # The card must be usable at once (discard_must_be_used), or, with an empty hand, it would
        # be the only card held and could not be discarded (not_the_card_taken): then it must fit
        # a spread.
        if rs.discard_must_be_used or (rs.not_the_card_taken and not self.hands[seat]):
            return any(card in combo for combo in self.melds.spreads_in(hand)) or any(
                card in combo for _, combo in self._hit_options(seat, hand))
        return True

    def _discard_allowed_now(self) -> bool:
        rs = self.ruleset
        if rs.discard_must_be_used and self.taken_discard in self.hands[self.current]:
            return False
        return True

    def _hit_options(self, seat: int, hand: Sequence[int] | None = None) -> list[tuple[int, tuple[int, ...]]]:
        rs = self.ruleset
        if not self.spreads:
            return []
        limit = len(hand if hand is not None else self.hands[seat])
        if rs.hits_per_turn is not None:
            limit = min(limit, rs.hits_per_turn - self.hit_cards_this_turn)
        if limit <= 0:
            return []
        cards = hand if hand is not None else self.hands[seat]
        out = []
        for i, sp in enumerate(self.spreads):
            if not self._may_hit(seat, sp):
                continue
            for combo in self.melds.hits_on(sp.cards, sp.kind, cards, limit):
                out.append((i + 1, combo))
        return out

    def _may_hit(self, seat: int, sp: TableSpread) -> bool:
        rs = self.ruleset
        if sp.kind == "book" and not rs.hit_books:
            return False
        if sp.kind == "run" and not rs.hit_runs:
            return False
        if rs.hit_spreads == "own" and sp.owner != seat:
            return False
        if rs.hit_spreads == "others" and sp.owner == seat:
            return False
        return True

    # --- applying -----------------------------------------------------------------------
    def why_illegal(self, action: A.Action) -> str | None:
        """``None`` when ``action`` is legal now, else the reason in a player's words."""
        try:
            self.clone()._apply(action)
        except IllegalAction as exc:
            return str(exc)
        return None

    def apply(self, action: A.Action | str, player: int | None = None) -> None:
        """Apply an action of the player to act, or of ``player`` out of turn (a slap).

        Raises :class:`IllegalAction` with the reason."""
        if isinstance(action, str):
            try:
                action = A.parse_action(action)
            except A.ActionSyntaxError as exc:
                raise IllegalAction(str(exc)) from None
        self._apply(action, player)

    def _apply(self, action: A.Action, player: int | None = None) -> None:
        if self._outcome is not None:
            raise IllegalAction("the hand is over")
        rs = self.ruleset
        seat = self.current_player()
        if isinstance(action, A.Slap):
            return self._slap(seat if player is None else player, action)
        if player is not None and player != seat:
            raise IllegalAction("only a slap may be played out of turn")
        if self.phase == EXTRA:
            if not isinstance(action, A.Discard):
                raise IllegalAction("you slapped: discard an extra card now")
            (card,) = self._take_ids(seat, (action.card,))
            self._remove(seat, [card])
            self.discard_pile.append(card)
            self.extra_discard_seat = None
            self.phase = START
            self._event("discarded", seat)
            if not self.hands[seat] and self._eval(rs.going_out_allowed, self._ctx(actor=seat)):
                return self._end("out_on_discard", actor=seat)
            self._open_slap_window(card, seat)
            return None
        if self.phase == START:
            if not isinstance(action, A.Slap):
                self.slap_window = None  # the discard is dead once the next player acts
            if isinstance(action, A.Drop):
                if not self._can_drop(seat):
                    raise IllegalAction("you may not drop now (the ruleset's drop condition "
                                        f"'{rs.drop_allowed.source}' is false)")
                return self._drop(seat)
            if isinstance(action, A.Claim):
                rule = self._claimable(seat)
                if rule is None:
                    raise IllegalAction("there is no win to claim now")
                return self._finish_deal_wins({seat: rule}, [seat])
            if isinstance(action, A.DrawStock):
                if "stock" not in rs.draw_from:
                    raise IllegalAction("this ruleset does not let you draw from the stock")
                if not self.stock:
                    return self._end("stock_exhausted", actor=seat)
                return self._draw(seat, self.stock.pop(), from_discard=False)
            if isinstance(action, A.DrawDiscard):
                if "discard" not in rs.draw_from:
                    raise IllegalAction("this ruleset does not let you take the discard")
                if not self.discard_pile:
                    raise IllegalAction("the discard pile is empty")
                if not self._can_draw_discard(seat):
                    raise IllegalAction("a card taken from the discard pile must go into a spread at once, "
                                        "and this one cannot")
                return self._draw(seat, self.discard_pile.pop(), from_discard=True)
            raise IllegalAction(f"you must draw first ('{action}' comes after 'draw stock' or 'draw discard')")
        # PLAY phase
        if isinstance(action, (A.Drop, A.Claim)):
            raise IllegalAction(f"'{action}' is only allowed at the start of your turn, before drawing")
        if isinstance(action, (A.DrawStock, A.DrawDiscard)):
            raise IllegalAction("you have already drawn this turn")
        if isinstance(action, A.Spread):
            cards = self._take_ids(seat, action.cards)
            self._refuse_stranding(seat, cards, action)
            kind = self.melds.kind(cards)
            if kind is None:
                raise IllegalAction(f"{' '.join(action.cards)} is not a spread (a book is "
                                    f"{rs.book_min}-{rs.book_max} cards of one rank; a run is "
                                    f"{rs.run_min}+ cards in sequence of one suit)")
            self._remove(seat, cards)
            self.spreads.append(TableSpread(seat, kind, sorted(cards, key=self._run_key)))
            self.spread_log.append((seat, len(cards)))
            st = self.stats[seat]
            st.spreads += 1
            st.spreads_this_turn += 1
            self._event("spread_laid", seat)
            return self._after_play(seat, by_spread=True)
        if isinstance(action, A.Hit):
            cards = self._take_ids(seat, action.cards)
            self._refuse_stranding(seat, cards, action)
            if action.target > len(self.spreads):
                raise IllegalAction(f"there is no spread {action.target} (spreads on the table: {len(self.spreads)})")
            sp = self.spreads[action.target - 1]
            if not self._may_hit(seat, sp):
                what = {"book": "books", "run": "runs"}[sp.kind]
                if (sp.kind == "book" and not rs.hit_books) or (sp.kind == "run" and not rs.hit_runs):
                    raise IllegalAction(f"{what} cannot be hit in this ruleset")
                raise IllegalAction("you may not hit that player's spread in this ruleset")
            if rs.hits_per_turn is not None and self.hit_cards_this_turn + len(cards) > rs.hits_per_turn:
                raise IllegalAction(f"only {rs.hits_per_turn} card(s) may be played onto spreads per turn")
            check = self.melds.is_book if sp.kind == "book" else self.melds.is_run
            if not check(sp.cards + cards):
                raise IllegalAction(f"{' '.join(action.cards)} does not fit spread {action.target} "
                                    f"({' '.join(self.pack.names[c] for c in sp.cards)})")
            self._remove(seat, cards)
            sp.cards = sorted(sp.cards + cards, key=self._run_key)
            self.stats[seat].hits += len(cards)
            self.hit_cards_this_turn += len(cards)
            self._event("spread_hit", seat, owner=sp.owner)
            if rs.hit_ends_turn and self.hands[seat]:
                return self._next_turn()
            return self._after_play(seat, by_spread=False)
        if isinstance(action, A.Discard):
            (card,) = self._take_ids(seat, (action.card,))
            if rs.not_the_card_taken and card == self.taken_discard:
                raise IllegalAction(f"you may not discard {action.card}: you took it from the discard pile "
                                    "this turn")
            if not self._discard_allowed_now():
                raise IllegalAction("the card you took from the discard pile must go into a spread first")
            held = self._held_spread(seat)
            if held is not None:
                raise IllegalAction(f"you hold a spread ({' '.join(self.pack.names[c] for c in held)}): "
                                    "lay it before you discard")
            self._remove(seat, [card])
            self.discard_pile.append(card)
            self._event("discarded", seat)
            if not self.hands[seat] and self._eval(rs.going_out_allowed, self._ctx(actor=seat)):
                self.stats[seat].out_by_spread = False
                return self._end("out_on_discard", actor=seat)
            self._next_turn()
            if self._outcome is None:
                self._open_slap_window(card, seat)
            return None
        raise IllegalAction(f"'{action}' is not possible now")  # pragma: no cover

    def _refuse_stranding(self, seat: int, cards: Sequence[int], action: A.Action) -> None:
        if self._strands(seat, cards, action):
            name = self.pack.names[self.taken_discard] if self.taken_discard is not None else "?"
            raise IllegalAction(f"that would leave you holding only {name}, which you took from the discard "
                                "pile this turn and may not discard")

    def _open_slap_window(self, card: int, discarder: int) -> None:
        if self.ruleset.slapping is not None:
            self.slap_window = (card, discarder)

    def _slap(self, seat: int, action: A.Slap) -> None:
        slapping = self.ruleset.slapping
        if slapping is None:
            raise IllegalAction("this ruleset has no slapping")
        if self.slap_window is None or self.phase != START:
            raise IllegalAction("there is no discard to slap now")
        card, discarder = self.slap_window
        if self.pack.names[card] != action.card:
            raise IllegalAction(f"only the last discard ({self.pack.names[card]}) may be slapped")
        if slapping.priority == "next_player" and seat != self.current:
            raise IllegalAction("only the next player may slap in this ruleset")
        if action.target > len(self.spreads):
            raise IllegalAction(f"there is no spread {action.target} (spreads on the table: {len(self.spreads)})")
        sp = self.spreads[action.target - 1]
        if not self._slap_fits(seat, card, sp):
            raise IllegalAction(f"{action.card} cannot be slapped onto spread {action.target}")
        self.discard_pile.pop()
        self.slap_window = None
        sp.cards = sorted(sp.cards + [card], key=self._run_key)
        self.stats[seat].hits += 1
        self._event("spread_hit", seat, owner=sp.owner)
        extra = slapping.own_card_extra_discard if seat == discarder else slapping.extra_discard
        if extra and self.hands[seat]:
            self.extra_discard_seat = seat
            self.phase = EXTRA

    def _run_key(self, c: int) -> tuple[int, str]:
        return (self.pack.run_index[c], self.pack.names[c])

    def _take_ids(self, seat: int, cards: Sequence[str]) -> list[int]:
        """Map card names to ids in ``seat``'s hand; jokers take any joker held."""
        hand = self.hands[seat]
        used: list[int] = []
        for name in cards:
            try:
                canon = format_card(*parse_card(name))
            except CardSyntaxError as exc:
                raise IllegalAction(str(exc)) from None
            match = next((c for c in hand if self.pack.names[c] == canon and c not in used), None)
            if match is None:
                if canon in self.pack.names:
                    raise IllegalAction(f"you do not hold {canon}" if canon not in
                                        [self.pack.names[c] for c in used] else f"{canon} is named twice")
                raise IllegalAction(f"{canon} is not in this ruleset's pack")
            used.append(match)
        return used

    def _remove(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)

    def _draw(self, seat: int, card: int, *, from_discard: bool) -> None:
        self.hands[seat].append(card)
        self.taken_discard = card if from_discard else None
        self.phase = PLAY
        self._event("drew", seat)
        self._event("drew_discard" if from_discard else "drew_stock", seat)

    def _after_play(self, seat: int, *, by_spread: bool) -> None:
        if self.hands[seat]:
            return None
        st = self.stats[seat]
        st.out_by_spread = by_spread
        if self._eval(self.ruleset.going_out_allowed, self._ctx(actor=seat)):
            return self._end("tonk_out", actor=seat)
        return self._next_turn()  # cannot go out now: the turn passes with an empty hand

    def _drop(self, seat: int) -> None:
        won = self._eval(self.ruleset.drop_wins_if, self._ctx(actor=seat))
        self._end("drop_won" if won else "drop_caught", actor=seat, dropper=seat)

    def _next_turn(self) -> None:
        prev = self.current
        self.current = (self.current + 1) % self.num_players
        if self.current == (self.dealer + 1) % self.num_players:
            self.round_number += 1
            self._event("round_end", prev)
        self._start_turn()

    def _start_turn(self) -> None:
        seat = self.current
        self.phase = START
        self.taken_discard = None
        self.hit_cards_this_turn = 0
        self.turn_number += 1
        st = self.stats[seat]
        st.turns += 1
        st.spreads_this_turn = 0
        if self.turn_number > MAX_TURNS:
            self._end_dead(f"the hand reached the engine's turn cap ({MAX_TURNS} turns, MAX_TURNS)")
            return
        if not self.stock and self.ruleset.stock_exhausted == "last_card_drawn":
            self._end("stock_exhausted", actor=seat)
            return
        self._event("turn_start", seat)

    # --- counters and events ------------------------------------------------------------
    def _event(self, name: str, actor: int, owner: int | None = None) -> None:
        for ci, counter in enumerate(self.ruleset.counters):
            values = self.counters[counter.name]
            for ei, ev in enumerate(counter.events):
                if ev.on != name:
                    continue
                if ev.target == "owner" and owner is None:
                    continue
                ctx = self._ctx(actor=actor, owner=owner)
                if ev.when is not None and not self._eval(ev.when, ctx):
                    continue
                targets = (range(self.num_players) if ev.target == "everyone"
                           else [owner if ev.target == "owner" else actor])
                for t in targets:
                    assert t is not None
                    if ev.once_per is not None:
                        period = self.round_number if ev.once_per == "round" else self.turn_number
                        key = (ci, ei, t, period)
                        if key in self.fired:
                            continue
                        self.fired.add(key)
                    v = values[t]
                    if ev.set is not None:
                        v = ev.set
                    if ev.add is not None:
                        v += ev.add
                    if counter.floor is not None:
                        v = max(v, counter.floor)
                    values[t] = v
                    self.events_fired.add((counter.name, ei))

    # --- endings ------------------------------------------------------------------------
    def _end(self, kind: str, *, actor: int, dropper: int | None = None) -> None:
        spec = self.ruleset.endings.get(kind)
        if spec is None:
            self._end_dead(f"the ruleset gives no rule for '{kind}': the hand is dead")
            return
        ctx = self._ctx(actor=actor, dropper=dropper)
        if spec.void_if is not None and self._eval(spec.void_if, ctx):
            self._end_dead(f"'{kind}' is void here ({spec.void_if.source})")
            return
        winners = tuple(sorted(self._eval(spec.winners, ctx)))
        scores = [0] * self.num_players
        try:
            payments = run_transfers(self, spec.payouts, ctx)
            run_scores(self, spec.scores, ctx, scores)
        except EvalError as exc:
            raise RulesetError(str(exc)) from None
        self._set_outcome(kind, winners, payments, scores=scores)

    def _end_dead(self, message: str) -> None:
        self._set_outcome("dead_hand", (), [], message)

    def _set_outcome(self, kind: str, winners: tuple[int, ...], payments: Sequence[Payment],
                     message: str = "", scores: Sequence[int] | None = None) -> None:
        self.phase = OVER
        self.slap_window = None
        self.extra_discard_seat = None
        payouts = net(self.num_players, payments)
        sheet = self.ruleset.score_sheet
        score_change: tuple[int, ...] = ()
        if sheet == "units":
            # The payouts are written on the score sheet in units of the stake, not paid.
            score_change = tuple(v // self.unit for v in payouts)
            payouts = (0,) * self.num_players
        elif sheet == "points":
            # Only the score entries count; no money changes hands.
            score_change = tuple(scores) if scores is not None else (0,) * self.num_players
            payouts = (0,) * self.num_players
            payments = ()
        self._outcome = Outcome(kind, winners, payouts, self.counts(), tuple(payments), message,
                                tuple(dict.fromkeys(p.rule for p in payments)), score_change)

    def check_deal_wins(self) -> None:
        """Run the automatic wins on the deal (done by :func:`deal`)."""
        rs = self.ruleset
        order = [(self.dealer + 1 + i) % self.num_players for i in range(self.num_players)]
        rules = sorted((r for r in rs.deal_wins if r.claim is None), key=lambda r: -r.priority)
        claimants: dict[int, DealWin] = {}
        for seat in order:
            ctx = self._ctx(actor=seat)
            for rule in rules:
                if self._eval(rule.when, ctx):
                    claimants[seat] = rule
                    break
        if not claimants:
            return
        seats = [s for s in order if s in claimants]
        if len(seats) > 1:
            policy = rs.several_deal_wins
            if policy == "best":
                top = max(claimants[s].priority for s in seats)
                seats = [s for s in seats if claimants[s].priority == top]
                rule = claimants[seats[0]]
                if rule.prefer is not None and len(seats) > 1:
                    counts = {s: self.count(s) for s in seats}
                    pick = min if rule.prefer == "lowest_count" else max
                    best = pick(counts.values())
                    seats = [s for s in seats if counts[s] == best]
                policy = "single" if len(seats) == 1 else (rule.tie or rs.deal_win_tie)
                if policy == "nearest_left":
                    seats, policy = seats[:1], "single"
            if policy == "redeal":
                self._set_outcome("redeal", (), [], "several automatic wins: the deal is void")
                return
            if policy == "dead_hand":
                self._set_outcome("dead_hand", (), [], "several automatic wins: the hand is dead")
                return
        self._finish_deal_wins(claimants, seats)

    def _finish_deal_wins(self, claimants: Mapping[int, DealWin], seats: Sequence[int]) -> None:
        self.deal_winners = set(seats)
        payments: list[Payment] = []
        scores = [0] * self.num_players
        try:
            for seat in seats:
                payments += deal_win_payments(self, seat, claimants[seat])
                run_scores(self, claimants[seat].scores, self._ctx(actor=seat), scores)
        except EvalError as exc:
            raise RulesetError(str(exc)) from None
        self._set_outcome("initial_tonk", tuple(sorted(seats)), payments, scores=scores)


_MELD_CACHE: dict[int, MeldRules] = {}


def _melds_for(rs: Ruleset) -> MeldRules:
    # MeldRules are derived from an immutable ruleset: build them once per ruleset object.
    key = id(rs)
    cached = _MELD_CACHE.get(key)
    if cached is None or cached.pack is not rs.pack:
        cached = MeldRules(rs)
        _MELD_CACHE[key] = cached
    return cached


def deal(ruleset: Ruleset, num_players: int, *, seed: int = 0, dealer: int | None = None, stake: int = 1,
         layout: Layout | None = None, unit: int | None = None) -> State:
    """Shuffle with ``seed``, deal as the ruleset says, and check the automatic wins.

    Cards fixed by ``layout`` are placed first; every other card is ordered by the seeded
    shuffle and dealt one at a time, clockwise from the dealer's left.
    """
    rs = ruleset
    if num_players < 1:
        raise ValueError("a hand needs players")
    need = num_players * rs.hand_size + (1 if rs.upcard else 0)
    if need > len(rs.pack):
        raise ValueError(f"the pack has {len(rs.pack)} cards; {num_players} players x {rs.hand_size} cards"
                         f"{' + the upcard' if rs.upcard else ''} need {need}")
    dealer = num_players - 1 if dealer is None else dealer
    state = State(rs, num_players, dealer, stake, unit)
    layout = layout or Layout({})
    placed = [c for h in layout.hands.values() for c in h] + list(layout.stock_top)
    if layout.upcard is not None:
        placed.append(layout.upcard)
    rest = [c for c in range(len(rs.pack)) if c not in set(placed)]
    Rng(seed).shuffle(rest)
    rest.reverse()  # so that pop() takes the next card of the shuffled order
    for seat, cards in layout.hands.items():
        state.hands[seat] = list(cards)
    for _ in range(rs.hand_size):
        for i in range(num_players):
            seat = (dealer + 1 + i) % num_players
            if seat not in layout.hands:
                state.hands[seat].append(rest.pop())
    if rs.upcard:
        state.discard_pile.append(layout.upcard if layout.upcard is not None else rest.pop())
    stock_order = list(layout.stock_top) + rest[::-1]
    state.stock = stock_order[::-1]
    for seat in range(num_players):
        state.stats[seat].dealt_count = state.count(seat)
    state.dealt_hands = tuple(tuple(h) for h in state.hands)
    state.turn_number = 1
    state.stats[state.current].turns = 1
    state.check_deal_wins()
    if state._outcome is None:
        state._event("turn_start", state.current)
    return state
