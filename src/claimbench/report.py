"""Rebuild ``reports/`` from the store only: leaderboards, paper-vs-ours, LaTeX, CSV, plots."""
from __future__ import annotations

import csv
import io
import math
import time
from collections import defaultdict
from pathlib import Path

from . import stats
from .api import Benchmark
from .claims import VERDICTS, ClaimResult, evaluate_benchmark
from .papers import AREAS, PAPERS
from .render import md_escape, md_table, tex_escape

OK = ("ok",)


def _fmt(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:.4g}"


def _provenance(store, slug: str) -> dict:
    """Where the newest run behind a benchmark's rows came from."""
    runs = {r["run_id"]: r for r in store.runs()}
    ids = {r["run_id"] for r in store.rows(slug)}
    used = [runs[i] for i in ids if i in runs]
    if not used:
        return {}
    last = max(used, key=lambda r: r["started_at"])
    prov = last["provenance"]
    return {
        "commit": (prov.get("git_commit") or "unknown")[:12]
        + (" (dirty tree)" if prov.get("git_dirty") else ""),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(last["started_at"])),
        "machine": f"{prov.get('cpu', '')}, {prov.get('platform', '')}",
        "python": prov.get("python", ""),
        "claimbench": prov.get("claimbench", ""),
        "command": last.get("command") or "",
    }


def _stamp(prov: dict) -> str:
    if not prov:
        return "no runs"
    return (f"Generated from the results store; newest run {prov['date']}, commit "
            f"{prov['commit']}, claimbench {prov['claimbench']}, Python {prov['python']}, "
            f"{prov['machine'].split(',')[0]}.")


def summaries(bench: Benchmark, rows: list[dict]) -> dict:
    """(dataset, method) -> {"statuses": {status: n}, "external": bool, metric: Summary}."""
    groups: dict[tuple, dict] = defaultdict(lambda: {"statuses": defaultdict(int), "values":
                                                     defaultdict(list), "external": False})
    for r in rows:
        g = groups[(r["dataset"], r["method"])]
        g["statuses"][r["status"]] += 1
        g["external"] = g["external"] or r["external"]
        if r["status"] == "ok":
            for m in bench.metrics:
                v = r["metrics"].get(m.name)
                if v is not None:
                    g["values"][m.name].append(v)
    out = {}
    for key, g in groups.items():
        entry = {"statuses": dict(g["statuses"]), "external": g["external"]}
        for m in bench.metrics:
            entry[m.name] = stats.summarize(g["values"].get(m.name, []))
        out[key] = entry
    return out


def _method_cell(name: str, external: bool) -> str:
    return f"{name} (external)" if external and "(external)" not in name else name


def _status_text(statuses: dict) -> str:
    return ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))


def leaderboard_md(bench: Benchmark, summ: dict, stamp: str) -> str:
    primary = bench.metric(bench.primary_metric)
    lines = [f"# {md_escape(bench.slug)} — leaderboard", "",
             f"*{md_escape(bench.paper.title)}* · fidelity: **{bench.fidelity}** · "
             f"primary metric: `{bench.primary_metric}` "
             f"({'higher' if primary.higher_is_better else 'lower'} is better)", "",
             f"Mean [95% bootstrap CI] over seeds. Cells that failed, timed out or do not apply "
             f"are listed with their status. {md_escape(stamp)}", ""]
    datasets = sorted({d for d, _ in summ})
    for ds in datasets:
        entries = [(m, e) for (d, m), e in summ.items() if d == ds]

        def key(item):
            s = item[1][primary.name]
            if s.n == 0:
                return (1, 0.0)
            return (0, -s.mean if primary.higher_is_better else s.mean)

        entries.sort(key=key)
        header = ["rank", "method", "cells"] + [m.name for m in bench.metrics]
        body = []
        rank = 0
        for m, e in entries:
            has = e[primary.name].n > 0
            rank += has
            cells = [str(rank) if has else "—", _method_cell(m, e["external"]),
                     _status_text(e["statuses"])]
            for met in bench.metrics:
                s = e[met.name]
                cells.append("—" if s.n == 0 else
                             f"{_fmt(s.mean)} [{_fmt(s.ci_lo)}, {_fmt(s.ci_hi)}]")
            body.append(cells)
        lines += [f"## {md_escape(ds)}", "", md_table(header, body), ""]
    return "\n".join(lines)


def paper_vs_ours_md(bench: Benchmark, results: list[ClaimResult], stamp: str) -> str:
    p = bench.paper
    lines = [f"# {md_escape(bench.slug)} — the paper's claims against our runs", "",
             f"**{md_escape(p.title)}**" + (f" ({md_escape(p.authors)})" if p.authors else "")
             + f" · {md_escape(p.venue)}"
             + (f" · [arXiv {p.arxiv}](https://arxiv.org/abs/{p.arxiv})" if p.arxiv else "")
             + (f" · claims read from {md_escape(p.version)}" if p.version else ""), "",
             f"Fidelity: **{bench.fidelity}**"
             + (f" — {md_escape(bench.fidelity_note)}" if bench.fidelity_note else ""), "",
             "Each claim's check also runs on null evidence (negative control); "
             "it must fail there, or the claim is reported `vacuous`.", "", md_escape(stamp), ""]
    counts = defaultdict(int)
    for r in results:
        counts[r.verdict] += 1
    lines.append("Verdicts: " + ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v]))
    lines.append("")
    header = ["claim", "where", "paper says", "paper's number", "ours [95% CI]", "check",
              "verdict", "negative control"]
    body = [[r.claim, r.where, r.text, r.paper_value or "—", r.ours,
             f"{r.kind}: {r.threshold}", r.verdict, f"{r.control}: {r.control_verdict}"]
            for r in results]
    lines += [md_table(header, body), "", "## Details", ""]
    for r in results:
        extra = f" p = {r.p_value:.3g}" if r.p_value is not None else ""
        extra += f", Holm-adjusted {r.p_holm:.3g}" if r.p_holm is not None else ""
        lines.append(f"- **{md_escape(r.claim)}** ({md_escape(r.verdict)}): {md_escape(r.detail)}."
                     f"{md_escape(extra)}" + (f" Note: {md_escape(r.note)}" if r.note else ""))
    return "\n".join(lines) + "\n"


def table_tex(bench: Benchmark, summ: dict) -> str:
    primary = bench.metric(bench.primary_metric)
    datasets = sorted({d for d, _ in summ})
    methods = sorted({m for _, m in summ})
    cols = "l" + "r" * len(datasets)
    out = [f"% {bench.slug}: mean (95% CI half-width) of {bench.primary_metric} over seeds",
           r"\begin{table}[t]", r"\centering", r"\small",
           rf"\caption{{{tex_escape(bench.paper.title)}: {tex_escape(bench.primary_metric)} "
           rf"({'higher' if primary.higher_is_better else 'lower'} is better).}}",
           rf"\begin{{tabular}}{{{cols}}}", r"\toprule",
           "Method & " + " & ".join(tex_escape(d) for d in datasets) + r" \\", r"\midrule"]
    for m in methods:
        cells = []
        for d in datasets:
            e = summ.get((d, m))
            if e is None:
                cells.append("")
                continue
            s = e[primary.name]
            if s.n == 0:
                cells.append(tex_escape(_status_text(e["statuses"])))
            else:
                half = (s.ci_hi - s.ci_lo) / 2
                cells.append(f"{s.mean:.3g} ({half:.2g})")
        out.append(tex_escape(m) + " & " + " & ".join(cells) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(out)


def results_csv(bench: Benchmark, summ: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["benchmark", "dataset", "method", "external", "statuses", "metric", "n", "mean",
                "std", "median", "iqm", "ci_lo", "ci_hi"])
    for (d, m), e in sorted(summ.items()):
        for met in bench.metrics:
            s = e[met.name]
            w.writerow([bench.slug, d, m, int(e["external"]), _status_text(e["statuses"]),
                        met.name, s.n, s.mean, s.std, s.median, s.iqm, s.ci_lo, s.ci_hi])
    return buf.getvalue()


def write_benchmark(bench: Benchmark, store, out: Path) -> tuple[list[Path], tuple]:
    from .plots import plot_benchmark

    rows = store.rows(bench.slug)
    folder = out / bench.slug
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    prov = _provenance(store, bench.slug)
    stamp = _stamp(prov)
    summ = summaries(bench, rows)
    results = evaluate_benchmark(bench, rows)
    files = {
        "leaderboard.md": leaderboard_md(bench, summ, stamp),
        "paper_vs_ours.md": paper_vs_ours_md(bench, results, stamp),
        "table.tex": table_tex(bench, summ),
        "results.csv": results_csv(bench, summ),
    }
    written = []
    for name, text in files.items():
        (folder / name).write_text(text)
        written.append(folder / name)
    plots = plot_benchmark(bench, rows, summ, results, folder)
    written += plots
    return written, (bench, results, summ, [p.name for p in plots], prov, stamp)


def index_md(verdicts: dict[str, dict[str, int]], benches: dict[str, Benchmark]) -> str:
    lines = ["# claimbench reports", "",
             "One row per paper of the suite. Verdict counts come from the committed quick-grid "
             "runs; `make report` regenerates everything here from the results store.", ""]
    header = ["area", "paper", "slug", "fidelity"] + list(VERDICTS) + ["report"]
    body = []
    for p in sorted(PAPERS, key=lambda p: (list(AREAS).index(p.area), p.slug)):
        b = benches.get(p.slug)
        if b is None:
            body.append([p.area, p.title, p.slug, "not implemented"] + [""] * len(VERDICTS) + ["—"])
            continue
        v = verdicts.get(p.slug, {})
        body.append([p.area, p.title, p.slug, b.fidelity] + [str(v.get(k, 0)) for k in VERDICTS]
                    + [f"[{p.slug}/]({p.slug}/paper_vs_ours.md)"])
    esc = [[md_escape(c) for c in row[:-1]] + [row[-1]] for row in body]
    lines.append(md_table(header, esc, escape=False))
    implemented = sum(1 for p in PAPERS if p.slug in benches)
    lines += ["", f"{implemented} of {len(PAPERS)} papers implemented.", ""]
    return "\n".join(lines)


def write_reports(benches: list[Benchmark], store, out: Path, full_index: bool = True,
                  all_benches: dict[str, Benchmark] | None = None) -> list[Path]:

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    stored = set(store.benchmarks())
    verdicts: dict[str, dict[str, int]] = {}
    pages: dict[str, tuple] = {}
    for b in benches:
        if b.slug not in stored:
            continue
        files, page = write_benchmark(b, store, out)
        results = page[1]
        written += files
        verdicts[b.slug] = defaultdict(int)
        for r in results:
            verdicts[b.slug][r.verdict] += 1
        pages[b.slug] = page
    # The index counts verdicts of every registered benchmark with results, not only these.
    if all_benches is None:
        from . import registry

        all_benches = registry.benchmarks()
    for slug, b in all_benches.items():
        if slug not in verdicts and slug in stored:
            verdicts[slug] = defaultdict(int)
            for r in evaluate_benchmark(b, store.rows(slug)):
                verdicts[slug][r.verdict] += 1
    (out / "README.md").write_text(index_md(verdicts, all_benches))
    written.append(out / "README.md")
    # The site gets a page for every benchmark with results, rebuilt from the store.
    for slug, b in all_benches.items():
        if slug not in pages and slug in stored:
            rows = store.rows(slug)
            prov = _provenance(store, slug)
            plots = sorted(p.name for p in (out / slug).glob("*.png"))
            pages[slug] = (b, evaluate_benchmark(b, rows), summaries(b, rows), plots, prov,
                           _stamp(prov))
    from .site import write_site

    written += write_site(out, pages, all_benches, verdicts)
    return written
