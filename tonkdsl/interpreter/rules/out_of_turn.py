"""Rules out of turn (``turn.out_of_turn``): actions by players other than the player to move,
and when: a drop at any time, folding before play, a demand that the player to move take the
discard. Each rule names the action (``do``), the moments its players are asked (``at``), who
may (``by``, a set about the player to move) and a condition (``when``).

Everything about these rules is here: their schema, the kinds of action they offer and what
each does, their windows (asking.py asks the players they name, one at a time), their
rules-sheet sentences and ``tonk diff`` words, what lint says of them and the facts they make
true, and the rules the outcome names when one is taken. The turn only asks the plan.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.asking import Asking, Kind, Window, close, close_for_mover, in_hand
from tonkdsl.interpreter.rules.base import (CLOSES_AFTER_DROP, DRAW_ENDS_TURN, DROPS_OUT_OF_TURN, FOLDS, Finding, Sentence, TurnRule,
                                            Words, rule_list)
from tonkdsl.interpreter.table import START

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import Ruleset


# --- the kinds of action ------------------------------------------------------------------------
def _always(state: "State", seat: int, asking: Asking) -> bool:
    return True


def _drop(state: "State", seat: int, asking: Asking) -> None:
    """A drop out of turn: decided at once, or after a last round that ends before the turn
    comes back to the dropper (the turn of the player to move, if not over, is its first)."""
    rs = state.ruleset
    if asking.at == "after_discard" and seat == asking.mover:  # the next player drops as their turn begins
        close(state, asking)
        close_for_mover(state)  # nobody else is asked before it
        if state._outcome is None:
            state._knock(seat)
        return
    if asking.at != "after_discard":
        state.phase = asking.resume
        if seat == state.current:  # the player to move's own drop
            state._knock(seat)
            return
    if rs.drop_lays_spreads:
        state._lay_best(seat)
    # Decided later where a construct says (its last round): the turn being played counts as
    # the round's first, unless the drop came after a discard (then the next turn is).
    if state.melds.plan.close(state, seat, asking.at != "after_discard"):
        if asking.at == "after_discard":
            close(state, asking)
        return
    state._drop(seat)


def _fold(state: "State", seat: int, asking: Asking) -> None:
    """``seat`` sits out the rest of the hand; the last player in ends it (others_folded), or
    the last side in (players.sides): partners never play a hand out against each other, and
    a rule about one's opponents would read an empty set. The actor is the first player in from
    the folder's left."""
    state.sitting_out |= 1 << seat
    if "folded" in state._listened:
        state._event("folded", seat)
    left = in_hand(state)
    if state._outcome is None and len({state.side_of[s] for s in left}) == 1:
        n = state.num_players
        state._end("others_folded", actor=min(left, key=lambda s: (s - seat) % n))


def _may_demand(state: "State", seat: int, asking: Asking) -> bool:
    """A demand is about the player to move, before they draw, and is offered on public facts
    only (a discard to take, a turn not begun): whether the card would go into a spread of
    theirs is in their hidden hand, so offering it only then would tell the others."""
    return (asking.at == "turn_start" and seat != asking.mover and asking.resume == START
            and bool(state.discard_pile) and "discard" in state.ruleset.draw_from)


_DRAW_DISCARD = A.DrawDiscard()


def _demand(state: "State", seat: int, asking: Asking) -> None:
    """The player to move takes the top discard as their draw, when it would go into a spread of
    theirs at once and they may take it; otherwise the demand is void and their turn goes on."""
    state.phase = asking.resume
    mover = asking.mover
    if state.discard_fits(mover) and state._can_draw_discard(mover):
        state._do_draw_discard(mover, _DRAW_DISCARD)


KINDS: dict[str, Kind] = {
    "drop": Kind("drop", A.Drop(), "drop out of turn", _always, _drop, True, ("drop_won", "drop_caught")),
    "fold": Kind("fold", A.Fold(), "fold (sit out the rest of the hand)", _always, _fold, False, ("others_folded",)),
    "demand": Kind("demand", A.Demand(), "demand that the player to move take the discard", _may_demand, _demand, True,
                   moments=("turn_start",), draws_discard=True),
}

# --- in words -------------------------------------------------------------------------------------
_MOMENT = {"after_deal": "once the cards are dealt, before the first turn",
           "turn_start": "at the start of each turn, before the player to move acts",
           "after_draw": "after the player to move draws",
           "after_discard": "after each discard, before the next turn"}
_DOES = {"drop": "drop out of turn",
         "fold": "fold: they sit out the rest of the hand (their turns are skipped, and they are not among the "
                 "players compared, paid or paying)",
         "demand": "demand that the player to move take the top discard as their draw (they must when it would go "
                   "into a spread at once, with cards of their hand or onto a spread on the table they may hit, "
                   "theirs or another's; otherwise the demand is void)"}
_FACT_OF = {"drop": DROPS_OUT_OF_TURN, "fold": FOLDS}


def _written(source: Any) -> str | None:
    return None if source is None else str(getattr(source, "source", source))


def _may_happen(when: Any) -> bool:
    """Whether a rule's condition is not written as false (or worked out to be): a rule that can
    never be taken makes nothing true, and the sheet says nothing of it."""
    return when is None or getattr(when, "constant", None) is not False


def _path(*rest: str | int) -> tuple[str | int, ...]:
    """Where a rule of turn.out_of_turn is written (its index, then a field)."""
    return ("turn", "out_of_turn", *rest)


class OutOfTurn(TurnRule):
    key = "turn.out_of_turn"
    named = r"\bout_of_turn\b"
    entry_name = "Rule out of turn"
    schema: ClassVar[dict[str, Any]] = rule_list(
        {
            "do": {"enum": ["drop", "fold", "demand"],
                   "description": "What the player may do: drop (knock out of turn: decided as a drop at once, or "
                                  "after the last round, where one follows a drop, which ends before the turn "
                                  "comes back to the dropper) or fold (sit out the rest of the hand: their turns are "
                                  "skipped and they are left out of players, others, lowest and min_count; when "
                                  "one player is left in, the hand ends with endings.others_folded). Or demand (at "
                                  "turn_start only: make the player to move take the top discard as their draw "
                                  "when it would go into a spread at once, with cards of their hand or onto a spread on the "
                                  "table they may hit (theirs or another's), and they may take it; "
                                  "otherwise the demand is void. Offered whenever there is a discard to take, so "
                                  "that the offer tells nothing of the hidden hand)."},
            "at": {"type": "array",
                   "items": {"enum": ["after_deal", "turn_start", "after_draw", "after_discard"]},
                   "uniqueItems": True, "minItems": 1,
                   "description": "When the players are asked: after_deal (once, after the automatic wins, before "
                                  "the first turn), turn_start (before the player to move acts), after_draw (after "
                                  "the player to move draws), after_discard (after a discard, before the next "
                                  "turn). The players are asked one at a time, from the left of the player to move "
                                  "(after a draw or a discard: of that player); the player to move taking their "
                                  "own turn means everyone passes."},
            "by": {"$ref": "#/$defs/players",
                   "description": "Who may: a set of players, with 'actor' the player to move (after a draw or "
                                  "discard: the player who drew or discarded). Default: others.",
                   "x-expr": {"type": "players", "roles": ["actor"], "subject": False}},
            "when": {"$ref": "#/$defs/condition",
                     "description": "A condition about the player who may act (actor is that player). "
                                    "Default: true.",
                     "x-expr": {"type": "bool", "roles": ["actor"]}},
        },
        ["do", "at"],
        "Actions by players other than the player to move, and when: a drop at any time, folding "
        "before play, a demand that the player to move take the discard. Each rule names the action, "
        "the moments, who may, and a condition.")

    def __init__(self, rules: tuple[Window, ...]) -> None:
        self.rules = rules
        self.facts = frozenset(_FACT_OF[w.kind.name] for w in rules
                               if w.kind.name in _FACT_OF and _may_happen(w.when))

    @classmethod
    def build(cls, rs: "Ruleset") -> "OutOfTurn | None":
        rules = tuple(Window(KINDS[str(e["do"])], frozenset(e.get("at") or ()), e.get("by"), e.get("when"),
                             str(e.get("id"))) for e in cls.section(rs) or () if str(e.get("do")) in KINDS)
        return cls(rules) if rules else None

    def windows(self) -> tuple[Window, ...]:
        return self.rules

    # --- for the tools ---------------------------------------------------------------------
    @staticmethod
    def rule_words(do: str, at: Any, by: str | None, when: str | None, words: Words) -> str:
        """One rule in words: "after each discard, ..., every other player may drop out of turn,
        when their count is at most 10" (the rules sheet, tonk diff)."""
        moments = " or ".join(_MOMENT[m] for m in sorted(at, key=list(_MOMENT).index) if m in _MOMENT)
        who, cond = ("every other player", None) if by is None else words.players(by)
        only = [] if when is None or str(when).strip() == "true" else [words(str(when), "they")]
        conds = " and ".join([*only, *([cond] if cond else [])])
        return f"{moments}, {who} may {_DOES.get(do, do)}" + (f", when {conds}" if conds else "")

    @classmethod
    def entry_words(cls, entry: dict[str, Any], words: Words) -> str | None:
        return f"{entry['id']}: " + cls.rule_words(str(entry.get("do", "?")), entry.get("at") or [],
                                                    _written(entry.get("by")), _written(entry.get("when")), words)

    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        """Who may act, when, besides the player to move; then how they are asked."""
        built = cls.build(rs)
        rules = [w for w in built.rules if _may_happen(w.when)] if built is not None else []
        if not rules:
            return []
        lines = ["Out of turn:"]
        for w in rules:
            lines.append(f"- {w.id}: " + cls.rule_words(w.kind.name, w.at, _written(w.by), _written(w.when), words)
                         + ".")
        asked = {m for w in rules for m in w.at}
        # At the deal and at a turn's start the player to move is asked first, when a rule names them
        # (a rule by every other player does not): the sentence says where the asking really starts.
        start = ("the player to move, when a rule names them, then from their left"
                 if any(w.by is not None for w in rules if set(w.at) & {"after_deal", "turn_start"})
                 else "the left of the player to move")
        first = (start if asked <= {"after_deal", "turn_start"} else
                 "the discarder's left" if asked == {"after_discard"} else
                 "the left of the player who drew" if asked == {"after_draw"} else
                 "the left of the player who drew or discarded" if asked <= {"after_draw", "after_discard"} else
                 f"{start} (after a draw or a discard: from that player's left)")
        mover = ("the next player" if asked == {"after_discard"} else "the player to move"
                 if "after_discard" not in asked else "the player to move (after a discard: the next player)")
        from tonkdsl.interpreter.rules import plan_for  # (the registry imports this module: read at sheet time)

        later = CLOSES_AFTER_DROP in plan_for(rs).facts  # a drop is decided after a last round
        lines.append(f"Those who may act out of turn are asked one at a time, starting from {first}. Each may act or "
                     f"pass. When {mover} takes their own turn, everyone still to be asked has passed."
                     + (" No one is asked in the last round after a drop." if later else ""))
        if any(w.kind.name == "drop" for w in rules):
            lines.append("A drop out of turn is decided as any drop" + (
                ", after the last round, which ends before the turn comes back to the dropper." if later else
                ", at once."))
        if any(w.kind.name == "fold" for w in rules):
            lines.append("When every other player has folded, the last player in ends the hand (see the endings).")
        return [Sentence("A turn", line) for line in lines]

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        """A rule offered at a moment its kind never is, a demand where the discard cannot be taken,
        and an ending the rule can bring about with no rule for it."""
        out: list[Finding] = []
        e = rs.endings
        drop_possible = rs.drop_allowed.source.strip() != "false"  # (the missing drop endings are said of turn.drop)
        for j, entry in enumerate(cls.section(rs) or ()):
            kind = KINDS.get(str(entry.get("do")))
            if kind is None:
                continue
            rid, here = entry.get("id"), _path(j)
            never = [m for m in entry.get("at") or () if m not in kind.moments]
            if never:  # the kind says where it can be offered: a moment outside them asks no one
                out.append(Finding("rule-for-disabled", "warning", f"'{rid}' lets a player {kind.words}, which is "
                                   f"offered only at {' or '.join(kind.moments)}: at {' and '.join(never)} it never is",
                                   here + ("at",), hint=f"at: [{', '.join(kind.moments)}]"))
            if DRAW_ENDS_TURN in facts and "after_draw" in (entry.get("at") or ()) and "after_draw" in kind.moments:
                # (the draw that ends the turn passes it on at once: nobody is asked in between)
                out.append(Finding("rule-for-disabled", "warning", f"'{rid}' is asked after the player to move "
                                   "draws, but here the draw ends the turn (a turn whose draw comes last): at "
                                   "after_draw it is never asked", here + ("at",),
                                   hint="ask it at turn_start or after_discard"))
            if kind.draws_discard and "discard" not in rs.draw_from:
                out.append(Finding("rule-for-disabled", "warning", f"'{rid}' lets a player {kind.words}, but the "
                                   "player to move may only draw from the stock (turn.draw.from): it is never offered",
                                   here + ("do",), (("turn", "draw", "from"),),
                                   hint="draw from: [stock, discard], or leave the rule out"))
            for ending in kind.endings:
                if ending not in e and not (ending.startswith("drop") and drop_possible):
                    out.append(Finding("ending-undefined", "error", f"'{rid}' lets a player {kind.words}, but there "
                                       f"is no rule for '{ending}'", here + ("do",),
                                       hint=f"add endings.{ending} (who wins, who pays)"))
        return out

    @classmethod
    def where(cls, rs: "Ruleset", fact: str) -> tuple[str | int, ...] | None:
        return next((_path(j, "do") for j, entry in enumerate(cls.section(rs) or ())
                     if _FACT_OF.get(str(entry.get("do"))) == fact), None)

    @classmethod
    def fired(cls, rs: "Ruleset") -> list[tuple[str, str, tuple[str | int, ...]]]:
        return [(str(e.get("id")), f"the rule out of turn '{e.get('id')}'", _path(j))
                for j, e in enumerate(cls.section(rs) or ())]
