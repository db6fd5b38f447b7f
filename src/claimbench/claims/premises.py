"""Premises (positive controls): judged at the unadjusted level, without foils, outside the Holm
family; a claim gated by a premise that is not shown is ``premise_failed``."""
from __future__ import annotations

from .dispatch import safe_test
from .evidence import Evidence
from .outcome import ALPHA, Tested
from .result import PremiseResult


def judge_premises(bench, ev: Evidence) -> list[PremiseResult]:
    out = []
    for p in bench.premises:
        t = safe_test(bench, p.check, ev, ALPHA)
        o = t.decide(ALPHA) if isinstance(t, Tested) else t
        out.append(PremiseResult(p.id, p.text, p.check.kind, o.verdict, o.ours or "—",
                                 o.threshold, o.detail))
    return out


def gating(bench, results: list[PremiseResult], claim_id: str) -> list[PremiseResult]:
    by_id = {r.premise: r for r in results}
    return [by_id[p.id] for p in bench.premises if not p.claims or claim_id in p.claims]


def premise_reason(gates: list[PremiseResult]) -> str:
    failed = [g for g in gates if not g.met]
    if not failed:
        return ""
    return "premise not shown: " + "; ".join(f"{g.premise} {g.verdict} ({g.ours}; needs "
                                            f"{g.threshold})" for g in failed)
