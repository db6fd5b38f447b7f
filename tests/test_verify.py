"""The committed cells and ``claimbench verify`` (issue 27): cells written under reports/ load
into a store that judges exactly as the original; a re-run of a sample finds an altered committed
value (drift, exit 1) and nothing when nothing was altered (exit 0)."""
import json
import time

import pandas as pd
import pytest

from claimbench import registry
from claimbench.cli import main
from claimbench.committed import build_store, write_committed
from claimbench.runner import execute_plan, plan, select_cells
from claimbench.store import Store

SLUG = "ideal_attribution"  # a small smoke grid of deterministic metrics (no clock readings)


@pytest.fixture(scope="module")
def committed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("committed")
    bench = registry.benchmark(SLUG)
    with Store(folder / "run.sqlite") as store:
        cells = select_cells(bench, "smoke")
        execute_plan(store, {SLUG: bench}, plan(store, {SLUG: registry.module_of(SLUG)}, cells,
                                                 False), jobs=1)
        write_committed(store, folder, grid="smoke")
        original = store.rows(SLUG)
    return folder, original


def test_committed_cells_load_into_a_store_that_judges_the_same(committed, tmp_path):
    from claimbench.claims import evaluate_benchmark

    folder, original = committed
    path = build_store(folder / "cells.parquet", folder / "runs.json", tmp_path / "c.sqlite")
    with Store(path, readonly=True) as store:
        rows = store.rows(SLUG)
        runs = store.runs()
    assert sorted(r["identity"] for r in rows) == sorted(r["identity"] for r in original)
    assert runs and runs[0]["provenance"].get("git_commit") is not None
    bench = registry.benchmark(SLUG)
    a = [(r.claim, r.verdict, r.ours) for r in evaluate_benchmark(bench, original, grid="smoke")]
    b = [(r.claim, r.verdict, r.ours) for r in evaluate_benchmark(bench, rows, grid="smoke")]
    assert a == b
    # built once: the second call reuses the store
    mtime = path.stat().st_mtime_ns
    assert build_store(folder / "cells.parquet", folder / "runs.json", path) == path
    assert path.stat().st_mtime_ns == mtime


def _verify(folder, capsys, *extra):
    code = main(["verify", SLUG, "--grid", "smoke", "--sample", "14", "--committed",
                 str(folder / "cells.parquet"), *extra])
    return code, capsys.readouterr().out


def test_verify_finds_nothing_when_nothing_changed(committed, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out = _verify(committed[0], capsys)
    assert code == 0, out
    assert "0 metric values drift" in out and "everything reproduced" in out


def _altered(folder, tmp_path, change):
    """A copy of the committed cells with ``change`` applied to the first value of one metric;
    returns (folder of the copy, the metric's name)."""
    altered = tmp_path / "altered"
    altered.mkdir()
    df = pd.read_parquet(folder / "cells.parquet")
    col = next(c for c in df.columns if c.startswith("metric:") and df[c].notna().any())
    i = df[col].first_valid_index()
    df.loc[i, col] = change(df.loc[i, col])
    df.to_parquet(altered / "cells.parquet", index=False)
    (altered / "runs.json").write_text((folder / "runs.json").read_text())
    return altered, col.split(":", 1)[1]


def test_verify_finds_an_altered_committed_value(committed, capsys, monkeypatch, tmp_path):
    folder, _ = committed
    altered, name = _altered(folder, tmp_path, lambda v: v + 1.0)
    monkeypatch.chdir(tmp_path)
    code, out = _verify(altered, capsys)
    assert code == 1
    assert f"{name} committed" in out and "1 metric values drift" in out
    json.loads((altered / "runs.json").read_text())  # untouched


def test_a_moved_verdict_is_recorded_as_fragile_until_the_design_changes(tmp_path):
    import dataclasses

    from claimbench.verify import Drift, fragile_claims, record_fragile

    bench = registry.benchmark(SLUG)
    claim = bench.claims[0]
    path = tmp_path / "fragile.json"
    record_fragile([Drift(SLUG, 3, moved=[(claim.id, "reproduced", "inconclusive")])],
                   {SLUG: bench}, path)
    note = fragile_claims(bench, path)[claim.id]
    assert "reproduced in the committed run, inconclusive on a re-run" in note
    more_seeds = {g: dataclasses.replace(bench.grids[g], seeds=bench.grids[g].seeds + 1)
                  for g in bench.grids}
    assert fragile_claims(dataclasses.replace(bench, grids=more_seeds), path) == {}


def test_a_fragile_mark_outlives_faster_code_but_not_a_redesign(tmp_path):
    """Amendments under the issue-27 faster-code rule keep every non-timing value, so they
    cannot make a verdict robust: the mark stays; any other later amendment ends it."""
    import dataclasses

    from claimbench.api import Amendment
    from claimbench.verify import FASTER_CODE_RULE, Drift, fragile_claims, record_fragile

    bench = registry.benchmark(SLUG)
    claim = bench.claims[0]
    path = tmp_path / "fragile.json"
    record_fragile([Drift(SLUG, 3, moved=[(claim.id, "reproduced", "inconclusive")])],
                   {SLUG: bench}, path)
    changed = {g: dataclasses.replace(bench.grids[g], seeds=bench.grids[g].seeds + 1)
               for g in bench.grids}  # any design change: the hash no longer matches

    def amended(rule: str, date: str = time.strftime("%Y-%m-%d")):  # the record's own day
        extra = Amendment(date=date, claims=(claim.id,), what="w", why="y", results_seen=True,
                          rule=rule)
        return dataclasses.replace(bench, grids=changed, amendments=bench.amendments + (extra,))

    faster = fragile_claims(amended(FASTER_CODE_RULE + ", same experiment"), path)
    assert "its code made faster since" in faster[claim.id]
    assert fragile_claims(amended(""), path) == {}  # a redesign may have fixed it
    # a record made before counts were kept falls back on dates: an amendment of an earlier
    # day preceded it, so it cannot be what changed the design since
    data = json.loads(path.read_text())
    del data[SLUG][claim.id]["amendments"]
    path.write_text(json.dumps(data))
    assert fragile_claims(amended(FASTER_CODE_RULE, date="2000-01-01"), path) == {}
    assert fragile_claims(amended(FASTER_CODE_RULE, date="9999-12-31"), path)[claim.id]


def test_verify_from_a_store_compares_its_cells_without_running(committed, capsys, monkeypatch,
                                                                  tmp_path):
    """--from-store: a whole fresh run is the re-run; an altered fresh value is drift, the
    committed run's own store reproduces itself."""
    import shutil

    folder, _ = committed
    monkeypatch.chdir(tmp_path)
    code, out = _verify(folder, capsys, "--from-store", str(folder / "run.sqlite"))
    assert code == 0, out
    assert "0 metric values drift" in out
    fresh = tmp_path / "fresh.sqlite"
    shutil.copy(folder / "run.sqlite", fresh)
    import sqlite3

    with sqlite3.connect(fresh) as con:
        ident, metrics = con.execute("select identity, metrics from cells where status='ok' "
                                     "order by identity limit 1").fetchone()
        m = json.loads(metrics)
        name = next(k for k, v in m.items() if isinstance(v, (int, float)))
        m[name] += 1.0
        con.execute("update cells set metrics=? where identity=?", (json.dumps(m), ident))
    code, out = _verify(folder, capsys, "--from-store", str(fresh))
    assert code == 1 and "1 metric values drift" in out


def test_a_clock_reading_beyond_its_tolerance_is_counted_apart(committed, capsys, monkeypatch,
                                                               tmp_path):
    import dataclasses

    from claimbench import cli

    folder, _ = committed
    altered, name = _altered(folder, tmp_path, lambda v: v * 10 + 1.0)
    real = cli._bench
    monkeypatch.setattr(cli, "_bench", lambda s: dataclasses.replace(
        real(s), nondeterministic={name: 0.5}))
    monkeypatch.chdir(tmp_path)
    code, out = _verify(altered, capsys)
    assert code == 1
    assert "0 metric values drift, 1 clock readings beyond their tolerance" in out
    assert f"clock {name} committed" in out
