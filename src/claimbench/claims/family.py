"""A benchmark's claims as one family: each claim's statistic, Holm over the paper's claims, then
the rules that decide what a verdict means (premises, refuted foils, post hoc)."""
from __future__ import annotations

from typing import Iterable, Mapping

from .. import stats
from ..api import Benchmark
from .dispatch import is_loose, safe_test, subject_of, substitute
from .evidence import Evidence
from .foils import discrimination, judge_foils
from .outcome import ALPHA, Outcome, Tested
from .premises import gating, judge_premises, premise_reason
from .result import ClaimResult


def post_hoc_claims(bench: Benchmark) -> set[str]:
    """Claims amended after their results were seen by a choice of ours (not a harness rule
    applied to every benchmark alike)."""
    return {cid for a in bench.amendments if a.results_seen and not a.rule for cid in a.claims}


def _needs_capable_model(bench: Benchmark, rows: list[dict], claim, subject: str) -> Outcome | None:
    """A not_run outcome when ``claim`` needs a capable model and ``subject`` ran with a tiny
    one (or with none); None when the claim can be judged."""
    if not claim.needs_capable_model:
        return None
    from ..models import CAPABLE_HELP, is_capable, spec_of

    spec = None
    for g in bench.grids.values():
        for c in bench.method_configs(g):
            if c.label == subject:
                spec = spec_of(c)
    if spec is None:  # a BYO method: the spec it ran with is in its stored parameters
        spec = next((r["method_params"].get("model") for r in rows if r["method"] == subject
                     and r["method_params"].get("model")), None)
    if is_capable(spec):
        return None
    return Outcome("not_run", detail=f"{CAPABLE_HELP} ({subject!r} ran with "
                                     f"{spec or 'no model'})")


def _off_grid(claim, grid: str | None) -> Outcome | None:
    if not claim.grids or grid is None or grid in claim.grids:
        return None
    return Outcome("not_run", detail=f"decided on the {' / '.join(claim.grids)} grid only: the "
                                     f"{grid} grid's units cannot decide it")


def evaluate_benchmark(bench: Benchmark, rows: Iterable[dict], include_external: bool = True,
                       as_method: str | None = None, grid: str | None = None,
                       before: Mapping[str, str] | None = None) -> list[ClaimResult]:
    """Every claim of ``bench`` with its foils and premises; ``as_method`` puts that label in
    each claim's subject place (the paper method's), so any method is judged by the paper's
    claims. ``grid`` names the grid the rows come from (claims declared for other grids only
    are not_run); ``before`` maps post hoc claims to their verdict before the amendment."""
    rows = [r for r in rows if include_external or not r["external"]]
    ev = Evidence(rows, bench.unit)
    tested, checks, waiting = {}, {}, set()
    for claim in bench.claims:
        subject = subject_of(claim)
        check = claim.check if not as_method else substitute(claim.check, subject, as_method)
        checks[claim.id] = check
        held = _needs_capable_model(bench, rows, claim, as_method or subject) \
            or _off_grid(claim, grid)
        if held:
            waiting.add(claim.id)
        tested[claim.id] = held
    # One Holm family over every claim of the paper that has a p-value; the worst-case level of
    # a claim is alpha over the family's size (exact and not-run claims have no p-value).
    family = sum(1 for c in bench.claims if c.id not in waiting and c.check.kind
                 not in ("exact", "not_run"))
    alpha_floor = ALPHA / max(1, family)
    for claim in bench.claims:
        if tested[claim.id] is None:
            tested[claim.id] = safe_test(bench, checks[claim.id], ev, alpha_floor)
    ps = {cid: t.p for cid, t in tested.items() if isinstance(t, Tested)}
    holm = dict(zip(ps, stats.holm(list(ps.values())))) if ps else {}
    premises = judge_premises(bench, ev)
    post_hoc = post_hoc_claims(bench)
    out = []
    for claim in bench.claims:
        t = tested[claim.id]
        subject = as_method or subject_of(claim)
        p_holm = holm.get(claim.id)
        alpha = None
        if isinstance(t, Tested):
            # The level at which Holm tests this claim: reject iff p < alpha * p / p_holm.
            alpha = ALPHA * t.p / p_holm if p_holm and p_holm > 0 else ALPHA / max(1, len(ps))
            alpha = min(alpha, ALPHA)
            outcome = t.decide(alpha)
        else:
            outcome = t
        # a claim that is not judged (waiting for a capable model, another grid) has no foils
        foils = [] if claim.id in waiting else judge_foils(
            bench, claim, checks[claim.id], subject, ev, alpha_floor)
        verdict, reason = outcome.verdict, ""
        if is_loose(claim.check) and verdict not in ("not_run", "error"):
            verdict, reason = "vacuous", "a threshold no data can fail"
        elif verdict == "reproduced":
            reason = discrimination(claim, foils)
            if reason:
                verdict = "not_discriminating"
        gates = gating(bench, premises, claim.id)
        failed = premise_reason(gates)
        detail = outcome.detail
        if failed and verdict not in ("not_run", "error"):
            detail = f"{detail}; the check alone gives {verdict}" if detail else detail
            verdict, reason = "premise_failed", failed
        if verdict == "inconclusive" and outcome.seeds_needed is not None:
            if outcome.seeds_needed == stats.CANNOT:
                detail += "; cannot be decided with this design (more seeds would not do)"
            else:
                detail += (f"; about {outcome.seeds_needed} units would decide it at its "
                           f"worst-case Holm level {alpha_floor:.2g}")
        out.append(ClaimResult(
            bench.slug, claim.id, claim.where, claim.text, claim.check.kind, claim.source,
            claim.paper_value, verdict, outcome.ours or "—", outcome.estimate, outcome.ci,
            outcome.p_value, p_holm, alpha, outcome.n, outcome.threshold, subject, foils,
            detail, outcome.seeds_needed, claim.note, claim.foil_note, claim.basis, reason,
            gates, claim.id in post_hoc, (before or {}).get(claim.id, ""), outcome.verdict))
    return out
