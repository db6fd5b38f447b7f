"""A process pool that can kill one overrunning cell without losing the others.

joblib/loky and concurrent.futures cannot end a single running task: a
timeout there means tearing the whole pool down. Here each worker is one
forked process on one pipe; the coordinator waits on all pipes, kills a worker
whose cell passes its deadline, records the timeout, and forks a replacement.
A worker that dies (os.abort, segfault, the OOM killer) is seen as EOF on its
pipe and recorded as ``crashed``; the run goes on.

What every worker would otherwise do after its fork (import numpy.random, which numpy loads on
first use; find the BLAS libraries to limit) is done once in the coordinator, and the
coordinator's objects are frozen out of the garbage collector while it forks, so that a
worker's start does not cost more as more benchmark modules are loaded.
"""
from __future__ import annotations

import gc
import multiprocessing as mp
import os
import signal
import time
from collections import deque
from multiprocessing.connection import wait
from typing import Iterator, Sequence

from .worker import execute, keep_freed_memory, limit_threads

_CTX = mp.get_context("fork")
# Set by the coordinator before forking; workers inherit them (nothing is pickled but indices).
_TASKS: Sequence = ()
_BENCHES: dict = {}


def _worker_main(conn, max_memory_mb: float | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    import faulthandler

    faulthandler.disable()  # a method's abort is recorded as `crashed`, not dumped to stderr
    limit_threads()
    keep_freed_memory()
    if max_memory_mb:
        import resource

        cap = int(max_memory_mb * 1024 * 1024)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    while True:
        try:
            idx = conn.recv()
        except (EOFError, KeyboardInterrupt):
            return
        if idx is None:
            return
        cell = _TASKS[idx]
        conn.send((idx, execute(_BENCHES[cell.slug], cell)))


_PREPARED = False


def _prepare_fork() -> None:
    """Once per coordinator process: what each worker would otherwise do for itself."""
    global _PREPARED
    if _PREPARED:
        return
    _PREPARED = True
    try:
        import numpy.random as npr  # ~15 ms of every worker's first cell otherwise

        # A worker that imported it itself had numpy's legacy global generator seeded afresh.
        os.register_at_fork(after_in_child=npr.seed)
    except ImportError:  # pragma: no cover
        pass
    try:
        from threadpoolctl import ThreadpoolController

        ThreadpoolController()  # the workers' threadpool_limits(1) then costs a third
    except ImportError:  # pragma: no cover
        pass


class _Worker:
    def __init__(self, max_memory_mb: float | None) -> None:
        _prepare_fork()
        parent, child = _CTX.Pipe()
        self.proc = _CTX.Process(target=_worker_main, args=(child, max_memory_mb), daemon=True)
        # The child's collector then never walks (and so never copies) the coordinator's
        # objects: a worker's start and its cells cost the same however many modules are loaded.
        gc.freeze()
        try:
            self.proc.start()
        finally:
            gc.unfreeze()
        child.close()
        self.conn = parent
        self.idx: int | None = None
        self.started = 0.0

    def kill(self) -> None:
        try:
            self.proc.kill()
        except (OSError, AttributeError):
            pass
        self.proc.join(5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(1)
        if self.proc.is_alive():
            self.kill()
        else:
            self.conn.close()


def _signal_text(exitcode: int | None) -> str:
    if exitcode is None:
        return "the worker vanished"
    if exitcode < 0:
        try:
            return f"the worker was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"the worker was killed by signal {-exitcode}"
    return f"the worker exited with code {exitcode}"


class _Pending:
    """The cells still to start, in plan order, grouped by benchmark.

    A free worker takes the next cell of the first benchmark that no other worker is running:
    cells of one benchmark share trained models and references (a checkpoint another worker is
    training is waited for on its lock), so two workers on one benchmark wait on each other, and
    the last quick-suite run spent about 30 of its 117 worker-minutes waiting so. Each cell's
    result does not depend on the order (cells are seeded and checkpoints content-hashed).
    """

    def __init__(self, indices: Sequence[int], key):
        self._groups: dict = {}
        for i in indices:
            self._groups.setdefault(key(i), deque()).append(i)
        self._n = len(indices)

    def __len__(self) -> int:
        return self._n

    def pop(self, avoid=frozenset()) -> int:
        slug = next((k for k in self._groups if k not in avoid), next(iter(self._groups)))
        group = self._groups[slug]
        idx = group.popleft()
        if not group:
            del self._groups[slug]
        self._n -= 1
        return idx


def run_pool(tasks: Sequence, benches: dict, indices: Sequence[int], jobs: int,
             timeout: float | None, max_memory_mb: float | None,
             inline: bool = False) -> Iterator[tuple[int, dict]]:
    """Yield (task index, result) as cells finish, in completion order."""
    global _TASKS, _BENCHES
    _TASKS, _BENCHES = tasks, benches
    if inline:
        # The same one-thread limit as a worker: an inline run must give the pool's values (a
        # BLAS or OpenMP reduction split over two threads can change the last bits) and must not
        # spin a second thread on a machine whose cores the cells already share.
        limit_threads()
        for idx in indices:
            yield idx, execute(benches[tasks[idx].slug], tasks[idx])
        return
    pending = _Pending(indices, lambda i: tasks[i].slug)
    workers = [_Worker(max_memory_mb) for _ in range(max(1, min(jobs, len(pending))))]
    try:
        while True:
            for w in workers:
                if w.idx is None and pending:
                    running = {tasks[x.idx].slug for x in workers if x.idx is not None}
                    w.idx = pending.pop(avoid=running)
                    w.started = time.monotonic()
                    w.conn.send(w.idx)
            busy = [w for w in workers if w.idx is not None]
            if not busy:
                return
            wait_for = None
            if timeout is not None:
                wait_for = max(0.0, min(w.started + timeout for w in busy) - time.monotonic())
            ready = wait([w.conn for w in busy], timeout=wait_for)
            now = time.monotonic()
            for i, w in enumerate(workers):
                if w.idx is None:
                    continue
                if w.conn in ready:
                    try:
                        idx, res = w.conn.recv()
                    except (EOFError, OSError):
                        w.proc.join(5)
                        idx, res = w.idx, _failure("crashed", _signal_text(w.proc.exitcode),
                                                   now - w.started)
                        w.conn.close()
                        workers[i] = _Worker(max_memory_mb)
                    else:
                        w.idx = None
                    yield idx, res
                elif timeout is not None and now - w.started >= timeout:
                    idx = w.idx
                    w.kill()
                    workers[i] = _Worker(max_memory_mb)
                    yield idx, _failure("timeout", f"killed after the {timeout:g} s timeout",
                                        now - w.started)
    finally:
        for w in workers:
            if w.idx is None:
                w.stop()
            else:
                w.kill()


def _failure(status: str, error: str, wall: float) -> dict:
    return {"status": status, "error": error, "metrics": {}, "traces": {}, "wall_s": wall,
            "cpu_s": None, "peak_mem_mb": None}
