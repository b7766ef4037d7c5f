"""The page in a real browser: Debian's chromium, driven by Selenium (``make test-web``).

A whole game of every game played by clicking from the lobby; a Fool match of two
browsers in which neither page, nor any message it received, holds another seat's hidden
card; a match of bots watched, paused and sped up, with each bot move's candidates; a
replay stepped through; the page's undo refused after a draw; no console error on any
page.  Screenshots go to ``build/web-screenshots`` (``BOARDCORE_SCREENSHOTS``).

Skipped where Selenium, chromium or chromedriver is missing, unless
``BOARDCORE_BROWSER_TESTS=1`` (``make test-web`` sets it): then they fail.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import boardcore

REQUIRED = os.environ.get("BOARDCORE_BROWSER_TESTS") == "1"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SHOTS = Path(os.environ.get("BOARDCORE_SCREENSHOTS",
                            Path(__file__).resolve().parent.parent / "build" / "web-screenshots"))


def _missing(what: str) -> None:
    if REQUIRED:
        pytest.fail(f"the browser tests need {what}", pytrace=False)
    pytest.skip(f"the browser tests need {what}", allow_module_level=True)


# httpx2: tests.test_web, whose checks these tests share, skips without it.
for _module in ("selenium", "starlette", "uvicorn", "websockets", "httpx2"):
    try:
        __import__(_module)
    except ImportError:
        _missing(f"the Python package {_module}")
if not (os.access(CHROMIUM, os.X_OK) and os.access(DRIVER, os.X_OK)):
    _missing("chromium and chromedriver (apt-get install chromium chromium-driver)")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from tests.test_web import fool_leaks, position, sent_for  # noqa: E402
from tests.test_web_process import Server  # noqa: E402

Browser = Callable[[], Any]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("web")
    running = Server(folder / "matches.sqlite3", folder / "server.log")
    running.start()
    yield running
    running.stop()


@pytest.fixture
def browser() -> Iterator[Browser]:
    """Open headless chromium windows; at the end, none may have logged an error."""
    drivers: list[Any] = []

    def open_one() -> Any:
        options = Options()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                    "--disable-gpu", "--window-size=1280,900", "--no-first-run",
                    "--disable-extensions"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(DRIVER))
        driver.set_script_timeout(30)
        drivers.append(driver)
        return driver

    try:
        yield open_one
        for driver in drivers:
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            assert not errors, errors
    finally:
        for driver in drivers:
            driver.quit()


def shot(driver: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def until(driver: Any, script: str, timeout: float = 60) -> Any:
    """Wait until ``script`` (JavaScript returning a value) returns something true."""
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(
        lambda d: d.execute_script(script))


SITUATION = """
const outcome = document.querySelector('#outcome');
return {version: document.body.dataset.version, ply: Number(document.body.dataset.ply),
        over: outcome !== null && !outcome.hidden,
        moves: document.querySelectorAll('#moves button.move:not([disabled])').length,
        html: arguments[0] ? document.documentElement.outerHTML : null};
"""


def situation(driver: Any, html: bool = False) -> dict[str, Any]:
    found: dict[str, Any] = driver.execute_script(SITUATION, html)
    return found


def click_a_move(driver: Any, rng: random.Random) -> bool:
    """Click one of the page's moves and wait for the server's answer; False if none."""
    before = situation(driver)
    buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button.move:not([disabled])")
    if not buttons:
        return False
    try:
        rng.choice(buttons).click()
    except StaleElementReferenceException:
        return False
    until(driver, f"return document.body.dataset.version !== '{before['version']}'")
    return True


def play_to_the_end(driver: Any, rng: random.Random, name: str) -> int:
    """Click moves until the game is over; return how many."""
    clicks = 0
    while True:
        now = WebDriverWait(driver, 120, poll_frequency=0.02).until(
            lambda d: (lambda s: s if s["over"] or s["moves"] else None)(situation(d)))
        if now["over"]:
            return clicks
        if click_a_move(driver, rng):
            clicks += 1
            if clicks == 6:
                shot(driver, name)


def _levels(server: Server) -> list[str]:
    games = server.get("/api/games")
    assert games["levels"] == [f"level:{n}" for n in range(1, 6)], games
    return list(games["levels"])


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_a_whole_game_by_clicking(server: Server, browser: Browser, name: str) -> None:
    driver = browser()
    driver.get(server.url + "/")
    until(driver, "return document.querySelectorAll('#game option').length === 4")
    Select(driver.find_element(By.ID, "game")).select_by_value(name)
    players = 4 if name == "fool" else 2
    driver.execute_script("const p = document.getElementById('players'); p.value = arguments[0];"
                          "p.dispatchEvent(new Event('change'));"
                          "document.getElementById('delay').value = '0';", players)
    opponent = _levels(server)[0]
    selects = driver.find_elements(By.CSS_SELECTOR, "select.seat")
    assert len(selects) == players
    for select in selects[1:]:
        Select(select).select_by_value(opponent)
    if name == "just4fun":
        shot(driver, "lobby")
    driver.find_element(By.ID, "create").click()
    link = WebDriverWait(driver, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "a.seat-link"))[0].get_attribute("href")
    driver.get(link)
    clicks = play_to_the_end(driver, random.Random(1), name)
    assert clicks > 3
    outcome = driver.find_element(By.ID, "outcome").text
    assert outcome.startswith("Game over")
    messages = [json.loads(m) for m in driver.execute_script("return window.boardcoreMessages")]
    last = messages[-1]
    state = server.get(f"/api/matches/{last['match']}")
    assert state["outcome"] is not None and state["outcome"] == last["outcome"]
    assert str(state["outcome"]["scores"][0]) in outcome


def test_two_browsers_never_see_each_others_cards(server: Server, browser: Browser) -> None:
    made = server.post("/api/matches", {"game": "fool", "seats": ["human", "random", "human",
                                                                   "random"],
                                        "delay": 0, "seed": 5})
    drivers = {0: browser(), 2: browser()}
    for seat, driver in drivers.items():
        driver.get(f"{server.url}/#/play/{made['tokens'][str(seat)]}")
    rng = random.Random(2)
    pages: dict[int, list[tuple[int, str]]] = {0: [], 2: []}
    deadline = time.monotonic() + 240
    ply = 0
    while ply < 90 and time.monotonic() < deadline:
        for seat, driver in drivers.items():
            now = situation(driver, html=True)
            pages[seat].append((now["ply"], now["html"]))
            ply = max(ply, now["ply"])
            if now["over"]:
                ply = 10**9
            elif now["moves"]:
                click_a_move(driver, rng)
    assert ply >= 90, "the match did not get into its second round"
    shot(drivers[0], "fool-seat-0")
    shot(drivers[2], "fool-seat-2")
    log = server.get(f"/api/matches/{made['match']}")["log"]
    actions = [move for _, move in log]
    game = boardcore.make("fool", players=4)
    checked = 0
    for seat, driver in drivers.items():
        for text in driver.execute_script("return window.boardcoreMessages"):
            message = json.loads(text)
            if message["type"] != "state":
                continue
            state = position(game, 5, actions[:message["ply"]])
            assert (message["view"], message["svg"]) == sent_for(state, seat)
            assert not fool_leaks(text, seat, state), (seat, message["ply"])
            checked += 1
        for at, html in pages[seat]:
            state = position(game, 5, actions[:at])
            assert not fool_leaks(html, seat, state), (seat, at)
            checked += 1
    assert checked > 100


def test_a_replay_stepped_through(server: Server, browser: Browser, tmp_path: Path) -> None:
    made = server.post("/api/matches", {"game": "rummikub_junior", "seats": ["random", "greedy"],
                                        "delay": 0, "seed": 8})
    deadline = time.monotonic() + 60
    while server.get(f"/api/matches/{made['match']}")["outcome"] is None:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    record = server.get(f"/api/matches/{made['match']}/record")
    plies = len(record["actions"])
    driver = browser()
    driver.get(f"{server.url}/#/replay/{made['match']}")

    def at(ply: int) -> None:
        until(driver, f"return document.getElementById('replay-frame').textContent"
                      f" === '{ply} / {plies}'")

    at(0)
    for _ in range(3):
        driver.find_element(By.ID, "replay-next").click()
    at(3)
    driver.find_element(By.ID, "replay-prev").click()
    at(2)
    seat, move = server.get(f"/api/matches/{made['match']}")["log"][1]
    current = driver.find_element(By.CSS_SELECTOR, "#log .current").text
    assert current.startswith(f"seat {seat}") and current.endswith(f": {move}"), current
    driver.execute_script("const r = document.getElementById('replay-ply');"
                          "r.value = arguments[0]; r.dispatchEvent(new Event('input'));",
                          plies // 2)
    at(plies // 2)
    Select(driver.find_element(By.ID, "replay-perspective")).select_by_value("1")
    until(driver, "return document.querySelector('#board svg').textContent"
                  ".includes('as seat 1 sees it')")
    Select(driver.find_element(By.ID, "replay-perspective")).select_by_value("spectator")
    until(driver, "return document.querySelector('#board svg').textContent"
                  ".includes('as a spectator sees it')")
    shot(driver, "replay")
    Select(driver.find_element(By.ID, "replay-speed")).select_by_value("60")
    driver.find_element(By.ID, "replay-play").click()
    at(plies)
    assert driver.find_element(By.ID, "outcome").text.startswith("Game over")
    # A record from a file.
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    driver.get(f"{server.url}/#/replay")
    driver.find_element(By.ID, "record-file").send_keys(str(path))
    at(0)
    driver.find_element(By.ID, "replay-last").click()
    at(plies)


def test_the_pages_undo_is_refused_after_a_draw(server: Server, browser: Browser) -> None:
    # Rummikub Junior, 2 players, seed 3: seat 0's pass draws the joker.
    made = server.post("/api/matches", {"game": "rummikub_junior", "seats": ["human", "greedy"],
                                        "delay": 0, "seed": 3})
    driver = browser()
    driver.get(f"{server.url}/#/play/{made['tokens']['0']}")
    until(driver, "return document.querySelector('#moves button[data-move=\"pass\"]')")
    driver.find_element(By.CSS_SELECTOR, '#moves button[data-move="pass"]').click()
    until(driver, "return Number(document.body.dataset.ply) >= 1")
    assert "J" in json.loads(driver.execute_script(
        "return window.boardcoreMessages.at(-1)"))["view"]["hand"]
    driver.find_element(By.ID, "undo").click()
    until(driver, "return document.getElementById('error').textContent"
                  ".includes('hidden information')")
    shot(driver, "undo-refused")
    assert server.get(f"/api/matches/{made['match']}")["ply"] >= 1
    # Where nothing was drawn, the same button takes the move and the bots' replies back.
    made = server.post("/api/matches", {"game": "fool", "seats": ["human", "greedy", "greedy",
                                                                  "greedy"],
                                        "delay": 0, "seed": 7})
    driver.get(f"{server.url}/#/play/{made['tokens']['0']}")
    until(driver, "return document.querySelectorAll('#moves button.move').length > 0")
    click_a_move(driver, random.Random(3))
    until(driver, "return document.querySelectorAll('#moves button.move').length > 0")
    driver.find_element(By.ID, "undo").click()
    until(driver, "return document.body.dataset.ply === '0'")


def test_bots_watched_paused_and_sped_up(server: Server, browser: Browser) -> None:
    made = server.post("/api/matches", {"game": "just4fun", "seats": ["level:2", "level:3"],
                                        "delay": 0.2, "seed": 4})
    match = made["match"]
    driver = browser()
    driver.get(f"{server.url}/#/watch/{match}")
    # A bot's move shows its candidates: visit counts and values, as the server sent them.
    until(driver, "return !document.getElementById('analysis').hidden && Array.from("
                  "document.querySelectorAll('#analysis tbody tr')).some("
                  "(row) => Number(row.children[1].textContent) > 0)")
    rows = driver.execute_script("return Array.from(document.querySelectorAll("
                                 "'#analysis tbody tr'), (row) => Array.from(row.children,"
                                 " (cell) => cell.textContent))")
    assert all(0 <= float(value) <= 1 for _, visits, value, _ in rows if visits), rows
    shot(driver, "watch")
    # Pause: the bots stop, on the server too.
    until(driver, "return !document.getElementById('pace').hidden")
    driver.find_element(By.ID, "pause").click()
    until(driver, "return document.getElementById('pause').textContent === 'Resume'")
    assert server.get(f"/api/matches/{match}")["paused"] is True
    paused_at = server.get(f"/api/matches/{match}")["ply"]
    time.sleep(1.5)                                 # at 0.2 s a move, several would be made
    assert server.get(f"/api/matches/{match}")["ply"] <= paused_at + 1  # one may be thinking
    # The speed slider sets the bots' wait; resumed, they play the game out.
    driver.execute_script("const d = document.getElementById('delay'); d.value = '0';"
                          "d.dispatchEvent(new Event('change'));")
    until(driver, "return document.getElementById('delay-value').textContent === '0.0'")
    driver.find_element(By.ID, "pause").click()
    until(driver, "return !document.getElementById('outcome').hidden", timeout=120)
    final = server.get(f"/api/matches/{match}")
    assert final["delay"] == 0 and final["paused"] is False and final["outcome"] is not None
    # Every message the spectator's page received showed public information only.
    actions = [move for _, move in final["log"]]
    game = boardcore.make("just4fun", players=2)
    messages = [json.loads(text) for text in driver.execute_script(
        "return window.boardcoreMessages")]
    states = [m for m in messages if m["type"] == "state"]
    assert len(states) > 10 and all(m["seat"] is None and m["moves"] == [] for m in states)
    for message in states:
        state = position(game, 4, actions[:message["ply"]])
        assert (message["view"], message["svg"]) == sent_for(state, None)
