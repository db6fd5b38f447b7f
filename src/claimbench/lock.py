"""Pre-registered claims: once a benchmark's report is committed, its claims, its premises and
the design they read are locked, and any later change needs an
:class:`~claimbench.api.Amendment` in the benchmark.

``reports/<slug>/claims.lock.json`` holds, per claim, a hash of its declaration (kind, bounds,
margin, statistic, scope, metric, subject, foils, source, basis, grids) and a hash of its
*design*: the quick grid's dataset configs in its scope, the configs of the methods it names
(subject, other roles, foils), the seeds, the unit of replication, the premises that gate it and
the source hashes of the data generators, methods and benchmark module (its cell-relevant part)
they run. It also records each claim's verdict when the lock was written, so that a claim
amended after its results were seen (post hoc) is shown with the verdict it had before.

A claim (or premise) whose hash differs from the lock, or that was added or removed, must be
named by an amendment written after it; ``claimbench report`` refuses to rewrite a lock
otherwise, and a test fails. Locks written before the design was covered (version 1) lock the
declarations only; their first rewrite records the design.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from pathlib import Path

from .api import Benchmark, Claim

LOCK_NAME = "claims.lock.json"
VERSION = 2
NOT_RECORDED = "not recorded"


def _plain(v):
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, dict) or hasattr(v, "items"):
        return {str(k): _plain(x) for k, x in sorted(dict(v).items())}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_plain(x) for x in v]
    if isinstance(v, type):
        return f"{v.__module__}.{v.__qualname__}"
    return v


def _digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _check(check) -> dict:
    return {f.name: _plain(getattr(check, f.name)) for f in dataclasses.fields(check)}


def declaration(claim: Claim) -> dict:
    """What a lock covers of the claim itself: the check (every field), subject, foils, source;
    basis and grids only when set, so that older locks keep their hashes."""
    out = {"id": claim.id, "check": _check(claim.check), "subject": claim.subject,
           "foils": sorted(claim.foils), "source": claim.source}
    if claim.needs_capable_model:
        out["needs_capable_model"] = True
    if claim.basis != "empirical":
        out["basis"] = claim.basis
    if claim.grids:
        out["grids"] = sorted(claim.grids)
    return out


def claim_hash(claim: Claim) -> str:
    return _digest(declaration(claim))


def premise_hash(premise) -> str:
    return _digest({"id": premise.id, "check": _check(premise.check),
                    "claims": sorted(premise.claims)})


def design(bench: Benchmark, claim: Claim, grid: str = "quick") -> dict:
    """What the claim reads on ``grid``: cells, premises and the sources that make them."""
    from .checks import methods_read
    from .claims.dispatch import subject_of
    from .claims.evidence import _matches
    from .provenance import ROOT, cell_hash
    from .registry import module_of
    from .runner import source_files

    g = bench.grids[grid]
    configs = bench.method_configs(g)
    named = {subject_of(claim), *claim.foils}
    if claim.check.kind != "not_run":  # a rank over the whole grid reads every method
        named |= methods_read(claim.check, [c.label for c in configs])
    methods = [c for c in configs if c.label in named]
    scopes = [dict(getattr(claim.check, "where", {}) or {})]
    if getattr(claim.check, "other_where", None) is not None:
        scopes.append(dict(claim.check.other_where))
    from .claims.design import _rows

    rows = _rows(bench, grid)
    datasets = [c for c, r in zip(g.datasets, rows) if any(_matches(r, s) for s in scopes)]
    sources: dict[str, str] = {}
    for c in (*methods, *datasets):
        sources.update(source_files(c.cls))
    try:
        path = getattr(module_of(bench.slug), "__file__", None)
    except KeyError:  # a benchmark built outside the registry (tests): no module of its own
        path = None
    if path:
        sources[str(Path(path).resolve().relative_to(ROOT))] = cell_hash(path)
    gates = [premise_hash(p) for p in bench.premises if not p.claims or claim.id in p.claims]
    return {"grid": grid, "seeds": g.seeds, "unit": list(bench.unit),
            "methods": sorted([c.label, _plain(c.cls), _plain(c.params)] for c in methods),
            "datasets": sorted([c.label, _plain(c.cls), _plain(c.params)] for c in datasets),
            "premises": sorted(gates), "sources": dict(sorted(sources.items()))}


def design_hash(bench: Benchmark, claim: Claim) -> str:
    return _digest(design(bench, claim))


def lock_of(bench: Benchmark, verdicts: dict[str, str] | None = None,
            old: dict | None = None) -> dict:
    """The lock of ``bench`` now; ``verdicts`` (claim id -> verdict) are recorded, and
    ``old`` (the lock it replaces) gives the verdicts post hoc claims had before."""
    before = dict((old or {}).get("before", {}))
    if old is not None:
        from .claims.family import post_hoc_claims

        amended = {cid for a in bench.amendments[old.get("amendments", 0):] for cid in a.claims}
        for cid in post_hoc_claims(bench) & amended:
            before.setdefault(cid, (old.get("verdicts") or {}).get(cid, NOT_RECORDED))
    return {"version": VERSION, "slug": bench.slug, "amendments": len(bench.amendments),
            "claims": {c.id: claim_hash(c) for c in bench.claims},
            "design": {c.id: design_hash(bench, c) for c in bench.claims},
            "premises": {p.id: premise_hash(p) for p in bench.premises},
            "verdicts": dict(sorted((verdicts or {}).items())),
            "before": dict(sorted(before.items()))}


def read_lock(folder: Path) -> dict | None:
    path = folder / LOCK_NAME
    if not path.exists():
        return None
    return json.loads(path.read_text())


def verdicts_before(bench: Benchmark, lock: dict | None) -> dict[str, str]:
    """Post hoc claim -> the verdict it had before its amendment (or 'not recorded')."""
    from .claims.family import post_hoc_claims

    recorded = dict((lock or {}).get("before", {}))
    if lock is not None:  # amended since this lock: the verdict it recorded is the one before
        since = {cid for a in bench.amendments[lock.get("amendments", 0):] for cid in a.claims}
        for cid in since:
            recorded.setdefault(cid, (lock.get("verdicts") or {}).get(cid, NOT_RECORDED))
    return {cid: recorded.get(cid, NOT_RECORDED) for cid in post_hoc_claims(bench)}


def changed(bench: Benchmark, lock: dict) -> list[str]:
    """Claim and premise ids whose declaration or design differ from ``lock``."""
    def diff(now: dict, then: dict) -> set[str]:
        return {k for k in set(now) | set(then) if now.get(k) != then.get(k)}

    out = diff({c.id: claim_hash(c) for c in bench.claims}, lock["claims"])
    if "design" in lock:  # version 2: the design is locked too
        out |= diff({c.id: design_hash(bench, c) for c in bench.claims}, lock["design"])
        out |= diff({p.id: premise_hash(p) for p in bench.premises}, lock.get("premises", {}))
    elif bench.premises:  # a version-1 lock had no premises: any premise now is new
        out |= {p.id for p in bench.premises}
    return sorted(out)


def unamended(bench: Benchmark, lock: dict | None) -> list[str]:
    """Claim and premise ids changed, added or removed since ``lock`` with no amendment written
    after it."""
    if lock is None:
        return []
    covered = {cid for a in bench.amendments[lock.get("amendments", 0):] for cid in a.claims}
    return [cid for cid in changed(bench, lock) if cid not in covered]


def write_lock(bench: Benchmark, folder: Path, verdicts: dict[str, str] | None = None) -> Path:
    from .errors import UserError

    old = read_lock(folder)
    missing = unamended(bench, old)
    if missing:
        raise UserError(
            f"{bench.slug}: claims or premises {', '.join(missing)} changed (declaration or "
            f"design: grid cells, premises, the sources they run) since their report was "
            f"committed ({folder / LOCK_NAME}) and no amendment names them: add an "
            "Amendment(date, claims, what, why, results_seen) to the benchmark's amendments")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    path.write_text(json.dumps(lock_of(bench, verdicts, old), indent=1, sort_keys=True) + "\n")
    return path
