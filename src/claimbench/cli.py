"""The ``claimbench`` command line. A user's mistake is one line on stderr and exit code 2."""
from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack
from pathlib import Path

from .errors import UserError, suggest


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UserError(f"{self.prog}: {message}")


def _registry():
    """Every benchmark (imports all their modules: only for commands that need all)."""
    from . import registry

    return registry.benchmarks()


def _slugs() -> list[str]:
    from . import registry

    return registry.slugs()  # the static index: imports no benchmark


def _bench(slug: str):
    """One benchmark, importing its module only."""
    from . import registry

    if slug not in registry.slugs():
        if registry.unindexed(slug):
            raise UserError(f"benchmark {slug!r} is not in the index: run "
                            f"python -m claimbench.registry --write-index")
        raise UserError(f"unknown benchmark {slug!r}: {suggest(slug, registry.slugs())}")
    return registry.benchmark(slug)


def _positive(kind):
    def conv(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {kind.__name__}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be positive")
        return value

    return conv


def _with_model(bench, spec):
    from .models import uses_model, with_model

    if spec and not uses_model(bench):
        raise UserError(f"--model: {bench.slug} has no method with a model field")
    return with_model(bench, spec)


# -- commands -----------------------------------------------------------------------------------
def cmd_list(args) -> int:
    from .index import INDEX  # no benchmark module is imported
    from .papers import AREAS

    if args.area and args.area not in AREAS:
        raise UserError(f"unknown area {args.area!r}: {suggest(args.area, list(AREAS))}")
    rows = [e for e in INDEX if not args.area or e.area == args.area]
    width = max([len(e.slug) for e in rows] + [4])
    for e in sorted(rows, key=lambda e: (e.area, e.slug)):
        print(f"{e.slug:<{width}}  {e.area:<20}  {e.fidelity:<11}  {e.title}")
    return 0


def cmd_show(args) -> int:
    from .describe import describe

    print(describe(_bench(args.slug)))
    return 0


def cmd_run(args) -> int:
    from . import checkpoints, registry
    from .runner import execute_plan, plan, select_cells
    from .store import Store, default_store_path

    if args.all == bool(args.slugs):
        raise UserError("claimbench run: give benchmark slugs or --all (not both)")
    slugs = _slugs() if args.all else args.slugs
    benches = {s: _bench(s) for s in slugs}
    if args.model:
        from .models import uses_model

        without = [s for s in slugs if not uses_model(benches[s])]
        if without and not args.all:
            raise UserError(f"--model: {', '.join(without)} has no method with a model field "
                            f"(benchmarks that take one: "
                            f"{', '.join(b for b, x in _registry().items() if uses_model(x))})")
        if args.all:
            slugs = [s for s in slugs if s not in without]
            benches = {s: benches[s] for s in slugs}
    if len(slugs) > 1:
        from .committed import heaviest_first

        slugs = heaviest_first(slugs)
    cells = []
    for s in slugs:
        cells += select_cells(benches[s], args.grid, methods=args.method or (),
                              datasets=args.dataset or (), seeds=args.seeds, model=args.model)
    modules = {s: registry.module_of(s) for s in slugs}
    store_path = Path(args.store or default_store_path())
    # Trained models live beside the store they were trained for; workers inherit this. An
    # empty $CLAIMBENCH_CHECKPOINTS counts as unset (checkpoint_dir() reads it so), not as a
    # choice that would send another store's models to results/checkpoints.
    if not os.environ.get(checkpoints.ENV_VAR):
        os.environ[checkpoints.ENV_VAR] = str(store_path.parent / "checkpoints")
    with Store(store_path) as store:
        planned = plan(store, modules, cells, args.force)
        if args.explain:
            for p in planned:
                c = p.cell
                print(f"{'run ' if p.run else 'skip'}  {c.slug}  {c.dataset.label}  seed#{c.rep}  "
                      f"{c.method.label}: {p.reason}")
        from .progress import Progress

        n_run = sum(p.run for p in planned)
        title = (f"{', '.join(slugs)} [{args.grid}]" if len(slugs) <= 3
                 else f"{len(slugs)} benchmarks [{args.grid}]")
        with Progress(n_run, title, [p.cell.slug for p in planned if p.run]) as bar:
            summary = execute_plan(store, benches, planned, jobs=args.jobs, timeout=args.timeout,
                                   max_memory_mb=args.max_memory, command=" ".join(sys.argv),
                                   executor=args.executor, scheduler=args.scheduler,
                                   on_result=bar.update)
    fails = ", ".join(f"{n} {k}" for k, n in sorted(summary.failures.items())) or "no failures"
    print(f"{summary.total} cells: {summary.executed} run, {summary.cached} cached; {fails}"
          f" (run {summary.run_id})")
    print("".join(note + "\n" for note in summary.notes()), end="")  # tool_missing: install
    if summary.interrupted:
        print("interrupted: every finished cell is in the store; run the same command to resume",
              file=sys.stderr)
        return 130
    return 0


def readable_store(arg):
    from .committed import readable_store as find

    return find(arg)


def cmd_export(args) -> int:
    from .store import Store

    with Store(readable_store(args.store), readonly=True) as store:
        if args.slug:
            _bench(args.slug)
        df = store.dataframe(args.slug)
    out = args.output or f"results/claimbench.{args.format}"
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    if args.format == "csv":
        df.to_csv(out, index=False)
    else:
        try:
            df.to_parquet(out, index=False)
        except ImportError as exc:
            raise UserError(f"--format parquet needs pyarrow: pip install pyarrow ({exc})") from exc
    print(f"wrote {len(df)} rows to {out}")
    return 0


def cmd_claims(args) -> int:
    from .claims import format_claims
    from .grid import grid_rows
    from .store import Store

    from .claims import resolve_label
    from .report import judge

    slugs = args.slugs or None
    benches = [_bench(s) for s in (slugs or _slugs())]
    if args.as_method and len(benches) != 1:
        raise UserError("claimbench claims --as NAME: give exactly one benchmark slug")
    with Store(readable_store(args.store), readonly=True) as store:
        results = []
        for b in benches:
            b = _with_model(b, args.model)
            grid, rows = grid_rows(b, store.rows(b.slug), args.grid)
            label = resolve_label(rows, args.as_method, b.slug) if args.as_method else None
            results.append(judge(b, rows, grid, as_method=label))
    print(format_claims(results, args.format))
    return 0


def cmd_compare(args) -> int:
    from .claims import compare
    from .grid import grid_rows
    from .store import Store

    bench = _with_model(_bench(args.slug), args.model)
    metric = args.metric or bench.primary_metric
    if metric not in {m.name for m in bench.metrics}:
        raise UserError(f"unknown metric {metric!r} for {bench.slug}: "
                        f"{suggest(metric, [m.name for m in bench.metrics])}")
    with Store(readable_store(args.store), readonly=True) as store:
        rows = grid_rows(bench, store.rows(bench.slug), args.grid)[1]
    print(compare(bench, rows, args.method, args.against, metric))
    return 0


def cmd_import(args) -> int:
    from .importer import import_file
    from .store import Store, default_store_path

    known = set(_slugs())
    with Store(args.store or default_store_path()) as store:
        added, present = import_file(store, Path(args.file), known)
    print(f"imported {added} rows from {args.file} ({present} already in the store)")
    return 0


def cmd_report(args) -> int:
    from .provenance import ROOT
    from .report import write_reports
    from .store import Store

    slugs = args.slugs or _slugs()
    benches = [_bench(s) for s in slugs]
    if args.model:  # another model's results: their own folder, beside the committed reports
        from .models import model_dirname, uses_model
        from .report import write_benchmark

        if not args.slugs:
            raise UserError("claimbench report --model SPEC: give the benchmark slugs")
        out = Path(args.out) / "models" / model_dirname(args.model)
        written = []
        with Store(readable_store(args.store), readonly=True) as store:
            for b in benches:
                if not uses_model(b):
                    raise UserError(f"--model: {b.slug} has no method with a model field")
                written += write_benchmark(_with_model(b, args.model), store, out)[0]
        print(f"wrote {len(written)} files under {out}")
        return 0
    path = readable_store(args.store)
    with Store(path, readonly=True) as store:
        written = write_reports(benches, store, Path(args.out), full_index=not args.slugs,
                                jobs=args.jobs)
        if not args.slugs and Path(args.out).resolve() == (ROOT / "reports").resolve() \
                and path.resolve() != (Path("results") / "committed.sqlite").resolve():
            from .committed import write_committed  # the committed cells, beside the reports

            written += write_committed(store, Path(args.out))
    print(f"wrote {len(written)} files under {args.out}")
    return 0


def cmd_verify(args) -> int:
    from .committed import CELLS, RUNS, build_store
    from .store import Store
    from .verify import format_drift, record_fragile, verify_benchmark

    cells = Path(args.committed) if args.committed else CELLS
    if not cells.exists():
        raise UserError(f"claimbench verify: no committed cells at {cells} (make report writes "
                        "them; or pass --committed FILE.parquet)")
    runs = cells.with_name(RUNS.name)
    path = build_store(cells, runs, Path("results") / f"committed-{cells.stem}.sqlite") \
        if args.committed else build_store()
    drifts, benches, lines = [], {}, []
    if args.from_store and not Path(args.from_store).exists():
        raise UserError(f"claimbench verify --from-store: no store at {args.from_store}")
    with Store(path, readonly=True) as committed, ExitStack() as stack:
        fresh = (stack.enter_context(Store(Path(args.from_store), readonly=True))
                 if args.from_store else None)
        slugs = args.slugs or [s for s in committed.benchmarks() if s in _slugs()]
        for slug in slugs:
            b = benches[slug] = _bench(slug)
            d = verify_benchmark(b, committed, args.sample, args.seed, args.jobs, args.timeout,
                                 args.grid, fresh_store=fresh)
            drifts.append(d)
            lines += format_drift(d)
            print("\n".join(format_drift(d)), flush=True)
    broken = [d.slug for d in drifts if d.broken]
    moved = sum(len(d.moved) for d in drifts)
    lines.append(f"verified {len(drifts)} benchmarks, {sum(d.cells for d in drifts)} cells: "
                 f"{moved} verdicts moved; " + (f"drift in {', '.join(broken)}" if broken
                                                else "everything reproduced"))
    print(lines[-1])
    if args.record:
        from .verify import write_log

        print(f"fragile claims recorded in {record_fragile(drifts, benches)}; the drift in "
              f"{write_log(lines, args)}")
    return 1 if broken else 0


def cmd_serve(args) -> int:
    from .model_server import ModelServer
    from .models import ModelError, load_model

    try:
        model = load_model(args.spec)
        model.identity()
    except ModelError as exc:
        raise UserError(f"serve {args.spec}: {exc}") from None
    server = ModelServer(model, args.name or args.spec, args.host, args.port)
    name = args.name or args.spec
    print(f"serving {args.spec} as model {name!r} at {server.url} "
          f"(use --model 'openai:{server.url}#{name}'); Ctrl-C stops", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


# -- parser -----------------------------------------------------------------------------------
GRID_ROWS_HELP = ("judge the rows of this grid (its declared dataset and method configs, any "
                  "seed); default: the grid with the most stored rows")
MODEL_HELP = ("a model spec put in every method that has a model field: tiny:NAME, hf:DIR, "
              "openai:URL#MODEL or minilm (README: Bring your own model)")
STORE_HELP = "results store (default results/claimbench.sqlite, or $CLAIMBENCH_STORE)"


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="claimbench", description="Reproduce papers' claims with paired statistics.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("list", help="list the benchmarks")
    s.add_argument("--area", help="only this area (e.g. games); see the README for the areas")
    s.set_defaults(fn=cmd_list)

    s = sub.add_parser("show", help="the paper, grids, metrics and claims of one benchmark")
    s.add_argument("slug", help="benchmark slug (claimbench list shows them)")
    s.set_defaults(fn=cmd_show)

    s = sub.add_parser("run", help="run grids; finished cells are cached in the store")
    s.add_argument("slugs", nargs="*", help="benchmark slugs to run")
    s.add_argument("--all", action="store_true", help="run every registered benchmark")
    s.add_argument("--grid", default="quick", choices=("smoke", "quick", "full"),
                   help="smoke (tests, seconds), quick (default, the committed reports) or "
                        "full (the paper's scale)")
    s.add_argument("--method", action="append",
                   help="only this method: a grid label or path/to/file.py:ClassName "
                        "(repeatable)")
    s.add_argument("--dataset", action="append",
                   help="only this dataset (its name or grid label; repeatable)")
    s.add_argument("--seeds", type=_positive(int), help="override the grid's number of seeds")
    s.add_argument("--jobs", "-j", type=_positive(int), default=1,
                   help="worker processes (default 1)")
    s.add_argument("--timeout", type=_positive(float),
                   help="seconds per cell; an overrunning cell is killed and stored as timeout")
    s.add_argument("--max-memory", type=_positive(float),
                   help="MiB per worker; a cell over it is stored as oom")
    s.add_argument("--force", action="store_true", help="re-run cells already in the store")
    s.add_argument("--explain", action="store_true",
                   help="print why each cell runs or is skipped (cached)")
    s.add_argument("--executor", default="local", choices=("local", "inline", "dask"),
                   help="local worker processes (default), inline (this process; debugging) "
                        "or dask")
    s.add_argument("--scheduler", help="tcp://HOST:PORT of a Dask scheduler (with --executor "
                                       "dask; default: a local cluster)")
    s.add_argument("--model", help=MODEL_HELP)
    s.add_argument("--store", help=STORE_HELP)
    s.set_defaults(fn=cmd_run)

    s = sub.add_parser("export", help="write the store's rows to CSV or Parquet")
    s.add_argument("slug", nargs="?", help="only this benchmark (default: all)")
    s.add_argument("--format", default="csv", choices=("csv", "parquet"), help="file format")
    s.add_argument("--output", "-o", help="output file (default results/claimbench.FORMAT)")
    s.add_argument("--store", help=STORE_HELP)
    s.set_defaults(fn=cmd_export)

    s = sub.add_parser("import", help="merge results exported by a colleague (validated first)")
    s.add_argument("file", help="a CSV or Parquet file written by claimbench export")
    s.add_argument("--store", help=STORE_HELP)
    s.set_defaults(fn=cmd_import)

    s = sub.add_parser("claims", help="check every claim (and its foils) against the store")
    s.add_argument("slugs", nargs="*", help="benchmark slugs (default: all)")
    s.add_argument("--as", dest="as_method", metavar="NAME",
                   help="put NAME (a method of the benchmark, or a file.py:Class that has run) "
                        "in the paper method's place in every claim; one slug only")
    s.add_argument("--format", default="table", choices=("table", "json", "md"),
                   help="table (default), json (one object per claim, with its source, foils "
                        "and each foil's verdict) or md")
    s.add_argument("--store", help=STORE_HELP)
    s.add_argument("--grid", choices=("smoke", "quick", "full"), help=GRID_ROWS_HELP)
    s.add_argument("--model", help="judge the rows this model spec produced (" + MODEL_HELP + ")")
    s.set_defaults(fn=cmd_claims)

    s = sub.add_parser("compare", help="paired comparison of two methods")
    s.add_argument("slug", help="benchmark slug")
    s.add_argument("--method", required=True, help="method A: a label or file.py:ClassName")
    s.add_argument("--against", required=True, help="method B: a label or file.py:ClassName")
    s.add_argument("--metric", help="metric to compare (default: the primary metric)")
    s.add_argument("--store", help=STORE_HELP)
    s.add_argument("--grid", choices=("smoke", "quick", "full"), help=GRID_ROWS_HELP)
    s.add_argument("--model", help="compare the rows this model spec produced")
    s.set_defaults(fn=cmd_compare)

    s = sub.add_parser("report", help="rebuild reports/ from the store")
    s.add_argument("slugs", nargs="*", help="benchmark slugs (default: all with results)")
    s.add_argument("--out", default="reports", help="output folder (default reports)")
    s.add_argument("--store", help=STORE_HELP)
    s.add_argument("--model", help="report the rows this model spec produced, under "
                                   "OUT/models/<spec>/ (the committed reports are untouched)")
    s.add_argument("--jobs", "-j", type=_positive(int), default=None,
                   help="processes judging and plotting the benchmarks (default: one per core)")
    s.set_defaults(fn=cmd_report)

    s = sub.add_parser("verify", help="re-run a seeded sample of the committed cells and "
                                      "measure the drift of metrics and verdicts")
    s.add_argument("slugs", nargs="*", help="benchmark slugs (default: every committed one)")
    s.add_argument("--sample", type=_positive(int), default=3,
                   help="cells re-run per benchmark (default 3)")
    s.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    s.add_argument("--grid", default="quick", choices=("smoke", "quick", "full"),
                   help="the grid the committed cells belong to (default quick)")
    s.add_argument("--jobs", "-j", type=_positive(int), default=1,
                   help="worker processes (default 1)")
    s.add_argument("--timeout", type=_positive(float), help="seconds per cell")
    s.add_argument("--committed", help="the committed cells to check against (default "
                                       "reports/cells.parquet)")
    s.add_argument("--record", action="store_true",
                   help="record the claims whose verdict moved in reports/fragile.json")
    s.add_argument("--from-store", metavar="STORE",
                   help="compare the cells of this store (a whole run made afresh) instead of "
                        "re-running the sample")
    s.set_defaults(fn=cmd_verify)

    s = sub.add_parser("serve", help="serve a model over an OpenAI-compatible HTTP API")
    s.add_argument("spec", help="model spec, e.g. tiny:charlm")
    s.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any free)")
    s.add_argument("--name", help="the model name clients send (default: the spec)")
    s.set_defaults(fn=cmd_serve)
    return p


def main(argv: list[str] | None = None) -> int:
    from .store import StoreError

    try:
        args = build_parser().parse_args(argv)
        return args.fn(args)
    except (UserError, StoreError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
