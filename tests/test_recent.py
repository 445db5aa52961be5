"""The cache of recent states (grader/kernels/recent.py): which remembered state a fact is
updated from."""
from __future__ import annotations

from grader.core.model import State
from grader.kernels.recent import Recent


def _asked(cache: Recent, state: State, log: list) -> str:
    """The fact of `state` (its candidates' sum), noting what each update started from."""
    def update(fact, old, changed):
        log.append((old, tuple(changed)))
        return sum(state.cands)
    return cache.get(state, lambda: sum(state.cands), update)


def test_an_origin_older_than_the_newest_state_is_found_and_pinned():
    cache, log = Recent(size=3, limit=10), []
    start = State((3, 3, 3, 3))
    _asked(cache, start, log)
    _asked(cache, start.remove([(0, 1)]), log)
    branch = start.remove([(1, 2)])                  # a trial's next branch, from the start
    assert _asked(cache, branch, log) == 10 and log[-1] == (start.cands, (1,))
    assert [old for old, _ in cache.pinned] == [start.cands]
    for var in (2, 3, 0):                           # the start leaves the newest states...
        branch = branch.remove([(var, 1)])
        _asked(cache, branch, log)
    assert all(old is not start.cands for old, _ in cache.items)
    _asked(cache, start.remove([(3, 2)]), log)      # ...and is found among the pinned
    assert log[-1] == (start.cands, (3,))


def test_a_state_asked_twice_is_updated_from_its_newest_entry():
    cache, log = Recent(size=2, limit=10), []
    start = State((3, 3))
    _asked(cache, start, log)
    _asked(cache, State(start.cands), log)           # the same candidates object again
    _asked(cache, start.remove([(0, 1)]), log)       # the older entry of the two leaves
    assert cache.by_id[id(start.cands)] is cache.items[0]
    assert _asked(cache, start.remove([(1, 1)]), log) == 5 and log[-1] == (start.cands, (1,))


def test_differing_lists_every_cell_that_differs():
    from grader.kernels.recent import differing
    old = (3, 1, 2, 3) * 40
    new = list(old)
    new[5], new[100] = 3, 0
    assert differing(old, tuple(new), 4) == [5, 100]
    assert differing(old, old, 4) == []
    assert differing(old, tuple(new), 1) is None
