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

    def __init__(self, room: Room) -> None:
        self.room = room
        config = uvicorn.Config(create_app(room, bot_delay=0), host="127.0.0.1", port=0, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "Server":
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)
        port = self.server.servers[0].sockets[0].getsockname()[1]
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
    return Room(game)


def _my_hand(page: Any) -> list[str]:
    return [str(c) for c in page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")]


def _play_my_turn(page: Any) -> None:
    """Draw from the stock when that is offered; else click a card of the hand and Discard."""
    draw = page.locator('#actions button[data-action="draw stock"]')
    if draw.count():
        draw.click()
        return
    page.locator("#hand .card").first.click()
    page.locator("#discard-btn").click()


def test_a_whole_hand_played_through_clicks(browser: Any) -> None:
    room = _room(1, ("greedy",), seed=21)
    with Server(room) as server:
        page = browser.new_page()
        page.goto(server.url)
        page.wait_for_selector("#hand .card")
        assert page.text_content("#you") == "You are Player1"
        page.screenshot(path=str(ARTIFACTS / "serve-hand-start.png"))
        for _ in range(200):
            if page.locator("#over").is_visible():
                break
            page.wait_for_function("document.querySelectorAll('#actions button, #discard-btn').length > 0 "
                                   "|| !document.querySelector('#over').hidden")
            if page.locator("#over").is_visible():
                break
            before = page.text_content("#log")
            _play_my_turn(page)
            page.wait_for_function("before => document.querySelector('#log').textContent !== before", arg=before)
        assert page.locator("#over").is_visible(), "the hand did not end"
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
