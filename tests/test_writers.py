"""Writers (issue 26): every genre writes the formats it reads, puzz.link URLs and Simon Tatham
game IDs, and reading back what it wrote gives the same puzzle. Where a format is canonical
(pzprjs's encoder, the games' own --generate) the written string is the one those tools write."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from grader.app.soak import planter, seeded
from grader.core.errors import InputError, Source
from grader.core.genre import Genre
from grader.core.model import Meta, Puzzle
from grader.genres import all_genres
from grader.genres.hitori.model import HitoriPuzzle
from grader.genres.minesweeper.model import counts_of
from grader.io.tatham import unmask_bitmap as unmask
from grader.io import puzzlink, tatham
from grader.io.read import load

from support import CORPUS

GENRES = {g.name: g for g in all_genres()}
FORMATS = ("puzzlink", "tatham")


def writes(genre: Genre, fmt: str) -> bool:
    return genre.writes_puzzlink if fmt == "puzzlink" else genre.writes_tatham


def write(puzzle: Puzzle, fmt: str) -> str:
    return puzzle.genre.to_puzzlink(puzzle) if fmt == "puzzlink" else puzzle.genre.to_tatham(puzzle)


def read_back(text: str, genre: Genre) -> Puzzle:
    return load(text, genre=genre.name)


def as_format_holds(puzzle: Puzzle, fmt: str) -> Puzzle:
    """The puzzle as the format can hold it: puzz.link Mines has no mine count."""
    if fmt == "puzzlink" and puzzle.genre.name == "minesweeper":
        return attrs.evolve(puzzle, total=None)
    return puzzle


def clues(puzzle: Puzzle) -> dict:
    """What a puzzle is, without where it came from or a given solution. A Heyawake number
    belongs to its room (puzz.link shows it in the room's top cell), so not its cell."""
    skip = {"meta", "solution", "clue_cells"}
    return {f.name: getattr(puzzle, f.name) for f in attrs.fields(type(puzzle)) if f.name not in skip}


def round_trip(puzzle: Puzzle, fmt: str) -> str:
    """Write, read back, compare; writing what was read gives the same string again."""
    text = write(puzzle, fmt)
    back = read_back(text, puzzle.genre)
    assert clues(back) == clues(puzzle), text
    assert write(back, fmt) == text
    return text


# --- which genre writes what ---------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GENRES))
def test_a_genre_writes_exactly_the_formats_it_reads(name):
    g = GENRES[name]
    assert g.writes_puzzlink == bool(g.puzzlink_pids)
    assert g.writes_tatham == g.has_tatham


def test_a_genre_without_a_format_says_so_in_one_line():
    arrows = load(str(next((CORPUS / "arrows").glob("*.yaml"))))
    for fmt in FORMATS:
        with pytest.raises(InputError, match="arrows") as err:
            write(arrows, fmt)
        assert "\n" not in str(err.value)


# --- the project's corpus --------------------------------------------------------------------

def corpus_cases():
    for name, g in sorted(GENRES.items()):
        for fmt in FORMATS:
            if writes(g, fmt):
                for path in sorted((CORPUS / name).rglob("*.yaml")):
                    yield pytest.param(fmt, path, id=f"{fmt}-{path.relative_to(CORPUS)}")


@pytest.mark.parametrize("fmt, path", list(corpus_cases()))
def test_corpus_round_trip(fmt, path):
    round_trip(as_format_holds(load(str(path)), fmt), fmt)


def test_corpus_mines_keep_their_layout_in_a_game_id():
    """The first click is any cell of the opening's 0s (one is written), the bitmap is the same."""
    for path in sorted((CORPUS / "minesweeper").glob("*.yaml"))[:3]:
        p = load(str(path))
        original = p.meta.provenance.rsplit(": ", 1)[1]
        assert write(p, "tatham").split(",")[2] == original.split(",")[2]


def test_graph_slitherlink_is_refused_by_both_formats():
    p = load(str(next((CORPUS / "slitherlink-graph").glob("*.lp"))))
    for fmt in FORMATS:
        with pytest.raises(InputError, match="general graph"):
            write(p, fmt)


# --- the examples of FORMATS.md ----------------------------------------------------------------

TATHAM_EXAMPLES = [("akari", "7x7:a2bBfBa300qB0Ba0f0bBa"), ("hashiwokakero", "5x5m2:2c3b1l3a4a3"),
                   ("slitherlink", "4x4t0:3a22a3a1b0b33a"), ("picross", "5x5:2/1.2/1/3/3/2/1.2/2/3/2"),
                   ("kuromasu", "5x5:a6_6b5a9i7a5b8_4a"), ("hitori", "5x5:2324351523255214531342354"),
                   ("masyu", "6x6:cWaBWeWBhWiBBb")]
PUZZLINK_EXAMPLES = ["lightup/6/6/nekcakbl", "nurikabe/5/5/g5k2o1k3g", "slither/5/5/cbcbcddad",
                     "mashu/6/6/1063000i3000", "hashikake/5/5/4g2i3h23k3g1g3g4g3",
                     "heyawake/6/6/lll155007rs12222j", "hitori/4/4/1114142333214213",
                     "kurodoko/5/5/i7g5l2l2g4i", "yajilin/5/5/m32j10", "numlin/5/5/1j2h3m1h2j3",
                     "arukone/4/4/12l3123j", "mines/5/5/g2m13l13g0j",
                     "nonogram/6/6/12g1111h11112j12g11g21j11g3h"]


@pytest.mark.parametrize("name, game_id", TATHAM_EXAMPLES)
def test_formats_md_game_ids_are_written_back_unchanged(name, game_id):
    assert round_trip(load(game_id, genre=name), "tatham") == game_id


@pytest.mark.parametrize("query", PUZZLINK_EXAMPLES)
def test_formats_md_urls_are_written_back_unchanged(query):
    url = f"https://puzz.link/p?{query}"
    assert round_trip(load(url), "puzzlink") == url


def test_formats_md_mines_game_id_keeps_its_layout_and_board():
    p = load("6x6:5,4,mb2f9ec1b1", genre="minesweeper")
    text = round_trip(p, "tatham")
    assert text.startswith("6x6:") and text.endswith(",mb2f9ec1b1")


def test_a_puzzlink_alias_is_written_in_the_pid_the_genre_reads_first():
    assert write(load("https://puzz.link/p?akari/6/6/nekcakbl"), "puzzlink") == \
        "https://puzz.link/p?lightup/6/6/nekcakbl"


# --- Simon Tatham's own games, when Debian's sgt-puzzles is installed ----------------------------

SGT = Path("/usr/games")
SGT_CASES = [("akari", "lightup", "7x7b20s4d0"), ("akari", "lightup", "20x14b10s0d1"),
             ("hashiwokakero", "bridges", "10x10i30e10m2d1"), ("hashiwokakero", "bridges", "9x7m3Ld0"),
             ("hashiwokakero", "bridges", "15x15m4d2"), ("hitori", "singles", "8x8dk"),
             ("hitori", "singles", "12x12de"), ("kuromasu", "range", "9x6"), ("kuromasu", "range", "14x14"),
             ("masyu", "pearl", "8x8dt"), ("picross", "pattern", "10x10"), ("picross", "pattern", "20x15"),
             ("slitherlink", "loopy", "7x7t0dn"), ("slitherlink", "loopy", "12x10t0de")]


def generated(game: str, params: str, count: int) -> list[str]:
    binary = SGT / f"sgt-{game}"
    if not binary.exists() and shutil.which(f"sgt-{game}") is None:
        pytest.skip(f"sgt-{game} is not installed (apt-get install sgt-puzzles)")
    out = subprocess.run([str(binary) if binary.exists() else f"sgt-{game}", "--generate", str(count),
                          f"{params}#writers"], capture_output=True, text=True, timeout=120, check=True)
    return out.stdout.split()


@pytest.mark.parametrize("name, game, params", SGT_CASES, ids=[f"{g}-{p}" for _, g, p in SGT_CASES])
def test_game_ids_the_games_generate_are_written_back_unchanged(name, game, params):
    for game_id in generated(game, params, 3):
        assert round_trip(load(game_id, genre=name), "tatham") == game_id


@pytest.mark.parametrize("params, count", [("9x9n10", 3), ("16x16n40", 1)])
def test_mines_game_ids_keep_their_layout(params, count):
    for game_id in generated("mines", params, count):
        text = round_trip(load(game_id, genre="minesweeper"), "tatham")
        assert text.split(",")[2] == game_id.split(",")[2]


# --- random boards ---------------------------------------------------------------------------------

PLANTED = [(name, fmt) for name, g in sorted(GENRES.items()) for fmt in FORMATS
           if writes(g, fmt) and planter(name) and (name, fmt) != ("minesweeper", "tatham")]


# Why a planted board may not fit a format: its size, a rule variant, clues the format has not.
PLANTED_REFUSALS = ("cells a side", "has no rule for", "side by side", "Singles numbers every cell",
                    "Range has no unknown clues", "is void", "preset cell", "general graph")


@pytest.mark.parametrize("name, fmt", PLANTED)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6))
def test_random_boards_round_trip_or_are_refused_in_one_line(name, fmt, seed):
    puzzle = as_format_holds(planter(name)(seeded(name, seed)).puzzle, fmt)
    try:
        round_trip(puzzle, fmt)
    except InputError as exc:
        message = str(exc)
        assert "cannot write it as" in message and "\n" not in message
        assert any(why in message for why in PLANTED_REFUSALS), message


# --- what a format cannot hold -------------------------------------------------------------------

def refused(puzzle: Puzzle, fmt: str, words: str) -> None:
    with pytest.raises(InputError, match=words) as err:
        write(puzzle, fmt)
    assert "\n" not in str(err.value) and "cannot write it as" in str(err.value)


def test_refusals_of_clues_a_format_has_not():
    numberlink = GENRES["numberlink"].from_text("3 2\nA.B\nA.B\n", Source("letters.txt"))
    refused(numberlink, "puzzlink", "label 'A' is not a number")
    refused(HitoriPuzzle(rows=2, cols=2, numbers=(1, 0, 2, 1)), "tatham", "r1c2 has no number")
    refused(load("https://puzz.link/p?kurodoko/5/5/i7g5l2l2g.i"), "tatham", r"r5c2 holds a '\?'")
    refused(load("3x2:1/1/1/1/2,Af", genre="picross"), "puzzlink", "it has 1 preset cell,")
    yajilin = load("https://puzz.link/p?yajilin/5/5/m32j10")
    no_arrow = attrs.evolve(yajilin.clues[13], d="")
    refused(attrs.evolve(yajilin, clues=yajilin.clues[:13] + (no_arrow,) + yajilin.clues[14:]),
            "puzzlink", "the 2 at r3c4 has no arrow")


def test_refusals_of_sizes_and_rules_a_format_has_not():
    refused(load("https://puzz.link/p?mashu/4/4/100000"), "tatham", "Pearl takes 5")
    bridges = load("9x7m3L:5b7b6a3a2q5p2b4a1b1a5d5b", genre="hashiwokakero")
    refused(bridges, "puzzlink", "at most 3 bridges between two islands and bridges that may not form a loop")
    refused(attrs.evolve(bridges, board=(2, 2) + bridges.board[2:]), "tatham", "r1c1 and r1c2 are side by side")


def test_a_heyawake_room_in_two_pieces_is_refused():
    heyawake = GENRES["heyawake"]
    split = heyawake.build(1, 3, ["a", "b", "a"], {}, Source("split"), Meta())
    refused(split, "puzzlink", "the room of r1c1 is in several pieces")


def test_refusals_of_mines_boards():
    mines = load("6x6:5,4,mb2f9ec1b1", genre="minesweeper")
    refused(mines, "puzzlink", "mine count")
    refused(attrs.evolve(mines, solution=None), "tatham", "no solution")
    refused(attrs.evolve(mines, total=None), "tatham", "gives none")


def test_a_mines_board_no_click_plays_to_is_refused():
    """Reveal one more number than the game would: no first click plays to that board."""
    mines = load("6x6:5,4,mb2f9ec1b1", genre="minesweeper")
    hidden = next(i for i, b in enumerate(mines.board) if b < 0 and i not in mines.solution)
    n = counts_of(6, 6, [i in mines.solution for i in range(36)])[hidden]
    more = attrs.evolve(mines, board=mines.board[:hidden] + (n,) + mines.board[hidden + 1:])
    refused(more, "tatham", "not a Mines position")


def test_pattern_presets_round_trip_with_a_last_run_to_the_end():
    """A reader fix: Pattern's preset cells end with a run letter that fixes no cell."""
    p = load("3x2:1/1/1/1/2,Af", genre="picross")
    assert p.givens == ((0, 1),)
    assert round_trip(p, "tatham") == "3x2:1/1/1/1/2,Af"
    with pytest.raises(InputError, match="run past the grid"):
        load("3x2:1/1/1/1/2,Ag", genre="picross")


# --- the shared encoders -------------------------------------------------------------------------

def test_tatham_runs_longer_than_26_are_split_as_the_games_split_them():
    assert [tatham.run_letters(n) for n in (1, 26, 27, 30, 52)] == ["a", "z", "za", "zd", "zz"]
    assert tatham.encode_cells([1, 2, 0, 0, 3], 0, str, between="_") == "1_2b3"


def test_puzzlink_skips_flush_at_20_and_number16_widths():
    assert puzzlink.encode_number16([-1] * 21 + [5]) == "zg5"
    assert [puzzlink.number16_token(n) for n in (15, 16, 255, 256, 4096, 8192, 12240)] == \
        ["f", "-10", "-ff", "+100", "=000", "%000", "*0000"]


def test_mines_masking_matches_the_source_comments_and_inverts_unmasking():
    bits = [bool(0x1234567 >> (27 - i) & 1) for i in range(28)]
    assert tatham.masked_bitmap_hex(bits) == "07fa650"
    assert tatham.masked_bitmap_hex([False] * 400).startswith("b202c07b990c01f6ff2d")
    for n in range(1, 40):
        bits = [(i * 7 + n) % 5 == 0 for i in range(n)]
        data = tatham.mask_bitmap(tatham.bitmap_bytes(bits), n)
        assert unmask(bytearray(data), n) == tatham.bitmap_bytes(bits)
