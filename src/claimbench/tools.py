"""External programs (GNU Octave, ngspice, cross compilers, qemu-user) that some benchmarks run.

``require_tool("octave-cli", "octave")`` returns the program's path or raises
:class:`MissingTool` naming the Debian package that provides it; ``scripts/install-tools.sh``
(called by ``.ci/run`` and ``make tools``) installs them all. A missing tool inside a cell is
that cell's ``error`` with this message, never a silent skip.
"""
from __future__ import annotations

import shutil
import subprocess
from typing import Sequence


class MissingTool(RuntimeError):
    pass


def require_tool(command: str, package: str) -> str:
    path = shutil.which(command)
    if path is None:
        raise MissingTool(f"{command!r} is not installed: it comes with the Debian package "
                          f"{package!r} (sudo apt-get install {package}, or run "
                          f"scripts/install-tools.sh)")
    return path


def run_tool(argv: Sequence[str], package: str, *, timeout: float = 60.0, input: str | None = None,
             cwd: str | None = None) -> subprocess.CompletedProcess:
    """Run ``argv`` (its program checked first) with a timeout; output captured as text."""
    exe = require_tool(argv[0], package)
    return subprocess.run([exe, *argv[1:]], capture_output=True, text=True, timeout=timeout,
                          input=input, cwd=cwd)
