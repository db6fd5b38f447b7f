"""The results store: one SQLite file (standard library, WAL mode), one row per cell.

Nothing is pickled: parameters, metrics, traces and provenance are JSON text.
A cell is keyed by its identity (benchmark, dataset and params, method and
params, replicate, external flag); re-running a cell replaces its row, so a
crash or a second writer can never leave two rows for one cell.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterable

SCHEMA_VERSION = 2
ENV_VAR = "CLAIMBENCH_STORE"
APP_ID = 0x434C4D42  # "CLMB": marks a file as a claimbench store

CELL_COLUMNS = (
    "identity", "benchmark", "dataset", "dataset_params", "method", "method_params",
    "rep", "data_seed", "method_seed", "external", "method_ref", "status", "error",
    "metrics", "traces", "wall_s", "cpu_s", "peak_mem_mb", "source_hash", "file_hashes",
    "run_id", "finished_at", "model",
)
JSON_COLUMNS = ("dataset_params", "method_params", "metrics", "traces", "file_hashes")

_DDL = [
    """CREATE TABLE IF NOT EXISTS runs (
        run_id TEXT PRIMARY KEY, started_at REAL, command TEXT, provenance TEXT)""",
    """CREATE TABLE IF NOT EXISTS cells (
        identity TEXT PRIMARY KEY, benchmark TEXT NOT NULL, dataset TEXT NOT NULL,
        dataset_params TEXT NOT NULL, method TEXT NOT NULL, method_params TEXT NOT NULL,
        rep INTEGER NOT NULL, data_seed INTEGER NOT NULL, method_seed INTEGER NOT NULL,
        external INTEGER NOT NULL DEFAULT 0, method_ref TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL, error TEXT, metrics TEXT, traces TEXT,
        wall_s REAL, cpu_s REAL, peak_mem_mb REAL, source_hash TEXT, file_hashes TEXT,
        run_id TEXT REFERENCES runs(run_id), finished_at REAL,
        model TEXT NOT NULL DEFAULT '')""",
    "CREATE INDEX IF NOT EXISTS cells_benchmark ON cells(benchmark)",
]
# Forward migrations: MIGRATIONS[v] takes a store at schema v to v+1.
MIGRATIONS: dict[int, list[str]] = {
    # 2: the model identity (JSON) of a cell whose method has a model (claimbench.models)
    1: ["ALTER TABLE cells ADD COLUMN model TEXT NOT NULL DEFAULT ''"],
}


class StoreError(Exception):
    """A store that cannot be used; the file is left untouched."""


def default_store_path() -> Path:
    return Path(os.environ.get(ENV_VAR) or Path("results") / "claimbench.sqlite")


class Store:
    def __init__(self, path: str | os.PathLike, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        if readonly and not self.path.exists():
            raise StoreError(f"no results store at {self.path}: run `claimbench run` first "
                             f"or pass --store PATH")
        self._check_file()
        if not readonly:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        uri = f"file:{self.path}?mode=ro" if readonly else str(self.path)
        try:
            self.conn = sqlite3.connect(uri, uri=readonly, timeout=60, isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            self._refuse_foreign()
            if not readonly:
                # Only now: switching to WAL rewrites the file header.
                self._set_wal()
                self.conn.execute("PRAGMA synchronous=NORMAL")
            self._init_schema()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a usable claimbench store ({exc}); "
                             f"it was left untouched: move it away or pass --store PATH") from exc

    # -- opening -----------------------------------------------------------------------
    def _set_wal(self, wait_s: float = 60.0) -> None:
        """Switch to WAL. SQLite answers "database is locked" at once (no busy handler) while
        another process is creating the same new store, so wait for it here."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self.conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _check_file(self) -> None:
        """Refuse anything that is not empty, not SQLite, or not ours, before SQLite writes."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with open(self.path, "rb") as fh:
            header = fh.read(100)
        if not header.startswith(b"SQLite format 3\x00"):
            raise StoreError(f"{self.path} is not an SQLite file (corrupt or foreign); "
                             f"it was left untouched: move it away or pass --store PATH")
        app_id = int.from_bytes(header[68:72], "big")
        if app_id not in (0, APP_ID):
            raise StoreError(f"{self.path} is an SQLite file of another application; "
                             f"it was left untouched")

    def _refuse_foreign(self) -> None:
        # One statement, one consistent snapshot: another process may be creating the schema.
        version, tables = self.conn.execute(
            "SELECT (SELECT user_version FROM pragma_user_version), "
            "(SELECT count(*) FROM sqlite_master WHERE type='table')").fetchone()
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} has schema version {version}, newer than this "
                             f"claimbench's {SCHEMA_VERSION}: upgrade claimbench; the file "
                             f"was left untouched")
        if version == 0 and tables:
            raise StoreError(f"{self.path} is an SQLite file with other tables, not a "
                             f"claimbench store; it was left untouched")

    def _init_schema(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} has schema version {version}, newer than this "
                             f"claimbench's {SCHEMA_VERSION}: upgrade claimbench; the file "
                             f"was left untouched")
        if self.readonly:
            if version == 0:
                raise StoreError(f"{self.path} holds no claimbench results")
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                tables = self.conn.execute(
                    "SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
                if tables:
                    raise StoreError(f"{self.path} is an SQLite file with other tables, not a "
                                     f"claimbench store; it was left untouched")
                for stmt in _DDL:
                    self.conn.execute(stmt)
                self.conn.execute(f"PRAGMA application_id={APP_ID}")
            else:
                for v in range(version, SCHEMA_VERSION):
                    for stmt in MIGRATIONS[v]:
                        self.conn.execute(stmt)
            self.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------
    def add_run(self, run_id: str, command: str, provenance: dict) -> None:
        self.conn.execute("INSERT OR REPLACE INTO runs VALUES (?,?,?,?)",
                          (run_id, time.time(), command, json.dumps(provenance)))

    def put(self, rows: Iterable[dict]) -> None:
        """Insert or replace cell rows in one transaction."""
        cols = ",".join(CELL_COLUMNS)
        marks = ",".join("?" * len(CELL_COLUMNS))
        values = [tuple(_encode(c, row.get(c)) for c in CELL_COLUMNS) for row in rows]
        if not values:
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.executemany(f"INSERT OR REPLACE INTO cells ({cols}) VALUES ({marks})", values)
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    # -- reading -----------------------------------------------------------------------
    def lookup(self, identities: list[str]) -> dict[str, tuple[str, str, str]]:
        """identity -> (status, source_hash, file_hashes JSON) for cells already stored."""
        out: dict[str, tuple[str, str, str]] = {}
        for i in range(0, len(identities), 500):
            chunk = identities[i:i + 500]
            q = ("SELECT identity, status, source_hash, file_hashes FROM cells WHERE identity IN "
                 f"({','.join('?' * len(chunk))})")
            for r in self.conn.execute(q, chunk):
                out[r[0]] = (r[1], r[2], r[3])
        return out

    def rows(self, benchmark: str | None = None) -> list[dict]:
        q = "SELECT * FROM cells"
        args: tuple = ()
        if benchmark is not None:
            q += " WHERE benchmark = ?"
            args = (benchmark,)
        q += " ORDER BY benchmark, dataset, rep, method"
        return [_decode(dict(r)) for r in self.conn.execute(q, args)]

    def runs(self) -> list[dict]:
        out = []
        for r in self.conn.execute("SELECT * FROM runs ORDER BY started_at"):
            d = dict(r)
            d["provenance"] = json.loads(d["provenance"] or "{}")
            out.append(d)
        return out

    def benchmarks(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT benchmark FROM cells ORDER BY 1")]

    def dataframe(self, benchmark: str | None = None):
        """One row per cell; metrics expanded into columns named ``metric:<name>``."""
        import pandas as pd

        rows = self.rows(benchmark)
        flat = []
        for r in rows:
            d = {k: v for k, v in r.items() if k != "metrics"}
            for col in ("dataset_params", "method_params", "traces", "file_hashes"):
                d[col] = json.dumps(r[col], sort_keys=True)
            for name, value in (r["metrics"] or {}).items():
                d[f"metric:{name}"] = value
            flat.append(d)
        return pd.DataFrame(flat)


def _encode(col: str, value: Any) -> Any:
    if col in JSON_COLUMNS:
        return json.dumps(value if value is not None else {}, sort_keys=True)
    if col == "external":
        return int(bool(value))
    if col == "model":
        return value or ""
    return value


def _decode(row: dict) -> dict:
    for c in JSON_COLUMNS:
        row[c] = json.loads(row[c]) if row.get(c) else {}
    row["external"] = bool(row["external"])
    return row
