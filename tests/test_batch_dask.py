"""grader batch --scheduler: the same results and resume on a Dask cluster the test starts
(a LocalCluster on loopback)."""
from __future__ import annotations

import shutil

import pytest

from grader.app.cli import main
from grader.app.report.results import read_rows

from support import CORPUS

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def stable(rows):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_dask_gives_the_same_results_and_resumes(tmp_path, scheduler):
    folder = tmp_path / "puzzles"
    folder.mkdir()
    for f in sorted((CORPUS / "akari").glob("lightup-7x7*.yaml")):
        shutil.copy(f, folder / f.name)
    (folder / "junk.txt").write_text("not a puzzle\n")
    local, remote = tmp_path / "local.sqlite", tmp_path / "remote.sqlite"
    assert main(["batch", str(folder), "--db", str(local), "--no-progress"]) == 0
    # Part on this machine, the rest on the cluster: resume grades only what is missing.
    assert main(["batch", str(folder), "--db", str(remote), "--limit", "3", "--no-progress"]) == 0
    rest = tmp_path / "rest.jsonl"
    assert main(["batch", str(folder), "--db", str(remote), "--scheduler", scheduler,
                 "-o", str(rest), "--no-progress"]) == 0
    assert len(rest.read_text().splitlines()) == 7 - 3
    assert stable(read_rows(remote)) == stable(read_rows(local))
    assert [r["status"] for r in read_rows(remote)].count("error") == 1


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, capsys, monkeypatch):
    from grader.app import batch
    monkeypatch.setattr(batch, "CONNECT_SECONDS", 1)
    folder = tmp_path / "p"
    folder.mkdir()
    shutil.copy(sorted((CORPUS / "akari").glob("*.yaml"))[0], folder)
    assert main(["batch", str(folder), "--scheduler", "tcp://127.0.0.1:9", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the scheduler at tcp://127.0.0.1:9" in err and len(err.strip().splitlines()) == 1
