"""`grader generate` for every genre (issue 26): the puzzle it makes has one solution (the
exact solver says so), grades at the level asked for, reads back through the project's own
reader as the same puzzle, and comes out the same for the same seed; bad arguments get one
line and exit code 2; a target no draft reaches is a clear "not found" with exit code 1."""
from __future__ import annotations

import json

import pytest

from grader.app.cli import main
from grader.core import exact
from grader.core.analysis import analyse
from grader.io.read import load

# genre -> (size, level): small boards and levels the drafts reach within a few attempts
CASES = {
    "akari": ("6x6", 2), "arrows": ("4x4", 2), "hashiwokakero": ("6x6", 2), "heyawake": ("6x6", 2),
    "hitori": ("6x6", 2), "kuromasu": ("6x6", 2), "masyu": ("6x6", 3), "minesweeper": ("6x6", 2),
    "numberlink": ("6x6", 2), "nurikabe": ("6x6", 2), "picross": ("6x6", 1), "slitherlink": ("5x5", 2),
    "yajilin": ("6x6", 3),
}
# level 1, where a genre draws its drafts for the level-1 techniques (triples, cut rooms,
# walled-down islands, a reshaped loop, lines cut in two, a loop drawn to be followed: Yajilin
# on 7x7, as no 5x5 or 6x6 loop is one the level-1 solve follows)
EASY = {"hitori": ("6x6", 1), "heyawake": ("6x6", 1), "nurikabe": ("6x6", 1), "masyu": ("6x6", 1),
        "numberlink": ("6x6", 1), "yajilin": ("7x7", 1)}
# level 2, which Masyu reaches by a short line that must not close on itself
MIDDLE = {"masyu": ("6x6", 2)}
# level 4, where Masyu's loop is reshaped for the level-1 solve and its pearls stripped in
# passes, and Picross draws its picture without smoothing
HARD = {"masyu": ("6x6", 4), "picross": ("10x10", 4)}


def generate_json(capsys, *argv: str) -> list[dict]:
    code = main(["generate", *argv, "--json", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0, out
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("genre, size, level", [(g, *CASES[g]) for g in sorted(CASES)]
                         + [(g, *EASY[g]) for g in sorted(EASY)] + [(g, *MIDDLE[g]) for g in sorted(MIDDLE)]
                         + [(g, *HARD[g]) for g in sorted(HARD)])
def test_generated_puzzle_is_unique_at_its_level_and_reads_back(genre, size, level, capsys, tmp_path):
    (row,) = generate_json(capsys, "--genre", genre, "--size", size, "--level", str(level), "--seed", "7")
    assert row["status"] == "made" and row["level"] == level and row["genre"] == genre
    path = tmp_path / "made.yaml"
    path.write_text(row["yaml"])
    puzzle = load(str(path))
    assert f"--level {level} --seed 7" in puzzle.meta.provenance
    assert exact.solve(puzzle).verdict is exact.Verdict.UNIQUE
    grade = analyse(puzzle, check_unique=False).grade
    assert (grade.level, grade.difficulty) == (level, row["difficulty"])
    again = generate_json(capsys, "--genre", genre, "--size", size, "--level", str(level), "--seed", "7")
    assert again[0]["yaml"] == row["yaml"]                         # the same seed, the same puzzle


def test_count_and_workers_write_a_folder_the_same_either_way(capsys, tmp_path):
    rows = {}
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        rows[workers] = generate_json(capsys, "--genre", "akari", "--size", "6x6", "--level", "2", "--count", "3",
                                      "--seed", "s", "--workers", workers, "-o", str(out))
        assert sorted(p.name for p in out.iterdir()) == sorted(r["id"] + ".yaml" for r in rows[workers])
    assert [r["yaml"] for r in rows["1"]] == [r["yaml"] for r in rows["2"]]
    assert len({r["yaml"] for r in rows["1"]}) == 3


def test_several_ids_go_to_one_file_a_line(capsys, tmp_path):
    out = tmp_path / "ids.txt"
    rows = generate_json(capsys, "--genre", "akari", "--size", "5x5", "--level", "2", "--count", "2",
                         "--seed", "s", "--format", "tatham", "-o", str(out))
    assert out.read_text().splitlines() == [r["tatham"] for r in rows]


def test_symmetric_clues_come_in_half_turn_pairs(capsys, tmp_path):
    (row,) = generate_json(capsys, "--genre", "slitherlink", "--size", "5x5", "--level", "2", "--symmetric",
                           "--seed", "3")
    path = tmp_path / "sym.yaml"
    path.write_text(row["yaml"])
    clues = load(str(path)).clues
    assert [c is None for c in clues] == [c is None for c in reversed(clues)]


def test_difficulty_and_label_targets(capsys):
    (row,) = generate_json(capsys, "--genre", "kuromasu", "--size", "6x6", "--difficulty", "3.0-4.5", "--seed", "1")
    assert 3.0 <= row["difficulty"] <= 4.5
    (row,) = generate_json(capsys, "--genre", "akari", "--size", "6x6", "--label", "hard", "--seed", "1")
    assert row["label"] == "hard"


def test_a_target_not_reached_says_why(capsys):
    # a 5x5 Picross that needs trial and error is rare: none in the first 5 drafts of seed 0
    code = main(["generate", "--genre", "picross", "--size", "5x5", "--level", "5", "--attempts", "5",
                 "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1 and "no level 5 puzzle in 5 attempts" in err and "Traceback" not in err
    code = main(["generate", "--genre", "picross", "--size", "5x5", "--level", "5", "--max-seconds", "1e-9",
                 "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1 and "no level 5 puzzle within 1e-09 s (1 attempt:" in err


def test_a_draft_by_level_strips_at_the_first_level_that_solves_then_below_and_at_the_target(monkeypatch):
    import random
    import attrs
    from grader.core import generator
    from grader.genres.slitherlink.generate import draft
    caps: list[int] = []
    solves = generator._solves
    monkeypatch.setattr(generator, "_solves", lambda puzzle, cap, settings, **how: caps.append(cap)
                        or solves(puzzle, cap, settings, **how))
    target, rng = generator.Target(level=3), random.Random(2)
    made = generator._attempt(attrs.evolve(draft(rng, 5, 5, cap=3), by_level=True), target, rng, generator.Settings())
    assert made is not None and made[0].grade.level == 3
    # the whole draft at the target, then at level 1 (it solves there); then a pass at each of
    # levels 1, 2 and 3, one removal at a time
    assert caps[:2] == [3, 1]
    assert [c for i, c in enumerate(caps[2:]) if i == 0 or c != caps[1 + i]] == [1, 2, 3]
    caps.clear()                    # a draft not by level: one pass, at the target
    generator._attempt(draft(rng, 5, 5, cap=3), target, rng, generator.Settings())
    assert set(caps) == {3}


def test_yajilin_easy_draft_needs_a_loop_that_follows_from_its_cells():
    from grader.core.model import State
    from grader.genres.yajilin.generate import loop_follows
    from grader.genres.yajilin.model import B_LOOP, B_SHADED, YajilinPuzzle

    def known(n: int, shaded: set[int]) -> tuple[YajilinPuzzle, State]:
        p = YajilinPuzzle(rows=n, cols=n, clues=(None,) * (n * n))
        links = p.genre.initial_state(p).cands[n * n:]
        return p, State(tuple(B_SHADED if i in shaded else B_LOOP for i in range(n * n)) + links)
    assert loop_follows(*known(3, {4}), 1)            # a ring round the shaded centre: one way
    assert not loop_follows(*known(4, set()), 1)      # an open 4x4: several loops through every cell


def test_yajilin_level_one_drawing_is_a_loop_the_level_one_solve_follows():
    from grader.core import exact
    from grader.genres.yajilin.generate import FOLLOWED_BY_LEVEL_1 as FOLLOWED, drawing_for, loop_follows
    from grader.genres.yajilin.model import YajilinPuzzle
    empty = YajilinPuzzle(rows=7, cols=7, clues=(None,) * 49)
    drawings = [drawing_for(empty, seed, cap=1) for seed in range(3)]
    assert all(d is not None and loop_follows(empty, d, 1) for d in drawings)
    # an open 4x4 has loops through every cell, but none the level-1 solve follows
    open_ = YajilinPuzzle(rows=4, cols=4, clues=(None,) * 16)
    no_shading = ":- shade(R,C)."
    assert exact.random_solution(open_, 0, extra=no_shading) is not None
    assert exact.random_solution(open_, 0, extra=no_shading + FOLLOWED) is None


def test_hitori_level_one_draft_shades_only_ends_of_triples():
    import random
    from grader.genres.hitori.generate import triples
    from grader.kernels.grid import GridGraph
    found = next(f for f in (triples(random.Random(k), 6, 6) for k in range(50)) if f is not None)
    middle_of, left = found
    g = GridGraph(6, 6)
    for shaded, middle in middle_of.items():
        assert middle not in middle_of and 2 * middle - shaded in middle_of      # the other end, two apart
    touching = {j for i in middle_of for j in g.neighbours[i]}
    assert all(i in middle_of or i in touching or i in middle_of.values() or i in left for i in range(36))


@pytest.mark.parametrize("argv, words", [
    (["--genre", "akari", "--size", "4"], "not a size"),
    (["--genre", "akari", "--level", "7"], "not a level"),
    (["--genre", "akari", "--label", "tough"], "not one of"),
    (["--genre", "akari", "--difficulty", "9-2"], "not a range"),
    (["--genre", "akari", "--level", "2", "--label", "hard"], "give one of"),
    (["--genre", "heyawake", "--format", "tatham"], "no Simon Tatham game ID"),
    (["--genre", "akari", "--arrows", "diagonal"], "only for --genre arrows"),
    (["--genre", "sudoku"], "unknown genre"),
    (["--genre", "akari", "--max-seconds", "0"], "more than 0"),
])
def test_bad_arguments_one_line_exit_2(argv, words, capsys):
    assert main(["generate", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err
