"""Who may act, and when, besides the player to move: the asking of the ruleset's windows.

A window (:class:`Window`) is data: at which moments of a hand (after the deal, at the start of
a turn, after a draw, after a discard), which players (a set about the player to move), on which
condition, may do which kind of action. Eating the last discard (``turn.eat``) is one window;
constructs add more (``TurnRule.windows``: a drop at any time, folding, a demand), each with the
kinds of action it brings (tonkdsl/interpreter/rules/).

At a moment with windows the players they name are asked one at a time, from the left of the
player to move (after a draw or a discard: of the player who drew or discarded; after the deal
and at the start of a turn the player to move is asked first, if named). Each answers with an
action offered to them or ``pass``; a player further down the line may answer at once (those
asked before pass), and the player to move taking their own turn means everyone passes, as at a
real table. No one is asked in the last round after a drop.

Each kind of action is a small record (:class:`Kind`): when it is offered beyond the window's
condition, what it does, and whether it ends the asking. A new kind is a record in the construct
that offers it; a new house rule of a known kind is a window in YAML.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.grouping import grouped
from tonkdsl.interpreter.table import ASK, START, IllegalAction

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.expr import Compiled


class Asking:
    """One moment's asking: where it is, who is still to be asked, and who may be asked."""

    __slots__ = ("at", "ref", "mover", "queue", "members", "resume")

    def __init__(self, at: str, ref: int, mover: int, queue: list[int],
                 members: tuple[tuple["Window", frozenset[int]], ...], resume: str) -> None:
        self.at = at  # the moment: after_deal, turn_start, after_draw, after_discard
        self.ref = ref  # the player the moment is about: to move, or who drew or discarded
        self.mover = mover  # whose own turn action means everyone passes
        self.queue = queue  # the players still to be asked, the one asked now first
        self.members = members  # each window of the moment, with the players it names
        self.resume = resume  # the phase the turn goes back to when nobody acts

    def copy(self) -> "Asking":
        return Asking(self.at, self.ref, self.mover, list(self.queue), self.members, self.resume)


@dataclass(frozen=True)
class Kind:
    """A kind of action a window may offer."""

    name: str  # as a ruleset writes it ("eat", "fold")
    action: A.Action
    words: str  # what the player may do, for a refusal: "eat the last discard"
    offered: Callable[["State", int, Asking], bool]  # beyond the window's own condition
    do: Callable[["State", int, Asking], None]
    ends_asking: bool  # False: the others are still asked (a fold)
    endings: tuple[str, ...] = ()  # the endings it can bring about (lint asks that each has a rule)
    moments: tuple[str, ...] = ("after_deal", "turn_start", "after_draw", "after_discard")  # where it can be offered
    draws_discard: bool = False  # it makes the player to move take the discard as their draw (turn.draw.from must allow it)


@dataclass(frozen=True)
class Window:
    """Who may act, and when, besides the player to move: at each moment of ``at`` the players
    of ``by`` (a set about the player to move) for whom ``when`` holds are asked in turn whether
    they take an action of ``kind``.

    ``id`` names a rule of the file (taking it is recorded in the outcome's rules fired); the
    window a shorter key stands for (turn.eat) has none."""

    kind: Kind
    at: frozenset[str]
    by: "Compiled | None"  # None: everyone but the player to move
    when: "Compiled | None"  # None: always
    id: str | None = None


def in_hand(state: "State") -> list[int]:
    """The players who have not folded."""
    out = state.sitting_out
    return [s for s in range(state.num_players) if not out >> s & 1]


def open_at(state: "State", at: str, ref: int) -> bool:
    """Ask the players the windows of ``at`` name, about ``ref``. False when nobody may act
    (the hand goes on as if there were no window)."""
    if state.closing is not None or state._outcome is not None:
        return False  # nobody is asked while the hand closes after a drop (its last round)
    windows = [w for w in state.melds.windows if at in w.at]
    if not windows:
        return False
    n = state.num_players
    out = state.sitting_out
    members = []
    for w in windows:
        named = (state._eval(w.by, state._ctx(actor=ref)) if w.by is not None
                 else [s for s in range(n) if s != ref])
        members.append((w, frozenset(s for s in named if s >= 0 and not out >> s & 1)))
    if at in ("after_draw", "after_discard"):  # from the left of who drew or discarded; them last
        order = [(ref + k) % n for k in range(1, n + 1)]
        mover = next((s for s in order if not out >> s & 1), ref) if at == "after_discard" else ref
    else:  # the player to move first
        order = [(ref + k) % n for k in range(n)]
        mover = ref
    everyone = frozenset().union(*(m for _, m in members))
    state.asking = Asking(at, ref, mover, [s for s in order if s in everyone], tuple(members), state.phase)
    return _advance(state)


def offers(state: "State", seat: int) -> list[Window]:
    """The windows whose action ``seat`` may take now."""
    asking = state.asking
    if asking is None or seat not in asking.queue:
        return []
    return [w for w, named in asking.members if seat in named
            and (w.when is None or state._test(w.when, seat)) and w.kind.offered(state, seat, asking)]


def options(state: "State", seat: int | None = None, with_pass: bool = True) -> A.ActionList:
    """What the player asked now (or ``seat``, further down: those before them pass) may answer:
    the actions offered, then ``pass`` (only the player asked now passes)."""
    seat = state.out_of_turn_seat if seat is None else seat
    kinds = dict.fromkeys(w.kind for w in offers(state, seat)) if seat is not None else {}
    return grouped([*(k.action for k in kinds), *([_PASS] if with_pass else [])])


def is_offered(state: "State", seat: int, action: A.Action) -> bool:
    """Whether ``action`` is an answer offered to ``seat`` now."""
    kind = type(action)
    return any(type(w.kind.action) is kind for w in offers(state, seat))


def may_act(state: "State", seat: int, action: A.Action) -> bool:
    """Whether ``seat`` may play ``action`` while others are asked: an answer offered to them,
    or the player to move's own turn action (then everyone passes)."""
    asking = state.asking
    if asking is None or state.phase != ASK:
        return False
    return is_offered(state, seat, action) or (seat == asking.mover and not isinstance(action, A.Pass))


def answer(state: "State", seat: int, action: A.Action) -> None:
    """``seat`` takes an action offered to them (those asked before them pass)."""
    asking = state.asking
    window = next((w for w in offers(state, seat) if type(w.kind.action) is type(action)), None)
    if asking is None or window is None:
        raise IllegalAction(refusal(state, seat, action))
    if window.id is not None:
        state.rules_taken.append(window.id)
    kind = window.kind
    if kind.ends_asking:
        state.asking = None
        state.out_of_turn_seat = None
        kind.do(state, seat, asking)
        return
    asking.queue.remove(seat)
    kind.do(state, seat, asking)
    if state._outcome is None and not _advance(state):
        close(state, asking)


def pass_turn(state: "State", seat: int) -> None:
    """``seat`` passes: the next player named is asked, or the hand goes on."""
    asking = state.asking
    if asking is None or seat not in asking.queue:
        raise IllegalAction("there is nothing to pass on now")
    asking.queue.remove(seat)
    if not _advance(state):
        close(state, asking)


def close_for_mover(state: "State") -> None:
    """The player to move takes their own turn: everyone still to be asked passes."""
    asking = state.asking
    if asking is not None:
        asking.queue.clear()
        state.asking = None
        close(state, asking)


def refusal(state: "State", seat: int, action: A.Action) -> str:
    """Why ``action`` is not an answer now, in a player's words."""
    if state.asking is None or state.phase != ASK:
        if isinstance(action, A.Eat):
            return "there is no discard to eat now"
        if isinstance(action, A.Fold):
            return "you may not fold now"
        return "there is nothing to pass on now"
    if seat != state.out_of_turn_seat and not offers(state, seat):
        return "you are not asked now"
    kinds = list(dict.fromkeys(w.kind for w in offers(state, seat)))
    if kinds == [EAT]:  # the words players know from eating, kept as they were
        return "you may eat the last discard or pass ('eat' or 'pass')"
    words = [k.words for k in kinds]
    said = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else (words[0] if words else "")
    quoted = " or ".join(f"'{k.action}'" for k in kinds)
    return f"you may {said} or pass ({quoted} or 'pass')" if kinds else "you may only pass ('pass')"


def _advance(state: "State") -> bool:
    """Ask the next player who may act; False (and no asking) when nobody is left."""
    asking = state.asking
    assert asking is not None
    queue = asking.queue
    while queue and not offers(state, queue[0]):
        del queue[0]
    if not queue:
        state.asking = None
        state.out_of_turn_seat = None
        return False
    state.out_of_turn_seat = queue[0]
    state.phase = ASK
    return True


def close(state: "State", asking: Asking) -> None:
    """Nobody else acts: the hand goes on from the moment it was asked at."""
    state.asking = None
    state.out_of_turn_seat = None
    if asking.at == "after_discard":  # the next turn, as after any discard
        state.phase = START
        discarder, card = state.current, state.discard_pile[-1]
        state._next_turn()
        if state._outcome is None:
            state._discard_passed(discarder, card)
        return
    state.phase = asking.resume
    if state.sitting_out >> state.current & 1:  # the player to move folded: their turn is over
        state._next_turn()
        return
    if asking.at == "after_deal":  # the first turn begins
        state._first_turn_begins()


# --- the kinds of action ------------------------------------------------------------------------
def _may_eat(state: "State", seat: int, asking: Asking) -> bool:
    card = state.discard_pile[-1]
    rs = state.ruleset
    # A card eaten is a card taken from the discard pile: where that must be used (eat.spread_at_once,
    # turn.draw.discard_must_be_used) or nothing else could be discarded, it is offered only
    # where it fits at once, else the eater would hold a card they can neither keep nor play.
    if not (rs.eat_spread_at_once or rs.discard_must_be_used) and not state._stuck_with_twins(seat, card):
        return True
    # The card must go into a spread (or onto one) at once. Where a condition on spreads or hits
    # reads the state, it is asked of a twin that has eaten: the turn passed to the eater first.
    taken = None
    stuck = state._stuck_with_twins(seat, card)
    if state.melds.play_conditions or stuck:
        taken = state.clone()
        taken.asking = None
        taken.out_of_turn_seat = None
        _eat(taken, seat, asking)
    # With only the card's twins in hand none may be discarded: every card must be played out,
    # and one fitting is not enough (TurnRules._plays_on_after).
    return state._fits_at_once(seat, card, taken) and (not stuck or state._plays_on_after(taken))


def _eat(state: "State", seat: int, asking: Asking) -> None:
    n = state.num_players
    discarder = asking.ref
    card = state.discard_pile.pop()
    state.phase = START
    # The players between the discarder and the eater lose their turn: the turn moves on as if
    # from the player just before the eater (a round ends if play passes the first seat).
    skipped = [(discarder + k) % n for k in range(1, (seat - discarder) % n)]
    if state.first_seat in skipped:
        state.round_number += 1
    state.current = (seat - 1) % n
    state._next_turn()
    if state._outcome is not None:
        return
    if state.asking is not None:  # the eat was this turn's start: nobody is asked before it any more
        state.asking = None
        state.out_of_turn_seat = None
        state.phase = START
    state._draw(seat, card, True)
    state.eaten_turn = state.turn_number


_PASS = A.Pass()
# Eating the last discard (turn.eat): the one kind the turn's own keys offer; the constructs
# bring the others (TurnRule.windows).
EAT = Kind("eat", A.Eat(), "eat the last discard", _may_eat, _eat, True)


def eating(when: "Compiled") -> Window:
    """The window of turn.eat: after each discard, every other player for whom ``when`` holds."""
    return Window(EAT, frozenset({"after_discard"}), None, when)


__all__ = ["EAT", "Asking", "Kind", "Window", "answer", "close", "close_for_mover", "eating", "in_hand", "may_act",
           "open_at", "offers", "options", "pass_turn", "refusal", "is_offered"]
