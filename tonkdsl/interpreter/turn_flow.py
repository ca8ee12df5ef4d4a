"""The turn's newer shapes: a drop (knock) after the draw, a drop decided later (the plan's
``close``: a last round after it), eating the last discard out of turn, and a stock rebuilt from
the discard pile.

:class:`TurnFlow` extends :class:`~tonkdsl.interpreter.turn.TurnRules` (and :class:`~tonkdsl.interpreter.engine.State`
extends it): every guard and setting is read from the ruleset (``turn.drop.at``, ``stock.rebuild``;
the asking's windows: eating's and the constructs').
"""
from __future__ import annotations

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter import asking
from tonkdsl.interpreter.shuffle import shuffle
from tonkdsl.interpreter.board import TableSpread
from tonkdsl.interpreter.table import NO_SLOTS, IllegalAction
from tonkdsl.interpreter.turn import _DROP, _NO_CARDS, _NO_SPANS, AFTER_DRAW, TURN_START, TurnRules
from tonkdsl.language.rng import Rng, derive_seed

_REBUILD_SALT = 0x5700C  # a rebuilt stock's shuffle draws apart from the deal's
_HAND_DROPS_KEPT = 50_000  # hands whose drop after the draw MeldRules remembers


class TurnFlow(TurnRules):
    """Drops after the draw, last rounds, eating, rebuilt stocks (a part of State)."""

    __slots__ = NO_SLOTS

    def _after_discard(self, seat: int, card: int) -> bool:
        """What may follow a discard before the next turn: the drop it completes, or the asking
        of the players who may eat it. True when the turn does not simply pass."""
        if self.knock_declared:
            self.knock_declared = False
            self._knock(seat)
            return True
        return self.melds.asks_after_discard and asking.open_at(self, "after_discard", seat)  # type: ignore[arg-type]

    def _with_play_drop(self, seat: int) -> A.ActionList:
        """The play options where a drop may come after the draw: after a drop declared before
        the discard only the discard is left; else the drop joins the options."""
        if self.knock_declared:
            out = A.ActionList()
            out.spans = _NO_SPANS
            out.discard_cards = _NO_CARDS
            self._add_discards(out, seat, self.taken_discard if self.ruleset.not_the_card_taken else None)
            cards: list[int] = list(out.discard_cards)
            self._remember_deadwood_without(seat)
            keep = [i for i, c in enumerate(cards) if self._drop_ok_without(seat, c)]
            if len(keep) < len(out):  # only the discards after which the drop holds
                kept = A.ActionList(out[i] for i in keep)
                kept.discard_cards = [cards[i] for i in keep]
                kept.spans = {A.Discard: (0, len(kept))} if kept else _NO_SPANS
                return kept
            return out
        out = self._play_list(seat)
        if self._can_drop_in_play(seat):
            spans = dict(out.spans)  # spans may be shared between lists: never changed in place
            spans[A.Drop] = (len(out), len(out) + 1)
            out.append(_DROP)
            out.spans = spans
        return out

    def _can_drop_in_play(self, seat: int) -> bool:
        """A drop after the draw: the ruleset allows it there, no drop is pending, and the
        player keeps a card to discard when the drop comes before the discard."""
        rs = self.ruleset
        if self.knock_declared or self.closing is not None:
            return False
        if "instead_of_discard" in rs.drop_at:
            return self._can_drop(seat, AFTER_DRAW)
        if self.melds.guards and self._guard_fails(AFTER_DRAW, "drop", seat) is not None:
            return False  # (read before the memory below: a rule of turn.in_turn may read more than the hand)
        if self.taken_discard in self.hands[seat] and self._must_use_taken():
            return False  # the discard that completes the drop may not come before that card is spread
        if rs.hold_allowed is not None and not rs.drop_lays_spreads and self._held_spread(seat) is not None:
            return False  # a spread that may not be held is laid before the drop (only discards follow it)
        m = self.melds
        if not m.drop_reads_hand:
            return self._some_drop_discard(seat)
        # The condition reads the hand alone, and a search asks about the same hands again and
        # again: the answer is remembered by hand and card taken (a quarter of a search bot's
        # time where a drop follows the draw). Emptied when full, like the deadwood memory.
        key = (tuple(self.hands[seat]), self.taken_discard)
        got = m.hand_drops.get(key)
        if got is None:
            if len(m.hand_drops) >= _HAND_DROPS_KEPT:
                m.hand_drops.clear()
            got = m.hand_drops[key] = self._some_drop_discard(seat)
        return got

    def _some_drop_discard(self, seat: int) -> bool:
        # Any one discard is enough: asked at every decision after a draw, so it stops at the first.
        self._remember_deadwood_without(seat)
        return any(self._drop_ok_without(seat, c) for c in self._discardable(seat))

    def _drop_discards(self, seat: int) -> list[int]:
        """The cards whose discard completes a drop declared before the discard: the drop's
        condition is read on the hand as it is left."""
        self._remember_deadwood_without(seat)
        return [c for c in self._discardable(seat) if self._drop_ok_without(seat, c)]

    def _remember_deadwood_without(self, seat: int) -> None:
        """Before each discard is tried: where the drop's condition reads the deadwood, its count
        for the hand less each card is searched at once (MeldRules.remember_deadwood_without; a
        search bot then decides a knock after the draw in a fifth less time)."""
        m = self.melds
        if m.drop_reads_deadwood:
            m.remember_deadwood_without(self.hands[seat], self.hand_sig[seat] & m.all_cards)

    def _discardable(self, seat: int) -> list[int]:
        """The cards ``seat`` may discard, each once (not the card taken, where the ruleset says so)."""
        taken = self.taken_discard
        names = self.pack.names
        barred = names[taken] if self.ruleset.not_the_card_taken and taken is not None else None
        return [c for c in dict.fromkeys(self.hands[seat]) if names[c] != barred]

    def _drop_ok_without(self, seat: int, card: int) -> bool:
        """Whether the drop's condition holds for ``seat`` once ``card`` is discarded."""
        allowed = self.ruleset.drop_allowed
        if allowed.constant is True:
            return True
        # The card leaves the hand for the test and comes back to its place: a whole clone per
        # card was most of a search bot's time (70%) where a drop follows the draw.
        # Expressions only read the state, so putting the card back restores it exactly.
        hand, discards = self.hands[seat], self.hand_discards[seat]
        at = hand.index(card)
        action = discards[at]
        self._take(seat, card)
        try:
            return bool(self._test(allowed, seat))
        finally:
            hand.insert(at, card)
            discards.insert(at, action)
            m = self.melds
            self.hand_value[seat] += m.value[card]
            self.hand_sig[seat] += m.card_sig[card]

    def _refuse_drop(self, seat: int, at: str = TURN_START) -> None:
        if self.closing is not None:
            raise IllegalAction(self.closing.refusal(seat))
        if not self._test(self.ruleset.drop_allowed, seat):
            raise IllegalAction("you may not drop now (the ruleset's drop condition "
                                f"'{self.ruleset.drop_allowed.source}' is false)")
        refused = self._guard_refusal(at, "drop", seat, "drop now")  # a rule of turn.in_turn
        if refused is not None:
            raise IllegalAction(refused)

    def _do_play_drop(self, seat: int, action: A.Action) -> None:
        """A drop after drawing: it ends the turn (instead of the discard), or the discard that
        follows completes it (before the discard)."""
        rs = self.ruleset
        if not self.melds.play_drop:
            raise IllegalAction(self._out_of_phase(action))
        if self.knock_declared:
            raise IllegalAction("you have dropped: discard a card to end your turn")
        if "instead_of_discard" in rs.drop_at:
            self._refuse_drop(seat, AFTER_DRAW)
            self._note_guards(AFTER_DRAW, "drop")
            self._knock(seat)
            return
        if self.closing is not None:
            self._refuse_drop(seat)
        if self.taken_discard in self.hands[seat] and self._must_use_taken():
            raise IllegalAction("you may not drop now: the card you took from the discard pile must go into a "
                                "spread first")
        if not self._can_drop_in_play(seat):
            raise IllegalAction(self._guard_refusal(AFTER_DRAW, "drop", seat, "drop now")
                                or "you may not drop now: no discard leaves a hand that meets the ruleset's drop "
                                f"condition '{rs.drop_allowed.source}'")
        self._note_guards(AFTER_DRAW, "drop")
        self.knock_declared = True

    def _knock(self, seat: int) -> None:
        """A drop: lay the spreads first if the ruleset says so, then decide it now, or later
        where a construct says (TurnRule.close: the last round after a drop)."""
        if self.ruleset.drop_lays_spreads:
            self._lay_best(seat)
        plan = self.melds.plan
        if plan.closing and plan.close(self, seat, False):  # type: ignore[arg-type]
            self._next_turn()
            return
        self._drop(seat)

    def _lay_best(self, seat: int) -> None:
        """Lay the spreads of the best arrangement of ``seat``'s hand (what is left is deadwood)."""
        spreads, _ = self.melds.best_arrangement(self.hands[seat])
        for combo in spreads:
            kind = self.melds.kind(combo)
            if kind is None:  # pragma: no cover - spreads_in lists spreads only
                continue
            self._remove(seat, combo)
            self.spreads.append(TableSpread(seat, kind, sorted(combo, key=self.melds.table_order.__getitem__)))
            self.spread_log.append((seat, len(combo)))
            self._laid(seat, combo)
            self.stats[seat].spreads += 1
            if "spread_laid" in self._listened:
                self._event("spread_laid", seat, spread=tuple(combo))

    def _rebuild_stock(self) -> bool:
        """Shuffle the discard pile but its top card (or the whole pile, stock.rebuild_takes)
        into a new stock, if the ruleset allows another rebuild this hand (seeded by the deal's
        seed: the same hand every time)."""
        rs = self.ruleset
        kept = 0 if rs.stock_rebuild_whole else 1  # the top card that stays face up
        if self.rebuilds >= rs.stock_rebuild or len(self.discard_pile) <= kept:
            return False
        cards = self.discard_pile[:len(self.discard_pile) - kept]
        del self.discard_pile[:len(self.discard_pile) - kept]
        shuffle(Rng(derive_seed(self.seed ^ _REBUILD_SALT, self.rebuilds)), cards)
        self.stock[:] = cards
        self.rebuilds += 1
        gone = sum(1 << c for c in cards)  # back in the stock: no longer known to be in a hand
        self.public_cards = [m & ~gone for m in self.public_cards]
        return True

    def may_act_out_of_turn(self, seat: int, action: A.Action) -> bool:
        """Whether ``seat`` may play ``action`` though another player is asked (the asking of
        the ruleset's windows: tonkdsl/interpreter/asking.py), or it is an action of one of the
        ruleset's constructs (tonkdsl/interpreter/rules/), which says itself whether it may."""
        return type(action) in self.melds.plan.by_kind or asking.may_act(self, seat, action)  # type: ignore[arg-type]
