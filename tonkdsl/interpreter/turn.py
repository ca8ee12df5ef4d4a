"""The turn: which actions are legal now, and what each action does.

:class:`TurnRules` is the part of :class:`~tonkdsl.interpreter.engine.State` that follows a turn: start
(drop, claim, draw), play (spreads, hits, discard), and the slaps and extra discards that may
come between turns. Every guard and limit is read from the ruleset.
"""
from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Any, Callable, Final, Mapping, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter import asking
from tonkdsl.interpreter.melds import MeldRules
from tonkdsl.interpreter.rules import rule_of_kind
from tonkdsl.interpreter.rules.base import Closing, Guard
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.board import PlayerStats, TableSpread
from tonkdsl.interpreter.table import (ASK, DISCARDED, DRAW_LAST, DREW_STOCK, DROP_DECLINED, EXTRA, LAID, MAX_TURNS, OVER, PLAY,
                                      START, NO_SLOTS, TOOK, IllegalAction)
from tonkdsl.language.cards import CardSyntaxError, Pack, format_card, parse_card
from tonkdsl.language.names import EvalContext
from tonkdsl.language.ruleset import Bonus, DealWin, Ruleset

# The kinds of action a play list is built of (Final: compiled, read from C variables rather
# than looked up in the actions module at each turn).
_ACTION_LIST: Final = A.ActionList
_SPREAD: Final = A.Spread
_HIT: Final = A.Hit
_DISCARD: Final = A.Discard

_DROP, _CLAIM, _DRAW_STOCK, _DRAW_DISCARD = A.Drop(), A.Claim(), A.DrawStock(), A.DrawDiscard()
# The two steps of the player to move's own turn, named as the moments of the asking are
# (turn.in_turn guards the actions of each).
TURN_START, AFTER_DRAW = "turn_start", "after_draw"


def _position(hand: list[int], card: int) -> int:
    """Where ``card`` is in ``hand``, else -1: one loop on machine integers where compiled, not
    ``in`` then ``index`` (two generic scans comparing Python ints)."""
    for at in range(len(hand)):
        if hand[at] == card:
            return at
    return -1


class TurnRules:
    """Legal actions and their effects (a part of State)."""

    # State declares the slots. The attributes and methods State and TurnFlow provide, declared
    # here so that mypy checks them and mypyc (setup.py) compiles their reads to direct slot
    # reads; the methods' bodies never run (State's own definitions override them).
    __slots__ = NO_SLOTS

    ruleset: Ruleset
    pack: Pack
    melds: MeldRules
    num_players: int
    dealer: int
    first_seat: int
    hands: list[list[int]]
    stock: list[int]
    discard_pile: list[int]
    spreads: list[TableSpread]
    current: int
    phase: str
    turn_number: int
    round_number: int
    taken_discard: int | None
    hit_cards_this_turn: int
    stats: list[PlayerStats]
    pending: object | None
    memory: tuple[tuple[str, Any], ...]
    out_of_turn_seat: int | None
    spread_log: list[tuple[int, int]]
    _outcome: Outcome | None
    _listened: frozenset[str]
    hand_value: list[int]
    hand_sig: list[int]
    hand_discards: list[list[A.Discard]]
    closing: Closing | None
    knock_declared: bool
    seed: int
    rebuilds: int
    public_cards: list[int]
    last_discard: list[int]
    record: list[tuple[int, int, int]]
    asking: asking.Asking | None
    sitting_out: int
    rules_taken: list[str]
    eaten_turn: int

    def _take(self, seat: int, card: int) -> None: raise NotImplementedError

    def current_player(self) -> int: raise NotImplementedError
    def clone(self) -> Any: raise NotImplementedError
    def is_terminal(self) -> bool: raise NotImplementedError
    def _ctx(self, **roles: Any) -> EvalContext: raise NotImplementedError
    def _test(self, compiled: Any, actor: int) -> Any: raise NotImplementedError
    def _eval(self, compiled: Any, ctx: EvalContext) -> Any: raise NotImplementedError
    def _event(self, name: str, actor: int, owner: int | None = None, spread: tuple[int, ...] = ()) -> None: raise NotImplementedError
    def _bonuses_paid(self, bonus: Bonus, actor: int, owner: int | None = None,
                      spread: tuple[int, ...] = ()) -> None: raise NotImplementedError
    def _end(self, kind: str, *, actor: int, dropper: int | None = None) -> None: raise NotImplementedError
    def _end_dead(self, message: str) -> None: raise NotImplementedError
    def _finish_deal_wins(self, claimants: Mapping[int, DealWin], seats: Sequence[int]) -> None: raise NotImplementedError
    # provided by TurnFlow (tonkdsl/interpreter/turn_flow.py)
    def _with_play_drop(self, seat: int) -> A.ActionList: raise NotImplementedError
    def _drop_ok_without(self, seat: int, card: int) -> bool: raise NotImplementedError
    def _knock(self, seat: int) -> None: raise NotImplementedError
    def _refuse_drop(self, seat: int, at: str = TURN_START) -> None: raise NotImplementedError
    def _rebuild_stock(self) -> bool: raise NotImplementedError
    def may_act_out_of_turn(self, seat: int, action: A.Action) -> bool: raise NotImplementedError
    def _after_discard(self, seat: int, card: int) -> bool: raise NotImplementedError
    def _first_turn_begins(self) -> None: raise NotImplementedError

    # --- legal actions ------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[A.Action]:
        """Every action the player to act (or ``seat``, out of turn: slaps) may take now.

        Empty once the hand is over. The list is an :class:`~tonkdsl.interpreter.actions.ActionList`
        (grouped by kind, with the card ids of the discards)."""
        if seat is None and self.out_of_turn_seat is None:  # the common case first
            phase = self.phase
            if phase == PLAY:  # the play list itself unless a drop or a claim may join it (one call less)
                return self._play_options(self.current) if self.melds.play_extras else self._play_list(self.current)
            if phase == START:
                return self._start_options(self.current)
        if self._outcome is not None:
            return []
        current = self.out_of_turn_seat if self.out_of_turn_seat is not None else self.current
        if seat is not None and seat != current:
            if self.phase == ASK:  # a player further down may answer at once
                return asking.options(self, seat, with_pass=False)  # type: ignore[arg-type]
            return self.melds.plan.options(self, seat)  # type: ignore[arg-type]
        phase = self.phase
        if phase == PLAY:
            return self._play_options(current)
        if phase == START:
            return self._start_options(current)
        if phase == ASK:
            return asking.options(self)  # type: ignore[arg-type]
        if phase == DRAW_LAST:  # the draw that ends a turn whose draw comes last: from the stock
            out = A.ActionList((_DRAW_STOCK,))
            out.spans = {A.DrawStock: (0, 1)}
            out.discard_cards = _NO_CARDS
            return out
        out = A.ActionList()  # EXTRA: a player who owes an extra discard discards any card
        out.spans = {}
        out.discard_cards = _NO_CARDS
        self._add_discards(out, current, None)
        return out

    def _start_kinds(self, seat: int) -> int:
        """Which of the start's drop and claim ``seat`` may play now, with the draws always legal
        (bits of _START: 1 drop, 2 claim, 4 draw stock)."""
        melds = self.melds
        kinds = melds.start_kinds
        if melds.drop_varies and self._can_drop(seat):  # (no drop in the last round after a drop)
            kinds |= 1
        elif melds.plan.taking_refused_drops and not kinds & 1 and self._drop_refused_by_condition(seat):
            kinds |= 1  # a drop not allowed is offered all the same: a construct takes it (TurnRule.take_refused_drop)
        if melds.has_claims and self._claimable(seat) is not None:
            kinds |= 2
        return kinds

    def _start_options(self, seat: int) -> A.ActionList:
        melds = self.melds
        kinds = self._start_kinds(seat)  # which of drop, claim, draw stock, draw discard are legal (bits of _START)
        # Taking the discard into a hand that keeps other cards needs no check unless the card
        # must be played at once (see _can_draw_discard).
        if melds.draws_discard and self.discard_pile and (
                (self.hands[seat] and not self.ruleset.discard_must_be_used and melds.free_discard_draw)
                or self._can_draw_discard(seat)):
            kinds |= 8
        if kinds & 12 == 12 and self.ruleset.must_take is not None and self._test(self.ruleset.must_take, seat):
            kinds &= ~4  # the discard must be taken: no draw from the stock
        # What a construct offers while the table waits on it (a discard that may be slapped), and
        # its other ways to begin a turn (digging into the discard pile).
        extra = self.melds.plan.options(self, seat) if self.pending is not None else None  # type: ignore[arg-type]
        if melds.starts_extra:
            extra = (extra or []) + melds.plan.start_options(self, seat)  # type: ignore[arg-type]
        discards: Sequence[int] = _NO_CARDS
        if melds.draws_last:  # the turn begins with its plays: its draw comes last
            plays, discards = self._plays_before_draw(seat, kinds)
            extra = (extra or []) + plays
        actions, spans = _START_LISTS.get(kinds) or _start_list(kinds)
        out = _ACTION_LIST(actions)
        out.discard_cards = discards
        if extra:  # the constructs' actions come first
            n = len(extra)
            out[:0] = extra
            out.spans = {**_spans_of(extra), **{k: (a + n, b + n) for k, (a, b) in spans.items()}}
        else:
            out.spans = spans  # shared: the spans of an ActionList are read, never changed
        return out

    def _plays_before_draw(self, seat: int, kinds: int) -> tuple[list[A.Action], Sequence[int]]:
        """What the player to move may play at the start of a turn whose draw comes last (and
        the card ids of its discards): what they could play after a draw elsewhere (spreads,
        hits, discards, a drop in play), asked as in the play phase, but the drop and the claim
        the start offers itself (``kinds``), which are the start's."""
        self.phase = PLAY
        try:
            played = self._play_options(seat)
        finally:
            self.phase = START
        plays = [a for a in played if not ((kinds & 1 and type(a) is A.Drop) or (kinds & 2 and type(a) is A.Claim))]
        return plays, played.discard_cards

    def _played_before_draw(self, seat: int, action: A.Action) -> bool:
        """At the start of a turn whose draw comes last, play ``action`` as in the play phase
        when it is one of those plays (the turn goes on in that phase); False when it is not (a
        drop or a claim the start offers itself, a draw)."""
        kind = type(action)
        if kind is A.Drop or kind is A.Claim:
            if self._start_kinds(seat) & (1 if kind is A.Drop else 2):
                return False
        handler = _HANDLERS[PLAY].get(kind)
        if handler is None:
            return False
        self.phase = PLAY
        try:
            handler(self, seat, action)
        except IllegalAction:  # (every handler refuses before it changes anything)
            self.phase = START
            raise
        return True

    def _play_options(self, seat: int) -> A.ActionList:
        """What ``seat`` may do after drawing (a drop joins where the ruleset allows it then,
        and a claim where a bonus paid on claim may be claimed)."""
        out = self._with_play_drop(seat) if self.melds.play_drop else self._play_list(seat)
        if self.melds.claims_in_play and self._bonus_claims(seat):
            claimed = A.ActionList(out)  # a new list: spans may be shared between lists
            claimed.spans = {**out.spans, A.Claim: (len(out), len(out) + 1)}
            claimed.discard_cards = out.discard_cards
            claimed.append(_CLAIM)
            out = claimed
        if self.melds.plan.in_play:  # what the constructs offer after the draw, last
            extra = self.melds.plan.play_options(self, seat, out)  # type: ignore[arg-type]
            if extra:
                more = A.ActionList(out)
                n = len(out)
                more.spans = {**out.spans, **{k: (a + n, b + n) for k, (a, b) in _spans_of(extra).items()}}
                more.discard_cards = out.discard_cards
                if _DISCARD in more.spans and not out.discard_cards:  # a construct's own discards (the card drawn)
                    more.discard_cards = [self._take_ids(seat, (a.card,))[0] for a in extra if isinstance(a, A.Discard)]
                more += extra
                return more
        return out

    def _bonus_claims(self, seat: int) -> list[Bonus]:
        """The bonuses paid on claim that ``seat`` may claim now: not yet claimed this hand, and
        their condition holds."""
        if self.melds.guards and self._guard_fails(AFTER_DRAW, "claim", seat) is not None:
            return []
        ctx = self._ctx(actor=seat, spread=self._claimed_spread(seat))
        return [b for b in self.ruleset.bonuses if b.on == "claim" and b.transfer.id not in self.rules_taken
                and (b.transfer.when is None or self._eval(b.transfer.when, ctx))]

    def _claimed_spread(self, seat: int) -> tuple[int, ...]:
        """What 'spread' is in a claim: the spread ``seat`` laid last this turn, as it is now (a
        card hit onto it since counts), or no cards when they laid none this turn."""
        if not self.stats[seat].spreads_this_turn:
            return ()
        # Spreads only ever join the end of the table, and this is the claimant's own turn: the
        # last spread they own is the last they laid.
        return next((tuple(sp.cards) for sp in reversed(self.spreads) if sp.owner == seat), ())

    def _do_claim_bonus(self, seat: int, action: A.Action) -> None:
        claims = self._bonus_claims(seat) if self.melds.claims_in_play else []
        if not claims:
            raise IllegalAction(self._guard_refusal(AFTER_DRAW, "claim", seat, "claim now")
                                or "there is nothing to claim now")
        self._note_guards(AFTER_DRAW, "claim")
        spread = self._claimed_spread(seat)
        for bonus in claims:
            self.rules_taken.append(bonus.transfer.id)
            self._bonuses_paid(bonus, seat, spread=spread)

    def _play_list(self, seat: int) -> A.ActionList:
        """The spreads, hits and discards ``seat`` may play after drawing."""
        rs = self.ruleset
        melds = self.melds
        hand = self.hands[seat]
        out = _ACTION_LIST()
        # The spans are kept here and set on the list once, at the end: each attribute set on an
        # ActionList (a Python class) is a generic store, and this list is made at every turn.
        spans = _NO_SPANS  # replaced by a list's own spans once it has spreads or hits
        # The hand's signature is kept by the state: most hands fail its two bit tests at once.
        combos = melds.spreads_in(hand, self.hand_sig[seat] if melds.indexable else None)
        # Identical cards (jokers, several decks) make the same action from different ids:
        # each action is listed once.
        seen: set[Any] | None = None
        if combos:
            if not melds.unique_names:
                seen = set()
            spread_of = melds.spread_actions
            for combo in combos:
                spread = spread_of.get(combo) or melds.spread_action(combo)
                if seen is not None:
                    key = tuple(sorted(spread.cards))
                    if key in seen:
                        continue
                    seen.add(key)
                if (not melds.spread_checked or self._may_spread(seat, combo)) and not self._strands(seat, combo, spread):
                    out.append(spread)
            if out:
                spans = {_SPREAD: (0, len(out))}
        if self.spreads:
            start = len(out)
            if seen is None and not melds.unique_names:
                seen = set()
            for number, combo in self._hit_options(seat):
                hit = melds.hit_action(combo, number)
                if seen is not None:
                    hit_key = (tuple(sorted(hit.cards)), number)
                    if hit_key in seen:
                        continue
                    seen.add(hit_key)
                if not self._strands(seat, combo, hit):
                    out.append(hit)
            if len(out) > start:
                if spans is _NO_SPANS:
                    spans = {}
                spans[_HIT] = (start, len(out))
        taken = self.taken_discard
        if taken is not None:
            if self._must_use_taken() and taken in hand:
                return _finished(out, spans, _NO_CARDS)  # the card taken must go into a spread before any discard
            skip = taken if rs.not_the_card_taken else None
        else:
            skip = None
        if rs.hold_allowed is not None and self._held_spread(seat) is not None:
            return _finished(out, spans, _NO_CARDS)
        if melds.discards_checked and melds.plan.discard_refusal(self, seat) is not None:  # type: ignore[arg-type]
            return _finished(out, spans, _NO_CARDS)  # a construct holds the turn open (an opening to complete)
        if melds.unique_names and hand and (skip is None or skip not in hand):
            # The common case: one discard per card, kept by the state beside the hand.
            if out:  # then spans is the list's own (made above)
                n = len(out)
                spans[_DISCARD] = (n, n + len(hand))
            else:  # discards only: spans shared by every list of this length
                spans = _DISCARDS_ONLY.get(len(hand)) or _discards_only(len(hand))
            out += self.hand_discards[seat]
            return _finished(out, spans, hand[:])
        self._add_discards(_finished(out, spans, _NO_CARDS), seat, skip)
        return out

    def _add_discards(self, out: A.ActionList, seat: int, skip: int | None) -> None:
        """Append a discard of each card of ``seat``'s hand but ``skip`` (two jokers are one
        discard)."""
        hand = self.hands[seat]
        discard_of = self.melds.discard_actions
        # Identical cards (several decks) share one discard action: skipping the card taken
        # skips its twins too, and each name is offered once.
        seen: set[int] = {id(discard_of[skip])} if skip is not None else set()
        cards = []
        for c in hand:
            if id(discard_of[c]) not in seen:
                seen.add(id(discard_of[c]))
                cards.append(c)
        if cards:
            if out.spans is _NO_SPANS:
                out.spans = {}
            out.spans[_DISCARD] = (len(out), len(out) + len(cards))
            out += map(discard_of.__getitem__, cards)
            out.discard_cards = cards

    def _held_spread(self, seat: int) -> tuple[int, ...] | None:
        """A spread the player holds and must lay before discarding, if the ruleset says so."""
        rs = self.ruleset
        if rs.hold_allowed is None or self._eval(rs.hold_allowed, self._ctx(actor=seat)):
            return None
        for combo in self.melds.spreads_in(self.hands[seat]):
            if rs.hold_except is not None and self._eval(rs.hold_except, self._ctx(actor=seat, spread=combo)):
                continue
            if not self._may_spread(seat, combo):
                continue  # a spread that may not be laid now may be held
            if not self._strands(seat, combo, self.melds.spread_action(combo)):
                return combo
        return None

    def _strands(self, seat: int, cards: Sequence[int], action: A.Action) -> bool:
        """Whether playing ``cards`` would leave the player stuck: still holding the card taken
        from the discard pile, which may not be discarded (or must be used first), with no way
        to go on. Such a play is refused, so that a hand can always continue."""
        taken = self.taken_discard
        rs = self.ruleset
        must_use = self._must_use_taken()
        if taken is None or not (rs.not_the_card_taken or must_use):
            return False
        names = self.pack.names
        if taken not in cards and taken in self.hands[seat]:  # the action names cards: played, it takes the card taken before its twin
            twin_at = next((i for i, c in enumerate(cards) if names[c] == names[taken]), None)
            if twin_at is not None:
                cards = [*cards[:twin_at], taken, *cards[twin_at + 1:]]
        rest = list(self.hands[seat])
        for c in cards:
            rest.remove(c)
        if taken not in rest and names[taken] not in map(names.__getitem__, rest):
            return False
        if not must_use and any(names[c] != names[taken] for c in rest):
            return False  # another card can be discarded (not the card taken, nor its twin)
        twin = self.clone()
        twin.taken_discard = None  # play the action without this check, then look at what is left
        hand = twin.hands[seat]
        first = next((i for i, c in enumerate(hand) if names[c] == names[taken]), None)
        if first is not None and hand[first] != taken and taken in hand:  # so that the twin too plays the card taken first
            at = hand.index(taken)  # (identical cards share their discard action: only the ids swap)
            hand[first], hand[at] = taken, hand[first]
        twin.apply(action)
        twin.taken_discard = taken
        if twin.is_terminal() or twin.current != seat or twin.phase != PLAY:
            return False
        # A claim (a bonus paid on claim) leaves the hand as it is: it is no way on.
        return all(isinstance(a, A.Claim) for a in twin.legal_actions())

    def _must_use_taken(self) -> bool:
        """Whether the card taken from the discard pile this turn must go into a spread before
        the turn ends (the ruleset says so, or it was eaten to be spread at once)."""
        rs = self.ruleset
        return rs.discard_must_be_used or (self.eaten_turn == self.turn_number and rs.eat_spread_at_once)

    def _can_drop(self, seat: int, at: str = TURN_START) -> bool:
        """Whether ``seat`` may drop at this step of their turn (the drop condition, and any rule
        of turn.in_turn on a drop there)."""
        if self.closing is not None or not self._test(self.ruleset.drop_allowed, seat):
            return False
        return not self.melds.guards or self._guard_fails(at, "drop", seat) is None

    # --- the rules of turn.in_turn: conditions on the player to move's own actions ----------
    def _guard_fails(self, at: str, do: str, seat: int, owner: int | None = None,
                     spread: tuple[int, ...] = ()) -> Guard | None:
        """The first rule of turn.in_turn on ``do`` at step ``at`` whose condition is false for
        ``seat`` (None: every such rule holds, or there is none)."""
        rules = self.melds.guards.get((at, do))
        if rules is None:
            return None
        roles: dict[str, Any] = {"actor": seat}
        if owner is not None:
            roles["owner"] = owner
        if spread:
            roles["spread"] = spread
        ctx = self._ctx(**roles)
        for rule in rules:
            if not self._eval(rule.when, ctx):
                return rule
        return None

    def _guard_refusal(self, at: str, do: str, seat: int, words: str, owner: int | None = None,
                       spread: tuple[int, ...] = ()) -> str | None:
        """The refusal quoting the rule of turn.in_turn that forbids ``do`` now, if one does."""
        rule = self._guard_fails(at, do, seat, owner, spread) if self.melds.guards else None
        if rule is None or rule.when is None:
            return None
        if rule.says is not None:  # a construct's own words (asking one's partner)
            return rule.says(self, seat)  # type: ignore[arg-type]
        return f"you may not {words} (the ruleset's rule '{rule.id}': '{rule.when.source}' is false)"

    def _note_guards(self, at: str, do: str) -> None:
        """An action the rules of turn.in_turn guard was taken: name them in the outcome's rules
        fired (lint's witness search looks for them there)."""
        if self.melds.guards:
            for rule in self.melds.guards.get((at, do), ()):
                if rule.id and rule.id not in self.rules_taken:
                    self.rules_taken.append(rule.id)

    def _claimable(self, seat: int) -> DealWin | None:
        rs = self.ruleset
        ctx = self._ctx(actor=seat)
        if rs.claim_when is not None and not self._eval(rs.claim_when, ctx):
            return None
        if self.melds.guards and self._guard_fails(TURN_START, "claim", seat) is not None:
            return None
        for rule in rs.deal_wins:
            if rule.claim is not None and self._eval(rule.claim, ctx) and self._eval(rule.when, ctx):
                return rule
        return None

    def _can_draw_discard(self, seat: int) -> bool:
        rs = self.ruleset
        if "discard" not in rs.draw_from or not self.discard_pile:
            return False
        if self.melds.guards and self._guard_fails(TURN_START, "draw_discard", seat) is not None:
            return False
        card = self.discard_pile[-1]
        # The card must be usable at once (discard_must_be_used), or, with a hand that is empty
        # or holds only its twins (several decks, jokers), no card could be discarded after it
        # (not_the_card_taken): then it must fit a spread.
        if self._stuck_with_twins(seat, card):
            return self._fits_at_once(seat, card) and self._plays_on_after(self._taken(seat, card))
        if rs.discard_must_be_used:
            return self._fits_at_once(seat, card)
        return True

    def _taken(self, seat: int, card: int) -> Any:
        """A copy of the state in which ``seat`` has drawn ``card``, the top discard."""
        twin = self.clone()
        if twin.discard_pile and twin.discard_pile[-1] == card:
            twin.discard_pile.pop()
        twin._draw(seat, card, True)
        return twin

    @staticmethod
    def _plays_on_after(taken: Any) -> bool:
        """Whether the player who took a card with only its twins in hand, none of which may be
        discarded, still has a legal action (they must play every card out: one card fitting a
        spread is not enough when its twin then fits nowhere). The turn's own checks against
        stranding a hand keep every later step so."""
        return bool(taken.is_terminal() or taken.legal_actions())

    def _stuck_with_twins(self, seat: int, card: int) -> bool:
        """Whether taking ``card`` (from the pile, or eating it) would leave ``seat`` nothing to
        discard: its hand is empty or holds only twins of the card (several decks, jokers),
        and the card taken or its twin may not be discarded."""
        names = self.pack.names
        return self.ruleset.not_the_card_taken and all(names[c] == names[card] for c in self.hands[seat])

    def _fits_at_once(self, seat: int, card: int, taken: Any = None) -> bool:
        """Whether ``card`` taken into ``seat``'s hand can go into a spread, or onto one, at once.
        ``taken``: the state in which ``seat`` plays once holding it (eating passes the turn to
        the eater first); by default ``seat`` draws it now."""
        hand = self.hands[seat] + [card]
        spreads = [combo for combo in self.melds.spreads_in(hand) if card in combo]
        if not self.melds.play_conditions:
            return bool(spreads) or any(card in combo for _, combo in self._hit_options(seat, hand))
        # The conditions on spreads and hits read the state the card is played in (the hand it
        # joins; an eater's turns once the turn has passed to them): asked of a twin in it.
        twin = self._taken(seat, card) if taken is None else taken
        if twin.is_terminal():  # taking it ends the hand (the turn cap): nothing is left to play
            return True
        return (any(twin._may_spread(seat, combo) for combo in spreads)
                or any(card in combo for _, combo in twin._hit_options(seat)))

    def discard_fits(self, seat: int) -> bool:
        """Whether the top discard would go into a spread at once for ``seat``, with cards in hand
        or onto a spread on the table (the name ``discard_fits``)."""
        return bool(self.discard_pile) and self._fits_at_once(seat, self.discard_pile[-1])

    def _may_spread(self, seat: int, combo: Sequence[int]) -> bool:
        """Whether the ruleset lets ``seat`` lay ``combo`` as a spread now (turn.spread.allowed)."""
        allowed = self.ruleset.spread_allowed
        if allowed is not None and not self._eval(allowed, self._ctx(actor=seat, spread=tuple(combo))):
            return False
        if self.melds.guards and self._guard_fails(AFTER_DRAW, "spread", seat, spread=tuple(combo)) is not None:
            return False
        plan = self.melds.plan
        return not plan.spread_refusers or plan.spread_refusal(self, seat, combo) is None  # type: ignore[arg-type]

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
        melds = self.melds
        # The signature's low bits are the mask of the cards held: the other bits never meet
        # a mask of cards.
        held = self.hand_sig[seat] if hand is None else reduce(or_, map(melds.card_bit.__getitem__, hand), 0)
        out = []
        for i, sp in enumerate(self.spreads):
            fits = sp.fits
            if fits is None:
                fits = sp.fits = melds.accepts(sp.cards, sp.kind)
            if not fits & held or not self._may_hit(seat, sp):
                continue
            if melds.guards and self._guard_fails(AFTER_DRAW, "hit", seat, owner=sp.owner) is not None:
                continue
            for combo in melds.hits_on(sp.cards, sp.kind, cards, limit, fits):
                if (melds.hit_reads_cards or melds.hits_checked) and not self._may_hit(seat, sp, combo):
                    continue  # hits.allowed (or a construct) reads the cards: asked of each hit
                out.append((i + 1, combo))
        return out

    def _may_hit(self, seat: int, sp: TableSpread, cards: Sequence[int] | None = None) -> bool:
        """Whether ``seat`` may hit ``sp`` (with ``cards``). Where hits.allowed reads the cards
        (``spread``, ``hit``) and none are given, only what does not depend on them is asked."""
        rs = self.ruleset
        if self.melds.hits_checked and self.melds.plan.hit_refusal(self, seat, cards) is not None:  # type: ignore[arg-type]
            return False
        if sp.kind == "book" and not rs.hit_books:
            return False
        if sp.kind == "run" and not rs.hit_runs:
            return False
        if rs.hit_spreads == "own" and sp.owner != seat:
            return False
        if rs.hit_spreads == "others" and sp.owner == seat:
            return False
        if rs.hit_allowed is not None:  # the ruleset's own condition on the hitter and the owner
            if not self.melds.hit_reads_cards:
                return bool(self._eval(rs.hit_allowed, self._ctx(actor=seat, owner=sp.owner)))
            if cards is None:
                return True
            hit = tuple(cards)
            return bool(self._eval(rs.hit_allowed, self._ctx(actor=seat, owner=sp.owner, spread=(*sp.cards, *hit), hit=hit)))
        return True

    # --- applying -----------------------------------------------------------------------
    def why_illegal(self, action: A.Action) -> str | None:
        """``None`` when ``action`` is legal now, else the reason in a player's words."""
        try:
            self.clone().apply(action)
        except IllegalAction as exc:
            return str(exc)
        return None

    def apply(self, action: A.Action | str, player: int | None = None) -> None:
        """Apply an action of the player to act, or of ``player`` out of turn (a construct's play
        out of turn, or an answer when asked).

        Raises :class:`IllegalAction` with the reason."""
        # The common case first: the player to act, in a phase where this kind of action is
        # played. Everything else (text, a construct's action, out of turn, an extra discard, the hand
        # over, the wrong phase) takes the long way, which also words the refusals.
        handler = _HANDLERS[self.phase].get(type(action))
        if handler is not None and player is None and self.out_of_turn_seat is None:
            handler(self, self.current, action)
            return None
        return self._apply_other(action, player)

    def _apply_other(self, action: A.Action | str, player: int | None) -> None:
        if isinstance(action, str):
            try:
                action = A.parse_action(action)
            except A.ActionSyntaxError as exc:
                raise IllegalAction(str(exc)) from None
        if self._outcome is not None:
            raise IllegalAction("the hand is over")
        if self.phase == ASK:
            return self._apply_asked(action, player)
        seat = self.out_of_turn_seat if self.out_of_turn_seat is not None else self.current
        kind = type(action)
        rule = self.melds.plan.by_kind.get(kind)
        if rule is not None:  # a construct's own action (tonkdsl/interpreter/rules/)
            return rule.play(self, seat if player is None else player, action)  # type: ignore[arg-type]
        if player is not None and player != seat:
            raise IllegalAction(self._not_out_of_turn())
        if self.phase == START and self.melds.draws_last and kind not in _HANDLERS[START] \
                and self._played_before_draw(seat, action):
            return None  # (a drop or a claim at the start is routed by its own handler)
        handler = _HANDLERS[self.phase].get(kind)
        if handler is None:
            unused = rule_of_kind(kind)
            if unused is not None:
                raise IllegalAction(f"this ruleset has no {unused.key.replace('_', ' ')}")
            raise IllegalAction(self._out_of_phase(action))
        handler(self, seat, action)
        return None

    def _apply_asked(self, action: A.Action, player: int | None) -> None:
        """An action while players other than the one to move are asked (Ruleset.windows)."""
        state: Any = self
        asked = self.out_of_turn_seat
        who = asked if player is None else player
        if who is None:  # pragma: no cover - a seat is always asked in this phase
            raise IllegalAction("nobody is asked now")
        rule = self.melds.plan.by_kind.get(type(action))
        if rule is not None:
            return rule.play(self, who, action)  # type: ignore[arg-type]
        if isinstance(action, A.Pass):
            if who != asked:
                raise IllegalAction("you are not asked now: pass when it is your turn to answer")
            return asking.pass_turn(state, who)
        if asking.is_offered(state, who, action):
            return asking.answer(state, who, action)
        if self.asking is not None and who == self.asking.mover:
            # The player to move's own turn action means nobody else acts: players at a table
            # just take their turn.
            asking.close_for_mover(state)
            if self._outcome is not None:
                raise IllegalAction("the hand is over")
            return self._apply_other(action, None)
        if player is not None and player != asked:
            raise IllegalAction(self._not_out_of_turn("an answer you are offered"))
        raise IllegalAction(asking.refusal(state, who, action))

    def _out_of_phase(self, action: A.Action) -> str:
        if self.phase == EXTRA:
            return "you owe an extra discard: discard a card now"
        if self.phase == ASK:  # pragma: no cover - _apply_asked words the refusals of this phase
            return asking.refusal(self, self.current_player(), action)  # type: ignore[arg-type]
        if isinstance(action, (A.Eat, A.Pass, A.Fold, A.Demand)):
            return asking.refusal(self, self.current, action)  # type: ignore[arg-type]
        if (self.phase == PLAY and isinstance(action, (A.DrawStock, A.DrawDiscard)) and self.turn_number == 1
                and not self.ruleset.first_turn_draws):
            return "the first player does not draw on the first turn: lay spreads and discard"
        if self.phase == DRAW_LAST:
            return "you have discarded: draw from the stock to end your turn ('draw stock')"
        if self.melds.draws_last and isinstance(action, (A.DrawStock, A.DrawDiscard)):
            return "in this ruleset you draw at the end of your turn: play and discard first, then 'draw stock'"
        if self.phase == START:
            return f"you must draw first ('{action}' comes after 'draw stock' or 'draw discard')"
        if isinstance(action, (A.Drop, A.Claim)):
            return f"'{action}' is only allowed at the start of your turn, before drawing"
        if isinstance(action, (A.DrawStock, A.DrawDiscard)):
            return "you have already drawn this turn"
        return f"'{action}' is not possible now"  # pragma: no cover - every action has a phase

    # --- one method per action ----------------------------------------------------------
    def _drop_refused_by_condition(self, seat: int) -> bool:
        """A drop at the start of ``seat``'s turn that only the drop condition refuses (not the last
        round after a drop, nor a rule of turn.in_turn): a construct may take it instead."""
        return (self.closing is None and "start" in self.ruleset.drop_at
                and not self._test(self.ruleset.drop_allowed, seat)
                and (not self.melds.guards or self._guard_fails(TURN_START, "drop", seat) is None))

    def _do_drop(self, seat: int, action: A.Action) -> None:
        if self.melds.draws_last and self._played_before_draw(seat, action):
            return  # a turn whose draw comes last: the drop offered at its start is the one of its plays
        if "start" not in self.ruleset.drop_at:
            raise IllegalAction("in this ruleset you drop after drawing, not at the start of your turn")
        taking_refused_drops = self.melds.plan.taking_refused_drops
        if taking_refused_drops and self._drop_refused_by_condition(seat):
            taking_refused_drops[0].take_refused_drop(self, seat)  # type: ignore[arg-type]
            return
        self._refuse_drop(seat)
        self._note_guards(TURN_START, "drop")
        self._knock(seat)

    def _do_claim(self, seat: int, action: A.Action) -> None:
        if self.melds.draws_last and self._played_before_draw(seat, action):
            return  # a turn whose draw comes last: the claim offered at its start is the one of its plays
        rule = self._claimable(seat)
        if rule is None:
            raise IllegalAction(self._guard_refusal(TURN_START, "claim", seat, "claim now")
                                or "there is no win to claim now")
        self._note_guards(TURN_START, "claim")
        self._finish_deal_wins({seat: rule}, [seat])

    def _do_draw_stock(self, seat: int, action: A.Action) -> None:
        melds = self.melds  # read once: the commonest action of every hand
        if not melds.draws_stock:
            raise IllegalAction("this ruleset does not let you draw from the stock")
        if melds.draws_last:
            raise IllegalAction(self._out_of_phase(action))
        must_take = self.ruleset.must_take
        if must_take is not None and self.discard_pile and self._can_draw_discard(seat) and self._test(must_take, seat):
            raise IllegalAction(f"you must take the discard ({self.pack.names[self.discard_pile[-1]]}): the "
                                f"ruleset's rule '{must_take.source}' holds")
        if not self.stock and not self._rebuild_stock():
            self._end("stock_exhausted", actor=seat)
            return
        self._draw(seat, self.stock.pop(), False)
        if melds.asks_after_draw:
            asking.open_at(self, "after_draw", seat)  # type: ignore[arg-type]

    def _do_draw_discard(self, seat: int, action: A.Action) -> None:
        if "discard" not in self.ruleset.draw_from:
            raise IllegalAction("this ruleset does not let you take the discard")
        if self.melds.draws_last:
            raise IllegalAction(self._out_of_phase(action))
        if not self.discard_pile:
            raise IllegalAction("the discard pile is empty")
        if not self._can_draw_discard(seat):
            raise IllegalAction(self._guard_refusal(TURN_START, "draw_discard", seat, "take the discard now")
                                or "a card taken from the discard pile must go into a spread at once, "
                                "and this one cannot")
        self._note_guards(TURN_START, "draw_discard")
        self._draw(seat, self.discard_pile.pop(), True)
        if self.melds.asks_after_draw:
            asking.open_at(self, "after_draw", seat)  # type: ignore[arg-type]

    def _do_spread(self, seat: int, action: A.Spread) -> None:
        if self.knock_declared:
            raise IllegalAction("you have dropped: discard a card to end your turn")
        cards = self._take_ids(seat, action.cards)
        self._refuse_stranding(seat, cards, action)
        kind = self.melds.kind(cards)
        if kind is None:
            raise IllegalAction(f"{' '.join(action.cards)} is not a spread ({self.melds.describe()})")
        if not self._may_spread(seat, cards):
            raise IllegalAction(self.melds.plan.spread_refusal(self, seat, cards)  # type: ignore[arg-type]
                                or self._guard_refusal(AFTER_DRAW, "spread", seat, "lay a spread now", spread=tuple(cards))
                                or f"you may not lay a spread now (the ruleset's spread condition "
                                f"'{self.ruleset.spread_allowed.source}' is false)")  # type: ignore[union-attr]
        self._note_guards(AFTER_DRAW, "spread")
        self._remove(seat, cards)
        self.spreads.append(TableSpread(seat, kind, sorted(cards, key=self.melds.table_order.__getitem__)))
        self.spread_log.append((seat, len(cards)))
        self._laid(seat, cards)
        st = self.stats[seat]
        st.spreads += 1
        st.spreads_this_turn += 1
        on_laid = self.melds.plan.on_laid
        if on_laid:  # the constructs that keep count of what is laid (an opening requirement)
            for rule in on_laid:
                rule.laid(self, seat, cards)  # type: ignore[arg-type]
        if "spread_laid" in self._listened:
            self._event("spread_laid", seat, spread=tuple(cards))
        self._after_play(seat, by_spread=True)

    def _do_hit(self, seat: int, action: A.Hit) -> None:
        rs = self.ruleset
        if self.knock_declared:
            raise IllegalAction("you have dropped: discard a card to end your turn")
        cards = self._take_ids(seat, action.cards)
        self._refuse_stranding(seat, cards, action)
        if action.target > len(self.spreads):
            raise IllegalAction(f"there is no spread {action.target} (spreads on the table: {len(self.spreads)})")
        sp = self.spreads[action.target - 1]
        if not self._may_hit(seat, sp, cards):
            refused = self.melds.plan.hit_refusal(self, seat, cards)  # type: ignore[arg-type]
            if refused is not None:  # a construct's (an opening requirement)
                raise IllegalAction(refused)
            what = {"book": "books", "run": "runs"}[sp.kind]
            if (sp.kind == "book" and not rs.hit_books) or (sp.kind == "run" and not rs.hit_runs):
                raise IllegalAction(f"{what} cannot be hit in this ruleset")
            if rs.hit_allowed is not None and (rs.hit_spreads == "any" or (sp.owner == seat) == (rs.hit_spreads == "own")):
                raise IllegalAction(f"you may not hit spread {action.target} now (the ruleset's hit condition "
                                    f"'{rs.hit_allowed.source}' is false)")
            raise IllegalAction("you may not hit that player's spread in this ruleset")
        refused = self._guard_refusal(AFTER_DRAW, "hit", seat, f"hit spread {action.target} now", owner=sp.owner)
        if refused is not None:
            raise IllegalAction(refused)
        if rs.hits_per_turn is not None and self.hit_cards_this_turn + len(cards) > rs.hits_per_turn:
            raise IllegalAction(f"only {rs.hits_per_turn} card(s) may be played onto spreads per turn")
        check = self.melds.is_book if sp.kind == "book" else self.melds.is_run
        if not check(sp.cards + cards):
            raise IllegalAction(f"{' '.join(action.cards)} does not fit spread {action.target} "
                                f"({' '.join(self.pack.names[c] for c in sp.cards)})")
        self._note_guards(AFTER_DRAW, "hit")
        self._remove(seat, cards)
        self._laid(seat, cards)
        sp.cards, sp.fits = sorted(sp.cards + cards, key=self.melds.table_order.__getitem__), None
        self.stats[seat].hits += len(cards)
        self.hit_cards_this_turn += len(cards)
        self._event("spread_hit", seat, owner=sp.owner, spread=tuple(sp.cards))
        if rs.hit_ends_turn and self.hands[seat]:
            self._end_play(seat)
            return
        self._after_play(seat, by_spread=False)

    def _do_discard(self, seat: int, action: A.Discard) -> None:
        rs = self.ruleset
        melds = self.melds
        # Read once: most rulesets neither drop in play nor eat, and every discard asks twice.
        discard_flow = melds.discard_flow
        hand = self.hands[seat]
        card = melds.only_id.get(action.card, -1)
        at = _position(hand, card)
        if at < 0:
            (card,) = self._take_ids(seat, (action.card,))
            at = hand.index(card)
        taken = self.taken_discard
        if taken is not None:
            if rs.not_the_card_taken and self.pack.names[card] == self.pack.names[taken]:  # or its twin
                raise IllegalAction(f"you may not discard {action.card}: you took it from the discard pile "
                                    "this turn")
            if self._must_use_taken() and taken in hand:
                raise IllegalAction("the card you took from the discard pile must go into a spread first")
        # A discard that completes a drop whose spreads are laid (turn.drop.lay_spreads) lays them
        # itself: only the discards are offered then, so the rule on holding spreads waits for it.
        if melds.discards_checked:
            refused = melds.plan.discard_refusal(self, seat, card)  # type: ignore[arg-type]
            if refused is not None:
                raise IllegalAction(refused)
        if rs.hold_allowed is not None and not (self.knock_declared and rs.drop_lays_spreads):
            held = self._held_spread(seat)
            if held is not None:
                raise IllegalAction(f"you hold a spread ({' '.join(self.pack.names[c] for c in held)}): "
                                    "lay it before you discard")
        if discard_flow and self.knock_declared and not self._drop_ok_without(seat, card):
            raise IllegalAction(f"after discarding {action.card} your hand would not meet the drop condition "
                                f"'{rs.drop_allowed.source}'")
        # State._take, written out: every turn but the last ends here. Compiled, `pop` and a
        # subtraction of two ints read out are direct calls; `del` and `-=` on a list item are
        # generic ones (a discard: 27% fewer instructions).
        hand.pop(at)
        self.hand_discards[seat].pop(at)
        values, sigs = self.hand_value, self.hand_sig
        values[seat] = values[seat] - melds.value[card]
        sigs[seat] = sigs[seat] - melds.card_sig[card]
        self.discard_pile.append(card)
        self.last_discard[seat] = card
        self.record.append((seat, DISCARDED, card))
        if melds.on_discarded:
            self._event("discarded", seat)
        if not hand and self._test(rs.going_out_allowed, seat):
            self.stats[seat].out_by_spread = False
            self._end("out_on_discard", actor=seat)
            return
        if melds.draws_last and not self.knock_declared and melds.plan.owes_draw(self, seat):  # type: ignore[arg-type]
            self.phase = DRAW_LAST  # whoever may act on the discard is asked after the draw that ends the turn
            return
        if discard_flow and self._after_discard(seat, card):
            return
        self._next_turn()
        # The constructs that act after a discard (a slap window): most rulesets have none, so
        # the common path skips the outcome test.
        if melds.plan.on_discard and self._outcome is None:
            self._discard_passed(seat, card)

    def _do_extra_discard(self, seat: int, action: A.Discard) -> None:
        (card,) = self._take_ids(seat, (action.card,))
        self._remove(seat, [card])
        self.discard_pile.append(card)
        self.last_discard[seat] = card
        self.record.append((seat, DISCARDED, card))
        self.out_of_turn_seat = None
        self.phase = START
        self._event("discarded", seat)
        if not self.hands[seat] and self._test(self.ruleset.going_out_allowed, seat):
            self._end("out_on_discard", actor=seat)
            return
        self._discard_passed(seat, card)

    def _refuse_stranding(self, seat: int, cards: Sequence[int], action: A.Action) -> None:
        if self._strands(seat, cards, action):
            name = self.pack.names[self.taken_discard] if self.taken_discard is not None else "?"
            raise IllegalAction(f"that would leave you holding only {name}, which you took from the discard "
                                "pile this turn and may not discard")

    def _discard_passed(self, seat: int, card: int) -> None:
        """The constructs that act once ``seat``'s discard of ``card`` has passed the turn on."""
        for rule in self.melds.plan.on_discard:
            rule.discarded(self, seat, card)  # type: ignore[arg-type]

    def _not_out_of_turn(self, besides: str = "") -> str:
        """Why an action is refused out of turn, with what may be played out of turn here."""
        # (the constructs that offer plays out of turn: a slap, a buy; not a dig, made in one's turn)
        may = [u for rule in self.melds.plan.offering for u in rule.usage] + ([besides] if besides else [])
        return "it is not your turn" + (f": out of turn you may play only {' or '.join(may)}" if may else "")

    def _take_ids(self, seat: int, cards: Sequence[str]) -> list[int]:
        """Map card names to ids in ``seat``'s hand; identical cards (jokers, several decks)
        are interchangeable, the card taken from the discard pile first."""
        hand = self.hands[seat]
        taken = self.taken_discard
        if taken is not None and taken in hand:
            hand = [taken] + [c for c in hand if c != taken]
        used: list[int] = []
        ids_by_name = self.melds.ids_by_name
        for name in cards:
            ids = ids_by_name.get(name)  # names from legal_actions() are already canonical
            if ids is not None and len(ids) == 1 and ids[0] in hand and ids[0] not in used:
                used.append(ids[0])
                continue
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
        for c in cards:
            self._take(seat, c)

    def _laid(self, seat: int, cards: Sequence[int]) -> None:
        """Record the cards ``seat`` laid on the table (a spread, a hit)."""
        record = self.record
        for c in cards:
            record.append((seat, LAID, c))

    def _draw(self, seat: int, card: int, from_discard: bool) -> None:
        melds = self.melds
        on_draw = melds.plan.on_draw
        if on_draw:  # the constructs that end at a draw (a discard is dead once the next player draws)
            for rule in on_draw:
                rule.drew(self, seat, card, from_discard)  # type: ignore[arg-type]
        # Recorded before the card joins the hand: whether a drop was open is asked of the hand
        # the player chose not to drop (as _start_options asks it).
        kind = TOOK if from_discard else DREW_STOCK
        if self.phase == START and (melds.start_kinds & 1 or (melds.drop_varies and self._can_drop(seat))):
            kind += DROP_DECLINED
        self.record.append((seat, kind, card if from_discard else -1))
        self.hands[seat].append(card)
        self.hand_discards[seat].append(melds.discard_actions[card])
        self.hand_value[seat] += melds.value[card]
        self.hand_sig[seat] += melds.card_sig[card]
        if from_discard:
            self.taken_discard = card
            self.public_cards[seat] |= 1 << card
        else:
            self.taken_discard = None
        self.phase = PLAY
        if self._listened:
            self._event("drew", seat)
            self._event("drew_discard" if from_discard else "drew_stock", seat)

    def _after_play(self, seat: int, *, by_spread: bool) -> None:
        if self.hands[seat]:
            return None
        st = self.stats[seat]
        st.out_by_spread = by_spread
        if self._test(self.ruleset.going_out_allowed, seat):
            return self._end("tonk_out", actor=seat)
        return self._end_play(seat)  # cannot go out now: the turn passes with an empty hand

    def _end_play(self, seat: int) -> None:
        """The player to move is done without a discard (a hit that ends the turn, an empty hand
        that may not go out): the turn passes, after the draw where the draw comes last."""
        if self.melds.draws_last and self.melds.plan.owes_draw(self, seat):  # type: ignore[arg-type]
            self.phase = DRAW_LAST
            return
        self._next_turn()

    def _do_last_draw(self, seat: int, action: A.Action) -> None:
        """The draw that ends a turn whose draw comes last: from the stock (rebuilt where the
        ruleset says, else the hand ends as the stock runs out); then the players who may act on
        the discard are asked, as after any discard, and the turn passes."""
        if not self.stock and not self._rebuild_stock():
            self._end("stock_exhausted", actor=seat)
            return
        last = self.record[-1] if self.record else None
        discarded = last[2] if last is not None and last[0] == seat and last[1] == DISCARDED else -1
        self._draw(seat, self.stock.pop(), False)
        if discarded >= 0 and self.melds.asks_after_discard and asking.open_at(self, "after_discard", seat):  # type: ignore[arg-type]
            return
        self._next_turn()
        if discarded >= 0 and self.melds.plan.on_discard and self._outcome is None:
            self._discard_passed(seat, discarded)

    def _drop(self, seat: int) -> None:
        won = self._test(self.ruleset.drop_wins_if, seat)
        self._end("drop_won" if won else "drop_caught", actor=seat, dropper=seat)

    def _next_turn(self) -> None:
        prev = self.current
        seat = prev + 1 if prev + 1 < self.num_players else 0
        # Folded players and a hand closing after a drop are rare: one test keeps them off the
        # path every turn takes.
        if self.sitting_out or self.closing is not None:
            seat = self._next_turn_rare(seat)
            if seat < 0:
                return
        self.current = seat
        if seat == self.first_seat:
            self.round_number += 1
            if "round_end" in self._listened:
                self._event("round_end", prev)
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
        if not self.stock and self.ruleset.stock_exhausted == "last_card_drawn" and not self._rebuild_stock():
            self._end("stock_exhausted", actor=seat)
            return
        if self.melds.turn_start_hooks:  # the turn_start event, players asked before this turn
            self._turn_start_hooks(seat)

    def _turn_start_hooks(self, seat: int) -> None:
        if self.melds.on_turn_start:
            self._event("turn_start", seat)
        if self.melds.asks_at_start and self._outcome is None:
            asking.open_at(self, "turn_start", seat)  # type: ignore[arg-type]

    def _next_turn_rare(self, seat: int) -> int:
        """The next seat past the players who folded (a round still ends at the first seat),
        or -1 when the last round after a drop is over and the drop is decided."""
        if self.sitting_out:
            while self.sitting_out >> seat & 1:
                if seat == self.first_seat:
                    self.round_number += 1
                seat = seat + 1 if seat + 1 < self.num_players else 0
        closing = self.closing  # a hand closing after a drop (its last round) may end as the turn passes
        if closing is not None and closing.next_turn(self, seat):  # type: ignore[arg-type]
            return -1
        return seat


# The player to move's own actions that the rules of turn.in_turn guard: the steps at which each
# can be offered, and whether a ruleset offers it there at all. Lint reads it to warn of a rule
# that guards an action never offered (rule-for-disabled); a new guarded action is an entry.
OFFERED_AT: dict[tuple[str, str], Callable[[Ruleset], bool]] = {
    (TURN_START, "drop"): lambda rs: "start" in rs.drop_at,
    (AFTER_DRAW, "drop"): lambda rs: "before_discard" in rs.drop_at or "instead_of_discard" in rs.drop_at,
    (TURN_START, "claim"): lambda rs: any(w.claim is not None for w in rs.deal_wins),
    (AFTER_DRAW, "claim"): lambda rs: any(b.on == "claim" for b in rs.bonuses),
    (TURN_START, "draw_discard"): lambda rs: "discard" in rs.draw_from,
    (AFTER_DRAW, "spread"): lambda rs: True,
    (AFTER_DRAW, "hit"): lambda rs: rs.hit_books or rs.hit_runs,
}


# The start of a turn offers a few of four actions: each combination is built once.
_START: tuple[tuple[type, A.Action], ...] = (
    (A.Drop, _DROP), (A.Claim, _CLAIM), (A.DrawStock, _DRAW_STOCK), (A.DrawDiscard, _DRAW_DISCARD))
_START_LISTS: dict[int, tuple[tuple[A.Action, ...], dict[type, tuple[int, int]]]] = {}


def _start_list(kinds: int) -> tuple[tuple[A.Action, ...], dict[type, tuple[int, int]]]:
    chosen = [(kind, action) for bit, (kind, action) in enumerate(_START) if kinds >> bit & 1]
    made = (tuple(a for _, a in chosen), {kind: (i, i + 1) for i, (kind, _) in enumerate(chosen)})
    _START_LISTS[kinds] = made
    return made


# Spans shared between lists (read, never changed): a list with no action (the spreads or
# hits it would have found all refused), and lists of discards only, by their length.
_NO_SPANS: dict[type, tuple[int, int]] = {}
# No discards known yet. Typed as the attribute is, not as "()": mypy (and so mypyc, which
# checks what mypy inferred) would take the list's discard_cards for an empty tuple until the
# next assignment it sees, although _add_discards sets it in between.
_NO_CARDS: Sequence[int] = ()
_DISCARDS_ONLY: dict[int, dict[type, tuple[int, int]]] = {}


def _discards_only(n: int) -> dict[type, tuple[int, int]]:
    made = _DISCARDS_ONLY[n] = {A.Discard: (0, n)}
    return made


def _spans_of(actions: Sequence[A.Action]) -> dict[type, tuple[int, int]]:
    """The spans of a list whose actions of each kind stand together."""
    spans: dict[type, tuple[int, int]] = {}
    for i, action in enumerate(actions):
        lo, _ = spans.get(type(action), (i, i))
        spans[type(action)] = (lo, i + 1)
    return spans


def _finished(out: A.ActionList, spans: dict[type, tuple[int, int]], cards: Sequence[int]) -> A.ActionList:
    """``out`` with its spans and the card ids of its discards set."""
    out.spans = spans
    out.discard_cards = cards
    return out


_Handler = Callable[[Any, int, Any], None]
_HANDLERS: dict[str, dict[type, _Handler]] = {
    START: {A.Drop: TurnRules._do_drop, A.Claim: TurnRules._do_claim,
            A.DrawStock: TurnRules._do_draw_stock, A.DrawDiscard: TurnRules._do_draw_discard},
    PLAY: {A.Spread: TurnRules._do_spread, A.Hit: TurnRules._do_hit, A.Discard: TurnRules._do_discard,
           A.Claim: TurnRules._do_claim_bonus,
           A.Drop: lambda state, seat, action: state._do_play_drop(seat, action)},  # in TurnFlow
    EXTRA: {A.Discard: TurnRules._do_extra_discard},
    DRAW_LAST: {A.DrawStock: TurnRules._do_last_draw},
    ASK: {},  # answers go through TurnRules._apply_asked
    OVER: {},
}
