"""Every genre plugin loads and supplies what the engine needs."""
from pathlib import Path

from grader.genres import all_genres, broken
from grader.core.registry import REGISTRY


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


def test_every_heuristic_is_named_in_a_test():
    """Each technique has tests of its own (where it must fire, and where it must not): its
    id, or for rule-language techniques the test named after it, appears in tests/."""
    text = "\n".join(f.read_text(encoding="utf-8") for f in Path(__file__).parent.glob("test_*.py"))
    missing = [h.id for h in REGISTRY
               if h.id not in text and f"test_{h.id.split('.', 1)[1].replace('-', '_')}(" not in text]
    assert missing == []


def test_every_row_of_a_technique_table_registers_a_technique():
    """A row naming no technique (a typo, a family no plugin offers) would silently do nothing."""
    for g in all_genres():
        assert REGISTRY.unlisted(g.name) == [], g.name


def test_a_genre_with_a_table_words_its_techniques_there():
    """Own techniques are registered as @heuristic(id=..., genre=GENRE) only: their level, order,
    score and wording are in rules/techniques/<genre>.yaml, one place for each."""
    import ast
    allowed = {"id", "genre"}
    root = Path(__file__).resolve().parent.parent / "heuristics"
    for path in root.rglob("*.py"):
        if "common" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "heuristic":
                extra = {k.arg for k in node.keywords} - allowed
                assert not extra, f"{path.name}:{node.lineno} gives {sorted(extra)} in code"


def test_a_url_or_an_alias_loads_the_genre_it_names_alone():
    """A command on one puzzle imports that genre's model, not the other twelve (in a fresh
    interpreter: this one has loaded them all)."""
    import subprocess
    import sys
    code = ("import sys; from grader.io.read import load; "
            "load('https://puzz.link/p?lightup/6/6/nekcakbl'); load('https://puzz.link/p?mashu/6/6/1063000i3000'); "
            "from grader.genres import get; get('loopy'); "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('grader.genres.') and m.endswith('.model'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["grader.genres.akari.model", "grader.genres.masyu.model", "grader.genres.slitherlink.model"]


def test_a_genres_names_are_in_its_package_for_finding_it_without_its_model():
    for g in all_genres():
        package = __import__(f"grader.genres.{g.name}", fromlist=["_"])
        assert g.aliases == getattr(package, "ALIASES", ())
        assert g.puzzlink_pids == getattr(package, "PUZZLINK_PIDS", ())
        assert g.janko_names == getattr(package, "JANKO_NAMES", ())


def test_find_tries_the_guess_first_and_then_every_genre():
    from grader.genres import find
    assert find(lambda g: "mashu" in g.puzzlink_pids, guess="mashu").name == "masyu"
    assert find(lambda g: "Hashi" in g.janko_names, guess="nothing-by-that-name").name == "hashiwokakero"
    assert find(lambda g: False, guess="akari") is None
