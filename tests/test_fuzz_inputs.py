"""Hostile input (issue 20): every importer reads, or refuses with the project's InputError,
whatever it is given: mutated, truncated and random text or bytes. A refusal is one line that
names the file (or argument), the place in it and the problem; nothing else is ever raised.
The cases that once crashed, hung or were read as another puzzle are kept in tests/nasty/."""
from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.app.cli import main
from grader.core.errors import InputError, one_line
from grader.io.read import load, parse_state
from grader.io.limits import MAX_SIDE

NASTY = Path(__file__).parent / "nasty"
SEEDS = Path(__file__).parent / "seeds"
CORPUS = Path(__file__).parent.parent / "corpus"

# GRADER_FUZZ_EXAMPLES=5000 soaks longer by hand; CI runs the few hundred below.
SETTINGS = settings(max_examples=int(os.environ.get("GRADER_FUZZ_EXAMPLES", 200)), derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

# Refusals about the input as a whole, where there is no line or part to point at.
WHOLE_INPUT = ("no such file", "not a file, a puzz.link URL", "an empty argument", "holds ",
               "record has neither", "is a folder", "is not a regular file", "the file is ",
               "not a UTF-8 text file")


def read_or_refuse(spec: str, genre: str | None = None, origin: str | None = None):
    """load(spec): a puzzle the genre can draw, or an InputError of one line with a place."""
    try:
        puzzle = load(spec, genre)
    except InputError as exc:
        text = str(exc)
        assert "\n" not in text and "\r" not in text, text
        named = origin or (spec if spec.strip() else repr(spec))     # a blank argument is quoted
        assert text.startswith(one_line(named, 160)), text
        assert exc.line is not None or exc.part is not None or exc.message.startswith(WHOLE_INPUT), text
        return None
    g = puzzle.genre
    assert max(getattr(puzzle, "rows", 1), getattr(puzzle, "cols", 1)) <= MAX_SIDE
    g.render_text(puzzle)
    g.violations(puzzle, g.initial_state(puzzle))
    return puzzle


# --- mutations ----------------------------------------------------------------------------

GLYPHS = "0123456789abcdefghijklmnopqrstuvwxyz.-#*+?/ \n\t\r:,;[]{}()\"'&|>!%@$=_\\" \
         "┃━┏↑→↓←↖\u00b2\u0663\ufeff\u2028\x00\x0e\xff"
INSERTS = st.one_of(st.sampled_from(GLYPHS), st.sampled_from(
    ["9" * 5000, "1" * 30, "*a", "&a ", "!!python/object:os.system", "- ", "\n  - [1]\n", "1e999",
     "/" * 300, "x" * 300]))


@st.composite
def mutated(draw, seeds: list[str]) -> str:
    """A seed with a few characters deleted, changed, added or repeated, or cut short."""
    chars = list(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        if not chars:
            break
        k = draw(st.integers(0, len(chars) - 1))
        how = draw(st.sampled_from(["delete", "change", "add", "cut", "repeat"]))
        if how == "delete":
            del chars[k]
        elif how == "change":
            chars[k] = draw(st.sampled_from(GLYPHS))
        elif how == "add":
            chars.insert(k, draw(INSERTS))
        elif how == "cut":
            chars = chars[:k]
        else:
            j = draw(st.integers(k, min(len(chars), k + 40)))
            chars[j:j] = chars[k:j]
    return "".join(chars)


def inputs(seeds: list[str]):
    """Mostly mutated seeds; some random text."""
    return st.one_of(mutated(seeds), mutated(seeds), mutated(seeds),
                     st.text(alphabet=st.sampled_from(GLYPHS), max_size=80))


def file_inputs(seeds: list[str]):
    """As `inputs`, as bytes; some not UTF-8 at all."""
    return st.one_of(inputs(seeds).map(lambda t: t.encode("utf-8", "surrogatepass")),
                     st.binary(max_size=200))


def read_file(tmp_path: Path, name: str, data: bytes, genre: str | None = None):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return read_or_refuse(str(path), genre)


# --- seeds (all made by this project or from FORMATS.md's examples) ------------------------

NATIVE = [p.read_text(encoding="utf-8")
          for p in sorted({p.parent.name: p for p in CORPUS.glob("*/*.yaml")}.values())]
# A small record of each genre, then FORMATS.md §4.3's examples with problem and solution.
JANKO = (SEEDS / "janko.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
URLS = ["https://puzz.link/p?lightup/6/6/nekcakbl", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g",
        "https://puzz.link/p?slither/5/5/cbcbcddad", "https://puzz.link/p?mashu/6/6/1063000i3000",
        "https://puzz.link/p?hashikake/5/5/4g2i3h23k3g1g3g4g3",
        "https://puzz.link/p?heyawake/6/6/lll155007rs12222j", "https://puzz.link/p?hitori/4/4/1114142333214213",
        "https://puzz.link/p?kurodoko/5/5/i7g5l2l2g4i", "https://puzz.link/p?yajilin/5/5/m32j10",
        "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3", "https://puzz.link/p?arukone/4/4/12l3123j",
        "https://puzz.link/p?mines/5/5/g2m13l13g0j",
        "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h"]


def tatham_ids() -> list[tuple[str, str]]:
    """(genre, game ID): the long ones in tests/nasty and short ones from FORMATS.md."""
    rows = [line.rstrip("\n").split("\t") for line in
            (NASTY / "tatham-long-ids.tsv").read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    return [(g, gid) for g, _, gid in rows] + [
        ("akari", "7x7:a2cBlBb01c0Bb2l2c1a"), ("hashiwokakero", "7x7m2:2b4a1j2b2g2j3a3a2a5a4a4"),
        ("picross", "10x10:4.3/3.4/3.6/5/6/4/4/3.1/1.1/1.1/3/3.1/3.1.1/1.3/1.1.1/5/9/6/6/5"),
        ("kuromasu", "9x6:e7d7c3_6b7b4j3b3b5_4c4d7e"), ("hitori", "6x6:115334356412242611432342614523441533"),
        ("masyu", "8x8:cBbBcBhBjBWaBfBcWaWWaWbWk"), ("slitherlink", "7x7t0:a33b2a2g3a1122a2113a3b3c231b12a2a2112a"),
        ("minesweeper", "5x5:1,1,u0000008")]


TATHAM = tatham_ids()
BOARDS = ["pzprv3\nlightup\n3\n3\n. . - \n. 1 . \n# + . \n", "pzprv3/nurikabe/3/3/1 . . /. # . /. . 2 /",
          "pzprv3\nhitori\n2\n2\n1 1 \n2 1 \n# . \n. . \n", "pzprv3\nmines\n2\n2\n1 . \n. . \n. # \n. . \n"]
FACTS = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("slitherlink-graph/*.lp"))[:2]] or [
    "edge(1,2). edge(2,3). edge(3,1).\ncell_contains(c,1,2). cell_contains(c,2,3).\n"
    "cell_contains(c,3,1). clue(c,3).\n"]
NON = ["width 3\nheight 2\n\nrows\n1,1\n3\n\ncolumns\n2\n1\n2\n", 'title "x"\nwidth 2\nheight 2\nrows\n2\n1\n'
       'columns\n2\n1\ngoal "1110"\n']
ARROWS = ["+----+----+\n| ↑. | →. |\n+----+----+\n| →1 | ↖. |\n+----+----+\n",
          "| →. | ↓2 | ↙. |\n| ↑. | ↖. | ←1 |\n| ↗0 | →. | ↑. |\n"]
NUMBERLINK = ["3 3\nA.A\nB.B\n...\n", "5 2\n1...1\n2...2\n"]


# --- one fuzz test per importer -------------------------------------------------------------

# The importers that read files: the names a file may have, its seeds, and the genre it is read as.
FILES = {"native-yaml": (["puzzle.yaml"], NATIVE, None), "janko-records": (["records.jsonl"], JANKO, None),
         "pzprv3-boards": (["board.txt"], BOARDS, None), "non-nonograms": (["puzzle.non"], NON, None),
         "asp-facts": (["graph.lp"], FACTS, None),
         "arrows-boxed-text": (["grid.txt", "folder/puzzle.txt"], ARROWS, None),
         "plain-numberlink-text": (["flow.txt"], NUMBERLINK, "numberlink")}


@pytest.mark.parametrize("names, seeds, genre", FILES.values(), ids=FILES.keys())
@SETTINGS
@given(data=st.data())
def test_file_importer(tmp_path: Path, names: list[str], seeds: list[str], genre: str | None, data):
    read_file(tmp_path, data.draw(st.sampled_from(names)), data.draw(file_inputs(seeds)), genre)


@SETTINGS
@given(url=inputs(URLS))
def test_puzzlink_urls(url: str):
    read_or_refuse(url)


@SETTINGS
@given(genre_and_id=st.sampled_from(TATHAM), data=st.data())
def test_tatham_game_ids(genre_and_id, data):
    genre, gid = genre_and_id
    if genre == "minesweeper":      # its bitmap is played out, so keep the board small
        gid = data.draw(mutated([gid]))
    else:
        gid = data.draw(inputs([gid]))
    read_or_refuse(gid, genre)


@functools.lru_cache(maxsize=None)
def marks_seeds(path: Path):
    puzzle = load(str(path))
    g = puzzle.genre
    done = g.solution_state(puzzle) or g.initial_state(puzzle)
    return puzzle, [g.render_text(puzzle), g.render_text(puzzle, done)]


@pytest.mark.parametrize("path", sorted({p.parent.name: p for p in CORPUS.glob("*/*.yaml")}.values()),
                         ids=lambda p: p.parent.name)
@settings(SETTINGS, max_examples=max(20, SETTINGS.max_examples // 4))
@given(data=st.data())
def test_player_marks(path: Path, data):
    puzzle, seeds = marks_seeds(path)
    try:
        parse_state(puzzle, data.draw(inputs(seeds)), "marks.txt")
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("marks.txt"), str(exc)


# --- the nasty cases: what each must give ----------------------------------------------------

@pytest.mark.parametrize("name, words", [
    ("alias-bomb.yaml", ":3:12: YAML aliases (*name) are not allowed"),
    ("grid-row-is-a-list.yaml", ":3:5: grid: each row must be a line of text"),
    ("grid-row-is-a-mapping.yaml", ":3:5: grid: each row must be a line of text"),
    ("grid-201-wide.yaml", ":3:403: grid is larger than 200x200"),
    ("grid-list-201-rows.yaml", ":3: too many rows in grid: 201 (at most 200)"),
    ("picross-201-rows.yaml", ":203:3: 201 rows: the largest board read is 200x200"),
    ("number-of-5000-digits.yaml", ":3:3: '9999999999999999...' in grid is not a cell"),
    ("superscript-digit.yaml", ":3:3: unexpected '²' in grid"),
    ("control-character.yaml", ":3:5: not valid YAML: character '\\x0e' is not allowed"),
    ("not-utf8.yaml", ":3: not a UTF-8 text file"),
    ("genre-is-a-list.yaml", ":1: unknown genre"),
    ("janko-not-utf8.jsonl", ":1:92: not a UTF-8 text file"),
    ("janko-puzzle-names-another-genre.jsonl", "(puzzle): the record's puzzle is hitori but its file "
                                               "path says 'Akari' (akari)"),
    ("janko-size-100000.jsonl", "(size): 'size' is 100000: expected 1 to 200"),
    ("janko-size-is-true.jsonl", "(size): record has no usable size"),
    ("janko-digits-5000.jsonl", ":1: not valid JSON: ValueError"),
    ("janko-nested-deep.jsonl", ":1: not valid JSON: RecursionError"),
    ("pzprv3-line-after-last-section.txt", ":7:1: unexpected '. .' after the board's last section"),
    ("pzprv3-rows-100000.txt", ":3:1: expected the number of rows (1-200), found '100000'"),
    ("pzprv3-long-token.txt", ":5:1: the cells: '9999999999999999...' is too long for an item"),
    ("numberlink-size-of-5000-digits.txt", ":1:1: expected a first line '<width> <height>'"),
    ("facts-clue-of-5000-digits.lp", ":2:23: clue(c,"),
    ("nonogram-width-of-5000-digits.non", ":1: 'width' needs a whole number from 1 to 200"),
    ("nonogram-clue-of-5000-digits.non", ":4:1: '99999"),
    ("arrows-cut-after-a-row/puzzle.txt", ":6:18: the grid ends without its bottom border line"),
    ("arrows-cut-at-a-border/puzzle.txt", ":6:3: the grid has 3 rows of 4 cells: a yazudo.app puzzle "
                                          "is square, so the file looks cut short"),
    ("arrows-border-cut-inside/puzzle.txt", ":9:1: border line '+----+----+---' does not fit"),
])
def test_nasty_file_is_refused_in_one_line(name: str, words: str, capsys):
    path = NASTY / name
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"error: {path}") and words in err, err


def test_a_file_cut_short_after_a_row_says_so():
    with pytest.raises(InputError, match="ends without its bottom border line: the file looks cut short"):
        load(str(NASTY / "arrows-cut-after-a-row" / "puzzle.txt"))


@pytest.mark.parametrize("url, words", [
    ("https://puzz.link/p?lightup/6/6/nekcak", "the body ends after 27 of the 36 cells of a 6x6 grid"),
    ("https://puzz.link/p?lightup/6/6/nekcakblxyz", "unexpected 'xyz' at character 9: the cells are all filled"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3", "the body ends after 24 of the 25 cells"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g1", "unexpected '1' at character 10"),
    ("https://puzz.link/p?mashu/6/6/1063000i30001", "unexpected '1' at character 13"),
    ("https://puzz.link/p?heyawake/6/6/lll155007rs1222", "the body ends after 3 of the 8 rooms"),
    ("https://puzz.link/p?heyawake/6/6/lll155007rs12222jj", "unexpected 'j' at character 18"),
    ("https://puzz.link/p?hitori/4/4/11141423332142131", "unexpected '1' at character 17"),
    ("https://puzz.link/p?yajilin/5/5/m32j1", "the body ends inside the clue"),
    ("https://puzz.link/p?yajilin/5/5/m32j10a", "unexpected 'a' at character 7"),
    ("https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3", "34 of the 36 clue slots"),
    ("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3/extra", "unexpected '/extra'"),
])
def test_a_puzzlink_body_cut_short_or_running_on_is_refused(url: str, words: str):
    with pytest.raises(InputError) as err:
        load(url)
    assert words in str(err.value) and "(body)" in str(err.value)


@pytest.mark.parametrize("url", URLS)
def test_the_formats_examples_still_load(url: str):
    assert read_or_refuse(url) is not None


@pytest.mark.parametrize("genre, gid", [row for row in TATHAM if len(row[1]) > 255])
def test_long_tatham_ids_are_game_ids_not_file_names(genre: str, gid: str, capsys):
    puzzle = load(gid, genre)
    assert puzzle.rows >= 16
    assert main(["render", "--genre", genre, gid]) == 0
    assert main(["check", "--genre", genre, gid[:-1] + "!"]) == 2
    assert main(["batch", "--genre", genre, gid[:-1] + "!"]) == 2
    assert capsys.readouterr().err.count("\n") == 2


def test_long_puzzlink_urls_are_urls_not_file_names():
    url = "https://puzz.link/p?nurikabe/200/2/" + "g" * 300 + "1" + "z" * 4 + "j"
    assert read_or_refuse(url) is None          # refused for what the body says, not OSError
    with pytest.raises(InputError, match="the body ends after 385 of the 400 cells"):
        load(url)


@pytest.mark.parametrize("spec, words", [
    ("/dev/null", "is not a regular file"),
    (str(NASTY), "is a folder, not a puzzle file"),
    ("", "an empty argument"),
    ("line one\nline two.yaml", "no such file"),
])
def test_what_is_not_a_puzzle_file_says_what_it_is(spec: str, words: str, capsys):
    assert main(["check", spec]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


def test_a_janko_record_whose_puzzle_field_is_garbled_takes_the_genre_from_its_path(tmp_path: Path):
    # FORMATS.md §4.1: 'nurikabeinfo Pack2.Small.07' names no genre, so the path decides
    f = tmp_path / "r.jsonl"
    f.write_text(json.dumps({"file": "/Nurikabe/001.a.x-janko", "data": {
        "puzzle": "nurikabeinfo Pack2.Small.07", "size": 2, "problem": [["1", "-"], ["-", "-"]]}}) + "\n")
    assert load(str(f)).genre.name == "nurikabe"
    f.write_text(json.dumps({"file": "/Akari/001.a.x-janko", "data": {
        "puzzle": "Akari", "size": 2, "problem": [["1", "-"], ["-", "-"]]}}) + "\n")
    assert load(str(f)).genre.name == "akari"


def test_a_huge_native_board_is_refused_before_it_is_parsed(tmp_path: Path):
    f = tmp_path / "big.yaml"
    f.write_text("genre: akari\ngrid: |\n" + ("  " + "." * 2000 + "\n") * 2000)
    with pytest.raises(InputError, match="bytes: puzzle files are at most"):
        load(str(f))


def test_marks_that_are_not_utf8_or_a_folder_are_refused(tmp_path: Path, capsys):
    puzzle = str(CORPUS / "akari" / "lightup-7x7b20s2d0-grader-1.yaml")
    bad = tmp_path / "marks.txt"
    bad.write_bytes(b". \xff\n")
    for state, words in ((str(bad), "not a UTF-8 text file"), (str(tmp_path), "cannot read")):
        assert main(["hint", puzzle, "--state", state]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err
