"""External programs (GNU Octave, ngspice, cross compilers, qemu-user) that some benchmarks run.

``require_tool("octave-cli", "octave")`` returns the program's path or raises
:class:`MissingTool` naming the program, the Debian package that provides it and the one command
that installs every such program (``make tools``, i.e. ``scripts/install-tools.sh``, with sudo
when not root; ``make report`` runs it first). A cell that meets a missing tool is stored with
status ``tool_missing`` (never ``error``, never a silent skip) and is retried by the next run;
the run's summary lists the missing programs with that command (:func:`missing_tools_text`).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from typing import Mapping, Sequence

INSTALL_COMMAND = "make tools"


def install_command() -> str:
    """The one command that installs the benchmarks' external programs, with what it runs."""
    script = "./scripts/install-tools.sh"
    runs = script if hasattr(os, "geteuid") and os.geteuid() == 0 else f"sudo {script}"
    return f"{INSTALL_COMMAND} (i.e. {runs})"


class MissingTool(RuntimeError):
    """An external program is not on PATH; ``command`` and ``package`` name it."""

    def __init__(self, command: str, package: str, message: str | None = None) -> None:
        self.command, self.package = command, package
        super().__init__(message or (
            f"{command!r} is not installed (Debian package {package!r}): install the benchmarks' "
            f"external programs with: {install_command()}; then run again"))

    def __reduce__(self):  # picklable with its fields (Dask ships exceptions)
        return (MissingTool, (self.command, self.package, str(self)))


def missing_tool_in(exc: BaseException | None) -> MissingTool | None:
    """The :class:`MissingTool` that ``exc`` is or was raised from (its cause or context chain),
    so that a method that wraps the error still yields ``tool_missing``."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, MissingTool):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def require_tool(command: str, package: str) -> str:
    path = shutil.which(command)
    if path is None:
        raise MissingTool(command, package)
    return path


def run_tool(argv: Sequence[str], package: str, *, timeout: float = 60.0, input: str | None = None,
             cwd: str | None = None) -> subprocess.CompletedProcess:
    """Run ``argv`` (its program checked first) with a timeout; output captured as text."""
    exe = require_tool(argv[0], package)
    return subprocess.run([exe, *argv[1:]], capture_output=True, text=True, timeout=timeout,
                          input=input, cwd=cwd)


def missing_tools_text(missing: Mapping[tuple[str, str], Mapping[str, int]]) -> str:
    """The end-of-run note for cells stored as ``tool_missing``.

    ``missing``: (program, Debian package) -> {benchmark: number of cells}. Empty: ''."""
    if not missing:
        return ""
    total = sum(sum(by.values()) for by in missing.values())
    lines = [f"{total} cell{'s' if total != 1 else ''} stored as tool_missing (an external "
             f"program is not installed; retried by the next run). The first missing program "
             f"each cell met:"]
    for (command, package), by in sorted(missing.items()):
        n = sum(by.values())
        where = ", ".join(f"{k} {b}" for b, k in sorted(by.items()))
        lines.append(f"  {command} (Debian package {package}): {n} cell{'s' if n != 1 else ''}"
                     f" ({where})")
    lines.append(f"Install them with: {install_command()}; then run the same command again.")
    return "\n".join(lines)
