"""PNG plots for a benchmark report (matplotlib, Agg backend)."""
from __future__ import annotations

import math
import re
from collections import defaultdict
from pathlib import Path

import numpy as np

from .api import Benchmark
from .checks import Slope


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:60]


def _spans_decades(vals) -> bool:
    v = np.asarray([x for x in vals if x is not None and x > 0])
    return v.size > 1 and v.size == len(vals) and v.max() / v.min() > 100


def plot_means(bench: Benchmark, summ: dict, folder: Path) -> Path | None:
    plt = _plt()
    metric = bench.primary_metric
    datasets = sorted({d for d, _ in summ})
    methods = sorted({m for _, m in summ})
    if not datasets or not methods:
        return None
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(datasets) + 3), 4.2))
    width = 0.8 / max(1, len(methods))
    all_vals = []
    for j, m in enumerate(methods):
        xs, ys, lo, hi = [], [], [], []
        for i, d in enumerate(datasets):
            e = summ.get((d, m))
            if e is None or e[metric].n == 0:
                continue
            s = e[metric]
            xs.append(i + (j - (len(methods) - 1) / 2) * width)
            ys.append(s.mean)
            # One seed has an unbounded t-interval: draw the point without a bar.
            lo.append(s.mean - s.ci_lo if math.isfinite(s.ci_lo) else 0.0)
            hi.append(s.ci_hi - s.mean if math.isfinite(s.ci_hi) else 0.0)
            all_vals += [s.mean] + ([s.ci_lo] if math.isfinite(s.ci_lo) else [])
        if xs:
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, label=m, ms=4)
    if _spans_decades(all_vals):
        ax.set_yscale("log")
    ax.set_xticks(range(len(datasets)))
    ax.set_xticklabels(datasets, rotation=30, ha="right", fontsize=7)
    ax.set_ylabel(metric)
    ax.set_title(f"{bench.slug}: {metric}, mean and 95% CI over seeds", fontsize=10)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    path = folder / "means.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_traces(bench: Benchmark, rows: list[dict], folder: Path, max_panels: int = 4) -> list[Path]:
    plt = _plt()
    by_name: dict[str, dict] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for r in rows:
        if r["status"] != "ok":
            continue
        for name, tr in (r["traces"] or {}).items():
            by_name[name][r["dataset"]][r["method"]].append(tr)
    paths = []
    for name, per_ds in sorted(by_name.items()):
        datasets = sorted(per_ds)[:max_panels]
        fig, axes = plt.subplots(1, len(datasets), figsize=(4.2 * len(datasets), 3.6), squeeze=False)
        for ax, ds in zip(axes[0], datasets):
            logy = True
            for k, (m, traces) in enumerate(sorted(per_ds[ds].items())):
                color = f"C{k % 10}"
                for t, tr in enumerate(traces):
                    ax.plot(tr["x"], tr["y"], color=color, alpha=0.7, lw=1,
                            label=m if t == 0 else None)
                    logy = logy and all(v > 0 for v in tr["y"])
            if logy:
                ax.set_yscale("log")
            ax.set_title(ds, fontsize=8)
            ax.set_xlabel(_trace_label(per_ds[ds], "xlabel", _x_guess(name)))
        axes[0][0].set_ylabel(_trace_label(per_ds[datasets[0]], "ylabel", name))
        axes[0][0].legend(fontsize=7)
        fig.suptitle(f"{bench.slug}: {name} (each line one seed)", fontsize=10)
        fig.tight_layout()
        path = folder / f"trace_{_safe(name)}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths


def _trace_label(per_method: dict, key: str, default: str) -> str:
    for traces in per_method.values():
        for tr in traces:
            if tr.get(key):
                return tr[key]
    return default


def _x_guess(name: str) -> str:
    """'gap_vs_time' -> 'time'; otherwise the x axis is the trace's own index."""
    return name.split("_vs_", 1)[1] if "_vs_" in name else "step"


def _points(rows: list[dict], method: str, metric: str, x: str, where: dict,
            x_from: str) -> np.ndarray:
    """(k, 2) array of (x, metric) over a method's ok cells in scope."""
    from .claims import _matches

    out = []
    for r in rows:
        if r["method"] != method or r["status"] != "ok" or not _matches(r, dict(where)):
            continue
        params = r["dataset_params" if x_from == "dataset" else "method_params"]
        y = r["metrics"].get(metric)
        if x in params and y is not None:
            out.append((float(params[x]), float(y)))
    return np.array(out).reshape(-1, 2)


def _fit_line(ax, pts: np.ndarray, log_x: bool, log_y: bool, label: str, style: str = "-"):
    x, y = pts.T
    if len(pts) < 2 or (log_x and np.any(x <= 0)) or (log_y and np.any(y <= 0)) \
            or np.unique(x).size < 2:
        return
    tx, ty = (np.log(x) if log_x else x), (np.log(y) if log_y else y)
    slope, icpt = np.polyfit(tx, ty, 1)
    grid = np.linspace(tx.min(), tx.max(), 50)
    fit = icpt + slope * grid
    ax.plot(np.exp(grid) if log_x else grid, np.exp(fit) if log_y else fit, style,
            label=label.format(slope=slope))


def plot_slopes(bench: Benchmark, rows: list[dict], results, folder: Path) -> list[Path]:
    """One figure per slope, slope-difference or growth claim: the method's points and fit,
    the compared series, and the foils beside them (the same fit must fail on them)."""
    from .checks import Growth, SlopeDiff
    from .claims import subject_of

    plt = _plt()
    paths = []
    by_id = {r.claim: r for r in results}
    for claim in bench.claims:
        c = claim.check
        if not isinstance(c, (Slope, SlopeDiff, Growth)):
            continue
        log_x = getattr(c, "log_x", False)
        log_y = getattr(c, "log_y", True)
        pts = _points(rows, c.method, c.metric, c.x, c.where, c.x_from)
        if len(pts) < 2:
            continue
        res = by_id.get(claim.id)
        fig, ax = plt.subplots(figsize=(5, 3.8))
        ax.plot(*pts.T, "o", ms=4, label=c.method)
        if isinstance(c, Growth):
            _fit_line(ax, pts, False, True, "exponential fit (rate {slope:.3g})")
            x, y = pts.T
            if np.all(x > 0) and np.all(y > 0):
                tx, ty = np.log(x), np.log(y)
                k, icpt = np.polyfit(tx, ty, 1)
                grid = np.linspace(x.min(), x.max(), 50)
                ax.plot(grid, np.exp(icpt) * grid ** k, "--", label=f"polynomial fit (x^{k:.3g})")
        else:
            _fit_line(ax, pts, log_x, log_y, "slope {slope:.3g}"
                      + (f" (claim {_fmt_interval(c.lo, c.hi)})" if isinstance(c, Slope) else ""))
        if isinstance(c, SlopeDiff):
            other = c.other or c.method
            scope = c.where if c.other_where is None else c.other_where
            opts = _points(rows, other, c.metric, c.x, scope, c.x_from)
            if len(opts):
                ax.plot(*opts.T, "s", ms=4, label=f"{other} {dict(scope)}")
                _fit_line(ax, opts, log_x, log_y, "slope {slope:.3g}", "--")
        verdicts = {f.foil: f.verdict for f in res.foils} if res else {}
        for foil in claim.foils:
            fp = _points(rows, foil, c.metric, c.x, c.where, c.x_from)
            if len(fp) and foil != subject_of(claim):
                ax.plot(*fp.T, "x", ms=4, alpha=0.7,
                        label=f"foil {foil}: {verdicts.get(foil, '?')}")
        if log_x:
            ax.set_xscale("log")
        if log_y and np.all(pts[:, 1] > 0):
            ax.set_yscale("log")
        ax.set_xlabel(c.x)
        ax.set_ylabel(c.metric)
        ax.set_title(f"{claim.id}: {res.verdict if res else ''}", fontsize=9)
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = folder / f"slope_{_safe(claim.id)}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths


def _fmt_interval(lo: float, hi: float) -> str:
    return f"[{'-inf' if math.isinf(lo) else f'{lo:g}'}, {'inf' if math.isinf(hi) else f'{hi:g}'}]"


def plot_benchmark(bench: Benchmark, rows, summ, results, folder: Path) -> list[Path]:
    out = []
    p = plot_means(bench, summ, folder)
    if p:
        out.append(p)
    out += plot_traces(bench, rows, folder)
    out += plot_slopes(bench, rows, results, folder)
    return out
