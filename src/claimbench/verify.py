"""``claimbench verify``: re-run a seeded sample of the committed cells on this machine and
measure the drift of their metrics and of every claim's verdict.

The committed cells (``reports/cells.parquet``) are the reference. For each benchmark, ``sample``
of its committed ``ok`` cells of the quick grid are drawn with a generator seeded by
(``seed``, slug) and run afresh (forced, with an empty checkpoint folder, so trained models are
trained again) into a scratch store. Each metric is compared with its committed value: bit for
bit on the CPU model the committed run used, within 1e-9 relative on another, and within the
benchmark's declared tolerance for a metric it declares ``nondeterministic`` (wall time). Then
every claim of the benchmark is judged twice, on the committed rows and on the committed rows with
the re-run cells in their place; a claim whose verdict moves is *fragile* (``--record`` writes it
to ``reports/fragile.json``, which the reports show until the claim's design changes).
"""
from __future__ import annotations

import json
import math
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .api import TIMING_RTOL  # noqa: F401  (re-exported: the tolerance of clock readings)
from .provenance import ROOT, cpu_model

FRAGILE = ROOT / "reports" / "fragile.json"
CROSS_CPU_RTOL = 1e-9
CROSS_CPU_ATOL = 1e-12  # a difference of nearly equal numbers keeps only its round-off


@dataclass
class Drift:
    slug: str
    cells: int = 0  # cells re-run
    metric_drift: list[tuple] = field(default_factory=list)  # (cell, metric, committed, now, tol)
    # declared nondeterministic (clock readings) and beyond their tolerance: still drift, counted
    # apart, since they move with the machine's load rather than with the code
    clock_drift: list[tuple] = field(default_factory=list)
    tolerated: list[tuple] = field(default_factory=list)  # nondeterministic, within tolerance
    failed: list[tuple] = field(default_factory=list)  # (cell, status, error)
    moved: list[tuple] = field(default_factory=list)  # (claim, committed, now)
    estimates: list[tuple] = field(default_factory=list)  # (claim, committed, now)
    foils_moved: list[tuple] = field(default_factory=list)  # (claim, foil, committed, now)

    @property
    def broken(self) -> bool:
        return bool(self.metric_drift or self.clock_drift or self.failed or self.moved)


def _close(a, b, rtol: float, atol: float = 0.0) -> bool:
    if a is None or b is None:
        return a is None and b is None
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if rtol == 0 and atol == 0:
        return a == b
    return abs(a - b) <= max(rtol * max(abs(a), abs(b)), atol) or a == b


def sample_rows(rows: list[dict], k: int, seed: int, slug: str) -> list[dict]:
    from .grid import derive_seed

    ok = sorted((r for r in rows if r["status"] == "ok" and not r["external"]),
                key=lambda r: r["identity"])
    if k >= len(ok):
        return ok
    rng = np.random.default_rng(derive_seed("verify", seed, slug))
    return [ok[i] for i in sorted(rng.choice(len(ok), size=k, replace=False))]


def rerun(bench, picked: list[dict], jobs: int, timeout: float | None, grid: str = "quick"
          ) -> dict[str, dict]:
    """identity -> fresh row of each picked cell, run in a scratch store and checkpoint folder."""
    from . import checkpoints, registry
    from .runner import execute_plan, plan, select_cells
    from .store import Store

    want = {r["identity"] for r in picked}
    cells = [c for c in select_cells(bench, grid) if c.identity in want]
    with tempfile.TemporaryDirectory(prefix="claimbench-verify-") as tmp:
        old = os.environ.get(checkpoints.ENV_VAR)
        os.environ[checkpoints.ENV_VAR] = str(Path(tmp) / "checkpoints")
        try:
            with Store(Path(tmp) / "verify.sqlite") as store:
                planned = plan(store, {bench.slug: registry.module_of(bench.slug)}, cells, True)
                execute_plan(store, {bench.slug: bench}, planned, jobs=jobs, timeout=timeout,
                             command="claimbench verify")
                return {r["identity"]: r for r in store.rows(bench.slug)}
        finally:
            if old is None:
                os.environ.pop(checkpoints.ENV_VAR, None)
            else:
                os.environ[checkpoints.ENV_VAR] = old


def compare_cells(bench, picked: list[dict], fresh: dict[str, dict], same_cpu: bool,
                  drift: Drift) -> None:
    tolerance = dict(bench.nondeterministic)
    for r in picked:
        new = fresh.get(r["identity"])
        name = f"{r['dataset']} / {r['method']} / seed#{r['rep']}"
        if new is None or new["status"] != "ok":
            drift.failed.append((name, new["status"] if new else "missing",
                                 (new or {}).get("error") or ""))
            continue
        for m in bench.metrics:
            a, b = r["metrics"].get(m.name), new["metrics"].get(m.name)
            rtol = tolerance.get(m.name, 0.0 if same_cpu else CROSS_CPU_RTOL)
            if _close(a, b, rtol, 0.0 if same_cpu else CROSS_CPU_ATOL):
                if m.name in tolerance and not _close(a, b, 0.0):
                    drift.tolerated.append((name, m.name, a, b, rtol))
                continue
            (drift.clock_drift if m.name in tolerance else drift.metric_drift).append(
                (name, m.name, a, b, rtol))


def rejudge(bench, committed: list[dict], fresh: dict[str, dict], drift: Drift,
            grid: str = "quick") -> None:
    from .claims import evaluate_benchmark

    base = evaluate_benchmark(bench, committed, grid=grid)
    mixed = [fresh[r["identity"]] if r["identity"] in fresh and fresh[r["identity"]]["status"]
             == "ok" else r for r in committed]
    again = evaluate_benchmark(bench, mixed, grid=grid)
    for a, b in zip(base, again):
        if a.verdict != b.verdict:
            drift.moved.append((a.claim, a.verdict, b.verdict))
        elif not _close(a.estimate, b.estimate, CROSS_CPU_RTOL):
            drift.estimates.append((a.claim, a.estimate, b.estimate))
        for fa, fb in zip(a.foils, b.foils):
            if fa.verdict != fb.verdict:
                drift.foils_moved.append((a.claim, fa.foil, fa.verdict, fb.verdict))


def verify_benchmark(bench, committed_store, sample: int, seed: int, jobs: int = 1,
                     timeout: float | None = None, grid: str = "quick", fresh_store=None
                     ) -> Drift:
    """``fresh_store``: take the fresh cells from this store (a whole run made afresh, e.g. by
    ``make report`` into an empty store) instead of re-running the sample."""
    from .grid import grid_rows

    committed = grid_rows(bench, committed_store.rows(bench.slug), grid)[1]
    runs = {r["run_id"]: r for r in committed_store.runs()}
    picked = sample_rows(committed, sample, seed, bench.slug)
    drift = Drift(bench.slug, len(picked))
    if not picked:
        return drift
    cpus = {runs.get(r["run_id"], {}).get("provenance", {}).get("cpu") for r in picked}
    same_cpu = cpus == {cpu_model()}
    if fresh_store is None:
        fresh = rerun(bench, picked, jobs, timeout, grid)
    else:
        want = {r["identity"] for r in picked}
        fresh = {r["identity"]: r for r in grid_rows(bench, fresh_store.rows(bench.slug), grid)[1]
                 if r["identity"] in want}
    compare_cells(bench, picked, fresh, same_cpu, drift)
    rejudge(bench, committed, fresh, drift, grid)
    return drift


def _g(v) -> str:
    return "—" if v is None else f"{v:.10g}" if isinstance(v, float) else str(v)


def format_drift(d: Drift) -> list[str]:
    head = (f"{d.slug}: {d.cells} cells re-run; {len(d.metric_drift)} metric values drift, "
            f"{len(d.clock_drift)} clock readings beyond their tolerance, "
            f"{len(d.failed)} cells failed, {len(d.moved)} verdicts moved, "
            f"{len(d.estimates)} estimates moved, {len(d.foils_moved)} foil verdicts moved"
            + (f", {len(d.tolerated)} nondeterministic values within tolerance"
               if d.tolerated else ""))
    out = [head]
    out += [f"  cell {c}: {m} committed {_g(a)}, now {_g(b)} (tolerance {t:g})"
            for c, m, a, b, t in d.metric_drift]
    out += [f"  cell {c}: clock {m} committed {_g(a)}, now {_g(b)} (tolerance {t:g})"
            for c, m, a, b, t in d.clock_drift]
    out += [f"  cell {c}: {s} {e[-200:]}" for c, s, e in d.failed]
    out += [f"  claim {c}: verdict {a} -> {b} (fragile)" for c, a, b in d.moved]
    out += [f"  claim {c}: estimate {_g(a)} -> {_g(b)}" for c, a, b in d.estimates]
    out += [f"  claim {c}: foil {f} {a} -> {b}" for c, f, a, b in d.foils_moved]
    return out


def record_fragile(drifts: list[Drift], benches: dict, path: Path = FRAGILE) -> Path:
    """Add the claims whose verdict moved to ``path`` (kept until the claim's design changes)."""
    from .lock import design_hash

    data = json.loads(path.read_text()) if path.exists() else {}
    for d in drifts:
        for claim, before, now in d.moved:
            c = next(c for c in benches[d.slug].claims if c.id == claim)
            data.setdefault(d.slug, {})[claim] = {
                "committed": before, "rerun": now, "machine": cpu_model(),
                "date": time.strftime("%Y-%m-%d"), "design": design_hash(benches[d.slug], c),
                "amendments": len(_naming(benches[d.slug], claim))}
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return path


def fragile_claims(bench, path: Path = FRAGILE) -> dict[str, str]:
    """claim id -> why it is fragile, for the claims whose recorded design is still current."""
    if not path.exists():
        return {}
    from .lock import design_hash

    data = json.loads(path.read_text()).get(bench.slug, {})
    out = {}
    for c in bench.claims:
        rec = data.get(c.id)
        if not rec:
            continue
        note = (f"fragile: {rec['committed']} in the committed run, {rec['rerun']} on "
                f"a re-run ({rec['machine']}, {rec['date']})")
        if rec.get("design") == design_hash(bench, c):
            out[c.id] = note
        elif _only_faster_since(bench, c.id, rec):
            out[c.id] = note + "; its code made faster since, the same experiment"
    return out


# The rule of amendments that change code but not the experiment (issue 27): every non-timing
# value stays, so they cannot make a verdict robust, and a fragile mark outlives them.
FASTER_CODE_RULE = "issue 27: faster code"


def _naming(bench, claim_id: str) -> list:
    return [a for a in bench.amendments if claim_id in a.claims]


def _only_faster_since(bench, claim_id: str, rec: dict) -> bool:
    """Whether the claim's design changed since the record only through faster-code
    amendments: those after the first ``rec["amendments"]`` naming it (a record made before
    counts were kept: those dated after its day; one of the same day may precede it)."""
    named = _naming(bench, claim_id)
    if "amendments" in rec:
        later = named[rec["amendments"]:]
    else:
        later = [a for a in named if a.date > rec.get("date", "")]
    return bool(later) and all(a.rule.startswith(FASTER_CODE_RULE) for a in later)


def write_log(lines: list[str], args, path: Path = ROOT / "reports" / "verify.md") -> Path:
    """The drift of the last recorded verify run, for readers of the committed reports."""
    import platform

    head = ["# claimbench verify: the committed cells re-run", "",
            f"`claimbench verify --sample {args.sample} --seed {args.seed}"
            + (f" {' '.join(args.slugs)}" if args.slugs else "") + f"` on {cpu_model()}, "
            f"{platform.machine()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Each "
            "benchmark's sampled cells were run afresh (with an empty checkpoint folder) and every "
            "metric compared with its committed value (bit for bit on the same CPU model, 1e-9 "
            "relative on another, the declared tolerance for clock readings); every claim was "
            "judged again with the fresh cells in place. A claim whose verdict moved is recorded "
            "in `reports/fragile.json` and marked fragile in its report.", "", "```"]
    path.write_text("\n".join(head + lines + ["```", ""]))
    return path
