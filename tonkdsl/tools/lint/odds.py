"""Exact odds of automatic wins per dealt hand, by enumerating rank-count vectors of the pack.

A hand of ``k`` cards is grouped by how many cards of each rank it holds; each group is weighted
by the number of ways to pick those cards (a product of binomials), so every one of the
C(pack, k) hands is counted exactly once, without sampling. A rule that reads the suits and
nothing else of the cards is counted the same way by suit-count vectors (_suit_odds). A rule
that reads suits and ranks together, or other players, cannot be decided this way and is
reported as such.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from math import comb
from typing import Any, Iterator

from tonkdsl.interpreter.engine import State
from tonkdsl.language.expr.compiler import EvalError, ExprError, parse
from tonkdsl.language.names import EvalContext
from tonkdsl.language.ruleset import DealWin, Ruleset

# Names whose value depends on more than the checked player's own hand (or on its suits, which
# the count by ranks does not follow).
_NOT_HAND_ONLY = re.compile(r"\b(others|players|lowest|min_count|dealer|is_dealer|seat|suit|stock|turn|round|"
                            r"spreads_on_table|discards|deal_win|is_book|is_run|largest_book|longest_run|"
                            r"deadwood|deadwood_count|max_same_suit)\b")
# A card named in a rule (QS in hand): counted as a kind of its own, so the count stays exact.
_CARD = re.compile(r"\b(10|[2-9AJQKT])[CDHS]\b")
_SUIT_WORDS = {"suit", "max_same_suit", "is_run", "longest_run", "largest_book", "is_book", "deadwood", "deadwood_count"}
MAX_VECTORS = 2_000_000
# Names a rule may read and still be decided by the totals alone (a rule that reads nothing
# else holds or not by the set of counts the hand can make, whatever its ranks).
_TOTAL_NAMES = {"count", "dealt_count", "high_count", "low_count", "stake", "num_players"}
# The totals-only count keeps one entry per (cards taken, counts the hand can make): past this
# many it gives way to the count by ranks.
MAX_TOTAL_STATES = 400_000
# The work of one odds table, in the expressions' own cost units (Compiled.cost, an upper bound
# of one evaluation's steps): a condition that costs 100,000 steps, checked on each of thousands
# of kinds of hands, would keep lint busy for minutes. Past the budget the odds are not computed
# (and lint says so) rather than the run going on.
MAX_ODDS_STEPS = 100_000_000


class TooManyHands(ValueError):
    """The pack and hand size give more hand shapes than the exact count enumerates."""


@dataclass(frozen=True)
class Odds:
    rule: str
    hands: int | None  # hands meeting the rule, None when it cannot be computed exactly
    total: int
    reason: str = ""

    @property
    def share(self) -> float:
        return (self.hands or 0) / self.total if self.total else 0.0

    def describe(self) -> str:
        if self.hands is None:
            return f"odds not computed: {self.reason}"
        if self.hands == 0:
            return f"0 of {self.total:,} hands"
        one_in = self.total / self.hands
        return f"{self.hands:,} of {self.total:,} hands, {self.share:.3%}, 1 in {one_in:,.0f}"


@dataclass(frozen=True)
class OddsTable:
    odds: tuple[Odds, ...]
    overlaps: tuple[tuple[str, str, int], ...]  # (rule, rule, hands meeting both)
    total: int
    max_count: int
    min_count: int
    # The first hand (card ids) found meeting each rule: what lint --witness deals to build a
    # witness of an automatic win too rare for its search of played hands. Not part of the
    # odds: two ways of counting find different first hands.
    examples: tuple[tuple[str, tuple[int, ...]], ...] = field(default=(), compare=False)


def _vectors(mults: list[int], k: int) -> Iterator[tuple[list[int], int]]:
    """Every way to take ``k`` cards by rank, with the number of hands it stands for."""
    n = len(mults)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + mults[i]
    counts = [0] * n

    def rec(i: int, left: int, weight: int) -> Iterator[tuple[list[int], int]]:
        if left == 0:
            yield counts, weight
            return
        if i == n or suffix[i] < left:
            return
        for c in range(min(mults[i], left), -1, -1):
            counts[i] = c
            yield from rec(i + 1, left - c, weight * comb(mults[i], c))
        counts[i] = 0

    yield from rec(0, k, 1)


def _reads_only(source: str, names: set[str], calls: set[str], refused: tuple[str, ...],
                symbols: tuple[str, ...] = ()) -> bool:
    """Whether the rule ``source`` reads no name but ``names``, calls nothing but ``calls``, has
    no part of the kinds ``refused`` and names no symbol but ``symbols``."""
    try:
        tree = parse(source)
    except ExprError:
        return False
    for node in tree.iter_subtrees():
        kind = str(node.data)
        if kind in refused or (kind == "symbol" and str(node.children[0]) not in symbols):
            return False
        if kind == "name" and str(node.children[0]) not in names:
            return False
        if kind == "call" and str(node.children[0]) not in calls:
            return False
    return True


def _reads_totals_only(source: str) -> bool:
    """Whether a rule reads nothing of the hand but its count (and the table's stake): then two
    hands that can make the same counts meet it alike, and the odds follow the counts."""
    return _reads_only(source, _TOTAL_NAMES, {"abs", "min", "max"}, ("attr", "where"))


def _shape_count(mults: list[int], k: int) -> int:
    """How many rank-count vectors _vectors would enumerate (polynomial coefficients)."""
    ways = [1] + [0] * k
    for m in mults:
        nxt = [0] * (k + 1)
        for used, w in enumerate(ways):
            if w:
                for c in range(min(m, k - used) + 1):
                    nxt[used + c] += w
        ways = nxt
    return ways[k]


def _by_totals(pack: object, k: int) -> list[tuple[list[int], int]] | None:
    """One representative hand per set of counts a hand of ``k`` cards can make, with the number
    of hands that make exactly that set; None past MAX_TOTAL_STATES. This is what makes 12-card
    hands with values of four choices per rank countable in a second: the count by ranks would
    enumerate millions of rank vectors that only make a few thousand sets of counts."""
    options: tuple[tuple[int, ...], ...] = pack.options  # type: ignore[attr-defined]
    low = min(o for opts in options for o in opts)
    kinds: dict[tuple[int, ...], list[int]] = {}
    for card, opts in enumerate(options):
        kinds.setdefault(tuple(sorted(set(opts))), []).append(card)
    # A set of counts is a bit mask (bit t: the hand can count t + cards x low).
    states: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(0, 1): (1, ())}
    for opts, cards in kinds.items():
        one = 0
        for o in opts:
            one |= 1 << (o - low)
        powers = [1]  # the counts c cards of this kind can make
        for _ in range(min(len(cards), k)):
            powers.append(_sumset(powers[-1], one))
        nxt: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (used, mask), (weight, rep) in states.items():
            for c in range(min(len(cards), k - used) + 1):
                key = (used + c, _sumset(mask, powers[c]) if c else mask)
                w = weight * comb(len(cards), c)
                old = nxt.get(key)
                nxt[key] = (w, rep + tuple(cards[:c])) if old is None else (old[0] + w, old[1])
        states = nxt
        if len(states) > MAX_TOTAL_STATES:
            return None
    return [(list(rep), w) for (used, _), (w, rep) in states.items() if used == k]


def _sumset(a: int, b: int) -> int:
    """The sums of a value of ``a`` and one of ``b`` (both bit masks of values)."""
    out, shift = 0, 0
    while b:
        if b & 1:
            out |= a << shift
        b >>= 1
        shift += 1
    return out


# Names a rule may read and still be decided by the suits of the hand alone: then two hands with
# as many cards of each suit meet it alike, and the odds follow the suits (_suit_odds).
_SUIT_ONLY_NAMES = {"hand", "suit", "stake", "num_players", "cards"}
_SUIT_ONLY_CALLS = {"count", "max_same_suit", "abs", "min", "max"}


def _reads_suits_only(source: str) -> bool:
    """Whether a rule reads the hand's suits and nothing else of its cards (no rank, no value)."""
    return _reads_only(source, _SUIT_ONLY_NAMES, _SUIT_ONLY_CALLS, ("attr",), ("C", "D", "H", "S"))


def _suit_odds(rs: Ruleset, pack: Any, k: int, rules: list[DealWin]) -> dict[str, tuple[int, tuple[int, ...]]]:
    """For rules that read only the suits of the hand: the hands meeting each (and a first
    example), counted by the number of cards of each suit (a joker is a suit of its own)."""
    by_suit: dict[Any, list[int]] = {}
    for card in range(len(pack)):
        by_suit.setdefault((pack.suits[card], pack.wild[card]), []).append(card)
    groups = list(by_suit.values())
    state = State(rs, 2, dealer=1, stake=1)
    ctx = EvalContext(state, actor=0)
    out: dict[str, tuple[int, tuple[int, ...]]] = {r.id: (0, ()) for r in rules}
    for counts, weight in _vectors([len(g) for g in groups], k):
        hand = [c for g, n in zip(groups, counts) for c in g[:n]]
        state.set_hand(0, hand)
        for r in rules:
            try:
                ok = bool(r.when(ctx))
            except EvalError:
                ok = False
            if ok:
                met, example = out[r.id]
                out[r.id] = (met + weight, example or tuple(hand))
    return out


# --- rules on suits and ranks together: every hand up to a renaming of the suits ---------------
# A rule that reads suits and ranks together (a dealt run, a flush of face cards) but names no
# suit and no card meets two hands alike when one is the other with its suits renamed. So each
# hand is counted once per class of such hands, weighted by the size of its class: 134,459
# classes for five cards of 52, where the hands number 2,598,960. Exact, as the count by ranks.
MAX_SUIT_CLASSES = 400_000
# The classes' own budget, in the expressions' cost units: a run check's cost is a loose upper
# bound (5,044 for five cards): 134,459 classes of two such checks take about 1.5 s here.
MAX_CLASS_STEPS = 4_000_000_000
_NAMES_A_SUIT = re.compile(r"\b(10|[2-9AJQKT])?[CDHS]\b")


def _suit_symmetric(pack: Any) -> tuple[list[list[int]], list[int]] | None:
    """The pack as suits of the same ranks: per suit, its card ids by rank (in one rank order);
    and the cards of no suit (jokers). None where a renaming of suits would change a card (one
    card of a rank counts otherwise, several decks repeat a card)."""
    if len(set(pack.names)) != len(pack.names):
        return None
    suits = sorted({s for s in pack.suits if s is not None})
    ranks = sorted({r for r, s in zip(pack.ranks, pack.suits) if s is not None})
    at = {(pack.suits[c], pack.ranks[c]): c for c in range(len(pack.names)) if pack.suits[c] is not None}
    if len(at) != len(suits) * len(ranks):
        return None
    for r in ranks:
        first = at[suits[0], r]
        same = (pack.options[first], pack.wild[first], pack.run_places[first])
        if any((pack.options[c], pack.wild[c], pack.run_places[c]) != same for c in (at[s, r] for s in suits)):
            return None
    return [[at[s, r] for r in ranks] for s in suits], [c for c in range(len(pack.names)) if pack.suits[c] is None]


def _suit_classes(by_suit: list[list[int]], extras: list[int], k: int) -> Iterator[tuple[list[int], int]]:
    """One hand of ``k`` cards per class of hands equal up to a renaming of the suits, with the
    number of hands in its class: the suits' rank sets as a multiset (sizes in non-increasing
    order, equal sizes in non-decreasing order of their sets), times the ways to give those sets
    to the suits; the cards of no suit (jokers) by how many are taken."""
    from itertools import combinations, combinations_with_replacement, product

    n_suits, n_ranks = len(by_suit), len(by_suit[0]) if by_suit else 0
    subsets = {s: list(combinations(range(n_ranks), s)) for s in range(min(k, n_ranks) + 1)}
    # The cards of each rank set in each suit, made once (a class is then a few list joins).
    cards = [{s: [[row[r] for r in rank_set] for rank_set in subsets[s]] for s in subsets} for row in by_suit]
    everyone = _factorial(n_suits)

    def sizes(left: int, most: int, slots: int) -> Iterator[tuple[int, ...]]:
        if slots == 0:
            if left == 0:
                yield ()
            return
        for s in range(min(left, most), -1, -1):
            for rest in sizes(left - s, s, slots - 1):
                yield (s, *rest)

    # What a run of equal sizes contributes, by the rank sets it picks (in order): the renamings
    # among its equal sets to divide by, made once per pick.
    divisors: dict[tuple[int, ...], int] = {}

    def divisor(picks: tuple[int, ...]) -> int:
        d = divisors.get(picks)
        if d is None:
            d, same = 1, 1
            for x in range(1, len(picks)):
                same = same + 1 if picks[x] == picks[x - 1] else 1
                d *= same
            divisors[picks] = d
        return d

    for j in range(min(len(extras), k) + 1):
        jokers, ways = extras[:j], comb(len(extras), j)
        for shape in sizes(k - j, n_ranks, n_suits):
            runs = [(s, shape.count(s)) for s in sorted(set(shape), reverse=True)]
            firsts = [sum(m for _, m in runs[:i]) for i in range(len(runs))]  # the first suit of each run
            # Each pick of a run of equal sizes as its divisor and its cards in one list: a class
            # is then one join per run of sizes.
            options = [[(divisor(picks), [c for x, pick in enumerate(picks) for c in cards[first + x][s][pick]])
                        for picks in combinations_with_replacement(range(len(subsets[s])), m)]
                       for (s, m), first in zip(runs, firsts)]
            # The empty suits are one pick each and hold no card: only their divisor is kept. The
            # others are joined in two plain loops where they are two runs of sizes (most
            # classes of five cards), which spares a tuple and an inner loop per class (0.15 s
            # to 0.1 s for the 134,459 classes of five cards of 52).
            scale = everyone
            varying = []
            for opts in options:
                if len(opts) == 1 and not opts[0][1]:
                    scale //= opts[0][0]  # (a // b // c is a // (b * c) for positive integers)
                else:
                    varying.append(opts)
            if len(varying) == 1:
                for d, cs in varying[0]:
                    yield cs + jokers, scale // d * ways
            elif len(varying) == 2:
                inner = varying[1]
                for d1, c1 in varying[0]:
                    left = scale // d1
                    for d2, c2 in inner:
                        yield c1 + c2 + jokers, left // d2 * ways
            else:
                for chosen in product(*varying):
                    assignments = scale
                    hand: list[int] = []
                    for d, cs in chosen:
                        assignments //= d
                        hand += cs
                    hand += jokers
                    yield hand, assignments * ways


_FACTORIALS = [1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880, 3628800, 39916800, 479001600, 6227020800]


def _factorial(n: int) -> int:
    return _FACTORIALS[n] if n < len(_FACTORIALS) else n * _factorial(n - 1)


def _too_many_classes(by_suit: list[list[int]], extras: list[int], k: int) -> bool:
    """Whether _suit_classes would yield more than MAX_SUIT_CLASSES classes: at least the hands of
    natural cards divided by the renamings of the suits (six cards of 52 already pass it)."""
    naturals = sum(len(s) for s in by_suit)
    return comb(naturals, min(k, naturals)) // max(1, _factorial(len(by_suit))) > MAX_SUIT_CLASSES


def _reads_own_hand(rule: DealWin) -> bool:
    """Whether every name that kept ``rule`` from the count by ranks is about the suits of the
    player's own hand (is_run, suit, ...), none about other players or the table."""
    return all(m.group(0) in _SUIT_WORDS for m in _NOT_HAND_ONLY.finditer(rule.when.source))


def _meets(rule: DealWin, ctx: EvalContext) -> bool:
    try:
        return bool(rule.when(ctx))
    except EvalError:
        return False


def hand_only(rule: DealWin) -> str:
    """Empty when the rule depends only on the checked player's hand, else why not."""
    m = _NOT_HAND_ONLY.search(rule.when.source)
    if m is None:
        return ""
    if m.group(0) in _SUIT_WORDS:
        return f"'{rule.id}' reads the suits of the cards ('{m.group(0)}'), which the exact count by ranks does not follow"
    return f"'{rule.id}' looks at '{m.group(0)}', not only at the hand"


def compute(rs: Ruleset, num_players: int | None = None, hand_size: int | None = None) -> OddsTable:
    """The odds of each automatic win in a hand of ``hand_size`` cards (deal.hand_size by
    default; a seat given extra cards is dealt more) dealt from the pack of ``num_players``
    players (the fewest by default)."""
    num_players = max(2, num_players or rs.players_min)
    pack = rs.pack_for(num_players)
    k = hand_size or rs.hand_size
    total = comb(len(pack), k)
    # Two cards are interchangeable for a hand-only rule when they share a rank, the values they
    # may count and wildness (identical cards of several decks always do): group them so.
    named = {m.group(0).replace("T", "10") for r in rs.deal_wins for m in _CARD.finditer(r.when.source)}
    by_kind: dict[tuple[str, tuple[int, ...], bool, str], list[int]] = {}
    for card in range(len(pack)):
        own = pack.names[card] if pack.names[card] in named else ""  # a card a rule names: a kind of its own
        by_kind.setdefault((pack.ranks[card], pack.options[card], pack.wild[card], own), []).append(card)
    groups = list(by_kind.values())
    mults = [len(g) for g in groups]
    state = State(rs, num_players, dealer=num_players - 1, stake=1)
    ctx = EvalContext(state, actor=0)
    rules = list(rs.deal_wins)
    why = {r.id: hand_only(r) for r in rules}
    # A rule on suits alone is counted by the suits (its overlaps with the others are not known).
    by_suits = [r for r in rules if why[r.id].startswith(f"'{r.id}' reads the suits") and _reads_suits_only(r.when.source)]
    suit_met = _suit_odds(rs, pack, k, by_suits) if by_suits else {}
    met = {r.id: 0 for r in rules}
    both: dict[tuple[str, str], int] = {}
    examples: dict[str, tuple[int, ...]] = {}
    max_count, min_count = -10**9, 10**9
    shapes: Iterator[tuple[list[int], int]] | list[tuple[list[int], int]] | None = None
    if all(_reads_totals_only(r.when.source) for r in rules):
        shapes = _by_totals(pack, k)
    # Rules on suits and ranks together: every class of hands up to a renaming of the suits, where
    # no rule names a suit or a card (each rule then meets a whole class alike). They are asked
    # there; the others, counted by ranks as before, are asked of a class only where one of them
    # holds (their overlaps), so the classes cost what those rules cost.
    classes: Iterator[tuple[list[int], int]] | None = None
    on_suits = [r for r in rules if r not in by_suits and why[r.id] and _reads_own_hand(r)]
    if on_suits and shapes is None and not any(_NAMES_A_SUIT.search(r.when.source) for r in rules):
        symmetric = _suit_symmetric(pack)
        if symmetric is not None and not _too_many_classes(*symmetric, k):
            classes = _suit_classes(*symmetric, k)
    if shapes is None:
        if _shape_count(mults, k) > MAX_VECTORS:  # said at once, not after minutes of counting
            raise TooManyHands(f"more than {MAX_VECTORS:,} kinds of hands to enumerate (MAX_VECTORS)")
        shapes = ((([c for g, c_n in zip(groups, counts) for c in g[:c_n]]), weight)
                  for counts, weight in _vectors(mults, k))
    by_ranks = [r for r in rules if not why[r.id]]
    order = {r.id: i for i, r in enumerate(rules)}
    values, highs, lows = pack.values, [max(o) for o in pack.options], [min(o) for o in pack.options]
    passes: list[tuple[Any, list[DealWin], list[DealWin], int, str]] = [
        (shapes, by_ranks, [], MAX_ODDS_STEPS, "MAX_ODDS_STEPS")]
    if classes is not None:
        for r in on_suits:
            why[r.id] = ""
        passes.append((classes, on_suits, by_ranks, MAX_CLASS_STEPS, "MAX_CLASS_STEPS"))
    for hands_of, asked, also, budget, budget_name in passes:
        # Read once, not per hand (the classes of hands are many): what each hand costs the rules.
        per_hand, spent = sum(r.when.cost for r in asked), 0
        first_pass = not also
        # Read once too (every class of five cards is a pass of this loop): the seat's stats, the
        # rules' functions, and whether a rule reads the count as dealt (summed only then).
        set_hand, seat = state.set_hand, state.stats[0]
        dealt = any("dealt_count" in r.when.source for r in (*asked, *also))
        tests = [(r.id, r.when.fn) for r in asked]
        for hand, weight in hands_of:
            spent += per_hand
            if spent > budget:
                for r in asked:
                    why[r.id] = (f"checking '{r.id}' on every kind of hand would take more than {budget:,} "
                                 f"steps ({budget_name})")
                break
            if first_pass:
                high = sum(map(highs.__getitem__, hand))
                low = sum(map(lows.__getitem__, hand))
                if high > max_count:
                    max_count = high
                if low < min_count:
                    min_count = low
            set_hand(0, hand)
            if dealt:
                seat.dealt_count = sum(map(values.__getitem__, hand))
            hit = []
            for rid, test in tests:  # (_meets, written out: a call less per class)
                try:
                    if test(ctx):
                        hit.append(rid)
                except EvalError:
                    pass
            if not hit:
                continue
            for rid in hit:
                met[rid] += weight
                examples.setdefault(rid, tuple(hand))
            hit += [r.id for r in also if not why[r.id] and _meets(r, ctx)]  # (only their overlaps)
            hit.sort(key=order.__getitem__)  # each pair in the file's order, whichever pass met it
            for a in range(len(hit)):
                for b in range(a + 1, len(hit)):
                    both[hit[a], hit[b]] = both.get((hit[a], hit[b]), 0) + weight
    for r in by_suits:
        met[r.id], example = suit_met[r.id]
        why[r.id] = ""
        if example:
            examples.setdefault(r.id, example)
    odds = tuple(Odds(r.id, None if why[r.id] else met[r.id], total, why[r.id]) for r in rules)
    return OddsTable(odds, tuple((a, b, n) for (a, b), n in both.items()), total, max_count, min_count,
                     tuple(examples.items()))
