"""One table of `tonk serve`: a game of people and bots, the seats people hold, and what each
seat may see. No web code here: the app (app.py) turns messages into calls and snapshots into
messages, so the rules of the table are tested without a server.

Hidden information never leaves this module: :meth:`Room.snapshot` builds what one seat may see
from that seat's :class:`View` (its own hand; for the others only how many cards they hold) and
public facts (spreads, the discard pile, money, the log of actions, which names no card drawn
from the stock).
"""
from __future__ import annotations

import json
import re
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import IllegalAction, RulesetError
from tonkdsl.interpreter.view import observation
from tonkdsl.interpreter.rules import plan_for
from tonkdsl.interpreter.table import ASK, VOID
from tonkdsl.tools.bots import policy
from tonkdsl.tools.explain.words import words
from tonkdsl.tools.screen import in_hand_order
from tonkdsl.language.rng import derive_seed
from tonkdsl.tools.serve.reactions import Reactions
from tonkdsl.tools.serve.thinking import BotTurn
from tonkdsl.tools.files import write_atomic
from tonkdsl.tools.play import (HUMAN, PLAYER_NAME, Game, ClosingNotices, closing_notice, new_table,
                                parse_input, void_reason)

LOG_LINES = 14  # public lines kept for the page
STAND_IN = "greedy"  # the bot that plays the seat of a person whose time ran out, until they return
AWAY_GRACE = 30.0  # seconds a disconnected person's turn waits before the stand-in plays it


# How the page names the sides of a partnership game: side A (the first seat's), side B, ...
SIDE_LETTERS = "ABCDEF"

class Refused(Exception):
    """A message the table does not take; its text is shown to the person who sent it.
    ``changed``: the table changed all the same (the others are shown it)."""

    def __init__(self, message: str, changed: bool = False) -> None:
        super().__init__(message)
        self.changed = changed


@dataclass
class Seat:
    index: int  # the seat in the game (0-based)
    name: str
    # The secret of this seat: a browser keeps it to hold the seat across reloads, and the
    # person's own seat link carries it to another device. Made with the table, so that a
    # restart (--resume) keeps it.
    token: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    claimed: bool = False  # someone took the seat with the join code (or its link)
    ready: bool = False  # pressed Ready in the lobby (the game starts when every person is)


# "total >= 100", "max(players.total) >= 250": the number a score sheet plays to.
_TARGET = re.compile(r"\btotal\)?\s*(>=|>)\s*(\d+)\b")


class IdentityError(ValueError):
    """A table file (the link, the code and the seats of a saved table) that cannot be used."""


@dataclass
class Room:
    game: Game
    code: str = field(default_factory=lambda: secrets.token_urlsafe(6))
    table_id: str = field(default_factory=lambda: secrets.token_urlsafe(6))
    log: list[str] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    # Where the table's link, code and seat secrets are kept next to a save (--save), so that a
    # restart with --resume keeps every link and seat; None: not kept.
    identity_path: Path | None = None
    turn_time: float | None = None  # seconds a person has for a turn before the stand-in plays it
    connected: set[int] = field(default_factory=set)  # the seats some browser holds now
    away: set[int] = field(default_factory=set)  # seats the stand-in plays until their person acts
    turn_started: float = field(default_factory=time.monotonic)
    last_over: dict[str, Any] | None = None  # the last hand's end, kept for the final standings
    # The last action of the hand, for the page to mark it: who, the action, what it touched.
    last_move: dict[str, Any] | None = None
    # Each player's last action this hand (by name), shown at their seat: three bot moves in a
    # row are three seats that say what each did, not one line that only says the last.
    last_actions: dict[str, str] = field(default_factory=dict)
    # The card a person last drew, shown marked to them alone while it is still their turn:
    # (session seat, hand index, turn number, card name).
    drawn: tuple[int, int, int, str] | None = None
    _last_hand_memo: tuple[int, bool] | None = None
    notices: ClosingNotices = field(default_factory=ClosingNotices)  # a last round, said once
    # A new table waits in its lobby until every person's seat is taken or the host (the first
    # person's seat) starts it; False: the first hand is dealt at once (a resumed game never waits).
    lobby: bool = True
    started: bool = False
    reactions: Reactions = field(default_factory=Reactions)

    def __post_init__(self) -> None:
        g = self.game
        if not self.seats:
            self.seats = [Seat(i, g.names[i]) for i, kind in enumerate(g.seats) if kind == HUMAN]
        if self.identity_path is not None and self.identity_path.exists():
            self._load_identity(self.identity_path)
        self._save_identity()
        self.started = self.started or not self.lobby or bool(g.deals)
        if self.started and g.state is None and not g.session.is_over():
            self._start_hand()

    # --- the table's identity: link, code, seats --------------------------------------------
    def identity(self) -> dict[str, Any]:
        return {"table": self.table_id, "code": self.code,
                "seats": [{"name": s.name, "token": s.token, "claimed": s.claimed} for s in self.seats]}

    def _save_identity(self) -> None:
        path = self.identity_path
        if path is None:
            return
        # atomic, and readable by its owner only: it holds every seat's secret
        write_atomic(path, json.dumps(self.identity(), indent=1), private=True)

    def _load_identity(self, path: Path) -> None:
        """The link, code and seats of the table a save was played at (checked: a wrong file is
        refused, never half used)."""
        def bad(why: str) -> IdentityError:
            return IdentityError(f"{path}: {why}; delete it to open the table with a new link and new seats")
        try:
            data = json.loads(path.read_text(encoding="utf-8")[:100_000])
        except (OSError, ValueError, RecursionError) as exc:
            raise bad(f"not a table file ({exc})") from None
        def ok_text(v: Any) -> bool:
            return isinstance(v, str) and v.isascii() and 0 < len(v) <= 100 and v.isprintable()
        if not isinstance(data, dict) or not ok_text(data.get("table")) or not ok_text(data.get("code")):
            raise bad("'table' and 'code' must be the texts of the table's link")
        seats = data.get("seats")
        if not isinstance(seats, list):
            raise bad("its seats are not the people's seats of the saved game")
        saved_names = [s.get("name") if isinstance(s, dict) else None for s in seats]
        if saved_names != [s.name for s in self.seats] and not self._lobby_names(saved_names):
            raise bad("its seats are not the people's seats of the saved game")
        if not all(ok_text(s.get("token")) and isinstance(s.get("claimed"), bool) for s in seats):
            raise bad("each seat needs its 'token' (text) and 'claimed' (true or false)")
        tokens = [s["token"] for s in seats]
        if len(set(tokens)) != len(tokens) or data["code"] in tokens:
            # One seat's link would take another's seat: the file was damaged or edited.
            raise bad("two seats share one secret (or a seat's secret is the join code)")
        self.table_id, self.code = data["table"], data["code"]
        for seat, saved in zip(self.seats, seats):
            seat.token, seat.claimed = saved["token"], saved["claimed"]

    def _lobby_names(self, names: list[Any]) -> bool:
        """A table stopped in its lobby, before its first hand, opens again as it was: its people
        keep the names they chose there (checked as a name typed in the lobby is)."""
        g = self.game
        if g.deals or len(names) != len(self.seats):
            return False
        bots = {n.lower() for i, n in enumerate(g.names) if g.seats[i] != HUMAN}
        if not all(isinstance(n, str) and PLAYER_NAME.fullmatch(n) and n.lower() not in bots for n in names) or \
                len({n.lower() for n in names}) != len(names):
            return False
        for seat, name in zip(self.seats, names):
            g.names[seat.index] = seat.name = name
        return True

    # --- seats ------------------------------------------------------------------------------
    def join(self, code: str | None, token: str | None) -> Seat:
        """The seat of a returning browser or of a seat link (by its token, from any device),
        else a free seat for one with the code."""
        if token:
            for seat in self.seats:
                if secrets.compare_digest(seat.token, token):
                    if not seat.claimed:
                        seat.claimed = True
                        self._save_identity()
                    self.back(seat)
                    self._start_when_seated()
                    return seat
        if not isinstance(code, str) or not secrets.compare_digest(code, self.code):
            raise Refused("this table needs its join code: ask the person who started it for the link")
        for seat in self.seats:
            if not seat.claimed:
                seat.claimed = True
                self._save_identity()
                if seat.index in self.away:  # a seat the stand-in kept since the host started
                    self.away.discard(seat.index)
                    self._say(f"{seat.name} sits down: the bot leaves their seat.")
                self._start_when_seated()
                return seat
        raise Refused("every seat at this table is taken; a player who comes back on another device opens "
                      "their own seat link (shown on their page, and by the person who started the table)")

    def _start_when_seated(self) -> None:
        """Out of the lobby when every person's seat is taken and every person is ready (a
        person alone at a table of bots has nobody to wait for): the first hand is dealt."""
        if self.started or not all(s.claimed for s in self.seats):
            return
        if len(self.seats) == 1:
            self._say("Every seat is taken: the game starts.")
            self.start()
        elif all(s.ready for s in self.seats):
            self._say("Everyone is ready: the game starts.")
            self.start()

    def ready(self, seat: Seat, ready: bool) -> None:
        """A person says they are ready to play (or not yet), in the lobby."""
        if self.started:
            raise Refused("the game has started")
        if seat.ready == ready:
            return
        seat.ready = ready
        self._say(f"{seat.name} is ready." if ready else f"{seat.name} is not ready yet.")
        self._start_when_seated()

    def react(self, seat: Seat, face: str) -> None:
        """A face shown at ``seat`` on every page for a few seconds (reactions.py)."""
        refused = self.reactions.react(seat.index, face)
        if refused is not None:
            raise Refused(refused)

    def start(self, by: Seat | None = None) -> None:
        """Deal the first hand; the seats nobody took yet are played by the stand-in bot until
        their person arrives with the link."""
        if self.started:
            raise Refused("the game has started")
        if by is not None and by is not self.seats[0]:
            raise Refused(f"only {self.seats[0].name}, who opened the table, may start before every seat is taken")
        empty = [s for s in self.seats if not s.claimed]
        self.away.update(s.index for s in empty)
        if by is not None:
            waiting = f": a bot plays for {' and '.join(s.name for s in empty)} until they come" if empty else ""
            self._say(f"{by.name} starts the game{waiting}.")
        self.started = True
        self._start_hand()

    def rename(self, seat: Seat, name: Any) -> None:
        """A person's own name at the table, chosen in the lobby (before the first hand)."""
        g = self.game
        if self.started:
            raise Refused("names are chosen in the lobby, before the first hand")
        if not isinstance(name, str) or not PLAYER_NAME.fullmatch(name):
            raise Refused("a name is one word of letters, digits, _ ' or -, starting with a letter, at most 30 "
                          "characters (e.g. Ann or Ann_Lee)")
        if any(n.lower() == name.lower() for i, n in enumerate(g.names) if i != seat.index):
            raise Refused(f"{name} is already at this table: choose another name")
        old = g.names[seat.index]
        g.names[seat.index] = seat.name = name
        self._save_identity()
        self._say(f"{old} is now called {name}.")

    def back(self, seat: Seat) -> None:
        """The person of ``seat`` is back: the stand-in leaves their seat."""
        if seat.index in self.away:
            self.away.discard(seat.index)
            self.turn_started = time.monotonic()  # their clock starts again, or it would ring at once
            self._say(f"{seat.name} is back.")

    def seat_links(self, base: str) -> dict[str, str]:
        """Each person's own link: it takes their seat from any device."""
        return {s.name: f"{base}/t/{self.table_id}?seat={s.token}" for s in self.seats}

    # --- play -------------------------------------------------------------------------------
    def _start_hand(self) -> None:
        g = self.game
        state = g.start_hand()
        dealer = g.hand_names()[state.dealer]
        self.last_over = None
        self.last_move = self.drawn = None
        self.last_actions = {}
        self.turn_started = time.monotonic()
        self._say(f"Hand {g.session.index + 1}: {dealer} deals.")
        self.tell_saving()

    def _say(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LINES]

    def tell_saving(self) -> None:
        """Say once that the game cannot be saved and why, or that it is saved again (the
        snapshot's ``save_error`` keeps it in every page's status line meanwhile)."""
        news = self.game.save_news()
        if news:
            self._say(news)

    def act(self, seat: Seat, text: Any) -> None:
        """Apply the action ``text`` for ``seat``, or raise Refused with the engine's reason."""
        g = self.game
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise Refused("an action is a short text such as 'draw stock' or 'discard 5S'")
        words = text.split()
        if words == ["start"]:
            return self.start(seat)
        if words in (["ready"], ["not", "ready"]):
            return self.ready(seat, words == ["ready"])
        if len(words) == 2 and words[0] == "react":
            return self.react(seat, words[1])
        if not self.started:
            waiting = ", ".join(s.name for s in self.seats if not s.claimed)
            raise Refused(f"the game starts when every seat is taken (waiting for {waiting}) or "
                          f"{self.seats[0].name} starts it")
        if words[:2] == ["next", "hand"]:
            # "next hand N" deals hand N once: a second click (or a friend's) that crosses the
            # first is ignored, not dealt again or refused.
            if len(words) == 3 and words[2].isdigit() and int(words[2]) != g.session.index + 1:
                return None
            return self.next_hand()
        if words == ["rematch"]:
            return self.rematch()
        if words == ["end", "game"]:
            return self.end_game(seat)
        # A person who acts while the stand-in plays for them takes their seat back at once,
        # whether or not the action can still be played ("back" does only that).
        was_away = seat.index in self.away
        self.back(seat)
        if words == ["back"]:
            if not was_away:
                raise Refused("you are in your seat: nobody plays for you")
            return None
        state = g.state
        if state is None or state.is_terminal():
            raise Refused("the hand is over: deal the next one", changed=was_away)
        here = self.local_seat(seat)
        if here is None:
            raise Refused("you are out of the match", changed=was_away)
        legal = state.legal_actions() if state.current_player() == here else []
        before = list(state.hands[here])
        try:
            action = parse_input(text, legal, g.ruleset.drop_called) if legal else A.parse_action(text)
            g.apply(here, action)
        except (A.ActionSyntaxError, IllegalAction) as exc:
            if was_away:
                raise Refused(f"you have your seat back, but the bot that played for you moved first: {exc}",
                              changed=True) from None
            raise Refused(f"not possible: {exc}") from None
        if type(action) in (A.DrawStock, A.DrawDiscard):
            # The card that came in (a multiset difference: two decks hold identical cards).
            new = list((Counter(state.hands[here]) - Counter(before)).elements())
            if new:
                self.drawn = (seat.index, g.session.index, state.turn_number, state.pack.names[new[0]])
        self.back(seat)
        self._say(f"{seat.name}: {self._words(action)}")
        self._after_action(here, action)

    def next_hand(self) -> None:
        """Book the hand just played and deal the next; after the last, the final standings."""
        g = self.game
        if g.state is not None and not g.state.is_terminal():
            raise Refused("the hand is still being played")
        if g.state is not None:
            self.last_over = self.snapshot(None).get("over")
            out = g.finish_hand()
            for s in out:
                self._say(f"{g.names[s]} is out of the match.")
            if g.session.is_over():
                self._say(f"The game is over: {self._winners_text()}.")
                self.tell_saving()
                return
        if g.session.is_over():
            raise Refused("the game is over")
        self._start_hand()

    def rematch(self) -> None:
        """After the last hand: the same people and bots sit down to a new game (a new seed), at
        the same link, with the same seats and seat links."""
        g = self.game
        if not (g.state is None and g.session.is_over()):
            raise Refused("a rematch starts once the game is over")
        people = [g.names[i] for i, kind in enumerate(g.seats) if kind == HUMAN]
        bots = [kind for kind in g.seats if kind != HUMAN]
        self.game = new_table(g.ruleset_ref, people=people, bots=bots, stake=g.stake, hands=g.hands,
                              seed=derive_seed(g.seed, 0x8E3A7C4), save=g.save_path)
        self.log.clear()
        self._say("Rematch: a new game at the same table.")
        self._start_hand()

    def _words(self, action: A.Action) -> str:
        """An action as the page says it: the table's word for a drop ("knock")."""
        return self.game.ruleset.drop_called if type(action) is A.Drop else str(action)

    def _end_words(self, end: str) -> str:
        """A hand's ending as the table says it: "knock won" where the ruleset calls its drop a knock."""
        return re.sub(r"\bdrop\b", self.game.ruleset.drop_called, end.replace("_", " "))

    def _winners_text(self) -> str:
        names = [self.game.names[s] for s in self.game.session.settlement().winners]
        return (" and ".join(names) + (" win" if len(names) > 1 else " wins")) if names else "nobody wins"

    def sides(self) -> tuple[int, ...] | None:
        """Each seat's side (seat s plays for side s mod the number of sides: partners sit
        opposite), or None where the players play alone."""
        g = self.game
        return g.ruleset.sides_for(len(g.names)) if g.ruleset.side_size else None

    def side_totals(self, money: list[int], scores: list[int]) -> list[dict[str, Any]]:
        """Each side with its players and totals (a side keeps one total), winners first once a
        game is over."""
        sides = self.sides()
        if sides is None:
            return []
        g = self.game
        winners = set(g.session.settlement().winners) if g.session.is_over() else set()
        out = []
        for k in sorted(set(sides)):
            members = [i for i, side in enumerate(sides) if side == k]
            out.append({"side": SIDE_LETTERS[k % len(SIDE_LETTERS)], "players": [g.names[i] for i in members],
                        "money": sum(money[i] for i in members), "score": sum(scores[i] for i in members),
                        "winner": any(i in winners for i in members)})
        return sorted(out, key=lambda t: not t["winner"])

    def standings(self) -> list[dict[str, Any]]:
        """The players from first to last by their totals (the ruleset says whether lowest wins)."""
        g = self.game
        session = g.session
        totals = session.totals()
        # Money is ranked highest first, unless a match says its lowest total wins.
        lowest = session.lowest_wins() and (g.ruleset.session.is_match or g.ruleset.score_sheet != "money")
        winners = set(session.settlement().winners)
        order = sorted(range(len(g.names)), key=lambda i: (i not in winners, totals[i] if lowest else -totals[i], i))
        return [{"name": g.names[i], "total": totals[i], "money": session.ledger[i], "winner": i in winners,
                 "out": i not in session.active} for i in order]

    def _after_action(self, seat: int, action: A.Action) -> None:
        state = self.game.state
        self.turn_started = time.monotonic()
        self.tell_saving()
        if state is None:
            return
        names = self.game.hand_names()
        # What the page marks: the top discard after a discard, the spread laid or hit.
        kind = type(action)
        touched: dict[str, Any] = {}
        if kind is A.Discard:
            touched = {"discard": True}
        elif kind is A.Spread:
            touched = {"spread": len(state.spreads)}
        elif isinstance(action, A.Hit):
            touched = {"spread": action.target}
        self.last_move = {"name": names[seat], "action": self._words(action), **touched}
        self.last_actions[names[seat]] = self._words(action)
        notice = self.notices.new(state, names, self.game.session.index)
        if notice:
            self._say(notice)
        if state.is_terminal():
            out = state.outcome()
            assert out is not None
            names = self.game.hand_names()
            winners = ", ".join(names[w] for w in out.winners) or "nobody"
            self._say(f"The hand ends ({self._end_words(out.end)}): {winners} won.")

    def bot_to_play(self) -> bool:
        """Whether the seat to act is a bot's, or a person's whose stand-in plays for them."""
        g = self.game
        state = g.state
        if state is None or state.is_terminal():
            return False
        g_seat = g.session.seats[state.current_player()]
        return g.seats[g_seat] != HUMAN or g_seat in self.away

    def bot_turn(self) -> BotTurn:
        """The decision the bot to play faces, as plain data (a worker process can make it)."""
        g = self.game
        state = g.state
        assert state is not None and g.session.dealt_with is not None
        seat = state.current_player()
        g_seat = g.session.seats[seat]
        local = {g.names[s]: i for i, s in enumerate(g.session.seats)}
        played = tuple((local[text.split(" ", 1)[0]], text.split(" ", 1)[1]) for text in g.deals[-1]["actions"])
        players, dealt_with = g.session.dealt_with
        return BotTurn(STAND_IN if g.seats[g_seat] == HUMAN else g.seats[g_seat], g.ruleset_file, players,
                       dealt_with, played, seat, g.bot_seed(), tuple(str(a) for a in state.legal_actions()))

    def bot_plan(self, quick: bool = False) -> Callable[[], str]:
        """The decision of the bot to play, to be made away from the table: it reads a clone of
        the hand, so the table may answer (and change) meanwhile. ``quick``: the stand-in's."""
        g = self.game
        state = g.state
        assert state is not None
        seat = state.current_player()
        g_seat = g.session.seats[seat]
        bot = policy(STAND_IN) if g.seats[g_seat] == HUMAN or quick else g.bot(seat)
        twin, rng = state.clone(), g.bot_rng()
        return lambda: str(bot(observation(twin, seat), twin.legal_actions(), rng))

    def bot_step(self, decided: str | None = None, quick: bool = False) -> None:
        """One bot action: ``decided`` (the text a worker process chose for :meth:`bot_turn`), else
        the bot decides here (``quick``: the stand-in's decision, when the bot's own took too
        long). The caller waits between steps so that people can follow."""
        g = self.game
        state = g.state
        assert state is not None
        seat = state.current_player()
        g_seat = g.session.seats[seat]
        if decided is not None:
            action = A.parse_action(decided)
        else:
            bot = policy(STAND_IN) if g.seats[g_seat] == HUMAN or quick else g.bot(seat)
            action = bot(observation(state, seat), state.legal_actions(), g.bot_rng())
            if quick:
                self._say(f"{g.hand_names()[seat]} took too long to think: a quick move instead.")
        g.apply(seat, action)
        stand_in = " (the stand-in bot)" if g.seats[g_seat] == HUMAN else ""
        self._say(f"{g.hand_names()[seat]}{stand_in}: {self._words(action)}")
        self._after_action(seat, action)

    def turn_key(self) -> tuple[int, int] | None:
        """Which turn is being waited for (the hand, the number of actions so far), or None."""
        state = self.game.state
        if state is None or state.is_terminal():
            return None
        return self.game.session.index, len(self.game.deals[-1]["actions"])

    def waiting_for(self) -> tuple[int, float] | None:
        """The person whose turn it is and the seconds their clock allows (None: no clock runs:
        a bot plays, the hand is over, or the person is here and the table has no turn clock)."""
        g = self.game
        state = g.state
        if state is None or state.is_terminal() or self.bot_to_play():
            return None
        g_seat = g.session.seats[state.current_player()]
        if g_seat not in self.connected:
            return g_seat, min(self.turn_time or AWAY_GRACE, AWAY_GRACE)
        return (g_seat, self.turn_time) if self.turn_time else None

    def time_out(self, key: tuple[int, int] | None) -> bool:
        """The clock ran out on turn ``key``: the stand-in plays the seat until its person acts
        or comes back. False when that turn is no longer awaited."""
        waiting = self.waiting_for()
        if key is None or key != self.turn_key() or waiting is None:
            return False
        g_seat = waiting[0]
        self.away.add(g_seat)
        why = "left the table" if g_seat not in self.connected else "ran out of time"
        self._say(f"{self.game.names[g_seat]} {why}: a bot plays for them until they are back.")
        return True

    def local_seat(self, seat: Seat) -> int | None:
        active = self.game.session.seats
        return active.index(seat.index) if seat.index in active else None

    # --- what a seat sees -------------------------------------------------------------------
    @staticmethod
    def _payer_name(rs: Any, seat: int, names: Sequence[str], active: Sequence[int]) -> str:
        """A payment's side in words: a player, the pot, or a side pot by its name."""
        return names[active[seat]] if seat >= 0 else "the pot" if seat == -1 else rs.pot_name(seat)

    def snapshot(self, seat: Seat | None) -> dict[str, Any]:
        """Everything the person at ``seat`` may see (None: someone without a seat)."""
        g = self.game
        rs = g.ruleset
        session = g.session
        state = g.state
        over_now = state is None and session.is_over()
        data: dict[str, Any] = {
            "type": "state", "ruleset": rs.name, "table": self.table_id,
            "you": seat.name if seat else None, "log": list(self.log),
            "hand_number": session.index + (1 if state is not None else 0), "hands_total": g.hands,
            "game_over": over_now, "points": rs.score_sheet != "money",
            # The ruleset's word for a drop, and what one does: whether the others get a last
            # turn (the page's confirmation says so, not "the hand ends for everyone").
            "words": {"drop": rs.drop_called, "decided_later": bool(plan_for(rs).closing)}, "scoring": self._scoring_words(),
            "save_error": g.save_error,  # the page's status line says it while saving fails
            "host": self.seats[0].name, "you_host": seat is self.seats[0],  # the host may end the game
        }
        if not self.started:
            data["lobby"] = {
                "seats": [{"name": g.names[i], "bot": kind != HUMAN,
                           "taken": kind != HUMAN or any(s.index == i and s.claimed for s in self.seats),
                           "ready": kind != HUMAN or any(s.index == i and s.ready for s in self.seats)}
                          for i, kind in enumerate(g.seats)],
                "you_ready": seat is not None and seat.ready,
                # With one person at the table the game starts as they sit down: nobody to wait for.
                "asks_ready": len(self.seats) > 1,
                "host": self.seats[0].name, "you_host": seat is self.seats[0],
                # The table's link with its code, for a seated person to share.
                "link": f"/t/{self.table_id}?code={self.code}" if seat is not None else None,
            }
        active = session.seats
        names = g.names
        people = {s.index for s in self.seats}
        presence = {i: {"connected": i in self.connected, "away": i in self.away} for i in people}
        sides = self.sides()
        mine = sides[seat.index] if sides is not None and seat is not None else None

        def side_of(i: int) -> dict[str, Any]:  # a player's side, and whether they are the viewer's partner
            if sides is None:
                return {}
            return {"side": SIDE_LETTERS[sides[i] % len(SIDE_LETTERS)],
                    "partner": mine is not None and sides[i] == mine and seat is not None and i != seat.index}

        reacting = {i: r for i in range(len(names)) if (r := self.reactions.shown(i)) is not None}
        target = self._target()
        if target is not None:
            data["target"] = target  # the total a player is out at (or the match ends at): "56 / 100"
        data["you_out"] = seat is not None and seat.index not in active and not over_now

        if state is None:
            data["players"] = [{"name": names[i], "money": session.ledger[i], "score": session.scores[i],
                                "bot": g.seats[i] != HUMAN, "out": i not in active, **presence.get(i, {}),
                                **side_of(i), "reaction": reacting.get(i)} for i in range(len(names))]
            if sides is not None:
                data["sides"] = self.side_totals(list(session.ledger), list(session.scores))
            if over_now:
                data["standings"] = self.standings()
                data["winners"] = [names[w] for w in session.settlement().winners]
                data["last_over"] = self.last_over
                data["can_rematch"] = seat is not None
            return data
        pack_names = state.pack.names
        here = self.local_seat(seat) if seat else None
        view = observation(state, here) if here is not None else None
        current = state.current_player() if not state.is_terminal() else None
        out = state.outcome()
        # While a hand's end is shown, the totals already count it (the banner and the boxes agree).
        paid = out.payouts if out is not None and rs.score_sheet != "points" else (0,) * len(active)
        scored = out.scores if out is not None and out.scores else (0,) * len(active)
        data["players"] = [{
            "name": names[g_seat], "cards": len(state.hands[local]), "money": session.ledger[g_seat] + paid[local],
            "score": session.scores[g_seat] + scored[local], "dealer": local == state.dealer,
            "to_play": local == current, "bot": g.seats[g_seat] != HUMAN, "you": local == here,
            "folded": bool(state.sitting_out >> local & 1), **presence.get(g_seat, {}), **side_of(g_seat),
            "last": self.last_actions.get(names[g_seat]), "reaction": reacting.get(g_seat),
            # The cards of this hand everyone has seen go into it (dealt face up, taken from the pile).
            **({"shown": shown} if (shown := [pack_names[c] for c in state.hands[local]
                                              if state.public_cards[local] >> c & 1]) and local != here else {}),
        } for local, g_seat in enumerate(active)]
        # A player out of the match stays at the table, shown as out (they watch the rest).
        data["players"] += [{"name": names[i], "money": session.ledger[i], "score": session.scores[i],
                             "bot": g.seats[i] != HUMAN, "out": True, **presence.get(i, {}), **side_of(i),
                             "reaction": reacting.get(i)} for i in range(len(names)) if i not in active]
        if sides is not None:  # the sides' totals, this hand's money counted while its end is shown
            money, score = list(session.ledger), list(session.scores)
            for local, g_seat in enumerate(active):
                money[g_seat] += paid[local]
                score[g_seat] += scored[local]
            data["sides"] = self.side_totals(money, score)
        waiting = self.waiting_for()
        if waiting is not None:
            left = waiting[1] - (time.monotonic() - self.turn_started)
            data["clock"] = {"name": names[waiting[0]], "seconds": max(0, round(left))}
        data["last_hand"] = out is not None and self._last_hand_cached()
        data["hand"] = list(view.hand_names) if view is not None else []
        data["count"] = view.count if view is not None else None
        if view is not None and self._reads_unmatched():
            melds = state.melds
            data["unmatched"] = sum(int(melds.value[c]) for c in melds.deadwood(state.hands[view.seat]))
        drawn = self.drawn
        if (seat is not None and drawn is not None and drawn[:3] == (seat.index, session.index, state.turn_number)
                and current == here and drawn[3] in data["hand"]):
            data["drawn"] = drawn[3]  # theirs alone: the card they drew this turn
        data["last_move"] = self.last_move
        notice = closing_notice(state, [names[g_seat] for g_seat in active])
        if notice:
            data["notice"] = notice
        # Each spread also as a player lays it out, wild cards marked with what they stand for.
        data["spreads"] = [{"number": i + 1, "owner": names[active[owner]], "cards": [pack_names[c] for c in cards],
                            "kind": state.melds.kind(cards), "layout": [{"card": pack_names[c], "as": stands}
                                       for c, stands in state.melds.layout(cards)]}
                           for i, (owner, cards) in enumerate((sp.owner, sp.cards) for sp in state.spreads)]
        data["discard"] = {"top": pack_names[state.discard_pile[-1]] if state.discard_pile else None,
                           "size": len(state.discard_pile)}
        data["stock"] = len(state.stock)
        data["stake"] = state.stake
        data["pot"] = state.pot if rs.ante is not None else None
        data["side_pots"] = {p.id: state.side_pots[i] for i, p in enumerate(rs.side_pots)}
        data["to_play"] = names[active[current]] if current is not None else None
        # A person the stand-in plays for is offered no move: "back" (or any click) takes the seat back.
        data["away"] = seat is not None and seat.index in self.away
        try:
            if current is None or here is None or data["away"]:
                data["legal"] = []
            elif current == here:
                data["legal"] = [str(a) for a in state.legal_actions()]
            else:  # what the ruleset's constructs let this player play out of turn now (a slap, a buy)
                data["legal"] = [str(a) for a in state.legal_actions(here)] if state.phase != ASK else []
                data["legal_aside"] = bool(data["legal"])  # (the moves listed are not a turn of theirs)
        except RulesetError as exc:  # a rule failed while listing the moves: the hand is void, shown as such
            self.failed_rule(exc)
            return self.snapshot(seat)
        if out is not None:
            data["over"] = {
                "end": out.end, "winners": [names[active[w]] for w in out.winners],
                "payouts": {names[active[s]]: v for s, v in enumerate(out.payouts)},
                "counts": {names[active[s]]: v for s, v in enumerate(out.counts)},
                "message": out.message,
                "void": out.message if out.end == VOID else None,  # why a rule's failure voided the hand
                # Every hand is shown at the end, with each payment and the rule that made it.
                "hands": {names[active[s]]: in_hand_order([pack_names[c] for c in h], state.pack)
                          for s, h in enumerate(state.hands)},
                "payments": [{"payer": self._payer_name(rs, p.payer, names, active),
                              "payee": self._payer_name(rs, p.payee, names, active),
                              "amount": p.amount, "rule": p.rule} for p in out.payments],
                "scores": {names[active[s]]: v for s, v in enumerate(out.scores)} if out.scores else None,
                # On a score sheet, the reason for each number: the score entry that scored it.
                "score_lines": [{"player": names[active[p]], "points": v, "rule": rule}
                                for p, v, rule in out.score_lines],
            }
        return data

    def _target(self) -> int | None:
        """The total a player is out at, or the match ends at, where the ruleset says it as
        ``total >= N`` (or ``> N``): the page shows each total against it ("56 / 100")."""
        rules = self.game.ruleset.session
        for rule in (rules.eliminate_when, rules.ends_when):
            found = _TARGET.search(rule.source) if rule is not None else None
            if found:
                return int(found.group(2)) + (1 if found.group(1) == ">" else 0)
        return None

    def _reads_unmatched(self) -> bool:
        """Whether the drop is decided on the unmatched cards (the page then shows their count)."""
        rs = self.game.ruleset
        return any("deadwood" in c.source for c in (rs.drop_allowed, rs.drop_wins_if))

    def _scoring_words(self) -> str | None:
        """How a points game is won, in the ruleset's words ("lowest wins; out at 100"), else None."""
        rs = self.game.ruleset
        if rs.score_sheet == "money":
            return None
        parts = ["lowest total wins" if self.game.session.lowest_wins() else "highest total wins"]
        rules = rs.session
        if rules.eliminate_when is not None:
            parts.append(f"a player is out when {words(rules.eliminate_when.source, 'they')}")
        if rules.ends_when is not None:
            parts.append(f"the match ends when {words(rules.ends_when.source)}")
        return "; ".join(parts)

    def _last_hand_cached(self) -> bool:
        key = self.game.session.index
        if self._last_hand_memo is None or self._last_hand_memo[0] != key:
            self._last_hand_memo = (key, self._last_hand())  # once per hand, not per browser
        return self._last_hand_memo[1]

    def _last_hand(self) -> bool:
        """Whether the game ends with the hand just played (its booking decides a match)."""
        g = self.game
        if g.hands is not None and g.session.index + 1 >= g.hands:
            return True
        if not g.ruleset.session.is_match or g.state is None:
            return False
        trial = g.session.copy()
        totals = g.state.totals
        try:
            trial.finish_hand(g.state, named_suits=g.named_suits())
        finally:
            g.state.totals = totals  # the trial booking writes the totals the match rules read
        return trial.is_over()

    def failed_rule(self, exc: RulesetError) -> None:
        """A rule failed at play (or a bot could not play): the hand is void with nothing lost, so
        that the table never freezes; every page's status line says why, and the host deals the
        next hand or ends the game."""
        g = self.game
        reason = void_reason(exc)
        if g.state is not None and not g.state.is_terminal():
            g.void_hand(reason)
        self._say(f"The hand is void: {reason}. Nothing is paid; {self.seats[0].name} may deal the next hand "
                  "or end the game.")

    def end_game(self, seat: Seat) -> None:
        """The host ends the game once a hand is over: the hands played so far are the game."""
        g = self.game
        if seat is not self.seats[0]:
            raise Refused(f"only {self.seats[0].name}, who opened the table, may end the game")
        if g.state is not None and not g.state.is_terminal():
            raise Refused("the hand is still being played: end the game once it is over")
        if g.state is not None:
            self.last_over = self.snapshot(None).get("over")
            g.finish_hand()
        if not g.session.is_over():
            g.end_now()
        self._say(f"{seat.name} ended the game after hand {g.session.index}: {self._winners_text()}.")
