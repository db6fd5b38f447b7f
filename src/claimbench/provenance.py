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


# Keywords of ``Benchmark(...)`` that no cell reads: what the claims say about the results, not
# how the results are made. Editing them (a claim, an amendment, a headline, a premise) must not
# re-run a grid; their pre-registration is the lock's business (claimbench.lock).
JUDGEMENT_KEYWORDS = frozenset({"claims", "amendments", "headlines", "premises", "paper",
                                "description", "fidelity", "fidelity_note"})


def cell_hash(path: str) -> str:
    """Hash of what a benchmark module gives its cells: the module's syntax tree without
    comments, docstrings, the judgement keywords of its ``Benchmark(...)`` call, and the
    module-level names that only those keywords used. Conservative: anything a metric, grid or
    method could read stays in."""
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
    while True:  # drop module-level assignments nothing left reads (to a fixpoint)
        used = {n.id for s in body for n in ast.walk(s)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        keep = [s for s in body if not _dead_assignment(s, used)]
        if len(keep) == len(body):
            break
        body = keep
    tree.body = body
    return "ast:" + hashlib.blake2b(ast.dump(tree).encode(), digest_size=12).hexdigest()


def _dead_assignment(stmt, used: set[str]) -> bool:
    import ast

    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    else:
        return False
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    return len(names) == len(targets) and not any(n in used or n == "BENCHMARK" for n in names)
