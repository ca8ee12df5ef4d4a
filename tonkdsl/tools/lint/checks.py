"""The lint checks. Each has a stable code, a severity, a message in a player's words and the
locations of every line involved.

| code | severity | what it finds |
|---|---|---|
| pack-cannot-deal | error | more cards are dealt than the pack holds |
| meld-impossible | error/warning | a book or run (or any spread) the pack and meld rules cannot make |
| run-order-both-ends | warning | a rank at both ends of the run order while runs also turn the corner |
| last-round-too-long | warning | a last round after a drop longer than the other players |
| first-turn-short | note, warning | a first turn without a draw and no extra card for the opener; an extra card dealt to someone else |
| match-never-ends | error | a match whose end condition is never true and where no one is ever eliminated |
| hand-may-not-end | warning | a discard that must always be taken: the stock never runs out |
| match-ends-at-once | warning | seeded matches that all ended after their first hand (a witness) |
| pot-never-won | error | antes into a pot that no payout takes from |
| bonus-never-paid | warning | a bonus on an event the ruleset never produces |
| deal-win-odds | note | the exact odds of each automatic win per dealt hand |
| deal-win-impossible | error | an automatic win no hand can meet |
| deal-win-always | error | an automatic win every hand meets |
| deal-win-frequent | warning | an automatic win in more than 5% of hands |
| deal-win-overlap | warning | hands that meet two automatic wins of the same priority |
| values-threshold | note | a high-hand threshold below what the card values allow |
| ending-undefined | error | a way a hand can end with no rule for it |
| ending-impossible | warning | an ending that can never happen |
| rule-for-disabled | warning | a rule about something the ruleset turned off |
| payout-negative | error | a payout amount that is a negative number |
| winner-pays | error | a payout from the winners of the same ending |
| never-fired | note | (with --simulate) a rule that never took effect: evidence, not proof |
| witness | note | (with --witness DIR) the witness hands written, and each rule no hand made happen |
| accept-unknown | warning | lint.accept names a code lint does not know |
| winner-loses | error | (with --simulate) a winner who lost money |
| breaks-at-play | error | (with --simulate) a state with no legal action, an action offered then refused, a rule that fails at play, a player acting unasked (the legality check) |
| extends-noop | note | a top-level section that only repeats what the extended ruleset says |
| pack-missing | warning | a wild card or a value for a rank or joker the pack does not hold |
| condition-never | error, warning | a condition no state can meet (lint/intervals.py) |
| condition-always | warning | a condition every state meets |
| amount-not-positive | error, warning | an amount never above 0, or that can go below 0 |
| set-always-empty | warning | winners, payers or payees that are always nobody |
| min-of-empty | warning | min() or max() of a set that can be empty at play: the table would stop there (lint/empty_min.py) |
| payout-never-pays | warning | a payout or bonus no payer of whose 'from' may pay a payee of its 'to' (partners, oneself) |
| winner-unpaid | warning | an ending with winners and no payout or score, or a winner no payout pays |
| winners-may-be-empty | warning | an ending that can end with nobody winning it (lint/relations.py) |
| rule-shadowed | warning | a deal.next_dealer rule that earlier rules always take first; an automatic win whose every hand meets one of higher priority |
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from pathlib import Path as FsPath
from typing import Any, Iterable, Mapping

from tonkdsl.interpreter.engine import IllegalAction, RulesetError, State, first_player, hand_sizes
from tonkdsl.interpreter.rules import RULES, plan_for
from tonkdsl.interpreter.rules.base import DROPS_OUT_OF_TURN, HITS_SPREADS, Narrowing
from tonkdsl.interpreter.session import MAX_MATCH_HANDS
from tonkdsl.interpreter.table import MAX_TURNS
from tonkdsl.language.cards import JOKER
from tonkdsl.language.expr.compiler import EvalError
from tonkdsl.language.diagnostics import Diagnostic, LoadError, Path, did_you_mean
from tonkdsl.language.loader import display_name, load_doc, read_doc, resolve_name
from tonkdsl.language.merge import Doc, is_id_list
from tonkdsl.language.ruleset import MAX_SEAT_CARDS, Ruleset, build
from tonkdsl.language.schema_check import validate
from tonkdsl.language.yamlsrc import Source, load_yaml_file
from tonkdsl.tools.lint.empty_min import divide_by_empty, min_of_empty
from tonkdsl.tools.lint.intervals import INF, PACK_RANK, PACK_SUIT, SUBJECT, Abs, Bool, Items, Num, TOP, decide, why
from tonkdsl.tools.lint.odds import OddsTable, TooManyHands, compute
from tonkdsl.tools.lint.relations import Asker, Verdict
from tonkdsl.tools.lint.spreads import TooManySpreads

FREQUENT = 0.05
CODES = {
    "pack-cannot-deal": "The pack cannot serve the deal",
    "meld-impossible": "A spread the pack and meld rules cannot make",
    "run-order-both-ends": "A rank high or low in runs that also turn the corner",
    "last-round-too-long": "A last round longer than the other players",
    "first-turn-short": "An opener who starts a card short",
    "match-never-ends": "A match that can never end",
    "match-may-not-end": "A match that may never end",
    "hand-may-not-end": "A hand that may never end",
    "breaks-at-play": "A state where the table breaks: no legal action, an offer refused, a rule failing",
    "match-ends-at-once": "A match that ends after its first hand",
    "pot-never-won": "A pot nobody can win",
    "bonus-never-paid": "A bonus on an event that never happens",
    "deal-win-odds": "Odds of an automatic win per dealt hand",
    "deal-win-impossible": "An automatic win no hand can meet",
    "deal-win-always": "An automatic win every hand meets",
    "deal-win-frequent": "An automatic win in more than 5% of hands",
    "deal-win-overlap": "Automatic wins that overlap with no conflict policy",
    "values-threshold": "Card values at odds with a threshold",
    "ending-undefined": "A way to end a hand with no rule",
    "ending-impossible": "An ending that can never happen",
    "rule-for-disabled": "A rule about something the ruleset turned off",
    "payout-negative": "A negative payout amount",
    "winner-pays": "A winner who pays",
    "never-fired": "A rule that never took effect in simulation",
    "witness": "Witness hands for the rules that can happen",
    "accept-unknown": "An accepted lint code that lint does not know",
    "winner-loses": "A winner who lost money in simulation",
    "extends-noop": "An override that changes nothing",
    "condition-never": "A condition no state can meet",
    "pack-missing": "A rank or card named that the pack does not hold",
    "condition-always": "A condition every state meets",
    "amount-not-positive": "An amount that is never positive, or can go below zero",
    "set-always-empty": "Winners, payers or payees that are always nobody",
    "min-of-empty": "min() or max() of a set that can be empty at play",
    "divide-by-zero": "A division by the count of a set that can be empty at play",
    "money-on-points": "Payments with no score entry on a points sheet, which move nothing",
    "guard-changes-nothing": "A rule on top of a condition that never refuses what the condition allows",
    "split-pays-nothing": "An amount split among several that pays each of them 0",
    "pot-to-several": "The whole pot paid to each of several receivers in turn",
    "winner-against-sheet": "A match won by the total the score sheet ranks last",
    "payout-never-pays": "A payout whose payers may never pay its payees",
    "winner-unpaid": "An ending whose winners receive nothing",
    "winners-may-be-empty": "An ending that can end with no winner",
    "rule-shadowed": "A rule that earlier rules always take first",
}


@dataclass
class LintReport:
    ruleset: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    odds: OddsTable | None = None
    valid: bool = True  # False: the file could not be loaded, and its diagnostics say why

    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]


class _Linter:
    def __init__(self, doc: Doc, rs: Ruleset, root: Source) -> None:
        self.doc, self.rs, self.data, self.root = doc, rs, doc.data, root
        self.out: list[Diagnostic] = []

    def where(self, path: Path) -> tuple[str, int, int]:
        src, spath = self.doc.origin(path)
        line, col = src.locate(spath)
        return (src.file, line, col)

    def at_part(self, d: Diagnostic, path: Path, line: int, column: int) -> Diagnostic:
        """``d``, placed at the character ``line``/``column`` (1-based, in the expression's own
        text) of the expression written at ``path``: a part of a condition, where ``d`` is
        about that part. Unchanged where ``d`` is placed elsewhere (an inherited rule's note)."""
        src, spath = self.doc.origin(path)
        text = self.data_at(path)
        start = src.locate(spath)
        if (line, column) == (1, 1) or not isinstance(text, str) or (d.file, d.line, d.column) != (src.file, *start):
            return d
        at_line, at_col = src.locate_in_scalar(spath, text, line, column)
        return replace(d, line=at_line, column=at_col, source_line=src.line_text(at_line))

    def add(self, code: str, severity: str, message: str, path: Path, *also: Path, hint: str = "") -> None:
        root = self.root
        if self.where(path)[0] != root.file:
            # The line is inherited; when another line involved is the linted file's own (the
            # cause is there: its hand size, its players), the finding is placed at that line and
            # the inherited one goes under 'see also'.
            own = next((p for p in also if self.has(*p) and self.where(p)[0] == root.file), None)
            if own is not None:
                path, also = own, (path,) + tuple(p for p in also if p != own)
        d = self.doc.diagnostic(code, message, path, hint=hint)
        related = tuple(dict.fromkeys(self.where(p) for p in also))
        if d.file != root.file and severity == "note" and isinstance(root.data, dict) and "extends" in root.data:
            # A note about what the file inherits is the file's own: placed at its 'extends'
            # line, never in the ruleset it extends (the installed package), which is shown under
            # 'see also'.
            e = root.diagnostic(code, message, ("extends",), hint=hint)
            self.out.append(Diagnostic(e.code, e.message, e.file, e.line, e.column, d.path, severity, e.source_line,
                                       e.hint, tuple(dict.fromkeys(((d.file, d.line, d.column), *related)))))
            return
        if d.file != root.file:
            # The line is inherited: point at the file being linted too (its 'extends').
            line, col = root.locate(("extends",))
            related = ((root.file, line, col),) + tuple(r for r in related if r != (root.file, line, col))
        self.out.append(Diagnostic(d.code, d.message, d.file, d.line, d.column, d.path, severity,
                                   d.source_line, d.hint, related))

    def removal(self, dotted: str) -> Path | None:
        """The linted file's own 'remove' entry that deletes ``dotted`` (or what holds it)."""
        data = self.root.data
        entries = data.get("remove") if isinstance(data, dict) else None
        for j, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, str) and (dotted == entry or dotted.startswith(entry + ".")):
                return ("remove", j)
        return None

    def add_removed(self, code: str, severity: str, message: str, removal: Path, *also: Path, hint: str = "") -> None:
        """A finding caused by the linted file's own 'remove' entry: placed at that entry."""
        d = self.root.diagnostic(code, message, removal, hint=hint)
        related = tuple(dict.fromkeys(self.where(p) for p in also))
        self.out.append(Diagnostic(d.code, d.message, d.file, d.line, d.column, d.path, severity,
                                   d.source_line, d.hint, related))

    def data_at(self, path: Path) -> Any:
        node: Any = self.data
        for p in path:
            node = node[p]
        return node

    def has(self, *path: Any) -> bool:
        node: Any = self.data
        for p in path:
            if isinstance(node, dict) and p in node:
                node = node[p]
            elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
                node = node[p]  # an entry of a list (deal_wins.rules[1])
            else:
                return False
        return True

    def rule_index(self, rule_id: str) -> int:
        rules = self.data.get("deal_wins", {}).get("rules", [])
        return next(i for i, r in enumerate(rules) if r.get("id") == rule_id)

    # --- checks -----------------------------------------------------------------------------
    def pack(self) -> None:
        rs = self.rs
        up = 1 if rs.upcard else 0
        # The most players each pack is dealt to (one pack unless decks vary with players).
        most = {rs.decks_for(n): n for n in range(rs.players_min, rs.players_max + 1)}
        for n in sorted(most.values()):
            pack = rs.pack_for(n)
            try:  # extra cards to some players (the dealer's sixth card) count too
                need = sum(hand_sizes(State(rs, n, n - 1, 1))) + up if rs.extra_cards else n * rs.hand_size + up
            except RulesetError as exc:
                self.add("pack-cannot-deal", "error", str(exc), ("deal", "extra_cards"))
                break
            if need > len(pack):
                upword = " + the upcard" if rs.upcard else ""
                fits = (len(pack) - up) // rs.hand_size
                decks = f" ({pack.decks} decks)" if pack.decks > 1 else ""
                self.add("pack-cannot-deal", "error",
                         f"the pack{decks} has {len(pack)} cards, but {n} players x {rs.hand_size} cards{upword} "
                         f"need {need}", ("players", "max"), ("deal", "hand_size"), ("pack", "ranks"),
                         hint=f"allow at most {fits} players" + (", or shuffle more decks together (pack.decks)"
                                                                  if "decks" not in self.data["pack"] else ""))
                break
        self.melds()
        self.turn_flow()
        self.match()
        self.money()

    def _pot(self, source: Any) -> bool:
        """Whether a payment's side names a pot: 'pot', or a side pot by its name (side_pots)."""
        text = str(source if source is not None else "").strip()
        return text == "pot" or text in (p.id for p in self.rs.side_pots)

    def money(self) -> None:
        """A pot nobody can win; bonuses on events that never happen."""
        rs = self.rs
        pots: list[tuple[str, tuple[str | int, ...], str]] = [("pot", ("pot", "ante"), "the pot")] if rs.ante is not None else []
        pots += [(p.id, ("side_pots", i, "id"), f"the side pot '{p.id}'") for i, p in enumerate(rs.side_pots)]
        for name, where, what in pots:
            pays_out = any(t.payers.source.strip() == name for e in rs.endings.values() for t in e.payouts) or any(
                b.transfer.payers.source.strip() == name for b in rs.bonuses) or any(
                w.payers is not None and w.payers.source.strip() == name for w in rs.deal_wins)
            if not pays_out:
                self.add("pot-never-won", "error", f"money goes into {what}, but no payout takes from it: it only "
                         "grows", where,
                         hint=f"pay it out in an ending: {{id: takes-{name}, from: {name}, to: actor, amount: {name}}}")
        no_hits = not rs.hit_books and not rs.hit_runs and HITS_SPREADS not in plan_for(rs).facts
        never = {"spread_hit": no_hits, "drew_discard": "discard" not in rs.draw_from,
                 "drew_stock": "stock" not in rs.draw_from}
        for j, bonus in enumerate(rs.bonuses):
            if never.get(bonus.on):
                self.add("bonus-never-paid", "warning", f"the bonus '{bonus.transfer.id}' is paid on '{bonus.on}', "
                         "which never happens in this ruleset", ("bonuses", j, "on"))

    def _match_key(self) -> tuple[str, ...]:
        """Where a match's end is written: its end condition, its columns' own, or its eliminations."""
        rules = self.rs.session
        return (("session", "ends_when") if rules.ends_when is not None else
                ("session", "columns", "ends_when") if rules.column_ends is not None else ("session", "eliminate_when"))

    def match(self) -> None:
        """A match that can never end."""
        rules = self.rs.session
        if not rules.is_match or rules.hands:
            return
        if match_never_ends(self.rs):
            self.add("match-never-ends", "error", "the match can never end: its end condition is never true and "
                     "no one is ever eliminated", self._match_key(),
                     hint="give a condition that the totals can meet (max(players.total) >= 100), or session.hands")
            return
        played = played_matches(self.rs)
        if played is not None and played.capped is None:
            # What the seeded matches witness: each ended at its first hand (an end condition
            # reversed, or everyone out at once: the engine then names the best total the winner).
            command = f"tonk simulate {self.root.file} -n 1 --players {played.players} --seed"
            if all(n == 1 for n in played.lengths):
                self.add("match-ends-at-once", "warning",
                         f"every one of {len(played.lengths)} seeded matches ended after its first hand: the match "
                         f"is a single hand (witness: {command} 0)", self._match_key(),
                         hint="check the comparison: the totals start at 0 and the end should come when they grow "
                              "(max(players.total) >= 100), or say session.hands: 1")
        if played is not None and played.capped is not None:
            players, seed = played.players, played.capped
            self.add("match-may-not-end", "warning",
                     f"a match may never end: {players} greedy bots played {MAX_MATCH_HANDS:,} hands (MAX_MATCH_HANDS) "
                     f"of a match seeded {seed} and its end never came; tonk simulate stops such a match there and "
                     f"counts it as won by nobody (witness: tonk simulate {self.root.file} -n 1 --players {players} --seed "
                     f"{seed})", self._match_key(),
                     hint="give a condition the totals reach in play (max(players.total) >= 100), or session.hands")

    def turn_flow(self) -> None:
        """Drop (knock) settings that cannot take effect."""
        rs = self.rs
        never = rs.drop_allowed.constant is False
        for key, on in (("at", rs.drop_at != ("start",)), ("lay_spreads", rs.drop_lays_spreads)):
            if never and on:
                self.add("rule-for-disabled", "warning", f"turn.drop.{key} says how a drop goes, but no one may ever "
                         "drop (turn.drop.allowed is false)", ("turn", "drop", key), ("turn", "drop", "allowed"))
        if "before_discard" in rs.drop_at and "instead_of_discard" in rs.drop_at:
            at = list(rs.drop_at).index("before_discard")
            self.add("rule-for-disabled", "warning", "a drop after drawing never comes before the discard here: with "
                     "instead_of_discard also listed, a drop after drawing ends the turn at once, without a discard",
                     ("turn", "drop", "at", at) if self.has("turn", "drop", "at", at) else ("turn", "drop", "at"),
                     hint="list one of before_discard (drop, then discard) and instead_of_discard (drop, no discard)")
        if rs.stock_rebuild and "stock" not in rs.draw_from:
            self.add("rule-for-disabled", "warning", "the stock is rebuilt when it runs out, but no one draws from it",
                     ("stock", "rebuild"), ("turn", "draw", "from"))
        if not rs.first_turn_draws and not rs.extra_cards:
            self.add("first-turn-short", "note", "the first player does not draw on the first turn, and is dealt "
                     "no extra card: they start a card short", ("turn", "first_turn"),
                     hint="give them an extra card: deal.extra_cards: [{to: dealer, cards: 1}]")
        elif not rs.first_turn_draws:
            self.opener_dealt_more()

    def opener_dealt_more(self) -> None:
        """With first_turn: no_draw the opener is dealt the card they do not draw: at each table
        size, the engine's own deal (hand_sizes) and first player (first_player) say whether
        the extra card goes to them."""
        rs = self.rs
        for n in range(max(2, rs.players_min), rs.players_max + 1):
            state = State(rs, n, n - 1, 1)
            try:
                sizes, opener = hand_sizes(state), first_player(state)
            except (RulesetError, EvalError):
                return  # said by the engine's own checks
            others = [k for s, k in enumerate(sizes) if s != opener]
            if sizes[opener] <= max(others):
                more = [s for s, k in enumerate(sizes) if k > sizes[opener]]
                if not more:
                    whom = "as many as everyone else"
                elif more == [n - 1]:
                    whom = "fewer than the dealer"
                else:
                    whom = "fewer than seat" + ("s " if len(more) > 1 else " ") + ", ".join(map(str, more))
                self.add("first-turn-short", "warning",
                         f"at a table of {n}, the first player (seat {opener}; the dealer is seat {n - 1}) opens "
                         f"without drawing but is dealt {sizes[opener]} cards, {whom}: the extra card goes to "
                         "someone who draws, and the first player starts a card short",
                         ("deal", "extra_cards"), ("turn", "first_turn"), ("turn", "first_player"),
                         hint="deal the extra card to the first player (deal.extra_cards 'to' the same set as "
                              "turn.first_player)")
                return

    def melds(self) -> None:
        """Spreads the pack and the meld rules cannot make."""
        rs = self.rs
        if rs.book_min > rs.book_max:
            self.add("meld-impossible", "error", f"a book is at least {rs.book_min} and at most {rs.book_max} cards: "
                     "no book can be made", ("melds", "book", "min"), ("melds", "book", "max"),
                     hint="make 'min' at most 'max'")
        if rs.run_max is not None and rs.run_min > rs.run_max:
            self.add("meld-impossible", "error", f"a run is at least {rs.run_min} and at most {rs.run_max} cards: "
                     "no run can be made", ("melds", "run", "min"), ("melds", "run", "max"),
                     hint="make 'min' at most 'max'")
        pack = rs.pack
        if rs.run_min > pack.run_length:
            self.add("meld-impossible", "error", f"a run needs at least {rs.run_min} cards, but the run order has "
                     f"only {pack.run_length} places: no run can be made", ("melds", "run", "min"), ("pack", "run_order"))
        wild = sum(pack.wild) if rs.wild_in_melds else 0
        copies = max(sum(1 for r in pack.ranks if r == rank) for rank in set(pack.ranks) if rank != JOKER)
        if not rs.book_identical and pack.decks > 1:
            copies = len({pack.suits[c] for c in range(len(pack)) if pack.suits[c] is not None})
        if rs.book_min > copies + wild:
            self.add("meld-impossible", "warning",
                     f"a book needs at least {rs.book_min} cards of one rank, but the pack holds at most {copies} of a "
                     f"rank{f' and {wild} wild cards' if wild else ''}: no book can be made", ("melds", "book", "min"),
                     ("pack",))
        if rs.hit_books and rs.book_min >= copies + wild and rs.book_max <= rs.book_min:
            self.add("rule-for-disabled", "warning",
                     f"books may be hit, but a book of {rs.book_min} already holds every card of its rank that can be "
                     "in it: no book can grow", ("hits", "books"), ("melds", "book", "min"),
                     hint="let books be larger (melds.book.max) or turn off hits on books")
        if rs.wild_in_melds and any(pack.wild):
            self.natural_limits(rs.book_max, rs.run_max or pack.run_length)
        self.spread_kinds()
        both = [r for r in dict.fromkeys(map(str, self.data["pack"]["run_order"]))
                if list(map(str, self.data["pack"]["run_order"])).count(r) == 2]
        if both and pack.run_wraps:
            self.add("run-order-both-ends", "warning",
                     f"{' and '.join(both)} is at both ends of the run order and runs also turn the corner: "
                     f"a run may then pass through {both[0]} from one end to the other", ("pack", "run_order"),
                     ("pack", "run_wraps"), hint="list it once with run_wraps: true, or at both ends with run_wraps: false")

    def natural_limits(self, book_max: int, run_max: int) -> None:
        """A kind of spread whose least natural cards (melds.min_natural, or the kind's own) is
        more than it can hold: that kind cannot be made (an error when neither kind can)."""
        most = {"book": book_max, "run": run_max}
        over = [k for k in ("book", "run") if self.rs.wild_limits[k].min_natural > most[k]]

        def where(kind: str) -> tuple[str, ...]:
            return ("melds", kind, "min_natural") if self.has("melds", kind, "min_natural") else ("melds", "min_natural")
        if len(over) == 2:
            largest = max(most.values())
            least = min(self.rs.wild_limits[k].min_natural for k in over)
            self.add("meld-impossible", "error",
                     f"every spread needs at least {least} natural cards, but no spread holds more than "
                     f"{largest} cards: no spread can be made", *dict.fromkeys(where(k) for k in over),
                     ("melds", "book", "max"), hint=f"make melds.min_natural at most {largest}")
        elif over:
            kind, other = over[0], "run" if over[0] == "book" else "book"
            self.add("meld-impossible", "warning",
                     f"every {kind} needs at least {self.rs.wild_limits[kind].min_natural} natural cards, but a "
                     f"{kind} holds at most {most[kind]}: only {other}s can be made", where(kind), ("melds", kind, "max"))

    def spread_kinds(self) -> None:
        """What the listed spreads (lint/spreads.py) show that the sizes alone do not: wild
        cards that never stand in a spread, under min_natural, max_wild and the sizes together."""
        rs = self.rs
        if not rs.wild_in_melds or not any(rs.pack.wild) or all(w.max_wild == 0 for w in rs.wild_limits.values()):
            return  # no wild card to stand in, or max_wild: 0 (said as rule-for-disabled)
        try:
            spreads, _ = self.asker.listed[False].spreads(rs.players_min)
        except TooManySpreads:
            return
        wild = {c for c in range(len(rs.pack)) if rs.pack.wild[c]}
        if spreads and not any(wild.intersection(sp) for sp in spreads):
            causes = [p for p in (("melds", "min_natural"), ("melds", "max_wild"), ("melds", "run"), ("melds", "book"))
                      if self.has(*p)]
            least = {w.min_natural for w in rs.wild_limits.values()}
            self.add("rule-for-disabled", "warning", f"wild cards never stand in a spread: none of the "
                     f"{len(spreads):,} spreads the meld rules allow (min_natural {' or '.join(map(str, sorted(least)))}, books of "
                     f"{rs.book_min} to {rs.book_max}, runs of {rs.run_min} to {rs.run_max or rs.pack.run_length}) "
                     "has room for one", ("melds", "wild_cards"), *causes,
                     hint="lower melds.min_natural below the largest spread, or set wild_cards: false")

    def deal_wins(self) -> OddsTable | None:
        rs = self.rs
        if not rs.deal_wins or rs.hand_size > 12:
            return None
        # One table per pack the ruleset deals (several decks by the number of players).
        first: OddsTable | None = None
        for decks in sorted({rs.decks_for(n) for n in range(rs.players_min, rs.players_max + 1)}):
            players = next(n for n in range(rs.players_min, rs.players_max + 1) if rs.decks_for(n) == decks)
            several = len(rs.packs) > 1
            # Each seat's own deal: deal.extra_cards gives some seats more (or fewer) cards.
            try:
                sizes = sorted(set(hand_sizes(State(rs, players, players - 1, 1)))) if rs.extra_cards else [rs.hand_size]
            except RulesetError:
                sizes = [rs.hand_size]
            for size in sizes:
                if size > 12:
                    continue
                try:
                    table = compute(rs, players, size)
                except TooManyHands as exc:
                    self.add("deal-win-odds", "note", f"odds not computed: {exc}", ("deal_wins",))
                    continue
                where = f" with {decks} deck{'s' if decks > 1 else ''}" if several else ""
                self._odds(table, where, size, len(sizes) > 1)
                first = first or table
        return first

    def _odds(self, table: OddsTable, decks: str, size: int, by_seat: bool) -> None:
        """Findings of one odds table: hands of ``size`` cards from one pack. ``by_seat``: seats
        are dealt different numbers of cards (deal.extra_cards), which the words say."""
        rs = self.rs
        seats: tuple[Path, ...] = (("deal", "extra_cards"),) if by_seat else ()
        hand = f" of {size} cards" if by_seat else ""
        for odds in table.odds:
            path: Path = ("deal_wins", "rules", self.rule_index(odds.rule), "when")
            self.add("deal-win-odds", "note", f"'{odds.rule}'{decks}{', hands' + hand if hand else ''}: "
                     f"{odds.describe()}", path, *seats)
            if odds.hands is None:
                continue
            if odds.hands == 0:
                wild = self.data["pack"].get("wild_value", "own")
                wild_words = f", wild cards counting {wild} (pack.wild_value)" if wild != "own" and any(rs.pack.wild) \
                    else ""
                self.add("deal-win-impossible", "error",
                         f"no hand of {size} cards can meet '{odds.rule}' with this pack{decks} and these values "
                         f"(hands count {table.min_count} to {table.max_count}{wild_words})", path, *seats,
                         ("pack", "values"), *((("pack", "wild_value"),) if wild_words else ()))
            elif odds.hands == odds.total:
                self.add("deal-win-always", "error", f"every hand{hand}{decks} meets '{odds.rule}': no hand would be "
                         "played", path, *seats)
            elif odds.share > FREQUENT:
                self.add("deal-win-frequent", "warning",
                         f"'{odds.rule}' wins on the deal in {odds.share:.1%} of hands{hand}{decks} ({odds.describe()}): "
                         f"more than {FREQUENT:.0%} of hands are not played", path, *seats, ("deal", "hand_size"))
        priorities = {r.id: r.priority for r in rs.deal_wins}
        hands = {o.rule: o.hands for o in table.odds}
        for a, b, n in table.overlaps:
            for top, low in ((a, b), (b, a)):  # every hand of the lower rule meets the higher: never paid
                if priorities[top] > priorities[low] and hands.get(low) == n and n > 0:
                    self.add("rule-shadowed", "warning", f"'{low}' is never paid: each of its {n:,} hands{decks} also "
                             f"meets '{top}', whose priority is higher ({priorities[top]} against {priorities[low]})",
                             ("deal_wins", "rules", self.rule_index(low)), ("deal_wins", "rules", self.rule_index(top)),
                             hint=f"give '{low}' the higher priority, or narrow '{top}'")
            if priorities[a] == priorities[b]:
                self.add("deal-win-overlap", "warning",
                         f"{n:,} hands meet both '{a}' and '{b}', which have the same priority: which one is paid "
                         "is left to their order in the file", ("deal_wins", "rules", self.rule_index(a)),
                         ("deal_wins", "rules", self.rule_index(b)),
                         hint="give them different 'priority' values (the higher is paid)")
        for r in rs.deal_wins:
            # Exact totals only (count == 50, count in [49, 50]): a threshold 'or more' (count >= 45)
            # still names the high hands however high they go.
            exact = re.findall(r"count\s*==\s*(\d+)|count\s+in\s*\[([\d,\s]+)\]", r.when.source)
            literals = [int(x) for a, b in exact for x in re.findall(r"\d+", a or b)]
            high = [x for x in literals if x >= 40]
            if high and "count" in r.when.source and table.max_count > max(high) + 2:
                self.add("values-threshold", "note",  # a heuristic (the 49/50 may be meant): a note, never a warning
                         f"'{r.id}' is about high hands ({', '.join(map(str, high))}), but with these card values "
                         f"a hand of {size} cards{decks} can count up to {table.max_count}",
                         ("deal_wins", "rules", self.rule_index(r.id), "when"), *seats, ("pack", "values"),
                         ("deal", "hand_size"))

    def endings(self) -> None:
        rs = self.rs
        e = rs.endings
        if "stock" in rs.draw_from and rs.stock_exhausted is not None and "stock_exhausted" not in e:
            removal = self.removal("endings.stock_exhausted")
            message = ("the stock can run out, but the ruleset says nothing about an exhausted stock "
                       "(the hand would be dead)")
            hint = "add endings.stock_exhausted (who wins, who pays), or void_if: true for a dead hand"
            if removal is not None:
                self.add_removed("ending-undefined", "error", message + ": this line removes the rule",
                                 removal, ("stock", "exhausted"), hint=hint)
            else:
                self.add("ending-undefined", "error", message,
                         ("stock", "exhausted") if self.has("stock") else ("endings",), hint=hint)
        if "stock" in rs.draw_from and rs.stock_exhausted is None:
            self.add("ending-undefined", "error", "the ruleset does not say when the stock is exhausted",
                     ("endings",), hint="add stock: {exhausted: draw_from_empty}")
        drop_possible = rs.drop_allowed.source.strip() != "false"
        for kind in ("drop_won", "drop_caught"):
            if drop_possible and kind not in e:
                removal = self.removal(f"endings.{kind}")
                message = f"a player may drop, but there is no rule for '{kind}'"
                if removal is not None:
                    self.add_removed("ending-undefined", "error", message + ": this line removes it", removal,
                                     ("turn", "drop", "allowed"))
                else:
                    self.add("ending-undefined", "error", message, ("turn", "drop", "allowed"))
        min_meld = min(rs.book_min, rs.run_min)
        hits = rs.hit_books or rs.hit_runs
        if rs.hand_size + 1 < min_meld and not hits:
            for kind in ("tonk_out", "out_on_discard"):
                if kind in e:
                    self.add("ending-impossible", "warning",
                             f"'{kind}' can never happen: a hand holds at most {rs.hand_size + 1} cards, the smallest "
                             f"spread is {min_meld} cards, and spreads cannot be hit", ("endings", kind),
                             ("deal", "hand_size"), ("melds",))
        for kind, ending in e.items():
            for j, t in enumerate(ending.payouts):
                path: Path = ("endings", kind, "payouts", j)
                if re.fullmatch(r"\s*-\s*\d+\s*(\*.*)?", t.amount.source):
                    self.add("payout-negative", "error", f"the payout '{t.id}' is a negative amount "
                             f"({t.amount.source}); swap 'from' and 'to' instead", path + ("amount",))
                if _same_players(t.payers.source, ending.winners.source, kind):
                    self.add("winner-pays", "error", f"in '{kind}', the payout '{t.id}' is paid by the winners "
                             f"({ending.winners.source})", path + ("from",), ("endings", kind, "winners"))
                elif self.has(*path):
                    verdict = self.asker.winner_keeps_out(path, ending.winners.source, self.data_at(path))
                    if verdict is not None and not verdict[0].possible and verdict[1].possible:
                        because = _reason(verdict[0], path)
                        self.add("winner-pays", "error", f"in '{kind}', every winner ({ending.winners.source}) pays "
                                 f"'{t.id}' ({t.payers.source}){': ' + because if because else ''}",
                                 path + ("from",), ("endings", kind, "winners"),
                                 hint="leave the winners out of 'from' (others where ..., players where ... and "
                                      "not deal_win)")

    def stock_never_drawn(self) -> None:
        """A discard that must always be taken: nobody draws from the stock once the pile has a
        card, so the stock never runs out and only going out or a drop ends the hand (greedy
        bots played 9 of 20 such hands of standard to the engine's turn cap)."""
        rs = self.rs
        must = rs.must_take
        if must is None or not {"stock", "discard"} <= set(rs.draw_from):
            return
        path = ("turn", "draw", "must_take")
        always = must.constant is True
        if not always:
            got = decide(must.source, self.name_ranges, _subject(path))
            always = isinstance(got, Bool) and got.can_true and not got.can_false
        if always:
            self.add("hand-may-not-end", "warning", f"turn.draw.must_take ('{must.source}') always holds: every player "
                     "takes the discard and nobody draws from the stock, so the stock never runs out and a hand "
                     "ends only when someone goes out or drops; it may never end", path,
                     hint="say when the discard must be taken (e.g. discard_fits), or leave must_take out")

    def disabled(self) -> None:
        rs = self.rs
        no_hits = not rs.hit_books and not rs.hit_runs
        for name, spec in (self.data.get("counters") or {}).items():
            for j, ev in enumerate(spec.get("events", [])):
                if ev.get("on") == "spread_hit" and no_hits and HITS_SPREADS not in plan_for(rs).facts:
                    self.add("rule-for-disabled", "warning",
                             f"the counter '{name}' changes when a spread is hit, but spreads cannot be hit",
                             ("counters", name, "events", j), ("hits",))
        if rs.must_take is not None and not {"stock", "discard"} <= set(rs.draw_from):
            self.add("rule-for-disabled", "warning", "turn.draw.must_take says when the discard must be taken "
                     "instead of the stock, but players draw only from the " + rs.draw_from[0],
                     ("turn", "draw", "must_take"), ("turn", "draw", "from"), hint="draw from: [stock, discard]")
        if rs.wild_in_melds and not any(rs.pack.wild):
            self.add("rule-for-disabled", "warning", "wild cards may stand in spreads, but the pack has no wild card",
                     ("melds", "wild_cards"), ("pack",), hint="list them in pack.wild, e.g. [2, JK]")
        if rs.book_identical and not any(p.decks > 1 for p in rs.packs.values()):
            self.add("rule-for-disabled", "warning", "books may hold identical cards, but the pack has one deck: "
                     "no two cards are identical", ("melds", "book", "identical_cards"), ("pack",),
                     hint="shuffle several decks together (pack.decks), or remove identical_cards")
        no_wild = not rs.wild_in_melds or not any(rs.pack.wild)
        if not no_wild and all(w.max_wild == 0 for w in rs.wild_limits.values()):
            said = [p for p in (("melds", "max_wild"), ("melds", "book", "max_wild"), ("melds", "run", "max_wild"))
                    if self.has(*p)]
            self.add("rule-for-disabled", "warning", "melds.max_wild: 0 lets no wild card into any spread, so wild "
                     "cards never stand in one (melds.wild_cards has no effect)", *said, ("melds", "wild_cards"), hint="leave max_wild out for no limit, or set wild_cards: false")
        for where in ((), ("book",), ("run",)):
            for key in ("min_natural", "max_wild"):
                if no_wild and self.has("melds", *where, key) and self.data_at(("melds", *where, key)) not in (None, 0):
                    self.add("rule-for-disabled", "warning", f"{'.'.join(('melds', *where, key))} limits wild cards "
                             "in spreads, but no wild card stands in a spread", ("melds", *where, key),
                             ("melds", "wild_cards"), ("pack", "wild"))
        if self.data["pack"].get("wild_value", "own") != "own" and not any(rs.pack.wild):
            self.add("rule-for-disabled", "warning", "pack.wild_value says what a wild card counts, but the pack has "
                     "no wild card", ("pack", "wild_value"), ("pack", "wild"))
        if rs.jokers_in_melds and not any(s is None for s in rs.pack.suits):
            self.add("rule-for-disabled", "warning", "jokers may be part of spreads, but the pack has no joker",
                     ("melds", "jokers_in_melds"), ("pack",))
        facts = plan_for(rs).facts
        for rule in RULES:  # each construct says what it knows of its own settings
            for f in rule.lint(rs, facts):
                self.add(f.code, f.severity, f.message, f.path, *f.related, hint=f.hint)
            for n in rule.narrows(rs):
                self._narrowing(n)
        if rs.hits_per_turn is not None and no_hits:
            self.add("rule-for-disabled", "warning", "a limit on hits per turn, but spreads cannot be hit",
                     ("hits", "max_cards_per_turn"), ("hits",))
        if rs.hold_except is not None and (rs.hold_allowed is None or rs.hold_allowed.source.strip() == "true"):
            self.add("rule-for-disabled", "warning", "an exception to holding spreads, but holding is allowed anyway",
                     ("melds", "hold", "except"), ("melds", "hold", "allowed"))

    def pack_names(self) -> None:
        """Ranks and cards that the pack section names but the pack does not hold."""
        spec = self.data["pack"]
        ranks = [str(r) for r in spec.get("ranks", [])]
        suits = [str(x) for x in spec.get("suits", [])]
        jokers = int(spec.get("jokers", 0) or 0)

        def held(name: str) -> bool:
            if name == JOKER:
                return jokers > 0
            if name in ranks:
                return True
            return any(name == f"{r}{x}" for r in ranks for x in suits)

        def mine(path: Path) -> bool:  # written in the file being linted (an inherited entry for a
            return self.doc.origin(path)[0].file == self.root.file  # rank this file dropped is no slip)

        for j, name in enumerate(map(str, spec.get("wild", []) or [])):
            if not held(name) and mine(("pack", "wild", j)):
                what = "no joker" if name == JOKER else f"no {name}"
                self.add("pack-missing", "warning", f"pack.wild names {name}, but the pack holds {what}: it is never "
                         "wild", ("pack", "wild", j), ("pack", "jokers" if name == JOKER else "ranks"),
                         hint="add jokers (pack.jokers)" if name == JOKER else f"add {name} to pack.ranks, or drop it "
                         "from pack.wild")
        for name in map(str, (spec.get("values") or {})):
            if not held(name) and mine(("pack", "values", name)):
                what = "no joker" if name == JOKER else f"no {name}"
                self.add("pack-missing", "warning", f"pack.values gives {name} a value, but the pack holds {what}",
                         ("pack", "values", name), ("pack", "jokers" if name == JOKER else "ranks"),
                         hint=f"remove {name} from pack.values" + (", or add jokers" if name == JOKER else ""))

    def unpaid_winners(self) -> None:
        """Endings with winners that neither pay them nor score for them."""
        for kind, ending in self.rs.endings.items():
            if ending.payouts or ending.scores or ending.winners.constant == ():
                continue
            if ending.void_if is not None and ending.void_if.constant is True:
                continue  # always void: the hand is dead, nobody wins it (ending-impossible speaks of it)
            if self.has("endings", kind):
                self.add("winner-unpaid", "warning", f"the ending '{kind}' has winners ({ending.winners.source}) but "
                         "pays them nothing: no payout, no score", ("endings", kind),
                         hint="add a payout to the winners (endings.<ending>.payouts)")

    def going_out_disabled(self) -> None:
        """Payouts for an ending that what leads to it has switched off."""
        rs = self.rs
        ending = rs.endings.get("tonk_out")
        if ending is not None and ending.payouts and rs.going_out_allowed.constant is False:
            self.add("rule-for-disabled", "warning", "payouts for going out, but going out is never allowed "
                     "(going_out.allowed is false)", ("endings", "tonk_out", "payouts"), ("going_out", "allowed"))

    def money_on_points(self) -> None:
        """On a points sheet only score entries count (the engine moves no money): an automatic
        win or an ending with payments and no score entry moves nothing at all."""
        rs = self.rs
        if rs.score_sheet != "points":
            return
        sheet = ("scoring", "sheet")
        for i, win in enumerate(rs.deal_wins):
            if win.pays.constant != 0 and not win.scores:
                self.add("money-on-points", "warning", f"the automatic win '{win.id}' pays '{win.pays.source}' but "
                         "scores nothing, and on a points sheet only score entries count: it moves nothing",
                         ("deal_wins", "rules", i, "pays"), sheet,
                         hint=f"give '{win.id}' scores: [{{id: ..., players: others, points: ...}}]")
        for kind, ending in rs.endings.items():
            if ending.payouts and not ending.scores:
                self.add("money-on-points", "warning", f"'{kind}' has payouts but no scores, and on a points sheet "
                         "only score entries count: the hand ends with every score unchanged",
                         ("endings", kind, "payouts"), sheet,
                         hint=f"write endings.{kind}.scores (and remove the payouts)")

    def _narrowing(self, n: Narrowing) -> None:
        """A construct's condition on top of one of the ruleset's that never refuses what the
        other allows: it changes nothing (guard-changes-nothing)."""
        refuses = f"({n.narrowed}) and not ({n.condition})"
        got = decide(refuses, self.moment_ranges(n.path), _subject(n.path))
        if isinstance(got, Bool) and not got.can_true:
            because = why(self.moment_ranges(n.path), refuses)
        else:
            verdict = self.asker.condition(n.path, refuses)
            if verdict is None or verdict[0].possible:
                return
            because = verdict[0].reason
        self.add("guard-changes-nothing", "warning", f"'{n.condition}' never refuses what '{n.narrowed}' "
                 f"({'.'.join(n.narrowed_key)}) allows: the rule changes nothing"
                 f"{' (' + because + ')' if because else ''}", n.path, n.narrowed_key,
                 hint=f"tighten it, or remove it (it is asked on top of {'.'.join(n.narrowed_key)})")

    def transfers_among_several(self) -> None:
        """Payments shared among several receivers that leave them nothing: a split of at most 1
        among two or more (split: down keeps what does not divide), and the whole pot paid to
        each of several winners in turn (the first takes it all)."""
        ranges = self.name_ranges
        for path, node in _transfers(self.data):
            to, amount = node.get("to"), node.get("amount")
            if not isinstance(to, str) or not isinstance(amount, (str, int)) or isinstance(amount, bool):
                continue
            source = str(amount)
            if node.get("split") == "down":
                at_one = decide(source, {**ranges, "stake": Num(1, 1)}, _subject(path))
                if isinstance(at_one, Num) and at_one.hi < 2:
                    several = self.asker.condition(path + ("to",), f"count({to}) >= 2")
                    if several is not None and several[0].possible:
                        self.add("split-pays-nothing", "warning", f"'{source}' split down among '{to}' pays each of "
                                 f"them 0 at a stake of 1 when there are two or more (what does not divide stays "
                                 f"with the payer){', for example ' + several[0].example if several[0].example else ''}",
                                 path + ("amount",), path + ("split",),
                                 hint="split a larger amount (the whole pot, stake * count(...)), or use split: dealer_left")
            elif node.get("split") is None and self._pot(node.get("from")) and source.strip() == str(node.get("from")).strip():
                several = self.asker.condition(path + ("to",), f"count({to}) >= 2")
                if several is not None and several[0].possible:
                    self.add("pot-to-several", "warning", f"the whole pot is paid to each of '{to}' in turn: the "
                             f"first takes it all and the others get nothing when there are two or more"
                             f"{', for example ' + several[0].example if several[0].example else ''}",
                             path + ("amount",), hint="share it: add split: down (or dealer_left), or pay "
                             f"pot / count({to})")

    def winner_against_sheet(self) -> None:
        """A match won by the highest total on a sheet where the lowest wins (or the reverse)."""
        session, scoring = self.data.get("session") or {}, self.data.get("scoring") or {}
        winner, lowest = session.get("winner"), scoring.get("lowest_wins")
        if winner is None or lowest is None or scoring.get("sheet", "money") == "money":
            return
        if (winner == "lowest_total") != bool(lowest):
            self.add("winner-against-sheet", "warning", f"session.winner: {winner}, but the score sheet says the "
                     f"{'lowest' if lowest else 'highest'} score wins (scoring.lowest_wins: {str(lowest).lower()}): "
                     "the match goes to the player the sheet ranks last", ("session", "winner"),
                     ("scoring", "lowest_wins"), hint="leave session.winner out: it follows scoring.lowest_wins")

    def run(self) -> list[Diagnostic]:
        self.pack()
        self.pack_names()
        self.going_out_disabled()
        self.unpaid_winners()
        self.deal_wins()
        self.endings()
        self.disabled()
        self.stock_never_drawn()
        self.conditions()
        self.empty_sets()
        self.empty_min_max()
        self.money_on_points()
        self.transfers_among_several()
        self.winner_against_sheet()
        self.amounts()
        self.winners_by_relations()
        self.shadowed_dealers()
        return self.out

    # --- deciding conditions and amounts (lint/intervals.py) --------------------------------
    def most_held(self) -> int:
        """The most cards a hand can hold: the most any seat is dealt, plus one."""
        rs = self.rs
        dealt = rs.hand_size
        if rs.extra_cards:
            for n in range(rs.players_min, rs.players_max + 1):
                try:
                    dealt = max(dealt, *hand_sizes(State(rs, n, n - 1, 1)))
                except RulesetError:
                    return MAX_SEAT_CARDS + 1
        return dealt + 1

    @functools.cached_property
    def name_ranges(self) -> dict[str, Abs]:
        """The range of every name a condition may read, under this ruleset."""
        rs = self.rs
        largest = max(len(rs.pack_for(n)) for n in range(rs.players_min, rs.players_max + 1))
        # A hand holds at most the most cards a seat is dealt, plus the one card a turn adds
        # (the draw, or the discard eaten in its place): a count is at most the sum of that many
        # of the pack's highest values (at least that many of its lowest, where values go below 0).
        held = self.most_held()
        values = sorted(v for n in (rs.players_min, rs.players_max) for o in rs.pack_for(n).options for v in o)
        low, high = sum(values[:held]), sum(values[-held:])
        count = Num(min(0, low), max(0, high))
        out: dict[str, Abs] = {name: count for name in ("count", "dealt_count", "deadwood_count", "low_count",
                                                          "high_count", "min_count")}
        out.update(turn=Num(0, MAX_TURNS), round=Num(1, INF), stake=Num(1, INF), stock=Num(0, largest),
                   discards=Num(0, largest), spreads_on_table=Num(0, INF), pot=Num(0, INF),
                   cards=Num(0, held), hand=Items(0, held), turns=Num(0, MAX_TURNS), hits=Num(0, largest), spreads=Num(0, INF),
                   spreads_this_turn=Num(0, INF),
                   **{"count(laid)": Num(0, largest)},  # (lint/smt.py's LAID: the cards a player laid this hand)
                   num_players=Num(rs.players_min, rs.players_max),
                   players=Items(rs.players_min, rs.players_max), others=Items(rs.players_min - 1, rs.players_max - 1),
                   winners=Items(0, rs.players_max), lowest=Items(1, rs.players_max))
        # A card's value (the upcard's, or each card's in 'hand where value > 9'): within the pack's.
        out["value"] = Num(values[0], values[-1]) if values else TOP
        # The cards of each rank and suit in the largest pack: 'count(hand where rank == A)' is at
        # most 4 with one deck (intervals._in_pack).
        pack = max((rs.pack_for(n) for n in (rs.players_min, rs.players_max)), key=len)
        for prefix, of_card in ((PACK_RANK, pack.ranks), (PACK_SUIT, pack.suits)):
            for symbol in {x for x in of_card if x is not None}:  # a joker has no suit
                out[prefix + symbol] = Num(0, sum(1 for x in of_card if x == symbol))
        for c in rs.counters:
            adds = [e.add for e in c.events if e.add is not None]
            sets = [e.set for e in c.events if e.set is not None]
            lo = min([c.initial, *sets, *([c.floor if c.floor is not None else -INF] if any(a < 0 for a in adds)
                                          else [])])
            hi = max([c.initial, *sets, *([INF] if any(a > 0 for a in adds) else [])])
            out[c.name] = Num(lo, hi)
        return out

    @functools.cached_property
    def asker(self) -> Asker:
        return Asker(self.rs, self.name_ranges, self.most_held())

    def _amount_by_relations(self, path: Path, source: str) -> tuple[Num | None, str] | None:
        """An amount of a payout or bonus decided by the solver, for a payer of its 'from' and a
        payee of its 'to' when its 'when' holds: (a range standing for the verdict, the reason or
        example), or None when the solver cannot tell (intervals then decide alone)."""
        node = self.data_at(path[:-1])
        if path[-1] != "amount" or not isinstance(node, dict) or "from" not in node:
            return None
        applies = self.asker.amount(path, node, "1", ">")
        if applies is not None and not applies.possible:
            self._never_pays(path[:-1], node, applies)
        if applies is None or not applies.possible:
            return None  # the payout never applies: said by set-always-empty, condition-never or _never_pays
        above = self.asker.amount(path, node, source, ">")
        below = self.asker.amount(path, node, source, "<")
        if above is None or below is None:
            return None
        if not above.possible:
            who = f"for a payer of '{node['from']}' and a payee of '{node['to']}'"
            return Num(-1, 0), f"{who}; {_reason(above, path)}" if above.reason or "dropper" in _subject(path) \
                else who
        if below.possible:
            return Num(-1, 1), f"for example {below.example}" if below.example else ""
        return Num(0, 1), ""

    def _never_pays(self, path: Path, node: Mapping[str, Any], proof: Verdict) -> None:
        """A payout or bonus whose sets can each hold someone, and whose 'when' can hold, but
        never together with a payer who may pay a payee: partners (players.sides), or the same
        player on both sides. (An empty set or a condition that never holds is said by its own
        check.)"""
        for key in ("from", "to"):
            source = str(node.get(key, ""))
            got = self._pot(source) or self.asker.nonempty(path + (key,), source)
            if got is None or (got is not True and not got.possible):
                return
        if isinstance(node.get("when"), str):
            when = self.asker.condition(path + ("when",), node["when"])
            if when is None or not when[0].possible:
                return
        self.add("payout-never-pays", "warning", f"'{node.get('id')}' never pays: no player of '{node['from']}' "
                 f"may pay a player of '{node['to']}': {_reason(proof, path)}", path + ("from",), path + ("to",),
                 hint="partners never pay each other and nobody pays themself: name players of other sides")

    def winners_by_relations(self) -> None:
        """Endings that can end with no winner, and winners no payout pays, decided by the solver
        at the ending's moment (a drop compared by deadwood while the caught ending speaks of
        whole counts)."""
        for kind, ending in self.rs.endings.items():
            path: Path = ("endings", kind, "winners")
            if ending.winners.constant == () or not self.has(*path) or (
                    ending.void_if is not None and ending.void_if.constant is True):
                continue
            source = ending.winners.source
            # In a drop ending the winners follow turn.drop.wins_if: the cause may be there.
            cause: tuple[Path, ...] = (("turn", "drop", "wins_if"),) if kind.startswith("drop") else ()
            empty = self.asker.empty(path, source)
            if empty is not None and empty.possible:
                self.add("winners-may-be-empty", "warning", f"'{kind}' can end with no winner: '{source}' can be "
                         f"empty{', for example ' + empty.example if empty.example else ''}", path, *cause,
                         hint="say who wins by the same measure as the rule that leads here (turn.drop.wins_if)")
                continue
            payouts = [self.data_at(("endings", kind, "payouts", j)) for j in range(len(ending.payouts))]
            if not payouts or ending.scores or any(self._pot(t.get("to", "")) for t in payouts):
                continue
            unpaid = self.asker.unpaid_winner(path, source, payouts)
            if unpaid is not None and unpaid.possible:
                self.add("winner-unpaid", "warning", f"a winner of '{kind}' ('{source}') can be in no payout's "
                         f"'to'{', for example ' + unpaid.example if unpaid.example else ''}: they win and receive "
                         "nothing", path, *cause, *(("endings", kind, "payouts", j, "to") for j in range(len(payouts))),
                         hint="pay the winners by the same measure they win by")

    def shadowed_dealers(self) -> None:
        """deal.next_dealer rules that never apply: for every way a hand can end that they are
        for, an earlier rule is for it too and always names someone."""
        rules = self.rs.next_dealers
        kinds = ("initial_tonk", "redeal", "dead_hand", *self.rs.endings)

        def always_names(rule_dealer: str, kind: str) -> bool:
            words = rule_dealer.strip()
            if words in ("dealer", "players"):
                return True
            if words == "dropper":
                return kind in ("drop_won", "drop_caught")
            if kind not in self.rs.endings:
                return False  # no ending's moment to reason in: not proven
            got = self.asker.empty(("endings", kind, "winners"), rule_dealer)
            return got is not None and not got.possible

        for j, rule in enumerate(rules):
            mine = rule.after or frozenset(kinds)
            taken = {k for k in mine if any(k in (r.after or kinds) and always_names(r.dealer.source, k)
                                            for r in rules[:j])}
            if taken == set(mine):
                first = next(i for i, r in enumerate(rules[:j]) if any(k in (r.after or kinds) for k in mine))
                self.add("rule-shadowed", "warning", f"this next_dealer rule never applies: for "
                         f"{'every ending' if not rule.after else ', '.join(sorted(mine))}, an earlier rule "
                         "always names a dealer first", ("deal", "next_dealer", j), ("deal", "next_dealer", first),
                         hint="put the narrower rule (with 'after') before the general one")

    def moment_ranges(self, path: Path) -> Mapping[str, Abs]:
        """The names' ranges where ``path``'s condition is evaluated: what that moment implies of
        the player the rule is about. The player to move, deciding at their own turn (a drop, a
        spread, taking the discard), has started at least one turn: ``turns >= 1`` (unless a rule
        lets a player drop out of turn, before any turn of theirs)."""
        ranges = self.name_ranges
        if path[:1] in _AFTER_THE_DEAL:
            # The hand is played: nobody holds an automatic win on the deal (the hand would have
            # ended as the deal was checked, or at its claim).
            ranges = {**ranges, "deal_win": Bool(False, True)}
        if path[:1] == ("bonuses",) and len(path) > 1 and (self.data_at(path[:2]) or {}).get("on") == "dealt":
            # The cards have just been dealt: nobody has laid a spread or hit one yet.
            nothing = Num(0, 0)
            return {**ranges, "spreads": nothing, "hits": nothing, "spreads_this_turn": nothing,
                    "spreads_on_table": nothing}
        own_turn = path[:2] in (("turn", "spread"), ("turn", "draw"))
        if path[:2] == ("turn", "drop"):
            own_turn = DROPS_OUT_OF_TURN not in plan_for(self.rs).facts
        if not own_turn:
            return ranges
        return {**ranges, SUBJECT + "turns": Num(1, MAX_TURNS)}

    def conditions(self) -> None:
        """Conditions that can never hold, or always do, wherever they are written."""
        for path, source in _expression_fields(self.data, _CONDITION_KEYS):
            if re.fullmatch(r"\s*(true|false)\s*", source) or not re.search(r"[a-z_]", source.replace("true", "")
                                                                               .replace("false", "")):
                continue  # written as a constant on purpose
            ranges = self.moment_ranges(path)
            got = decide(source, ranges, _subject(path))
            because = why(ranges, source)
            if not isinstance(got, Bool) or (got.can_true and got.can_false):
                # Intervals cannot tell: ask the solver, which follows relations between names.
                verdict = self.asker.condition(path, source)
                if verdict is None or (verdict[0].possible and verdict[1].possible):
                    continue
                got = Bool(verdict[0].possible, verdict[1].possible)
                because = _reason(verdict[1] if got.can_true else verdict[0], path)
            field_name = str(path[-1])
            if got.can_true:
                self.add("condition-always", "warning", f"'{source}' always holds{': ' + because if because else ''}; "
                         f"'{field_name}' could say true", path,
                         hint="check the numbers against the ranges the names can take")
            else:
                self.add("condition-never", "error" if path[:2] == ("turn", "drop") else "warning",
                         f"'{source}' can never hold{': ' + because if because else ''}", path,
                         hint="check the comparison and its numbers (a count is never below 0, a turn never past "
                              f"{MAX_TURNS:,})")

    def empty_sets(self) -> None:
        """Winners, payers and payees that are always nobody."""
        ranges = self.name_ranges
        for path, source in _expression_fields(self.data, {"winners", "from", "to", "players", "by"}):
            got = decide(source, ranges, _subject(path))
            because = why(ranges, source)
            if not (isinstance(got, Items) and got.hi == 0):
                verdict = None if self._pot(source) else self.asker.nonempty(path, source)
                if verdict is None or verdict.possible:
                    continue
                because = _reason(verdict, path)
            what = {"winners": "the ending has no winner", "from": "nobody pays", "to": "nobody is paid",
                    "players": "nobody scores", "by": "nobody may act"}[str(path[-1])]
            self.add("set-always-empty", "warning", f"'{source}' is always empty: {what}"
                     f"{' (' + because + ')' if because else ''}", path, hint="check the condition after 'where'")

    def empty_min_max(self) -> None:
        """min() and max() of a set that can be empty at play (lint/empty_min.py)."""
        keys = {*_CONDITION_KEYS, "winners", "from", "to", "players", "by", "amount", "pays", "ante"}
        def add(code: str, severity: str, message: str, path: Any, *related: Any, hint: str = "") -> None:
            self.add(code, severity, message, path, *related, hint=hint)
        fields = _expression_fields(self.data, keys)
        min_of_empty(self.rs, fields, self.asker.empty, add)
        divide_by_empty(self.rs, fields, self.asker.empty, add)

    def amounts(self) -> None:
        """Amounts (payouts, bonuses, antes) that are never positive or can go below zero."""
        ranges = self.name_ranges
        caps = [(("limits", k), str(v)) for k, v in (self.data.get("limits") or {}).items()
                if k in ("most_lost", "most_won") and isinstance(v, int) and not isinstance(v, bool)]
        for path, source in _expression_fields(self.data, {"amount", "pays", "ante", "most_lost", "most_won"}) + caps:
            if re.fullmatch(r"\s*-\s*\d+\s*(\*.*)?", source) and path[0] != "limits":
                continue  # payout-negative says it
            got = decide(source, ranges, _subject(path))
            because = why(ranges, source)
            # Intervals prove 'never above 0' in their own words; anything short of that (a range
            # that crosses 0, or none) is asked of the solver, which also knows the moment.
            settled = None if isinstance(got, Num) and got.hi <= 0 else self._amount_by_relations(path, source)
            if settled is not None:
                got, because = settled
            if not isinstance(got, Num):
                continue
            if got.lo == got.hi == 0 and "dropper." in source and "dropper" in _subject(path):
                because = (f"in '{path[1]}' the bare names read the dropper (the ending's actor), so "
                           f"'{source}' is the dropper's value less itself: always 0")
            if got.hi <= 0:
                cap = path[0] == "limits"
                self.add("amount-not-positive", "error", f"the {'cap' if cap else 'amount'} '{source}' is never more "
                         f"than 0{': ' + because if because else ''}", path,
                         hint="a cap is the most one hand costs or brings a player: at 0 or below no payment is "
                         "made (the engine stops on a cap below 0)" if cap else
                         "an amount is what the payer gives; swap 'from' and 'to' for money the other way")
            elif got.lo < 0:
                self.add("amount-not-positive", "warning", f"the amount '{source}' can be below 0"
                         f"{': ' + because if because else ''}", path,
                         hint="a difference of counts can go either way: write abs(...), or max([0, ...])")



def _reason(verdict: Verdict, path: Path) -> str:
    """The words of a solver's proof at ``path``: the facts it needed, or, when it needed none,
    what the names read there."""
    if verdict.reason:
        return verdict.reason
    if len(path) > 1 and path[:2] == ("endings", "others_folded"):
        return ("in 'others_folded' every player but the last one in has folded, and who folded is not among "
                "players, others, partners or opponents (they are 'folded')")
    if "dropper" in _subject(path):
        return f"in '{path[1]}' the bare names read the dropper (the ending's actor)"
    return "it contradicts itself, whatever the values of its names"


def _subject(path: Path) -> frozenset[str]:
    """The roles that name the player whose attributes the bare names of ``path`` read: the
    actor, and in a drop ending the dropper too (the engine ends it with actor=dropper)."""
    drop = len(path) > 1 and path[0] == "endings" and str(path[1]).startswith("drop")
    return frozenset({"actor", "self", "dropper"} if drop else {"actor", "self"})


def _same_players(a: str, b: str, ending: str) -> bool:
    """Whether two player expressions of an ending name the same players by meaning: a drop
    ending's actor is its dropper (the engine ends it with actor=dropper), and 'self' is the
    actor."""
    def canon(text: str) -> str:
        words = re.sub(r"\bself\b", "actor", " ".join(text.split()))
        return re.sub(r"\bactor\b", "dropper", words) if ending.startswith("drop") else words
    return canon(a) == canon(b)


# The keys whose values are conditions (the schema's 'condition'); deal_wins' 'when' is decided
# exactly by the odds (deal-win-impossible, deal-win-always).
_CONDITION_KEYS = {"allowed", "claim", "eliminate_when", "ends_when", "except", "must_take", "void_if", "when", "wins_if"}


# Where a ruleset's expressions are read once the deal was checked and the hand goes on (its
# endings, its turn, its bonuses and counters): deal_win is false for everyone there.
_AFTER_THE_DEAL = {("endings",), ("turn",), ("bonuses",), ("counters",), ("hits",), ("melds",), ("going_out",)}


def _transfers(data: Any) -> list[tuple[Path, dict[str, Any]]]:
    """(path, entry) of every payout and bonus written (endings' payouts, bonuses)."""
    out: list[tuple[Path, dict[str, Any]]] = []
    for kind, ending in (data.get("endings") or {}).items():
        for i, p in enumerate((ending or {}).get("payouts") or []):
            if isinstance(p, dict):
                out.append((("endings", kind, "payouts", i), p))
    for i, b in enumerate(data.get("bonuses") or []):
        if isinstance(b, dict):
            out.append((("bonuses", i), b))
    return out


def _expression_fields(data: Any, keys: set[str], path: Path = ()) -> list[tuple[Path, str]]:
    """(path, text) of every string under one of ``keys``, outside deal_wins."""
    out: list[tuple[Path, str]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if path == () and k == "deal_wins":
                continue
            if k in keys and isinstance(v, str):
                out.append((path + (k,), v))
            else:
                out += _expression_fields(v, keys, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _expression_fields(v, keys, path + (i,))
    return out


def _noop_overrides(path: FsPath, allow_paths: Iterable[FsPath]) -> list[Diagnostic]:
    """Top-level sections of a file that only repeat what the ruleset it extends says: one note
    per section, and only when everything written under it repeats (a section restated whole
    while one entry changes is not a no-op). A note never fails --strict."""
    src = load_yaml_file(path)
    data = src.data
    if not isinstance(data, dict) or not isinstance(data.get("extends"), str):
        return []
    parent = read_doc(resolve_name(data["extends"], path.parent), allow_paths=allow_paths).data
    out: list[Diagnostic] = []
    for key, value in data.items():
        if key in ("extends", "remove", "name", "description") or key not in parent:
            continue
        leaves = _restated(value, parent[key], (key,))
        if leaves is None:
            continue
        if len(leaves) == 1:  # one line: name it
            where, leaf = leaves[0]
            shown = ("true" if leaf else "false") if isinstance(leaf, bool) else repr(leaf)
            message = f"'{'.'.join(map(str, where))}' is already {shown} in '{data['extends']}': this line changes nothing"
        else:
            where = (key,)
            message = (f"'{key}' repeats what '{data['extends']}' says ({len(leaves)} values): this section changes "
                       "nothing")
        d = src.diagnostic("extends-noop", message, tuple(p for p in where if not isinstance(p, str) or
                                                          not p.startswith("[")), key=True)
        out.append(Diagnostic(d.code, d.message, d.file, d.line, d.column, d.path, "note", d.source_line,
                              "delete it, or keep it on purpose to say the rule out loud"))
    return out


def _restated(child: Any, base: Any, path: Path) -> list[tuple[Path, Any]] | None:
    """The leaves written under ``child`` when every one of them repeats ``base`` (None when
    something differs). List entries with ids are matched by id, as merging does."""
    if isinstance(child, dict) and isinstance(base, dict):
        leaves: list[tuple[Path, Any]] = []
        for k, v in child.items():
            if k not in base:
                return None
            got = _restated(v, base[k], path + (k,))
            if got is None:
                return None
            leaves += got
        return leaves
    if isinstance(child, list) and is_id_list(child) and is_id_list(base):
        by_id = {x["id"]: x for x in base}
        leaves = []
        for j, item in enumerate(child):
            if item["id"] not in by_id:
                return None
            got = _restated(item, by_id[item["id"]], path + (j,))
            if got is None:
                return None
            leaves += [(p, v) for p, v in got if p[-1] != "id"]
        return leaves
    return [(path, child)] if child == base else None


def _root_source(doc: Doc, path: FsPath) -> Source:
    """The Source of the file being linted (named as in every other diagnostic)."""
    for src, _ in doc.origins.values():
        if FsPath(src.file).resolve() == path.resolve() or src.file == str(path):
            return src
    return load_yaml_file(path, display_name(path))


WITNESS_HANDS = 2000  # the witness search's budget when --simulate does not give one


def lint(ref: str | FsPath, *, allow_paths: Iterable[FsPath] = (), simulate: int = 0, seed: int = 0,
         witness: FsPath | None = None) -> LintReport:
    """Lint a ruleset; raises :class:`LoadError` when it cannot be read or is not valid.
    ``witness``: a folder where a hand that makes each rule happen is written as a scenario."""
    doc = load_doc(ref, allow_paths=allow_paths, collect=True)
    problems = doc.problems + validate(doc)
    if problems:  # every problem at once, as tonk validate says them (the expressions too)
        _, more = build(doc, shape_checked=False)
        raise LoadError(sorted(problems + more, key=lambda d: (d.file, d.line, d.column)))
    rs, problems = build(doc)
    if problems or rs is None:
        raise LoadError(problems)
    path = ref if isinstance(ref, FsPath) else resolve_name(ref)
    root = _root_source(doc, path)
    linter = _Linter(doc, rs, root)
    diags = linter.run()
    diags += _noop_overrides(path, allow_paths)
    if simulate:
        from tonkdsl.tools.lint.fired import never_fired

        broke = _legality(linter, str(ref), simulate, witness)
        diags += broke
        if broke:  # the simulations below would meet the same failure: what they say waits on its fix
            witness = None
        else:
            try:
                diags += never_fired(linter, simulate, seed)
            except RulesetError as exc:  # a failure the legality check's hands did not meet
                diags.append(_broken(linter, f"a rule failed in the simulated hands: {exc}",
                                     "tonk simulate with the same --seed shows the hand"))
    if witness is not None:
        try:
            diags += _witnesses(linter, str(ref), witness, simulate or WITNESS_HANDS, seed)
        except RulesetError as exc:
            diags.append(_broken(linter, f"a rule failed in the witness search: {exc}",
                                 "tonk lint --simulate N runs the legality check, which writes the hand"))
    diags = _accepted(linter, diags)
    order = {"error": 0, "warning": 1, "note": 2}
    diags.sort(key=lambda d: (order.get(d.severity, 3), d.file, d.line, d.column))
    return LintReport(str(ref), diags, None)


def _accepted(linter: _Linter, diags: list[Diagnostic]) -> list[Diagnostic]:
    """The ruleset's lint.accept: a warning it means becomes a note that says why; an accepted
    code that lint does not know is a warning of its own. Errors are never accepted."""
    accept = (linter.data.get("lint") or {}).get("accept") or []
    why = {str(a["code"]): str(a["why"]) for a in accept if isinstance(a, dict)}
    out = []
    for d in diags:
        if d.severity == "warning" and d.code in why:
            d = replace(d, severity="note", message=f"accepted ({why[d.code]}): {d.message}")
        out.append(d)
    for j, a in enumerate(accept):
        code = str(a.get("code")) if isinstance(a, dict) else ""
        if code not in CODES:
            linter.add("accept-unknown", "warning", f"lint.accept names '{code}', which is not a lint code"
                       f"{did_you_mean(code, list(CODES))}", ("lint", "accept", j, "code"))
            out.append(linter.out.pop())
    return out


def _witnesses(linter: _Linter, ref: str, folder: FsPath, hands: int, seed: int) -> list[Diagnostic]:
    """Search a witness hand for every rule, write them to ``folder``; a note says the budget and
    what was written, and one note per rule no hand of the search made happen."""
    from tonkdsl.tools.lint.witness import search, write

    rs = linter.rs
    result = search(rs, hands, seed)
    write(result, ref, folder, rs)
    before = len(linter.out)
    linter.add("witness", "note", f"witnesses: {len(result.found)} of {len(result.targets)} rules made to happen in "
               f"{result.budget()}; written to {folder} ('tonk check {folder}/*.yaml' replays them)", ("name",))
    for path in result.kept.values():
        linter.add("witness", "note", f"not written: {path} is a link or a file that is not a witness of tonk lint; "
                   "it was left as it is (remove it, or give --witness another folder)", ("name",))
    for target in result.missing():
        linter.add("witness", "note", f"no witness: no hand of the search ({result.played:,} hands) made {target.what} "
                   "happen; lint has neither proven that it can nor that it cannot", target.path)
    found = linter.out[before:]
    del linter.out[before:]
    return found


# The hands the legality check plays under 'lint --simulate N': one in ten of N (at least 24),
# spread over the table sizes and the random and greedy bots.
LEGALITY_SHARE = 10


def _legality(linter: _Linter, ref: str, hands: int, folder: FsPath | None) -> list[Diagnostic]:
    """The legality check (tonkdsl.tools.legality) over seeded hands: each state where the table
    would break is an error, at the rule that failed where one did; with ``folder``, the hand is
    written there as a scenario that replays it."""
    from tonkdsl.tools.legality import Finding, check, table_sizes
    from tonkdsl.tools.lint.witness import write_text

    rs = linter.rs
    per_seed = 2 * len(table_sizes(rs))
    report = check(rs, seeds=range(max(24, hands // LEGALITY_SHARE) // per_seed + 1), ruleset_ref=ref, stop_after=50)
    alike: dict[str, list[Finding]] = {}  # one error for each way it breaks (the step aside), with the first hand
    for f in report.findings:
        alike.setdefault(re.sub(r"^step \d+: ", "", f.message), []).append(f)
    found = []
    for same in alike.values():
        f = same[0]
        more = f"; {len(same) - 1} more hand{'s' if len(same) > 2 else ''} broke so" if len(same) > 1 else ""
        name = f"legality-{f.kind}-{f.players}p-seed{f.seed}-{f.bot}.yaml"
        written = write_text(folder, name, f.scenario, ref) if folder is not None else None
        found.append(_broken(linter, f"{f.message} ({f.players} players, seed {f.seed}, {f.bot} bots; found by the "
                             f"legality check over {report.hands:,} hands{more})",
                             f"tonk replay {written} shows the hand" if written else
                             "add --witness DIR to write the hand as a scenario that tonk replay shows"))
    return found


def _broken(linter: _Linter, message: str, hint: str) -> Diagnostic:
    """A breaks-at-play error, at the rule that failed where the message names one."""
    rule = re.search(r"the rule '(.*?)' failed", message, flags=re.S)
    path = _path_of_text(linter.data, rule.group(1)) if rule else None
    linter.add("breaks-at-play", "error", message, path or ("name",), hint=hint)
    return linter.out.pop()


def _path_of_text(data: Any, text: str, path: Path = ()) -> Path | None:
    """The path of the first value of ``data`` written as ``text`` (a rule's source)."""
    if isinstance(data, dict):
        items: Iterable[tuple[Any, Any]] = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return path if str(data).strip() == text.strip() else None
    for key, value in items:
        found = _path_of_text(value, text, path + (key,))
        if found is not None:
            return found
    return None


__all__ = ["CODES", "LintReport", "lint"]


# Lint plays this many seeded matches (greedy bots, the fewest players) looking for one that
# reaches MAX_MATCH_HANDS: a witness that the match may never end. A match that ends takes a
# few dozen hands; a capped one about half a second.
MATCH_WITNESSES = 3


@dataclass(frozen=True)
class _Played:
    """What MATCH_WITNESSES seeded matches of greedy bots showed."""
    players: int
    capped: int | None  # the seed of a match stopped at MAX_MATCH_HANDS
    lengths: tuple[int, ...]  # hands per match, in seed order


def match_never_ends(rs: Ruleset) -> bool:
    """Whether the ruleset's match can never end: its end condition is never true and no one is
    ever eliminated (a match with session.hands ends with them)."""
    rules = rs.session
    if not rules.is_match or rules.hands:
        return False
    ends = rules.ends_when is not None and rules.ends_when.constant is not False
    out = rules.eliminate_when is not None and rules.eliminate_when.constant is not False
    closes = rules.column_ends is not None and rules.column_ends.constant is not False  # every column closes
    return not ends and not out and not closes


def played_matches(rs: Ruleset, players: int | None = None) -> _Played | None:
    """Play MATCH_WITNESSES seeded matches (``players``, else the fewest); None when the ruleset
    fails in play (lint --simulate and simulate say how)."""
    from tonkdsl.tools.bots import greedy_bot
    from tonkdsl.tools.simulate import Spec, run_matches

    players = players or rs.players_min
    lengths: list[int] = []
    capped = None
    for seed in range(MATCH_WITNESSES):
        try:
            tally, _ = run_matches(Spec("", ("greedy",) * players, seed), 0, 1, False, ruleset=rs,
                                   bots=[greedy_bot] * players)
        except (RulesetError, IllegalAction, ValueError):  # a rule failing in play, an offered action refused,
            return None  # a pack that cannot deal these players (pack-cannot-deal says so)
        lengths.append(next(h for h, n in tally.match_lengths.items() if n))
        if tally.match_capped:
            capped = seed
            break  # a capped match took long enough: its witness is the finding
    return _Played(players, capped, tuple(lengths))
