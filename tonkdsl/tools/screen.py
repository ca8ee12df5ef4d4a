"""What ``tonk play`` shows: colour and layout with rich on a terminal, plain text when piped or
when ``NO_COLOR`` is set. Only what the person may see is shown: their hand, the table, the
others' card counts (their cards only at the end of a hand)."""
from __future__ import annotations

import os
import sys
from typing import Sequence, TextIO

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View
from tonkdsl.language.diagnostics import printable


class Screen:
    def __init__(self, out: TextIO | None = None, *, colour: bool | None = None) -> None:
        self.out = out or sys.stdout
        if colour is None:
            colour = self.out.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
        self.console = None
        if colour:
            from rich.console import Console

            self.console = Console(file=self.out, highlight=False, force_terminal=True)

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
            cards = "you" if seat == view.seat else f"{held[seat]} cards"
            dealer = " (dealer)" if seat == view.dealer else ""
            score = f"  score {scores[seat]:+d}" if scores is not None else ""
            rows.append(f"  {name}{dealer}: {cards}, money {ledger[seat]:+d}{score}")
        self.say("\n".join(rows))

    def show_turn(self, view: View, names: Sequence[str], legal: Sequence[A.Action], ledger: Sequence[int],
                  scores: Sequence[int] | None) -> None:
        pack = view.pack
        self.say("")
        pot = f", pot {view.pot}" if view.pot or view.has_pot else ""
        self.say(f"-- turn {view.turn_number}, stake {view.stake}, stock {view.stock_size} cards{pot} --", "bold")
        self.table(names, ledger, scores, view)
        if view.spreads:
            for i, (owner, cards) in enumerate(view.spreads, 1):
                self.say(f"  spread {i} ({names[owner]}): {' '.join(pack.names[c] for c in cards)}")
        else:
            self.say("  no spreads on the table")
        top = view.top_discard_name
        self.say(f"  top discard: {top or '(none)'}")
        waits = {k: v for k, v in view.counters.items() if v}
        if waits:
            self.say("  " + ", ".join(f"{k}: {v}" for k, v in waits.items()))
        self.say(f"Your hand: {' '.join(view.hand_names)}   (count {' or '.join(map(str, view.totals))})", "bold green")
        self.say("  " + "   ".join(f"[{i}] {a}" for i, a in enumerate(legal, 1)))

    def show_end(self, outcome: Outcome, names: Sequence[str], hands: Sequence[Sequence[str]]) -> None:
        self.say("")
        winners = ", ".join(names[w] for w in outcome.winners) or "nobody"
        self.say(f"== hand over: {outcome.end}, won by {winners} ==", "bold yellow")
        if outcome.message:
            self.say(f"  {outcome.message}")
        for seat, name in enumerate(names):
            score = f", score {outcome.scores[seat]:+d}" if outcome.scores else ""
            self.say(f"  {name}: {' '.join(hands[seat]) or '(no cards)'}  count {outcome.counts[seat]}, "
                     f"payout {outcome.payouts[seat]:+d}{score}")
        for p in outcome.payments:
            who = [*names, "the pot"]  # seat -1 is the pot
            payer = who[p.payer][:1].upper() + who[p.payer][1:]
            pays = "pay" if payer == "You" else "pays"  # the person at the keyboard is 'You'
            self.say(f"  {payer} {pays} {who[p.payee]} {p.amount}  ({p.rule})")
