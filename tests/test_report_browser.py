"""The HTML report in a real browser: Debian's chromium, headless, offline, a fresh profile.
Skips when chromium is not installed (.ci/run installs it)."""
from __future__ import annotations

import shutil
import struct
import subprocess

import pytest

from grader.app.report import puzzle_report

from support import CORPUS

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser")) if p), None)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


def chromium(tmp_path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_html_report_renders_in_headless_chromium(tmp_path):
    page = tmp_path / "report.html"
    page.write_text(puzzle_report(str(CORPUS / "akari" / "lightup-7x7b20s2d2-grader-1.yaml"), "html"))
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "ERROR:CONSOLE" not in dom.stderr and "Uncaught" not in dom.stderr
    # The parsed page holds every board, highlight and table the file has.
    assert dom.stdout.count("<svg") == page.read_text().count("<svg") == 58
    assert dom.stdout.count('class="hl-target"') >= 56 and dom.stdout.count("<table") >= 3
    shot = tmp_path / "report.png"
    run = chromium(tmp_path, "--window-size=1000,2400", "--hide-scrollbars", f"--screenshot={shot}",
                   page.as_uri())
    assert run.returncode == 0, run.stderr[-2000:]
    data = shot.read_bytes()
    assert png_size(data) == (1000, 2400) and len(data) > 50_000     # a page with content, not blank
