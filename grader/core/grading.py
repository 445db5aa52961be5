"""A Grade from a Trace: level = hardest step, score = sum of step scores, label from the
difficulty table in rules/levels.yaml, steps per level and the bottleneck steps; and the two
models of that file: difficulty (how hard for a solver, 1.0-10.0, whatever the board's size)
and effort (how much work, in a practised solver's minutes)."""
from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Any

import attrs

from grader.core.resources import rules_yaml
from grader.core.steps import AVAILABLE_CAP, Deduction, Status, Step, Trace


@functools.cache
def difficulty_table() -> dict[str, Any]:
    return rules_yaml("levels.yaml")


@attrs.frozen
class Grade:
    status: Status
    level: int                      # hardest level used; 0 when no step was needed
    score: int
    label: str
    steps: int
    steps_per_level: dict[int, int]
    techniques: dict[str, int]      # technique id -> times used
    bottlenecks: tuple[int, ...]    # step numbers at the top level
    difficulty: float | None = None  # 1.0-10.0, one decimal; None unless solved
    effort: float | None = None      # minutes; None unless solved

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value, "level": self.level, "difficulty": self.difficulty,
                "effort": self.effort, "score": self.score, "label": self.label, "steps": self.steps,
                "steps_per_level": {str(k): v for k, v in sorted(self.steps_per_level.items())},
                "techniques": dict(sorted(self.techniques.items())),
                "bottlenecks": list(self.bottlenecks)}


def step_score(step: Step) -> int:
    return step.heuristic.effective_score


def trial_size(d: Deduction) -> tuple[int, int, int]:
    """(depth, steps, branches) of a trial: how deep its hypotheses nest (1: none inside
    another), how many steps its branches took in all, and how many branches it followed."""
    branches = [b for b in d.detail if hasattr(b, "trace")]
    depth = 1 + max((trial_size(s.deduction)[0] for b in branches for s in b.trace.steps if s.level == 5),
                    default=0)
    return depth, sum(len(b.trace.steps) for b in branches), len(branches)


def step_rating(step: Step) -> float:
    """How hard a step is for a person, 1.0-10.0 (rules/levels.yaml, difficulty): its level,
    how lonely it was among the deductions on offer, and for a trial, its size."""
    model = difficulty_table()["difficulty"]
    rating = model["base"][step.level]
    if step.level == 5:
        depth, steps, branches = trial_size(step.deduction)
        rating += (model["depth"] * (depth - 1) + model["length"] * max(0.0, math.log2(max(steps, 1) / 8))
                   + model["branches"] * max(0.0, math.log2(max(branches, 1) / 2)))
    elif step.available is not None:
        rating += model["lone"] * (1 - math.log2(min(step.available, AVAILABLE_CAP)) / math.log2(AVAILABLE_CAP))
    return min(10.0, rating)


def difficulty_of(ratings: list[float]) -> float:
    """The hardest step's rating, a little more when the path needs steps that hard often."""
    if not ratings:
        return 1.0
    top = max(ratings)
    near = sum(1 for r in ratings if r >= top - 0.5)
    lean = difficulty_table()["difficulty"]["lean"] * min(4.0, math.log2(near))
    return round(min(10.0, top + lean), 1)


def effort_of(trace: Trace, ratings: list[float]) -> float:
    """Minutes of a practised solver (rules/levels.yaml, effort): each step takes longer the
    harder it is and the more undecided cells hide it, and a trial's fill is done by hand."""
    model = difficulty_table()["effort"]
    cands = list(trace.start.cands)
    undecided = sum(1 for m in cands if m & (m - 1))
    seconds = 0.0
    for step, rating in zip(trace.steps, ratings):
        on_offer = step.available or AVAILABLE_CAP
        seconds += (model["seconds"] * model["growth"] ** (rating - 1)
                    * (1 + model["search"] * math.log2(1 + undecided / on_offer)))
        if step.level == 5:
            seconds += model["per_trial_step"] * trial_size(step.deduction)[1]
        for v, m in step.deduction.removals:
            old = cands[v]
            cands[v] = old & ~m
            if old & (old - 1) and not cands[v] & (cands[v] - 1):
                undecided -= 1
    return round(seconds / 60, 1)


def grade(trace: Trace) -> Grade:
    table = difficulty_table()
    level = max((s.level for s in trace.steps), default=0)
    score = sum(step_score(s) for s in trace.steps)
    per_level = Counter(s.level for s in trace.steps)
    techniques = Counter(s.heuristic.id for s in trace.steps)
    bottlenecks = tuple(s.number for s in trace.steps if s.level == level)
    difficulty = effort = None
    if trace.status is not Status.SOLVED:
        label = table["unsolved"]
    else:
        labels = table["labels"]
        row = table["levels"][max(level, 1)]
        label = row["label"]
        if per_level[level] >= row["bump_steps"] or score >= row["bump_score"]:
            label = labels[min(labels.index(label) + 1, len(labels) - 1)]
        ratings = [step_rating(s) for s in trace.steps]
        difficulty, effort = difficulty_of(ratings), effort_of(trace, ratings)
    return Grade(trace.status, level, score, label, len(trace.steps),
                 dict(sorted(per_level.items())), dict(techniques), bottlenecks, difficulty, effort)


def level_words(level: int) -> str:
    """How a grade's level reads: "level 3", or "no step" for a path that took none (a blank
    or already finished board, or a solve stuck at once)."""
    return f"level {level}" if level else "no step"


def why_label(g: Grade) -> str:
    """Why a grade has its label, in a sentence: the label of its level, moved up one when the
    path leans on that level (rules/levels.yaml)."""
    if g.status is not Status.SOLVED:
        return f"label {g.label}: the techniques did not finish the puzzle"
    row = difficulty_table()["levels"][max(g.level, 1)]
    if g.label == row["label"]:
        return f"label {g.label}: the label of {level_words(g.level)}"
    at_top = g.steps_per_level.get(g.level, 0)
    return (f"label {g.label}: level {g.level} is {row['label']}, moved up one because the path leans on "
            f"level {g.level}: {at_top} steps there ({row['bump_steps']} or more move it up, and so does a "
            f"score of {row['bump_score']}; it has {g.score})")

