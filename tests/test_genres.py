"""Every genre plugin loads and supplies what the engine needs."""
from grader.genres import all_genres, broken
from grader.heuristic import REGISTRY


def test_no_genre_module_is_broken():
    assert broken() == {}


def test_every_genre_has_techniques_at_several_levels_and_an_encoding():
    for g in all_genres():
        levels = {h.level for h in REGISTRY.for_genre(g.name)}
        assert len(levels) >= 2, g.name
        assert g.encoding and g.encoding_text().strip(), g.name
        assert len(g.value_phrases) >= 2, g.name


def test_every_heuristic_belongs_to_a_loaded_genre():
    names = {g.name for g in all_genres()}
    assert {h.info.genre for h in REGISTRY} <= names
