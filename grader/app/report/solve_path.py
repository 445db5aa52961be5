"""The solve-path report of one puzzle: the grade and its bottleneck steps up front, the
tables of steps per level and per technique, then every step with its board before and after."""
from __future__ import annotations

from collections import Counter

from grader.core.analysis import Analysis
from grader.core.explain import describe_removals, sentence
from grader.core.grading import difficulty_table, level_words, step_score, why_label
from grader.app.report.document import (Board, Boards, Document, Facts, Heading, Link, Para,
                                        StepBlock, Steps, table)

SOLUTIONS = {"none": "none (the clues contradict each other)", "unique": "exactly one",
             "several": "several (not a proper puzzle)", "unknown": "unknown (time limit)"}
MAX_LINKS = 12


def level_name(level: int) -> str:
    if level == 0:
        return "L0 (nothing to do)"
    return f"L{level} ({difficulty_table()['levels'][level]['label']})"


def facts(a: Analysis, house_label: str | None = None) -> Facts:
    meta, g = a.puzzle.meta, a.grade
    items = [("Genre", a.puzzle.genre.title), ("Puzzle", a.id)]
    if meta.title:
        items.append(("Title", meta.title))
    if meta.author:
        items.append(("Author", meta.author))
    if meta.provenance or meta.source:
        items.append(("Provenance", meta.provenance or meta.source or ""))
    items += [("Result", g.status.value + (f": {a.trace.reason}" if a.trace.reason and g.status.value != "solved"
                                           else "")),
              ("Grade", f"{g.label}, {level_words(g.level)}, score {g.score}"), ("Label", why_label(g))]
    if g.difficulty is not None:
        items += [("Difficulty", f"{g.difficulty} of 10"), ("Effort", f"about {g.effort} minutes")]
    items.append(("Steps", str(g.steps)))
    if meta.label:
        items.append(("Publisher's label", meta.label))
    if house_label is not None:
        items.append(("House label", house_label))
    u = a.uniqueness
    items.append(("Solutions", "not checked" if u is None else f"{SOLUTIONS[u.verdict.value]}, shown by {u.shown_by}"))
    if a.matches_given_solution is not None:
        items.append(("Given solution", "matches" if a.matches_given_solution else "DIFFERS"))
    return Facts(tuple(items))


def board(puzzle, caption: str, state, marks=()) -> Board:
    """A board as SVG and as text; a genre that draws no SVG yet shows its text board."""
    genre = puzzle.genre
    try:
        svg = genre.render_svg(puzzle, state, marks)
    except NotImplementedError:
        svg = ""
    return Board(caption, svg, genre.render_board(puzzle, state))


def build(a: Analysis, house_label: str | None = None) -> Document:
    """house_label: the publisher's label a --scale maps the grade to, shown with the facts."""
    puzzle, trace, g = a.puzzle, a.trace, a.grade
    genre = puzzle.genre
    bottlenecks = set(g.bottlenecks)
    steps: list[StepBlock] = []
    per_level_score: Counter[int] = Counter()
    for step, before, after in trace.states():
        per_level_score[step.level] += step_score(step)
        marks = step.deduction.highlights()
        steps.append(StepBlock(
            step.number, step.level, step.heuristic.name, sentence(step),
            describe_removals(puzzle, before, step.deduction.removals),
            board(puzzle, "before", before, marks), board(puzzle, "after", after, marks[:1]),
            step.number in bottlenecks))
    blocks: list = [facts(a, house_label)]
    if steps and g.level:
        shown = [s for s in steps if s.bottleneck][:MAX_LINKS]
        blocks.append(Heading(2, f"Bottleneck steps (level {g.level})", "bottlenecks"))
        spans: list = [f"The grade rests on {len(bottlenecks)} step{'s' if len(bottlenecks) != 1 else ''} "
                       f"at level {g.level}: "]
        for i, s in enumerate(shown):
            spans += ([", "] if i else []) + [Link(f"step {s.number}", s.anchor)]
        spans.append(" ..." if len(bottlenecks) > len(shown) else ".")
        blocks.append(Para(tuple(spans)))
        blocks.append(table(["step", "technique", "what it shows"],
                            [[s.number, s.technique, s.text] for s in shown]))
    blocks.append(Heading(2, "Steps per level", "levels"))
    blocks.append(table(["level", "steps", "score"],
                        [[level_name(lv), n, per_level_score[lv]] for lv, n in g.steps_per_level.items()]
                        + [["total", g.steps, g.score]]))
    blocks.append(Heading(2, "Steps per technique", "techniques"))
    first: dict[str, StepBlock] = {}
    count: Counter[tuple[int, str]] = Counter()
    for s in steps:
        first.setdefault(s.technique, s)
        count[(s.level, s.technique)] += 1
    blocks.append(table(["level", "technique", "steps", "first used"],
                        [[f"L{lv}", name, n, f"step {first[name].number}"]
                         for (lv, name), n in sorted(count.items(), key=lambda kv: (kv[0][0], -kv[1]))]))
    blocks.append(Heading(2, "The puzzle", "puzzle"))
    blocks.append(Boards((board(puzzle, "start", trace.start), board(puzzle, "end of the path", trace.final))))
    if steps:
        blocks.append(Heading(2, "The solve path", "path"))
        blocks.append(Steps(tuple(steps)))
    if g.status.value != "solved":
        blocks.append(Para.of(f"The path stops here: {g.status.value}"
                              + (f" ({trace.reason})." if trace.reason else ".")))
    title = f"{genre.title}: {puzzle.meta.title or a.id}"
    return Document(title, tuple(blocks), legend=True)
