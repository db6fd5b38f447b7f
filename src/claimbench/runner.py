"""Plan a run (which cells are cached, which run and why), execute it, write the store."""
from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import json
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable, Sequence

from .api import Benchmark, Config, Method
from .errors import UserError, suggest as _suggest
from .models import model_field, with_model
from .grid import Cell, expand, stable_hash, stable_json
from .provenance import ROOT, capture, cell_hash, file_hash

# A cell whose stored status is one of these is not re-run unless forced: they are
# properties of the code. timeout, crashed and oom depend on the machine and limits;
# model_error on a model server, tool_missing on the programs installed: all are retried.
CACHED_STATUSES = ("ok", "not_applicable", "error", "invalid")
CONTENT_PACKAGES = ("claimbench.methods", "claimbench.baselines", "claimbench.datasets",
                    "claimbench.benchmarks")


# -- source dependencies -------------------------------------------------------------------
def _module_deps(mod: ModuleType, seen: set[str]) -> None:
    path = getattr(mod, "__file__", None)
    if not path or path in seen:
        return
    seen.add(path)
    for value in vars(mod).values():
        if isinstance(value, ModuleType):
            sub = value
        else:
            sub = sys.modules.get(getattr(value, "__module__", "") or "")
        if sub is not None and sub.__name__.startswith(CONTENT_PACKAGES):
            _module_deps(sub, seen)


_DEPS: dict[str, list[str]] = {}


def source_files(obj: type | ModuleType) -> dict[str, str]:
    """Files (relative path -> content hash) that an object's module uses, transitively
    through the content packages. Changing any of them re-runs the cells that use it."""
    mod = obj if isinstance(obj, ModuleType) else sys.modules[obj.__module__]
    if mod.__name__ not in _DEPS:
        seen: set[str] = set()
        _module_deps(mod, seen)
        _DEPS[mod.__name__] = sorted(seen)
    out = {}
    for p in _DEPS[mod.__name__]:
        try:
            rel = str(Path(p).resolve().relative_to(ROOT))
        except ValueError:
            rel = str(Path(p).resolve())
        out[rel] = file_hash(p)  # cached on (path, mtime, size)
    return out


def cell_files(bench_module: ModuleType, cell: Cell) -> dict[str, str]:
    files = dict(source_files(bench_module))
    files.update(source_files(cell.dataset.cls))
    files.update(source_files(cell.method.cls))
    path = getattr(bench_module, "__file__", None)
    if path:  # the module's claims do not key its cells (provenance.cell_hash), also when a
        # method or dataset defined in it brings the module in again (set last, so its whole-
        # file hash does not replace this one)
        try:
            files[str(Path(path).resolve().relative_to(ROOT))] = cell_hash(path)
        except ValueError:
            pass
    return files


# -- external methods ------------------------------------------------------------------------
def load_external(ref: str) -> type:
    """Load ``path/to/file.py:ClassName`` as a Method class (registered in sys.modules so that
    forked workers and pickling find it)."""
    path_s, _, cls_name = ref.rpartition(":")
    path = Path(path_s)
    if not path_s or not cls_name:
        raise UserError(f"--method {ref!r}: expected a method name or path/to/file.py:ClassName")
    if not path.is_file():
        raise UserError(f"--method {ref!r}: file {path_s!r} does not exist")
    mod_name = "claimbench_external_" + stable_hash(str(path.resolve()), n=6)
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise UserError(f"--method {ref!r}: importing {path_s} failed: "
                        f"{type(exc).__name__}: {exc}") from exc
    cls = getattr(module, cls_name, None)
    if cls is None:
        names = [n for n, v in vars(module).items() if inspect.isclass(v)]
        raise UserError(f"--method {ref!r}: {path_s} has no class {cls_name!r}; "
                        f"{_suggest(cls_name, names) if names else 'it defines no class'}")
    if not (inspect.isclass(cls) and issubclass(cls, Method)):
        raise UserError(f"--method {ref!r}: {cls_name} must subclass claimbench.api.Method")
    if not getattr(cls, "name", ""):
        cls.name = cls_name
    return cls


# -- planning ----------------------------------------------------------------------------------
@dataclass
class Planned:
    cell: Cell
    run: bool
    reason: str
    files: dict[str, str] = field(default_factory=dict)
    source_hash: str = ""


def select_cells(bench: Benchmark, grid: str, *, methods: Sequence[str] = (),
                 datasets: Sequence[str] = (), seeds: int | None = None,
                 model: str | None = None) -> list[Cell]:
    """The cells of ``grid`` (optionally some methods, datasets, a seed count); ``model`` puts a
    model spec in every method that has a ``model`` field (see :mod:`claimbench.models`)."""
    bench = with_model(bench, model)
    g = bench.grids[grid]
    mcfgs = list(bench.method_configs(g))
    dcfgs = list(g.datasets)
    ext_cells: list[Cell] = []
    if datasets:
        names = {d for c in dcfgs for d in (c.label, c.cls.name)}
        for d in datasets:
            if d not in names:
                raise UserError(f"unknown dataset {d!r} for {bench.slug}: {_suggest(d, names)}")
        dcfgs = [c for c in dcfgs if c.label in datasets or c.cls.name in datasets]
    if methods:
        registered = [m for m in methods if ":" not in m]
        external = [m for m in methods if ":" in m]
        names = {n for c in mcfgs for n in (c.label, c.cls.name)}
        for m in registered:
            if m not in names:
                raise UserError(f"unknown method {m!r} for {bench.slug}: {_suggest(m, names)}")
        keep = [c for c in mcfgs if c.label in registered or c.cls.name in registered]
        for ref in external:
            cls = load_external(ref)
            params = {"model": model} if model and model_field(cls) is not None else {}
            ext_cfg = Config(cls, params, f"{cls.name} (external)")
            ext_cells += expand(bench, grid, seeds=seeds, methods=(ext_cfg,),
                                datasets=tuple(dcfgs), external=True, method_ref=ref)
        if external and not registered:
            keep = mcfgs  # an external method is ranked against the paper's method and baselines
        mcfgs = keep
    cells = expand(bench, grid, seeds=seeds, methods=tuple(mcfgs), datasets=tuple(dcfgs))
    return [with_model_identity(c) for c in cells + ext_cells]


def with_model_identity(cell: Cell) -> Cell:
    """``cell`` carrying its method's model identity (in its key and its stored row)."""
    from .models import ModelError, model_identity, spec_of

    spec = spec_of(cell.method)
    if spec is None:
        return cell
    try:
        ident = model_identity(spec)
    except ModelError as exc:
        raise UserError(f"{cell.slug} / {cell.method.label}: model {spec!r}: {exc}") from None
    return dataclasses.replace(cell, model=stable_json({"spec": spec, **ident}))


def plan(store, bench_modules: dict[str, ModuleType], cells: list[Cell], force: bool) -> list[Planned]:
    stored = store.lookup([c.identity for c in cells])
    out = []
    memo: dict[tuple, tuple[dict, str]] = {}
    for c in cells:
        mkey = (c.slug, c.dataset.cls, c.method.cls)
        if mkey not in memo:
            files = cell_files(bench_modules[c.slug], c)
            memo[mkey] = (files, stable_hash(files))
        files, src = memo[mkey]
        prev = stored.get(c.identity)
        if force:
            out.append(Planned(c, True, "forced (--force)", files, src))
        elif prev is None:
            out.append(Planned(c, True, "new: not in the store", files, src))
        elif prev[1] != src:
            old = json.loads(prev[2] or "{}")
            changed = sorted(f for f in set(files) | set(old) if files.get(f) != old.get(f))
            out.append(Planned(c, True, "source changed: " + ", ".join(changed), files, src))
        elif prev[0] not in CACHED_STATUSES:
            out.append(Planned(c, True, f"previous status {prev[0]} is retried", files, src))
        else:
            out.append(Planned(c, False, f"cached ({prev[0]})", files, src))
    return out


def cell_row(p: Planned, res: dict, run_id: str) -> dict:
    c = p.cell
    return {
        "identity": c.identity, "benchmark": c.slug, "dataset": c.dataset.label,
        "dataset_params": c.dataset.params, "method": c.method.label,
        "method_params": c.method.params, "rep": c.rep, "data_seed": c.data_seed,
        "method_seed": c.method_seed, "external": c.external, "method_ref": c.method_ref,
        "model": c.model,
        "status": res["status"], "error": res.get("error"), "metrics": res.get("metrics") or {},
        "traces": res.get("traces") or {}, "wall_s": res.get("wall_s"),
        "cpu_s": res.get("cpu_s"), "peak_mem_mb": res.get("peak_mem_mb"),
        "source_hash": p.source_hash, "file_hashes": p.files, "run_id": run_id,
        "finished_at": time.time(),
    }


@dataclass
class RunSummary:
    run_id: str
    total: int
    executed: int
    cached: int
    failures: dict[str, int]
    interrupted: bool = False
    # (program, Debian package) -> {benchmark: cells stored as tool_missing in this run}
    missing_tools: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)

    def notes(self) -> list[str]:
        """What the run's end must say besides the counts: missing tools and their install."""
        from .tools import missing_tools_text

        text = missing_tools_text(self.missing_tools)
        return [text] if text else []


def execute_plan(store, benches: dict[str, Benchmark], planned: list[Planned], *, jobs: int = 1,
                 timeout: float | None = None, max_memory_mb: float | None = None,
                 command: str = "", executor: str = "local", scheduler: str | None = None,
                 on_result: Callable[[Planned, dict], None] | None = None) -> RunSummary:
    """Run the planned cells; every result is committed to the store as soon as it arrives."""
    run_id = time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]
    todo = [p for p in planned if p.run]
    failures: dict[str, int] = {}
    summary = RunSummary(run_id, len(planned), 0, len(planned) - len(todo), failures)
    if not todo:
        return summary
    store.add_run(run_id, command, capture())
    cells = [p.cell for p in todo]
    for c in cells:  # seeds derived once, here, so that forked workers inherit them
        c.method_seed  # noqa: B018 (a cached property)
    if executor == "dask":
        from .dask_executor import run_dask

        results = run_dask(cells, benches, jobs=jobs, timeout=timeout,
                           max_memory_mb=max_memory_mb, scheduler=scheduler)
    else:
        from .pool import run_pool

        results = run_pool(cells, benches, range(len(cells)), jobs, timeout, max_memory_mb,
                           inline=(executor == "inline"))
    try:
        for idx, res in results:
            store.put([cell_row(todo[idx], res, run_id)])
            summary.executed += 1
            if res["status"] not in ("ok", "not_applicable"):
                failures[res["status"]] = failures.get(res["status"], 0) + 1
            if res["status"] == "tool_missing":
                tool = res.get("tool") or {}
                key = (tool.get("command", "?"), tool.get("package", "?"))
                by = summary.missing_tools.setdefault(key, {})
                by[todo[idx].cell.slug] = by.get(todo[idx].cell.slug, 0) + 1
            if on_result:
                on_result(todo[idx], res)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        close = getattr(results, "close", None)
        if close:
            close()
    return summary
