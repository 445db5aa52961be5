"""Properties over real puzzles and random input (hypothesis)."""
from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from grader.core.errors import InputError
from grader.io.read import load, load_native
from grader.core.registry import REGISTRY
from grader.core.model import State
from support import assert_all_sound, janko, reference


@functools.cache
def akari_sample():
    return [(p, reference(p)) for p in janko("akari", 6, seed=11, max_cells=100)]


@pytest.mark.corpus
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_akari_deductions_agree_with_the_solution_from_any_correct_partial_state(data):
    puzzle, solution = data.draw(st.sampled_from(akari_sample()))
    start = puzzle.genre.initial_state(puzzle)
    keep = data.draw(st.lists(st.booleans(), min_size=len(start.cands), max_size=len(start.cands)))
    state = State(tuple(s & t if k else s for s, t, k in zip(start.cands, solution.cands, keep)))
    for h in REGISTRY.for_genre("akari", max_level=4):
        assert_all_sound(h, puzzle, state, solution)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(".#01234*+-xQ \n:|[]{}'\"&!%genridakuphsol")), max_size=120))
def test_the_native_reader_never_crashes(text):
    try:
        load_native("genre: akari\ngrid: |\n  " + text.replace("\n", "\n  "), "<fuzz>")
    except InputError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789abcdefghijklmnopqrstuvwxyzBx:/?#.")), max_size=40))
def test_ids_and_urls_never_crash(text):
    for spec in (f"7x7:{text}", f"https://puzz.link/p?lightup/{text}", f"5x{text}"):
        try:
            load(spec, "akari")
        except InputError as exc:
            assert "\n" not in str(exc)
