"""External programs on a bare machine (issue 27): with Octave, ngspice, the compilers and qemu
off PATH, the cells of the three benchmarks that run them are stored as ``tool_missing`` with the
command that installs them (never ``error``), retried by the next run, and listed at the end of
the run; ``scripts/install-tools.sh`` uses sudo when not root and says why when it cannot."""
import os
import pickle
import stat
import subprocess
from pathlib import Path

import pytest

from claimbench import registry
from claimbench.runner import execute_plan, plan, select_cells
from claimbench.tools import (INSTALL_COMMAND, MissingTool, missing_tool_in, missing_tools_text,
                              require_tool)

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "install-tools.sh"
TOOL_BENCHES = {"embodiedact": ("octave-cli", "octave"), "analogverifier": ("ngspice", "ngspice"),
                "qm_libbench": ("riscv64-linux-gnu-gcc", "gcc-riscv64-linux-gnu")}


@pytest.fixture
def bare_path(tmp_path, monkeypatch):
    """PATH names one empty folder: none of the benchmarks' programs can be found."""
    empty = tmp_path / "bare-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    # qm_libbench memoises its harness's scores per process: a score computed by an earlier test
    # (with the tools) must not stand in for running them here.
    from claimbench.methods import qm_libbench

    monkeypatch.setattr(qm_libbench, "_MEMO", {})
    return empty


def _run(store, slug, executor="inline", jobs=1, **select):
    bench = registry.benchmarks()[slug]
    planned = plan(store, {slug: registry.module_of(slug)}, select_cells(bench, "smoke", **select),
                   False)
    return planned, execute_plan(store, {slug: bench}, planned, jobs=jobs, timeout=300,
                                 executor=executor)


@pytest.mark.parametrize("slug", sorted(TOOL_BENCHES))
def test_smoke_cells_without_their_tools_are_tool_missing_never_error(slug, store, bare_path):
    command, package = TOOL_BENCHES[slug]
    planned, summary = _run(store, slug)
    rows = store.rows(slug)
    assert len(rows) == summary.total == len(planned) > 0
    statuses = {r["status"] for r in rows}
    assert "error" not in statuses, [(r["method"], (r["error"] or "")[-300:]) for r in rows
                                     if r["status"] == "error"]
    assert statuses <= {"tool_missing", "ok", "not_applicable"}, statuses
    missing = [r for r in rows if r["status"] == "tool_missing"]
    # Every cell that runs the program stops at it (qm_libbench's language-model cell gets an
    # empty patch from the tiny model and never reaches the compiler).
    assert len(missing) >= len(rows) - 1 and missing
    for r in missing:
        assert r["error"].startswith("MissingTool: ")
        assert repr(command) in r["error"] and repr(package) in r["error"]
        assert INSTALL_COMMAND in r["error"] and "install-tools.sh" in r["error"]
        assert r["metrics"] == {}
    assert "error" not in summary.failures
    assert summary.failures["tool_missing"] == len(missing)
    assert summary.missing_tools == {(command, package): {slug: len(missing)}}
    (note,) = summary.notes()
    assert f"{command} (Debian package {package})" in note and slug in note
    assert f"Install them with: {INSTALL_COMMAND}" in note
    # Not a property of the code: the next run retries every one of them.
    again = plan(store, {slug: registry.module_of(slug)},
                 select_cells(registry.benchmarks()[slug], "smoke"), False)
    retried = {p.cell.identity for p in again if p.run}
    assert retried == {r["identity"] for r in missing}
    assert all("previous status tool_missing is retried" in p.reason for p in again if p.run)


def test_forked_workers_report_the_missing_tool(store, bare_path):
    """The local executor's forked workers carry the tool back to the summary."""
    _, summary = _run(store, "analogverifier", executor="local", jobs=2,
                      methods=("direct_generation",))
    assert summary.executed > 0 and set(summary.failures) == {"tool_missing"}
    assert summary.missing_tools == {("ngspice", "ngspice"): {"analogverifier": summary.executed}}


def test_the_run_command_ends_with_the_missing_tools(store, bare_path, capsys):
    from claimbench.cli import main

    rc = main(["run", "embodiedact", "--grid", "smoke", "--method", "embodiedact",
               "--executor", "inline", "--store", str(store.path)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "tool_missing" in out and "error" not in out.split("(run ")[0]
    assert out.rstrip().splitlines()[-1].startswith(f"Install them with: {INSTALL_COMMAND}")
    assert "octave-cli (Debian package octave)" in out
    # The leaderboards (Markdown and site) list those cells and say how to install the tools.
    from claimbench.report import leaderboard_md, summaries
    from claimbench.site import _leaderboards

    bench = registry.benchmarks()["embodiedact"]
    summ = summaries(bench, store.rows("embodiedact"))
    md = leaderboard_md(bench, summ, "")
    assert "tool_missing" in md and f"`{INSTALL_COMMAND}`" in md
    assert f"with {INSTALL_COMMAND} (scripts/install-tools.sh" in _leaderboards(bench, summ)


def test_missing_tools_text():
    assert missing_tools_text({}) == ""
    text = missing_tools_text({("ngspice", "ngspice"): {"analogverifier": 14},
                               ("octave-cli", "octave"): {"embodiedact": 9},
                               ("qemu-riscv64", "qemu-user"): {"qm_libbench": 1, "other": 2}})
    lines = text.splitlines()
    assert lines[0].startswith("26 cells stored as tool_missing")
    assert "retried by the next run" in lines[0]
    assert lines[1:4] == ["  ngspice (Debian package ngspice): 14 cells (14 analogverifier)",
                          "  octave-cli (Debian package octave): 9 cells (9 embodiedact)",
                          "  qemu-riscv64 (Debian package qemu-user): 3 cells "
                          "(2 other, 1 qm_libbench)"]
    sudo = "" if os.geteuid() == 0 else "sudo "
    assert lines[4] == (f"Install them with: make tools (i.e. {sudo}./scripts/install-tools.sh); "
                        f"then run the same command again.")
    one = missing_tools_text({("ngspice", "ngspice"): {"analogverifier": 1}})
    assert one.startswith("1 cell stored as tool_missing") and "1 cell (1 analogverifier)" in one


def test_missing_tool_is_found_through_a_wrapping_error_and_pickles(bare_path):
    with pytest.raises(MissingTool) as info:
        require_tool("ngspice", "ngspice")
    exc = info.value
    assert (exc.command, exc.package) == ("ngspice", "ngspice")
    back = pickle.loads(pickle.dumps(exc))
    assert (back.command, back.package, str(back)) == ("ngspice", "ngspice", str(exc))
    try:
        try:
            require_tool("octave-cli", "octave")
        except RuntimeError as inner:
            raise ValueError("the simulation failed") from inner
    except ValueError as outer:
        assert missing_tool_in(outer).command == "octave-cli"
    assert missing_tool_in(ValueError("unrelated")) is None


# -- scripts/install-tools.sh, with fake id/sudo/apt-get: nothing is ever installed ---------------
def _fake_bin(folder: Path, uid: int, sudo: bool, apt: bool, log: Path) -> Path:
    folder.mkdir()
    progs = {"id": f'[ "$1" = "-u" ] && echo {uid}\n',
             "env": 'while [ "${1#*=}" != "$1" ]; do shift; done\n"$@"\n'}
    if apt:
        progs["apt-get"] = f'echo "apt-get $*" >> {log}\n'
    if sudo:
        progs["sudo"] = f'[ "$1" = "-n" ] && exit 0\necho "sudo $*" >> {log}\n"$@"\n'
    for name, body in progs.items():
        path = folder / name
        path.write_text(f"#!/bin/bash\n{body}")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return folder


def _script(bin_dir: Path, *args):
    return subprocess.run(["/bin/bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env={"PATH": str(bin_dir), "HOME": str(bin_dir)}, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("uid, sudo", [(1000, True), (0, False)])
def test_install_script_installs_what_is_missing(tmp_path, uid, sudo):
    log = tmp_path / "log"
    p = _script(_fake_bin(tmp_path / "bin", uid, sudo, True, log))
    assert p.returncode == 0, p.stderr
    calls = log.read_text().splitlines()
    wanted = ["octave", "ngspice", "qemu-user", "gcc", "libc6-dev", "gcc-riscv64-linux-gnu",
              "libc6-dev-riscv64-cross", "gcc-aarch64-linux-gnu", "libc6-dev-arm64-cross"]
    installs = [c for c in calls if c.startswith("apt-get") and " install " in c]
    assert len(installs) == 1 and installs[0].split()[-len(wanted):] == wanted
    assert any(c.startswith("sudo ") for c in calls) == sudo


def test_install_script_says_why_it_cannot(tmp_path):
    log = tmp_path / "log"
    no_sudo = _script(_fake_bin(tmp_path / "a", 1000, False, True, log))
    assert no_sudo.returncode == 1
    assert "not root and sudo is not installed" in no_sudo.stderr
    assert "tool_missing" in no_sudo.stderr
    no_apt = _script(_fake_bin(tmp_path / "b", 0, False, False, log))
    assert no_apt.returncode == 1 and "apt-get not found" in no_apt.stderr
    check = _script(_fake_bin(tmp_path / "c", 0, False, True, log), "--check")
    assert check.returncode == 1 and "octave" in check.stdout
    assert not log.exists()  # nothing was run
