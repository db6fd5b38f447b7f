"""Pre-registered claims: once a benchmark's report is committed, its claim declarations are
locked, and any later change needs an :class:`~claimbench.api.Amendment` in the benchmark.

``reports/<slug>/claims.lock.json`` holds a hash of each claim's declaration (kind, bounds,
margin, statistic, scope, metric, subject, foils) and the number of amendments the benchmark
had when the lock was written. A claim whose hash differs from the lock (or that was added or
removed) must be named by an amendment written after it; ``claimbench report`` refuses to
rewrite a lock otherwise, and a test fails.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from pathlib import Path

from .api import Benchmark, Claim

LOCK_NAME = "claims.lock.json"


def _plain(v):
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, dict) or hasattr(v, "items"):
        return {str(k): _plain(x) for k, x in sorted(dict(v).items())}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_plain(x) for x in v]
    return v


def declaration(claim: Claim) -> dict:
    """What a lock covers: the check (every field), the subject and the foils."""
    check = {f.name: _plain(getattr(claim.check, f.name))
             for f in dataclasses.fields(claim.check)}
    out = {"id": claim.id, "check": check, "subject": claim.subject,
           "foils": sorted(claim.foils), "source": claim.source}
    if claim.needs_capable_model:  # only when set, so that older locks keep their hashes
        out["needs_capable_model"] = True
    if claim.basis != "empirical":
        out["basis"] = claim.basis
    if claim.grids:
        out["grids"] = sorted(claim.grids)
    return out


def claim_hash(claim: Claim) -> str:
    text = json.dumps(declaration(claim), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def lock_of(bench: Benchmark) -> dict:
    return {"slug": bench.slug, "amendments": len(bench.amendments),
            "claims": {c.id: claim_hash(c) for c in bench.claims}}


def read_lock(folder: Path) -> dict | None:
    path = folder / LOCK_NAME
    if not path.exists():
        return None
    return json.loads(path.read_text())


def unamended(bench: Benchmark, lock: dict | None) -> list[str]:
    """Claim ids changed, added or removed since ``lock`` with no amendment written after it."""
    if lock is None:
        return []
    now = lock_of(bench)["claims"]
    before = lock["claims"]
    changed = sorted(cid for cid in set(now) | set(before) if now.get(cid) != before.get(cid))
    covered = {cid for a in bench.amendments[lock.get("amendments", 0):] for cid in a.claims}
    return [cid for cid in changed if cid not in covered]


def write_lock(bench: Benchmark, folder: Path) -> Path:
    from .errors import UserError

    missing = unamended(bench, read_lock(folder))
    if missing:
        raise UserError(
            f"{bench.slug}: claims {', '.join(missing)} changed since their report was "
            f"committed ({folder / LOCK_NAME}) and no amendment names them: add an "
            "Amendment(date, claims, what, why, results_seen) to the benchmark's amendments")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    path.write_text(json.dumps(lock_of(bench), indent=1, sort_keys=True) + "\n")
    return path
