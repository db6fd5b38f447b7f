"""Plain-text description of a benchmark for ``claimbench show``."""
from __future__ import annotations

from .api import Benchmark
from .checks import methods_named


def describe(b: Benchmark) -> str:
    p = b.paper
    lines = [f"{b.slug} — {p.title}",
             f"  paper: {p.venue}" + (f", arXiv {p.arxiv}" if p.arxiv else "")
             + (f" ({p.version})" if p.version else "") + (f"  {p.url}" if p.url else ""),
             f"  area: {b.area}   fidelity: {b.fidelity}"
             + (f" — {b.fidelity_note}" if b.fidelity_note else "")]
    if b.description:
        lines.append(f"  {b.description}")
    lines.append("  methods (paper): " + ", ".join(c.name for c in b.methods))
    lines.append("  baselines: " + ", ".join(c.name for c in b.baselines))
    lines.append("  metrics: " + ", ".join(
        f"{m.name} ({'higher' if m.higher_is_better else 'lower'} is better)" for m in b.metrics)
        + f"; primary: {b.primary_metric}")
    for name, g in b.grids.items():
        methods = b.method_configs(g)
        lines.append(f"  grid {name}: {len(g.datasets)} dataset configs x {len(methods)} methods "
                     f"x {g.seeds} seeds = {len(g.datasets) * len(methods) * g.seeds} cells")
        lines.append("    datasets: " + "; ".join(c.label for c in g.datasets))
    if b.unit:
        lines.append(f"  unit of replication: {', '.join(b.unit)} and seed")
    lines.append("  claims:")
    for c in b.claims:
        lines.append(f"    [{c.id}] ({c.source or 'unmarked'}) {c.where}: {c.text}")
        lines.append(f"        check: {c.check.kind} on {', '.join(methods_named(c.check))}"
                     + (f"; paper: {c.paper_value}" if c.paper_value else ""))
        lines.append(f"        foils: {', '.join(c.foils) or 'none'}"
                     + (f" — {c.foil_note}" if c.foil_note else ""))
    if b.amendments:
        lines.append("  amendments:")
        for a in b.amendments:
            lines.append(f"    {a.date} ({', '.join(a.claims)}): {a.what}")
    return "\n".join(lines)
