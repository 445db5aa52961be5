"""Soundness over real puzzles: every deduction on a solve path keeps the unique solution,
and every technique is sound from random correct partial states."""
from __future__ import annotations

import random

import pytest

from grader.core.engine import Budget
from grader.core.registry import REGISTRY
from grader.io.read import load
from grader.core.steps import Status
from support import (CORPUS, assert_all_sound, assert_sound_from_partial_states, assert_sound_path, janko,
                     random_partial)


@pytest.fixture(scope="module")
def sample():
    return janko("slitherlink", 4, seed=11, max_cells=100)


def test_solve_paths_are_sound_on_janko(sample):
    # a short budget keeps CI fast; every deduction made within it is checked
    statuses = [assert_sound_path(p, budget=Budget(max_steps=5000, max_seconds=4)) for p in sample]
    assert Status.CONTRADICTION not in statuses and Status.SOLVED in statuses


def test_every_technique_sound_from_random_partial_states(sample):
    assert_sound_from_partial_states(sample[:2], REGISTRY.for_genre("slitherlink", 4), random.Random(4),
                                     (0.2, 0.5, 0.8))


def test_generated_graphs_and_loopy_are_sound():
    files = sorted((CORPUS / "slitherlink-graph").glob("*.lp"))[:2] + \
        sorted((CORPUS / "slitherlink").glob("loopy-7x7t0dh-*.yaml"))[:1]
    if not files:
        pytest.skip("no project corpus")
    for f in files:
        p = load(str(f))
        assert assert_sound_path(p) is Status.SOLVED


def test_grades_follow_loopy_tiers():
    """Simon Tatham's tiers (our generated 7x7 Loopy puzzles): the mean level and the mean
    score grow easy < normal < tricky < hard, easy/normal need nothing above level 2 and
    tricky always needs level 3 or more."""
    from statistics import mean
    from grader.core.engine import solve
    from grader.core.grading import grade
    files = sorted((CORPUS / "slitherlink").glob("loopy-7x7t0d*.yaml"))
    if not files:
        pytest.skip("no Loopy corpus")
    by_tier: dict[str, list] = {}
    for f in files:
        p = load(str(f))
        g = grade(solve(p))
        assert g.status is Status.SOLVED
        by_tier.setdefault(p.meta.label, []).append(g)
    tiers = ("easy", "normal", "tricky", "hard")
    for measure in (lambda g: g.score, lambda g: g.level):
        means = [mean(measure(g) for g in by_tier[t]) for t in tiers]
        assert all(a < b for a, b in zip(means, means[1:])), means
    assert max(g.level for t in ("easy", "normal") for g in by_tier[t]) <= 2
    assert min(g.level for g in by_tier["tricky"]) >= 3


def test_every_technique_sound_from_partial_states_of_planted_loops():
    """Planted loops (tiny, along the border, round the board; square grids and other graphs):
    from random correct partial states no technique below trial and error removes a planted
    value, and the rules see nothing broken."""
    from grader.app.soak import planter, seeded
    hs = REGISTRY.for_genre("slitherlink", 4)
    for seed in range(80):
        plant = planter("slitherlink")(seeded("slitherlink", seed))
        rng = random.Random(seed)
        for fraction in (0.0, 0.3, 0.7):
            state = random_partial(plant.puzzle, plant.solution, rng, fraction)
            assert not plant.puzzle.genre.violations(plant.puzzle, state)
            for h in hs:
                assert_all_sound(h, plant.puzzle, state, plant.solution)
