"""Determinism across runs and executors: inline (serial), the local process pool, and a real
Dask LocalCluster with 2 worker processes give the same rows, bit for bit in the metrics."""
import os
from pathlib import Path

import pytest

import toybench as tb
from claimbench.api import cfg, sweep
from claimbench.runner import execute_plan, plan, select_cells
from claimbench.store import Store

BENCH = tb.make_bench(methods=(cfg(tb.MeanEstimator), cfg(tb.Noop), cfg(tb.MeanEstimator, bias=0.5),
                               cfg(tb.Misbehave, how="raise"), cfg(tb.Misbehave, how="abort")),
                      datasets=sweep(tb.Noise, n=[5, 50, 500]), seeds=3)


def _rows(tmp_path, executor, jobs=2, timeout=None):
    with Store(tmp_path / f"{executor}.sqlite") as st:
        planned = plan(st, {"toy": tb}, select_cells(BENCH, "quick"), False)
        s = execute_plan(st, {"toy": BENCH}, planned, jobs=jobs, executor=executor, timeout=timeout)
        assert s.executed == len(planned) == 45
        return {r["identity"]: (r["status"], r["metrics"], r["data_seed"], r["method_seed"],
                                r["traces"]) for r in st.rows("toy")}


def test_same_seed_same_metrics_across_runs(tmp_path):
    a = _rows(tmp_path / "a", "local")
    b = _rows(tmp_path / "b", "local", jobs=1)
    assert a == b


@pytest.fixture
def dask_env(monkeypatch):
    pytest.importorskip("distributed")
    # Dask's worker processes unpickle the toy benchmark by reference: they must find tests/.
    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", here + os.pathsep + os.environ.get("PYTHONPATH", ""))


def test_dask_local_cluster_matches_serial_and_pool(tmp_path, dask_env):
    pool = _rows(tmp_path / "p", "local")
    dask = _rows(tmp_path / "d", "dask", timeout=30)
    assert dask == pool
    crashed = [v for v in dask.values() if v[0] == "crashed"]
    assert len(crashed) == 9  # os.abort() inside a Dask task is isolated too


def test_inline_matches_pool_on_well_behaved_methods(tmp_path):
    bench = tb.make_bench(methods=(cfg(tb.MeanEstimator), cfg(tb.Noop), cfg(tb.Misbehave, how="raise")),
                          datasets=sweep(tb.Noise, n=[5, 50]), seeds=3)
    out = {}
    for ex in ("inline", "local"):
        with Store(tmp_path / f"{ex}.sqlite") as st:
            planned = plan(st, {"toy": tb}, select_cells(bench, "quick"), False)
            execute_plan(st, {"toy": bench}, planned, jobs=2, executor=ex)
            out[ex] = {r["identity"]: (r["status"], r["metrics"]) for r in st.rows("toy")}
    assert out["inline"] == out["local"]
