"""``tonk play``: a person plays a session of Tonk against bots in the terminal.

The game is saved after every action (atomically: written to a temporary file, then renamed)
as a session scenario, so ``tonk replay FILE`` replays it and ``tonk play --resume FILE``
continues exactly where it stopped, also after the process was killed. Bot decisions are seeded
per action, so a resumed game goes on as it would have.
"""
from __future__ import annotations

import atexit
import contextlib
import glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Sequence

import yaml

try:  # POSIX locks on saves (lock_save); elsewhere a save is not locked
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.dealer import cut_for_deal
from tonkdsl.interpreter.engine import IllegalAction, RulesetError, State
from tonkdsl.interpreter.session import MAX_MATCH_HANDS, Session
from tonkdsl.interpreter.view import observation
from tonkdsl.interpreter.rules import plan_for
from tonkdsl.language.cards import SUITS_STANDARD
from tonkdsl.language.diagnostics import LoadError, printable
from tonkdsl.language.loader import load_ruleset, resolve_name
from tonkdsl.language.rng import Rng, derive_seed
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.tools.bots import Policy, bot_problem, new_policy, policy, tell_hand_over
from tonkdsl.tools.explain import sheet
from tonkdsl.tools.scenario import Scenario, load_scenario
from tonkdsl.tools.files import write_atomic
from tonkdsl.tools.screen import Screen

# A name that an action line can start with and a save can keep (scenario actions are
# '<player> <action>'): one word, like the bots' names.
PLAYER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_'-]{0,29}")
HUMAN = "human"
STRONGEST = "strong"
HELP = """Type an action, its number in the menu, or a short form:
  s / stock          draw from the stock        t / take      take the top discard
  k / drop           drop (knock): at the start of your turn, or after drawing where the ruleset says
  claim              claim an automatic win     eat / pass    take the last discard out of turn, or not
  sp 8D 8H 8C        spread those cards         h 8S 1        hit 8S on spread 1
  6S / discard 6S    discard a card
{constructs}Commands: help, rules (what the ruleset says about this choice), hint (what the strongest bot
would do), quit (the game is saved when --save is given)."""


def help_text(rs: Ruleset) -> str:
    """HELP, with the actions of the constructs the ruleset uses (tonkdsl/interpreter/rules/)."""
    lines = "".join(f"  {example:<19}{what}\n" for rule in plan_for(rs).rules for example, what in rule.help)
    return HELP.format(constructs=lines)


SHORT = {"s": "draw stock", "stock": "draw stock", "t": "draw discard", "take": "draw discard",
         "pile": "draw discard", "k": "drop", "knock": "drop", "tonk": "drop"}


@dataclass
class Game:
    ruleset: Ruleset
    ruleset_ref: str
    names: list[str]
    seats: list[str]  # "human" or a bot name, per seat
    stake: int
    hands: int | None  # None: a match, played to its end
    seed: int
    first_dealer: int
    save_path: Path | None = None
    ruleset_file: str = ""  # the file the ruleset was loaded from (absolute), to load it again elsewhere
    session: Session = field(init=False)
    deals: list[dict[str, Any]] = field(default_factory=list)
    state: State | None = None
    # The bots of this game, by seat of the table: each learns from the hands it sees end
    # (tell_hand_over); a game loaded from its file shows them again the ends of its hands.
    _bots: dict[int, Policy] = field(default_factory=dict, init=False, repr=False)
    save_error: str | None = field(default=None, init=False)  # why the last save failed (None: it was written)
    _save_told: str | None = field(default=None, init=False, repr=False)  # the save_error last told (save_news)
    _lock: tuple[Path, IO[str]] | None = field(default=None, init=False, repr=False)  # the save held (hold_save)
    _deal_texts: list[str] = field(default_factory=list, init=False, repr=False)  # hands over, as saved (to_yaml)

    def __post_init__(self) -> None:
        self.session = Session(self.ruleset, len(self.names), stake=self.stake, hands=self.hands,
                               dealer=self.first_dealer)

    # --- hands ------------------------------------------------------------------------------
    def start_hand(self) -> State:
        index = self.session.index
        seed = derive_seed(self.seed, index)
        state = self.session.start_hand(seed=seed)
        names = state.pack.names
        suits = self.dealers_suits(index)
        self.deals.append({
            "seed": seed,
            "hands": {self.names[g]: [names[c] for c in state.dealt_hands[s]]
                      for s, g in enumerate(self.session.seats)},
            **({"upcard": names[state.discard_pile[0]]} if state.discard_pile else {}),
            "stock": [names[c] for c in reversed(state.stock)],
            **({"side_bets": {k: {"suit": v} for k, v in suits.items()}} if suits else {}),
            "actions": [],
        })
        self.state = state
        self.save()
        return state

    def dealers_suits(self, index: int) -> dict[str, str]:
        """The dealer names a suit for each named-suit side bet (everyone bets at this table)."""
        return {bet.id: Rng(derive_seed(self.seed ^ 0x5EE, index)).choice(SUITS_STANDARD)
                for bet in self.ruleset.session.side_bets if bet.kind == "named_suit"}

    def apply(self, seat: int, action: A.Action) -> None:
        assert self.state is not None
        self.state.apply(action, player=seat)
        self.deals[-1]["actions"].append(f"{self.names[self.session.seats[seat]]} {action}")
        self.save()

    def void_hand(self, reason: str) -> None:
        """A rule failed at play: the hand is void, nothing lost (State.void), and the save says
        so (its 'void', which a resume and a replay apply after the hand's actions)."""
        assert self.state is not None
        self.state.void(reason)
        self.deals[-1]["void"] = reason
        self.save()

    def end_now(self) -> None:
        """End the game after the hands booked so far (the host's choice): a save then holds that
        many hands, so that a resume finds the game over."""
        assert self.state is None
        self.hands = self.session.hands = self.session.index
        self.save()

    def named_suits(self) -> dict[str, str]:
        bets = self.deals[-1].get("side_bets", {}) if self.deals else {}
        return {k: v["suit"] for k, v in bets.items()}

    def finish_hand(self) -> tuple[int, ...]:
        """Book the hand; returns the seats out of the match after it."""
        assert self.state is not None and self.state.is_terminal()
        self.tell_bots(self.state)
        record = self.session.finish_hand(self.state, named_suits=self.named_suits())
        self.state = None
        self.save()
        return record.eliminated

    def bot(self, seat: int) -> Policy:
        """The bot in ``seat`` of the hand (a seat of the table still in the match)."""
        table_seat = self.session.seats[seat]
        bot = self._bots.get(table_seat)
        if bot is None:
            bot = self._bots[table_seat] = new_policy(self.seats[table_seat])
        return bot

    def tell_bots(self, state: State) -> None:
        """Show the end of the hand to the bots (the people's seats have none)."""
        tell_hand_over([None if self.seats[g] == HUMAN else self.bot(seat)
                        for seat, g in enumerate(self.session.seats)], state)

    def hand_names(self) -> list[str]:
        """The names of the players of the hand, by its seats (those still in the match)."""
        return [self.names[g] for g in self.session.seats]

    def bot_rng(self) -> Rng:
        """A generator for the next bot decision, fixed by the game's seed and position."""
        return Rng(self.bot_seed())

    def bot_seed(self) -> int:
        n = len(self.deals[-1]["actions"]) if self.deals else 0
        return derive_seed(self.seed ^ 0xB07, self.session.index * 100_003 + n)

    # --- saving -----------------------------------------------------------------------------
    def to_yaml(self) -> str:
        data = {
            "ruleset": self.ruleset_ref,
            "players": self.names,
            "dealer": self.names[self.first_dealer],
            "stake": self.stake,
            **({"session_hands": self.hands} if self.hands is not None else {}),
            "play": {"seats": self.seats, "seed": self.seed},
        }
        head = "# A game of tonk play: `tonk play --resume FILE` continues it, `tonk replay FILE` replays it.\n"
        text = head + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100)
        if not self.deals:
            return text + "deals: []\n"
        # Each hand as PyYAML writes it as an item of the list 'deals' (the same text): a hand that
        # is over never changes, so its text is made once. Dumping the whole game at every move
        # took 1.25 s a move after 700 hands at a big table, and grew with every hand.
        done = self._deal_texts
        del done[len(self.deals) - 1:]
        done += [_deal_text(d) for d in self.deals[len(done):-1]]
        return text + "deals:\n" + "".join(done) + _deal_text(self.deals[-1])

    def save(self) -> None:
        """Write the save (atomically). A save that fails (a full disk, a folder no longer
        writable) never stops the game: the last good save is kept, ``save_error`` says why, and
        every later action tries again (:meth:`save_news` tells the people once)."""
        if self.save_path is None:
            return
        path = self.save_path
        try:
            write_atomic(path, self.to_yaml())  # a reader sees the old save or the new one, never half
        except OSError as exc:
            self.save_error = f"the game cannot be saved to {path} ({exc.strerror or exc})"
            return
        self.save_error = None

    def hold_save(self) -> None:
        """Take the lock of ``save_path`` (see :func:`lock_save`): at the start, and when the game
        is saved to another file (--resume A --save B)."""
        if self.save_path is None or (self._lock is not None and self._lock[0] == self.save_path):
            return
        self._lock = (self.save_path, lock_save(self.save_path))

    def save_news(self) -> str | None:
        """What the people should be told about saving since they were last told: that the game
        cannot be saved and why, or that it is saved again (None: nothing new)."""
        if self.save_error == self._save_told:
            return None
        self._save_told = self.save_error
        if self.save_error is not None:
            return (f"Warning: {self.save_error}. Play goes on; the game is saved again as soon as it can be "
                    "(the last good save is kept).")
        return f"The game is saved again to {self.save_path}."


def _deal_text(deal: dict[str, Any]) -> str:
    return yaml.safe_dump([deal], sort_keys=False, default_flow_style=None, width=100)


def void_reason(exc: RulesetError) -> str:
    """Why a hand is void, in a player's words, from the rule that failed."""
    return f"a rule of the ruleset failed at play ({exc})"


class SaveInUse(ValueError):
    """Another tonk process plays the same save: two would each lose the other's moves."""


def lock_save(path: Path) -> IO[str]:
    """Lock the save ``path`` for this process, and remove what a process killed mid-save left
    beside it (half-written temporary files): returns the open lock file, to keep while playing.
    A save another process holds is refused (:class:`SaveInUse`). The lock is the file
    ``.NAME.lock`` beside the save (the save itself is replaced at every move, so it cannot hold
    a lock); on a system without POSIX locks, only the leftovers are removed."""
    folder = path.parent if str(path.parent) else Path(".")
    lock_path = folder / f".{path.name}.lock"
    key = str(lock_path.resolve())
    if key in _HELD:  # this process holds it already (a rematch, a save resumed again)
        return _HELD[key]
    try:
        held = open(lock_path, "a+", encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot lock the save {path}: {exc.strerror or exc}") from None
    if fcntl is not None:
        try:
            fcntl.lockf(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            held.seek(0)
            who = held.read().strip()[:20]
            held.close()
            raise SaveInUse(f"the game saved in {path} is being played by another tonk (process "
                            f"{who or 'unknown'}): two at once would each lose the other's moves; close the other "
                            "one first, or save this one to another file (--save)") from None
        held.seek(0)
        held.truncate()
        held.write(str(os.getpid()))
        held.flush()
    # Only this process writes beside the save now: a temporary file there was left by a process
    # killed mid-save (kill -9, a power cut), and is never renamed into place.
    for leftover in folder.glob(f".{glob.escape(path.name)}.*"):
        if leftover != lock_path and leftover.is_file() and not leftover.is_symlink():
            with contextlib.suppress(OSError):
                leftover.unlink()
    _HELD[key] = held
    return held


# The saves this process holds, by lock file: kept open until the process ends, because closing
# any descriptor of a file lets go of every POSIX lock the process holds on it.
_HELD: dict[str, IO[str]] = {}
atexit.register(lambda: [held.close() for held in _HELD.values()])


def new_game(ruleset_ref: str, *, players: int, bots: Sequence[str], stake: int, hands: int | None, seed: int,
             save: Path | None, name: str = "You", allow_paths: Sequence[Path] = ()) -> Game:
    """A game of one person (seat 1, called ``name``) and bots at the other seats."""
    kinds = list(bots) or ["greedy"]
    if len(kinds) == 1:
        kinds = kinds * (players - 1)
    if len(kinds) != players - 1:
        raise ValueError(f"--bots names {len(kinds)} bots for {players - 1} seats")
    return new_table(ruleset_ref, people=[name], bots=kinds, stake=stake, hands=hands, seed=seed, save=save,
                     allow_paths=allow_paths)


def new_table(ruleset_ref: str, *, people: Sequence[str], bots: Sequence[str], stake: int, hands: int | None,
              seed: int, save: Path | None, allow_paths: Sequence[Path] = ()) -> Game:
    """A game of people (named, in the first seats) and bots (in the seats after them);
    ``allow_paths``: folders the ruleset's 'extends' may reach (--allow-path)."""
    path = resolve_name(ruleset_ref) if not ruleset_ref.endswith((".yaml", ".yml")) else Path(ruleset_ref)
    rs = load_ruleset(path, allow_paths=allow_paths)
    ref = ruleset_ref if not ruleset_ref.endswith((".yaml", ".yml")) else str(Path(ruleset_ref).resolve())
    players = len(people) + len(bots)
    if not people:
        raise ValueError("a table needs at least one person")
    if not rs.players_min <= players <= rs.players_max:
        raise ValueError(f"{rs.name} is for {rs.players_min} to {rs.players_max} players, not {players}")
    for k in bots:
        if bot_problem(k):
            raise ValueError(bot_problem(k))
    bot_names = [f"{k.partition(':')[0].capitalize()}{i}" for i, k in enumerate(bots, 1)]
    for name in people:
        if not PLAYER_NAME.fullmatch(name):
            raise ValueError(f"the name {name!r} cannot be saved and resumed: a name is one word of letters, digits, "
                             "_ ' or -, starting with a letter, at most 30 characters (e.g. Ann or Ann_Lee)")
        if name.lower() in (n.lower() for n in bot_names):
            raise ValueError(f"the name {name!r} is the name of a bot at this table; choose another")
    if len({n.lower() for n in people}) != len(people):
        raise ValueError("two people at the table have the same name")
    dealer, _cuts = cut_for_deal(rs, players, Rng(seed))
    total = hands or rs.session.hands or (None if rs.session.is_match else 1)  # a match runs to its end
    game = Game(rs, ref, list(people) + bot_names, [HUMAN] * len(people) + list(bots), stake, total, seed, dealer,
                save, str(path.resolve()))
    game.hold_save()
    return game


def resume_game(path: Path, *, allow_paths: Sequence[Path] = (), people: int | None = 1) -> Game:
    """Load a saved game, checked like any scenario, and replay it to where it stopped.
    ``people``: how many seats must be people's (None: any number, at least one)."""
    scn = load_scenario(path, allow_paths=allow_paths)
    raw = scn.source.data
    play = raw.get("play")
    seats = play.get("seats") if isinstance(play, dict) else None
    seed = play.get("seed") if isinstance(play, dict) else None
    if (not isinstance(seats, list) or len(seats) != len(scn.players) or seats.count(HUMAN) < 1
            or any(s != HUMAN and bot_problem(str(s)) for s in seats) or not isinstance(seed, int)):
        raise LoadError([scn.source.diagnostic(
            "save-play", "this is not a saved game of tonk play: 'play' must give 'seats' (human or a bot "
            "for each player) and 'seed'", ("play",))])
    for i, name in enumerate(scn.players):  # the names a save shows at a table: checked as --name is
        if not PLAYER_NAME.fullmatch(name):
            raise LoadError([scn.source.diagnostic(
                "save-name", f"the player name {printable(name)[:40]!r} cannot be at a table: a name is one word of letters, "
                "digits, _ ' or -, starting with a letter, at most 30 characters", ("players", i))])
    if people is not None and seats.count(HUMAN) != people:
        raise LoadError([scn.source.diagnostic(
            "save-play", f"this game has {seats.count(HUMAN)} people at the table; continue it with "
            "'tonk serve --resume'" if people == 1 else f"this game has {seats.count(HUMAN)} people, not {people}",
            ("play", "seats"))])
    game = Game(scn.ruleset, scn.ruleset_ref, scn.players, list(seats), scn.stake,
                scn.session_hands or (None if scn.ruleset.session.is_match else len(scn.deals)), seed, scn.dealer, path,
                scn.ruleset_file)
    for i, d in enumerate(scn.deals):
        try:
            state = game.session.start_hand(seed=d.seed, layout=d.layout)
        except ValueError as exc:  # cards the pack cannot deal, a hand for a player who is out, ...
            raise LoadError([scn.source.diagnostic(
                "save-deal", f"hand {i + 1} of the save cannot be dealt ({printable(str(exc))}): the file was "
                "edited or damaged", ("deals", i))]) from None
        _check_dealt(game, scn, i, state)
        game.deals.append(raw["deals"][i] | {"actions": []})
        game.state = state
        for j, (seat, act, text) in enumerate(d.actions):
            try:
                if seat not in game.session.seats:
                    raise IllegalAction("that player is out of the match")
                state.apply(act, player=game.session.seats.index(seat))
            except IllegalAction as exc:
                raise LoadError([scn.source.diagnostic(
                    "save-action", f"the saved action '{text}' is not legal ({exc}): the file was changed or "
                    "damaged", ("deals", i, "actions", j))]) from None
            game.deals[-1]["actions"].append(text)
        if d.void is not None and not state.is_terminal():
            state.void(d.void)
        if state.is_terminal():
            game.tell_bots(state)
            game.session.finish_hand(state, named_suits=d.named_suits)
            game.state = None
        elif i != len(scn.deals) - 1:
            raise LoadError([scn.source.diagnostic(
                "save-unfinished", f"hand {i + 1} of the save is not over, but another hand follows it",
                ("deals", i))])
    game.hold_save()
    return game


def _check_dealt(game: Game, scn: Scenario, index: int, state: State) -> None:
    """A save holds the seed of the game and, for each hand, the cards dealt from it: a hand
    whose seed or cards differ from what the game's seed deals was edited, and is refused."""
    d = scn.deals[index]
    seeded = game.session.start_hand(seed=derive_seed(game.seed, index))
    names = state.pack.names  # compared by name: two jokers, or two decks' twins, are the same card

    def dealt(s: State) -> tuple[list[list[str]], list[str], list[str]]:
        return ([[names[c] for c in h] for h in s.dealt_hands], [names[c] for c in s.discard_pile],
                [names[c] for c in s.stock])
    same = (d.seed == derive_seed(game.seed, index) and dealt(seeded) == dealt(state)
            and d.named_suits == game.dealers_suits(index))
    if not same:
        raise LoadError([scn.source.diagnostic(
            "save-deal", f"hand {index + 1} of the save is not the hand its seed deals (its seed, cards or named "
            "suits were changed): the file was edited or damaged", ("deals", index))])


Reader = Callable[[str], str]


class Player:
    """The terminal loop: bots play their turns, the person is asked for theirs."""

    def __init__(self, game: Game, screen: Screen, read: Reader, *, pause: bool = False) -> None:
        self.game, self.screen, self.read = game, screen, read
        self.pause = pause  # at a terminal: the end of a hand stays on screen until Enter
        self.notices = ClosingNotices()

    def run(self) -> int:
        g = self.game
        while True:
            news = g.save_news()  # a save that failed (or works again) since the last action
            if news:
                self.screen.say(news)
            if g.state is None:
                if g.session.is_over():
                    return self.finish()
                started = g.start_hand()
                of = f"of {g.hands}" if g.hands is not None else "of the match"
                dealer = g.hand_names()[started.dealer]
                deals = "deal" if dealer == "You" else "deals"  # the person at the keyboard is 'You'
                self.screen.say(f"\nHand {g.session.index + 1} {of}: {dealer} {deals}.")
                for bet, suit in g.named_suits().items():
                    self.screen.say(f"Side bet {bet}: the dealer names {suit}; everyone puts in.")
            state = g.state
            assert state is not None
            if state.is_terminal():
                self.show_end(state)
                out = g.finish_hand()
                for seat in out:
                    self.screen.say(f"{g.names[seat]} {'are' if g.names[seat] == 'You' else 'is'} out of the match.")
                if self.pause and not g.session.is_over():
                    try:
                        if self.read("Press Enter for the next hand (q to stop) ").strip().lower() in ("q", "quit"):
                            self.screen.say(self.goodbye())
                            return 0
                    except EOFError:
                        return 0
                continue
            try:
                if not self.step(state):
                    self.screen.say(self.goodbye())
                    return 0
            except RulesetError as exc:  # the ruleset's mistake: the hand is void, nothing lost, play goes on
                reason = void_reason(exc)
                g.void_hand(reason)
                self.screen.say(f"The hand is void: {reason}. Nothing is paid.")

    def step(self, state: State) -> bool:
        """One action of the player to act (a bot's, or the person's); False when they quit."""
        g = self.game
        seat = state.current_player()
        if g.seats[g.session.seats[seat]] != HUMAN:
            action = g.bot(seat)(observation(state, seat), state.legal_actions(), g.bot_rng())
            g.apply(seat, action)
            self.screen.say(f"{g.hand_names()[seat]}: {action}")
            self.announce_closing(state)
            return True
        return self.human_turn(state, seat)

    def goodbye(self) -> str:
        g = self.game
        if g.save_path is None:
            return "Bye."
        if g.save_error is not None:
            return f"The game could not be saved: {g.save_error}; the last good save is kept."
        return "Game saved."

    def announce_closing(self, state: State) -> None:
        """Say once, when a drop that is decided later is made, what the others have left (one last turn)."""
        notice = self.notices.new(state, self.game.hand_names(), self.game.session.index)
        if notice:
            self.screen.say(notice, "bold")

    def human_turn(self, state: State, seat: int) -> bool:
        g = self.game
        view = observation(state, seat)
        legal = state.legal_actions()
        seats = g.session.seats
        self.screen.show_turn(view, g.hand_names(), legal, [g.session.ledger[s] for s in seats],
                              [g.session.scores[s] for s in seats] if g.ruleset.score_sheet != "money" else None)
        while True:
            try:
                text = self.read("> ").strip()
            except EOFError:
                return False
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?"):
                self.screen.say(help_text(g.ruleset))
                continue
            if word == "rules":
                self.screen.say(rules_for(g.ruleset, state.phase))
                continue
            if word == "hint":
                hint = policy(STRONGEST)(view, legal, g.bot_rng())
                self.screen.say(f"The {STRONGEST} bot would play: {hint}")
                continue
            if word in ("menu", "m"):
                self.screen.say(self.screen.menu(legal, g.ruleset.drop_called))
                continue
            try:
                action = parse_input(text, legal, g.ruleset.drop_called)
                g.apply(seat, action)
            except (A.ActionSyntaxError, IllegalAction) as exc:
                self.screen.say(f"Not possible: {exc}. Type 'help' for the actions, or a number from the menu.")
                continue
            self.announce_closing(state)
            return True

    def show_end(self, state: State) -> None:
        out = state.outcome()
        assert out is not None
        names = state.pack.names
        self.screen.show_end(out, self.game.hand_names(), [[names[c] for c in h] for h in state.hands],
                             [p.id for p in state.ruleset.side_pots])

    def finish(self) -> int:
        g = self.game
        settle = g.session.settlement()
        match = g.ruleset.session.is_match
        self.screen.say("\n== match over ==" if match else "\n== session over ==")
        for seat, name in enumerate(g.names):
            if g.ruleset.score_sheet == "money":
                self.screen.say(f"  {name}: {settle.money[seat]:+d}")
            else:
                out = "" if seat in g.session.active else " (out)"
                self.screen.say(f"  {name}: score {g.session.scores[seat]}{out}")
        if settle.capped:
            self.screen.say(f"The match stopped at the cap of {MAX_MATCH_HANDS:,} hands (MAX_MATCH_HANDS) before "
                            "its end: nobody won it.")
        else:
            self.screen.say(("Match won by " if match else "Won by ") + ", ".join(g.names[s] for s in settle.winners))
        return 0


class ClosingNotices:
    """Says once per drop decided later (a last round), when it is made (or its discard completes
    it), what the others have left."""

    def __init__(self) -> None:
        self._said: tuple[int, int | None] | None = None  # (hand, dropper) already announced

    def new(self, state: State, names: Sequence[str], hand: int) -> str | None:
        notice = closing_notice(state, names)
        by = state.closing.by if state.closing is not None else None
        if notice is None or (hand, by) == self._said:
            return None
        self._said = (hand, by)
        return notice


def closing_notice(state: State, names: Sequence[str]) -> str | None:
    """While a drop waits for its decision (the last round after it), in the table's words: "Ann
    chose to knock: every other player has one last turn." None otherwise."""
    if state.closing is None or state.is_terminal():
        return None
    return state.closing.notice(state, names)


def parse_input(text: str, legal: Sequence[A.Action], called: str = "drop") -> A.Action:
    """A menu number, a short form, a bare card (a discard), the table's word for a drop
    (``called``: turn.drop.called, "knock") or a full action."""
    words = text.split()
    if " ".join(words).lower() == called:
        return A.Drop()
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= len(legal):
            raise A.ActionSyntaxError(f"there is no choice {n} in the menu (1-{len(legal)})")
        return legal[n - 1]
    head = words[0].lower()
    if head in SHORT and len(words) == 1:
        return A.parse_action(SHORT[head])
    if head == "sp":
        return A.parse_action("spread " + " ".join(words[1:]))
    if head == "h" and len(words) >= 3:
        rest = words[1:]
        if rest[-2].lower() != "on":
            rest = rest[:-1] + ["on", rest[-1]]
        return A.parse_action("hit " + " ".join(rest))
    if len(words) == 1:
        try:  # a one-word action first (drop, claim, eat, pass), then a card to discard
            return A.parse_action(text)
        except A.ActionSyntaxError:
            pass
        try:
            return A.parse_action("discard " + words[0])
        except A.ActionSyntaxError:
            raise A.ActionSyntaxError(f"'{text}' is not an action or a card") from None
    return A.parse_action(text)


# The sections of the rules sheet that speak to each moment of a turn.
_RULES_FOR = {"start": ("A turn", "Waiting", "Automatic wins on the deal"),
              "play": ("A turn", "Spreads", "Hitting", "Waiting"),
              "ask": ("A turn",)}  # asked out of turn: the turn's 'Out of turn' lines


def rules_for(rs: Ruleset, phase: str) -> str:
    """What the ruleset says about the current choice, in the rules sheet's words."""
    wanted = _RULES_FOR.get(phase, _RULES_FOR["play"])
    lines: list[str] = []
    for section in sheet.build(rs):
        if section.title in wanted:
            lines.append(f"{section.title}:")
            lines += [f"  {line}" for line in section.lines]
    return "\n".join(lines)

