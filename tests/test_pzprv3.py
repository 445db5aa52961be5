"""pzprv3 board files (puzz.link's "File > Save"): the puzzle and the player's progress.

The pzprjs test boards are read at run time from ../shared/corpus (skipped when absent); the
small boards written here are our own."""
from __future__ import annotations

import json

import pytest

from grader.core import exact
from grader.app.cli import main
from grader.core.errors import InputError
from grader.io.read import load
from grader.io import pzprv3

from support import shared

EXTRACT = "pzprjs/pzprjs_testscript_extract.json"


def extract() -> dict:
    return json.loads(shared(EXTRACT).read_text(encoding="utf-8"))["genres"]


# Boards of variants our genres do not have: they give a one-line error naming the flag.
UNSUPPORTED = {"pzprv3.1/slither/2/3/f/": "variant flag 'f'",       # every dot visited
               "pzprv3/yajilin/5/5/o/": "variant flag 'o'",         # shaded cells outside
               "pzprv3/yajilin/3/3/o/": "variant flag 'o'",
               "pzprv3/yajilin/2/3/0,1 ": "has no arrow"}           # a clue without an arrow


def unsupported(text: str) -> str | None:
    return next((why for head, why in UNSUPPORTED.items() if text.startswith(head)), None)


def boards(kind: str) -> list[tuple[str, str | None, str]]:
    """(pid, failcode, board) of every supported test board: 'solved', 'failing' or 'all'."""
    out = []
    for pid, entry in extract().items():
        if pid not in pzprv3.CONVERTERS:
            continue
        for item in entry["failcheck"]:
            code = item["failcode"]
            if unsupported(item["board"]):
                continue
            if kind == "all" or (kind == "solved") == (code is None):
                out.append((pid, code, item["board"]))
    return out


def test_boards_of_unsupported_variants_say_so_in_one_line():
    seen = 0
    for pid, entry in extract().items():
        for item in entry["failcheck"]:
            why = unsupported(item["board"])
            if why:
                with pytest.raises(InputError, match=why) as exc:
                    pzprv3.read(item["board"], "board.txt")
                assert str(exc.value).startswith("board.txt:1:") and "\n" not in str(exc.value)
                seen += 1
    assert seen == 5


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the pzprjs test boards ------------------------------------------------------------

def test_every_supported_board_reads_the_same_puzzle_as_its_url():
    data = extract()
    compared = 0
    for pid, code, text in boards("all"):
        board = pzprv3.Board(text, pid)
        url = load(data[pid]["full_url"])
        if board.pid != pid or (board.rows, board.cols) != (url.rows, url.cols) or board.at_end \
                or (pid, code) == ("slither", "lnPlLoop"):
            continue        # another puzzle (a variant, a size, a changed clue) or no body
        g = url.genre
        assert g.render_text(pzprv3.load(text, pid)) == g.render_text(url), (pid, code)
        compared += 1
    assert compared >= 30


def test_solved_boards_read_as_the_exact_solution():
    checked = 0
    for pid, _, text in boards("solved"):
        got = pzprv3.read(text, pid)
        result = exact.solve(got.puzzle)
        if pid == "arukone" and "/passallcell/" in text:
            # puzz.link's arukone lets a line run beside itself; our Numberlink's no-touch
            # rule does not, so this puzzle has no solution here (the URL reads the same)
            assert result.verdict is exact.Verdict.NONE
            continue
        g = got.puzzle.genre
        assert got.marks.complete and not g.violations(got.puzzle, got.marks), pid
        if result.verdict is exact.Verdict.UNIQUE:
            assert got.marks == result.solution, pid
            checked += 1
    assert checked >= 10


def test_failing_boards_read_and_are_not_correct_solutions():
    for pid, code, text in boards("failing"):
        got = pzprv3.read(text, pid)
        if pzprv3.Board(text, pid).at_end:
            continue    # the header alone: a puzzle without clues, nothing played to judge
        g = got.puzzle.genre
        wrong = bool(g.violations(got.puzzle, got.marks))
        assert wrong or not got.marks.complete, (pid, code)
        result = exact.solve(got.puzzle)
        assert got.marks not in result.solutions, (pid, code)


def test_the_verdict_calls_solved_boards_solved_and_no_failing_board_solved():
    for pid, code, text in boards("all"):
        if pzprv3.Board(text, pid).at_end or (pid == "arukone" and "/passallcell/" in text):
            continue
        status, broken = pzprv3.read(text, pid).verdict()
        assert (status == "solved") == (code is None), (pid, code, status)
        if code in ("akariDup", "csAdjacent", "lnBranch", "lnCross", "nmLineGt") \
                and pid not in ("numlin", "arukone"):   # Numberlink marks hold whole pieces only
            assert status == "mistake", (pid, code)     # what was marked already breaks a rule
        assert bool(broken) == (status == "mistake")


def test_a_completed_wrong_board_has_a_violation():
    text = next(t for pid, code, t in boards("failing") if code == "akariDup")
    got = pzprv3.read(text, "lightup")
    assert got.puzzle.genre.violations(got.puzzle, got.marks)


# --- our own boards ----------------------------------------------------------------------

# Light Up 3x3 (unique): walls 0 and 1 in the bottom corners; the player put a bulb at r1c2
# and marked r2c1 empty.
AKARI = "pzprv3\nlightup\n3\n3\n. # . \n+ . . \n0 . 1 \n"
AKARI_SOLVED = "pzprv3\nlightup\n3\n3\n. # . \n. . # \n0 . 1 \n"
AKARI_URL = "https://puzz.link/p?lightup/3/3/l51"


def test_newline_and_slash_forms_read_alike():
    a = pzprv3.read(AKARI, "a.txt")
    b = pzprv3.read(AKARI.replace("\n", "/"), "b.txt")
    assert a.marks == b.marks
    g = a.puzzle.genre
    assert g.render_text(a.puzzle) == g.render_text(b.puzzle) == ". . .\n. . .\n0 . 1"


def test_marks_become_the_genres_own_marks():
    got = pzprv3.read(AKARI, "a.txt")
    assert got.puzzle.genre.render_text(got.puzzle, got.marks).splitlines()[:2] == \
        [". * .", "+ . ."]
    assert not got.marks.complete       # unmarked cells stay open while the board is unfinished


def test_history_and_metadata_after_the_board_are_ignored():
    text = AKARI + 'info:{\n "metadata": {"author": "me"},\n "history": {}\n}\n'
    assert pzprv3.read(text, "a.txt").marks == pzprv3.read(AKARI, "a.txt").marks


def test_a_finished_board_reads_as_the_solution_with_unmarked_cells_empty():
    got = pzprv3.read(AKARI_SOLVED, "a.txt")
    result = exact.solve(got.puzzle)
    assert result.verdict is exact.Verdict.UNIQUE and got.marks == result.solution


def test_each_supported_type_reads_a_board_without_answers():
    small = {
        "lightup": ". . \n. 1 \n",
        "nurikabe": "2 . \n. . \n",
        "hitori": "1 1 \n2 1 \n. . \n. . \n",
        "heyawake": "1\n0 0 \n0 0 \n1 . \n. . \n. . \n. . \n",
        "kurodoko": "3 . \n. . \n. . \n. . \n",
        "mines": "1 . \n. . \n. . \n. . \n",
        "nonogram": ". . 1 \n1 . . \n. . . \n",
    }
    for pid, body in small.items():
        got = pzprv3.read(f"pzprv3\n{pid}\n2\n2\n{body}", pid)
        assert len(got.marks) >= 4 and not got.marks.complete, pid


# Our own 3x3 line boards: the player drew the line r1c1-r1c2 and crossed r1c2|r1c3
# (slither: the top edge of r1c1 drawn, the one of r1c2 crossed).
LINES = {
    "mashu": (". . . \n. 1 . \n. . . \n", "1 -1 \n0 0 \n0 0 \n0 0 0 \n0 0 0 \n"),
    "numlin": ("1 . 1 \n. . . \n2 . 2 \n", "1 1 \n0 0 \n0 0 \n0 0 0 \n0 0 0 \n"),
    "yajilin": (". . . \n. . . \n. . 3,1 \n", "+ . . \n. . . \n. . . \n",
                "1 -1 \n0 0 \n0 0 \n0 0 0 \n0 0 0 \n"),
    "hashikake": ("1 . 2 \n. . . \n. . 1 \n", "1 1 \n0 0 \n0 0 \n0 0 0 \n0 0 0 \n"),
    "slither": ("3 . . \n. . . \n. . . \n",
                "0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n1 -1 0 \n0 0 0 \n0 0 0 \n0 0 0 \n"),
}


@pytest.mark.parametrize("pid", sorted(LINES))
def test_line_boards_keep_the_drawn_lines(pid):
    got = pzprv3.read(f"pzprv3\n{pid}\n3\n3\n" + "".join(LINES[pid]), pid)
    g = got.puzzle.genre
    first = g.render_text(got.puzzle, got.marks).splitlines()[0]
    expected = {"mashu": "e", "numlin": "━", "yajilin": "e", "hashikake": "-", "slither": "-"}[pid]
    assert expected in first, (pid, first)
    assert not got.marks.complete and got.verdict()[0] == "unfinished"


def test_hashikake_bridges_are_read_as_at_least_while_unfinished():
    text = "pzprv3\nhashikake\n3\n3\n" + "".join(LINES["hashikake"])
    got = pzprv3.read(text, "h")
    assert got.puzzle.slots[0].water == (1,)    # r1c1-r1c3, across r1c2
    assert got.marks.cands[0] == 0b110          # one or two bridges: the player may add one
    assert got.marks.cands[1] == 0b111          # r1c3-r3c3 is open


def test_check_on_a_board_file_judges_the_board(tmp_path, capsys):
    f = tmp_path / "board.txt"
    f.write_text(AKARI_SOLVED)
    code, out, _ = run(capsys, "check", str(f), "--json")
    assert code == 0 and json.loads(out)["board"] == {"status": "solved", "broken": [], "wrong": []}
    f.write_text("pzprv3\nlightup\n3\n3\n. . . \n. . . \n0 # 1 \n")
    code, out, _ = run(capsys, "check", str(f))
    assert code == 1 and "the board breaks a rule" in out       # a mistake is a negative result


def test_the_puzzle_file_reads_through_load(tmp_path):
    f = tmp_path / "board.txt"
    f.write_text(AKARI)
    assert load(str(f)).genre.name == "akari"


# --- the command line ---------------------------------------------------------------------

def test_hint_on_a_board_file_gives_the_next_step(tmp_path, capsys):
    f = tmp_path / "board.txt"
    f.write_text(AKARI)
    code, out, err = run(capsys, "hint", str(f), "--stage", "explain", "--json")
    assert code == 0 and json.loads(out)["kind"] != "mistake", err


def test_hint_on_a_board_with_a_mistake_names_it(tmp_path, capsys):
    f = tmp_path / "board.txt"
    f.write_text("pzprv3\nlightup\n3\n3\n. . . \n. . . \n0 # 1 \n")   # a bulb beside the 0
    code, out, _ = run(capsys, "hint", str(f))
    assert code == 1 and "row 3" in out and "r3c2" not in out           # the first stage points
    code, out, _ = run(capsys, "hint", str(f), "--stage", "technique")
    assert code == 1 and out.startswith("Look again at r3c2: it breaks a rule")


def test_state_board_with_a_url(tmp_path, capsys):
    f = tmp_path / "board.txt"
    f.write_text(AKARI)
    url = AKARI_URL
    puzzle = load(url)
    assert puzzle.genre.render_text(puzzle) == ". . .\n. . .\n0 . 1"
    code, out, err = run(capsys, "hint", url, "--state", str(f))
    assert code == 0, err
    other = tmp_path / "other.txt"
    other.write_text("pzprv3\nlightup\n3\n3\n. # . \n+ . . \n0 . 2 \n")
    code, _, err = run(capsys, "hint", url, "--state", str(other))
    assert code == 2 and "different puzzle" in err and len(err.strip().splitlines()) == 1


def test_render_shows_the_players_marks(tmp_path, capsys):
    f = tmp_path / "board.txt"
    f.write_text(AKARI)
    code, out, _ = run(capsys, "render", str(f))     # the board for people: the bulb, the cross
    assert code == 0 and out.splitlines()[1:3] == ["│ ·  ●  · │", "│ ×  ·  · │"]
    code, out, _ = run(capsys, "render", str(f), "--json")    # the native grid syntax
    assert code == 0 and json.loads(out)["board"].splitlines()[0] == ". * ."


@pytest.mark.parametrize("text, where, words", [
    ("pzprv3\nlightup\n3\nx\n", ":4:1", "number of columns"),
    ("pzprv3\nlightup\n3\n", ":3:1", "four lines"),
    ("pzprv3\nfoo\n3\n3\n", ":2:1", "'foo' is not supported"),
    ("pzprv3\nlightup\n3\n3\n. . . \n. 9 . \n. . . \n", ":6:3", "r2c2"),
    ("pzprv3\nlightup\n3\n3\n. . . \n. . \n. . . \n", ":6:", "2 items, expected 3"),
    ("pzprv3\nlightup\n3\n3\n. . . \n", ":5:", "ends after 1 of 3 lines"),
    ("pzprv3/nurikabe/2/2/0 . /. . /", ":1:", "r1c1"),
    ("pzprv3\nheyawake\n2\n2\n1\n0 1 \n0 0 \n", ":6:3", "room number below 1"),
    ("pzprv3\nmashu\n2\n2\n1 . \n. 3 \n0 \n0 \n0 0 \n", ":6:3", "r2c2"),
    ("pzprv3\nnumlin\n2\n2\n1 . \n. 1 \n7 \n0 \n0 0 \n", ":7:1", "for a line"),
    ("pzprv3\nslither\n1\n1\n5 \n", ":5:1", "r1c1"),
    ("pzprv3\nyajilin\n1\n2\no\n. . \n", ":5:1", "variant flag 'o'"),
    ("pzprv3\nnonogram\n2\n2\n1 . 1 \n1 . . \n. . . \n", ":5:1", "corner"),
])
def test_bad_boards_give_one_line_with_the_place(tmp_path, capsys, text, where, words):
    f = tmp_path / "bad.txt"
    f.write_text(text)
    code, out, err = run(capsys, "hint", str(f))
    assert code == 2 and out == ""
    line = err.strip()
    assert len(line.splitlines()) == 1 and f"bad.txt{where}" in line and words in line, line
    with pytest.raises(InputError):
        pzprv3.read(text, "x")


def test_hint_on_the_first_failing_board_of_each_type(tmp_path, capsys):
    """A mistake (exit 1) or the next step (exit 0), never an error, in the one-line form."""
    seen = set()
    for pid, code, text in boards("failing"):
        if pid in seen or pzprv3.Board(text, pid).at_end:
            continue
        seen.add(pid)
        f = tmp_path / f"{pid}.txt"
        f.write_text(text.replace("/", "\n"))       # the file form puzz.link saves
        status, _ = pzprv3.read(text, pid).verdict()
        rc, out, err = run(capsys, "hint", str(f), "--max-seconds", "20")
        assert rc in (0, 1) and out.strip() and not err, (pid, code, err)
        if status == "mistake":
            assert rc == 1, (pid, code, out)
    assert len(seen) >= 11


def test_greyed_clues_crlf_bom_and_trial_snapshots():
    # pzprjs writes 'c1' for a clue the player greyed out, and the boards of earlier trial
    # stages after 'TrialData(n)': the board first in the file is the current one
    text = "\ufeffpzprv3\r\nnonogram\r\n2\r\n2\r\n. c1 . \r\nc1 # . \r\n. . . \r\nTrialData(1)\r\n. 1 . \r\n"
    got = pzprv3.read(text, "n.txt")
    assert (got.puzzle.row_clues, got.puzzle.col_clues) == (((1,), ()), ((1,), ()))
    assert got.marks.complete and got.verdict() == ("solved", [])


def test_state_board_of_another_type_is_refused(tmp_path, capsys):
    f = tmp_path / "board.txt"
    f.write_text("pzprv3\nnurikabe\n3\n3\n. . . \n. . . \n. . 1 \n")
    code, _, err = run(capsys, "hint", AKARI_URL, "--state", str(f))
    assert code == 2 and "is a nurikabe puzzle, not akari" in err
