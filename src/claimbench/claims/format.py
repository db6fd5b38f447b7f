"""``claimbench claims`` output: a table, Markdown or JSON."""
from __future__ import annotations

import json

from .outcome import _fmt
from .result import ClaimResult


def format_claims(results: list[list[ClaimResult]], fmt: str = "table") -> str:
    flat = [r for rs in results for r in rs]
    if fmt == "json":
        return json.dumps([r.to_dict() for r in flat], indent=2, default=str)
    header = ["slug", "claim", "source", "where", "paper", "ours [CI]", "n", "threshold",
              "alpha", "verdict", "foils"]
    body = [[r.slug, r.claim, r.source or "—", r.where, r.paper_value or "—", r.ours,
             str(r.n), r.threshold, _fmt(r.alpha), r.verdict, r.control] for r in flat]
    if fmt == "md":
        from ..render import md_table

        return md_table(header, body)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)] if body else []
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(str(x).ljust(w) for x, w in zip(row, widths)) for row in body]
    return "\n".join(lines)

