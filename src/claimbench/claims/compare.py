"""``claimbench compare``: one method against another, per dataset and overall."""
from __future__ import annotations

from ..api import Benchmark
from .. import stats
from .dispatch import _higher
from .evidence import Evidence
from .outcome import NoEvidence


def resolve_label(rows: list[dict], name: str, slug: str) -> str:
    """A stored method label from a label or a ``file.py:Class`` reference."""
    from ..errors import UserError, suggest as _suggest

    known = {r["method"] for r in rows}
    if name in known:
        return name
    for r in rows:
        if r["method_ref"] and r["method_ref"] == name:
            return r["method"]
    raise UserError(f"no stored results for method {name!r} in {slug}: "
                    f"{_suggest(name, sorted(known))} (run it first)")


def compare(bench: Benchmark, rows: list[dict], a: str, b: str, metric: str) -> str:
    """Per dataset and overall: Hodges-Lehmann shift of a vs b, its Wilcoxon-inverted 95%
    interval and the signed-rank p-value (one procedure: the interval and p agree)."""
    la, lb = resolve_label(rows, a, bench.slug), resolve_label(rows, b, bench.slug)
    ev = Evidence(rows, bench.unit)
    higher = _higher(bench, metric)
    datasets = sorted({r["dataset"] for r in rows})
    lines = [f"{bench.slug}: {la} vs {lb} on {metric} "
             f"({'higher' if higher else 'lower'} is better), paired on the unit of replication",
             f"{'dataset':<32} {'n':>3} {'mean A':>11} {'mean B':>11} {'A-B (HL) [95% CI]':>32} "
             f"{'Wilcoxon p':>10}  better"]
    for ds in datasets + [None]:
        where = {"dataset": ds} if ds else {}
        try:
            xa, xb = ev.pairs(la, lb, metric, where)
        except NoEvidence as exc:
            lines.append(f"{ds or 'all':<32} {exc.detail}")
            continue
        pr = stats.paired(xa, xb)
        better = "—"
        if pr.p_value < 0.05:
            better = la if (pr.estimate > 0) == higher else lb
        lines.append(f"{(ds or 'ALL'):<32} {pr.n:>3} {xa.mean():>11.4g} {xb.mean():>11.4g} "
                     f"{pr.estimate:>11.4g} [{pr.ci_lo:.3g}, {pr.ci_hi:.3g}]".ljust(96)
                     + f" {pr.p_value:>10.3g}  {better}")
    return "\n".join(lines)
