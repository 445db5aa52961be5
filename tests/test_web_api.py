"""The JSON API of `grader play` (grader.web): each endpoint, the same JSON as the command
line, and every kind of bad input answered 4xx with one line (never a 500)."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from grader.app.cli import main  # noqa: E402
from grader.web import api  # noqa: E402
from grader.web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
AKARI = ROOT / "corpus/akari/lightup-7x7b20s2d0-grader-1.yaml"
AKARI_ID = "akari/lightup-7x7b20s2d0-grader-1"
AKARI_URL = "https://puzz.link/p?lightup/6/6/nekcakbl"
AKARI_BOARD = "pzprv3\nlightup\n3\n3\n. # . \n+ . . \n0 . 1 \n"
NUMLIN = ROOT / "corpus/numberlink/arukone-5x5-grader-1.yaml"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=0, corpus_folder=ROOT / "corpus")) as c:
        yield c


def cli_json(capsys, *argv: str):
    capsys.readouterr()
    main([*argv, "--json"])
    return json.loads(capsys.readouterr().out)


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# --- corpus -------------------------------------------------------------------------------

def test_corpus_lists_puzzles_by_id_and_serves_their_text(client):
    listing = client.get("/api/corpus").json()
    assert {"id": AKARI_ID, "genre": "akari"} in listing
    got = client.get(f"/api/puzzle/{AKARI_ID}").json()
    assert got["puzzle"] == text(AKARI) and got["genre"] == "akari"


@pytest.mark.parametrize("pid", ["akari/nosuch", "../pyproject", "/etc/passwd", "akari/../../README"])
def test_corpus_ids_never_open_a_path(client, pid):
    r = client.get(f"/api/puzzle/{pid}")
    assert r.status_code == 404 and r.json()["error"]   # the client may normalise the path first


def test_genres(client):
    names = {g["genre"] for g in client.get("/api/genres").json()}
    assert {"akari", "slitherlink", "numberlink", "arrows"} <= names


# --- open and render ----------------------------------------------------------------------

@pytest.mark.parametrize("puzzle,genre", [(text(AKARI), None), (AKARI_URL, None),
                                          ("7x7:a2bBfBa300qB0Ba0f0bBa", "akari"), (AKARI_BOARD, None)])
def test_open_reads_every_format(client, puzzle, genre):
    r = client.post("/api/open", json={"puzzle": puzzle, "genre": genre})
    assert r.status_code == 200, r.json()
    data = r.json()
    assert data["genre"] == "akari" and data["svg"].startswith("<svg") and data["input"] == "cells"
    assert all(t["kind"] == "cell" and t["name"].startswith("r") for t in data["targets"])
    assert len(data["state"]) == data["grid"]["rows"] * data["grid"]["cols"]


def test_open_takes_the_progress_of_a_pzprv3_board(client):
    data = client.post("/api/open", json={"puzzle": AKARI_BOARD}).json()
    assert data["state"][1] == 2          # r1c2 holds the player's bulb (value 1)


def test_click_cycles_a_cell_then_clear(client):
    opened = client.post("/api/open", json={"puzzle": text(AKARI)}).json()
    var = opened["targets"][0]["var"]
    state = opened["state"]
    seen = []
    for _ in range(3):
        state = client.post("/api/render", json={"puzzle": text(AKARI), "state": state,
                                                 "actions": [{"op": "cycle", "var": var}]}).json()["state"]
        seen.append(state[var])
    assert seen == [2, 1, opened["state"][var]]     # bulb, empty, undecided again


def test_numberlink_drag_links_two_cells_and_again_erases(client):
    opened = client.post("/api/open", json={"puzzle": text(NUMLIN)}).json()
    assert opened["input"] == "links"
    free = [t for t in opened["targets"]]
    a = next(t for t in free if any(u["r"] == t["r"] and u["c"] == t["c"] + 1 for u in free))
    link = {"op": "link", "a": [a["r"], a["c"]], "b": [a["r"], a["c"] + 1]}
    body = {"puzzle": text(NUMLIN), "state": opened["state"], "actions": [link]}
    linked = client.post("/api/render", json=body).json()["state"]
    assert linked != opened["state"]
    body["state"] = linked
    assert client.post("/api/render", json=body).json()["state"] == opened["state"]


def test_line_genres_have_segments_between_cell_centres(client):
    masyu = next(p for p in (ROOT / "corpus/masyu").glob("*.yaml"))
    data = client.post("/api/open", json={"puzzle": text(masyu)}).json()
    assert data["input"] == "lines" and all(t["kind"] == "segment" and "a" in t for t in data["targets"])
    t = data["targets"][0]
    after = client.post("/api/render", json={"puzzle": text(masyu), "state": data["state"],
                                              "actions": [{"op": "line", "var": t["var"]}]}).json()
    assert after["state"][t["var"]] == 2


# --- the same JSON as the command line ----------------------------------------------------

def test_grade_is_the_json_of_grade(client, capsys):
    got = client.post("/api/grade", json={"puzzle": text(AKARI)}).json()
    want = cli_json(capsys, "grade", str(AKARI))
    for key in ("seconds", "id"):       # the id: the file's path, or 'puzzle' for text
        got.pop(key), want.pop(key)
    assert got == want


@pytest.mark.parametrize("stage", ["nudge", "technique", "explain", "answer"])
def test_hint_is_the_json_of_hint_plus_cells(client, capsys, tmp_path, stage):
    opened = client.post("/api/open", json={"puzzle": text(AKARI)}).json()
    got = client.post("/api/hint", json={"puzzle": text(AKARI), "marks": opened["marks"],
                                         "stage": stage}).json()
    marks = tmp_path / "marks.txt"
    marks.write_text(opened["marks"])
    want = cli_json(capsys, "hint", str(AKARI), "--state", str(marks), "--stage", stage)
    assert {k: got[k] for k in want} == want
    assert got["kind"] == "step" and got["cells"] and all(c.startswith("r") for c in got["cells"])
    if stage == "answer":
        assert got["view"]["state"] != opened["state"]
    else:
        assert got["view"]["state"] == opened["state"]


def test_hint_answers_a_wrong_mark_first(client):
    opened = client.post("/api/open", json={"puzzle": text(AKARI)}).json()
    solution = client.post("/api/check", json={"puzzle": text(AKARI)}).json()
    assert solution["board"]["status"] == "unfinished"
    state = wrong_state(client, opened)
    got = client.post("/api/hint", json={"puzzle": text(AKARI), "state": state, "stage": "answer"}).json()
    assert got["kind"] == "mistake" and got["highlight"]["mistake"]
    assert got["view"]["state"] != state          # corrected


def wrong_state(client, opened):
    """The opened board with one cell marked against the solution."""
    path = client.post("/api/path", json={"puzzle": text(AKARI), "step": 1}).json()
    final = client.post("/api/path", json={"puzzle": text(AKARI),
                                           "step": path["count"]}).json()["view"]["state"]
    var = opened["targets"][0]["var"]
    state = list(opened["state"])
    state[var] = opened["state"][var] & ~final[var]
    return state


def test_check_highlights_a_wrong_mark(client):
    opened = client.post("/api/open", json={"puzzle": text(AKARI)}).json()
    state = wrong_state(client, opened)
    got = client.post("/api/check", json={"puzzle": text(AKARI), "state": state}).json()
    name = opened["targets"][0]["name"]
    assert got["solutions"] == "unique" and got["board"]["status"] == "mistake"
    assert got["cells"] == [name] and name in got["text"]
    assert 'class="hl-mistake"' in got["view"]["svg"]


def test_check_says_none_are_wrong(client):
    got = client.post("/api/check", json={"puzzle": text(AKARI)}).json()
    assert got["text"] == "No mark is wrong so far." and got["cells"] == []


def test_why_is_the_json_of_hint_why(client, capsys):
    got = client.post("/api/why", json={"puzzle": text(AKARI), "cell": "r1c1"}).json()
    want = cli_json(capsys, "hint", str(AKARI), "--why", "r1c1")
    assert {k: got[k] for k in want} == want
    assert got["cells"][0] == "r1c1" and got["text"]


def test_path_lists_steps_and_steps_through_boards(client):
    whole = client.post("/api/path", json={"puzzle": text(AKARI)}).json()
    assert whole["status"] == "solved" and whole["count"] == len(whole["steps"]) > 0
    first = client.post("/api/path", json={"puzzle": text(AKARI), "step": 1}).json()
    assert first["text"] == whole["steps"][0]["text"] and first["view"]["svg"].startswith("<svg")
    last = client.post("/api/path", json={"puzzle": text(AKARI), "step": whole["count"]}).json()
    assert last["view"]["solved"]


# --- bad input: 4xx and one line ----------------------------------------------------------

BAD = [
    ("open", b"{not json", 400, "not JSON"),
    ("open", b"[1, 2]", 400, "JSON object"),
    ("open", json.dumps({"genre": "akari"}).encode(), 400, "no 'puzzle'"),
    ("open", json.dumps({"puzzle": "7x7:a2bBfBa300qB0Ba0f0bBa", "genre": "chess"}).encode(), 400,
     "unknown genre 'chess'"),
    ("open", json.dumps({"puzzle": "7x7:a2bBfBa300qB0Ba0f0bBa"}).encode(), 400, "add a genre"),
    ("open", json.dumps({"puzzle": "genre: akari\ngrid: |\n  . 9 .\n"}).encode(), 400, "puzzle"),
    ("open", json.dumps({"puzzle": "/etc/passwd"}).encode(), 400, "not a puzz.link URL"),
    ("open", json.dumps({"puzzle": 42}).encode(), 400, "'puzzle' must be a string"),
    ("open", json.dumps({"puzzle": "https://puzz.link/p?lightup/60/60/" + "z" * 180}).encode(), 413,
     "at most 2500 cells"),
    ("hint", json.dumps({"puzzle": AKARI_URL, "marks": ". . .\n"}).encode(), 400, "marks"),
    ("hint", json.dumps({"puzzle": AKARI_URL, "state": [1, 2]}).encode(), 400, "36 variables"),
    ("hint", json.dumps({"puzzle": AKARI_URL, "state": [99] * 36}).encode(), 400, "'state' entry"),
    ("hint", json.dumps({"puzzle": AKARI_URL, "stage": "everything"}).encode(), 400, "unknown stage"),
    ("why", json.dumps({"puzzle": AKARI_URL, "cell": "A1"}).encode(), 400, "not a cell like r3c4"),
    ("why", json.dumps({"puzzle": AKARI_URL, "cell": "r9c9"}).encode(), 400, "outside the 6x6 grid"),
    ("render", json.dumps({"puzzle": AKARI_URL, "actions": [{"op": "explode", "var": 0}]}).encode(), 400,
     "unknown action"),
    ("render", json.dumps({"puzzle": AKARI_URL, "actions": [{"op": "cycle", "var": 999}]}).encode(), 400,
     "'var' must be"),
    ("render", json.dumps({"puzzle": AKARI_URL, "actions": [{"op": "link", "a": [0, 0], "b": [0, 1]}]}).encode(),
     400, "for Numberlink"),
    ("path", json.dumps({"puzzle": AKARI_URL, "step": -1}).encode(), 400, "'step' must be"),
    ("open", b"\xff\xfe", 400, "not UTF-8"),
]


@pytest.mark.parametrize("endpoint,body,status,words", BAD, ids=[b[3] for b in BAD])
def test_bad_input_is_a_4xx_with_one_line(client, endpoint, body, status, words):
    r = client.post(f"/api/{endpoint}", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    message = r.json()["error"]
    assert words in message and "\n" not in message and "Traceback" not in message


def test_a_body_over_the_limit_is_refused(client):
    r = client.post("/api/open", content=b'{"puzzle": "' + b"x" * 600_000 + b'"}')
    assert r.status_code == 413 and "bytes" in r.json()["error"]


def test_unknown_routes_and_methods_are_json(client):
    assert client.get("/api/nothing").json()["error"].startswith("no such page")
    r = client.get("/api/hint")
    assert r.status_code == 405 and "GET is not allowed" in r.json()["error"]


def test_a_hint_past_its_budget_says_so(monkeypatch):
    monkeypatch.setitem(api.HANDLERS, "hint", lambda body: time.sleep(0.5) or {})
    with TestClient(create_app(workers=0, seconds=0.01, grace=0.0)) as c:
        r = c.post("/api/hint", json={"puzzle": AKARI_URL})
        assert r.status_code == 503 and r.json()["error"].startswith("no hint within")
        # the server still answers other requests
        assert c.post("/api/open", json={"puzzle": AKARI_URL}).status_code == 200


def test_the_page_and_its_files_are_served(client):
    assert "<html" in client.get("/").text.lower()
    assert client.get("/static/play.js").status_code == 200
    assert client.get("/static/play.css").status_code == 200


def test_worker_processes_answer_as_threads_do():
    with TestClient(create_app(workers=1)) as c:
        r = c.post("/api/hint", json={"puzzle": AKARI_URL, "stage": "technique"})
        assert r.status_code == 200 and r.json()["kind"] == "step"
        r = c.post("/api/open", json={"puzzle": AKARI_URL, "genre": "nosuch"})
        assert r.status_code == 400 and "unknown genre" in r.json()["error"]


def test_a_genre_text_format_opens_with_its_genre(client):
    graph = ROOT / "corpus/slitherlink-graph/honeycomb-6x6-grader-1.lp"
    data = client.post("/api/open", json={"puzzle": text(graph), "genre": "slitherlink"}).json()
    assert data["input"] == "edges" and data["targets"] and data["svg"].startswith("<svg")


# --- grader play --------------------------------------------------------------------------

def test_play_opens_the_page_with_the_puzzle(monkeypatch, capsys):
    import uvicorn
    import webbrowser
    from urllib.parse import parse_qs, urlsplit
    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, log_level: seen.update(host=host, port=port))
    monkeypatch.setattr(webbrowser, "open", lambda url: seen.update(url=url))
    monkeypatch.setattr("threading.Timer", lambda delay, fn, args: type(
        "Now", (), {"start": lambda self: fn(*args)})())
    assert main(["play", str(AKARI), "--port", "8123"]) == 0
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123
    query = parse_qs(urlsplit(seen["url"]).query)
    assert query["puzzle"] == [text(AKARI)] and query["genre"] == ["akari"]
    assert "warning" not in capsys.readouterr().err


def test_play_warns_on_another_host_and_refuses_a_bad_puzzle(monkeypatch, capsys):
    import uvicorn
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)
    assert main(["play", "--no-browser", "--host", "0.0.0.0"]) == 0
    assert "warning: listening on 0.0.0.0" in capsys.readouterr().err
    assert main(["play", "nosuch.yaml", "--no-browser"]) == 2
    assert "no such file" in capsys.readouterr().err


# --- copy as pzprv3 -----------------------------------------------------------------------

CELL_GENRES = {"akari": AKARI, "nurikabe": ROOT / "corpus/nurikabe/nurikabe-7x7-grader-2.yaml",
               "kuromasu": ROOT / "corpus/kuromasu/range-7x7-grader-1.yaml",
               "hitori": ROOT / "corpus/hitori/singles-8x8de-grader-4.yaml",
               "heyawake": ROOT / "corpus/heyawake/heyawake-6x6-1-2.yaml",
               "minesweeper": ROOT / "corpus/minesweeper/mines-9x9n10-grader-2.yaml"}


@pytest.mark.parametrize("genre", sorted(CELL_GENRES))
def test_copy_as_pzprv3_reads_back_as_the_same_puzzle_and_marks(client, genre):
    path = CELL_GENRES[genre]
    opened = client.post("/api/open", json={"puzzle": text(path)}).json()
    assert opened["pzprv3"] is True
    state = opened["state"]
    for _ in range(3):        # a few steps in, placed marks (bulbs, walls, mines) among them
        state = client.post("/api/hint", json={"puzzle": text(path), "state": state,
                                               "stage": "answer"}).json()["view"]["state"]
    board = client.post("/api/pzprv3", json={"puzzle": text(path), "state": state}).json()["pzprv3"]
    again = client.post("/api/open", json={"puzzle": board}).json()
    assert again["genre"] == genre
    same = {"state": opened["state"], "actions": []}    # the same puzzle: the same empty board
    assert client.post("/api/render", json={"puzzle": board, **same}).json()["marks"] == \
        client.post("/api/render", json={"puzzle": text(path), **same}).json()["marks"]
    placed = [v for v, m in enumerate(state) if m == 2 and opened["state"][v] != 2]
    assert all(again["state"][v] == 2 for v in placed)     # every placed mark comes back


def test_copy_as_pzprv3_says_which_genres_it_writes(client):
    masyu = next((ROOT / "corpus/masyu").glob("*.yaml"))
    assert client.post("/api/open", json={"puzzle": text(masyu)}).json()["pzprv3"] is False
    r = client.post("/api/pzprv3", json={"puzzle": text(masyu)})
    assert r.status_code == 400 and "not yet for this genre" in r.json()["error"]
