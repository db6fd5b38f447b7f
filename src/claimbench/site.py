"""A static leaderboard site under reports/site/: works offline from file://, no CDN, no server.

Every name and value from data is HTML-escaped here, when the page is written; the page's
script only reorders and hides rows that already exist, it never builds markup from data.
"""
from __future__ import annotations

import shutil
import time
from pathlib import Path

from .api import Benchmark
from .claims import VERDICTS, ClaimResult
from .papers import AREAS, PAPERS
from .render import html_escape as esc

STATIC = ("site.css", "site.js")  # shipped in claimbench/static, copied beside the pages


def _page(title: str, body: str, depth: int = 0) -> str:
    up = "../" * depth
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            f"<title>{esc(title)}</title><link rel=\"stylesheet\" href=\"{up}site.css\"></head>"
            f"<body>{body}<script src=\"{up}site.js\"></script></body></html>\n")


def _badges(counts: dict[str, int]) -> str:
    return "".join(f"<span class=\"badge v-{v}\">{counts[v]} {esc(v.replace('_', ' '))}</span>"
                   for v in VERDICTS if counts.get(v))


def _of(counts: dict[str, int], source: str) -> str:
    total = sum(n for k, n in counts.items() if k.startswith(f"{source}:"))
    if not total:
        return "<span class=muted>—</span>"
    return f"{counts.get(f'{source}:reproduced', 0)} / {total}"


def index_html(benches: dict[str, Benchmark], verdicts: dict[str, dict[str, int]], stamp: str) -> str:
    rows = []
    for p in sorted(PAPERS, key=lambda p: (list(AREAS).index(p.area), p.slug)):
        b = benches.get(p.slug)
        counts = verdicts.get(p.slug, {})
        fid = b.fidelity if b else "not_implemented"
        vattr = " ".join(v for v in VERDICTS if counts.get(v))
        title = (f"<a href=\"papers/{esc(p.slug)}.html\">{esc(p.title)}</a>" if b and p.slug in verdicts
                 else esc(p.title))
        arxiv = (f"<a href=\"https://arxiv.org/abs/{esc(p.arxiv)}\">{esc(p.arxiv)}</a>"
                 if p.arxiv else "")
        from .claims.coverage import coverage, coverage_text

        cov = (coverage(b)[0], coverage_text(b)) if b else (0, "—")
        rows.append(
            f"<tr data-area=\"{esc(p.area)}\" data-fidelity=\"{esc(fid)}\" data-verdict=\"{esc(vattr)}\">"
            f"<td>{esc(p.area)}</td><td>{esc(p.slug)}</td><td>{title}</td>"
            f"<td data-sort=\"{counts.get('paper:reproduced', 0)}\">{_of(counts, 'paper')}</td>"
            f"<td data-sort=\"{counts.get('derived:reproduced', 0)}\">{_of(counts, 'derived')}</td>"
            f"<td data-sort=\"{cov[0]}\">{esc(cov[1])}</td>"
            f"<td data-sort=\"{counts.get('post_hoc:reproduced', 0)}\">{_of(counts, 'post_hoc')}</td>"
            f"<td data-sort=\"{counts.get('reproduced', 0)}\">"
            f"{_badges(counts) or '<span class=muted>—</span>'}</td>"
            f"<td>{esc(fid.replace('_', ' '))}</td><td>{arxiv}</td></tr>")
    areas = "".join(f"<option value=\"{esc(a)}\">{esc(a)} — {esc(d)}</option>" for a, d in AREAS.items())
    fids = "".join(f"<option value=\"{f}\">{f.replace('_', ' ')}</option>"
                   for f in ("faithful", "scaled_down", "proxy", "not_implemented"))
    verd = "".join(f"<option value=\"{v}\">{v.replace('_', ' ')}</option>" for v in VERDICTS)
    body = (
        "<header><h1>claimbench leaderboard</h1>"
        f"<p class=\"muted\">Every claim of {len(PAPERS)} ICML 2026 papers, checked with paired "
        "statistics over seeds; each claim names foils (wrong methods that must fail it): a claim "
        "is reproduced only when a foil was refuted and none passes, and only when its premises "
        "(positive controls) hold. Counts are of pre-registered claims; claims amended after "
        "their results were seen are counted as post hoc. "
        f"{sum(1 for p in PAPERS if p.slug in verdicts)} papers have results. {esc(stamp)}</p></header>"
        "<main><form class=\"controls\" role=\"search\" onsubmit=\"return false\">"
        "<label for=\"search\">Search<input id=\"search\" type=\"search\" placeholder=\"slug, title, area\"></label>"
        f"<label for=\"f-area\">Area<select id=\"f-area\" data-filter=\"area\"><option value=\"\">all</option>{areas}</select></label>"
        f"<label for=\"f-fid\">Fidelity<select id=\"f-fid\" data-filter=\"fidelity\"><option value=\"\">all</option>{fids}</select></label>"
        f"<label for=\"f-verdict\">Verdict<select id=\"f-verdict\" data-filter=\"verdict\"><option value=\"\">all</option>{verd}</select></label>"
        "<output id=\"count\" aria-live=\"polite\" class=\"muted\"></output></form>"
        "<div class=\"table-wrap\"><table id=\"papers\" class=\"sortable\"><caption class=\"muted\">"
        "Papers of the suite; click a column header to sort.</caption><thead><tr>"
        "<th scope=\"col\">Area</th><th scope=\"col\">Slug</th><th scope=\"col\">Paper</th>"
        "<th scope=\"col\">Paper claims reproduced</th><th scope=\"col\">Derived checks passed</th>"
        "<th scope=\"col\">Headlines checked</th><th scope=\"col\">Post hoc reproduced</th>"
        "<th scope=\"col\">All verdicts</th><th scope=\"col\">Fidelity</th>"
        "<th scope=\"col\">arXiv</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div></main>")
    return _page("claimbench leaderboard", body)


def _claims_table(results: list[ClaimResult]) -> str:
    def foils(r: ClaimResult) -> str:
        if not r.foils:
            return "<span class=muted>none</span>"
        return "<br>".join(f"{esc(f.foil)}: <span class=\"badge v-{esc(f.verdict)}\">"
                           f"{esc(f.verdict.replace('_', ' '))}</span>"
                           + (f" <span class=muted>({esc(f.note)}: no evidence)</span>"
                              if f.note else "") for f in r.foils)

    # The verdict and the evidence first, the paper's words after: a wide table scrolls.
    rows = "".join(
        f"<tr><td>{esc(r.claim)}</td><td>{esc(r.source or '—')}"
        f"{' (by construction)' if r.basis == 'construction' else ''}</td>"
        f"<td data-sort=\"{esc(r.verdict)}\"><span class=\"badge v-{esc(r.verdict)}\">"
        f"{esc(r.verdict.replace('_', ' '))}</span>"
        + (f" <span class=muted>post hoc (before: {esc(r.verdict_before or 'not recorded')})"
           "</span>" if r.post_hoc else "")
        + (f"<br><span class=muted>{esc(r.reason)}</span>" if r.reason else "")
        + (f"<br><span class=\"badge v-fragile\">{esc(r.fragile)}</span>" if r.fragile else "")
        + "</td>"
        f"<td>{esc(r.ours)}</td><td>{r.n or ''}</td><td>{esc(r.kind)}: {esc(r.threshold)}</td>"
        f"<td>{'' if r.alpha is None else f'{r.alpha:.2g}'}</td><td>{foils(r)}</td>"
        f"<td>{esc(r.where)}</td><td>{esc(r.text)}</td><td>{esc(r.paper_value or '—')}</td>"
        "</tr>" for r in results)
    return ("<div class=\"table-wrap\"><table class=\"sortable claims\"><thead><tr>"
            "<th scope=\"col\">Claim</th><th scope=\"col\">Source</th>"
            "<th scope=\"col\">Verdict</th><th scope=\"col\">Ours [CI at alpha]</th>"
            "<th scope=\"col\">n</th><th scope=\"col\">Check</th>"
            "<th scope=\"col\">alpha (Holm)</th><th scope=\"col\">Foils</th>"
            "<th scope=\"col\">Where</th><th scope=\"col\">The paper says</th>"
            f"<th scope=\"col\">Paper's number</th></tr></thead><tbody>{rows}</tbody></table></div>")


def _headlines(bench: Benchmark, results: list[ClaimResult]) -> str:
    from .claims.coverage import coverage_text, headline_rows

    if not bench.headlines:
        return ("<h2>The abstract's statements</h2><p class=muted>Headlines not yet declared: "
                "which of the abstract's statements the claims check is not stated.</p>")
    rows = "".join(f"<tr><td>{esc(q)}</td><td>{esc(c)}</td><td>{esc(v)}</td></tr>"
                   for q, c, v in headline_rows(bench, results))
    return (f"<h2>The abstract's statements</h2><p>Headlines checked: "
            f"{esc(coverage_text(bench))}</p><div class=\"table-wrap\"><table><thead><tr>"
            "<th scope=\"col\">The abstract says</th><th scope=\"col\">Claims</th>"
            f"<th scope=\"col\">Verdicts</th></tr></thead><tbody>{rows}</tbody></table></div>")


def _premises(bench: Benchmark, results: list[ClaimResult]) -> str:
    seen = {g.premise: g for r in results for g in r.premises}
    if not bench.premises:
        return ""
    rows = "".join(
        f"<tr><td>{esc(p.id)}</td><td>{esc(p.text)}</td>"
        f"<td>{esc(seen[p.id].ours if p.id in seen else '—')}</td>"
        f"<td><span class=\"badge v-{esc(seen[p.id].verdict if p.id in seen else 'not_run')}\">"
        f"{esc((seen[p.id].verdict if p.id in seen else 'not run').replace('_', ' '))}</span></td>"
        "</tr>" for p in bench.premises)
    return ("<h2>Premises (positive controls)</h2><div class=\"table-wrap\"><table><thead><tr>"
            "<th scope=\"col\">Premise</th><th scope=\"col\">Must hold</th>"
            "<th scope=\"col\">Ours</th><th scope=\"col\">Verdict</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div>")


def _amendments(bench: Benchmark) -> str:
    if not bench.amendments:
        return ""
    items = "".join(f"<li><strong>{esc(a.date)}</strong> ({esc(', '.join(a.claims))}): "
                    f"{esc(a.what)}. Why: {esc(a.why)}. Results seen before the change: "
                    f"{'yes' if a.results_seen else 'no'}"
                    + (f" (harness rule: {esc(a.rule)})" if a.rule else
                       (" (post hoc)" if a.results_seen else "")) + ".</li>"
                    for a in bench.amendments)
    return f"<h2>Amendments</h2><ul>{items}</ul>"


def _leaderboards(bench: Benchmark, summ: dict) -> str:
    primary = bench.metric(bench.primary_metric)
    out = []
    for ds in sorted({d for d, _ in summ}):
        rows = []
        for (d, m), e in sorted(summ.items()):
            if d != ds:
                continue
            shown = m.replace(" (external)", "") if e["external"] else m
            cells = [f"<td>{esc(shown)}{'<span class=ext>external</span>' if e['external'] else ''}</td>",
                     f"<td>{esc(', '.join(f'{n} {s}' for s, n in sorted(e['statuses'].items())))}</td>"]
            for met in bench.metrics:
                s = e[met.name]
                if s.n == 0:
                    cells.append("<td data-sort=\"\">—</td>")
                else:
                    cells.append(f"<td data-sort=\"{s.mean!r}\">{s.mean:.4g} "
                                 f"<span class=muted>[{s.ci_lo:.3g}, {s.ci_hi:.3g}]</span></td>")
            rows.append("<tr>" + "".join(cells) + "</tr>")
        heads = "".join(f"<th scope=\"col\">{esc(m.name)}</th>" for m in bench.metrics)
        out.append(f"<h3>{esc(ds)}</h3><div class=\"table-wrap\"><table class=\"sortable leaderboard\">"
                   f"<thead><tr><th scope=\"col\">Method</th><th scope=\"col\">Cells</th>{heads}"
                   f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")
    note = (f"<p class=\"muted\">Mean [95% CI] over seeds; primary metric "
            f"<code>{esc(primary.name)}</code> ({'higher' if primary.higher_is_better else 'lower'} "
            f"is better). Failed and timed-out cells are listed with their status.</p>")
    if any(e["statuses"].get("tool_missing") for e in summ.values()):
        from .report import tool_missing_note

        note += f"<p class=\"muted\">{esc(tool_missing_note()).replace('`', '')}</p>"
    return note + "".join(out)


def paper_html(bench: Benchmark, results: list[ClaimResult], summ: dict, plots: list[str],
               provenance: dict, stamp: str) -> str:
    p = bench.paper
    arxiv = (f" · <a href=\"https://arxiv.org/abs/{esc(p.arxiv)}\">arXiv {esc(p.arxiv)}</a>"
             if p.arxiv else "")
    imgs = "".join(f"<figure><img src=\"../../{esc(bench.slug)}/{esc(f)}\" alt=\"{esc(f)} plot for "
                   f"{esc(bench.slug)}\" loading=\"lazy\"><figcaption class=muted>{esc(f)}</figcaption>"
                   f"</figure>" for f in plots)
    cmd = f"claimbench run {bench.slug} --grid quick && claimbench report {bench.slug}"
    prov = "".join(f"<li>{esc(k)}: {esc(v)}</li>" for k, v in provenance.items())
    body = (
        "<nav><a href=\"../index.html\">← all papers</a></nav><header>"
        f"<h1>{esc(p.title)}</h1><p class=\"muted\">{esc(p.authors) + ' · ' if p.authors else ''}"
        f"{esc(p.venue)}{arxiv} · slug <code>{esc(bench.slug)}</code> · area {esc(bench.area)} · "
        f"fidelity <strong>{esc(bench.fidelity)}</strong></p>"
        + (f"<p class=\"muted\">{esc(bench.fidelity_note)}</p>" if bench.fidelity_note else "")
        + "</header><main>" + _headlines(bench, results) + "<h2>Claims</h2>"
        + _claims_table(results) + _premises(bench, results) + _amendments(bench)
        + "<h2>Leaderboards</h2>" + _leaderboards(bench, summ)
        + (f"<h2>Plots</h2><div class=\"plots\">{imgs}</div>" if imgs else "")
        + f"<h2>Provenance</h2><ul>{prov}</ul><p>{esc(stamp)}</p>"
        f"<p>Regenerate every number on this page: <code>{esc(cmd)}</code></p></main>")
    return _page(f"{bench.slug} — claimbench", body, depth=1)


def write_site(out: Path, pages: dict[str, tuple], benches: dict[str, Benchmark],
               verdicts: dict[str, dict[str, int]]) -> list[Path]:
    """pages: slug -> (bench, results, summaries, plot file names, provenance, stamp)."""
    site = out / "site"
    if site.exists():
        shutil.rmtree(site)
    (site / "papers").mkdir(parents=True)
    from importlib.resources import files

    written = []
    for name in STATIC:
        (site / name).write_text((files("claimbench") / "static" / name).read_text())
        written.append(site / name)
    for slug, (bench, results, summ, plots, prov, stamp) in pages.items():
        path = site / "papers" / f"{slug}.html"
        path.write_text(paper_html(bench, results, summ, plots, prov, stamp))
        written.append(path)
    stamp = "Built " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()) + "."
    (site / "index.html").write_text(index_html(benches, verdicts, stamp))
    written.append(site / "index.html")
    return written
