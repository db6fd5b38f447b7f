"""Executing one cell: build the instance, run the method, score it, measure it.

Runs inside a worker process (or inline). Never raises for a method's fault:
every outcome becomes a result dict with a status.
"""
from __future__ import annotations

import math
import os
import time
import traceback
from collections import OrderedDict

from .api import Benchmark
from .grid import Cell
from .models import ModelError
from .tools import missing_tool_in

MAX_TRACE_POINTS = 200
# model_error: a model or its server failed (timeout, HTTP error, malformed reply); unlike
# error (a property of the code) it is retried on the next run, like timeout and crashed.
# tool_missing: an external program the cell runs (Octave, ngspice, a cross compiler, qemu) is not
# installed (claimbench.tools.MissingTool); the message names the command that installs it, the
# result carries {"tool": {"command", "package"}} for the run's summary, and it is retried too.
STATUSES = ("ok", "not_applicable", "error", "invalid", "oom", "timeout", "crashed", "model_error",
            "tool_missing")

_instances: "OrderedDict[tuple, tuple]" = OrderedDict()


def limit_threads() -> None:
    """One BLAS/OpenMP/torch thread per worker: parallelism comes from the cells."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
    except ImportError:  # pragma: no cover
        pass


# glibc's malloc returns freed blocks above 128 kB to the kernel (munmap, heap trimming), and a
# cell that allocates and frees large arrays every step then faults in fresh zeroed pages each
# time: the quick suite spent ~105 of its ~4040 CPU-seconds in the kernel, on ~47 million page
# faults. A worker keeps freed memory for reuse instead (kde_kernel_linalg's quick grid: 175k ->
# 29k faults, 3.6 -> 0.4 s system time, every value equal). Allocation policy changes no result;
# a cell's peak_mem_mb (and its address space under --max-memory) now includes up to ~256 MB
# that earlier cells freed and the worker kept.
_MALLOPT = ((-3, 32 << 20),   # M_MMAP_THRESHOLD: glibc's largest (64-bit); below it, the heap
            (-1, 256 << 20),  # M_TRIM_THRESHOLD: keep up to 256 MB free at the heap's top
            (-2, 64 << 20))   # M_TOP_PAD: grow the heap 64 MB at a time


def keep_freed_memory() -> bool:
    """Tune this process's malloc (glibc only) to reuse freed memory rather than return it to
    the kernel; False where there is no glibc ``mallopt`` or it refuses a setting."""
    try:
        import ctypes

        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    return all(mallopt(param, value) == 1 for param, value in _MALLOPT)


_PROC_FDS: dict[int, tuple[int, int]] = {}  # pid -> (clear_refs, status), opened once a process


def _proc_fds() -> tuple[int, int] | None:
    """This process's /proc/self/clear_refs and status, kept open: opening them for every cell
    costs more than the rest of a cheap cell's measurement. Per pid, since a forked worker's
    /proc/self is not its parent's."""
    pid = os.getpid()
    fds = _PROC_FDS.get(pid)
    if fds is None:
        try:
            clear = os.open("/proc/self/clear_refs", os.O_WRONLY)
        except OSError:
            return None
        try:
            status = os.open("/proc/self/status", os.O_RDONLY)
        except OSError:
            os.close(clear)
            return None
        fds = _PROC_FDS[pid] = (clear, status)
    return fds


def _reset_peak_rss() -> bool:
    fds = _proc_fds()
    try:
        os.write(fds[0], b"5")  # resets VmHWM, the peak resident set size
        return True
    except (OSError, TypeError):
        return False


def _peak_rss_mb() -> float | None:
    fds = _proc_fds()
    try:
        text = os.pread(fds[1], 16384, 0)
        at = text.index(b"VmHWM:")
        return int(text[at + 6:text.index(b"\n", at)].split()[0]) / 1024.0
    except (OSError, TypeError, ValueError, IndexError):
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _instance(cell: Cell):
    key = (cell.slug, cell.dataset, cell.rep)
    hit = _instances.get(key)
    if hit is None:
        dataset = cell.dataset.build()
        hit = (dataset, dataset.make(cell.data_seed))
        _instances[key] = hit
        while len(_instances) > 2:
            _instances.popitem(last=False)
    return hit


def _downsample(seq, n: int = MAX_TRACE_POINTS) -> list:
    seq = list(seq)
    if len(seq) <= n:
        return seq
    step = (len(seq) - 1) / (n - 1)
    return [seq[round(i * step)] for i in range(n)]


def clean_traces(traces) -> dict:
    out = {}
    if not isinstance(traces, dict):
        return out
    for name, tr in traces.items():
        try:
            x = [float(v) for v in tr["x"]]
            y = [float(v) for v in tr["y"]]
        except (KeyError, TypeError, ValueError):
            continue
        keep = [(a, b) for a, b in zip(x, y) if math.isfinite(a) and math.isfinite(b)]
        if keep:
            xs, ys = zip(*keep)
            out[str(name)] = {"x": _downsample(xs), "y": _downsample(ys)}
            for label in ("xlabel", "ylabel"):
                if isinstance(tr.get(label), str):
                    out[str(name)][label] = tr[label][:80]
    return out


def check_metric(name: str, value) -> tuple[float | None, str | None]:
    if value is None:
        return None, None
    if isinstance(value, bool):
        return float(value), None
    try:
        import numbers

        if not isinstance(value, numbers.Real):
            raise TypeError
        v = float(value)
    except (TypeError, ValueError):
        return None, f"metric {name!r} returned {type(value).__name__}, expected a finite float"
    if not math.isfinite(v):
        return None, f"metric {name!r} returned {v}, expected a finite float (or None)"
    return v, None


def execute(bench: Benchmark, cell: Cell, keep_outputs: bool = False) -> dict:
    """Run one cell and return its result fields (status, metrics, traces, timings); with
    ``keep_outputs`` also the method's raw outputs (for tests; never stored)."""
    peak_ok = _reset_peak_rss()
    t0, c0 = time.perf_counter(), time.process_time()
    res: dict = {"status": "ok", "error": None, "metrics": {}, "traces": {}}
    try:
        method = cell.method.build()
        # decided on the dataset's configuration: a cell that does not apply makes no data
        reason = method.applies_to(cell.dataset.build())
        if reason:
            res.update(status="not_applicable", error=str(reason))
        else:
            _, inst = _instance(cell)
            out = method.run(inst.data, cell.method_seed)
            if keep_outputs:
                res["outputs"] = out
            if not isinstance(out, dict):
                res.update(status="invalid",
                           error=f"{cell.method.label}.run returned {type(out).__name__}, "
                                 f"expected a dict of outputs")
            else:
                errors = []
                for m in bench.metrics:
                    v, err = check_metric(m.name, m.fn(inst, out))
                    res["metrics"][m.name] = v
                    if err:
                        errors.append(err)
                traces = dict(out.get("traces") or {})
                for tm in bench.traces:
                    tr = tm.fn(inst, out)
                    if tr is not None:
                        traces[tm.name] = {"xlabel": tm.xlabel, "ylabel": tm.ylabel, **tr}
                res["traces"] = clean_traces(traces)
                if errors:
                    res.update(status="invalid", error="; ".join(errors))
    except MemoryError:
        res.update(status="oom", error="MemoryError: the cell exceeded the memory cap",
                   metrics={}, traces={})
    except ModelError as exc:
        res.update(status="model_error", error=f"ModelError: {exc}", metrics={}, traces={})
    except Exception as exc:  # a method's fault is a result, not a harness failure
        missing = missing_tool_in(exc)
        if missing is not None:
            res.update(status="tool_missing", error=f"MissingTool: {missing}", metrics={},
                       traces={}, tool={"command": missing.command, "package": missing.package})
        else:
            res.update(status="error", error=traceback.format_exc(limit=20), metrics={},
                       traces={})
    res["wall_s"] = time.perf_counter() - t0
    res["cpu_s"] = time.process_time() - c0
    res["peak_mem_mb"] = _peak_rss_mb() if peak_ok else None
    return res
