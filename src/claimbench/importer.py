"""``claimbench import FILE``: merge a colleague's exported results, validated before any write.

Accepts the CSV or Parquet written by ``claimbench export``. Every row is checked (columns,
types, statuses, finite metrics, JSON fields, names free of markup, the identity recomputed from
the row's own fields) before the store is touched; one bad value rejects the whole file and the
store is unchanged. Nothing is ever unpickled: CSV is parsed as text, Parquet as columns.
"""
from __future__ import annotations

import json
import math
import re
import time
from pathlib import Path

from .errors import UserError
from .grid import stable_hash, stable_json
from .worker import STATUSES

MAX_BYTES = 64 * 1024 * 1024
MAX_ROWS = 200_000
MAX_NAME = 200
REQUIRED = ("identity", "benchmark", "dataset", "dataset_params", "method", "method_params",
            "rep", "data_seed", "method_seed", "external", "status")
OPTIONAL = ("method_ref", "error", "wall_s", "cpu_s", "peak_mem_mb", "source_hash", "run_id",
            "finished_at", "traces", "file_hashes", "model")
_BAD_NAME = re.compile(r"[<>\x00-\x1f\x7f]|javascript:|&#|&lt;|&gt;", re.IGNORECASE)
_SLUG = re.compile(r"^[a-z0-9_]{1,64}$")


def _read(path: Path):
    import pandas as pd

    if not path.is_file():
        raise UserError(f"import: {path} does not exist")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise UserError(f"import: {path} is {size / 2**20:.0f} MiB, over the "
                        f"{MAX_BYTES // 2**20} MiB limit")
    try:
        if path.suffix == ".parquet":
            df = pd.read_parquet(path)
        elif path.suffix == ".csv":
            df = pd.read_csv(path, dtype=str, keep_default_na=False, nrows=MAX_ROWS + 1)
        else:
            raise UserError(f"import: {path.name}: expected a .csv or .parquet file from "
                            f"`claimbench export`")
    except UserError:
        raise
    except Exception as exc:
        raise UserError(f"import: {path.name} could not be parsed: {type(exc).__name__}: {exc}") from exc
    if len(df) > MAX_ROWS:
        raise UserError(f"import: {path.name} has more than {MAX_ROWS} rows")
    return df


def _name(value, what: str, where: str) -> str:
    s = "" if value is None else str(value)
    if not s or len(s) > MAX_NAME or _BAD_NAME.search(s):
        raise UserError(f"import: {where}: {what} {s[:60]!r} is not a valid name (1-{MAX_NAME} "
                        f"printable characters, no markup)")
    return s


def _number(value, what: str, where: str, integer: bool = False, optional: bool = False):
    if value is None or (isinstance(value, str) and value.strip() == "") or \
            (isinstance(value, float) and math.isnan(value)):
        if optional:
            return None
        raise UserError(f"import: {where}: {what} is missing")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise UserError(f"import: {where}: {what} {str(value)[:40]!r} is not a number") from None
    if not math.isfinite(v):
        raise UserError(f"import: {where}: {what} is {v}, expected a finite number")
    if integer:
        if v != int(v):
            raise UserError(f"import: {where}: {what} {value!r} is not an integer")
        return int(v)
    return v


def _json_obj(value, what: str, where: str) -> dict:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        return {}
    try:
        obj = json.loads(value)
    except (TypeError, ValueError):
        raise UserError(f"import: {where}: {what} is not valid JSON") from None
    if not isinstance(obj, dict):
        raise UserError(f"import: {where}: {what} must be a JSON object")
    return obj


def validate(df, known: set[str] | None = None) -> list[dict]:
    cols = [str(c) for c in df.columns]
    missing = [c for c in REQUIRED if c not in cols]
    if missing:
        raise UserError(f"import: missing columns {missing}; expected the columns written by "
                        f"`claimbench export`")
    metric_cols = [c for c in cols if c.startswith("metric:")]
    unknown = [c for c in cols if c not in REQUIRED and c not in OPTIONAL and c not in metric_cols]
    if unknown:
        raise UserError(f"import: unexpected columns {unknown[:5]}")
    rows = []
    for i, rec in enumerate(df.to_dict("records")):
        where = f"row {i + 2}"
        slug = str(rec["benchmark"])
        if not _SLUG.match(slug):
            raise UserError(f"import: {where}: benchmark {slug[:40]!r} is not a benchmark slug")
        if known is not None and slug not in known:
            raise UserError(f"import: {where}: unknown benchmark {slug!r}")
        status = str(rec["status"])
        if status not in STATUSES:
            raise UserError(f"import: {where}: status {status[:40]!r} not one of {', '.join(STATUSES)}")
        external = str(rec["external"]).strip().lower()
        if external not in ("0", "1", "true", "false", "0.0", "1.0"):
            raise UserError(f"import: {where}: external {external[:10]!r} is not a boolean")
        row = {
            "benchmark": slug,
            "dataset": _name(rec["dataset"], "dataset", where),
            "method": _name(rec["method"], "method", where),
            "dataset_params": _json_obj(rec["dataset_params"], "dataset_params", where),
            "method_params": _json_obj(rec["method_params"], "method_params", where),
            "rep": _number(rec["rep"], "rep", where, integer=True),
            "data_seed": _number(rec["data_seed"], "data_seed", where, integer=True),
            "method_seed": _number(rec["method_seed"], "method_seed", where, integer=True),
            "external": external in ("1", "true", "1.0"),
            "method_ref": str(rec.get("method_ref") or "")[:1000],
            "status": status,
            "error": (str(rec.get("error"))[:20000] if rec.get("error") not in (None, "")
                      and not (isinstance(rec.get("error"), float) and math.isnan(rec["error"]))
                      else None),
            "traces": _json_obj(rec.get("traces"), "traces", where),
            "file_hashes": _json_obj(rec.get("file_hashes"), "file_hashes", where),
            "source_hash": _name(rec.get("source_hash") or "imported", "source_hash", where),
            "run_id": _name(rec.get("run_id") or "imported", "run_id", where),
        }
        for col in ("wall_s", "cpu_s", "peak_mem_mb", "finished_at"):
            row[col] = _number(rec.get(col), col, where, optional=True)
        for k in list(row["dataset_params"]) + list(row["method_params"]):
            _name(k, "parameter name", where)
        metrics = {}
        for c in metric_cols:
            name = _name(c[len("metric:"):], "metric name", where)
            metrics[name] = _number(rec[c], c, where, optional=True)
        row["metrics"] = metrics
        model = rec.get("model")
        has_model = model not in (None, "") and not (isinstance(model, float) and math.isnan(model))
        row["model"] = stable_json(_json_obj(model, "model", where)) if has_model else ""
        parts = (slug, row["dataset"], row["dataset_params"], row["method"],
                 row["method_params"], row["rep"], row["external"])
        identity = stable_hash(*parts, row["model"]) if row["model"] else stable_hash(*parts)
        if str(rec["identity"]) != identity:
            raise UserError(f"import: {where}: identity does not match the row's benchmark, "
                            f"dataset, method, parameters and replicate")
        row["identity"] = identity
        rows.append(row)
    return rows


def import_file(store, path: Path, known: set[str] | None = None) -> tuple[int, int]:
    """Validate everything, then insert rows whose identity the store lacks. Returns
    (added, already present)."""
    rows = validate(_read(path), known)
    present = store.lookup([r["identity"] for r in rows])
    new = [r for r in rows if r["identity"] not in present]
    existing = {r["run_id"] for r in store.runs()}
    for rid in sorted({r["run_id"] for r in new} - existing):
        store.add_run(rid, f"claimbench import {path.name}", {"imported_from": path.name,
                                                               "imported_at": time.time()})
    store.put(new)
    return len(new), len(rows) - len(new)
