"""The README's second use: a user's own solver, run on ssn_prm and compared, paired."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REF = f"{ROOT / 'examples' / 'extragradient_solver.py'}:Extragradient"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "claimbench.cli", *args], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)


def test_external_solver_runs_ranks_and_compares(tmp_path):
    store = str(tmp_path / "s.sqlite")
    run = cli("run", "ssn_prm", "--grid", "smoke", "--method", REF, "--store", store, "--jobs", "2")
    assert run.returncode == 0, run.stderr
    assert "no failures" in run.stdout
    cmp = cli("compare", "ssn_prm", "--method", REF, "--against", "prm_plus", "--metric",
              "final_gap", "--store", store)
    assert cmp.returncode == 0, cmp.stderr
    assert "extragradient (external) vs prm_plus on final_gap" in cmp.stdout
    assert "ALL" in cmp.stdout
    rep = cli("report", "ssn_prm", "--store", store, "--out", str(tmp_path / "reports"))
    assert rep.returncode == 0, rep.stderr
    board = (tmp_path / "reports" / "ssn_prm" / "leaderboard.md").read_text()
    assert "extragradient (external)" in board
