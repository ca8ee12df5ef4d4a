"""What ``tonk play`` shows: colour and layout with rich on a terminal, plain text when piped or
when ``NO_COLOR`` is set. Only what the person may see is shown: their hand, the table, the
others' card counts (their cards only at the end of a hand)."""
from __future__ import annotations

import os
import sys
from typing import Any, Sequence, TextIO

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View
from tonkdsl.language.diagnostics import printable


SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def in_hand_order(names: Sequence[str], pack: Any) -> list[str]:
    """Cards sorted as a player holds them: by rank in the pack's order (A 2 ... K), then suit."""
    rank_of: dict[str, tuple[int, int]] = {}
    ranks = list(dict.fromkeys(pack.ranks))
    suits = list(dict.fromkeys(pack.suits))
    for name, rank, suit in zip(pack.names, pack.ranks, pack.suits):
        rank_of.setdefault(name, (ranks.index(rank), suits.index(suit)))
    return sorted(names, key=lambda n: rank_of.get(n, (len(ranks), 0)))


class Screen:
    def __init__(self, out: TextIO | None = None, *, colour: bool | None = None) -> None:
        self.out = out or sys.stdout
        if colour is None:
            colour = self.out.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
        self.console = None
        # Suit symbols on a terminal that shows them; letters (5H), as actions are typed, otherwise.
        self.symbols = bool(colour) and "utf" in str(getattr(self.out, "encoding", "") or "").lower()
        if colour:
            from rich.console import Console

            self.console = Console(file=self.out, highlight=False, force_terminal=True)

    def cards(self, names: Sequence[str]) -> str:
        if not self.symbols:
            return " ".join(names)
        return " ".join(n[:-1] + SUIT_SYMBOLS[n[-1]] if n[-1:] in SUIT_SYMBOLS and len(n) > 1 else n for n in names)

    def say(self, text: str, style: str = "") -> None:
        text = printable(text)  # names and messages from files: no control characters reach the terminal
        if self.console is not None:
            self.console.print(text, style=style or None, markup=False)
        else:
            print(text, file=self.out, flush=True)

    def table(self, names: Sequence[str], ledger: Sequence[int], scores: Sequence[int] | None, view: View) -> None:
        held = view.cards_held
        rows = []
        for seat, name in enumerate(names):
            shown = view.shown[seat] if seat != view.seat else ()
            cards = ("you" if seat == view.seat else f"{held[seat]} cards"
                     + (f" (showing {self.cards([view.pack.names[c] for c in shown])})" if shown else ""))
            dealer = " (dealer)" if seat == view.dealer else ""
            score = f"  score {scores[seat]:+d}" if scores is not None else ""
            rows.append(f"  {name}{dealer}: {cards}, money {ledger[seat]:+d}{score}")
        self.say("\n".join(rows))

    def show_turn(self, view: View, names: Sequence[str], legal: Sequence[A.Action], ledger: Sequence[int],
                  scores: Sequence[int] | None) -> None:
        pack = view.pack
        self.say("")
        pot = f", pot {view.pot}" if view.pot or view.has_pot else ""
        pot += "".join(f", {name} {money}" for name, money in view.side_pots)
        self.say(f"-- turn {view.turn_number}, stake {view.stake}, stock {view.stock_size} cards{pot} --", "bold")
        self.table(names, ledger, scores, view)
        if view.spreads:
            for i, (owner, cards) in enumerate(view.spreads, 1):
                # As a player lays it out: a wild card where it stands, "2H=QD" (what it stands for).
                laid = " ".join(self.cards([pack.names[c]]) + (f"={self.cards([stands])}" if stands else "")
                                for c, stands in view.meld_rules.layout(cards))
                self.say(f"  spread {i} ({names[owner]}): {laid}")
        else:
            self.say("  no spreads on the table")
        top = view.top_discard_name
        self.say(f"  top discard: {self.cards([top]) if top else '(none)'}")
        waits = {k: v for k, v in view.counters.items() if v}
        if waits:
            self.say("  " + ", ".join(f"{k}: {v}" for k, v in waits.items()))
        hand = self.cards(in_hand_order(view.hand_names, pack))
        self.say(f"Your hand: {hand}   (count {' or '.join(map(str, view.totals))})", "bold green")
        self.say(self.menu(legal, view.ruleset.drop_called))

    @staticmethod
    def menu(legal: Sequence[A.Action], called: str = "drop") -> str:
        """The numbered choices; a drop says the table's own word for it ("drop (knock)")."""
        word = f" ({called})" if called != "drop" else ""
        return "  " + "   ".join(f"[{i}] {a}{word if type(a) is A.Drop else ''}" for i, a in enumerate(legal, 1))

    def show_end(self, outcome: Outcome, names: Sequence[str], hands: Sequence[Sequence[str]],
                 side_pots: Sequence[str] = ()) -> None:
        """The hand's end (``side_pots``: the names of the ruleset's side pots, for its payments)."""
        self.say("")
        winners = ", ".join(names[w] for w in outcome.winners) or "nobody"
        self.say(f"== hand over: {outcome.end}, won by {winners} ==", "bold yellow")
        if outcome.message:
            self.say(f"  {outcome.message}")
        for seat, name in enumerate(names):
            score = f", score {outcome.scores[seat]:+d}" if outcome.scores else ""
            self.say(f"  {name}: {self.cards(hands[seat]) or '(no cards)'}  count {outcome.counts[seat]}, "
                     f"payout {outcome.payouts[seat]:+d}{score}")
        for p in outcome.payments:
            def who(seat: int) -> str:  # a player, or a pot (seat -1: the pot; a side pot by its name)
                return names[seat] if seat >= 0 else "the pot" if seat == -1 else f"the {side_pots[-2 - seat]}"
            payer = who(p.payer)[:1].upper() + who(p.payer)[1:]
            pays = "pay" if payer == "You" else "pays"  # the person at the keyboard is 'You'
            self.say(f"  {payer} {pays} {who(p.payee)} {p.amount}  ({p.rule})")
