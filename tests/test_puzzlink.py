"""puzz.link URLs: the shared codecs, and pzprjs's own test puzzles (../shared, read at run time)."""
from __future__ import annotations

import json

import pytest

from grader.core import exact
from grader.core.analysis import analyse
from grader.core.errors import InputError
from grader.io.read import load
from grader.core.steps import Status

from support import shared

UNSUPPORTED = {"yajikazu"}     # Yajilin-Kazusan is not one of our genres
# pzprjs's Arukone lets a line run beside itself, which our Numberlink rules forbid (to be fixed)
PENDING = {"arukone"}


@pytest.mark.parametrize("url, message", [
    ("https://puzz.link/p?lightup/6/6/nek!akbl", "(body): unexpected character '!' at character 4"),
    ("https://puzz.link/p?heyawake/6/6/lll155007rs1222Zj", "(body): unexpected character 'Z' at character 16"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3~", "(body): unexpected character '~' at character 9"),
    ("https://puzz.link/p?hashikake/5/5/-zz", "(body): bad number '-zz' at character 1"),
])
def test_a_character_no_codec_knows_is_named_with_its_place(url, message):
    with pytest.raises(InputError) as err:
        load(url)
    assert str(err.value) == f"{url} {message}"


def pzprjs_examples() -> list[tuple[str, str]]:
    path = shared("pzprjs/pzprjs_testscript_extract.json")
    genres = json.loads(path.read_text())["genres"]
    return [(name, entry["full_url"]) for name, entry in sorted(genres.items()) if name not in UNSUPPORTED | PENDING]


def test_every_pzprjs_example_is_solved_to_its_unique_solution():
    """pzprjs's test puzzle of each type we read: the exact solver and our techniques agree."""
    for name, url in pzprjs_examples():
        puzzle = load(url)
        result = analyse(puzzle)
        assert result.trace.status is Status.SOLVED, (name, result.trace.reason)
        assert result.uniqueness.verdict is exact.Verdict.UNIQUE, name
        final = result.trace.final
        assert puzzle.genre.violations(puzzle, final) == [], name
        assert final == exact.solve(puzzle).solution, name
