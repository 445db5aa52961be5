"""Damaged input: a file, record or URL with a few characters deleted, changed or added is
read or refused with an InputError (one line naming the place), never an internal error."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import CORPUS

from grader.core.errors import InputError
from grader.io.read import load

NATIVE = sorted(p for p in CORPUS.glob("*/*.yaml"))
# one file of each genre
ONE_EACH = sorted({p.parent.name: p for p in NATIVE}.values())
URLS = ["https://puzz.link/p?lightup/6/6/nekcakbl", "https://puzz.link/p?numlin/5/5/1j2k3i1g2h3j",
        "https://puzz.link/p?slither/4/4/bg2dcb1c", "https://puzz.link/p?nurikabe/5/5/i2g3l1h1gn"]
GLYPHS = "0123456789.-#*+x?/ \n:,[]{}\"'abcz┃━┏"


def damaged(text: str, data: st.DataObject) -> str:
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 3))):
        if not chars:
            break
        k = data.draw(st.integers(0, len(chars) - 1))
        how = data.draw(st.sampled_from(["delete", "change", "add", "cut"]))
        if how == "delete":
            del chars[k]
        elif how == "change":
            chars[k] = data.draw(st.sampled_from(GLYPHS))
        elif how == "add":
            chars.insert(k, data.draw(st.sampled_from(GLYPHS)))
        else:
            chars = chars[:k]
    return "".join(chars)


def read_or_refuse(spec: str) -> None:
    try:
        load(spec)
    except InputError as exc:
        assert "\n" not in str(exc)


SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("path", ONE_EACH, ids=lambda p: p.parent.name)
@SETTINGS
@given(data=st.data())
def test_a_damaged_native_file_is_read_or_refused(tmp_path: Path, path: Path, data):
    damaged_file = tmp_path / path.name
    damaged_file.write_text(damaged(path.read_text(), data))
    read_or_refuse(str(damaged_file))


@SETTINGS
@given(data=st.data())
def test_a_damaged_url_is_read_or_refused(data):
    read_or_refuse(damaged(data.draw(st.sampled_from(URLS)), data))


@SETTINGS
@given(data=st.data(), value=st.sampled_from([None, 0, -1, "", "x", "99", [], [[]], True, {"a": 1}]))
def test_a_damaged_janko_record_is_read_or_refused(tmp_path: Path, data, value):
    record = {"file": "/Nurikabe/001.a.x-janko",
              "data": {"rows": 3, "cols": 3, "problem": [["1", "-", "-"], ["-", "-", "-"], ["-", "-", "2"]]}}
    where = data.draw(st.sampled_from(["rows", "cols", "problem", "cell", "row"]))
    if where == "cell":
        record["data"]["problem"][data.draw(st.integers(0, 2))][data.draw(st.integers(0, 2))] = value
    elif where == "row":
        record["data"]["problem"][data.draw(st.integers(0, 2))] = value
    else:
        record["data"][where] = value
    text = json.dumps(record)
    if data.draw(st.booleans()):
        text = damaged(text, data)
    path = tmp_path / "nurikabe.jsonl"
    path.write_text(text + "\n")
    read_or_refuse(f"{path}#1")
