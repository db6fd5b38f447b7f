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
