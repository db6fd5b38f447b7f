"""Provenance captured once per run (never per cell): code version, packages, machine."""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable

from . import __version__

PACKAGES = ("numpy", "scipy", "pandas", "torch", "POT", "scikit-learn", "networkx", "matplotlib")
ROOT = Path(__file__).resolve().parents[2]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or platform.machine()


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def package_versions() -> dict[str, str]:
    """Installed versions of PACKAGES. Read from the ``NAME-VERSION.dist-info`` folder names on
    sys.path (one directory listing each, first match wins, as importlib.metadata finds them):
    importlib.metadata itself costs tens of milliseconds of every run's start-up. A package
    found no other way is asked of importlib.metadata."""
    want = {_norm(n): n for n in PACKAGES}
    out: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for d in names:
            if d.endswith(".dist-info"):
                dist, _, version = d[:-len(".dist-info")].partition("-")
                name = want.get(_norm(dist))
                if name and version and name not in out:
                    out[name] = version
    missing = [n for n in PACKAGES if n not in out]
    if missing:
        from importlib import metadata

        for name in missing:
            try:
                out[name] = metadata.version(name)
            except metadata.PackageNotFoundError:
                continue
    return {n: out[n] for n in PACKAGES if n in out}


def platform_string() -> str:
    """``platform.platform()`` without its ``uname -p`` subprocess on Linux, where the processor
    field it would add is the machine or 'unknown' (both left out by platform.platform)."""
    import platform

    if not sys.platform.startswith("linux") or not hasattr(platform, "_platform"):
        return platform.platform()
    u = os.uname()
    lib, version = platform.libc_ver()
    return platform._platform(u.sysname, u.release, u.machine, "with", lib + version)


def _git_state() -> "Callable[[], tuple[str | None, bool | None]]":
    """Start ``git status`` (the commit and whether tracked files changed, in one process) and
    return the function that waits for it, so the rest of :func:`capture` runs meanwhile."""
    try:
        proc = subprocess.Popen(["git", "-C", str(ROOT), "status", "--porcelain=v2", "--branch",
                                 "--untracked-files=no"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return lambda: (None, None)

    def result() -> tuple[str | None, bool | None]:
        try:
            out, _ = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return None, None
        if proc.returncode != 0:
            return None, None
        lines = out.splitlines()
        oid = next((ln.split()[2] for ln in lines if ln.startswith("# branch.oid ")), None)
        if oid is None or not re.fullmatch(r"[0-9a-f]{40,64}", oid):
            return None, None  # no commit yet
        return oid, any(not ln.startswith("#") for ln in lines)

    return result


@lru_cache(maxsize=1)
def capture() -> dict:
    git = _git_state()
    prov = {
        "claimbench": __version__,
        "python": sys.version.split()[0],
        "packages": package_versions(),
        "platform": platform_string(),
        "cpu": cpu_model(),
    }
    commit, dirty = git()
    return {"git_commit": commit, "git_dirty": dirty, **prov}


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
                                "primary_metric", "area", "nondeterministic", "cost_note"})


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
    reads = {id(s): {n.id for n in ast.walk(s)
                     if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} for s in body}
    while True:  # drop module-level names nothing left reads (to a fixpoint)
        # (a statement _live rebuilds is an import, which reads no name)
        used = set().union(*(reads.get(id(s), ()) for s in body))
        keep = [k for k in (_live(s, used) for s in body) if k is not None]
        if len(keep) == len(body) and all(k is s for k, s in zip(keep, body)):
            break  # _live returns a statement it leaves whole as itself
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
        if len(names) == len(stmt.names):
            return stmt
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
