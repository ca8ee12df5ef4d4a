"""``tonk explain``: a complete rules sheet made from a ruleset's data.

Every sentence is built from the ruleset: its pack, deal, automatic wins, turn, spreads, hits,
waiting counters, endings and payouts (with amounts worked out for the stake), scoring and
session rules. Nothing is written per ruleset.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from tonkdsl.interpreter.rules import RULES, plan_for
from tonkdsl.interpreter.rules.base import DRAW_ENDS_TURN, DROP_SENTENCES, DROPS_OUT_OF_TURN, FOLDS, STOCK_NEVER_EMPTY
from tonkdsl.language.cards import JOKER
from tonkdsl.language.ruleset import REBUILD_ALWAYS, Ending, Ruleset, Transfer
from tonkdsl.tools.explain.words import READER, amount, one_player, payment, players, pot_words, words

_ENDING_TITLE = {
    "tonk_out": "Going out without a discard (tonk out)",
    "out_on_discard": "Going out on the final discard",
    "drop_won": "A drop that wins",  # (won by whom the ruleset says: with partners, the dropper's side)
    "drop_caught": "A drop that is caught",
    "stock_exhausted": "An exhausted stock",
    "others_folded": "Every other player folded",
}
_SEVERAL = {
    "redeal": "no one is paid and the cards are dealt again",
    "dead_hand": "the hand is dead: no one is paid",
    "all_paid": "each of them is paid by every player without an automatic win",
    "best": "only the best is paid",
}
_TIE = {"redeal": "the cards are dealt again", "dead_hand": "the hand is dead", "nearest_left":
        "the one nearest the dealer's left wins", "all_paid": "all of them are paid"}
_EVENTS = {"dealt": "the player's hand is dealt", "turn_start": "a turn starts", "drew": "the player draws",
           "drew_stock": "the player draws from the stock",
           "drew_discard": "the player takes the discard", "spread_laid": "the player lays a new spread",
           "spread_hit": "a spread is hit", "discarded": "the player discards", "round_end": "a round ends",
           "folded": "the player folds"}
_TARGET = {"actor": "the player's", "owner": "the spread owner's", "everyone": "every player's"}


@dataclass
class Section:
    title: str
    lines: list[str] = field(default_factory=list)  # paragraphs; a leading "- " makes a bullet


def _sides(size: int, fewest: int, most: int) -> str:
    """Partnerships in words: who sits with whom, and what a side shares."""
    seats = []
    for n in range(fewest, most + 1, size):
        count = n // size
        groups = [" and ".join(str(s + 1) for s in range(side, n, count)) for side in range(count)]
        seats.append(f"with {n} players, seats {'; '.join(groups)}")
    return (f"The players play in sides of {size}, partners sitting apart ({'; '.join(seats)}). "
            "Partners never pay each other; a side keeps one total, and wins or goes out of a match together.")


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _transfer(t: Transfer, stake: int, pots: list[str]) -> str:
    said, conds = payment(t.payers.source, t.payees.source, t.amount.source, stake, t.split, pots)
    conds += [words(t.when.source)] if t.when is not None else []
    return f"- {_cap(said)}{_when(conds)} ({t.id})."


def _when(conds: list[str]) -> str:
    """" when A and B", or " unless A" where the one condition is a negated whole."""
    if len(conds) == 1 and conds[0].startswith("not (") and conds[0].endswith(")") \
            and conds[0].count("(") == 1:
        return f" unless {conds[0][5:-1]}"
    return f" when {' and '.join(conds)}" if conds else ""


def _score(players_src: str, points_src: str, when_src: str | None) -> str:
    """"Every other player adds their count to their score", the points read for each of them."""
    who, cond = players(players_src)
    conds = ([cond] if cond else []) + ([words(when_src)] if when_src is not None else [])
    return f"Score sheet: {who} adds {words(points_src, 'scored')} to their score{_when(conds)}."


def _extra_cards(to: str, n: int) -> str:
    """" When there are 2 players, every player gets 4 more cards."""
    who, cond = players(to)
    said = f"{who} gets {abs(n)} {'more' if n > 0 else 'fewer'} {'card' if abs(n) == 1 else 'cards'}"
    return f" When {cond}, {said}." if cond else f" {_cap(said)}."


def _face_up(to: str, n: int) -> str:
    """" The last card dealt to the dealer is dealt face up: everyone sees it while it stays in that hand."""
    who, cond = players(to)
    cards = "last card" if n == 1 else f"last {n} cards"
    said = (f"the {cards} dealt to {who} {'is' if n == 1 else 'are'} dealt face up: everyone sees "
            f"{'it' if n == 1 else 'them'} while {'it stays' if n == 1 else 'they stay'} in that hand")
    return f" When {cond}, {said}." if cond else f" {_cap(said)}."


def _plural(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _value(options: tuple[int, ...]) -> str:
    return str(options[0]) if len(options) == 1 else " or ".join(map(str, options))


def _pack_section(rs: Ruleset, ranks: list[str], suits: list[str], jokers: int, wild: list[Any]) -> Section:
    """The pack: decks, cards, values (per rank, per card, the holder's choices), run order, wild cards."""
    pack = rs.pack
    p = Section("The pack")
    one = (f"{' '.join(ranks)} in each suit ({' '.join(suits)})"
           + (f", and {_plural(jokers, 'joker')}" if jokers else ", no jokers"))
    if len(rs.decks) == 1 and pack.decks == 1:
        p.lines.append(f"{len(pack)} cards: {one}.")
    elif len(rs.decks) == 1:
        p.lines.append(f"{pack.decks} decks shuffled together, {len(pack)} cards; each deck holds {one}.")
    else:
        low = rs.players_min
        parts = []
        for up_to, n in rs.decks:
            if up_to < low:
                continue
            who = f"{low} to {up_to} players" if low < up_to else f"{up_to} players"
            parts.append(f"{who}: {_plural(n, 'deck')} ({len(rs.packs[n])} cards)")
            low = up_to + 1
        p.lines.append(f"Decks shuffled together by the number of players ({'; '.join(parts)}); each deck holds {one}.")
    by_rank: dict[str, tuple[int, ...]] = {}
    for c in range(len(pack)):
        if not pack.wild[c] or _wild_value(rs) is None:
            by_rank.setdefault(pack.ranks[c], pack.options[c])
    own = {pack.names[c]: pack.options[c] for c in range(len(pack))
           if pack.options[c] != by_rank.get(pack.ranks[c], pack.options[c])}
    p.lines.append("Card values: " + _values_by_rank(by_rank) + "."
                   + (" But " + _list([f"{n} counts {_value(v)}" for n, v in own.items()]) + "." if own else ""))
    if pack.has_choices:
        p.lines.append("Where a card counts one value or another, its holder chooses: a rule about the holder holds "
                       "when some choice makes it hold (dealt 49 or 50 may count an ace high); everywhere else the "
                       "hand counts its lowest total.")
    order = [str(r) for r in rs.data["pack"]["run_order"]]
    both = [r for r in dict.fromkeys(order) if order.count(r) == 2]
    if len(dict.fromkeys(order)) < rs.run_min:  # [] or a few ranks: the sentences below need three places
        listed = f"lists only {' '.join(order)}" if order else "is empty"
        p.lines.append(f"There are no runs: the run order {listed}, fewer ranks than a run's {rs.run_min} cards.")
    elif both and len(order) >= 3:
        high_low = " and ".join(both)
        shape = f"{high_low} {'is' if len(both) == 1 else 'are'} high or low ({order[0]}-{order[1]}-{order[2]} and " \
                f"{order[-3]}-{order[-2]}-{order[-1]} are runs)"
        wrap = "runs also turn the corner" if pack.run_wraps else \
            f"runs do not turn the corner ({order[-2]}-{order[-1]}-{order[1]} is not a run)"
        p.lines.append(f"In runs the cards follow {' '.join(order)}; {shape}; {wrap}.")
    else:
        wrap = "runs turn the corner from the last to the first" if pack.run_wraps else \
            f"{order[0]} is low only: runs do not turn the corner"
        p.lines.append(f"In runs the cards follow {' '.join(order)}; {wrap}.")
    if wild:
        where = "they may stand for any card in spreads" if rs.wild_in_melds else "but they may not be used in spreads"
        value = _wild_value(rs)
        counts = "" if value is None else f"; held in hand, a wild card counts {_value(value)}" + (
            ", its holder's choice" if len(value) > 1 else "")
        p.lines.append(f"Wild cards: {', '.join(map(str, wild))}; {where}{counts}.")
    return p


def _values_by_rank(by_rank: dict[str, tuple[int, ...]]) -> str:
    """"A counts 1; 2 to 10 count their number; J, Q and K count 10": ranks in a row that count
    their own number, or count the same, are said together."""
    groups: list[tuple[str, list[str], tuple[int, ...]]] = []  # (kind, ranks, value)
    for rank, value in by_rank.items():
        kind = "number" if rank.isdigit() and value == (int(rank),) else "same"
        last = groups[-1] if groups else None
        if last is not None and last[0] == kind and (kind == "number" or last[2] == value):
            last[1].append(rank)
        else:
            groups.append((kind, [rank], value))
    parts = []
    for kind, ranks, value in groups:
        if kind == "number":
            parts.append(f"{ranks[0]} counts {ranks[0]}" if len(ranks) == 1 else
                         f"{ranks[0]} to {ranks[-1]} count their number")
        else:
            parts.append(f"{_list(ranks)} count{'s' if len(ranks) == 1 else ''} {_value(value)}")
    return "; ".join(parts)


def _wild_value(rs: Ruleset) -> tuple[int, ...] | None:
    """What a wild card counts when the ruleset says (``pack.wild_value``), else None."""
    raw = rs.data["pack"].get("wild_value", "own")
    if raw == "own":
        return None
    return (int(raw),) if isinstance(raw, int) else tuple(sorted(set(raw)))


def _never(rule: Any) -> bool:
    """A condition written as false (or worked out to be): the action it guards never happens."""
    return rule is not None and rule.constant is False


@dataclass(frozen=True)
class _Possible:
    """What the ruleset lets happen at all, so that the sheet never offers in words what cannot
    be done, nor lists an ending that cannot come."""

    lays: bool  # a player may lay spreads in their turn
    hits: bool  # a spread can be on the table and be hit
    out: bool  # a hand can be emptied, and that ends it
    drops: bool  # a player may drop in their own turn
    any_drop: bool  # ... or out of turn
    folds: bool
    after_draw: bool = True  # a player may play after their draw (not where the draw ends the turn)

    @classmethod
    def of(cls, rs: Ruleset) -> "_Possible":
        lays = not _never(rs.spread_allowed)
        hits = (rs.hit_books or rs.hit_runs) and not _never(rs.hit_allowed) and (lays or rs.drop_lays_spreads)
        drops = not _never(rs.drop_allowed)
        facts = plan_for(rs).facts
        return cls(lays, hits, (lays or hits) and not _never(rs.going_out_allowed), drops,
                   drops or DROPS_OUT_OF_TURN in facts, FOLDS in facts, DRAW_ENDS_TURN not in facts)

    def never(self) -> frozenset[str]:
        """The player to move's own actions the ruleset never allows (a construct says nothing of them)."""
        return frozenset(do for do, possible in (("spread", self.lays), ("hit", self.hits), ("drop", self.drops),
                                                 ("play_after_draw", self.after_draw)) if not possible)

    def plays(self) -> str:
        """What a turn may do between the draw and the discard, in words ("" when nothing)."""
        return " and ".join([*(["lay spreads"] if self.lays else []), *(["hit spreads on the table"] if self.hits else [])])

    def ending(self, kind: str) -> bool:
        """Whether the ending ``kind`` can come at all."""
        if kind in ("tonk_out", "out_on_discard"):
            return self.out
        if kind.startswith("drop"):
            return self.any_drop
        if kind == "others_folded":
            return self.folds
        return True


def build(rs: Ruleset, stake: int = 1) -> list[Section]:
    d = rs.data
    pots = [p.id for p in rs.side_pots]  # the side pots' names, said as pots where payments name them
    can = _Possible.of(rs)
    pack = rs.pack
    out: list[Section] = []
    intro = Section(rs.name, [rs.description] if rs.description else [])
    many = (f"{rs.players_min} to {rs.players_max}" if rs.players_min < rs.players_max else str(rs.players_min))
    intro.lines.append(f"For {many} players. Amounts below are for a stake of {stake}.")
    if rs.side_size is not None:
        intro.lines.append(_sides(rs.side_size, rs.players_min, rs.players_max))
    out.append(intro)

    ranks = list(dict.fromkeys(r for r in pack.ranks if r != JOKER))
    suits = [s for s in dict.fromkeys(pack.suits) if s is not None]
    jokers = sum(1 for s in pack.suits if s is None) // pack.decks
    wild = d["pack"].get("wild") or []
    out.append(_pack_section(rs, ranks, suits, jokers, wild))

    deal = Section("The deal")
    first = {"highest_cut": "Each player cuts a card; the highest deals first (equal cards cut again).",
             "lowest_cut": "Each player cuts a card; the lowest deals first (equal cards cut again).",
             "first_seat": "The first player listed deals first."}[rs.first_dealer]
    deal.lines.append(first + f" After each hand the deal passes to the {rs.rotation}"
                      + (", unless a rule below names the next dealer." if rs.next_dealers else "."))
    up = ("The next card is turned face up to start the discard pile; the rest is the face-down stock."
          if rs.upcard else "No card is turned up: the discard pile starts with the first discard; the rest is the stock.")
    extra = "".join(_extra_cards(to.source, n) for to, n in rs.extra_cards)
    extra += "".join(_face_up(to.source, n) for to, n in rs.face_up)
    deal.lines.append(f"The dealer deals {rs.hand_size} cards to each player, one at a time, starting at the dealer's "
                      f"left.{extra} {up}")
    ending_words = {"initial_tonk": "an automatic win", "redeal": "a redeal", "tonk_out": "a tonk out",
            "out_on_discard": "going out on a discard", "drop_won": "a drop won", "drop_caught": "a caught drop",
            "stock_exhausted": "an exhausted stock", "others_folded": "every other player folding",
            "dead_hand": "a dead hand"}
    for rule in rs.next_dealers:
        after = " or ".join(ending_words[e] for e in sorted(rule.after)) if rule.after else "any other hand"
        deal.lines.append(f"- After {after}, the next hand is dealt by {one_player(rule.dealer.source)}.")
    out.append(deal)

    if rs.deal_wins:
        w = Section("Automatic wins on the deal")
        for r in rs.deal_wins:
            timing = (f"may claim a win at the start of their turn while {words(r.claim.source, 'they')}"
                      if r.claim is not None else "wins at once and the hand is not played")
            extra = f" (priority {r.priority})" if rs.several_deal_wins == "best" else ""
            if rs.score_sheet == "points":  # a points sheet pays nothing: its score entries say it
                paid = ""
            elif r.payers is None:
                paid = f"; each other player without an automatic win pays {amount(r.pays.source, stake)}"
            else:
                said, conds = payment(r.payers.source, "actor", r.pays.source, stake, pots=pots)
                most = " (all it holds at most)" if r.payers.source.strip() == "pot" and \
                    r.pays.source.strip() != "pot" else ""
                paid = f"; {said[:1].lower()}{said[1:]}{most}" + (f" when {' and '.join(conds)}" if conds else "")
            w.lines.append(f"- {r.id}{extra}: when {words(r.when.source)}, the player {timing}{paid}.")
            for e in r.scores:
                w.lines.append("  " + _score(e.players.source, e.points.source, None if e.when is None else
                                             e.when.source))
        several = _SEVERAL[rs.several_deal_wins]
        w.lines.append(f"If several players have an automatic win, {several}.")
        if rs.several_deal_wins == "best":
            prefs = [f"for {r.id} the {r.prefer.replace('_', ' ')} is better" for r in rs.deal_wins if r.prefer]
            if prefs:
                w.lines.append("Among equal priorities, " + "; ".join(prefs) + ".")
            ties = [f"{r.id}: {_TIE[r.tie]}" for r in rs.deal_wins if r.tie]
            w.lines.append(f"If the best is shared, {_TIE[rs.deal_win_tie]}" + (f" (except {'; '.join(ties)})" if ties else "") + ".")
        out.append(w)

    turn = Section("A turn")
    starts = "the dealer's left" if rs.first_player is None else one_player(rs.first_player.source)
    turn.lines.append(f"Play starts at {starts} and goes {'clockwise'}.")
    if not rs.first_turn_draws:
        turn.lines.append("The first player does not draw on the first turn: they "
                          + ("lay spreads and discard." if can.lays else "discard."))
    drop_when = "" if rs.drop_allowed.source.strip() == "true" else f" if {words(rs.drop_allowed.source, 'you')}"
    # A turn whose draw comes last (a construct's): the plays come first, the discard, then the draw.
    draw_last = DRAW_ENDS_TURN in plan_for(rs).facts
    after = "" if draw_last else "after drawing, "
    moments = {"start": "at the start of your turn",
               "before_discard": f"{after}before your discard (the condition is read on the hand the discard "
                                 "leaves, and the discard ends your turn)",
               "instead_of_discard": f"{after}instead of discarding"}
    # With both ways after the draw listed, the engine takes instead_of_discard (see lint).
    at = [m for m in rs.drop_at if not (m == "before_discard" and "instead_of_discard" in rs.drop_at)]
    when = " or ".join(moments[m] for m in at) + ("," if len(at) > 1 else "")
    lay = " You first lay the spreads of your best arrangement; what is left is your count." if rs.drop_lays_spreads else ""
    drop_lines = [f"{_cap(when)} you may drop{drop_when}: you show your hand and claim the lowest count.{lay}"]
    if rs.drop_called != "drop":
        drop_lines.append(f"This table calls the drop \"{rs.drop_called}\".")
    drop_lines += [s.text for rule in RULES for s in rule.sheet(rs, READER, can.never()) if s.section == DROP_SENTENCES]
    drop_lines.append(f"The drop is won when {words(rs.drop_wins_if.source, 'you')}; otherwise it is caught.")
    if not can.drops:  # never in one's own turn: what a drop out of turn needs is said with its rule
        drop_lines = drop_lines[-1:] if can.any_drop else []
    at_start = "start" in rs.drop_at
    if at_start:
        turn.lines += drop_lines
    sources = {"stock": "the top card of the stock", "discard": "the top card of the discard pile"}
    take = "Otherwise you take" if at_start else "At the start of your turn you take"
    if draw_last:  # (the construct's own sentence says the draw)
        turn.lines.append(("Otherwise you" if at_start else "At your turn you") + " play without drawing first.")
    else:
        turn.lines.append(f"{take} {' or '.join(sources[s] for s in rs.draw_from)} into your hand.")
    if rs.discard_must_be_used:
        turn.lines.append("A card taken from the discard pile must go into a spread at once.")
    if rs.must_take is not None and rs.must_take.source.strip() != "false":
        turn.lines.append(f"You must take the top discard instead of drawing from the stock when "
                          f"{words(rs.must_take.source, 'you')}.")
    end = "you discard one card face up" if draw_last else "you end your turn by discarding one card face up"
    turn.lines.append((f"You may {can.plays()}, and then {end}" if can.plays() else f"Then {end}") + "."
                      if draw_last else
                      (f"Then you may {can.plays()}, and you end" if can.plays() else "Then you end")
                      + " your turn by discarding one card face up." + (" You may not discard the card you took from the discard pile in the "
                                             "same turn." if rs.not_the_card_taken else ""))
    if not at_start:
        turn.lines += drop_lines
    if rs.eat_allowed is not None and not _never(rs.eat_allowed):
        who = "any other player" if rs.eat_allowed.source.strip() == "true" else \
            f"another player when {words(rs.eat_allowed.source, 'they')}"
        once = ", if they lay it in a spread at once," if rs.eat_spread_at_once else ""
        moment = "once the discarder has drawn" if draw_last else "before the next player draws"
        turn.lines.append(f"Eating: {moment}, {who} may take the last discard{once} and play "
                          "their turn from there; the players in between lose their turn. When several want it, "
                          "the one nearest the discarder's left has it.")
    turn.lines.append(_CONSTRUCTS_HERE)  # the constructs' sentences of a turn come here (the rest: at the end)
    if rs.hold_allowed is not None and rs.hold_allowed.source.strip() != "true":
        exc = f", except when {words(rs.hold_except.source, 'you')}" if rs.hold_except is not None else ""
        turn.lines.append(f"You may not keep a complete spread in your hand: lay it before you discard{exc}.")
    if can.out:
        go = "" if rs.going_out_allowed.source.strip() == "true" else \
            f" Going out is only possible when {words(rs.going_out_allowed.source, 'you')}; otherwise an empty hand " \
            "counts 0 and the turn passes."
        # A drop that lays its spreads may leave the hand empty (every card matched): that is a
        # drop, decided as a drop, not the going out this sentence is about.
        how = " by laying and hitting (not by a drop that lays every card)" if rs.drop_lays_spreads else ""
        turn.lines.append(f"Emptying your hand{how} ends the hand." + go)
    elif can.lays or can.hits:
        turn.lines.append("Going out is not possible: an empty hand counts 0 and the turn passes.")
    stock = {"draw_from_empty": "When the stock is empty, play goes on with the discard pile; the hand ends when a "
                                "player would draw from the empty stock.",
             "last_card_drawn": "The hand ends when the last card of the stock has been drawn and the turn is over.",
             None: "The ruleset does not say what happens when the stock runs out."}[rs.stock_exhausted]
    if rs.stock_rebuild:
        pile = "the whole discard pile" if rs.stock_rebuild_whole else "the discard pile but its top card"
        if rs.stock_rebuild >= REBUILD_ALWAYS:
            stock = f"When the stock runs out, {pile} is shuffled into a new stock and play goes on, as often as it runs out."
        else:
            times = "once" if rs.stock_rebuild == 1 else f"up to {rs.stock_rebuild} times"
            stock = (f"When the stock runs out, {times} a hand {pile} is shuffled into a new stock and play goes on. "
                     "After that: " + stock[:1].lower() + stock[1:])
    if STOCK_NEVER_EMPTY not in plan_for(rs).facts:  # a construct ends the hand first: it says how itself
        turn.lines.append(stock)
    out.append(turn)

    m = Section("Spreads")
    book_size = f"{rs.book_min}" if rs.book_min == rs.book_max else f"{rs.book_min} to {rs.book_max}"
    m.lines.append(f"A book is {book_size} cards of one rank. A run is {rs.run_min} or more "
                   "cards in sequence in one suit" + (f", at most {rs.run_max}" if rs.run_max else "") + ".")
    if any(p.decks > 1 for p in rs.packs.values()):
        m.lines.append("A book may hold identical cards (7H 7H 7S)." if rs.book_identical else
                       "A book never holds two identical cards (7H 7H 7S is not a book).")
    if rs.wild_in_melds and wild:
        book, run = rs.wild_limits["book"], rs.wild_limits["run"]
        for what, limit in [("spread", book)] if book == run else [("book", book), ("run", run)]:
            limits = []
            if limit.max_wild is not None:
                limits.append(f"at most {_plural(limit.max_wild, 'wild card')}")
            if limit.min_natural:
                limits.append(f"at least {_plural(limit.min_natural, 'natural card')}")
            if limits:
                m.lines.append(f"A {what} holds {' and '.join(limits)}.")
    if jokers and not rs.jokers_in_melds and JOKER not in map(str, wild):
        m.lines.append("Jokers are never part of a spread.")
    if not can.lays:
        m.lines.append("You may not lay spreads" + (": only a drop lays its spreads." if rs.drop_lays_spreads else "."))
    elif rs.spread_allowed is not None and rs.spread_allowed.source.strip() != "true":
        m.lines.append(f"You may lay a spread only when {words(rs.spread_allowed.source, 'you')}"
                       + (" (a drop still lays its spreads)." if rs.drop_lays_spreads else "."))
    if can.lays or rs.drop_lays_spreads:
        m.lines.append("Cards laid in spreads no longer count toward your hand.")
    out.append(m)

    hits = Section("Hitting")
    if not can.hits:
        hits.lines.append("Spreads on the table cannot be hit.")
    else:
        whose = {"any": "any player's", "own": "your own", "others": "the other players'"}[rs.hit_spreads]
        kinds = []
        if rs.hit_runs:
            kinds.append("extend a run at either end")
        if rs.hit_books:
            kinds.append(f"add cards to a book (up to {rs.book_max})")
        hits.lines.append(f"You may hit {whose} spreads: {_list(kinds)}.")
        if rs.hit_allowed is not None and rs.hit_allowed.source.strip() != "true":
            # Where the condition reads the cards, 'the spread' is the spread with the cards hit.
            counted = ", the cards hit counted in the spread," if rs.hit_allowed.names_used & {"spread", "hit"} else ""
            hits.lines.append(f"You may hit a spread only when{counted} {words(rs.hit_allowed.source, 'you')}.")
        if not rs.hit_books:
            hits.lines.append("Books cannot be hit.")
        if rs.hits_per_turn:
            hits.lines.append(f"At most {_plural(rs.hits_per_turn, 'card')} may be played onto spreads in one turn.")
        if rs.hit_ends_turn:
            hits.lines.append("A turn in which you hit ends at once, without a discard.")
    out.append(hits)

    if rs.counters:
        wait = Section("Waiting")
        for counter in rs.counters:
            wait.lines.append(f"Each player has a {counter.name.replace('_', ' ')} counter, {counter.initial} at the start of a hand"
                           + (f", never below {counter.floor}" if counter.floor is not None else "") + ".")
            for ev in counter.events:
                change = (f"becomes {ev.set}" if ev.set is not None and not ev.add else
                          f"goes {'up' if (ev.add or 0) > 0 else 'down'} by {abs(ev.add or 0)}")
                cond = f" and {words(ev.when.source)}" if ev.when is not None else ""
                once = f" (once per {ev.once_per})" if ev.once_per else ""
                wait.lines.append(f"- When {_EVENTS[ev.on]}{cond}, {_TARGET[ev.target]} {counter.name.replace('_', ' ')} counter "
                                  f"{change}{once}.")
        out.append(wait)

    ends = Section("How a hand ends, and who pays")
    for kind, title in _ENDING_TITLE.items():
        ending: Ending | None = rs.endings.get(kind)
        if ending is None or not can.ending(kind):
            continue  # (an ending that cannot come is not listed)
        void = ending.void_if
        if void is not None and void.constant is True:
            ends.lines.append(f"{title}: the hand is dead and no one pays.")
            continue
        ends.lines.append(f"{title}: won by {words(ending.winners.source)}" +
                          (f"; but when {words(void.source)} the hand is dead and no one pays"
                           if void is not None and void.constant is not False else "") + ".")
        if rs.score_sheet != "points":  # a points sheet pays nothing: only its score entries count
            for t in ending.payouts:
                ends.lines.append(_transfer(t, stake, pots))
        for sc in ending.scores:
            ends.lines.append("- " + _score(sc.players.source, sc.points.source,
                                            None if sc.when is None else sc.when.source))
    ends.lines.append("A hand that reaches the engine's turn cap is dead.")
    out.append(ends)

    money = Section("Pot, bonuses and limits")
    if rs.ante is not None:
        antes = ("nobody antes into it" if rs.ante.constant == 0 else
                 f"when a hand is dealt each player puts {amount(rs.ante.source, stake)} into it")
        money.lines.append(f"A pot: {antes}. Payouts from or to 'pot' take from it or add to it; a pot nobody wins "
                           "carries over to the next hand.")
    for side in rs.side_pots:
        antes = ("nobody antes into it" if side.ante is None or side.ante.constant == 0 else
                 f"when a hand is dealt each player puts {amount(side.ante.source, stake)} into it")
        called = pot_words(side.id, pots) or side.id
        money.lines.append(f"{_cap(called)} ('{side.id}'), a pot of its own: {antes}. Payouts from or to '{side.id}' take from it or add to it; it carries "
                           "over to the next hand while nobody wins it.")
    events = {"dealt": "a player's hand is dealt (before the automatic wins)",
              "spread_laid": "a player lays a new spread", "spread_hit": "a player hits a spread",
              "drew": "a player draws", "drew_stock": "a player draws from the stock",
              "drew_discard": "a player takes the discard", "discarded": "a player discards",
              "turn_start": "a turn starts", "round_end": "a round ends", "folded": "a player folds",
              "claim": "a player asks to be paid (claim, after drawing and before discarding)"}
    for bonus in rs.bonuses:
        t = bonus.transfer
        said, conds = payment(t.payers.source, t.payees.source, t.amount.source, stake, t.split, pots)
        conds = ([words(t.when.source)] if t.when is not None else []) + conds
        when = "".join(f" and {c}" for c in conds)
        event = events.get(bonus.on, bonus.on)
        if bonus.on == "claim" and _reads_spread(t):
            event = ("a player asks to be paid for the spread they laid last this turn (claim, after laying it and "
                     "before discarding; the spread as it is then)")
        money.lines.append(f"- Bonus {t.id}: when {event}{when}, {said[:1].lower()}"
                           f"{said[1:]} at once" + (" (even when an automatic win then ends the hand on the deal)"
                                                    if bonus.on == "dealt" and rs.deal_wins else
                                                    "" if bonus.on == "dealt" else " (the hand goes on)")
                           + ("; at most once a hand, and never unless claimed." if bonus.on == "claim" else "."))
    if rs.most_lost is not None:
        money.lines.append(f"The ending of one hand costs a player at most {amount(rs.most_lost.source, stake)}; "
                           "payments beyond that are not made.")
    if rs.most_won is not None:
        money.lines.append(f"A player wins at most {amount(rs.most_won.source, stake)} from the ending of one hand.")
    if money.lines:
        out.append(money)

    sess = Section("Scoring and sessions")
    sheet = {"money": "Payouts are paid in money.",
             "units": "Payouts are not paid: they are written on a score sheet in units of the stake and settled at "
                      "the end of the session.",
             "points": "No money changes hands: the score sheet keeps the points above"
                       + (", and the lowest score wins." if rs.lowest_score_wins else ".")}[rs.score_sheet]
    sess.lines.append(sheet)
    rules = rs.session
    if rules.is_match:
        total = "score" if rs.score_sheet != "money" else "money"
        lowest = rules.lowest_total_wins if rules.lowest_total_wins is not None else rs.lowest_score_wins
        if rules.eliminate_when is not None:
            sess.lines.append(f"A match: after each hand, a player is out when "
                              f"{words(rules.eliminate_when.source, 'they')} (a total is the {total} so far); the last one left wins the match.")
        if rules.ends_when is not None:
            sess.lines.append(f"A match ends after the hand where {words(rules.ends_when.source)}; then the "
                              f"{'lowest' if lowest else 'highest'} total wins the match.")
        if rules.column_ends is not None:
            sess.lines.append(
                f"The {total} is kept in {rules.columns} columns side by side, {rules.columns} games at once: a player's "
                f"points for a hand go into as many columns as hands they have won so far (at least the first), of "
                f"those still open. A column closes after the hand where {words(rules.column_ends.source)}, its "
                f"totals read; the match ends when every column is closed. Each column is won by its "
                f"{'lowest' if lowest else 'highest'} total, the match by whoever wins the most columns.")
        if rules.hands:
            sess.lines.append(f"A match lasts at most {rules.hands} hands.")
    elif rules.hands:
        sess.lines.append(f"A session is {rs.session.hands} hands.")
    if rules.bonuses:
        over = "the match is over" if rules.is_match else "the session is over"
        sess.lines.append(f"Once {over}, before its winner is named, the score sheet adds:")
        for sc in rules.bonuses:
            sess.lines.append("- " + _score(sc.players.source, sc.points.source,
                                            None if sc.when is None else sc.when.source))
    if rs.session.big_one_last:
        sess.lines.append("The Big One: the last " + ("hand of a session is" if rs.session.big_one_last == 1 else
                                                        f"{rs.session.big_one_last} hands of a session are")
                          + " played for "
                          f"{rs.session.big_one_multiplier} x the stake.")
    for bet in rs.session.side_bets:
        if bet.kind == "named_suit":
            sess.lines.append(f"Side bet {bet.id}: before dealing the dealer names a suit; each bettor puts "
                              f"{amount(bet.amount.source, stake)} into a pot; the highest card of that suit dealt to "
                              "a bettor takes it" + (", else it carries over." if bet.carry_over else "."))
        else:
            sess.lines.append(f"Side bet {bet.id}: each player puts {amount(bet.amount.source, stake)} into a pot "
                              "that the first player to lay a spread of three takes"
                              + (", carried over from deal to deal until won." if bet.carry_over else "."))
    out.append(sess)
    if rs.table_customs:
        customs = Section("At a physical table")
        customs.lines.append("A digital table deals, counts and refuses illegal plays, so these never happen there; "
                             "at a table of cards, this table's custom is:")
        customs.lines += [f"- {cid.replace('-', ' ').replace('_', ' ').capitalize()}: {text.strip()}"
                          for cid, text in rs.table_customs]
        out.append(customs)
    _construct_sentences(rs, out, can)
    return out


# Where in a section the constructs' sentences go (a placeholder no sentence can equal).
_CONSTRUCTS_HERE = "\0constructs"


def _construct_sentences(rs: Ruleset, out: list[Section], can: _Possible) -> None:
    """Each construct's own sentences (tonkdsl/interpreter/rules/), at the end of its section:
    a construct the ruleset does not use says nothing, nor one about an action never allowed."""
    by_title = {s.title: s for s in out}
    for rule in RULES:
        for sentence in rule.sheet(rs, READER, can.never()):
            if sentence.section == DROP_SENTENCES:
                continue  # said among the sentences on the drop
            section = by_title.get(sentence.section)
            if section is None:
                section = by_title[sentence.section] = Section(sentence.section)
                out.insert(len(out) - (out[-1].title == "At a physical table"), section)
            lines = section.lines
            lines.insert(lines.index(_CONSTRUCTS_HERE) if _CONSTRUCTS_HERE in lines else len(lines), sentence.text)
    for section in out:
        if _CONSTRUCTS_HERE in section.lines:
            section.lines.remove(_CONSTRUCTS_HERE)


def render(sections: list[Section], fmt: str) -> str:
    if fmt == "md":
        parts = []
        for i, s in enumerate(sections):
            parts.append(("# " if i == 0 else "## ") + s.title)
            parts.append("\n".join(s.lines) if all(line.startswith(("- ", "  ")) for line in s.lines) else
                         _md_lines(s.lines))
        return "\n\n".join(parts).rstrip() + "\n"
    if fmt == "text":
        parts = []
        for i, s in enumerate(sections):
            parts.append(s.title.upper() if i == 0 else s.title)
            parts.append("=" * len(s.title) if i == 0 else "-" * len(s.title))
            parts.extend(s.lines)
            parts.append("")
        return "\n".join(parts).rstrip() + "\n"
    # The Markdown sheet rendered by markdown-it-py (installed with rich): each list stays under
    # its paragraph. The ruleset's own words (its name, its customs) are text, never markup: raw
    # HTML is escaped and images are not rendered (a table's rules page is served to every player).
    from markdown_it import MarkdownIt

    body = str(MarkdownIt("commonmark", {"html": False}).disable("image").render(render(sections, "md")))
    title = html.escape(sections[0].title)
    return (f"<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n<body>\n"
            + body + "</body></html>\n")


def _md_lines(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if line.startswith(("- ", "  ")):
            out.append(line)
        else:
            if out and out[-1] != "":
                out.append("")
            out.append(line)
            out.append("")
    return "\n".join(out).strip()


def explain(rs: Ruleset, fmt: str = "md", stake: int = 1) -> str:
    return render(build(rs, stake), fmt)


def _reads_spread(t: Transfer) -> bool:
    """Whether a payment's condition or amount reads 'spread' (a claim then claims for a spread)."""
    return any("spread" in c.names_used for c in (t.when, t.amount, t.payers, t.payees) if c is not None)
