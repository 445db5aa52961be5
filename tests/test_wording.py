"""Every sentence a solve writes reads right: each field filled, counts that agree with their
nouns, the right article, a verb that agrees with a list of cells. Checked on the explanations
and nudges of real solve paths of every genre (corpus/), with one cell and with several."""
from __future__ import annotations

import re
from collections import Counter

from grader.core.engine import Budget, Solver
from grader.core.explain import describe_removals, nudge, sentence, with_article
from grader.io.read import iter_puzzles
from support import CORPUS

NOUNS = ("bulb|cell|line|step|way|case|mine|bridge|edge|island|wall|room|end|number|clue|branch|"
         "neighbour|part|area|loop|trial|hypothes[ie]s")
PROBLEMS = {
    "a field left unfilled": re.compile(r"[{}]"),
    "1 with a plural noun": re.compile(rf"\b1 (?:more )?(?:{NOUNS})s\b"),
    "several with a singular noun": re.compile(rf"\b(?:[2-9]|\d\d+) (?:more )?(?:{NOUNS})\b(?!s)"),
    "'a' before a vowel": re.compile(r"\ba (?:[aei]\w|o(?!ne)\w|u(?!n[iy]|s)\w)"),
    "a list of cells with a singular verb": re.compile(r"\br\d+c\d+ and r\d+c\d+ (?:is|holds|has|carries|lies)\b"),
    "'1 of the 1'": re.compile(r"\bof the 1 \w+s\b"),
    "a box-drawing shape (say how the line goes)": re.compile("[\u2500-\u257f]"),
}
PER_GENRE = 4


def sentences():
    per_genre: Counter[str] = Counter()
    for name, puzzle in iter_puzzles(str(CORPUS)):
        if isinstance(puzzle, Exception) or per_genre[puzzle.genre.name] >= PER_GENRE:
            continue
        per_genre[puzzle.genre.name] += 1
        for step, before, _ in Solver(puzzle, budget=Budget(max_steps=2000)).solve().states():
            yield step.heuristic.id, sentence(step)
            yield step.heuristic.id, nudge(step)
            yield step.heuristic.id, describe_removals(puzzle, before, step.deduction.removals)   # a hint's answer


def test_every_sentence_of_real_solves_reads_right():
    wrong = []
    for hid, text in sentences():
        wrong += [f"{hid}: {what}: {text}" for what, rx in PROBLEMS.items() if rx.search(text)]
    assert wrong == []


def test_the_checks_catch_what_they_look_for():
    assert PROBLEMS["1 with a plural noun"].search("in 1 ways that")
    assert PROBLEMS["several with a singular noun"].search("needs 2 bulb here")
    assert not PROBLEMS["several with a singular noun"].search("needs 2 bulbs here")
    assert PROBLEMS["'a' before a vowel"].search("this board is a akari puzzle")
    assert not PROBLEMS["'a' before a vowel"].search("a one-way street, a unique solution")
    assert PROBLEMS["a list of cells with a singular verb"].search("r1c1 and r1c2 is empty")
    assert with_article("akari") == "an akari" and with_article("masyu") == "a masyu"
    assert PROBLEMS["a box-drawing shape (say how the line goes)"].search("r4c3 is not ┛")
