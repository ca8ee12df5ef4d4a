"""The shape of a turn construct, and the plan a ruleset compiles into.

A *construct* is one house rule of the turn (slapping a discard onto a spread, ...): a class
that owns everything about it, in one module of this package:

- ``key`` and ``schema``: the top-level key of the ruleset it reads, and that key's JSON Schema
  fragment (``python -m tonkdsl.docgen`` writes it into the shipped schema). Fields marked
  ``x-expr`` are compiled by the loader, which knows nothing else of the construct
  (``Ruleset.constructs[key]``);
- ``build``: whether a ruleset uses it (``None`` when not), and its settings;
- ``kinds``, ``verbs``: the actions it adds, and how their text is read;
- the hooks the turn calls at its steps (only those a construct defines are called at all):
  ``options`` (what it offers a player now), ``play`` (its own actions applied, refusals in a
  player's words), ``discarded`` and ``drew`` (its effects after the core actions);
  ``windows``: the moments it asks other players whether they act (asking.py asks them, one at
  a time; each window's kind of action says what it does);
- ``sheet``: its rules-sheet sentences; ``lint``: what ``tonk lint`` says of its settings;
  ``facts``: what it makes possible, which lint's reasoning reads instead of knowing each key.

The turn itself (draw, spread, hit, discard) stays hand-optimised in turn.py and knows no
construct by name: it asks the plan. docs/engine.md, "Adding a construct", walks through one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, NamedTuple, Protocol, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.table import START

if TYPE_CHECKING:
    from tonkdsl.interpreter.asking import Window
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.expr import Compiled
    from tonkdsl.language.names import EvalContext
    from tonkdsl.language.ruleset import Ruleset

# What a construct can make possible, for lint (TurnRule.facts): lint's checks read these
# instead of asking for each construct's key.
HITS_SPREADS = "hits_spreads"  # a spread can be added to (a hit by another name)
PLAYS_OUT_OF_TURN = "plays_out_of_turn"  # a player can lay cards outside their own turn
HITS_ANY_SPREAD = "hits_any_spread"  # it plays onto any spread, whoever owns it (hits.spreads aside)
STOCK_NEVER_EMPTY = "stock_never_empty"  # the hand ends before the stock runs out (what the sheet says of an empty one is moot)
DROPS_OUT_OF_TURN = "drops_out_of_turn"  # a player may drop outside their own turn (so a drop needs no turn begun)
FOLDS = "folds"  # a player may sit out the rest of the hand while it goes on (the sets about players shrink)
CLOSES_AFTER_DROP = "closes_after_drop"  # a drop is decided only after more turns (TurnRule.close)
DRAW_ENDS_TURN = "draw_ends_turn"  # the player to move draws last: nothing is played after the draw (TurnRule.owes_draw)

# The section of a construct's sentence that goes among the sentences on the drop, before how a
# drop is won (the rules sheet places it there; it is no section of its own).
DROP_SENTENCES = "\0the drop"


# The 'id' of one rule of a list construct, in its schema (the same words for every list).
RULE_ID: dict[str, Any] = {"type": "string", "pattern": "^[A-Za-z0-9_-]+$",
                           "description": "A name for the rule (a file that extends this one may replace it; lint, "
                                          "witnesses and the outcome's rules taken use it)."}


def rule_list(properties: dict[str, Any], required: Sequence[str], description: str) -> dict[str, Any]:
    """The schema fragment of a list construct: at most 12 rules, each with its id and ``properties``."""
    return {"type": "array", "x-construct": True, "maxItems": 12,
            "items": {"type": "object", "additionalProperties": False, "properties": {"id": RULE_ID, **properties},
                      "required": ["id", *required]},
            "description": description}


class Words(Protocol):
    """The expression reader the tools lend a construct for its sentences (tonkdsl.tools.explain.words)."""

    def __call__(self, source: str, subject: str | None = "actor") -> str:
        """An expression in words (``subject``: the role a bare attribute is about)."""
        ...

    def players(self, source: str) -> tuple[str, str | None]:
        """A set of players as a sentence's subject, and apart the conditions not about them."""
        ...


class OpenDiscard(NamedTuple):
    """What the table waits on after a discard (``State.pending``): the discard, open to plays out
    of turn (a slap, a buy) until the next player draws. Every construct that acts on it sets the
    same value, and the first play that takes the card closes it for all."""

    card: int
    discarder: int


def open_discard(st: "State") -> OpenDiscard | None:
    """The discard open to plays out of turn now, if any (only before the next player acts)."""
    pending = st.pending
    return pending if isinstance(pending, OpenDiscard) and st.phase == START else None


def remember(st: "State", key: str, value: Any) -> None:
    """Keep ``value`` for the rest of the hand under ``key`` (a construct's memory: its key, or
    its key and a seat). The memory is a tuple of (key, value) pairs, replaced and never changed,
    so that a copy of the state (``clone``) shares it safely."""
    st.memory = (*((k, v) for k, v in st.memory if k != key), (key, value))


def recall(st: "State", key: str, default: Any = None) -> Any:
    """What a construct remembered under ``key`` this hand (``default`` when nothing)."""
    return next((v for k, v in st.memory if k == key), default)


class Guard(NamedTuple):
    """A condition on one of the player to move's own actions (``do``: drop, claim, draw_discard,
    spread, hit) at the steps ``at`` of their turn (turn_start, after_draw): the action is
    offered there only while ``when`` holds; ``id`` names the rule (in refusals and in the
    outcome's rules taken). The turn keeps every construct's guards in one table
    (``MeldRules.guards``) and asks it where it offers or plays those actions."""

    do: str
    at: frozenset[str]
    when: "Compiled"
    id: str  # ("": a construct's own condition, named in no outcome)
    # The refusal in a player's words, where the construct words it itself (None: the turn
    # quotes the rule: "the ruleset's rule 'id': 'when' is false").
    says: "Callable[[State, int], str] | None" = None


class Closing:
    """What a closing hand waits for (``State.closing``): a construct sets one where a drop is
    decided only after more turns (the last round after it). While it is set, no one drops and
    no one is asked out of turn; each turn that passes asks it whether the hand ends now.
    Subclasses are immutable (a copy of the state shares them): a change is a new one."""

    __slots__ = ()
    by: int  # the seat whose drop began it

    def next_turn(self, st: "State", seat: int) -> bool:
        """The turn passes to ``seat``: True when the hand ended instead (its outcome set)."""
        raise NotImplementedError

    def refusal(self, seat: int) -> str:
        """Why ``seat`` may not drop now, in a player's words."""
        raise NotImplementedError

    def notice(self, st: "State", names: Sequence[str]) -> str:
        """What the table announces once when it begins ("Ann chose to knock: ...")."""
        raise NotImplementedError


class Sentence(NamedTuple):
    """One sentence of the rules sheet, for the section it belongs to ("Spreads and hits", ...)."""

    section: str
    text: str


class Finding(NamedTuple):
    """What ``tonk lint`` says of a construct's settings: code, severity, message, the path of the
    key it is about, and the paths of the keys it relates to."""

    code: str
    severity: str
    message: str
    path: tuple[str | int, ...]
    related: tuple[tuple[str | int, ...], ...] = ()
    hint: str = ""


class Narrowing(NamedTuple):
    """A condition of a construct that narrows one of the ruleset's (a guard on a drop on top of
    turn.drop.allowed): lint warns where it never refuses what the other allows, and so
    changes nothing."""

    path: tuple[str | int, ...]  # where the construct's condition is written
    condition: str  # its source
    narrowed: str  # the source of the condition it narrows
    narrowed_key: tuple[str, ...]  # where that one is written ("turn", "drop", "allowed")


class TurnRule:
    """A construct of the turn (see the module's docstring). Subclasses override what they use."""

    key: ClassVar[str] = ""  # the key it reads, dotted when nested ("turn.in_turn")
    entry_name: ClassVar[str] = ""  # what one entry of a list construct is called (tonk diff: "... added: ...")
    named: ClassVar[str] = ""  # a regular expression of the word that names it in code (tests/test_constructs.py: only here and the registry)
    schema: ClassVar[dict[str, Any]] = {}
    kinds: ClassVar[tuple[type[A.Action], ...]] = ()  # the action classes it plays
    # verb -> parser of the words after it (actions.parse_action reads them)
    verbs: ClassVar[dict[str, Callable[[list[str]], A.Action]]] = {}
    usage: ClassVar[tuple[str, ...]] = ()  # its actions' text, for the usage line ("slap <card> on <n>")
    help: ClassVar[tuple[tuple[str, str], ...]] = ()  # (example, what it does) for a terminal player's help
    # tonk diff's sentences where the construct's key is added or removed whole (see changed)
    added_words: ClassVar[str] = ""
    removed_words: ClassVar[str] = ""
    facts: frozenset[str] = frozenset()  # (a construct whose facts depend on its settings sets them when built)

    @classmethod
    def build(cls, rs: "Ruleset") -> "TurnRule | None":
        """This construct's settings in ``rs``, or ``None`` when ``rs`` does not use it (its key
        absent; a construct whose use is decided otherwise overrides this)."""
        section = cls.section(rs)
        return None if section is None else cls.from_section(section)

    @classmethod
    def from_section(cls, section: Any) -> "TurnRule":
        """The construct made from its key's section (its expressions compiled by the loader)."""
        raise NotImplementedError

    @classmethod
    def section(cls, rs: "Ruleset") -> Any:
        """The construct's key in ``rs``, its expressions compiled: a mapping, or a list of
        entries for a list key (None when absent)."""
        return rs.constructs.get(cls.key)

    # --- at play (called only when a subclass defines them) -------------------------------
    def options(self, st: "State", seat: int) -> list[A.Action]:
        """What ``seat`` may play of this construct now (out of turn, or before the turn)."""
        return []

    def at_start(self, st: "State", seat: int) -> list[A.Action]:
        """What the player to move may play of this construct at the start of their turn, besides
        drawing (another way to draw)."""
        return []

    def in_play(self, st: "State", seat: int, offered: "A.ActionList") -> list[A.Action]:
        """What the player to move may play of this construct after their draw, besides
        ``offered`` (the turn's own spreads, hits and discards; ``offered.discard_cards`` are the
        cards they may discard now)."""
        return []

    def play(self, st: "State", seat: int, action: A.Action) -> None:
        """Apply one of ``kinds``; raise IllegalAction with the reason in a player's words."""
        raise NotImplementedError

    def discarded(self, st: "State", seat: int, card: int) -> None:
        """After ``seat`` discarded ``card`` and the next turn began (the hand goes on)."""

    def drew(self, st: "State", seat: int, card: int, from_discard: bool) -> None:
        """After ``seat`` drew ``card`` (from the discard pile, or the stock), before it joins the hand."""

    def laid(self, st: "State", seat: int, cards: Sequence[int]) -> None:
        """After the player to move laid ``cards`` as a spread in their turn."""

    def windows(self) -> "tuple[Window, ...]":
        """The moments it asks the players other than the one to move whether they act (read once)."""
        return ()

    def refuses_spread(self, st: "State", seat: int, cards: Sequence[int]) -> str | None:
        """Why the player to move may not lay ``cards`` as a spread now, in their words (None: it
        does not refuse it). The turn offers only the spreads no construct refuses."""
        return None

    def refuses_hit(self, st: "State", seat: int, cards: Sequence[int] | None) -> str | None:
        """Why ``seat`` may not play ``cards`` onto a spread now (None: it does not refuse it;
        ``cards`` None: whatever the cards, where they are not known yet)."""
        return None

    def refuses_discard(self, st: "State", seat: int, card: int | None) -> str | None:
        """Why the player to move may not end their turn with a discard of ``card`` yet (None: they
        may; ``card`` None: with any discard, as the turn lists them; a construct that then allows
        some cards offers their discards itself, in ``in_play``)."""
        return None

    def multiplier(self, st: "State", kind: str, ctx: "EvalContext") -> int:
        """How many times the hand that ends now (``kind``, its roles in ``ctx``) counts: every
        payment between players and every score point (1: as written). Its rules taken go into
        ``st.rules_taken``."""
        return 1

    def owes_draw(self, st: "State", seat: int) -> bool:
        """Whether ``seat``, the player to move, done playing, still draws before the turn passes:
        a construct that defines this makes the draw the last step of the turn (no draw is
        offered at its start; the player plays and discards first, then draws from the stock)."""
        return False

    def take_refused_drop(self, st: "State", seat: int) -> None:
        """``seat`` dropped at the start of their turn where turn.drop.allowed does not allow it:
        a construct that defines this takes the drop instead of the turn refusing it (and, say,
        punishes it); the turn then offers such drops too."""

    def close(self, st: "State", seat: int, this_turn: bool) -> bool:
        """A drop by ``seat``: True when the construct decides it later (it set ``st.closing``);
        ``this_turn``: the turn being played counts as the first after the drop (a drop out of
        turn, before the player to move is done). False: the drop is decided now."""
        return False

    def guards(self) -> tuple[Guard, ...]:
        """Its conditions on the player to move's own actions (read once, into the turn's table)."""
        return ()

    def stock_cards(self) -> int:
        """The most cards one of its actions takes from the top of the stock (a buy's penalty
        cards): a game that decides the stock's cards only as they are taken (the OpenSpiel
        game's chance nodes) decides that many ahead."""
        return 0

    # --- for the tools -------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        """Its rules-sheet sentences (``words(source, subject)`` turns an expression into plain words; ``never``: the
        player to move's own actions the ruleset never allows, of which nothing is said: spread, hit, drop,
        play_after_draw)."""
        return []

    @classmethod
    def entry_words(cls, entry: dict[str, Any], words: Words) -> str | None:
        """One entry of a list construct in words (``tonk diff`` says each entry added, removed or
        changed so); None for a construct that is not a list."""
        return None

    @classmethod
    def changed(cls, old: Any, new: Any) -> str | None:
        """``tonk diff``'s sentence for a change of a construct whose key is one value (None: not
        written); None: the key's description with the old and new values. By default, where the
        key is added or removed whole, the construct's ``added_words`` or ``removed_words``."""
        if old is None and cls.added_words:
            return cls.added_words
        if new is None and cls.removed_words:
            return cls.removed_words
        return None

    @classmethod
    def where(cls, rs: "Ruleset", fact: str) -> tuple[str | int, ...] | None:
        """The key of ``rs`` that makes ``fact`` true, for a finding's related location (None: not this one)."""
        return None

    @classmethod
    def ending_of(cls, rs: "Ruleset", path: tuple[Any, ...]) -> str | None:
        """The ending whose moment the expression at ``path`` (one of its keys) is evaluated at,
        where it is one ending (a rule asked only as a hand ends so): lint reads the facts of that
        moment there, as in the ending's own keys (None: not one of its keys, or not one ending)."""
        return None

    @classmethod
    def fired(cls, rs: "Ruleset") -> list[tuple[str, str, tuple[str | int, ...]]]:
        """(id, what, path) of each of its rules the outcome names when it is taken (lint's witness
        search looks for a hand where each happens)."""
        return []

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        """What lint says of this construct in ``rs`` (``facts``: what the whole ruleset makes possible)."""
        return []

    @classmethod
    def narrows(cls, rs: "Ruleset") -> list[Narrowing]:
        """Its conditions that narrow one of the ruleset's (lint's guard-changes-nothing reads them)."""
        return []

    @classmethod
    def action_texts(cls, cards: Sequence[str], max_spreads: int) -> list[str]:
        """Every action text of this construct over these card names (a fixed action space)."""
        return []


def needs_draw_from(rule: type[TurnRule], rs: "Ruleset", source: str, what: str) -> list[Finding]:
    """A construct about a draw from ``source`` (stock, discard) where the player to move never
    draws from it: lint's warning at the construct's key (``what`` says what the rule does)."""
    if rule.section(rs) is None or source in rs.draw_from:
        return []
    never = "never draws from the stock" if source == "stock" else "may only draw from the stock"
    return [Finding("rule-for-disabled", "warning", f"{what}, but the player to move {never} (turn.draw.from)",
                    (rule.key,), (("turn", "draw", "from"),), hint="draw from: [stock, discard]")]


class OnTheDiscard(TurnRule):
    """A construct played on the last discard, out of turn, until the next player draws (a slap,
    a buy): it opens the discard after each discard and closes it at the draw."""

    def discarded(self, st: "State", seat: int, card: int) -> None:
        st.pending = OpenDiscard(card, seat)

    def drew(self, st: "State", seat: int, card: int, from_discard: bool) -> None:
        if isinstance(st.pending, OpenDiscard):
            st.pending = None  # the next player drew: the discard is no longer open to others


def _overrides(rule: TurnRule, name: str) -> bool:
    return getattr(type(rule), name) is not getattr(TurnRule, name)


class Plan:
    """A ruleset's constructs, sorted by the steps they act at. Most rulesets use none: each
    hook of the turn is then one test of an empty tuple."""

    __slots__ = ("rules", "by_kind", "offering", "in_play", "on_discard", "on_draw", "facts", "stock_cards", "windows",
                 "closing", "spread_refusers", "hit_refusers", "discard_refusers", "multiplying",
                 "on_laid", "starting", "taking_refused_drops", "drawing_last")

    def __init__(self, rules: Iterable[TurnRule]) -> None:
        self.rules = tuple(rules)
        self.by_kind: dict[type, TurnRule] = {k: r for r in self.rules for k in r.kinds}
        self.offering = tuple(r for r in self.rules if _overrides(r, "options"))
        self.in_play = tuple(r for r in self.rules if _overrides(r, "in_play"))  # offered after the draw
        self.starting = tuple(r for r in self.rules if _overrides(r, "at_start"))  # offered before it
        self.on_discard = tuple(r for r in self.rules if _overrides(r, "discarded"))
        self.on_draw = tuple(r for r in self.rules if _overrides(r, "drew"))
        self.on_laid = tuple(r for r in self.rules if _overrides(r, "laid"))
        self.facts = frozenset().union(*(r.facts for r in self.rules))
        self.stock_cards = max((r.stock_cards() for r in self.rules), default=0)  # TurnRule.stock_cards
        self.windows = tuple(w for r in self.rules for w in r.windows())
        self.closing = tuple(r for r in self.rules if _overrides(r, "close"))  # a drop may be decided later
        self.spread_refusers = tuple(r for r in self.rules if _overrides(r, "refuses_spread"))
        self.hit_refusers = tuple(r for r in self.rules if _overrides(r, "refuses_hit"))
        self.discard_refusers = tuple(r for r in self.rules if _overrides(r, "refuses_discard"))
        self.multiplying = tuple(r for r in self.rules if _overrides(r, "multiplier"))  # a hand counted double
        self.taking_refused_drops = tuple(r for r in self.rules if _overrides(r, "take_refused_drop"))  # a drop not allowed, taken
        self.drawing_last = tuple(r for r in self.rules if _overrides(r, "owes_draw"))  # the draw ends the turn

    def options(self, st: "State", seat: int) -> list[A.Action]:
        out: list[A.Action] = []
        for rule in self.offering:
            out += rule.options(st, seat)
        return out

    def close(self, st: "State", seat: int, this_turn: bool) -> bool:
        """A drop by ``seat``: True when a construct decides it later (TurnRule.close)."""
        return any(rule.close(st, seat, this_turn) for rule in self.closing)

    def multiplier(self, st: "State", kind: str, ctx: "EvalContext") -> int:
        """How many times the hand ending now counts (the constructs' multipliers together)."""
        times = 1
        for rule in self.multiplying:
            times *= rule.multiplier(st, kind, ctx)
        return times

    def spread_refusal(self, st: "State", seat: int, cards: Sequence[int]) -> str | None:
        """The first construct's refusal of laying ``cards`` as a spread now, or None."""
        return next((why for r in self.spread_refusers if (why := r.refuses_spread(st, seat, cards)) is not None), None)

    def hit_refusal(self, st: "State", seat: int, cards: Sequence[int] | None = None) -> str | None:
        """The first construct's refusal of a hit by ``seat`` (of ``cards``, where known) now, or None."""
        return next((why for r in self.hit_refusers if (why := r.refuses_hit(st, seat, cards)) is not None), None)

    def owes_draw(self, st: "State", seat: int) -> bool:
        """Whether the player to move draws before their turn passes (TurnRule.owes_draw)."""
        return any(rule.owes_draw(st, seat) for rule in self.drawing_last)

    def start_options(self, st: "State", seat: int) -> list[A.Action]:
        """What the constructs offer the player to move at the start of their turn."""
        out: list[A.Action] = []
        for rule in self.starting:
            out += rule.at_start(st, seat)
        return out

    def discard_refusal(self, st: "State", seat: int, card: int | None = None) -> str | None:
        """The first construct's refusal of ending the turn with a discard (of ``card``) now, or None."""
        return next((why for r in self.discard_refusers if (why := r.refuses_discard(st, seat, card)) is not None),
                    None)

    def play_options(self, st: "State", seat: int, offered: "A.ActionList") -> list[A.Action]:
        out: list[A.Action] = []
        for rule in self.in_play:
            out += rule.in_play(st, seat, offered)
        return out
