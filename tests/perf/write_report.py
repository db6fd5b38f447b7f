"""Write reports/performance.md from the newest pytest-benchmark JSON (results/perf.json)."""
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(path: str = "results/perf.json") -> None:
    data = json.loads((ROOT / path).read_text())
    rows = []
    for b in data["benchmarks"]:
        info, st = b["extra_info"], b["stats"]
        name = b["name"]
        if "per_cell_ms" in info:
            value, target, ok = info["per_cell_ms"], info["target_ms"], info["per_cell_ms"] <= info["target_ms"]
            rows.append((name, f"{value:.3f} ms/cell", f"<= {target} ms/cell", ok))
        elif "speedup" in info:
            value, target = info["speedup"], info["target_speedup"]
            rows.append((name, f"{value:.2f}x (runs: {', '.join(f'{s:.2f}' for s in info['speedups'])})",
                         f">= {target}x", value >= target))
        elif "tokens_per_s" in info:
            rows.append((name, f"{info['tokens_per_s']:,.0f} tokens/s ({info['setting']})",
                         "reported", True))
        elif "target_s" in info:
            rows.append((name, f"{st['median']:.3f} s (median of {st['rounds']})",
                         f"<= {info['target_s']} s", st["median"] <= info["target_s"]))
    machine = data.get("machine_info", {})
    lines = ["# Harness performance", "",
             f"Measured by `make perf` (pytest-benchmark, tests/perf/) on "
             f"{machine.get('cpu', {}).get('brand_raw', platform.processor())}, "
             f"{machine.get('cpu', {}).get('count', '?')} cores, Python {platform.python_version()}, "
             f"{time.strftime('%Y-%m-%d', time.gmtime())}. Targets from issue 27 (a harness whose "
             f"cost does not grow with the number of papers; issue 2's were a tenth of benchopt "
             f"1.10's overhead on the same machine).", "",
             "| benchmark | measured | target | met |", "|---|---|---|---|"]
    lines += [f"| {n} | {v} | {t} | {'yes' if ok else '**no**'} |" for n, v, t, ok in rows]
    lines += ["", "Notes:",
              "- overhead per executed cell: a no-op method over 200 cells with one worker process; "
              "includes planning, dispatch over the pipe, measurement and one SQLite commit per cell.",
              "- `_external_cell`: the same with the method brought in as `--method file.py:Class`, "
              "every benchmark module of the suite loaded in the coordinator.",
              "- `list` reads the static index (src/claimbench/index.py) and imports no benchmark "
              "module; `run SLUG` imports that benchmark's modules only.",
              "- start-up to the first cell: a whole `claimbench run` of one cheap numpy-only cell "
              "in a fresh process (an upper bound).",
              "- speed-ups: the same grid with `--jobs 1` then `--jobs 2`, median of three pairs.",
              "- tiny-transformer throughput: training steps of the shared LM toolkit "
              "(forward, backward, AdamW) on character-level text, median of three rounds of "
              "40 steps; the rate the tiny-LM benchmarks' budgets are planned with.",
              "- `_from_wheel`: the same commands with the project installed from a built wheel "
              "instead of the editable install that `make` sets up.",
              "- start-up and `list` run with bytecode caches (one warm-up round, "
              "PYTHONDONTWRITEBYTECODE unset), as users meet them.", ""]
    lines += cpu_section()
    out = ROOT / "reports" / "performance.md"
    out.write_text("\n".join(lines))
    print(f"wrote {out}")


def cpu_section(store: str = "results/claimbench.sqlite", top: int = 25) -> list[str]:
    """Where the CPU of the quick suite goes: process CPU seconds of every stored quick-grid
    cell (the worker's own measurement, independent of the machine's load), by benchmark and by
    method, and the wall time of the run that made them."""

    path = ROOT / store
    if not path.exists():
        return ["## Where the CPU of the quick suite goes", "",
                f"No results store at {store}: run `make report` first.", ""]
    sys.path.insert(0, str(ROOT / "src"))
    from claimbench import budget, registry
    from claimbench.grid import grid_rows
    from claimbench.store import Store

    by_bench, by_method = {}, {}
    with Store(path, readonly=True) as st:
        runs = {r["run_id"]: r for r in st.runs()}
        last: dict[str, float] = {}  # run id -> when its last reported cell finished
        for slug in st.benchmarks():
            if slug not in registry.slugs():
                continue
            rows = grid_rows(registry.benchmark(slug), st.rows(slug), "quick")[1]
            for r in rows:
                cpu = r.get("cpu_s") or 0.0
                by_bench[slug] = by_bench.get(slug, 0.0) + cpu
                key = (slug, r["method"])
                by_method[key] = by_method.get(key, 0.0) + cpu
                last[r["run_id"]] = max(last.get(r["run_id"], 0.0), r.get("finished_at") or 0.0)
    total = sum(by_bench.values())
    share = budget.share_cpu_s(len(registry.slugs()))
    # a store re-run in parts (a few benchmarks after a change) holds cells of several runs:
    # each run's own span, from its start to its last reported cell, not the hours between runs
    spans = [end - runs[i]["started_at"] for i, end in last.items() if i in runs]
    wall = sum(spans)
    lines = ["## Where the CPU of the quick suite goes", "",
             f"Process CPU time of the {sum(1 for _ in by_bench)} benchmarks' quick-grid cells in "
             f"`{store}`: **{total / 60:.1f} CPU-minutes** in all; the {len(spans)} run"
             f"{'s' if len(spans) != 1 else ''} that made them took {wall / 60:.1f} minutes of "
             "wall time, each from its start to its last cell "
             "(with `--jobs 2`; a shared checkpoint trained once is charged to the cell that "
             "trained it, so a cell whose model was already cached shows only its evaluation).",
             "",
             f"The budget (claimbench.budget): the quick suite fits {budget.SUITE_WALL_S // 60} "
             f"minutes on {budget.SUITE_CORES} cores, {budget.SUITE_WALL_S * budget.SUITE_CORES / 60:.0f} "
             f"CPU-minutes, an even share of {share / 60:.2f} CPU-minutes for each of the "
             f"{len(registry.slugs())} benchmarks; one over its share says why (its `cost_note`).",
             "", "| benchmark | CPU-minutes | share | over its share: why (cost_note) |",
             "|---|---|---|---|"]
    for slug, cpu in sorted(by_bench.items(), key=lambda kv: -kv[1]):
        why = ""
        if cpu > share:
            why = (registry.benchmark(slug).cost_note or "(none declared)").replace("|", "\\|")
        lines.append(f"| {slug} | {cpu / 60:.2f} | {100 * cpu / total:.1f} % | {why} |")
    lines += ["", f"The {top} most expensive methods, with the claims and premises that read "
              "their cells (none: the tables only):", "",
              "| benchmark | method | CPU-minutes | read by |", "|---|---|---|---|"]
    readers: dict = {}  # slug -> budget.readers, once per benchmark
    for (slug, m), cpu in sorted(by_method.items(), key=lambda kv: -kv[1])[:top]:
        if slug not in readers:
            readers[slug] = budget.readers(registry.benchmark(slug))
        who = readers[slug].get(m, [])
        lines.append(f"| {slug} | {m} | {cpu / 60:.2f} | {', '.join(who) or 'none'} |")
    return lines + [""]


if __name__ == "__main__":
    main(*sys.argv[1:])
