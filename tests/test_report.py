"""grader report: solve-path reports (Markdown and self-contained HTML) and corpus summaries."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from grader.core.analysis import analyse
from grader.app.cli import main
from grader.core.engine import Budget
from grader.io.read import load
from grader.genres import all_genres
from grader.app.report import corpus_report, puzzle_report, render
from grader.app.report.solve_path import build

from support import CORPUS

PUZZLE = str(CORPUS / "akari" / "lightup-7x7b20s2d2-grader-1.yaml")


@pytest.fixture(scope="module")
def analysis():
    return analyse(load(PUZZLE))


class Tags(HTMLParser):
    """Counts tags and collects every URL-like attribute, to prove the page is self-contained."""

    def __init__(self):
        super().__init__()
        self.count: dict[str, int] = {}
        self.urls: list[str] = []
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.urls.append(value)
            if name == "href" and value and value.startswith("#"):
                self.links.append(value[1:])
            if name == "id":
                self.ids.add(value)


def test_markdown_puts_the_grade_and_bottlenecks_first(analysis):
    text = render(build(analysis), "md")
    g = analysis.grade
    assert text.startswith("# Akari (Light Up): lightup 7x7b20s2d2 #1\n")
    assert f"- **Grade**: {g.label}, level {g.level}, score {g.score}" in text
    assert "- **Solutions**: exactly one" in text
    assert text.index("## Bottleneck steps (level 3)") < text.index("## The solve path")
    for n in g.bottlenecks:
        assert f"[step {n}](#step-{n})" in text
    assert "| level       | steps   | score   |" in text           # tabulate's github tables
    assert re.search(r"\| L3 \(hard\)\s+\| 6\s+\|", text)
    path = text[text.index("## The solve path"):]
    assert len(re.findall(r'^\| <a id="step-\d+"></a>', path, re.M)) == g.steps
    assert "A satisfied wall" in path and "r4c1" in path


def test_html_is_self_contained_with_boards_before_and_after_each_step(analysis):
    page = render(build(analysis), "html")
    tags = Tags()
    tags.feed(page)
    steps = analysis.grade.steps
    assert tags.count["svg"] == 2 * steps + 2             # the start, the end, and each step's two
    assert tags.count["section"] == steps and tags.count["table"] >= 3
    assert tags.urls == [] and "<script" not in page and "@import" not in page
    assert set(tags.links) <= tags.ids                  # every internal link lands
    assert page.count('class="hl-target"') >= 2 * steps  # the changed cells, before and after
    assert 'class="step bottleneck" id="step-10"' in page
    assert "Only r2c6 and r3c7 can light r3c6" in page


def test_a_set_of_reports_links_one_stylesheet_instead_of_inlining_it(analysis):
    from grader.app.report.html import CSS
    inline = render(build(analysis), "html")
    linked = render(build(analysis), "html", "../style.css")
    assert "th, td {" in CSS and CSS in inline and "<link" not in inline
    assert '<link rel="stylesheet" href="../style.css">' in linked and "<style" not in linked
    assert linked.split("</head>")[1] == inline.split("</head>")[1]     # the same body
    assert "<table><thead><tr><th>level</th><th>steps</th><th>score</th></tr></thead>" in inline


def test_report_command_writes_a_file_and_refuses_bad_input(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", PUZZLE, "-o", str(out), "--no-unique"]) == 0      # the format from -o
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert main(["report", PUZZLE, "--format", "md", "-o", str(out), "--no-unique"]) == 0
    assert out.read_text().startswith("# Akari")
    assert main(["report"]) == 2
    assert "give either a PUZZLE or --corpus RESULTS" in capsys.readouterr().err
    bad = tmp_path / "bad.yaml"
    bad.write_text("genre: akari\ngrid: |\n  . 9\n")
    assert main(["report", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {bad}:3:") and len(err.splitlines()) == 1


def test_an_unsolved_path_says_where_it_stopped():
    text = puzzle_report(PUZZLE, max_steps=5, check_unique=False)
    assert "- **Result**: budget: budget exhausted" in text
    assert "The path stops here: budget (budget exhausted)." in text


ROWS = [
    {"id": "a/1", "genre": "akari", "status": "solved", "level": 2, "difficulty": 3.0, "effort": 2.0,
     "label": "medium", "unique": True,
     "matches_given_solution": True, "seconds": 0.5, "steps_per_level": {"1": 3, "2": 1}, "techniques": {"akari.wall-satisfied": 3,
                                                                        "akari.isolated-cell": 1}},
    {"id": "a/2", "genre": "akari", "status": "solved", "level": 5, "difficulty": 7.0, "effort": 8.0,
     "label": "extreme", "unique": True,
     "matches_given_solution": False, "seconds": 2.5, "techniques": {"akari.wall-satisfied": 2, "akari.trial-and-error": 1}},
    {"id": "a/3", "genre": "akari", "status": "stuck", "level": 3, "label": "unsolved", "unique": False,
     "seconds": 1.0, "reason": "no technique applies", "techniques": {"akari.wall-satisfied": 1}},
    {"id": "x/4.txt", "genre": None, "status": "error", "error": "x/4.txt: unknown file type '.txt'"},
    {"id": "a/5", "genre": "akari", "status": "timeout", "error": "took longer than the 9 s time limit",
     "seconds": 9.0},
]


def test_corpus_report_summarises_grades_levels_techniques_and_problems(tmp_path):
    results = tmp_path / "rows.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    text = corpus_report(str(results))
    assert "- **Puzzles**: 5" in text and "- **Solved by the techniques**: 2 of 5" in text
    assert "- **Agree with the given solution**: 1 of the 2 solved puzzles that came with a solution" in text
    # labels easy..unsolved, median difficulty and effort, failed
    assert re.search(r"\| akari\s+\| 4\s+\| 50%\s+\| 1/2\s+\| 0\s+\| 1\s+\| 0\s+\| 0\s+\| 1\s+\| 1\s+"
                     r"\| 5\.0\s+\| 5\.0\s+\| 1\s+\|", text)
    assert re.search(r"\| L5\s+\| 1\s+\| █+", text)
    assert re.search(r"\| akari\s+\| 0\s+\| 1\s+\| 0\s+\| 0\s+\| 1\s+\| 1\s+\|", text)    # L1-L5, not solved
    assert re.search(r"\| akari\s+\| L1\s+\| A satisfied wall\s+\| 3\s+\| 75%\s+\| 6\s+\|", text)
    slowest = text[text.index("## Slowest puzzles"):]
    assert slowest.index("a/5") < slowest.index("a/2") < slowest.index("a/3")
    assert "## Not unique (1)" in text and "the exact solver found several solutions" in text
    assert "| a/3 " in text[text.index("## Not solved"):] and "stuck: no technique applies" in text
    assert "timeout: took longer than the 9 s time limit" in text and "unknown file type" in text
    page = corpus_report(str(results), "html")
    assert page.count('class="bar"') >= 6 and "<script" not in page


def test_corpus_report_from_a_batch_db(tmp_path, capsys):
    db, folder = tmp_path / "r.sqlite", tmp_path / "p"
    folder.mkdir()
    for f in sorted((CORPUS / "akari").glob("lightup-7x7*d0*.yaml")):
        (folder / f.name).write_text(f.read_text())
    assert main(["batch", str(folder), "--db", str(db), "--no-progress"]) == 0
    assert main(["report", "--corpus", str(db), "-o", str(tmp_path / "c.md")]) == 0
    text = (tmp_path / "c.md").read_text()
    assert "- **Solved by the techniques**: 2 of 2" in text and "A satisfied wall" in text


def test_corpus_report_refuses_bad_results(tmp_path, capsys):
    bad = tmp_path / "rows.jsonl"
    bad.write_text(json.dumps(ROWS[0]) + "\n{oops\n")
    assert main(["report", "--corpus", str(bad)]) == 2
    assert f"{bad}:2:2: not a JSON line" in capsys.readouterr().err
    assert main(["report", "--corpus", str(tmp_path / "none.sqlite")]) == 2
    assert "no such results file" in capsys.readouterr().err


@pytest.fixture(scope="module")
def smallest_per_genre() -> dict[str, str]:
    """The smallest puzzle file of each genre in the project's corpus/, in any format."""
    from grader.app.batch import list_jobs
    best: dict[str, tuple[int, str]] = {}
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        for job in list_jobs(str(folder)):
            if job.puzzle is not None and Path(job.key).is_file():
                size = (Path(job.key).stat().st_size, job.key)
                best[job.puzzle.genre.name] = min(best.get(job.puzzle.genre.name, size), size)
    return {genre: key for genre, (_, key) in best.items()}


@pytest.mark.parametrize("genre", [g.name for g in all_genres()])
def test_every_genre_gets_a_report(genre, smallest_per_genre):
    if genre not in smallest_per_genre:
        pytest.skip(f"no puzzle of {genre} in corpus/")
    a = analyse(load(smallest_per_genre[genre]), budget=Budget(max_steps=40, max_seconds=10),
                check_unique=False)
    page = render(build(a), "html")
    tags = Tags()
    tags.feed(page)
    assert tags.count.get("svg", 0) == 2 * a.grade.steps + 2 and tags.urls == []
    assert render(build(a), "md").count('<a id="step-') == a.grade.steps


def test_a_genre_without_svg_shows_text_boards(analysis, monkeypatch):

    def no_svg(*args, **kwargs):
        raise NotImplementedError

    monkeypatch.setattr(type(analysis.puzzle.genre), "render_svg", no_svg)
    page = render(build(analysis), "html")
    assert "<svg" not in page and page.count("<pre>") == 2 * analysis.grade.steps + 2


def test_technique_catalogue_lists_every_registered_technique_under_its_genre():
    from grader.genres import all_genres
    from grader.core.registry import REGISTRY
    from grader.app.report.techniques import build
    text = render(build(), "md")
    for genre in all_genres():
        assert f"## {genre.title}" in text
        for h in REGISTRY.for_genre(genre.name):
            assert f"| {h.id} " in text
    assert "our addition" in text and "(uniqueness)" in text
