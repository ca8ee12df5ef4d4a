"""Expressions in words: ``count in [49, 50]`` -> "the player's count is 49 or 50".

A small grammar of the expression tree (the same Lark tree the compiler uses). Every part is
read as what it is, not as a string glued to its neighbours:

- a **player** (the player, the dealer, their) has a possessive ("the dealer's count");
- a **set** (of players or of cards) has a singular and a plural noun, a qualifier and relative
  clauses, so it reads "every other player whose count ..." as a payer, "the other players'
  counts" as what a lowest is taken of, and "there are 2 cards in hand that are jokers" counted;
- a **clause** keeps its subject first, so a condition on the items of a set becomes a relative
  clause ("whose count ...", "who holds ..."), and a condition that is not about them is said
  apart ("when there are 2 players");
- a **quantity** (cards held, turns had, spreads laid, players at the table) compared with a
  written number says the number with its unit: "the player holds at most 3 cards".

Verbs agree with their subject, negation goes into the verb ("does not hold"), and an
expression this grammar cannot read is given quoted, never guessed at.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from lark import Token, Tree

from tonkdsl.language.expr.compiler import ExprError, parse

_IT, _ITS = "\x01it\x01", "\x01its\x01"  # the item of a 'where' until its clause is made relative


@dataclass(frozen=True)
class Player:
    """One player as words: "the dealer", possessive "the dealer's"; or an item of a set."""
    text: str
    poss: str
    plural: bool = False  # verb agreement: items of a plural set ("cards that are wild")
    card: bool = False    # the item is a card, not a player ("that" rather than "who")


@dataclass(frozen=True)
class Cards:
    """Whose cards a set of cards is, when it is someone's: "the player holds 2 cards"."""
    holder: str
    verb: str            # agreeing with the holder: "holds", "hold", "has"
    neg: str             # "does not hold"
    tail: str = ""       # what the cards are beyond being held: " left out of spreads"


@dataclass(frozen=True)
class Quantity:
    """A number that counts things: "<subject> <verb> <n> <unit><tail>"."""
    subject: str
    verb: tuple[str, str]  # for 1, for any other number: "there is 1 player", "there are 2 players"
    neg: tuple[str, str]
    unit: tuple[str, str]
    tail: str = ""

    def say(self, numbers: list[str], negated: bool = False, how: str = "") -> str:
        verb = (self.neg if negated else self.verb)[0 if numbers == ["1"] else 1]
        return f"{self.subject} {verb} {how}{_counted(numbers, self.unit)}{self.tail}"


@dataclass
class Set:
    """A set of players or cards: nouns for one and for several, a qualifier, relative clauses."""
    one: str                      # "other player", "card"
    many: str                     # "other players", "cards"
    qual: str = ""                # " in hand", " with the lowest count"
    rel_one: list[str] = field(default_factory=list)   # relative clauses, verbs agreeing with one
    rel_many: list[str] = field(default_factory=list)  # ... and with several
    cond: list[str] = field(default_factory=list)      # conditions not about the items
    card: bool = False
    held: Cards | None = None
    fixed: str | None = None      # a list of named players: "the player and the dealer"
    fixed_plural: bool = False
    poss: str = ""                # whose they are, said before them: "your" opponents, "the dropper's"

    def _rels(self, many: bool) -> str:
        rels = self.rel_many if many else self.rel_one
        return " " + " and ".join(rels) if rels else ""

    def _cond(self) -> str:
        return f" (when {' and '.join(self.cond)})" if self.cond else ""

    def every(self) -> str:
        """As the subject or object of a sentence about each one: "every other player ..."."""
        if self.fixed is not None:
            return ("each of " if self.fixed_plural else "") + self.fixed + self._cond()
        return f"every {self.one}{self.qual}{self._rels(False)}{self._cond()}"

    def the(self) -> str:
        """All of them together: "the other players", "the cards in hand that are jokers"."""
        if self.fixed is not None:
            return self.fixed + self._cond()
        if self.poss and not self.rel_many:
            return f"{self.poss} {self.many}{self._cond()}"
        return f"the {self.many}{self.qual}{self._rels(True)}{self._cond()}"

    def bare(self, n_one: bool) -> str:
        """Counted: "2 cards in hand that are jokers", "1 other player"."""
        noun = self.one if n_one else self.many
        return f"{noun}{self.qual}{self._rels(not n_one)}"

    def attr_of(self, one: str, many: str) -> str:
        """An attribute of each: "the other players' counts", "the counts of the players whose ..."."""
        if self.fixed is None and not self.qual and not self.rel_many and not self.cond:
            return f"the {self.many}' {many}"
        if self.fixed is None and self.poss and not self.rel_many and not self.cond:
            return f"{self.poss} {self.many}' {many}"
        return f"the {many} of {self.the()}"


_ROLE = {"actor": Player("the player", "the player's"), "self": Player("the player", "the player's"),
         "dropper": Player("the dropper", "the dropper's"), "payer": Player("the payer", "the payer's"),
         "payee": Player("the payee", "the payee's"), "owner": Player("the spread's owner", "the spread owner's"),
         "scored": Player("they", "their", plural=True), "dealer": Player("the dealer", "the dealer's")}
# Who a bare attribute is about, as the sentence around it names them: a rule about the player
# ("the player's count"), the player addressed ("your count"), one of several ("their count").
_SUBJECT = {"actor": _ROLE["actor"], "scored": _ROLE["scored"], "you": Player("you", "your", plural=True),
            "they": Player("they", "their", plural=True)}
_PLAYER_SETS = {"players": ("player", "players", ""), "others": ("other player", "other players", ""),
                "lowest": ("player", "players", " with the lowest count"),
                "winners": ("winner", "winners", " of the hand"),
                "folded": ("player", "players", " who folded")}
# A player's own sets of players (players.sides): one, several.
_SIDE_SETS = {"partners": ("partner", "partners"), "opponents": ("opponent", "opponents")}


def _side_set(name: str, who: Player) -> Set:
    """"every opponent of the dropper", "the partners of yours"."""
    one, many = _SIDE_SETS[name]
    whose = {"you": "yours", "they": "theirs"}.get(who.text)
    return Set(one, many, f" of {whose or who.text}", poss=who.poss)


def _partner_of(who: Player) -> Player:
    if who.poss:
        return Player(f"{who.poss} partner", f"{who.poss} partner's")
    return Player(f"the partner of {who.text}", "")


# Numbers the table has: the noun, or a quantity of things (holder, verb one/several, unit, tail).
_NUMS = {"pot": "the pot", "stake": "the stake", "min_count": "the lowest count", "turn": "the turn number",
         "round": "the round number"}
_TABLE_QUANTITIES = {"num_players": ("there", ("is", "are"), ("is not", "are not"), ("player", "players"), ""),
                     "stock": ("the stock", ("holds", "holds"), ("does not hold", "does not hold"),
                               ("card", "cards"), ""),
                     "discards": ("the discard pile", ("holds", "holds"), ("does not hold", "does not hold"),
                                  ("card", "cards"), ""),
                     "spreads_on_table": ("there", ("is", "are"), ("is not", "are not"), ("spread", "spreads"),
                                          " on the table")}
# The suits by their letter, as a sentence names them.
_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _is_suit(t: Any) -> bool:
    """Whether ``t`` reads a suit (``suit``, ``upcard.suit``, ``card.suit``)."""
    d = _kind(t)
    return (d == "name" and str(t.children[0]) == "suit") or (d == "attr" and str(t.children[1]) == "suit")


_TABLE_NOUNS = {"num_players": "the number of players", "stock": "the number of cards in the stock",
                "discards": "the number of cards in the discard pile",
                "spreads_on_table": "the number of spreads on the table"}
# A player's numbers read as nouns: singular, plural.
_ATTRS = {"count": ("count", "counts"), "dealt_count": ("count as dealt", "counts as dealt"),
          "deadwood_count": ("deadwood count", "deadwood counts"), "low_count": ("lowest total", "lowest totals"),
          "high_count": ("highest total", "highest totals"), "totals": ("possible totals", "possible totals"),
          "total": ("total so far", "totals so far"), "payout": ("payout this hand", "payouts this hand"),
          "seat": ("seat", "seats"), "side": ("side", "sides"), "rank": ("rank", "ranks"), "suit": ("suit", "suits"),
          "value": ("value", "values")}
# A player's numbers that count things: verb (one, several), negated verb, unit (one, several), tail.
_QUANTITIES = {"cards": (("holds", "hold"), ("does not hold", "do not hold"), ("card", "cards"), ""),
               "turns": (("has had", "have had"), ("has not had", "have not had"), ("turn", "turns"), ""),
               "spreads": (("has laid", "have laid"), ("has not laid", "have not laid"), ("spread", "spreads"), ""),
               "spreads_this_turn": (("has laid", "have laid"), ("has not laid", "have not laid"),
                                     ("spread", "spreads"), " this turn"),
               "hits": (("has hit", "have hit"), ("has not hit", "have not hit"), ("card", "cards"),
                        " onto spreads"),
               "hands_won": (("has won", "have won"), ("has not won", "have not won"), ("hand", "hands"),
                             " in the session")}
# Yes-or-no attributes: (one, several), negated (one, several).
_BOOL_ATTRS = {"out_by_spread": (("emptied the hand with a new spread",) * 2,
                                 ("did not empty the hand with a new spread",) * 2),
               "is_dealer": (("is the dealer", "are the dealer"), ("is not the dealer", "are not the dealer")),
               "discard_fits": (("can put the top discard into a spread at once",) * 2,
                                ("cannot put the top discard into a spread at once",) * 2),
               "deal_win": (("holds an automatic win", "hold an automatic win"),
                            ("does not hold an automatic win", "do not hold an automatic win")),
               "is_wild": (("is wild", "are wild"), ("is not wild", "are not wild")),
               "is_joker": (("is a joker", "are jokers"), ("is not a joker", "are not jokers"))}
# Functions of cards that make a yes or no: (one, several), negated.
_CARD_TESTS = {"is_book": (("make a book", "do not make a book")), "is_run": (("make a run", "do not make a run"))}
# Functions of cards that measure them: noun, and as a quantity (verb, negated verb, unit, tail).
_CARD_MEASURES = {"max_same_rank": ("the most cards of one rank in {}", ("holds", "hold"),
                                    ("does not hold", "do not hold"), " of one rank"),
                  "max_same_suit": ("the most cards of one suit in {}", ("holds", "hold"),
                                    ("does not hold", "do not hold"), " of one suit"),
                  "largest_book": ("the size of the largest book in {}", ("can make a book of", "can make a book of"),
                                   ("cannot make a book of", "cannot make a book of"), ""),
                  "longest_run": ("the length of the longest run in {}", ("can make a run of", "can make a run of"),
                                  ("cannot make a run of", "cannot make a run of"), "")}
_CMP = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least"}
_NEGATE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_QUANT_CMP = {"==": "", "<": "fewer than ", "<=": "at most ", ">": "more than ", ">=": "at least "}
_ARITH = {"add": "+", "sub": "-", "mul": "x", "div": "/", "mod": "mod", "pow": "^"}


class Unreadable(Exception):
    """A shape the grammar has no reading for: the expression is given quoted."""


def words(source: str, subject: str | None = "actor") -> str:
    """The expression in words, or the expression quoted when it cannot be read. ``subject``: the
    role a bare attribute is about (``actor`` in conditions, ``scored`` in score points, None
    where there is none)."""
    if str(source).strip() == "pot":  # a payout's side: the pot itself
        return "the pot"
    try:
        tree = parse(str(source))
    except ExprError:
        return f"'{source}'"
    try:
        return _Reader(subject).any(tree)
    except (Unreadable, ValueError, KeyError, IndexError):
        return f"'{source}'"


def players(source: str) -> tuple[str, str | None]:
    """A set of players as the subject of a sentence ("every other player whose count ..."), and
    apart from it the conditions not about the players ("there are 2 players"), if any."""
    try:
        tree = parse(str(source))
        found = _Reader(None).set(tree)
    except (ExprError, Unreadable, ValueError, KeyError, IndexError):
        return f"'{source}'", None
    if found is None:
        return words(source, None), None
    cond = " and ".join(found.cond) or None
    found.cond = []
    return found.every(), cond


def one_player(source: str) -> str:
    """A set of players that names one of them: "the winner of the hand (the one nearest the
    dealer's left, if several)"; a single player reads as themselves."""
    try:
        tree = parse(str(source))
        reader = _Reader(None)
        who = reader.player(tree)
        if who is not None:
            return who.text
        found = reader.set(tree)
    except (ExprError, Unreadable, ValueError, KeyError, IndexError):
        return f"'{source}'"
    if found is None or found.card:
        return words(source, None)
    if found.fixed is not None:
        return f"{found.fixed} (the one nearest the dealer's left, if several)"
    return f"the {found.one}{found.qual}{found._rels(False)}{found._cond()} (the one nearest the dealer's left, " \
           "if several)"


def pot_words(source: str, pots: Sequence[str] = ()) -> str | None:
    """A pot named in a payment, in words: 'pot' is the pot, the name of one of ``pots`` (the
    ruleset's side_pots) "the tonk pot"; None: not a pot."""
    text = source.strip()
    if text == "pot":
        return "the pot"
    if text not in pots:
        return None
    spoken = text.replace("_", " ")
    return f"the {spoken}" if spoken.endswith("pot") else f"the pot '{text}'"


def payment(payers_src: str, payees_src: str, amount_src: str, stake: int,
            split: str | None = None, pots: Sequence[str] = ()) -> tuple[str, list[str]]:
    """"Every other player pays 2 (2 x the stake) to the player", and the conditions on the sets
    that are not about their members ("there are 2 players"), said apart by the caller. A
    shared amount (``split``) says how what does not divide is paid."""
    conds: list[str] = []
    from_pot = pot_words(payers_src, pots)
    if from_pot is not None:
        payer, how = from_pot, ("all it holds" if amount_src.strip() == payers_src.strip()
                                else amount(amount_src, stake, pots))
    else:
        payer, cond = players(payers_src)
        conds += [cond] if cond else []
        how = amount(amount_src, stake, pots)
    to_pot = pot_words(payees_src, pots)
    if to_pot is not None:
        return f"{payer} puts {how} into {to_pot}", conds
    payee, cond = players(payees_src)
    conds += [cond] if cond else []
    if split == "pooled":
        return (f"{payer} pays {how}, all of it put together and shared equally among {payee} (what does not "
                "divide goes a unit at a time to those nearest the dealer's left)"), conds
    if split is not None:
        keeper = f"stays in {payer}" if from_pot is not None else "is not paid"
        rest = (keeper if split == "down" else
                "goes a unit at a time to those nearest the dealer's left")
        return f"{payer} pays {how}, shared equally among {payee} (what does not divide {rest})", conds
    return f"{payer} pays {how} to {payee}", conds


def amount(source: str, stake: int, pots: Sequence[str] = ()) -> str:
    """An amount in words, worked out for ``stake`` when it depends on nothing else:
    "2 (2 x the stake)"."""
    text = str(source).strip()
    pot = pot_words(text, pots)
    if pot is not None:
        return f"as much as {pot} holds"
    try:
        tree = parse(text)
    except ExprError:
        return f"'{text}'"
    value = _fold(tree, stake)
    if value is not None:
        return str(value) if text == str(value) else f"{value} ({words(text, None)})"
    return words(text, None)


def _fold(t: Any, stake: int) -> int | None:
    if isinstance(t, Token):
        return None
    d = str(t.data)
    if d == "number":
        return int(str(t.children[0]))
    if d == "name" and str(t.children[0]) == "stake":
        return stake
    if d in ("add", "sub", "mul"):
        a, b = _fold(t.children[0], stake), _fold(t.children[1], stake)
        if a is None or b is None:
            return None
        return a + b if d == "add" else a - b if d == "sub" else a * b
    return None


# How tightly each construct binds (the grammar's precedence, loosest first): a part that binds
# more loosely than the operator around it is put in parentheses, so the words keep the grouping.
_PREC = {"where": 0, "or_": 1, "and_": 2, "not_": 3, "compare": 4, "in_": 4, "not_in": 4, "range": 5,
         "add": 6, "sub": 6, "mul": 7, "div": 7, "mod": 7, "neg": 8, "pow": 9}
# On the right, a part as tight as the operator keeps its parentheses unless regrouping changes
# nothing: a + (b - c) is a + b - c, but a - (b - c), a * (b / c) (whole numbers) are not.
_REGROUPS = {("add", "add"), ("add", "sub"), ("mul", "mul"), ("and_", "and_"), ("or_", "or_")}


def _kind(t: Any) -> str:
    return str(t.data) if isinstance(t, Tree) else ""


def _literal(t: Any) -> list[str] | None:
    """The written numbers of a number, a list of numbers or a range, else None."""
    d = _kind(t)
    if d == "number":
        return [str(t.children[0])]
    if d == "list" and t.children and all(_kind(x) == "number" for x in t.children):
        return [str(x.children[0]) for x in t.children]
    return None


def _counted(numbers: list[str], unit: tuple[str, str]) -> str:
    """Numbers with their unit: "1 card", "3 or 4 cards", "no cards"."""
    if numbers == ["0"]:
        return f"no {unit[1]}"
    noun = unit[0] if numbers == ["1"] else unit[1]
    return (numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " or " + numbers[-1]) + f" {noun}"


class _Reader:
    """Reads one expression; ``subject`` is who a bare attribute is about."""

    def __init__(self, subject: str | Player | None) -> None:
        # A role's name (actor, scored, you, they), an item of a 'where' being read, or nobody.
        self.subject: Player | None = subject if isinstance(subject, Player) else _SUBJECT.get(subject or "")

    # -- whatever the expression is -------------------------------------------------------------
    def any(self, t: Any) -> str:
        d = _kind(t)
        if d in ("and_", "or_", "not_", "compare", "in_", "not_in", "true", "false"):
            return self.clause(t)
        if d == "call" and str(t.children[0]) in ("any", "all", "is_book", "is_run"):
            return self.clause(t)
        if d in ("name", "attr") and self._bool_attr(t) is not None:
            return self.clause(t)
        found = self.set(t)
        if found is not None:
            return found.every() if not found.card else found.the()
        who = self.player(t)
        if who is not None:
            return who.text
        return self.value(t)

    # -- players ---------------------------------------------------------------------------------
    def player(self, t: Any) -> Player | None:
        d = _kind(t)
        if d == "name":
            n = str(t.children[0])
            if n in ("actor", "self") and self.subject in (_SUBJECT["you"], _SUBJECT["they"]):
                return Player(self.subject.text, self.subject.poss)  # the player addressed is the actor
            if n in _ROLE:
                return _ROLE[n]
        if d == "name" and str(t.children[0]) == "partner" and self.subject is not None:
            return _partner_of(self.subject)
        if d == "attr" and str(t.children[1]) == "partner":
            who = self.player(t.children[0])
            return _partner_of(who) if who is not None else None
        if d == "list" and len(t.children) == 1:
            return self.player(t.children[0])
        if d == "call" and str(t.children[0]) == "nearest_left" and len(t.children) == 2:
            inner = self.set(t.children[1])
            if inner is not None and not inner.card:
                text = f"the one nearest the dealer's left among {inner.the()}"
                return Player(text, "")
        return None

    def poss(self, who: Player, one: str) -> str:
        return f"{who.poss} {one}" if who.poss else f"the {one} of {who.text}"

    # -- sets ------------------------------------------------------------------------------------
    def set(self, t: Any) -> Set | None:
        d = _kind(t)
        c = t.children if isinstance(t, Tree) else []
        if d == "name":
            n = str(c[0])
            if n in _PLAYER_SETS:
                one, many, qual = _PLAYER_SETS[n]
                return Set(one, many, qual)
            if n in _SIDE_SETS and self.subject is not None:
                return _side_set(n, self.subject)
            if n == "hand":
                return self._hand(self.subject)
            if n == "laid":
                return self._laid(self.subject)
            if n == "spread":
                return Set("card", "cards", " of the spread", card=True,
                           held=Cards("the spread", "holds", "does not hold"))
            if n == "hit":
                return Set("card", "cards", " hit", card=True, held=Cards("the hit", "plays", "does not play"))
            return None
        if d == "attr" and str(c[1]) in _SIDE_SETS:
            who = self.player(c[0])
            return _side_set(str(c[1]), who) if who is not None else None
        if d == "attr" and str(c[1]) == "hand":
            who = self.player(c[0])
            return self._hand(who) if who is not None else None
        if d == "attr" and str(c[1]) == "laid":
            who = self.player(c[0])
            return self._laid(who) if who is not None else None
        if d == "list" and len(c) > 1:
            named = [self.player(x) for x in c]
            if all(p is not None for p in named):
                texts = [p.text for p in named if p is not None]
                return Set("player", "players", fixed=", ".join(texts[:-1]) + " and " + texts[-1],
                           fixed_plural=True)
            return None
        if d == "call" and str(c[0]) == "deadwood" and len(c) == 2:
            inner = self.set(c[1])
            if inner is None or not inner.card:
                return None
            held = None
            if inner.held is not None:
                has = "have" if inner.held.verb == "hold" else "has"
                held = Cards(inner.held.holder, has, f"do not {has}" if has == "have" else "does not have",
                             " left out of spreads")
            return Set("card", "cards", f"{inner.qual} left out of spreads", card=True, held=held)
        if d == "where":
            base = self.set(c[0])
            if base is None:
                return None
            self._filter(base, c[1])
            return base
        return None

    def _hand(self, who: Player | None) -> Set:
        if who is None:
            raise Unreadable("hand")
        hold = ("hold", "do not hold") if who.plural else ("holds", "does not hold")
        if who is self.subject and who.text == "the player":
            return Set("card", "cards", " in hand", card=True, held=Cards(who.text, *hold))
        return Set("card", "cards", f" in {who.poss} hand", card=True, held=Cards(who.text, *hold))

    def _laid(self, who: Player | None) -> Set:
        """The cards a player has laid in spreads or hit onto spreads this hand."""
        if who is None:
            raise Unreadable("laid")
        has = ("have laid", "have not laid") if who.plural else ("has laid", "has not laid")
        return Set("card", "cards", f" {who.text} {has[0]} this hand", card=True,
                   held=Cards(who.text, *has, " this hand"))

    def _filter(self, base: Set, cond: Any) -> None:
        """Adds the condition of a 'where' to ``base``: relative clauses about its items, and apart
        the parts that are not about them."""
        parts = list(self._conjuncts(cond))
        for part in parts:
            # Read once about one item and once about several, so the verbs agree either way.
            one = _Reader(Player(_IT, _ITS, plural=False, card=base.card))
            many = _Reader(Player(_IT, _ITS, plural=True, card=base.card))
            a, b = one.clause(part), many.clause(part)
            if _IT not in a and _ITS not in a:
                base.cond.append(a)
                continue
            base.rel_one.append(_relative(a, base.card, plural=False))
            base.rel_many.append(_relative(b, base.card, plural=True))

    def _conjuncts(self, t: Any) -> Any:
        if _kind(t) == "and_":
            yield from self._conjuncts(t.children[0])
            yield from self._conjuncts(t.children[1])
        else:
            yield t

    # -- clauses (yes or no) ---------------------------------------------------------------------
    def clause(self, t: Any, negated: bool = False) -> str:
        d = _kind(t)
        c = t.children if isinstance(t, Tree) else []
        if d in ("true", "false"):
            return "always" if (d == "true") != negated else "never"
        if d == "not_":
            inner = c[0]
            if _kind(inner) in ("and_", "or_"):
                if negated:
                    return self.clause(inner)
                return f"not ({self.clause(inner)})"
            return self.clause(inner, not negated)
        if d in ("and_", "or_"):
            if negated:
                return f"not ({self.clause(t)})"
            join = " and " if d == "and_" else ", or "
            left, right = self._part(c[0], d), self._part(c[1], d, right=True)
            return f"{left}{join}{_elide(left, right)}"
        if d == "compare":
            op = str(c[1])
            return self.compare(c[0], _NEGATE[op] if negated else op, c[2])
        if d in ("in_", "not_in"):
            return self.member(c[0], c[1], (d == "not_in") != negated)
        if d == "call":
            return self.test(t, negated)
        found = self._bool_attr(t)
        if found is not None:
            who, name = found
            forms = _BOOL_ATTRS[name][1 if negated else 0]
            return f"{who.text} {forms[1 if who.plural else 0]}"
        raise Unreadable(d)

    def _part(self, t: Any, parent: str, right: bool = False) -> str:
        text = self.clause(t)
        mine, theirs = _PREC.get(_kind(t), 10), _PREC[parent]
        same = mine == theirs
        if mine < theirs or (same and right and (parent, _kind(t)) not in _REGROUPS):
            return f"({text})"
        return text

    def _bool_attr(self, t: Any) -> tuple[Player, str] | None:
        d = _kind(t)
        if d == "name" and str(t.children[0]) in _BOOL_ATTRS and self.subject is not None:
            return self.subject, str(t.children[0])
        if d == "attr" and str(t.children[1]) in _BOOL_ATTRS:
            who = self.player(t.children[0])
            if who is not None:
                return who, str(t.children[1])
        return None

    def test(self, t: Any, negated: bool) -> str:
        fname = str(t.children[0])
        arg = t.children[1] if len(t.children) > 1 else None
        if fname in _CARD_TESTS and arg is not None:
            cards = self.set(arg)
            text = cards.the() if cards is not None else self.value(arg)
            return f"{text} {_CARD_TESTS[fname][1 if negated else 0]}"
        if fname in ("any", "all") and arg is not None and _kind(arg) == "attr" \
                and str(arg.children[1]) in _BOOL_ATTRS:
            group = self.set(arg.children[0])
            if group is not None:
                forms = _BOOL_ATTRS[str(arg.children[1])]
                lead = ("no" if negated else "some") if fname == "any" else ("not every" if negated else "every")
                return f"{lead} {group.one}{group.qual}{group._rels(False)}{group._cond()} {forms[0][0]}"
        if fname in ("any", "all") and arg is not None:
            text = f"{'some' if fname == 'any' else 'all'} of {self.value(arg)} hold"
            return f"not ({text})" if negated else text
        raise Unreadable(fname)

    def member(self, left: Any, right: Any, negated: bool) -> str:
        numbers = _literal(right)
        quantity = self.quantity(left)
        if quantity is not None and numbers is not None:
            return quantity.say(numbers, negated)
        if _kind(right) == "range" and quantity is not None:
            lo, hi = _literal(right.children[0]), _literal(right.children[1])
            if lo and hi:
                return quantity.say([hi[0]], negated, how=f"{lo[0]} to ")
        group = self.set(right)
        if group is not None:
            return f"{self.value(left)} {'is not among' if negated else 'is among'} {group.the()}"
        attr_of = self._set_attr(right)
        if attr_of is not None:
            return f"{self.value(left)} {'is not among' if negated else 'is among'} {attr_of}"
        return f"{self.value(left)} {'is not' if negated else 'is'} {self.value(right)}"

    def compare(self, left: Any, op: str, right: Any) -> str:
        numbers = _literal(right)
        quantity = self.quantity(left)
        if quantity is not None and numbers is not None and len(numbers) == 1:
            if (op in ("!=", ">") and numbers == ["0"]) or (op == ">=" and numbers == ["1"]):
                return quantity.say(["1"], how="at least ")
            if (op == "<=" and numbers == ["0"]) or (op == "<" and numbers == ["1"]):
                return quantity.say(["0"])
            if op == "!=":
                return quantity.say(numbers, negated=True, how="exactly ")
            return quantity.say(numbers, how=_QUANT_CMP[op])
        lowest = _kind(right) == "name" and str(right.children[0]) == "min_count" and op in ("==", "!=")
        who = self._count_of(left)
        if lowest and who is not None:
            has = "has" if not who.plural else "have"
            return f"{who.text} {has if op == '==' else 'does not have' if not who.plural else 'do not have'} " \
                   "the lowest count"
        if _kind(right) == "symbol" and str(right.children[0]) in _SUIT_NAMES and _is_suit(left):
            return f"{self._side(left, 'compare')} {_CMP[op]} {_SUIT_NAMES[str(right.children[0])]}"  # not "is S"
        return f"{self._side(left, 'compare')} {_CMP[op]} {self._side(right, 'compare', right=True)}"

    def _count_of(self, t: Any) -> Player | None:
        """The player whose plain count ``t`` is, if it is one."""
        if _kind(t) == "name" and str(t.children[0]) == "count":
            return self.subject
        if _kind(t) == "attr" and str(t.children[1]) == "count":
            return self.player(t.children[0])
        return None

    def quantity(self, t: Any) -> Quantity | None:
        """A number that counts things, as who has them, the verb and the unit."""
        d = _kind(t)
        c = t.children if isinstance(t, Tree) else []
        if d == "name" and str(c[0]) in _TABLE_QUANTITIES:
            subj, verbs, negs, unit, tail = _TABLE_QUANTITIES[str(c[0])]
            return Quantity(subj, verbs, negs, unit, tail)
        who, name = None, None
        if d == "name" and str(c[0]) in _QUANTITIES:
            who, name = self.subject, str(c[0])
        elif d == "attr" and str(c[1]) in _QUANTITIES:
            who, name = self.player(c[0]), str(c[1])
        if name is not None:
            if who is None:
                return None
            verbs, negs, unit, tail = _QUANTITIES[name]
            k = 1 if who.plural else 0
            return Quantity(who.text, (verbs[k],) * 2, (negs[k],) * 2, unit, tail)
        if d == "call" and len(c) == 2:
            fname = str(c[0])
            group = self.set(c[1])
            if group is None or group._cond():
                return None
            if fname == "count" and group.held is not None:
                held = group.held
                unit = ("card" + group._rels(False), "cards" + group._rels(True))
                return Quantity(held.holder, (held.verb,) * 2, (held.neg,) * 2, unit, held.tail)
            if fname == "count":
                return Quantity("there", ("is", "are"), ("is not", "are not"), (group.bare(True), group.bare(False)))
            if fname in _CARD_MEASURES and group.card:
                _, verbs, negs, tail = _CARD_MEASURES[fname]
                if group.held is not None and not group.held.tail:
                    k = 1 if group.held.verb in ("hold", "have") else 0
                    return Quantity(group.held.holder, (verbs[k],) * 2, (negs[k],) * 2, ("card", "cards"), tail)
                return Quantity(group.the(), (verbs[1],) * 2, (negs[1],) * 2, ("card", "cards"), tail)
        return None

    # -- values ----------------------------------------------------------------------------------
    def _side(self, t: Any, parent: str, right: bool = False) -> str:
        text = self.value(t)
        mine, theirs = _PREC.get(_kind(t), 10), _PREC[parent]
        same = mine == theirs and _kind(t) != ""
        if mine < theirs or (same and right and (parent, _kind(t)) not in _REGROUPS) or (
                same and not right and parent == "pow"):
            return f"({text})"
        return text

    def _set_attr(self, t: Any) -> str | None:
        """An attribute of every member of a set: "the other players' counts"."""
        if _kind(t) != "attr":
            return None
        group = self.set(t.children[0])
        name = str(t.children[1])
        if group is None:
            return None
        if name in _ATTRS:
            one, many = _ATTRS[name]
        elif name in _QUANTITIES:
            unit = _QUANTITIES[name][2][1]
            return f"the numbers of {unit}{_QUANTITIES[name][3]} of {group.the()}"
        else:
            one, many = f"{name} counter", f"{name} counters"
        return group.attr_of(one, many)

    def value(self, t: Any) -> str:
        d = _kind(t)
        c = t.children if isinstance(t, Tree) else []
        if isinstance(t, Token):
            return str(t)
        if d == "number":
            return str(c[0])
        if d == "symbol":
            return str(c[0])
        if d in ("true", "false", "and_", "or_", "not_", "compare", "in_", "not_in"):
            return self.clause(t)
        if d == "name":
            n = str(c[0])
            if n in _NUMS:
                return _NUMS[n]
            if n in _TABLE_NOUNS:
                return _TABLE_NOUNS[n]
            if n == "upcard":  # the card turned up at the deal (not a counter of the player's)
                return "the upcard"
            who = self.player(t)
            if who is not None:
                return who.text
            found = self.set(t)
            if found is not None:
                return found.the()
            if self.subject is None:
                raise Unreadable(n)
            return self._attr(self.subject, n)
        if d == "attr" and _kind(c[0]) == "name" and str(c[0].children[0]) == "upcard":
            return f"the upcard's {str(c[1]).replace('_', ' ')}"  # rank, suit, value
        if d == "attr":
            attr_of = self._set_attr(t)
            if attr_of is not None:
                return attr_of
            found = self.set(t)
            if found is not None:
                return found.the()
            who = self.player(c[0])
            if who is None:
                raise Unreadable("attr")
            return self._attr(who, str(c[1]))
        if d == "list":
            items = [self.value(x) for x in c]
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
        if d == "range":
            return f"{self.value(c[0])} to {self.value(c[1])}"
        if d in _ARITH:
            return f"{self._side(c[0], d)} {_ARITH[d]} {self._side(c[1], d, right=True)}"
        if d == "neg":
            return f"minus {self._side(c[0], d)}"
        if d == "where":
            found = self.set(t)
            if found is None:
                raise Unreadable("where")
            return found.the()
        if d == "call":
            return self._call(str(c[0]), c[1] if len(c) > 1 else None)
        raise Unreadable(d)

    def _attr(self, who: Player, name: str) -> str:
        if name in _ATTRS:
            return self.poss(who, _ATTRS[name][0])
        if name in _QUANTITIES:
            verbs, _, unit, tail = _QUANTITIES[name]
            return f"the number of {unit[1]} {who.text} {verbs[1 if who.plural else 0]}{tail}"
        if name in _BOOL_ATTRS:
            return f"{who.text} {_BOOL_ATTRS[name][0][1 if who.plural else 0]}"
        return self.poss(who, f"{name.replace('_', ' ')} counter")

    def _call(self, fname: str, arg: Any) -> str:
        if arg is None:
            raise Unreadable(fname)
        if fname == "abs":
            return f"the size of {self.value(arg)}"
        if fname in _CARD_MEASURES:
            return _CARD_MEASURES[fname][0].format(self._cards_text(arg))
        if fname in ("is_book", "is_run", "any", "all"):
            return self.test(Tree("call", [Token("NAME", fname), arg]), False)
        if fname == "nearest_left":
            who = self.player(Tree("call", [Token("NAME", fname), arg]))
            if who is None:
                raise Unreadable(fname)
            return who.text
        group = self.set(arg)
        if fname == "count":
            if group is not None:
                return f"the number of {group.bare(False)}{group._cond()}"
            return f"the number of {self.value(arg)}"
        if fname == "sum":
            if group is not None and group.card:
                return f"the total value of {group.the()}"
            return f"the total of {self._plural_values(arg)}"
        if fname in ("min", "max"):
            return f"the {'lowest' if fname == 'min' else 'highest'} of {self._plural_values(arg)}"
        if fname == "deadwood":
            return group.the() if group is not None else self.value(arg)
        raise Unreadable(fname)

    def _cards_text(self, arg: Any) -> str:
        group = self.set(arg)
        if group is None:
            return self.value(arg)
        if group.held is not None and group.qual == " in hand":
            return "the hand"
        return group.the()

    def _plural_values(self, arg: Any) -> str:
        attr_of = self._set_attr(arg)
        if attr_of is not None:
            return attr_of
        group = self.set(arg)
        if group is not None:
            return group.the()
        return self.value(arg)


def _elide(left: str, right: str) -> str:
    """The second of two clauses with the same subject doing something says it once: "the
    player has had 1 turn and has hit no cards" (not when the subject owns a thing: "the
    player's count")."""
    for who in _ROLE.values():
        lead = who.text + " "
        if left.startswith(lead) and right.startswith(lead) and not left.startswith(who.poss + " "):
            return right[len(lead):]
    return right


def _relative(clause: str, card: bool, plural: bool) -> str:
    """A clause about an item made relative: "<its> count is 3" -> "whose count is 3"."""
    pronoun = ("they", "their") if (plural or not card) else ("it", "its")
    if clause.startswith(_ITS + " "):
        text = "whose " + clause[len(_ITS) + 1:]
    elif clause.startswith(_IT + " "):
        text = ("that " if card else "who ") + clause[len(_IT) + 1:]
    else:
        text = "such that " + clause
    return text.replace(_ITS, pronoun[1]).replace(_IT, pronoun[0])


__all__ = ["READER", "amount", "one_player", "payment", "players", "words"]


class _Words:
    """``words`` and ``players`` as one object: what a construct's sentences are read with
    (tonkdsl.interpreter.rules.base.Words)."""

    def __call__(self, source: str, subject: str | None = "actor") -> str:
        return words(source, subject)

    def players(self, source: str) -> tuple[str, str | None]:
        return players(source)


READER = _Words()
