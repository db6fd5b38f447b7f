"""Foils: the same check with a wrong method in the subject's place. A foil is evidence of
discrimination only when it is refuted with values of its own: one the check already names in
another role compares with itself, and one whose values equal (or mirror) the subject's or such a
method's on every unit is that method under a new name."""
from __future__ import annotations

import numpy as np

from ..checks import BetterDiff, NotRun, SlopeDiff, other_roles
from .dispatch import safe_test, substitute
from .evidence import Evidence
from .outcome import ALPHA, NoEvidence, Tested
from .result import FoilResult

SAME_RTOL = 1e-12


def _scopes(check) -> list[dict]:
    scopes = [dict(getattr(check, "where", {}) or {})]
    other = getattr(check, "other_where", None)
    if isinstance(check, (BetterDiff, SlopeDiff)) and other is not None:
        scopes.append(dict(other))
    return scopes


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.all(np.abs(a - b) <= SAME_RTOL * np.maximum(np.abs(a), np.abs(b))))


def twin_of(ev: Evidence, check, foil: str, only: set[str] | None = None) -> str:
    """'identical to X' or 'mirror of X' (exactly minus X's values) when the foil's values of
    the check's metric equal another stored method's (one of ``only``, when given) on every unit
    of the check's scope."""
    metric = getattr(check, "metric", None)
    if metric is None or isinstance(check, NotRun):
        return ""
    for where in _scopes(check):
        try:
            mine = ev.values(foil, metric, where)
        except NoEvidence:
            return ""
        keys = list(mine)
        a = np.array([mine[k] for k in keys])  # (units,)
        for other in ev.methods():
            if other == foil or (only is not None and other not in only):
                continue
            try:
                theirs = ev.values(other, metric, where)
            except NoEvidence:
                continue
            if any(k not in theirs for k in keys):
                continue
            b = np.array([theirs[k] for k in keys])  # (units,)
            if _same(a, b):
                return f"identical to {other}"
            if np.any(a != 0) and _same(a, -b):
                return f"mirror of {other} (its values negated)"
    return ""


def judge_foils(bench, claim, check, subject: str, ev: Evidence, alpha_floor: float
                ) -> list[FoilResult]:
    out = []
    roles = other_roles(check, subject)
    for foil in claim.foils:
        if foil == subject:
            continue
        if foil in roles:
            out.append(FoilResult(foil, "not_run", "—", None,
                                  note="the check already names it: compares with itself"))
            continue
        ft = safe_test(bench, substitute(check, subject, foil), ev, alpha_floor)
        fo = ft.decide(ALPHA) if isinstance(ft, Tested) else ft
        note = twin = ""
        if fo.verdict not in ("not_run", "error"):
            # The subject, or a method the check names in another role, under a new name: the
            # check compares it with itself (or with its mirror image), so it fails by
            # construction. The same values as some other method are shown, and still count:
            # the foil is then that method, refuted on values of its own.
            note = twin_of(ev, check, foil, {subject, *roles})
            twin = "" if note else twin_of(ev, check, foil)
        out.append(FoilResult(foil, fo.verdict, fo.ours or "—",
                              ft.p if isinstance(ft, Tested) else None, fo.estimate, fo.ci,
                              note, twin))
    return out


def discrimination(claim, foils: list[FoilResult]) -> str:
    """Why a reproduced claim does not discriminate ('' when a foil is refuted and none passes)."""
    passing = [f.foil for f in foils if f.passes]
    if passing:
        return "a foil passes: " + ", ".join(passing)
    if not claim.foils:
        return "no foil declared"
    if not any(f.refuted for f in foils):
        shown = "; ".join(f"{f.foil} {f.verdict}" + (f" ({f.note})" if f.note else "")
                          for f in foils) or "none evaluated"
        return f"no foil refuted ({shown})"
    return ""

