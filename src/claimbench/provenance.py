"""Provenance captured once per run (never per cell): code version, packages, machine."""
from __future__ import annotations

import hashlib
import platform
import subprocess
import sys
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from . import __version__

PACKAGES = ("numpy", "scipy", "pandas", "torch", "POT", "scikit-learn", "networkx", "matplotlib")
ROOT = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                             timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def package_versions() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


@lru_cache(maxsize=1)
def capture() -> dict:
    commit = _git("rev-parse", "HEAD")
    dirty = None
    if commit is not None:
        status = _git("status", "--porcelain", "--untracked-files=no")
        dirty = bool(status)
    return {
        "git_commit": commit,
        "git_dirty": dirty,
        "claimbench": __version__,
        "python": sys.version.split()[0],
        "packages": package_versions(),
        "platform": platform.platform(),
        "cpu": cpu_model(),
    }


def file_hash(path: str) -> str:
    st = Path(path).stat()
    return _file_hash(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=None)
def _file_hash(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.blake2b(Path(path).read_bytes(), digest_size=12).hexdigest()


# Keywords of ``Benchmark(...)`` that no cell reads: what the claims say about the results and
# which grids list which cells (a cell's identity already holds its dataset and method configs
# and its replicate), not how a result is made. Editing them (a claim, an amendment, a headline,
# a premise, a grid's seeds) must not re-run a cell; their pre-registration is the lock's
# business (claimbench.lock).
JUDGEMENT_KEYWORDS = frozenset({"claims", "amendments", "headlines", "premises", "paper",
                                "description", "fidelity", "fidelity_note", "grids", "unit",
                                "primary_metric", "area"})


def cell_hash(path: str) -> str:
    """Hash of what a benchmark module gives its cells: the module's syntax tree without
    comments, docstrings, the judgement keywords of its ``Benchmark(...)`` call, and the
    module-level names (assignments, functions, imports) that nothing left uses. Conservative:
    anything a metric or method could read stays in."""
    st = Path(path).stat()
    return _cell_hash(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=None)
def _cell_hash(path: str, mtime_ns: int, size: int) -> str:
    import ast

    try:
        tree = ast.parse(Path(path).read_text())
    except SyntaxError:
        return _file_hash(path, mtime_ns, size)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Benchmark":
            node.keywords = [k for k in node.keywords if k.arg not in JUDGEMENT_KEYWORDS]
    body = [s for s in tree.body if not (isinstance(s, ast.Expr)
                                         and isinstance(s.value, ast.Constant))]
    while True:  # drop module-level names nothing left reads (to a fixpoint)
        used = {n.id for s in body for n in ast.walk(s)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        keep = [k for k in (_live(s, used) for s in body) if k is not None]
        if ast.dump(ast.Module(body=keep, type_ignores=[])) == \
                ast.dump(ast.Module(body=body, type_ignores=[])):
            break
        body = keep
    tree.body = body
    return "ast:" + hashlib.blake2b(ast.dump(tree).encode(), digest_size=12).hexdigest()


def _live(stmt, used: set[str]):
    """``stmt`` without what binds only unused names (None when nothing is left)."""
    import ast

    keep = lambda n: n in used or n == "BENCHMARK"  # noqa: E731
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            return stmt
        names = [a for a in stmt.names
                 if keep((a.asname or a.name).split(".")[0]) or a.name == "*"]
        if not names:
            return None
        out = ast.ImportFrom(stmt.module, names, stmt.level) if isinstance(stmt, ast.ImportFrom) \
            else ast.Import(names)
        return out
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return stmt if keep(stmt.name) or stmt.decorator_list else None
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    else:
        return stmt
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    dead = len(names) == len(targets) and not any(keep(n) for n in names)
    return None if dead else stmt
