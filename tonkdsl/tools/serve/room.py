"""One table of `tonk serve`: a game of people and bots, the seats people hold, and what each
seat may see. No web code here: the app (app.py) turns messages into calls and snapshots into
messages, so the rules of the table are tested without a server.

Hidden information never leaves this module: :meth:`Room.snapshot` builds what one seat may see
from that seat's :class:`View` (its own hand; for the others only how many cards they hold) and
public facts (spreads, the discard pile, money, the log of actions, which names no card drawn
from the stock).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import IllegalAction, RulesetError
from tonkdsl.interpreter.view import observation
from tonkdsl.tools.play import HUMAN, Game, parse_input

LOG_LINES = 14  # public lines kept for the page


class Refused(Exception):
    """A message the table does not take; its text is shown to the person who sent it."""


@dataclass
class Seat:
    index: int  # the seat in the game (0-based)
    name: str
    token: str | None = None  # the secret a browser keeps to hold this seat across reloads


@dataclass
class Room:
    game: Game
    code: str = field(default_factory=lambda: secrets.token_urlsafe(6))
    table_id: str = field(default_factory=lambda: secrets.token_urlsafe(6))
    log: list[str] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)

    def __post_init__(self) -> None:
        g = self.game
        self.seats = [Seat(i, g.names[i]) for i, kind in enumerate(g.seats) if kind == HUMAN]
        if g.state is None and not g.session.is_over():
            self._start_hand()

    # --- seats ------------------------------------------------------------------------------
    def join(self, code: str | None, token: str | None) -> Seat:
        """The seat of a returning browser (by its token), else a free seat for one with the code."""
        if token:
            for seat in self.seats:
                if seat.token is not None and secrets.compare_digest(seat.token, token):
                    return seat
        if not isinstance(code, str) or not secrets.compare_digest(code, self.code):
            raise Refused("this table needs its join code: ask the person who started it for the link")
        for seat in self.seats:
            if seat.token is None:
                seat.token = secrets.token_urlsafe(16)
                return seat
        raise Refused("every seat at this table is taken")

    # --- play -------------------------------------------------------------------------------
    def _start_hand(self) -> None:
        g = self.game
        state = g.start_hand()
        dealer = g.hand_names()[state.dealer]
        self._say(f"Hand {g.session.index + 1}: {dealer} deals.")

    def _say(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LINES]

    def act(self, seat: Seat, text: Any) -> None:
        """Apply the action ``text`` for ``seat``, or raise Refused with the engine's reason."""
        g = self.game
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise Refused("an action is a short text such as 'draw stock' or 'discard 5S'")
        if text.strip() == "next hand":
            return self.next_hand()
        state = g.state
        if state is None or state.is_terminal():
            raise Refused("the hand is over: deal the next one")
        here = self.local_seat(seat)
        if here is None:
            raise Refused("you are out of the match")
        legal = state.legal_actions() if state.current_player() == here else []
        try:
            action = parse_input(text, legal) if legal else A.parse_action(text)
            g.apply(here, action)
        except (A.ActionSyntaxError, IllegalAction) as exc:
            raise Refused(f"not possible: {exc}") from None
        self._say(f"{seat.name}: {action}")
        self._after_action()

    def next_hand(self) -> None:
        g = self.game
        if g.state is not None and not g.state.is_terminal():
            raise Refused("the hand is still being played")
        if g.state is not None:
            out = g.finish_hand()
            for s in out:
                self._say(f"{g.names[s]} is out of the match.")
        if g.session.is_over():
            raise Refused("the game is over")
        self._start_hand()

    def _after_action(self) -> None:
        state = self.game.state
        if state is not None and state.is_terminal():
            out = state.outcome()
            assert out is not None
            names = self.game.hand_names()
            winners = ", ".join(names[w] for w in out.winners) or "nobody"
            self._say(f"The hand ends ({out.end.replace('_', ' ')}): {winners} won.")

    def bot_to_play(self) -> bool:
        """Whether the seat to act is a bot's."""
        g = self.game
        state = g.state
        if state is None or state.is_terminal():
            return False
        return g.seats[g.session.seats[state.current_player()]] != HUMAN

    def bot_step(self) -> None:
        """One bot action (the caller waits between steps so that people can follow)."""
        g = self.game
        state = g.state
        assert state is not None
        seat = state.current_player()
        action = g.bot(seat)(observation(state, seat), state.legal_actions(), g.bot_rng())
        g.apply(seat, action)
        self._say(f"{g.hand_names()[seat]}: {action}")
        self._after_action()

    def local_seat(self, seat: Seat) -> int | None:
        active = self.game.session.seats
        return active.index(seat.index) if seat.index in active else None

    # --- what a seat sees -------------------------------------------------------------------
    def snapshot(self, seat: Seat | None) -> dict[str, Any]:
        """Everything the person at ``seat`` may see (None: someone without a seat)."""
        g = self.game
        rs = g.ruleset
        session = g.session
        state = g.state
        data: dict[str, Any] = {
            "type": "state", "ruleset": rs.name, "table": self.table_id,
            "you": seat.name if seat else None, "log": list(self.log),
            "hand_number": session.index + (1 if state is not None else 0), "hands_total": g.hands,
            "game_over": state is None and session.is_over(), "points": rs.score_sheet != "money",
        }
        active = session.seats
        names = g.names
        if state is None:
            data["players"] = [{"name": names[i], "money": session.ledger[i], "score": session.scores[i],
                                "bot": g.seats[i] != HUMAN} for i in range(len(names))]
            return data
        pack_names = state.pack.names
        here = self.local_seat(seat) if seat else None
        view = observation(state, here) if here is not None else None
        current = state.current_player() if not state.is_terminal() else None
        out = state.outcome()
        data["players"] = [{
            "name": names[g_seat], "cards": len(state.hands[local]), "money": session.ledger[g_seat],
            "score": session.scores[g_seat], "dealer": local == state.dealer, "to_play": local == current,
            "bot": g.seats[g_seat] != HUMAN, "you": local == here,
        } for local, g_seat in enumerate(active)]
        data["hand"] = list(view.hand_names) if view is not None else []
        data["count"] = view.count if view is not None else None
        data["spreads"] = [{"number": i + 1, "owner": names[active[owner]], "cards": [pack_names[c] for c in cards]}
                           for i, (owner, cards) in enumerate((sp.owner, sp.cards) for sp in state.spreads)]
        data["discard"] = {"top": pack_names[state.discard_pile[-1]] if state.discard_pile else None,
                           "size": len(state.discard_pile)}
        data["stock"] = len(state.stock)
        data["stake"] = state.stake
        data["pot"] = state.pot if rs.ante is not None else None
        data["to_play"] = names[active[current]] if current is not None else None
        data["legal"] = [str(a) for a in state.legal_actions()] if current is not None and current == here else []
        if out is not None:
            data["over"] = {
                "end": out.end, "winners": [names[active[w]] for w in out.winners],
                "payouts": {names[active[s]]: v for s, v in enumerate(out.payouts)},
                "counts": {names[active[s]]: v for s, v in enumerate(out.counts)},
                "message": out.message,
            }
        return data

    def failed_rule(self, exc: RulesetError) -> None:
        self._say(f"The ruleset failed: {exc}")
