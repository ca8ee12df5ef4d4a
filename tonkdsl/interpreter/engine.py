"""The generic turn interpreter: one :class:`State` class plays every ruleset.

A hand is dealt by :func:`deal`. The state answers
``current_player()``, ``legal_actions()``, ``apply(action)``, ``is_terminal()``, ``outcome()``
and ``clone()``; what happens at each step is read from the ruleset, never from its name.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Sequence

from tonkdsl.interpreter.actions import Discard
from tonkdsl.interpreter.asking import Asking, open_at
from tonkdsl.interpreter.melds import table_for
from tonkdsl.interpreter.rules.base import Closing
from tonkdsl.language.expr.compiler import NOT_CONSTANT, EvalError
from tonkdsl.language.names import EvalContext
from tonkdsl.interpreter.outcome import (POT, Outcome, Payment, capped, deal_win_payments, move_pot, net, pot_change,
                                         run_scores, run_transfers, side_pot_seat)
from tonkdsl.interpreter.shuffle import shuffle
from tonkdsl.interpreter.board import PlayerStats, TableSpread
from tonkdsl.interpreter.table import LAID, MAX_TURNS, OVER, PLAY, START, VOID, IllegalAction, Layout, RulesetError
from tonkdsl.interpreter.turn_flow import TurnFlow
from tonkdsl.language.rng import Rng
from tonkdsl.language.ruleset import MAX_SEAT_CARDS, Bonus, DealWin, Ruleset

__all__ = ["IllegalAction", "Layout", "RulesetError", "State", "deal", "MAX_TURNS"]


# The attributes of a State (its slots), named once (tests/test_properties.py checks that
# State.clone copies each one).
_SLOTS = (
    "ruleset", "pack", "melds", "num_players", "dealer", "stake", "unit", "hands", "hand_value",
    "hand_sig", "hand_discards", "stock", "discard_pile", "spreads", "first_seat", "current",
    "phase", "turn_number", "round_number", "taken_discard", "hit_cards_this_turn", "stats",
    "counters", "fired", "events_fired", "deal_winners", "pending", "memory", "out_of_turn_seat",
    "spread_log", "dealt_hands", "_outcome", "_listened", "closing", "knock_declared",
    "seed", "rebuilds", "dropper", "asking", "sitting_out", "rules_taken", "eaten_turn", "totals", "hands_won", "pot", "pot_start",
    "side_pots", "side_pots_start", "paid",
    "public_cards", "last_discard", "upcard", "side_of", "record")


class State(TurnFlow):
    """One hand in progress. Create it with :func:`deal`."""

    # Fixed attributes: quicker to read than an instance dict, which CPython stops sharing
    # between instances beyond 30 keys (and reading from an unshared dict is slower).
    __slots__ = _SLOTS

    def __init__(self, ruleset: Ruleset, num_players: int, dealer: int, stake: int, unit: int | None = None,
                 *, _blank: bool = False) -> None:
        self.ruleset = ruleset
        if _blank:  # clone() sets every other slot
            return
        # The pack of this many players (several decks shuffled together for a big table).
        self.pack, self.melds = table_for(ruleset, num_players)
        self.num_players = num_players
        self.dealer = dealer
        self.stake = stake
        # The unit of a score sheet kept in units: the session's base stake, so that a hand
        # played for a higher stake counts for more units.
        self.unit = unit or stake
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        # Kept up to date as cards come and go (_draw, _take), so that the hot questions (a
        # count, could this hand hold a spread, does it hold a card that fits this spread) are
        # a lookup: the value of each hand, and its signature (MeldRules.card_sig: the mask of
        # the card ids it holds, its run bits and rank lanes, in one integer).
        self.hand_value = [0] * num_players
        self.hand_sig = [0] * num_players
        # The discard action of each card held, in the order of the hand: the discards of a
        # legal-action list are a copy of it.
        self.hand_discards: list[list[Discard]] = [[] for _ in range(num_players)]
        self.stock: list[int] = []  # the top of the stock is the last element
        self.discard_pile: list[int] = []  # the top discard is the last element
        self.spreads: list[TableSpread] = []
        self.first_seat = (dealer + 1) % num_players  # the dealer's left: each round starts there
        self.current = self.first_seat
        self.phase = START
        self.turn_number = 0
        self.round_number = 1
        self.taken_discard: int | None = None
        self.hit_cards_this_turn = 0
        self.stats = [PlayerStats() for _ in range(num_players)]
        self.counters: dict[str, list[int]] = (
            {c.name: [c.initial] * num_players for c in ruleset.counters} if ruleset.counters else {})
        self.fired: set[tuple[int, int, int, int]] = set()
        self.events_fired: set[tuple[str, int]] = set()  # (counter, event index) that changed a value
        self.deal_winners: set[int] = set()
        # What the table waits on for a construct (tonkdsl/interpreter/rules/: a discard that may
        # be slapped until the next player draws), its own value; and the player who owes an
        # extra discard (or is asked out of turn) before the player to move acts.
        self.pending: object | None = None
        # The constructs' memory of the hand (a buy's count per player), (key, value) pairs:
        # replaced, never changed (rules/base.py, remember), so that a clone shares it.
        self.memory: tuple[tuple[str, Any], ...] = ()
        self.out_of_turn_seat: int | None = None
        self.spread_log: list[tuple[int, int]] = []  # (seat, cards) of each new spread, in order
        self.dealt_hands: tuple[tuple[int, ...], ...] = ()
        self._outcome: Outcome | None = None
        self._listened = self.melds.events_listened  # events some counter listens to
        # A drop decided only after more turns: what the hand waits for (a construct's record,
        # rules.base.Closing); a drop declared after the draw that the discard completes.
        self.closing: Closing | None = None
        self.knock_declared = False
        self.seed = 0  # the deal's seed: a rebuilt stock is shuffled from it
        self.rebuilds = 0  # times the stock was rebuilt this hand
        self.dropper: int | None = None  # who dropped, once a drop ends the hand
        # Players asked out of turn (eating, a drop at any time, folding: Ruleset.windows): the
        # moment's asking (who is still to be asked; the first is out_of_turn_seat), the mask of
        # the players who folded, and the ids of the windows' rules taken this hand.
        self.asking: Asking | None = None
        self.sitting_out = 0
        self.rules_taken: list[str] = []
        # The turn in which a card was last eaten (the card taken that turn was eaten: no flag
        # to reset at every draw).
        self.eaten_turn = 0
        self.totals: tuple[int, ...] = (0,) * num_players  # the session's totals, set by the session
        self.hands_won: tuple[int, ...] = (0,) * num_players  # hands each has won in the session, set by it
        self.pot = self.pot_start = 0  # the money in the pot (carried over from earlier hands by the session)
        # The money in each side pot (ruleset.side_pots), as the pot's; and at the deal.
        self.side_pots: list[int] = [0] * len(ruleset.side_pots)
        self.side_pots_start: tuple[int, ...] = tuple(self.side_pots)
        self.paid: list[Payment] = []  # payments made during the hand: antes, bonuses
        # Per seat, the mask of the cards everyone saw go into that hand (taken from the discard
        # pile or eaten): a player's view may rely on them (the search bots' worlds keep them).
        self.public_cards = [0] * num_players
        # Per seat, the card they last discarded (-1 before their first discard): what they chose
        # to let go of is public, and says something about what they kept (the strong bot's
        # worlds weigh it). Only the discard writes it; View.last_discards works out whether the
        # hand has changed since, which keeps the draw, the commonest action, as it was.
        self.last_discard = [-1] * num_players
        self.upcard = -1  # the card turned up at the deal (-1: none), which rules may name
        # The public record of the hand, (seat, kind, card) in order (the kinds in table.py):
        # each draw, each card seen taken, laid or discarded. Players see it all; the strong
        # bot weighs its guesses at the others' hands by how likely they would have played so.
        self.record: list[tuple[int, int, int]] = []
        # Each seat's side (players.sides): partners never pay each other. A match's session
        # gives the sides of the players still in; alone, each seat is its own side.
        self.side_of: tuple[int, ...] = ruleset.sides_for(num_players)

    # --- queries ------------------------------------------------------------------------
    def current_player(self) -> int:
        """The player to act (a slapper who owes an extra discard acts before the next player)."""
        return self.out_of_turn_seat if self.out_of_turn_seat is not None else self.current

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def count(self, seat: int) -> int:
        return self.hand_value[seat]

    def counts(self) -> tuple[int, ...]:
        return tuple(self.hand_value)

    def card_id(self, name: str) -> int:
        ids = self.melds.ids_by_name.get(name)
        return ids[0] if ids else -1

    def top_discard(self) -> int | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def clone(self) -> "State":
        """An independent copy (search bots clone a state for every world and every action they
        try): the containers the hand changes are copied, the rest shared.

        Every slot written out, on a State made blank (its __init__ skipped), the stats copied
        field by field: 2.8 us a clone in plain Python, where setting the slots by name and
        copy.copy of the stats took 9.5 us. A blank State is also the one way to make a State
        without its __init__ that the compiled interpreter (mypyc, setup.py) offers.
        tests/test_properties.py checks that every slot is copied."""
        twin = State(self.ruleset, 0, 0, 0, _blank=True)
        twin.pack, twin.melds, twin.num_players = self.pack, self.melds, self.num_players
        twin.dealer, twin.stake, twin.unit, twin.first_seat = self.dealer, self.stake, self.unit, self.first_seat
        twin.current, twin.phase, twin.turn_number, twin.round_number = (
            self.current, self.phase, self.turn_number, self.round_number)
        twin.taken_discard, twin.hit_cards_this_turn = self.taken_discard, self.hit_cards_this_turn
        twin.pending, twin.memory, twin.out_of_turn_seat = self.pending, self.memory, self.out_of_turn_seat
        twin.dealt_hands, twin._outcome, twin._listened = self.dealt_hands, self._outcome, self._listened
        twin.closing, twin.knock_declared = self.closing, self.knock_declared
        twin.seed, twin.rebuilds, twin.dropper = self.seed, self.rebuilds, self.dropper
        twin.asking = self.asking.copy() if self.asking is not None else None
        twin.sitting_out, twin.eaten_turn, twin.totals = self.sitting_out, self.eaten_turn, self.totals
        twin.hands_won = self.hands_won
        twin.side_pots, twin.side_pots_start = list(self.side_pots), self.side_pots_start
        twin.pot, twin.pot_start, twin.upcard, twin.side_of = self.pot, self.pot_start, self.upcard, self.side_of
        twin.hands = [list(h) for h in self.hands]
        twin.hand_value, twin.hand_sig = list(self.hand_value), list(self.hand_sig)
        twin.hand_discards = [list(d) for d in self.hand_discards]
        twin.stock = list(self.stock)
        twin.discard_pile = list(self.discard_pile)
        twin.spreads = [TableSpread(s.owner, s.kind, list(s.cards), s.fits) for s in self.spreads]
        twin.stats = [s.copy() for s in self.stats]
        twin.counters = {k: list(v) for k, v in self.counters.items()}
        twin.fired = set(self.fired)
        twin.events_fired = set(self.events_fired)
        twin.deal_winners = set(self.deal_winners)
        twin.spread_log = list(self.spread_log)
        twin.rules_taken = list(self.rules_taken)
        twin.paid = list(self.paid)
        twin.public_cards = list(self.public_cards)
        twin.last_discard = list(self.last_discard)
        twin.record = list(self.record)
        return twin

    def _first_turn_begins(self) -> None:
        """The first turn's start: its event, and the players asked before it."""
        if self.melds.turn_start_hooks:
            self._turn_start_hooks(self.current)

    # --- hands ------------------------------------------------------------------------------
    def _take(self, seat: int, card: int) -> None:
        """Take ``card`` out of ``seat``'s hand."""
        hand = self.hands[seat]
        at = hand.index(card)
        del hand[at]
        del self.hand_discards[seat][at]
        m = self.melds
        self.hand_value[seat] -= m.value[card]
        self.hand_sig[seat] -= m.card_sig[card]

    def set_hand(self, seat: int, cards: Sequence[int]) -> None:
        """Replace ``seat``'s hand (dealing, determinizing, enumerating hands in lint)."""
        self._take_hand(seat, list(cards))

    def _take_hand(self, seat: int, hand: list[int]) -> None:
        """``hand`` (a list no one else holds) becomes ``seat``'s, with its count, signature and
        discard actions: one compiled loop over the cards (the sums of maps it replaces made a
        call per card through a method wrapper)."""
        m = self.melds
        values, sigs, discards = m.value, m.card_sig, m.discard_actions
        value = sig = 0
        actions = []
        for c in hand:
            value += values[c]
            sig += sigs[c]
            actions.append(discards[c])
        self.hands[seat] = hand
        self.hand_value[seat] = value
        self.hand_sig[seat] = sig
        self.hand_discards[seat] = actions

    def hand_mask(self, seat: int) -> int:
        """The card ids ``seat`` holds, as a mask: bit ``c`` is set when they hold card ``c``."""
        return self.hand_sig[seat] & self.melds.all_cards

    def laid_cards(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` has laid in spreads or hit onto spreads this hand, in order (the
        expressions' ``laid``); a card laid then taken back by the rules is still counted."""
        return tuple(c for s, kind, c in self.record if s == seat and kind == LAID)

    def deadwood_count(self, seat: int) -> int:
        """The count of the cards left out of the best arrangement of ``seat``'s hand (the
        expressions' ``deadwood_count``)."""
        return self.melds.deadwood_count(self.hands[seat], self.hand_sig[seat] & self.melds.all_cards)

    def _ctx(self, **roles: Any) -> EvalContext:
        return EvalContext(self, **roles)

    def _test(self, compiled: Any, actor: int) -> Any:
        """Evaluate a rule about ``actor`` (a constant is not evaluated at all)."""
        if compiled.constant is not NOT_CONSTANT:
            return compiled.constant
        return self._eval(compiled, EvalContext(self, actor))

    def _eval(self, compiled: Any, ctx: EvalContext) -> Any:
        if compiled.constant is not NOT_CONSTANT:
            return compiled.constant
        try:
            return compiled.fn(ctx)
        except EvalError as exc:
            raise RulesetError(f"the rule '{compiled.source}' failed: {exc}") from None

    # --- counters and events ------------------------------------------------------------
    def _event(self, name: str, actor: int, owner: int | None = None, spread: tuple[int, ...] = ()) -> None:
        if name not in self.melds.events_listened:
            return
        if self.ruleset.bonuses:
            self._bonuses(name, actor, owner, spread)
        for ci, counter in enumerate(self.ruleset.counters):
            values = self.counters[counter.name]
            for ei, ev in enumerate(counter.events):
                if ev.on != name:
                    continue
                if ev.target == "owner" and owner is None:
                    continue
                ctx = self._ctx(actor=actor, owner=owner, spread=spread)
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

    def _bonuses(self, name: str, actor: int, owner: int | None, spread: tuple[int, ...]) -> None:
        """Pay the bonuses of this event at once (the hand goes on)."""
        for bonus in self.ruleset.bonuses:
            if bonus.on != name or (owner is None and "owner" in _names_of(bonus)):
                continue
            self._bonuses_paid(bonus, actor, owner, spread)

    def _bonuses_paid(self, bonus: Bonus, actor: int, owner: int | None = None, spread: tuple[int, ...] = ()) -> None:
        """Pay one bonus now (its condition is read as it is paid)."""
        ctx = EvalContext(self, actor, owner=owner, spread=spread)
        try:
            self.paid += run_transfers(self, (bonus.transfer,), ctx)
        except EvalError as exc:
            raise RulesetError(str(exc)) from None

    # --- endings ------------------------------------------------------------------------
    def _end(self, kind: str, *, actor: int, dropper: int | None = None) -> None:
        self.dropper = dropper
        spec = self.ruleset.endings.get(kind)
        if spec is None:
            self._end_dead(f"the ruleset gives no rule for '{kind}': the hand is dead")
            return
        ctx = EvalContext(self, actor, dropper)
        if spec.void_if is not None and self._eval(spec.void_if, ctx):
            self._end_dead(f"'{kind}' is void here ({spec.void_if.source})")
            return
        winners = tuple(sorted(self._eval(spec.winners, ctx)))
        scores = [0] * self.num_players
        lines: list[tuple[int, int, str]] = []
        try:
            payments = run_transfers(self, spec.payouts, ctx)
            scored = run_scores(self, spec.scores, ctx, scores, lines)
            if self.melds.plan.multiplying:  # a construct counts the whole hand several times
                payments, lines = self._multiplied(kind, ctx, payments, scores, lines)
            rs = self.ruleset
            if rs.most_lost is not None or rs.most_won is not None:
                before = {pot: pot_change(payments, pot) for pot in self._pot_seats()}  # the pots hold what these paid them
                payments = capped(payments, self._cap("most_lost", rs.most_lost, ctx),
                                  self._cap("most_won", rs.most_won, ctx))
                for pot, change in before.items():
                    move_pot(self, pot, pot_change(payments, pot) - change)
        except EvalError as exc:
            raise RulesetError(str(exc)) from None
        self._set_outcome(kind, winners, payments, scores=scores, scored=scored, score_lines=tuple(lines))

    def _pot_seats(self) -> list[int]:
        """The seat numbers of the pots in payments: the game pot, then each side pot."""
        return [POT, *(side_pot_seat(i) for i in range(len(self.side_pots)))]

    def _multiplied(self, kind: str, ctx: EvalContext, payments: list[Payment], scores: list[int],
                    lines: list[tuple[int, int, str]]) -> tuple[list[Payment], list[tuple[int, int, str]]]:
        """The hand's payments between players and its score points (``scores`` in place) times the
        constructs' multiplier. Payments to or from the pot are left as they are: it pays what it
        holds. The limits (limits.most_lost, most_won) then cap the multiplied amounts."""
        times = self.melds.plan.multiplier(self, kind, ctx)
        if times == 1:
            return payments, lines
        for i, s in enumerate(scores):
            scores[i] = s * times
        return ([p if p.payer < 0 or p.payee < 0 else Payment(p.rule, p.payer, p.payee, p.amount * times)
                 for p in payments], [(seat, points * times, rule) for seat, points, rule in lines])

    def _cap(self, key: str, cap: Any, ctx: EvalContext) -> int | None:
        """A cap of limits (None: no cap). A negative cap would silently cancel every payment:
        the ruleset is wrong, and says so."""
        if cap is None:
            return None
        most = int(self._eval(cap, ctx))
        if most < 0:
            raise RulesetError(f"limits.{key} '{cap.source}' is {most}: a cap on what a hand costs or brings "
                               "cannot be below 0")
        return most

    def void(self, reason: str) -> None:
        """End the hand as void, with nothing lost: no one pays, and what was paid during the hand
        (antes, bonuses) goes back (a table does this when a rule fails at play, so that a
        ruleset's mistake never freezes it; ``reason`` says why)."""
        self.paid = []
        self.pot = self.pot_start
        self.side_pots = list(self.side_pots_start)
        self.asking = None
        self._set_outcome(VOID, (), [], reason)

    def _end_dead(self, message: str) -> None:
        self._set_outcome("dead_hand", (), [], message)

    def _set_outcome(self, kind: str, winners: tuple[int, ...], payments: Sequence[Payment],
                     message: str = "", scores: Sequence[int] | None = None, scored: Sequence[str] = (),
                     score_lines: tuple[tuple[int, int, str], ...] = ()) -> None:
        self.phase = OVER
        self.pending = None
        self.out_of_turn_seat = None
        if self.paid:  # antes and bonuses paid during the hand come first
            payments = [*self.paid, *payments]
        fired = _first_of_each([*_rules_of(payments), *scored, *self.rules_taken])
        payouts = net(self.num_players, payments)
        change = self.pot - self.pot_start  # every payment to or from the pot moved it
        side_change = tuple(v - s for v, s in zip(self.side_pots, self.side_pots_start))
        sheet = self.ruleset.score_sheet
        score_change: tuple[int, ...] = ()
        if sheet == "units":
            # The payouts are written on the score sheet in units of the stake, not paid; what is
            # less than a unit (a pot shared three ways) is paid in money, so that nothing is lost.
            unit = self.unit
            score_change = tuple(v // unit for v in payouts)
            payouts = tuple(v - units * unit for v, units in zip(payouts, score_change))
        elif sheet == "points":
            # Only the score entries count; no money changes hands.
            score_change = tuple(scores) if scores is not None else (0,) * self.num_players
            payouts = (0,) * self.num_players
            payments = ()
        self._outcome = Outcome(kind, winners, payouts, tuple(self.hand_value), tuple(payments), message,
                                _first_of_each(_rules_of(payments)), score_change, change, fired,
                                score_lines if sheet == "points" else (), side_change)

    def check_deal_wins(self) -> None:
        """Run the automatic wins on the deal (done by :func:`deal`)."""
        rs = self.ruleset
        rules = rs.automatic_deal_wins
        if not rules:
            return
        order = seat_order(self.dealer, self.num_players)
        claimants: dict[int, DealWin] = {}
        ctx = EvalContext(self)
        for seat in order:
            ctx.actor = seat
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
        scored: list[str] = []
        lines: list[tuple[int, int, str]] = []
        # Every winner's amount reads the pots as they were before any was paid.
        pot_left = {POT: self.pot, **{side_pot_seat(i): v for i, v in enumerate(self.side_pots)}}
        try:
            for seat in seats:
                payments += deal_win_payments(self, seat, claimants[seat], pot_left)
                scored += run_scores(self, claimants[seat].scores, self._ctx(actor=seat), scores, lines)
        except EvalError as exc:
            raise RulesetError(str(exc)) from None
        self.pot = pot_left[POT]
        self.side_pots = [pot_left[side_pot_seat(i)] for i in range(len(self.side_pots))]
        self._set_outcome("initial_tonk", tuple(sorted(seats)), payments, scores=scores,
                          scored=[claimants[s].id for s in seats] + scored, score_lines=tuple(lines))


def _antes(state: State, ante: Any, pot: int = POT, rule: str = "ante") -> None:
    """Each player puts the ante into the pot (the seat number ``pot``) as the hand is dealt."""
    ctx = EvalContext(state)
    for seat in range(state.num_players):
        ctx.actor = seat
        amount = int(state._eval(ante, ctx))
        if amount < 0:
            raise RulesetError(f"the ante '{ante.source}' is negative ({amount})")
        if amount:
            state.paid.append(Payment(rule, seat, pot, amount))
            move_pot(state, pot, amount)


def _face_up(state: State) -> None:
    """The cards dealt face up (deal.face_up): the last ones dealt to each player named, seen by
    everyone while they stay in that hand (``public_cards``, as a card taken from the pile)."""
    ctx = EvalContext(state)
    for to, n in state.ruleset.face_up:
        for seat in set(state._eval(to, ctx)):
            for card in state.dealt_hands[seat][-n:]:
                state.public_cards[seat] |= 1 << card


def hand_sizes(state: State) -> list[int]:
    """How many cards each seat is dealt: the hand size, plus the ruleset's extra cards."""
    rs = state.ruleset
    sizes = [rs.hand_size] * state.num_players
    ctx = EvalContext(state)
    for to, extra in rs.extra_cards:
        for seat in set(state._eval(to, ctx)):
            sizes[seat] += extra
    for seat, n in enumerate(sizes):
        if not 1 <= n <= MAX_SEAT_CARDS:  # the loader bounds the sum; this guards every deal
            raise RulesetError(f"deal.extra_cards leaves seat {seat} with {n} cards"
                               + (f" (at most {MAX_SEAT_CARDS}, MAX_SEAT_CARDS)" if n > 1 else ""))
    return sizes


def first_player(state: State) -> int:
    """The seat that plays first when the ruleset names it: the member of its set nearest the
    dealer's left (the dealer's left when the set is empty, or when the ruleset names none)."""
    order = seat_order(state.dealer, state.num_players)
    if state.ruleset.first_player is None:
        return order[0]
    seats = set(state._eval(state.ruleset.first_player, EvalContext(state)))
    return next((s for s in order if s in seats), order[0])


def _deal_uneven(order: list[int], sizes: list[int]) -> tuple[list[list[int]], int]:
    """One card at a time to each seat in turn (``sizes`` in dealing order), skipping a seat
    whose hand is full."""
    hands: list[list[int]] = [[] for _ in sizes]
    i = 0
    for rnd in range(max(sizes, default=0)):
        for k, n in enumerate(sizes):
            if rnd < n:
                hands[k].append(order[i])
                i += 1
    return hands, i


def _names_of(bonus: Bonus) -> frozenset[str]:
    t = bonus.transfer
    return t.payers.names_used | t.payees.names_used | t.amount.names_used | (
        t.when.names_used if t.when is not None else frozenset())


_NO_LAYOUT = Layout({})


def _rules_of(payments: Sequence[Payment]) -> list[str]:
    """The rule behind each payment, in order."""
    return [p.rule for p in payments]


def _first_of_each(names: list[str]) -> tuple[str, ...]:
    """The names in order, each once: ``tuple(dict.fromkeys(names))`` for the few rules of a
    hand's end, without the dict (compiled, a third of the time for one to three names)."""
    out: list[str] = []
    for name in names:
        if name not in out:
            out.append(name)
    return tuple(out)


@lru_cache(maxsize=256)
def seat_order(dealer: int, num_players: int) -> tuple[int, ...]:
    """The seats in play order from the dealer's left (the deal, the first round)."""
    return tuple((dealer + 1 + i) % num_players for i in range(num_players))


def deal(ruleset: Ruleset, num_players: int, *, seed: int = 0, dealer: int | None = None, stake: int = 1,
         layout: Layout | None = None, unit: int | None = None, totals: Sequence[int] | None = None,
         hands_won: Sequence[int] | None = None,
         pot: int = 0, sides: Sequence[int] | None = None, side_pots: Sequence[int] | None = None) -> State:
    """Shuffle with ``seed``, deal as the ruleset says, and check the automatic wins.

    Cards fixed by ``layout`` are placed first; every other card is ordered by the seeded
    shuffle and dealt one at a time, clockwise from the dealer's left.
    """
    rs = ruleset
    if num_players < 1:
        raise ValueError("a hand needs players")
    dealer = num_players - 1 if dealer is None else dealer
    state = State(rs, num_players, dealer, stake, unit)
    state.seed = seed
    state.pot = state.pot_start = pot
    if side_pots is not None:  # carried over by the session, as the pot
        if len(side_pots) != len(rs.side_pots):
            raise ValueError(f"{len(side_pots)} side pots given; the ruleset has {len(rs.side_pots)}")
        state.side_pots = list(side_pots)
        state.side_pots_start = tuple(side_pots)
    if totals is not None:
        state.totals = tuple(totals)
    if hands_won is not None:
        state.hands_won = tuple(hands_won)
    size = rs.side_size
    if sides is None and size is not None and (num_players % size or num_players < 2 * size):
        raise ValueError(f"{num_players} players cannot play in sides of {size} (players.sides)")
    if sides is not None:
        if len(sides) != num_players:
            raise ValueError(f"{len(sides)} sides given for {num_players} players")
        state.side_of = tuple(sides)
    sizes = hand_sizes(state) if rs.extra_cards else None
    need = (sum(sizes) if sizes else num_players * rs.hand_size) + (1 if rs.upcard else 0)
    size = len(state.pack.names)
    if need > size:
        dealt_text = (f"{num_players} players x {rs.hand_size} cards" if sizes is None else
                      f"hands of {', '.join(map(str, sizes))} cards")
        raise ValueError(f"the pack has {size} cards; {dealt_text}{' + the upcard' if rs.upcard else ''} need {need}")
    layout = layout or _NO_LAYOUT
    seats = seat_order(dealer, num_players)
    if layout is _NO_LAYOUT:
        order = list(range(size))
    else:
        placed = {c for h in layout.hands.values() for c in h} | set(layout.stock_top)
        if layout.upcard is not None:
            placed.add(layout.upcard)
        order = [c for c in range(size) if c not in placed]
        for seat, cards in layout.hands.items():
            want = sizes[seat] if sizes else rs.hand_size
            if len(cards) != want:
                raise ValueError(f"seat {seat} is given {len(cards)} cards, but this deal gives it {want}")
            state.set_hand(seat, cards)
        seats = tuple(seat for seat in seats if seat not in layout.hands)
    shuffle(Rng(seed), order)  # the order in which the cards not placed are dealt
    free = (sum(sizes[s] for s in seats) if sizes else len(seats) * rs.hand_size) + (
        1 if rs.upcard and layout.upcard is None else 0)
    if free > len(order):
        raise ValueError(f"the cards placed leave {len(order)} to deal, but the hands and upcard need {free}")
    # One card at a time, clockwise from the dealer's left, to each seat not fixed by the layout.
    if sizes is None:
        dealt = len(seats) * rs.hand_size
        hands = None  # one slice of the order per seat, taken below
    else:
        hands, dealt = _deal_uneven(order, [sizes[s] for s in seats])
    for i, seat in enumerate(seats):
        state._take_hand(seat, order[i:dealt:len(seats)] if hands is None else hands[i])  # a fresh slice
    if rs.upcard:
        if layout.upcard is not None:
            state.discard_pile.append(layout.upcard)
        else:
            state.discard_pile.append(order[dealt])
            dealt += 1
        state.upcard = state.discard_pile[-1]
    stock = state.stock = order[dealt:]
    stock.reverse()
    if layout.stock_top:
        stock += reversed(layout.stock_top)  # the top of the stock is the last element
    for seat, st in enumerate(state.stats):
        st.dealt_count = state.hand_value[seat]
    state.dealt_hands = tuple(map(tuple, state.hands))
    if rs.face_up:
        _face_up(state)
    if rs.first_player is not None:
        state.first_seat = state.current = first_player(state)
    if not rs.first_turn_draws:
        state.phase = PLAY  # the opener lays spreads and discards without drawing
    state.turn_number = 1
    state.stats[state.current].turns = 1
    if rs.ante is not None:
        _antes(state, rs.ante)
    for i, side in enumerate(rs.side_pots):  # then each side pot's, in the order written
        if side.ante is not None:
            _antes(state, side.ante, side_pot_seat(i), f"ante-{side.id}")
    if "dealt" in state.melds.events_listened:
        # Each player's 'dealt' event, from the dealer's left: bonuses on the deal are paid (and
        # counters set) before the automatic wins, so a hand that ends on the deal keeps them.
        for seat in seat_order(dealer, num_players):
            state._event("dealt", seat)
    state.check_deal_wins()
    if state._outcome is None and not (state.melds.asks_after_deal and open_at(state, "after_deal", state.current)):
        state._first_turn_begins()
    return state
