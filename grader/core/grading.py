"""A Grade from a Trace: level = hardest step, score = sum of step scores, label from the
difficulty table in rules/levels.yaml, steps per level and the bottleneck steps."""
from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import attrs
import yaml

from grader.core.resources import rules_text
from grader.core.steps import Status, Step, Trace


@functools.cache
def difficulty_table() -> dict[str, Any]:
    return yaml.safe_load(rules_text("levels.yaml"))


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

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value, "level": self.level, "score": self.score,
                "label": self.label, "steps": self.steps,
                "steps_per_level": {str(k): v for k, v in sorted(self.steps_per_level.items())},
                "techniques": dict(sorted(self.techniques.items())),
                "bottlenecks": list(self.bottlenecks)}


def step_score(step: Step) -> int:
    return step.heuristic.effective_score


def grade(trace: Trace) -> Grade:
    table = difficulty_table()
    level = max((s.level for s in trace.steps), default=0)
    score = sum(step_score(s) for s in trace.steps)
    per_level = Counter(s.level for s in trace.steps)
    techniques = Counter(s.heuristic.id for s in trace.steps)
    bottlenecks = tuple(s.number for s in trace.steps if s.level == level)
    if trace.status is not Status.SOLVED:
        label = table["unsolved"]
    else:
        labels = table["labels"]
        row = table["levels"][max(level, 1)]
        label = row["label"]
        if per_level[level] >= row["bump_steps"] or score >= row["bump_score"]:
            label = labels[min(labels.index(label) + 1, len(labels) - 1)]
    return Grade(trace.status, level, score, label, len(trace.steps),
                 dict(sorted(per_level.items())), dict(techniques), bottlenecks)
