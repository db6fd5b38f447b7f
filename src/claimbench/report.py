"""Rebuild ``reports/`` from the store only: leaderboards, paper-vs-ours, LaTeX, CSV, plots."""
from __future__ import annotations

import csv
import io
import json
import math
import time
from collections import defaultdict
from pathlib import Path

from . import stats
from .api import Benchmark
from .lock import write_lock
from .claims import VERDICTS, ClaimResult, count_verdicts, evaluate_benchmark
from .grid import grid_rows, stable_hash
from .papers import AREAS, PAPERS
from .render import md_escape, md_table, tex_escape

OK = ("ok",)


def _fmt(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:.4g}"


def _provenance(store, rows: list[dict]) -> dict:
    """Where the newest run behind a benchmark's (reported) rows came from."""
    runs = {r["run_id"]: r for r in store.runs()}
    ids = {r["run_id"] for r in rows}
    used = [runs[i] for i in ids if i in runs]
    if not used:
        return {}
    last = max(used, key=lambda r: r["started_at"])
    prov = last["provenance"]
    out = {
        "commit": (prov.get("git_commit") or "unknown")[:12]
        + (" (dirty tree)" if prov.get("git_dirty") else ""),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(last["started_at"])),
        "machine": f"{prov.get('cpu', '')}, {prov.get('platform', '')}",
        "python": prov.get("python", ""),
        "claimbench": prov.get("claimbench", ""),
        "command": last.get("command") or "",
    }
    models = model_lines(rows)
    if models:  # only benchmarks whose methods use a model: other reports are unchanged
        out["models"] = models
    return out


def model_lines(rows: list[dict]) -> str:
    """Which model each model-using method ran with: spec, backend, and a hash of the full
    identity (revision, file hashes, served model) that keys its cells."""
    seen: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        if r.get("model"):
            ident = json.loads(r["model"])
            seen[r["method"]].add(f"{ident.get('spec', '?')} (identity "
                                  f"{stable_hash(ident, n=4)})")
    return "; ".join(f"{m}: {', '.join(sorted(v))}" for m, v in sorted(seen.items()))


def _stamp(prov: dict) -> str:
    if not prov:
        return "no runs"
    return (f"Generated from the results store; newest run {prov['date']}, commit "
            f"{prov['commit']}, claimbench {prov['claimbench']}, Python {prov['python']}, "
            f"{prov['machine'].split(',')[0]}."
            + (f" Models: {prov['models']}." if prov.get("models") else ""))


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


def tool_missing_note() -> str:
    """Said wherever ``tool_missing`` cells are listed: what it means and how to install."""
    from .tools import INSTALL_COMMAND

    return ("`tool_missing`: an external program the cell runs (Octave, ngspice, a cross "
            f"compiler, qemu-user) was not installed; install them with `{INSTALL_COMMAND}` "
            "(scripts/install-tools.sh, with sudo when not root) and run again: those cells are "
            "retried.")


def _status_text(statuses: dict) -> str:
    return ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))


def leaderboard_md(bench: Benchmark, summ: dict, stamp: str) -> str:
    primary = bench.metric(bench.primary_metric)
    lines = [f"# {md_escape(bench.slug)} — leaderboard", "",
             f"*{md_escape(bench.paper.title)}* · fidelity: **{bench.fidelity}** · "
             f"primary metric: `{bench.primary_metric}` "
             f"({'higher' if primary.higher_is_better else 'lower'} is better)", "",
             "Mean [95% Student-t interval] over seeds (n: the ok cells). Cells that failed, "
             "timed out or do not apply "
             f"are listed with their status. {md_escape(stamp)}", ""]
    if any(e["statuses"].get("tool_missing") for e in summ.values()):
        lines += [tool_missing_note(), ""]
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


HOW_TO_READ = (
    "Each claim is `paper` (the paper states it; its location and number or quoted statement "
    "are given) or `derived` (our derivation or sanity check). Its check runs on the paper "
    "method's results and again with each of its **foils** (baselines or mutants that the "
    "claim's wording says must fail it) in the method's place: if a foil passes, or no foil "
    "could produce the statistic, the claim is `not_discriminating`. The interval shown is the "
    "one the verdict is decided on, at the "
    "claim's Holm-effective level alpha (one Holm family over all the paper's claims; two "
    "one-sided bounds at 1 - alpha each): Hodges-Lehmann shift with its Wilcoxon-inverted "
    "interval for `better`, Student-t intervals for means, ratios, slopes and equivalence, "
    "sign-test intervals for medians; `max`/`min` claims count the runs that violate them. "
    "Rows are aggregated to the unit of replication before any test.")


def _of(counts: dict[str, int], src: str) -> str:
    total = sum(n for k, n in counts.items() if k.startswith(f"{src}:"))
    return f"{counts.get(f'{src}:reproduced', 0)} of {total}"


def verdict_summary(counts: dict[str, int]) -> str:
    """Pre-registered claims first (paper and derived apart); post hoc claims, checks that hold
    by construction and the reasons for not_discriminating after."""
    rest = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts.get(v) and v != "reproduced")
    text = (f"pre-registered paper claims reproduced: {_of(counts, 'paper')}; derived checks "
            f"passed: {_of(counts, 'derived')}")
    built = sum(n for k, n in counts.items() if k.startswith("construction:"))
    if built:
        text += f" ({counts.get('construction:reproduced', 0)} of {built} hold by construction)"
    post = sum(n for k, n in counts.items() if k.startswith("post_hoc:"))
    if post:
        text += f"; post hoc (amended after results were seen, counted apart): {_of(counts, 'post_hoc')}"
    why = ", ".join(f"{n} {k.split(':', 1)[1]}" for k, n in sorted(counts.items())
                    if k.startswith("not_discriminating:"))
    fragile = counts.get("fragile", 0)
    return text + (f"; all claims: {rest}" if rest else "") + (
        f" (not_discriminating: {why})" if why else "") + (
        f"; {fragile} fragile (a re-run moved the verdict)" if fragile else "")


def _foils_md(r: ClaimResult) -> str:
    return r.control


def paper_vs_ours_md(bench: Benchmark, results: list[ClaimResult], stamp: str) -> str:
    from .claims import count_verdicts

    p = bench.paper
    lines = [f"# {md_escape(bench.slug)} — the paper's claims against our runs", "",
             f"**{md_escape(p.title)}**" + (f" ({md_escape(p.authors)})" if p.authors else "")
             + f" · {md_escape(p.venue)}"
             + (f" · [arXiv {p.arxiv}](https://arxiv.org/abs/{p.arxiv})" if p.arxiv else "")
             + (f" · claims read from {md_escape(p.version)}" if p.version else ""), "",
             f"Fidelity: **{bench.fidelity}**"
             + (f" — {md_escape(bench.fidelity_note)}" if bench.fidelity_note else ""), "",
             md_escape(HOW_TO_READ), "",
             "Unit of replication: "
             + (md_escape(", ".join(bench.unit)) + " and seed (rows averaged within a unit)"
                if bench.unit else "one cell (dataset config, seed)") + ".", "",
             md_escape(stamp), ""]
    lines = lines[:2] + headlines_md(bench, results) + lines[2:]
    lines.append(md_escape(verdict_summary(count_verdicts(results))))
    lines.append("")
    header = ["claim", "source", "where", "paper says", "paper's number", "ours [CI]", "n",
              "check", "alpha", "verdict", "why", "foils"]
    body = [[r.claim, (r.source or "—") + (" (by construction)" if r.basis == "construction"
                                           else ""),
             r.where, r.text, r.paper_value or "—", r.ours,
             str(r.n) if r.n else "—",
             "not_run (reason under Details)" if r.kind == "not_run" and not r.threshold
             else f"{r.kind}: {r.threshold}",
             _fmt(r.alpha),
             r.verdict + (f" (post hoc; before: {r.verdict_before or 'not recorded'})"
                          if r.post_hoc else "") + (" (fragile)" if r.fragile else ""),
             "; ".join(x for x in (r.reason, r.fragile) if x) or "—", _foils_md(r)]
            for r in results]
    lines += [md_table(header, body), ""]
    lines += premises_md(bench, results)
    lines += ["## Details", ""]
    for r in results:
        extra = f" p = {r.p_value:.3g}" if r.p_value is not None else ""
        extra += f", Holm-adjusted {r.p_holm:.3g}" if r.p_holm is not None else ""
        foils = "; ".join(f"{f.foil}: {f.verdict}, {f.ours}" + (f" ({f.note}: no evidence)"
                                                                  if f.note else "")
                          for f in r.foils)
        lines.append(f"- **{md_escape(r.claim)}** ({md_escape(r.verdict)}): {md_escape(r.detail)}."
                     f"{md_escape(extra)}" + ("." if extra else "")
                     + (f" Foils: {md_escape(foils)}." if foils else "")
                     + (f" Why these foils: {md_escape(r.foil_note)}" if r.foil_note else "")
                     + (f" Note: {md_escape(r.note)}" if r.note else ""))
    lines += amendments_md(bench)
    return "\n".join(lines) + "\n"


def headlines_md(bench: Benchmark, results: list[ClaimResult]) -> list[str]:
    """The abstract's checkable statements and the claims that check them: what a reader should
    see first, including what was left out."""
    from .claims.coverage import coverage_text, headline_rows

    if not bench.headlines:
        return ["## The abstract's statements", "",
                "Headlines not yet declared for this paper: which of the abstract's statements "
                "the claims below check is not stated.", ""]
    return ["## The abstract's statements", "",
            f"Headlines checked: {coverage_text(bench)} (a not_run claim with its reason counts "
            "as checked).", "",
            md_table(["the abstract says", "claims", "verdicts"], headline_rows(bench, results)),
            ""]


def premises_md(bench: Benchmark, results: list[ClaimResult]) -> list[str]:
    """Positive controls: what the setting must show before its claims can be read."""
    if not bench.premises:
        return []
    seen = {}
    for r in results:
        for g in r.premises:
            seen[g.premise] = g
    gated = {p.id: [r.claim for r in results if any(g.premise == p.id for g in r.premises)]
             for p in bench.premises}
    body = [[p.id, p.text, seen[p.id].ours if p.id in seen else "—",
             seen[p.id].threshold if p.id in seen else "—",
             seen[p.id].verdict if p.id in seen else "—", ", ".join(gated[p.id]) or "—"]
            for p in bench.premises]
    return ["## Premises (positive controls)", "",
            "Judged at the unadjusted level without foils; a claim whose premise is not shown is "
            "`premise_failed`.", "",
            md_table(["premise", "must hold", "ours", "check", "verdict", "gates"], body), ""]


def amendments_md(bench: Benchmark) -> list[str]:
    if not bench.amendments:
        return []
    out = ["", "## Amendments", "",
           "Changes to claims after their report was committed (claims are locked: "
           f"`reports/{bench.slug}/claims.lock.json`).", ""]
    for a in bench.amendments:
        kind = (f"a harness rule applied to every benchmark ({a.rule}): pre-registration kept"
                if a.rule else ("post hoc" if a.results_seen else "before results"))
        out.append(f"- **{md_escape(a.date)}** ({md_escape(', '.join(a.claims))}): "
                   f"{md_escape(a.what)}. Why: {md_escape(a.why)}. Results seen before the "
                   f"change: {'yes' if a.results_seen else 'no'} ({md_escape(kind)}).")
    return out


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


def judge(bench: Benchmark, rows: list[dict], grid: str | None, folder: Path | None = None,
          as_method: str | None = None) -> list[ClaimResult]:
    """The claims judged on one grid's rows (``as_method`` in the subject's place), post hoc
    claims with their verdicts before (from the committed lock in ``folder``, default
    ``reports/<slug>``) and fragile claims marked (``claimbench verify --record``)."""
    from .lock import read_lock, verdicts_before
    from .provenance import ROOT

    from .verify import fragile_claims

    lock = read_lock(folder or ROOT / "reports" / bench.slug)
    results = evaluate_benchmark(bench, rows, grid=grid, as_method=as_method,
                                 before=verdicts_before(bench, lock))
    fragile = fragile_claims(bench)
    for r in results:
        r.fragile = fragile.get(r.claim, "")
    return results


def write_benchmark(bench: Benchmark, store, out: Path) -> tuple[list[Path], tuple]:
    """One benchmark's report files and plots, and its site page's parts."""
    from .plots import plot_benchmark

    grid, rows = grid_rows(bench, store.rows(bench.slug))
    folder = out / bench.slug
    results = judge(bench, rows, grid, folder)
    # refuses, before anything is written, unamended changes
    lock = write_lock(bench, folder, {r.claim: r.verdict for r in results})
    for old in folder.glob("*.png"):
        old.unlink()
    prov = _provenance(store, rows)
    stamp = _stamp(prov)
    summ = summaries(bench, rows)
    files = {
        "leaderboard.md": leaderboard_md(bench, summ, stamp),
        "paper_vs_ours.md": paper_vs_ours_md(bench, results, stamp),
        "table.tex": table_tex(bench, summ),
        "results.csv": results_csv(bench, summ),
    }
    written = [lock]
    for name, text in files.items():
        (folder / name).write_text(text)
        written.append(folder / name)
    plots = plot_benchmark(bench, rows, summ, results, folder)
    written += plots
    return written, (bench, results, summ, [p.name for p in plots], prov, stamp)


class _StoreSnapshot:
    """The rows and runs a report reads, read from the store once before forking: the forked
    report workers must not share the parent's SQLite connection."""

    def __init__(self, store, slugs: list[str]) -> None:
        self._rows = {s: store.rows(s) for s in slugs}
        self._runs = store.runs()

    def rows(self, benchmark: str) -> list[dict]:
        return self._rows[benchmark]

    def runs(self) -> list[dict]:
        return self._runs


_REPORT_JOBS: list = []


def _report_job(i: int) -> tuple[list[Path], tuple]:
    bench, store, out = _REPORT_JOBS[i]
    files, page = write_benchmark(bench, store, out)
    return files, page[1:]  # the Benchmark stays behind: its claims may hold lambdas


def write_benchmarks(benches: list[Benchmark], store, out: Path,
                     processes: int | None = None) -> list[tuple[list[Path], tuple]]:
    """``write_benchmark`` for each benchmark, in forked processes (one per core by default):
    judging and matplotlib's layout and rendering are nearly all of ``claimbench report``'s
    time, and each benchmark's are independent of the others'. Returns, in order, each
    benchmark's files and page parts."""
    global _REPORT_JOBS
    import os

    if processes is None:
        processes = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else (os.cpu_count() or 1)
    processes = max(1, min(processes, len(benches)))
    if processes == 1:
        return [write_benchmark(b, store, out) for b in benches]
    import multiprocessing as mp

    snap = _StoreSnapshot(store, [b.slug for b in benches])
    # inherited by the forked children: nothing but indices and results is pickled
    _REPORT_JOBS = [(b, snap, out) for b in benches]
    try:
        with mp.get_context("fork").Pool(processes) as pool:
            done = pool.map(_report_job, range(len(benches)), chunksize=1)
    finally:
        _REPORT_JOBS = []
    return [(files, (b,) + page) for b, (files, page) in zip(benches, done)]


SUMMARY_COLS = ("not_discriminating", "premise_failed", "inconclusive", "not_reproduced")


def index_md(verdicts: dict[str, dict[str, int]], benches: dict[str, Benchmark]) -> str:
    lines = ["# claimbench reports", "",
             "One row per paper of the suite. Verdict counts come from the committed quick-grid "
             "runs; `make report` regenerates everything here from the results store. Paper "
             "claims (stated by the paper) and derived checks (ours) are counted apart, and "
             "only pre-registered claims count: a claim amended after its results were seen is "
             "counted under post hoc. A claim is reproduced only when a foil was refuted and none "
             "passes (otherwise `not_discriminating`), and only when its premises (positive "
             "controls) hold (otherwise `premise_failed`). Headlines checked: the abstract's "
             "statements mapped to claims.", ""]
    header = (["area", "paper", "slug", "fidelity", "headlines checked",
               "paper claims reproduced", "derived checks passed", "post hoc reproduced"]
              + list(SUMMARY_COLS) + ["other", "report"])
    body = []
    totals: dict[str, int] = defaultdict(int)
    for p in sorted(PAPERS, key=lambda p: (list(AREAS).index(p.area), p.slug)):
        b = benches.get(p.slug)
        if b is None:
            body.append([p.area, p.title, p.slug, "not implemented"]
                        + [""] * (len(header) - 5) + ["—"])
            continue
        if p.slug not in verdicts:
            body.append([p.area, p.title, p.slug, b.fidelity, "no results"]
                        + [""] * (len(header) - 6) + ["—"])
            continue
        v = verdicts.get(p.slug, {})
        for k, n in v.items():
            totals[k] += n

        def frac(src: str) -> str:
            total = sum(n for k, n in v.items() if k.startswith(f"{src}:"))
            return f"{v.get(f'{src}:reproduced', 0)} / {total}"

        other = sum(v.get(k, 0) for k in VERDICTS if k not in SUMMARY_COLS + ("reproduced",))
        from .claims.coverage import coverage_text

        body.append([p.area, p.title, p.slug, b.fidelity, coverage_text(b), frac("paper"),
                     frac("derived"), frac("post_hoc")]
                    + [str(v.get(k, 0)) for k in SUMMARY_COLS] + [str(other)]
                    + [f"[{p.slug}/]({p.slug}/paper_vs_ours.md)"])
    esc = [[md_escape(c) for c in row[:-1]] + [row[-1]] for row in body]
    lines.append(md_table(header, esc, escape=False))
    implemented = sum(1 for p in PAPERS if p.slug in benches)
    from .claims.coverage import coverage

    cov = [coverage(b) for b in benches.values()]
    declared = sum(1 for _, n in cov if n)
    lines += ["", f"{implemented} of {len(PAPERS)} papers implemented. Over all of them: "
              + verdict_summary(dict(totals)) + ". Headlines declared for "
              f"{declared} papers: {sum(k for k, _ in cov)} of {sum(n for _, n in cov)} checked.",
              ""]
    return "\n".join(lines)


def write_reports(benches: list[Benchmark], store, out: Path, full_index: bool = True,
                  all_benches: dict[str, Benchmark] | None = None,
                  jobs: int | None = None) -> list[Path]:
    """Every report of ``benches`` from ``store`` under ``out``, the index and the site; the
    benchmarks are judged and plotted in ``jobs`` processes (default: one per core)."""

    from .errors import UserError
    from .lock import read_lock, unamended

    stored = set(store.benchmarks())
    refused = {b.slug: unamended(b, read_lock(out / b.slug)) for b in benches if b.slug in stored}
    refused = {k: v for k, v in refused.items() if v}
    if refused:  # before anything is written
        raise UserError("claims changed since their report was committed, with no amendment "
                        "naming them: " + "; ".join(f"{k}: {', '.join(v)}"
                                                    for k, v in refused.items())
                        + " (add an Amendment to each benchmark's amendments)")
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    verdicts: dict[str, dict[str, int]] = {}
    pages: dict[str, tuple] = {}
    todo = [b for b in benches if b.slug in stored]
    for b, (files, page) in zip(todo, write_benchmarks(todo, store, out, processes=jobs)):
        written += files
        verdicts[b.slug] = count_verdicts(page[1])
        pages[b.slug] = page
    # The index counts verdicts of every registered benchmark with results, not only these.
    if all_benches is None:
        from . import registry

        all_benches = registry.benchmarks()
    for slug, b in all_benches.items():
        if slug not in verdicts and slug in stored:
            grid, rows = grid_rows(b, store.rows(slug))
            verdicts[slug] = count_verdicts(judge(b, rows, grid, out / slug))
    (out / "README.md").write_text(index_md(verdicts, all_benches))
    written.append(out / "README.md")
    # The site gets a page for every benchmark with results, rebuilt from the store.
    for slug, b in all_benches.items():
        if slug not in pages and slug in stored:
            grid, rows = grid_rows(b, store.rows(slug))
            prov = _provenance(store, rows)
            plots = sorted(p.name for p in (out / slug).glob("*.png"))
            pages[slug] = (b, judge(b, rows, grid, out / slug), summaries(b, rows), plots, prov,
                           _stamp(prov))
    from .site import write_site

    written += write_site(out, pages, all_benches, verdicts)
    return written
