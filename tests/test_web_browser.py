"""The play page in a real browser: Debian's chromium (/usr/bin/chromium) driven by Playwright
(never a downloaded browser build). Skipped when either is missing.

Every genre is played to the end with "Apply next step"; each input kind makes a deliberate
wrong mark that Check highlights; undo, redo and a reload keep the marks. Screenshots of a few
boards mid-game go to $GRADER_SCREENSHOTS (default: the system's temporary folder)."""
from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")
CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)), None)
if CHROMIUM is None:
    pytest.skip("no system chromium (apt-get install chromium)", allow_module_level=True)

from grader.web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SMALL = {  # the smallest corpus puzzle of each genre
    "akari": "akari/lightup-7x7b20s2d2-grader-1", "arrows": "arrows/arrows-4x4-straight-L1-s1",
    "hashiwokakero": "hashiwokakero/grown-7x7-grader-2", "heyawake": "heyawake/heyawake-6x6-1-2",
    "hitori": "hitori/singles-8x8de-grader-4", "kuromasu": "kuromasu/range-7x7-grader-1",
    "masyu": "masyu/pearl-6x6de-grader-4", "minesweeper": "minesweeper/mines-9x9n10-grader-2",
    "numberlink": "numberlink/arukone-5x5-grader-1", "nurikabe": "nurikabe/nurikabe-7x7-grader-2",
    "picross": "picross/pattern-5x5-grader-2", "slitherlink": "slitherlink/loopy-7x7t0dh-tiers-1",
    "yajilin": "yajilin/yajilin-6x6-grader-1"}
SCREENSHOTS = {"akari", "masyu", "slitherlink", "hashiwokakero", "numberlink", "picross"}
SHOTS = Path(os.environ.get("GRADER_SCREENSHOTS", tempfile.gettempdir()))


def puzzle_text(genre: str) -> str:
    return (ROOT / "corpus" / f"{SMALL[genre]}.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # a generous budget: on a loaded machine a hint may wait behind other tests' grades
    config = uvicorn.Config(create_app(workers=0, seconds=60, corpus_folder=ROOT / "corpus"), host="127.0.0.1",
                            port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.05)
    if not srv.started:
        pytest.fail("the server did not start")
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def post(server: str, name: str, body: dict) -> dict:
    req = urllib.request.Request(f"{server}/api/{name}", json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def open_page(page, server: str, genre: str) -> None:
    page.goto(f"{server}/?" + urllib.parse.urlencode({"puzzle": puzzle_text(genre)}))
    page.wait_for_function("() => typeof game !== 'undefined' && game.info !== null")
    page.wait_for_selector("#board svg .target", state="attached")
    page.wait_for_function("() => !document.getElementById('grade').textContent.startsWith('grading')")


def press(page, selector: str) -> None:
    page.click(selector)
    page.wait_for_function("() => !game.busy && game.pending === 0")


def screen_point(page, x: float, y: float) -> tuple[float, float]:
    """Where a point of the board's SVG is on the screen."""
    return tuple(page.evaluate("""([x, y]) => {
        const svg = document.querySelector('#board svg'), p = svg.createSVGPoint();
        p.x = x; p.y = y; const q = p.matrixTransform(svg.getScreenCTM());
        return [q.x, q.y]; }""", [x, y]))


def cell_centre(page, r: int, c: int) -> tuple[float, float]:
    g = page.evaluate("game.info.grid")
    return screen_point(page, g["x0"] + (c + 0.5) * g["size"], g["y0"] + (r + 0.5) * g["size"])


def wait_for_state_change(page, before: list[int]) -> list[int]:
    page.wait_for_function("(before) => JSON.stringify(game.state) !== before", arg=json.dumps(before, separators=(",", ":")))
    return page.evaluate("game.state")


# --- every genre played to the end --------------------------------------------------------

@pytest.mark.parametrize("genre", sorted(SMALL))
def test_apply_next_step_until_solved(page, server, genre):
    open_page(page, server, genre)
    steps = post(server, "path", {"puzzle": puzzle_text(genre)})["count"]
    # hints from the player's marks may take smaller steps than the grade's solve path
    for n in range(2 * steps + 20):
        if page.inner_text("#status") == "Solved!":
            break
        press(page, "#apply-hint")
        if genre in SCREENSHOTS and n == steps // 2:
            press(page, "#hint")        # the nudge of the next step, highlighted
            page.screenshot(path=str(SHOTS / f"web-{genre}.png"))
    assert page.inner_text("#status") == "Solved!", page.inner_text("#message")
    assert "Solved in" in page.inner_text("#message")


# --- a wrong mark of each input kind, highlighted by Check --------------------------------

def solution(server: str, genre: str) -> list[int]:
    path = post(server, "path", {"puzzle": puzzle_text(genre)})
    return post(server, "path", {"puzzle": puzzle_text(genre), "step": path["count"]})["view"]["state"]


MISTAKE_COLOUR = "#e53935"      # grader.io.svg.ROLE_COLOURS["mistake"]


def check_shows_mistake(page, name: str | None = None) -> None:
    """Check answers with the wrong mark named and drawn in the mistake colour."""
    before = page.inner_html("#board").count(MISTAKE_COLOUR)
    press(page, "#check")
    message = page.inner_text("#message")
    assert "wrong" in message or "broken" in message, message
    if name is not None and "wrong" in message:
        assert name in message
    assert page.inner_html("#board").count(MISTAKE_COLOUR) > before


@pytest.mark.parametrize("genre", ["akari", "slitherlink", "hashiwokakero"])
def test_a_wrong_click_is_highlighted_by_check(page, server, genre):
    open_page(page, server, genre)
    final = solution(server, genre)
    info = page.evaluate("game.info")
    target = next(t for t in info["targets"] if not info["choices"][str(t["var"])][1] & final[t["var"]])
    if t_is_cell(target):
        x, y = screen_point(page, target["x"] + target["w"] / 2, target["y"] + target["h"] / 2)
    else:
        x, y = screen_point(page, (target["x1"] + target["x2"]) / 2, (target["y1"] + target["y2"]) / 2)
    before = page.evaluate("game.state")
    under = page.evaluate("([x, y]) => document.elementFromPoint(x, y).dataset.var", [x, y])
    assert under == str(target["var"])
    page.mouse.click(x, y)
    assert wait_for_state_change(page, before)[target["var"]] == info["choices"][str(target["var"])][1]
    check_shows_mistake(page, target["name"])


def t_is_cell(target: dict) -> bool:
    return target["kind"] == "cell"


def test_a_wrong_digit_is_highlighted_by_check(page, server):
    open_page(page, server, "arrows")
    final = solution(server, "arrows")
    info = page.evaluate("game.info")
    target = info["targets"][0]          # the keyboard cursor starts here
    digit = next(k for k in range(10) if target["var"] is not None and (1 << k) & info["choices"][str(target["var"])][0]
                 and not (1 << k) & final[target["var"]])
    before = page.evaluate("game.state")
    page.focus("#board")
    page.keyboard.press(str(digit))
    assert wait_for_state_change(page, before)[target["var"]] == 1 << digit
    check_shows_mistake(page, target["name"])


@pytest.mark.parametrize("genre", ["masyu", "numberlink"])
def test_a_wrong_drag_is_highlighted_by_check(page, server, genre):
    open_page(page, server, genre)
    final = solution(server, genre)
    info = page.evaluate("game.info")
    rows, cols = info["grid"]["rows"], info["grid"]["cols"]
    a, b = next((a, b) for a, b in neighbours(rows, cols) if wrong_drag(server, genre, info, final, a, b))
    before = page.evaluate("game.state")
    page.mouse.move(*cell_centre(page, *a))
    page.mouse.down()
    page.mouse.move(*cell_centre(page, *b), steps=6)
    page.mouse.up()
    wait_for_state_change(page, before)
    check_shows_mistake(page)


def neighbours(rows: int, cols: int):
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                yield (r, c), (r, c + 1)
            if r + 1 < rows:
                yield (r, c), (r + 1, c)


def wrong_drag(server, genre, info, final, a, b) -> bool:
    """Whether drawing a line from a to b marks something the solution does not have."""
    if genre == "numberlink":
        action = {"op": "link", "a": list(a), "b": list(b)}
    else:
        seg = next((t for t in info["targets"] if t.get("a") and {tuple(t["a"]), tuple(t["b"])} == {a, b}), None)
        if seg is None:
            return False
        action = {"op": "line", "var": seg["var"]}
    after = post(server, "render", {"puzzle": puzzle_text(genre), "state": info["state"],
                                    "actions": [action]})["state"]
    return after != info["state"] and any(not m & s for m, s in zip(after, final))


# --- undo, redo and reload ----------------------------------------------------------------

def test_undo_redo_and_reload_keep_the_marks(page, server):
    open_page(page, server, "akari")
    start = page.evaluate("game.state")
    target = page.evaluate("game.info.targets[0]")
    page.mouse.click(*screen_point(page, target["x"] + 16, target["y"] + 16))
    marked = wait_for_state_change(page, start)
    page.click("#undo")
    assert wait_for_state_change(page, marked) == start
    page.click("#redo")
    assert wait_for_state_change(page, start) == marked
    page.focus("#board")
    page.keyboard.press("Control+z")
    assert wait_for_state_change(page, marked) == start
    page.keyboard.press("Control+y")
    assert wait_for_state_change(page, start) == marked
    page.reload()
    page.wait_for_function("() => typeof game !== 'undefined' && game.info !== null")
    assert page.evaluate("game.state") == marked
    assert "restored" in page.inner_text("#message")
    page.click("#undo")                  # the history came back too
    assert wait_for_state_change(page, marked) == start


def test_staged_hint_goes_one_stage_further_each_press(page, server):
    open_page(page, server, "akari")
    texts = []
    for _ in range(3):
        press(page, "#hint")
        texts.append(page.inner_text("#message"))
    assert len(set(texts)) == 3 and "(level" in texts[1]
    assert page.inner_text("#hint") == "Hint: the answer"
    before = page.evaluate("game.state")
    press(page, "#hint")
    wait_for_state_change(page, before)
    assert page.inner_text("#hint") == "Hint: where to look"


def test_why_explains_a_cell(page, server):
    open_page(page, server, "akari")
    final = solution(server, "akari")
    info = page.evaluate("game.info")
    target = next(t for t in info["targets"] if final[t["var"]] == 2)    # a bulb
    page.click("#why")
    page.mouse.click(*screen_point(page, target["x"] + 16, target["y"] + 16))
    page.wait_for_function("(n) => document.getElementById('message').textContent.includes(n)",
                           arg=f"Why {target['name']}?")
    assert "step" in page.inner_text("#message")


def test_the_solve_path_steps_forward_and_back(page, server):
    open_page(page, server, "picross")
    page.click("#path")
    page.wait_for_function("() => document.getElementById('path-where').textContent.startsWith('step 0')")
    page.click("#path-next")
    page.wait_for_function("() => document.getElementById('path-where').textContent.startsWith('step 1')")
    assert page.inner_text("#path-text").startswith("[L")
    page.click("#path-back")
    page.wait_for_function("() => document.getElementById('path-where').textContent.startsWith('step 0')")


def test_open_from_the_corpus_list_and_a_bad_paste(page, server):
    page.goto(server + "/")
    page.wait_for_selector("#corpus option[value='akari/lightup-7x7b20s2d2-grader-1']", state="attached")
    page.select_option("#corpus", "akari/lightup-7x7b20s2d2-grader-1")
    page.click("#open-corpus")
    page.wait_for_function("() => game.info !== null")
    assert "lightup-7x7b20s2d2-grader-1" in page.inner_text("#title")
    page.click("#open-panel summary")
    page.fill("#puzzle-text", "not a puzzle at all")
    page.click("#open-text")
    page.wait_for_function("() => document.getElementById('message').className === 'error'")
    assert "not a puzz.link URL" in page.inner_text("#message")
