"""Store: round trip, export, load, corrupt or newer files, concurrent writers."""
import sqlite3
import subprocess
import sys

import pandas as pd
import pytest

import toybench as tb
from claimbench.runner import execute_plan, plan, select_cells
from claimbench.store import SCHEMA_VERSION, Store, StoreError


def _fill(store):
    planned = plan(store, {"toy": tb}, select_cells(tb.BENCH, "quick"), False)
    execute_plan(store, {"toy": tb.BENCH}, planned, command="test")
    return planned


def test_round_trip_and_provenance(store):
    planned = _fill(store)
    rows = store.rows("toy")
    assert len(rows) == len(planned) == 8
    r = next(r for r in rows if r["method"] == "mean" and r["dataset"] == "noise[n=40]")
    assert r["dataset_params"] == {"n": 40} and r["method_params"] == {}
    assert r["metrics"] == {"abs_error": pytest.approx(0.0, abs=1e-12), "n": 40.0}
    assert isinstance(r["traces"]["err"]["y"], list) and r["external"] is False
    (run,) = store.runs()
    prov = run["provenance"]
    for key in ("git_commit", "git_dirty", "claimbench", "python", "packages", "platform", "cpu"):
        assert key in prov
    assert prov["packages"]["numpy"]
    assert {r["run_id"] for r in rows} == {run["run_id"]}


def test_dataframe_and_load(tmp_path, monkeypatch):
    path = tmp_path / "s.sqlite"
    with Store(path) as st:
        _fill(st)
    monkeypatch.setenv("CLAIMBENCH_STORE", str(path))
    import claimbench

    df = claimbench.load("toy")
    assert isinstance(df, pd.DataFrame) and len(df) == 8
    assert {"metric:abs_error", "metric:n", "method", "dataset", "rep", "status"} <= set(df.columns)


def test_export_csv_and_parquet(tmp_path):
    from claimbench.cli import main

    path = tmp_path / "s.sqlite"
    with Store(path) as st:
        _fill(st)
    for fmt in ("csv", "parquet"):
        out = tmp_path / f"x.{fmt}"
        assert main(["export", "--format", fmt, "--store", str(path), "-o", str(out)]) == 0
        df = pd.read_csv(out) if fmt == "csv" else pd.read_parquet(out)
        assert len(df) == 8 and "metric:abs_error" in df.columns


def test_corrupt_file_is_refused_and_left_untouched(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    before = bad.read_bytes()
    with pytest.raises(StoreError, match="not an SQLite file"):
        Store(bad)
    assert bad.read_bytes() == before


def test_foreign_sqlite_is_refused(tmp_path):
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE x (a)")
    con.commit()
    con.close()
    before = other.read_bytes()
    with pytest.raises(StoreError, match="not a claimbench store"):
        Store(other)
    assert other.read_bytes() == before


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.sqlite"
    with Store(path):
        pass
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer"):
        Store(path)
    assert path.read_bytes() == before


def test_readonly_missing_store_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="no results store"):
        Store(tmp_path / "none.sqlite", readonly=True)


WRITER = """
import sys
sys.path.insert(0, {tests!r})
import toybench as tb
from claimbench.api import cfg, sweep
from claimbench.store import Store
from claimbench.runner import select_cells, plan, execute_plan
bench = tb.make_bench(methods=(cfg(tb.Noop),), datasets=sweep(tb.Noise, n=list(range(1, 31))), seeds=2)
with Store({store!r}) as st:
    planned = plan(st, {{"toy": tb}}, select_cells(bench, "quick"), {force})
    execute_plan(st, {{"toy": bench}}, planned, jobs=1)
"""


def test_two_writers_lose_and_duplicate_nothing(tmp_path):
    path = tmp_path / "shared.sqlite"
    procs = []
    for i in range(2):
        script = tmp_path / f"w{i}.py"
        script.write_text(WRITER.format(tests=str(__import__("pathlib").Path(__file__).parent),
                                        store=str(path), force=True))
        procs.append(subprocess.Popen([sys.executable, str(script)]))
    assert all(p.wait(timeout=120) == 0 for p in procs)
    with Store(path) as st:
        rows = st.rows("toy")
        runs = st.runs()
    assert len(rows) == 60 and len({r["identity"] for r in rows}) == 60
    assert len(runs) == 2


def test_old_schema_migrates_forward(tmp_path, monkeypatch):
    import claimbench.store as store_mod

    path = tmp_path / "old.sqlite"
    with Store(path) as st:
        _fill(st)
    monkeypatch.setattr(store_mod, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(store_mod, "MIGRATIONS",
                        {SCHEMA_VERSION: ["ALTER TABLE cells ADD COLUMN reviewed INTEGER DEFAULT 0"]})
    with Store(path) as st:
        assert len(st.rows("toy")) == 8 and all(r["reviewed"] == 0 for r in st.rows("toy"))
        assert st.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_grid_rows_drop_stale_declarations_and_keep_grids_apart(store):
    """A method re-declared under the same label leaves its old rows in the store; claims and
    reports judge only the rows of configs a grid declares now, and two grids that reuse a
    label with other parameters (a small smoke model) are never pooled."""
    import dataclasses

    from claimbench.api import Grid, cfg
    from claimbench.grid import grid_rows

    old = tb.make_bench(methods=(cfg(tb.MeanEstimator, label="est", bias=0.5),))
    planned = plan(store, {"toy": tb}, select_cells(old, "quick"), False)
    execute_plan(store, {"toy": old}, planned)
    quick = Grid(datasets=old.grids["quick"].datasets, seeds=2,
                 methods=(cfg(tb.MeanEstimator, label="est", bias=0.0),))
    smoke = Grid(datasets=old.grids["quick"].datasets[:1], seeds=1,
                 methods=(cfg(tb.MeanEstimator, label="est", bias=0.25),))
    new = dataclasses.replace(old, grids={"smoke": smoke, "quick": quick, "full": quick})
    for g in ("quick", "smoke"):
        execute_plan(store, {"toy": new}, plan(store, {"toy": tb}, select_cells(new, g), False))
    rows = store.rows("toy")
    assert len(rows) == 4 + 4 + 1  # stale + quick + smoke, all labelled "est"
    name, quick_rows = grid_rows(new, rows)
    assert name == "full" and len(quick_rows) == 4  # full declares quick's configs: a tie goes up
    assert {r["method_params"]["bias"] for r in quick_rows} == {0.0}
    name, smoke_rows = grid_rows(new, rows, "smoke")
    assert [r["method_params"]["bias"] for r in smoke_rows] == [0.25]
