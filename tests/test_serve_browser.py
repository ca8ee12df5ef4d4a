"""tonk serve in a real browser: Playwright drives the system's Chromium (installed by .ci/run
from the OS packages). A whole hand played through clicks, two browsers at one table, a reload
mid-hand. Screenshots are kept in test-artifacts/ (or $TONK_TEST_ARTIFACTS).

Where no browser can be installed these tests are skipped with the reason; the rest of the
suite does not need one."""
from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="tonk serve needs the 'serve' extra")
uvicorn = pytest.importorskip("uvicorn", reason="tonk serve needs the 'serve' extra")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the test extra)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt-get install chromium): "
                                                         "the browser tests of tonk serve are skipped")

from tonkdsl.tools.serve import make_game  # noqa: E402
from tonkdsl.tools.serve.app import create_app  # noqa: E402
from tonkdsl.tools.serve.room import Room  # noqa: E402
from conftest import ROOT  # noqa: E402

ARTIFACTS = Path(os.environ.get("TONK_TEST_ARTIFACTS", ROOT / "test-artifacts"))
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


class Server:
    """A real uvicorn server on a free port, in a thread, for one room."""

    def __init__(self, room: Room, port: int = 0) -> None:
        self.room = room
        config = uvicorn.Config(create_app(room, bot_delay=0), host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "Server":
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)
        self.port = port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/t/{self.room.table_id}?code={self.room.code}"
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def _room(people: int, bots: tuple[str, ...], seed: int, ruleset: str = "standard") -> Room:
    game = make_game(ruleset, seats=people + len(bots), bots=bots, names=(), stake=1, hands=None, seed=seed,
                     save=None, resume=None)
    return Room(game, lobby=False)


def _my_hand(page: Any) -> list[str]:
    return [str(c) for c in page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")]


def _play_my_turn(page: Any) -> None:
    """Draw from the stock when that is offered; else click a card of the hand and Discard."""
    draw = page.locator('#actions button[data-action="draw stock"]')
    if draw.count():
        assert draw.text_content() == "Draw from the stock"  # a player's words, not the engine's
        top = page.locator('#actions button[data-action="draw discard"]')
        assert not top.count() or (top.text_content() or "").startswith("Take the ")
        draw.click()
        return
    page.locator("#hand .card").first.click()
    page.locator("#discard-btn").click()


def _play_until_the_hand_is_over(page: Any, turns: int) -> None:
    """Play the person's turns through clicks (the bots play theirs) until the hand's end shows."""
    for _ in range(turns):
        page.wait_for_function("document.querySelectorAll('#actions button, #discard-btn').length > 0 "
                               "|| !document.querySelector('#over').hidden")
        if page.locator("#over").is_visible():
            break
        before = page.text_content("#log")
        _play_my_turn(page)
        page.wait_for_function("before => document.querySelector('#log').textContent !== before", arg=before)
    assert page.locator("#over").is_visible(), "the hand did not end"


def test_a_whole_hand_played_through_clicks(browser: Any) -> None:
    room = _room(1, ("greedy",), seed=21)
    with Server(room) as server:
        page = browser.new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        assert page.text_content("#you") == "You are Player1"
        page.screenshot(path=str(ARTIFACTS / "serve-hand-start.png"))
        _play_until_the_hand_is_over(page, 200)
        assert "Hand over" in (page.text_content("#over") or "")
        page.screenshot(path=str(ARTIFACTS / "serve-hand-over.png"), full_page=True)
        state = room.game.state
        assert state is not None and state.is_terminal()


def test_two_browsers_at_one_table_each_see_their_own_hand(browser: Any) -> None:
    room = _room(2, (), seed=8)
    with Server(room) as server:
        pages = []
        for _ in range(2):  # two contexts: two browsers, each with its own storage
            page = browser.new_context().new_page()
            page.goto(server.url)
            page.wait_for_selector("#hand .card")
            pages.append(page)
        names = [p.text_content("#you") for p in pages]
        assert sorted(names) == ["You are Player1", "You are Player2"]
        state = room.game.state
        assert state is not None
        for page in pages:
            me = (page.text_content("#you") or "").split()[-1]
            local = room.game.hand_names().index(me)
            assert sorted(_my_hand(page)) == sorted(state.pack.names[c] for c in state.hands[local])
            # Back: the banner is gone at once, before anyone moves.
            assert page.text_content("#message") == ""
            assert "reconnecting" not in (page.text_content("#status") or "")
        to_play = room.game.hand_names()[state.current_player()]
        mover = next(p for p in pages if (p.text_content("#you") or "").endswith(to_play))
        other = next(p for p in pages if p is not mover)
        stock_before = other.text_content("#stock")
        _play_my_turn(mover)
        other.wait_for_function("before => document.querySelector('#stock').textContent !== before",
                                arg=stock_before)
        for i, page in enumerate(pages):
            page.screenshot(path=str(ARTIFACTS / f"serve-two-browsers-{i + 1}.png"))


def test_a_reload_mid_hand_keeps_the_seat_and_the_hand(browser: Any) -> None:
    room = _room(1, ("greedy",), seed=5)
    with Server(room) as server:
        page = browser.new_context().new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        before = page.text_content("#log")
        _play_my_turn(page)
        page.wait_for_function("before => document.querySelector('#log').textContent !== before", arg=before)
        hand = _my_hand(page)
        page.goto(server.url.split("?")[0])  # the reload, even without the code: the seat's token is kept
        page.wait_for_selector("#hand .card")
        assert page.text_content("#you") == "You are Player1"
        assert _my_hand(page) == hand
        page.screenshot(path=str(ARTIFACTS / "serve-after-reload.png"))


def _play_until(pages: list[Any], done: str, limit: int = 400) -> None:
    """Each page plays its turns (draw, then a discard) until ``done`` (a JS expression) holds on
    the first page; the bots play theirs on the server."""
    for _ in range(limit):
        if pages[0].evaluate(done):
            return
        for page in pages:
            if page.locator("#actions button, #discard-btn").count() and not page.locator("#over").is_visible():
                before = page.text_content("#log")
                try:
                    _play_my_turn(page)
                    page.wait_for_function("b => document.querySelector('#log').textContent !== b", arg=before,
                                           timeout=5000)
                except sync_api.Error:
                    pass  # the turn moved on meanwhile (a refresh of the page): look again
        time.sleep(0.05)
    raise AssertionError(f"not reached: {done}")


def test_two_friends_and_a_bot_play_a_session_to_its_final_standings(browser: Any) -> None:
    game = make_game("standard", seats=3, bots=("greedy",), names=("Ann", "Bob"), stake=1, hands=2, seed=31,
                     save=None, resume=None)
    room = Room(game, lobby=False)
    with Server(room) as server:
        pages = [browser.new_context().new_page() for _ in range(2)]
        for page in pages:
            page.goto(server.url)
            page.wait_for_selector("#hand .card")
        for number in (1, 2):
            _play_until(pages, "!document.querySelector('#over').hidden")
            pages[0].wait_for_selector("#next-hand")
            # Every hand is shown at the end, with each payment and the rule that made it.
            pages[1].wait_for_selector("#reveal:not([hidden])")
            text = pages[1].text_content("#reveal") or ""
            assert text.startswith("Every hand") and all(n in text for n in ("Ann", "Bob", "Greedy1"))
            label = pages[0].text_content("#next-hand")
            assert label == ("See the final standings" if number == 2 else "Next hand")
            pages[0].click("#next-hand")
            if number == 1:
                for page in pages:
                    page.wait_for_function("document.querySelector('#hand-number').textContent.startsWith('Hand 2') "
                                           "&& document.querySelector('#over').hidden")
        for page in pages:
            page.wait_for_selector("#standings:not([hidden])")
            text = page.text_content("#standings") or ""
            winners = [room.game.names[w] for w in room.game.session.settlement().winners]
            assert text.startswith(f"Final standings: {' and '.join(winners)} won")
            assert (page.text_content("#status") or "").startswith("The game is over")
        pages[0].screenshot(path=str(ARTIFACTS / "serve-final-standings.png"), full_page=True)
        pages[1].click("#rematch-btn")  # the same friends, a new game at the same link
        for page in pages:
            page.wait_for_function("document.querySelector('#hand-number').textContent.startsWith('Hand 1') "
                                   "&& document.querySelectorAll('#hand .card').length > 0")


def test_a_friend_who_leaves_on_their_turn_is_played_for_and_takes_the_seat_back_elsewhere(browser: Any) -> None:
    game = make_game("standard", seats=3, bots=("greedy",), names=("Ann", "Bob"), stake=1, hands=3, seed=13,
                     save=None, resume=None)
    room = Room(game, turn_time=1.5, lobby=False)
    with Server(room) as server:
        ann = browser.new_context().new_page()
        bob_ctx = browser.new_context()
        bob = bob_ctx.new_page()
        for page in (ann, bob):
            page.goto(server.url)
            page.wait_for_selector("#hand .card")
        link = bob.input_value("#seat-link-text")
        assert "?seat=" in link and "code=" not in link
        # Bob waits for his turn, then closes his browser.
        _play_until([bob, ann], "document.querySelectorAll('#actions button, #discard-btn').length > 0")
        bob_ctx.close()
        ann.wait_for_function("[...document.querySelectorAll('.player')].some(p => p.textContent.includes('Bob') "
                              "&& /disconnected|away/.test(p.textContent))")
        # The stand-in plays his turns: its moves come back every round (the line saying he left
        # may scroll out of the page's last 14 lines under load, when Ann's own 1.5 s run out too).
        ann.wait_for_function("[...document.querySelectorAll('.player')].some(p => p.textContent.includes('Bob') "
                              "&& p.textContent.includes('away: a bot plays for them'))", timeout=10000)
        ann.wait_for_function("document.querySelector('#log').textContent.includes('Bob (the stand-in bot)')")
        ann.screenshot(path=str(ARTIFACTS / "serve-friend-away.png"), full_page=True)
        # Bob comes back from another device with his own seat link.
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(link)
        phone.wait_for_selector("#hand .card")
        assert phone.text_content("#you") == "You are Bob"
        ann.wait_for_function("document.querySelector('#log').textContent.includes('Bob is back.')")
        state = room.game.state
        assert state is not None
        local = room.game.hand_names().index("Bob")
        if not state.is_terminal():
            assert sorted(_my_hand(phone)) == sorted(state.pack.names[c] for c in state.hands[local])
        phone.screenshot(path=str(ARTIFACTS / "serve-phone.png"), full_page=True)


def test_a_server_killed_and_resumed_keeps_every_seat_and_link(browser: Any, tmp_path: Path) -> None:
    save = tmp_path / "game.yaml"
    game = make_game("standard", seats=2, bots=(), names=("Ann", "Bob"), stake=1, hands=2, seed=17, save=save,
                     resume=None)
    room = Room(game, identity_path=tmp_path / "game.yaml.table", lobby=False)
    with Server(room) as server:
        pages = {}
        for _ in range(2):
            page = browser.new_context().new_page()
            page.goto(server.url)
            page.wait_for_selector("#hand .card")
            pages[(page.text_content("#you") or "").split()[-1]] = page
        _play_until(list(pages.values()), "document.querySelector('#log').textContent.split('\\n').length > 4")
        url, port = server.url, server.port
    # The server is gone (as after kill -9); the tabs try to reconnect, and say so: no "Your turn"
    # on a table that cannot hear it, and nothing to click.
    for page in pages.values():
        page.wait_for_function("document.querySelector('#status').textContent === "
                               "'The table cannot be reached: reconnecting...'")
        assert page.text_content("#message") == "Disconnected: reconnecting..."
        assert page.locator("#actions button, #discard-btn").count() == 0
    # It comes back from the files.
    again = make_game(None, seats=2, bots=(), names=(), stake=1, hands=None, seed=0, save=save, resume=save)
    back = Room(again, identity_path=tmp_path / "game.yaml.table")
    with Server(back, port=port) as server2:
        assert server2.url == url  # the same link and code
        state = back.game.state
        assert state is not None
        for name, page in pages.items():
            page.wait_for_function("n => document.querySelector('#you').textContent === 'You are ' + n", arg=name)
            local = back.game.hand_names().index(name)
            page.wait_for_function("n => document.querySelectorAll('#hand .card').length === n",
                                   arg=len(state.hands[local]))
            assert sorted(_my_hand(page)) == sorted(state.pack.names[c] for c in state.hands[local])


def test_a_person_eats_a_discard_at_a_table_with_eating(browser: Any) -> None:
    game = make_game(str(ROOT / "tests" / "variations" / "x15-eating.yaml"), seats=2, bots=("greedy",),
                     names=("Ann",), stake=1, hands=None, seed=0, save=None, resume=None)
    room = Room(game, lobby=False)
    with Server(room) as server:
        page = browser.new_context().new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        for _ in range(200):
            page.wait_for_function("document.querySelectorAll('#actions button, #discard-btn').length > 0 "
                                   "|| !document.querySelector('#over').hidden")
            eat = page.locator('#actions button[data-action="eat"]')
            if eat.count():
                assert page.locator('#actions button[data-action="pass"]').count() == 1
                before = len(_my_hand(page))
                eat.click()
                page.wait_for_function("document.querySelector('#log').textContent.includes('Ann: eat')")
                page.wait_for_function("n => document.querySelectorAll('#hand .card').length === n + 1", arg=before)
                page.screenshot(path=str(ARTIFACTS / "serve-eat.png"), full_page=True)
                return
            assert not page.locator("#over").is_visible(), "the hand ended before Ann could eat"
            before_log = page.text_content("#log")
            _play_my_turn(page)
            page.wait_for_function("b => document.querySelector('#log').textContent !== b", arg=before_log)
        raise AssertionError("Ann was never offered a discard to eat")


def test_the_hand_is_sorted_the_drawn_card_marked_and_a_tap_on_a_pile_draws(browser: Any) -> None:
    room = _room(1, ("greedy",), seed=21)
    with Server(room) as server:
        page = browser.new_context().new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        # A tap on the discard pile takes its top card, which is then marked as drawn.
        page.wait_for_selector("#discard .card.can-draw")
        top = page.get_attribute("#discard .card", "data-card")
        page.click("#discard .card")
        page.wait_for_selector("#hand .card.drawn")
        assert page.get_attribute("#hand .card.drawn", "data-card") == top
        assert page.get_attribute("#hand .card.drawn", "aria-label").endswith(", just drawn")
        assert page.text_content("#last-move") == "Last move: Player1: draw discard"
        # A refused move (the card taken may not be discarded at once) leaves it selected, and shown so.
        page.click(f'#hand .card[data-card="{top}"]')
        page.click("#discard-btn")
        page.wait_for_function("document.querySelector('#message').textContent.startsWith('not possible')")
        assert "selected" in (page.get_attribute(f'#hand .card[data-card="{top}"]', "class") or "")
        assert page.get_attribute(f'#hand .card[data-card="{top}"]', "aria-pressed") == "true"
        page.screenshot(path=str(ARTIFACTS / "serve-refused-move.png"), full_page=True)
        page.click(f'#hand .card[data-card="{top}"]')
        other = next(c for c in _my_hand(page) if c != top)
        page.click(f'#hand .card[data-card="{other}"]')
        before = page.text_content("#log")
        page.click("#discard-btn")
        page.wait_for_function("b => document.querySelector('#log').textContent !== b", arg=before)
        assert page.locator("#hand .card.drawn").count() == 0  # the turn is over
        # Next turn: a tap on the stock draws.
        page.wait_for_selector("#stock-card.can-draw", timeout=10000)
        page.click("#stock-card")
        page.wait_for_selector("#hand .card.drawn")
        state = room.game.state
        assert state is not None
        drawn = page.get_attribute("#hand .card.drawn", "data-card")
        assert drawn == state.pack.names[state.hands[room.game.hand_names().index("Player1")][-1]]
        ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        hand = _my_hand(page)
        assert hand == sorted(hand, key=lambda c: (ranks.index(c[:-1]), "CDHS".index(c[-1])))
        page.click("#sort-btn")
        hand = _my_hand(page)
        assert hand == sorted(hand, key=lambda c: ("CDHS".index(c[-1]), ranks.index(c[:-1])))
        # Cards are reached and chosen by keyboard too.
        page.focus("#hand .card >> nth=0")
        page.keyboard.press("Enter")
        assert page.get_attribute("#hand .card >> nth=0", "aria-pressed") == "true"
        page.keyboard.press(" ")
        assert page.get_attribute("#hand .card >> nth=0", "aria-pressed") == "false"
        page.screenshot(path=str(ARTIFACTS / "serve-drawn-card.png"), full_page=True)


def test_friends_meet_in_the_lobby_choose_their_names_and_the_game_starts_when_everyone_is_ready(browser: Any) -> None:
    game = make_game("standard", seats=3, bots=("greedy",), names=(), stake=1, hands=None, seed=9, save=None,
                     resume=None)
    room = Room(game)  # a new table waits in its lobby
    with Server(room) as server:
        ann = browser.new_context().new_page()
        ann.goto(server.url)
        ann.wait_for_selector("#lobby:not([hidden])")
        assert "Player2: empty seat" in (ann.text_content("#lobby-seats") or "")
        assert (ann.text_content("#status") or "").startswith("Waiting for Player2 to sit down")
        assert ann.locator("#start-btn").count() == 1  # the host may start without the missing
        ann.fill("#name-input", "Ann")
        ann.click("#name-btn")
        ann.wait_for_function("document.querySelector('#you').textContent === 'You are Ann'")
        ann.click("#copy-link")
        assert (ann.text_content("#copied") or "") == server.url
        ann.screenshot(path=str(ARTIFACTS / "serve-lobby.png"), full_page=True)
        bob = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        bob.goto(server.url)
        # The last to open the link sees the lobby too: names themselves, then everyone says Ready.
        bob.wait_for_selector("#lobby:not([hidden])")
        bob.fill("#name-input", "Bob")
        bob.press("#name-input", "Enter")
        bob.wait_for_function("document.querySelector('#you').textContent === 'You are Bob'")
        bob.click("#ready-btn")
        ann.wait_for_function("document.querySelector('#lobby-seats').textContent.includes('Bob: seated \u2713 ready')")
        assert "Ann: seated not ready yet" in (ann.text_content("#lobby-seats") or "")
        bob.screenshot(path=str(ARTIFACTS / "serve-lobby-ready.png"), full_page=True)
        ann.click("#ready-btn")
        for page in (ann, bob):
            page.wait_for_selector("#hand .card")
            assert page.locator("#lobby").is_hidden()
        assert room.game.names[:2] == ["Ann", "Bob"] and "Everyone is ready: the game starts." in room.log


def test_a_wild_card_is_shown_where_it_stands_in_a_spread(browser: Any) -> None:
    # Chicago (2s and jokers wild), seed 6: the second player spreads JD KD with the 2H between them.
    room = _room(2, (), seed=6, ruleset="chicago")
    g = room.game
    assert g.state is not None
    seat = room.seats[g.session.seats[g.state.current_player()]]
    room.act(seat, "draw stock")
    room.act(seat, "spread JD KD 2H")
    with Server(room) as server:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(server.url)
        page.wait_for_selector("#spreads .spread .card")
        shown = page.eval_on_selector_all("#spreads .spread .card", "els => els.map(e => e.dataset.card)")
        assert shown == ["JD", "2H", "KD"]
        wild = page.locator("#spreads .card.wild")
        assert wild.count() == 1 and "as Q\u2666" in (wild.text_content() or "")  # the card as shown, not its code
        assert wild.get_attribute("aria-label") == "2\u2665, 2 of hearts, wild, as queen of diamonds"
        page.locator("#spreads").screenshot(path=str(ARTIFACTS / "serve-wild-spread.png"))


def test_a_rule_that_fails_at_play_voids_the_hand_and_the_host_ends_the_game(browser: Any, tmp_path: Path) -> None:
    # Issue 80: a rule failing at play froze a browser table. The hand is now void: the status
    # line says why, and the host deals the next hand or ends the game.
    path = tmp_path / "fails.yaml"
    path.write_text("extends: standard\nname: Fails at the third turn\n"
                    "turn:\n  drop: {allowed: '10 / (3 - turns) >= 0'}\n", encoding="utf-8")
    room = _room(1, ("greedy",), seed=1, ruleset=str(path))
    with Server(room) as server:
        page = browser.new_page()
        page.on("dialog", lambda dialog: dialog.accept())  # "End the game now?"
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        _play_until_the_hand_is_over(page, 60)
        status = page.text_content("#status") or ""
        assert status.startswith("The hand is void: a rule of the ruleset failed at play (the rule '10 / (3 - turns) "
                                 ">= 0' failed: division by zero). Nothing is paid; deal the next hand or end the game"), status
        assert "Hand over: void" in (page.text_content("#over") or "")
        page.screenshot(path=str(ARTIFACTS / "serve-hand-void.png"), full_page=True)
        page.locator("#end-game").click()
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('The game is over')")
        assert room.game.session.is_over() and len(room.game.session.records) == 1


def _axe_source() -> str | None:
    """axe-core's script, installed from the npm registry once into test-artifacts/axe (None where
    npm or the registry is not available)."""
    folder = ARTIFACTS / "axe"
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            return None
        folder.mkdir(parents=True, exist_ok=True)
        import subprocess

        done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix", str(folder), "axe-core@4"],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0 or not script.exists():
            return None
    return script.read_text(encoding="utf-8")


def _violations(page: Any, axe: str) -> list[str]:
    page.add_script_tag(content=axe)
    found = page.evaluate("async () => (await axe.run()).violations.map(v => [v.impact, v.id, v.nodes.length])")
    return [f"{impact} {rule} ({n})" for impact, rule, n in found if impact in ("critical", "serious")]


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_no_critical_or_serious_accessibility_violation(browser: Any, viewport: dict[str, int]) -> None:
    axe = _axe_source()
    if axe is None:
        pytest.skip("axe-core could not be installed from the npm registry here")
    lobby_game = make_game("standard", seats=3, bots=("greedy",), names=(), stake=1, hands=None, seed=4,
                           save=None, resume=None)
    with Server(Room(lobby_game, lobby=True)) as server:  # the lobby: two people to sit down
        page = browser.new_page(viewport=viewport)
        page.goto(server.url)
        page.wait_for_selector("#lobby:not([hidden])")
        assert _violations(page, axe) == [], "the lobby"
        page.close()
    one_hand = make_game("standard", seats=2, bots=("greedy",), names=(), stake=1, hands=1, seed=21, save=None,
                         resume=None)
    with Server(Room(one_hand, lobby=False)) as server:  # mid-hand, the hand over, the final standings
        page = browser.new_page(viewport=viewport)
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        assert _violations(page, axe) == [], "mid-hand"
        _play_until_the_hand_is_over(page, 200)
        assert _violations(page, axe) == [], "the hand over"
        page.click("#next-hand")
        page.wait_for_selector("#standings.final:not([hidden])")
        assert _violations(page, axe) == [], "the final standings"
        page.close()


def test_enter_chooses_a_name_and_the_browser_remembers_it_at_the_next_table(browser: Any) -> None:
    context = browser.new_context()  # one browser: its storage is kept from table to table
    first = Room(make_game("standard", seats=3, bots=("greedy",), names=(), stake=1, hands=None, seed=9,
                           save=None, resume=None))
    with Server(first) as server:
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector("#lobby:not([hidden])")
        page.fill("#name-input", "Zoe")
        page.press("#name-input", "Enter")  # Enter in the name box, not only the button
        page.wait_for_function("document.querySelector('#you').textContent === 'You are Zoe'")
        assert first.game.names[0] == "Zoe"
        page.close()
        port = server.port
    # The next table of the same server (the same address: what the browser keeps is per address).
    second = Room(make_game("standard", seats=3, bots=("greedy",), names=(), stake=1, hands=None, seed=10,
                            save=None, resume=None))
    with Server(second, port=port) as server:
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_function("document.querySelector('#you').textContent === 'You are Zoe'")
        assert second.game.names[0] == "Zoe"
    context.close()


def test_partners_are_shown_totalled_and_the_winning_side_named(browser: Any) -> None:
    game = make_game(str(ROOT / "tests" / "variations" / "x30-partners.yaml"), seats=4, bots=("greedy",) * 3,
                     names=("Ann",), stake=1, hands=1, seed=3, save=None, resume=None)
    room = Room(game, lobby=False)
    with Server(room) as server:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        names = room.game.names  # seats 0 and 2 play for side A, 1 and 3 for side B: partners opposite
        marks = {n: page.text_content(f'.player[data-player="{n}"] .side') for n in names}
        assert marks == {names[0]: "side A", names[1]: "side B", names[2]: "side A \u00b7 your partner",
                         names[3]: "side B"}
        line = page.text_content("#sides") or ""
        assert line.startswith(f"Side A ({names[0]} & {names[2]}): ") and f"Side B ({names[1]} & {names[3]}): " in line
        _play_until_the_hand_is_over(page, 200)
        page.click("#next-hand")  # one hand: then the final standings
        page.wait_for_selector("#standings:not([hidden])")
        text = page.text_content("#standings") or ""
        sides = room.sides()
        assert sides is not None
        winners = room.game.session.settlement().winners
        won = sorted({sides[w] for w in winners})
        said = " and ".join(f"side {'AB'[k]} ({names[k]} and {names[k + 2]})" for k in won)
        assert text.startswith(f"Final standings: {said} won"), text
        page.screenshot(path=str(ARTIFACTS / "serve-partners-standings.png"), full_page=True)


def test_each_seat_says_what_its_player_did_last(browser: Any) -> None:
    room = _room(1, ("greedy", "greedy"), seed=21)
    with Server(room) as server:
        page = browser.new_context().new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        for _ in range(2):  # draw, then discard: then both bots play their turns
            page.wait_for_function("document.querySelectorAll('#actions button, #discard-btn').length > 0")
            before = page.text_content("#log")
            _play_my_turn(page)
            page.wait_for_function("before => document.querySelector('#log').textContent !== before", arg=before)
        names = room.game.names
        for bot in names[1:]:
            page.wait_for_function("n => (document.querySelector(`.player[data-player='${n}'] .last-action`) || {})"
                                   ".textContent?.startsWith('discarded ') || document.querySelector('#over').hidden === false",
                                   arg=bot)
        said = page.text_content(f'.player[data-player="{names[0]}"] .last-action') or ""
        assert said.startswith("discarded ") and said[-1] in "\u2660\u2665\u2666\u2663"


def test_a_points_hand_shows_its_score_sheet_and_a_player_out_is_told(browser: Any) -> None:
    # hoyle-tunk: the score sheet of a hand gives each number with the rule that scored it, and
    # each total against the 100 a player is out at. Ann's total is set past 100 before the hand
    # is booked: at the next hand her page says she is out, and her box shows her as out.
    game = make_game("hoyle-tunk", seats=3, bots=("greedy", "greedy"), names=("Ann",), stake=1, hands=None,
                     seed=5, save=None, resume=None)
    room = Room(game, lobby=False)
    with Server(room) as server:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        assert "/ 100" in (page.text_content('.player[data-player="Ann"]') or "")
        _play_until_the_hand_is_over(page, 300)
        page.wait_for_selector("#score-sheet")
        sheet = page.text_content("#score-sheet") or ""
        assert sheet.startswith("Score sheet") and "total (out at 100)" in sheet
        over = room.game.state.outcome()  # type: ignore[union-attr]
        for line in over.score_lines:
            assert f"{'+' if line[1] > 0 else ''}{line[1]} {line[2]}" in sheet
        assert "nothing scored" in sheet or len({line[0] for line in over.score_lines}) == 3
        page.screenshot(path=str(ARTIFACTS / "serve-score-sheet.png"), full_page=True)
        room.game.session.scores[0] = 150  # as if Ann had lost every earlier hand
        page.click("#next-hand")
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('You are out of the match')")
        box = page.text_content('.player[data-player="Ann"]') or ""
        assert "out of the match" in box and page.locator('.player.out[data-player="Ann"]').count() == 1
        ends = [line for line in (page.text_content("#log") or "").splitlines() if line.startswith("The hand ends (")]
        assert all("drop" not in line for line in ends)  # hoyle-tunk's word: "knock won", never "drop won"


def test_cards_are_said_in_words_reactions_show_at_the_seat_and_the_chime_mutes(browser: Any) -> None:
    game = make_game("standard", seats=3, bots=("greedy",), names=("Ann", "Bob"), stake=1, hands=None, seed=13,
                     save=None, resume=None)
    room = Room(game, lobby=False)
    with Server(room) as server:
        ann, bob = (browser.new_context().new_page() for _ in range(2))
        for page in (ann, bob):
            page.goto(server.url)
            page.wait_for_selector("#hand .card")
        # A reaction: Ann taps a face, Bob sees it at Ann's seat (and a screen reader hears it).
        ann.click('#reactions button[aria-label="React: thumbs up"]')
        bob.wait_for_selector('.player[data-player="Ann"] .reaction')
        assert bob.get_attribute('.player[data-player="Ann"] .reaction', "aria-label") == "Ann thumbs up"
        bob.wait_for_function("document.querySelector('#announce').textContent === 'Ann thumbs up'")
        bob.wait_for_selector('.player[data-player="Ann"] .reaction', state="detached", timeout=9000)  # gone after 5 s
        # Cards in words: the log and the last move show J\u2665, never a card's code.
        _play_until([ann, bob], "document.querySelector('#log').textContent.includes(': discard ')")
        log = ann.text_content("#log") or ""
        discards = [line.split(": discard ", 1)[1] for line in log.splitlines() if ": discard " in line]
        assert discards and all(d[-1] in "\u2660\u2665\u2666\u2663" for d in discards)
        spoken = bob.text_content("#announce") or ""
        assert " of " in spoken or "draw stock" in spoken or spoken.endswith("thumbs up")
        # Mute: the button says it, and the browser remembers it.
        assert ann.text_content("#mute-btn") == "Sound: on"
        ann.click("#mute-btn")
        assert ann.text_content("#mute-btn") == "Sound: off" and ann.get_attribute("#mute-btn", "aria-pressed") == "true"
        assert ann.evaluate("localStorage.getItem('tonk-mute')") == "1"


def test_the_game_over_screen_leads_with_the_final_table_and_offers_rematch_and_leave(browser: Any) -> None:
    game = make_game("standard", seats=2, bots=("greedy",), names=("Ann",), stake=1, hands=1, seed=31,
                     save=None, resume=None)
    room = Room(game, lobby=False)
    with Server(room) as server:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        _play_until_the_hand_is_over(page, 200)
        page.click("#next-hand")
        page.wait_for_selector("#standings.final:not([hidden])")
        # The final table comes before the seats, in view on a phone, with the two big buttons.
        top = page.evaluate("document.querySelector('#standings').getBoundingClientRect().top")
        seats = page.evaluate("document.querySelector('#players').getBoundingClientRect().top")
        assert top < seats and top < 844
        assert page.locator("#standings #rematch-btn.big").count() == 1 and page.locator("#leave-btn.big").count() == 1
        page.screenshot(path=str(ARTIFACTS / "serve-game-over.png"))
        page.click("#leave-btn")
        page.wait_for_selector("#left-page")
        assert (page.text_content("#left-page") or "").startswith("You left the table.")
        assert page.locator("#left-page a").get_attribute("href").startswith(f"http://127.0.0.1:{server.port}/t/")


def test_on_your_turn_the_discard_shows_both_the_last_move_and_that_you_may_take_it(browser: Any) -> None:
    room = _room(1, ("greedy",), seed=21)
    with Server(room) as server:
        page = browser.new_context().new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        for _ in range(10):  # until the bot has discarded and it is the person's turn to draw
            page.wait_for_function("document.querySelectorAll('#actions button, #discard-btn').length > 0 "
                                   "|| !document.querySelector('#over').hidden")
            if page.locator("#discard .card.can-draw.last").count() or page.locator("#over").is_visible():
                break
            before = page.text_content("#log")
            _play_my_turn(page)
            page.wait_for_function("before => document.querySelector('#log').textContent !== before", arg=before)
        assert page.locator("#discard .card.can-draw.last").count() == 1
        shadow = page.evaluate("getComputedStyle(document.querySelector('#discard .card')).boxShadow")
        assert shadow.count("0px 0px 0px") == 2, shadow  # two rings: "you may take it" and "the last move"


def test_hoyle_tunks_knock_is_asked_as_a_knock_on_unmatched_cards_with_a_last_round(browser: Any) -> None:
    game = make_game("hoyle-tunk", seats=2, bots=("greedy",), names=("Ann",), stake=1, hands=None, seed=2,
                     save=None, resume=None)
    room = Room(game, lobby=False)
    with Server(room) as server:
        page = browser.new_context().new_page()
        page.goto(server.url)
        page.wait_for_selector('#actions button[data-action="draw stock"]')
        page.click('#actions button[data-action="draw stock"]')  # seed 2: then Ann may knock
        page.wait_for_selector("#drop-btn")
        assert page.text_content("#drop-btn") == "Knock"
        asked: list[str] = []
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        page.click("#drop-btn")
        unmatched = room.snapshot(room.seats[0])["unmatched"]
        assert asked == [f"Knock now with {unmatched} unmatched? The others then have their last turn."]
        assert not room.game.state.is_terminal()  # type: ignore[union-attr]  # asked, and declined


def test_a_person_whose_clock_ran_out_takes_the_seat_back_with_one_tap(browser: Any) -> None:
    game = make_game("standard", seats=2, bots=("greedy",), names=("Ann",), stake=1, hands=20, seed=13,
                     save=None, resume=None)
    room = Room(game, turn_time=2.0, lobby=False)  # time enough to play a turn on a busy machine
    with Server(room) as server:
        page = browser.new_context().new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        # Ann lets her clock run out: her page says a bot plays for her, and offers one button.
        page.wait_for_function("document.querySelector('#status').textContent === "
                               "'A bot is playing for you: take your seat back'", timeout=15000)
        assert page.locator("#actions button").count() == 1 and page.text_content("#back-btn") == "I am back"
        assert page.locator("#discard-btn, #drop-btn").count() == 0  # nothing a bot's move could beat
        page.click("#back-btn")
        page.wait_for_function("!document.querySelector('#status').textContent.startsWith('A bot is playing')")
        # Within one move it is her turn again, offered to her: she plays it, and nothing is refused.
        page.wait_for_function("document.querySelectorAll('#actions button, #discard-btn').length > 0 "
                               "|| !document.querySelector('#over').hidden", timeout=15000)
        if not page.locator("#over").is_visible():
            before = page.text_content("#log")
            _play_my_turn(page)
            page.wait_for_function("before => document.querySelector('#log').textContent !== before", arg=before)
            assert (page.text_content("#message") or "") == ""
            assert "Ann: " in (page.text_content("#log") or "").split("Ann is back.")[-1]
