"""Reports built from a small store: every claim appears, failures are entries, names escaped."""

import pytest

import toybench as tb
from claimbench.api import Claim, cfg
from claimbench.checks import Better, Value
from claimbench.report import write_reports
from claimbench.runner import execute_plan, plan, select_cells

EVIL = "<img src=x onerror=alert(1)>"


class Evil(tb.MeanEstimator):
    name = EVIL


CLAIMS = (Claim("c_better", "Table 1", "mean beats noop", Better("mean", "noop", "abs_error"),
                paper_value="0.0", source="paper", foils=(EVIL,)),
          Claim("c_value", "Fig. 2", "tiny error", Value("mean", "abs_error", hi=1e-9, stat="max"),
                source="derived", foils=("noop",)),
          Claim("c_missing", "Fig. 3", "never run", Value("ghost", "abs_error", hi=1.0),
                source="derived", foils=("noop",)))


def _verdict_cell(pvo: str, claim_id: str) -> list[str]:
    """The cells of a claim's row in paper_vs_ours.md."""
    row = next(l for l in pvo.splitlines()
               if l.startswith(f"| {claim_id.replace('_', chr(92) + '_')} |"))
    return [c.strip() for c in row.strip("|").split(" | ")]


@pytest.fixture
def filled(store):
    bench = tb.make_bench(methods=(cfg(tb.MeanEstimator), cfg(tb.Noop), cfg(Evil),
                                   cfg(tb.Misbehave, how="raise"), cfg(tb.Misbehave, how="hang")),
                          seeds=3, claims=CLAIMS)
    planned = plan(store, {"toy": tb}, select_cells(bench, "quick"), False)
    execute_plan(store, {"toy": bench}, planned, jobs=2, timeout=0.5)
    return bench, store


def test_report_files_claims_and_failures(filled, tmp_path):
    bench, store = filled
    written = write_reports([bench], store, tmp_path, all_benches={"toy": bench})
    folder = tmp_path / "toy"
    names = {p.name for p in written}
    assert {"leaderboard.md", "paper_vs_ours.md", "table.tex", "results.csv", "means.png",
            "trace_err.png", "README.md"} <= names
    pvo = (folder / "paper_vs_ours.md").read_text()
    for c in CLAIMS:
        assert f"| {c.id.replace('_', chr(92) + '_')} |" in pvo
    # Evil is the same estimator as mean under another name: a foil that passes.
    assert "not\\_discriminating" in _verdict_cell(pvo, "c_better")
    assert "not\\_run" in _verdict_cell(pvo, "c_missing")
    assert "paper claims reproduced: 0 of 1; derived checks passed: 1 of 2" in pvo
    lb = (folder / "leaderboard.md").read_text()
    assert "3 error" in lb and "3 timeout" in lb  # failures are entries, not missing rows
    assert EVIL not in lb and "\\<img src=x onerror=alert(1)\\>" in lb
    tex = (folder / "table.tex").read_text()
    assert r"\toprule" in tex and r"\textless{}img" in tex and EVIL not in tex
    index = (tmp_path / "README.md").read_text()
    assert index.count("not implemented") >= 50  # every paper of the suite has a row


def test_report_uses_the_store_only(filled, tmp_path):
    bench, store = filled
    write_reports([bench], store, tmp_path, all_benches={"toy": bench})
    first = (tmp_path / "toy" / "paper_vs_ours.md").read_text()
    write_reports([bench], store, tmp_path, all_benches={"toy": bench})
    assert (tmp_path / "toy" / "paper_vs_ours.md").read_text() == first  # deterministic


def test_locked_claims_need_an_amendment(filled, tmp_path):
    import dataclasses

    from claimbench.api import Amendment
    from claimbench.errors import UserError

    bench, store = filled
    write_reports([bench], store, tmp_path, all_benches={"toy": bench})
    assert (tmp_path / "toy" / "claims.lock.json").exists()
    loosened = dataclasses.replace(CLAIMS[1], check=Value("mean", "abs_error", hi=1.0, stat="max"))
    changed = dataclasses.replace(bench, claims=(CLAIMS[0], loosened, CLAIMS[2]))
    with pytest.raises(UserError, match="c_value"):
        write_reports([changed], store, tmp_path, all_benches={"toy": changed})
    amended = dataclasses.replace(changed, amendments=(Amendment(
        "2026-12-03", ("c_value",), "bound 1e-9 -> 1", "test", results_seen=True),))
    write_reports([amended], store, tmp_path, all_benches={"toy": amended})
    pvo = (tmp_path / "toy" / "paper_vs_ours.md").read_text()
    assert "## Amendments" in pvo and "bound 1e-9 -\\> 1" in pvo


def test_readme_counts_match_the_committed_reports():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    index = (root / "reports" / "README.md").read_text()
    line = next(l for l in index.splitlines() if "Over all of them" in l)
    paper = re.search(r"paper claims reproduced: (\d+) of (\d+)", line).groups()
    derived = re.search(r"derived checks passed: (\d+) of (\d+)", line).groups()
    readme = " ".join((root / "README.md").read_text().split())
    assert f"{paper[0]} of {paper[1]} paper claims reproduced" in readme
    assert f"{derived[0]} of {derived[1]} derived checks passed" in readme
    post = re.search(r"counted apart\): (\d+) of (\d+)", line).groups()
    assert f"{post[0]} of {post[1]} post hoc claims" in readme
    for verdict in ("not_discriminating", "inconclusive", "not_reproduced", "premise_failed"):
        n = re.search(rf"(\d+) {verdict}", line).group(1)
        assert f"{n} claims `{verdict}`" in readme or f"{n} `{verdict}`" in readme, verdict


def test_not_run_rows_point_to_their_reason():
    # A not_run check has no threshold: its row names where the reason is instead of "not_run: ".
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    pages = [p.read_text() for p in (root / "reports").glob("*/paper_vs_ours.md")]
    assert pages and not any("| not\\_run:  |" in t for t in pages)
    assert any("| not\\_run (reason under Details) |" in t for t in pages)


def test_reports_written_in_parallel_equal_serial_ones(filled, tmp_path):
    """`claimbench report` judges and plots benchmarks in forked processes: the same files
    (pages, tables, locks, plots, site), byte for byte, as one process writing them."""
    bench, store = filled
    other = tb.make_bench("toy2", methods=(cfg(tb.MeanEstimator), cfg(tb.Noop)), seeds=3,
                          claims=CLAIMS)
    planned = plan(store, {"toy2": tb}, select_cells(other, "quick"), False)
    execute_plan(store, {"toy2": other}, planned, jobs=1, timeout=5)
    files = {}
    for jobs in (1, 2):
        out = tmp_path / f"j{jobs}"
        written = write_reports([bench, other], store, out,
                                all_benches={"toy": bench, "toy2": other}, jobs=jobs)
        files[jobs] = {p.relative_to(out): p.read_bytes() for p in written if p.is_file()}
    assert any(p.suffix == ".png" for p in files[1])
    assert {"paper_vs_ours.md", "claims.lock.json", "results.csv"} <= {p.name for p in files[1]}
    assert files[1].keys() == files[2].keys()
    differ = [str(p) for p in files[1] if files[1][p] != files[2][p]]
    assert not differ, differ
