"""Runner: cache hits, re-runs after a source change, --force, timeouts, crashes, resume."""
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import toybench as tb
from claimbench.api import cfg
from claimbench.grid import derive_seed, expand
from claimbench.runner import execute_plan, load_external, plan, select_cells

MODS = {"toy": tb}


def _run(store, bench, cells=None, force=False, **kw):
    cells = cells if cells is not None else select_cells(bench, "quick")
    planned = plan(store, MODS, cells, force)
    return planned, execute_plan(store, {bench.slug: bench}, planned, **kw)


def test_seeds_are_stable_hashes_shared_across_methods():
    cells = expand(tb.BENCH, "quick")
    by_data = {}
    for c in cells:
        by_data.setdefault((c.dataset, c.rep), set()).add(c.data_seed)
    assert all(len(s) == 1 for s in by_data.values())  # every method sees the same instance
    assert len({next(iter(s)) for s in by_data.values()}) == len(by_data)
    # A fixed value: Python's salted hash() would change between interpreter runs.
    assert derive_seed("toy", 1) == derive_seed("toy", 1)
    out = subprocess.run([sys.executable, "-c", "from claimbench.grid import derive_seed;"
                          "print(derive_seed('toy', 1))"], capture_output=True, text=True)
    assert int(out.stdout) == derive_seed("toy", 1)


def test_second_run_is_fully_cached(store):
    _, first = _run(store, tb.BENCH)
    assert first.executed == first.total == 8 and first.cached == 0
    planned, second = _run(store, tb.BENCH)
    assert second.executed == 0 and second.cached == 8
    assert all(p.reason.startswith("cached") for p in planned)
    assert len(store.rows("toy")) == 8


def test_force_reruns_everything(store):
    _run(store, tb.BENCH)
    planned, summary = _run(store, tb.BENCH, force=True)
    assert summary.executed == 8 and all("forced" in p.reason for p in planned)
    assert len(store.rows("toy")) == 8  # replaced, never duplicated


def test_source_change_reruns_only_cells_that_use_the_file(store, tmp_path):
    src = tmp_path / "mymethod.py"
    src.write_text(textwrap.dedent("""
        from dataclasses import dataclass
        from claimbench.api import Method

        @dataclass
        class Half(Method):
            name = "half"
            def run(self, data, seed):
                return {"estimate": float(data.mean()) / 2}
    """))
    ref = f"{src}:Half"
    cells = select_cells(tb.BENCH, "quick", methods=[ref])
    assert sum(c.external for c in cells) == 4 and len(cells) == 12
    _run(store, tb.BENCH, cells)
    src.write_text(src.read_text().replace("/ 2", "/ 3"))
    os.utime(src, ns=(time.time_ns(), time.time_ns() + 10**9))
    planned = plan(store, MODS, cells, False)
    rerun = [p for p in planned if p.run]
    assert len(rerun) == 4 and all(p.cell.external for p in rerun)
    assert all("source changed: " in p.reason and "mymethod.py" in p.reason for p in rerun)


def test_external_method_rows_are_marked(store, tmp_path):
    src = tmp_path / "ext.py"
    src.write_text("from dataclasses import dataclass\nfrom claimbench.api import Method\n"
                   "@dataclass\nclass Zero(Method):\n    def run(self, data, seed):\n"
                   "        return {'estimate': 0.0}\n")
    cells = select_cells(tb.BENCH, "quick", methods=[f"{src}:Zero"])
    _run(store, tb.BENCH, cells, jobs=2)
    ext = [r for r in store.rows("toy") if r["external"]]
    assert len(ext) == 4 and all(r["status"] == "ok" and r["method"] == "Zero (external)"
                                 for r in ext)
    # Same instances as the paper's methods: the data seeds match.
    seeds = {(r["dataset"], r["rep"]): r["data_seed"] for r in store.rows("toy") if not r["external"]}
    assert all(seeds[(r["dataset"], r["rep"])] == r["data_seed"] for r in ext)


def test_timeout_kills_the_worker_and_the_run_goes_on(store):
    bench = tb.make_bench(methods=(cfg(tb.Misbehave, how="hang"), cfg(tb.MeanEstimator)))
    t0 = time.monotonic()
    _, summary = _run(store, bench, timeout=0.5, jobs=1)
    elapsed = time.monotonic() - t0
    rows = store.rows("toy")
    hung = [r for r in rows if r["method"].startswith("misbehave")]
    assert {r["status"] for r in hung} == {"timeout"} and len(hung) == 4
    assert all(0.5 <= r["wall_s"] < 2.5 for r in hung)  # killed within 2 s of the timeout
    assert {r["status"] for r in rows if r["method"] == "mean"} == {"ok"}
    assert elapsed < 4 * 2.5 + 3


@pytest.mark.parametrize("how,status,needle", [
    ("raise", "error", "deliberate failure"),
    ("abort", "crashed", "SIGABRT"),
    ("nan", "invalid", "'abs_error'"),
    ("inf", "invalid", "'abs_error'"),
    ("wrongtype", "invalid", "'abs_error' returned str"),
    ("notdict", "invalid", "expected a dict"),
])
def test_failures_are_rows_and_the_rest_still_runs(store, how, status, needle):
    bench = tb.make_bench(methods=(cfg(tb.Misbehave, how=how), cfg(tb.MeanEstimator)))
    _run(store, bench, jobs=2)
    rows = store.rows("toy")
    bad = [r for r in rows if r["method"].startswith("misbehave")]
    assert len(bad) == 4 and {r["status"] for r in bad} == {status}
    assert all(needle in r["error"] for r in bad)
    assert {r["status"] for r in rows if r["method"] == "mean"} == {"ok"}


def test_memory_cap_gives_oom(store):
    bench = tb.make_bench(methods=(cfg(tb.Misbehave, how="alloc", mb=16), cfg(tb.MeanEstimator)))
    _run(store, bench, jobs=1, max_memory_mb=600)
    rows = store.rows("toy")
    assert {r["status"] for r in rows if r["method"].startswith("misbehave")} == {"oom"}
    assert {r["status"] for r in rows if r["method"] == "mean"} == {"ok"}


def test_records_timings_memory_and_traces(store):
    _run(store, tb.BENCH)
    r = [r for r in store.rows("toy") if r["method"] == "mean"][0]
    assert r["wall_s"] > 0 and r["cpu_s"] >= 0 and r["peak_mem_mb"] > 1
    assert r["traces"]["err"] == {"x": [1.0, 2.0, 3.0], "y": [1.0, 0.5, 0.25]}
    assert r["metrics"]["abs_error"] == pytest.approx(0.0, abs=1e-12)


RESUME_SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
import toybench as tb
from claimbench.api import cfg
from claimbench.store import Store
from claimbench.runner import select_cells, plan, execute_plan
bench = tb.make_bench(methods=(cfg(tb.MeanEstimator, sleep_s=0.15),), seeds=5)
with Store({store!r}) as st:
    planned = plan(st, {{"toy": tb}}, select_cells(bench, "quick"), False)
    s = execute_plan(st, {{"toy": bench}}, planned, jobs=1)
    print(s.executed, s.cached)
"""


def test_killed_runner_resumes_without_loss_or_duplicates(tmp_path):
    store_path = tmp_path / "s.sqlite"
    script = tmp_path / "go.py"
    script.write_text(RESUME_SCRIPT.format(tests=str(Path(__file__).parent), store=str(store_path)))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                            start_new_session=True)
    time.sleep(1.5)  # part of the 10 cells (0.15 s each) are done
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    from claimbench.store import Store

    with Store(store_path) as st:
        done = {r["identity"] for r in st.rows("toy")}
    assert 0 < len(done) < 10
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    executed, cached = map(int, out.stdout.split())
    assert cached == len(done) and executed == 10 - len(done)
    with Store(store_path) as st:
        rows = st.rows("toy")
    assert len(rows) == 10 and len({r["identity"] for r in rows}) == 10
    assert {r["status"] for r in rows} == {"ok"}


def test_external_method_errors_are_clear(tmp_path):
    from claimbench.runner import UserError

    with pytest.raises(UserError, match="does not exist"):
        load_external(str(tmp_path / "nope.py") + ":X")
    f = tmp_path / "m.py"
    f.write_text("class Solver: pass\n")
    with pytest.raises(UserError, match="did you mean Solver"):
        load_external(f"{f}:Solvr")
    with pytest.raises(UserError, match="must subclass"):
        load_external(f"{f}:Solver")


def test_metric_side_traces_see_the_truth(store):
    import dataclasses

    from claimbench.api import TraceMetric

    def err_trace(inst, out):
        return {"x": [0, 1], "y": [abs(inst.truth), abs(out["estimate"] - inst.truth)]}

    bench = dataclasses.replace(tb.BENCH, traces=(TraceMetric("err_vs_step", err_trace, "step"),))
    _run(store, bench)
    r = next(r for r in store.rows("toy") if r["method"] == "noop")
    tr = r["traces"]["err_vs_step"]
    assert tr["xlabel"] == "step" and tr["x"] == [0.0, 1.0] and tr["y"][0] == tr["y"][1] > 0


def test_pool_starts_a_benchmark_no_other_worker_is_running():
    from claimbench.pool import _Pending

    slugs = ["a", "a", "a", "b", "b", "c"]
    p = _Pending(range(len(slugs)), lambda i: slugs[i])
    assert p.pop() == 0  # plan order first
    assert p.pop(avoid={"a"}) == 3  # the other worker runs a: start b
    assert p.pop(avoid={"a", "b"}) == 5
    assert p.pop(avoid={"a", "b", "c"}) == 1  # nothing else left: share a benchmark
    assert [p.pop(avoid={"b"}) for _ in range(len(p))] == [2, 4]
    assert len(p) == 0


def test_many_benchmarks_run_heaviest_first(tmp_path):
    from claimbench.committed import heaviest_first

    cost = tmp_path / "cost.json"
    cost.write_text('{"a": 1.0, "b": 30.5, "c": 2.0}')
    assert heaviest_first(["a", "b", "c", "new"], cost) == ["new", "b", "c", "a"]
    assert heaviest_first(["a", "b"], tmp_path / "absent.json") == ["a", "b"]


def test_a_cell_that_does_not_apply_makes_no_data():
    from claimbench.api import cfg as config
    from claimbench.worker import execute

    made = []

    class Counted(tb.Noise):
        def make(self, seed):
            made.append(seed)
            return super().make(seed)

    class Picky(tb.MeanEstimator):
        def applies_to(self, dataset):
            return "only n=40" if dataset.n != 40 else None

    bench = tb.make_bench(datasets=(config(Counted, n=10),), methods=(config(Picky),), seeds=1)
    (cell,) = select_cells(bench, "quick")
    assert execute(bench, cell)["status"] == "not_applicable"
    assert made == []


def test_pool_hands_a_free_worker_the_benchmarks_others_are_running(store, monkeypatch):
    from claimbench import pool

    seen = []
    real = pool._Pending.pop

    def pop(self, avoid=frozenset()):
        seen.append(set(avoid))
        return real(self, avoid)

    monkeypatch.setattr(pool._Pending, "pop", pop)
    a, b = tb.make_bench("toy_a"), tb.make_bench("toy_b")
    cells = select_cells(a, "quick") + select_cells(b, "quick")
    planned = plan(store, {"toy_a": tb, "toy_b": tb}, cells, False)
    execute_plan(store, {"toy_a": a, "toy_b": b}, planned, jobs=2)
    assert seen[0] == set() and {"toy_a"} in seen  # the second worker is told what the first runs
    assert len(seen) == len(cells)


def test_inline_cells_run_with_one_thread_like_a_worker(monkeypatch):
    """--executor inline used the caller's BLAS/OpenMP threads while workers used one, so an
    inline profile spun two threads and could differ from the pool in the last bits."""
    import threadpoolctl

    from claimbench import pool

    seen = []
    monkeypatch.setattr(pool, "execute",
                        lambda bench, cell: seen.append(max((i["num_threads"] for i in
                                                             threadpoolctl.threadpool_info()),
                                                            default=1)) or {})
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, "2")  # restored by monkeypatch after the test
    with threadpoolctl.threadpool_limits(2):
        list(pool.run_pool([type("C", (), {"slug": "x"})()], {"x": None}, [0], jobs=1,
                           timeout=None, max_memory_mb=None, inline=True))
    assert seen == [1]


def _churn_faults() -> int:
    """Page faults of five 2 MB buffers alive together, freed and made again 100 times (after
    one warm-up round)."""
    import resource

    import numpy as np

    bufs = [np.ones(1 << 18) for _ in range(5)]
    del bufs
    f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(100):
        bufs = [np.ones(1 << 18) for _ in range(5)]
        del bufs
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0


def test_workers_reuse_freed_memory_instead_of_faulting_it_in_again(monkeypatch):
    """A pool worker tunes malloc (claimbench.worker.keep_freed_memory): the buffers are
    faulted in once, not 100 times (glibc's default, measured in a fresh interpreter, trims the
    heap's free top above twice the largest freed buffer, then faults the pages in again)."""
    from claimbench import pool

    code = ("import sys; sys.path.insert(0, sys.argv[2]); from test_runner import _churn_faults\n"
            "from claimbench.worker import keep_freed_memory\n"
            "if sys.argv[1] == 'tuned': assert keep_freed_memory()\n"
            "print(_churn_faults())\n")
    here = str(Path(__file__).parent)
    faults = {mode: int(subprocess.run([sys.executable, "-c", code, mode, here], check=True,
                                       capture_output=True, text=True).stdout)
              for mode in ("default", "tuned")}
    # the same churn inside a real pool worker (forked, nothing pickled but the result)
    monkeypatch.setattr(pool, "execute", lambda bench, cell: {"faults": _churn_faults()})
    [(_, res)] = pool.run_pool([type("C", (), {"slug": "x"})()], {"x": None}, [0], jobs=1,
                               timeout=None, max_memory_mb=None)
    faults["worker"] = res["faults"]
    assert faults["default"] > 100 * 1000, faults  # 2560 pages a round, faulted in each time
    assert faults["tuned"] < 5000, faults
    assert faults["worker"] < 5000, faults
