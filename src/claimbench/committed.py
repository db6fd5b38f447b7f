"""The committed cells: every cell row of the committed quick run, under ``reports/``, so that a
fresh clone can judge, compare and re-render without running anything.

``reports/cells.parquet`` holds the rows (the columns of ``claimbench export``, zstd-compressed,
without the per-file source hashes: the commit and each row's source hash say what made it) and
``reports/runs.json`` the runs they came from, with their provenance (commit, machine). Written
by ``claimbench report`` after a full regeneration (``make report``). When no local store exists,
the read-only commands (``claims``, ``compare``, ``report``, ``export``, ``verify``,
``claimbench.load``) read a store built from them once, ``results/committed.sqlite``, rebuilt
whenever the committed file changes; ``claimbench import reports/cells.parquet`` merges them into
any store.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from .provenance import ROOT

CELLS = ROOT / "reports" / "cells.parquet"
RUNS = ROOT / "reports" / "runs.json"
COST = ROOT / "reports" / "cost.json"  # CPU-seconds of each benchmark's committed quick cells
CACHE = Path("results") / "committed.sqlite"


def write_committed(store, out: Path, grid: str = "quick") -> list[Path]:
    """Write the store's rows of ``grid`` of every registered benchmark (none of a BYO method)
    and the runs they came from under ``out``."""
    from . import registry
    from .grid import grid_rows

    keep = set()
    for slug in store.benchmarks():
        if slug in registry.slugs():
            rows = grid_rows(registry.benchmark(slug), store.rows(slug), grid)[1]
            keep |= {r["identity"] for r in rows if not r["external"]}
    df = store.dataframe()
    df = df[df["identity"].isin(keep)]
    df = df.drop(columns=[c for c in ("file_hashes",) if c in df.columns])
    df = df.dropna(axis=1, how="all")
    df = df.sort_values(["benchmark", "identity"]).reset_index(drop=True)
    out.mkdir(parents=True, exist_ok=True)
    cells, runs = out / CELLS.name, out / RUNS.name
    df.to_parquet(cells, index=False, compression="zstd")
    used = set(df["run_id"]) if len(df) else set()
    runs.write_text(json.dumps([r for r in store.runs() if r["run_id"] in used], indent=1,
                               sort_keys=True, default=str) + "\n")
    cost = out / COST.name
    cpu = df.groupby("benchmark")["cpu_s"].sum() if len(df) else {}
    cost.write_text(json.dumps({k: round(float(v), 1) for k, v in dict(cpu).items()}, indent=1,
                               sort_keys=True) + "\n")
    return [cells, runs, cost]


def heaviest_first(slugs: list[str], path: Path = COST) -> list[str]:
    """``slugs`` ordered by the CPU their committed quick cells took, heaviest first (unknown
    ones first of all): with the pool's one-benchmark-per-worker rule, a run of many benchmarks
    then ends on light ones instead of two workers sharing a heavy one's checkpoints."""
    try:
        cost = json.loads(path.read_text())
    except (OSError, ValueError):
        return list(slugs)
    return sorted(slugs, key=lambda s: -cost.get(s, float("inf")))


def _digest(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=12).hexdigest()


def build_store(cells: Path = CELLS, runs: Path = RUNS, target: Path = CACHE) -> Path:
    """A store holding exactly the committed cells (rebuilt when ``cells`` changed)."""
    from .importer import validate, _read
    from .store import Store

    stamp = target.with_suffix(".source")
    digest = _digest(cells)
    if target.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return target
    for p in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
        p.unlink(missing_ok=True)
    rows = validate(_read(cells))
    for r in rows:  # a metric column another benchmark owns is empty here, not a value
        r["metrics"] = {k: v for k, v in r["metrics"].items() if v is not None}
    with Store(target) as store:
        for run in json.loads(runs.read_text()) if runs.exists() else []:
            store.add_run(run["run_id"], run.get("command") or "", run.get("provenance") or {})
        known = {r["run_id"] for r in store.runs()}
        for rid in sorted({r["run_id"] for r in rows} - known):
            store.add_run(rid, "committed cells", {"imported_from": cells.name})
        store.put(rows)
    stamp.write_text(digest + "\n")
    return target


def readable_store(arg: str | os.PathLike | None = None) -> Path:
    """The store a read-only command reads: ``arg``, else the local store, else (on a fresh
    clone) the committed cells."""
    from .store import ENV_VAR, default_store_path

    if arg:
        return Path(arg)
    local = default_store_path()
    if local.exists() or os.environ.get(ENV_VAR) or not CELLS.exists():
        return local
    print(f"no local store at {local}: reading the committed cells ({CELLS.relative_to(ROOT)})",
          file=sys.stderr)
    return build_store()
