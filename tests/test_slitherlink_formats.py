"""Slitherlink formats: native YAML, Tatham Loopy IDs, puzz.link, janko shading, ASP facts both
ways; bad input gives one line and exit code 2; the CLI answers as link/2 facts."""
from __future__ import annotations


import pytest

from grader.core import exact
from grader.app.cli import main
from grader.core.engine import solve
from grader.core.errors import InputError, Source
from grader.io.read import load, load_native
from grader.io.native import dump
from grader.genres import get
from grader.core.steps import Status
from support import CORPUS, janko

G = get("slitherlink")

FACTS_2X2 = """\
edge(0,1). edge(1,2). edge(3,4). edge(4,5). edge(6,7). edge(7,8).
edge(0,3). edge(1,4). edge(2,5). edge(3,6). edge(4,7). edge(5,8).
cell_contains(c0,0,1). cell_contains(c0,3,4). cell_contains(c0,0,3). cell_contains(c0,1,4).
cell_contains(c1,1,2). cell_contains(c1,4,5). cell_contains(c1,1,4). cell_contains(c1,2,5).
clue(c0,3). clue(c1,3).
"""


def inside_cells(puzzle, state) -> set[str]:
    from grader.genres.slitherlink.model import inside_from_edges
    inside = inside_from_edges(puzzle, G.solution_from_state(puzzle, state))
    return {str(puzzle.cell(k)) for k, v in enumerate(inside) if v}


def test_tatham_example_from_formats():
    p = load("4x4t0:3a22a3a1b0b33a", genre="slitherlink")
    assert (p.rows, p.cols) == (4, 4)
    assert p.clues[:4] == (3, None, 2, 2)
    sol = exact.solve(p).solution
    expected = {"r1c1", "r1c3", "r1c4", "r2c1", "r2c3", "r2c4", "r3c1", "r3c2", "r3c3", "r3c4",
                "r4c1", "r4c3"}
    assert inside_cells(p, sol) == expected
    assert load("4x4t0dn:3a22a3a1b0b33a", genre="slitherlink").meta.label == "normal"


def test_puzzlink_example_from_formats():
    p = load("https://puzz.link/p?slither/5/5/cbcbcddad")
    rows = [" ".join("." if p.clues[r * 5 + c] is None else str(p.clues[r * 5 + c]) for c in range(5))
            for r in range(5)]
    assert rows == ["2 . . 1 .", ". 2 . . 1", ". . 2 . .", "3 . . 3 .", ". 0 . . 3"]


def test_asp_worked_example(tmp_path):
    f = tmp_path / "two.lp"
    f.write_text(FACTS_2X2)
    p = load(str(f))
    assert not p.square and len(p.ends) == 12
    trace = solve(p)
    assert trace.status is Status.SOLVED
    links = set(G.answer_asp(p, trace.final).split("\n"))
    assert links == {"link(0,1).", "link(1,2).", "link(2,5).", "link(4,5).", "link(3,4).", "link(0,3)."}


def test_square_grid_as_facts_matches_formats_numbering():
    p = load_native("genre: slitherlink\ngrid: |\n  3 3\n  . .\n", "<t>")
    text = G.facts_text(p)
    for fact in FACTS_2X2.split():
        assert fact in text.split()
    q = G.from_text(text, Source("<facts>"))
    assert exact.solve(q).verdict is exact.Verdict.UNIQUE


def test_solve_format_asp_prints_links(tmp_path, capsys):
    f = tmp_path / "two.lp"
    f.write_text(FACTS_2X2)
    assert main(["solve", str(f), "--format", "asp"]) == 0
    out = capsys.readouterr().out
    assert set(out.split()) == {"link(0,1).", "link(1,2).", "link(2,5).", "link(4,5).", "link(3,4).",
                                "link(0,3)."}


def test_native_round_trip_and_marks():
    p = load("4x4t0:3a22a3a1b0b33a", genre="slitherlink")
    sol = exact.solve(p).solution
    import attrs
    p = attrs.evolve(p, solution=G.solution_from_state(p, sol))
    q = load_native(dump(G.to_native(p)), "<rt>")
    assert q.clues == p.clues and q.solution == p.solution
    drawn = G.render_text(p, sol)
    assert G.parse_marks(p, drawn, Source("<marks>")) == sol


def test_janko_solution_is_shading():
    for p in janko("slitherlink", 3, max_cells=100):
        sol = G.solution_state(p)
        assert sol is not None and G.violations(p, sol) == []


def test_render_svg_grid_and_graph(tmp_path):
    p = load("4x4t0:3a22a3a1b0b33a", genre="slitherlink")
    assert G.render_svg(p, G.initial_state(p)).startswith("<svg")
    f = tmp_path / "two.lp"
    f.write_text(FACTS_2X2)
    q = load(str(f))
    assert "<line" in G.render_svg(q, G.initial_state(q))


BAD_FACTS = [
    ("edge(0,1). edge(1,0).", "other orientation", 1),
    ("edge(0,1). edge(1,2). cell_contains(c,0,2).", "not an edge", 1),
    ("edge(0,1). edge(1,2).\ncell_contains(c,1,0).", "written edge(0,1)", 2),
    ("edge(0,1). cell_contains(c,0,1). clue(c,2).", "above the size", 1),
    ("edge(0,1). clue(c,1).", "no cell_contains", 1),
    ("edge(0,1) edge(1,2).", "expected a fact", 1),
    ("% nothing\n", "not a graph", 1),
    ("edge(0,0).", "itself", 1),
    ("edge(0,1). foo(1).", "unexpected fact", 1),
    ("edge(0,1).\nvertex_at(0,0,0).", "give every vertex a position", 2),
    ("edge(0,1). vertex_at(0,0,0). vertex_at(1,1,x).", "two whole numbers", 1),
    ("edge(0,1). vertex_at(2,0,0).", "in no edge", 1),
]


@pytest.mark.parametrize("text,fragment,line", BAD_FACTS)
def test_bad_facts_name_line_and_problem(text, fragment, line):
    with pytest.raises(InputError) as info:
        G.from_text(text, Source("bad.lp", text))
    msg = str(info.value)
    assert fragment in msg and msg.startswith(f"bad.lp:{line}")
    assert "\n" not in msg


@pytest.mark.parametrize("spec,fragment", [
    ("https://puzz.link/p?slither/5", "columns"),
    ("https://puzz.link/p?slither/f/5/5/cbcbcddad", "variant"),
    ("4x4t1:3a22a3a1b0b33a", "only t0"),
    ("4x4t0:3a22a3a1b0b33", "needs 16"),
    ("4x4t0:3a22a3a1b0b33!", "unexpected '!'"),
    ("4x4t0#seed", "random seed"),
])
def test_bad_ids_and_urls_exit_2(capsys, spec, fragment):
    assert main(["grade", spec, "--genre", "slitherlink"]) == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and "\n" not in err


def test_bad_native_grid(tmp_path, capsys):
    f = tmp_path / "bad.yaml"
    f.write_text("genre: slitherlink\ngrid: |\n  . 5\n  . .\n")
    assert main(["grade", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert ":3:5" in err and "'5'" in err and "\n" not in err


def test_bad_lp_file_via_cli(tmp_path, capsys):
    f = tmp_path / "bad.lp"
    f.write_text("edge(0,1).\nedge(1,2).\ncell_contains(c0,2,1).\n")
    assert main(["grade", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert "bad.lp:3:1" in err and "\n" not in err


def test_project_graph_corpus_reads_and_is_unique():
    files = sorted((CORPUS / "slitherlink-graph").glob("*.lp"))
    if not files:
        pytest.skip("no generated graph puzzles")
    kinds = {f.name.split("-")[0] for f in files}
    assert len(kinds) >= 3
    for f in files[:: max(1, len(files) // 3)]:
        p = load(str(f))
        assert exact.solve(p).verdict is exact.Verdict.UNIQUE


def crossings(pos, ends) -> int:
    """Pairs of edges without a common end whose straight segments cross."""
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    count = 0
    for i, (a, b) in enumerate(ends):
        for c, d in ends[i + 1:]:
            if {a, b} & {c, d}:
                continue
            if (side(pos[a], pos[b], pos[c]) * side(pos[a], pos[b], pos[d]) < 0
                    and side(pos[c], pos[d], pos[a]) * side(pos[c], pos[d], pos[b]) < 0):
                count += 1
    return count


@pytest.mark.parametrize("kind", ["honeycomb-6x6", "triangular-6x5", "octagonal-4x4"])
def test_graph_drawn_without_crossings(tmp_path, kind):
    """With vertex_at/3 the drawing keeps the generator's coordinates; without them the
    layout is worked out from the graph alone, and a tiling still comes out uncrossed."""
    text = (CORPUS / "slitherlink-graph" / f"{kind}-grader-1.lp").read_text()
    placed = load_text(tmp_path / "placed.lp", text)
    assert placed.vertex_positions and crossings(placed.layout, placed.ends) == 0
    assert f"vertex_at({placed.vertex_terms[0]}," in G.facts_text(placed)     # round trip
    bare = load_text(tmp_path / "bare.lp", "\n".join(l for l in text.splitlines() if "vertex_at" not in l))
    assert not bare.vertex_positions and crossings(bare.layout, bare.ends) == 0
    assert G.render_svg(bare, G.initial_state(bare)).count("<line") == len(bare.ends)


def load_text(path, text):
    path.write_text(text)
    return load(str(path))
