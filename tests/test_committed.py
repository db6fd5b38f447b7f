"""The committed cells (reports/cells.parquet) reproduce the committed reports: on a fresh clone,
with no local store, every claim's verdict in each reports/<slug>/paper_vs_ours.md comes back
exactly from them."""
import re
from pathlib import Path

import pytest

from claimbench import registry
from claimbench.committed import CELLS, RUNS, build_store
from claimbench.grid import grid_rows
from claimbench.report import judge
from claimbench.store import Store

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not CELLS.exists(), reason="no committed cells yet")


def committed_verdicts(slug: str) -> dict[str, str]:
    """claim id -> verdict, read from the claims table of the committed paper_vs_ours.md."""
    out, header = {}, None
    for line in (ROOT / "reports" / slug / "paper_vs_ours.md").read_text().splitlines():
        if line.startswith("| claim |"):
            header = [c.strip() for c in line.strip("|").split("|")]
            continue
        if header and line.startswith("|---"):
            continue
        if header and line.startswith("| "):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            if len(cells) == len(header):
                verdict = cells[header.index("verdict")].replace("\\", "").split(" (")[0]
                out[cells[0].replace("\\", "")] = verdict
        elif header:
            break
    return out


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = build_store(CELLS, RUNS, tmp_path_factory.mktemp("committed") / "c.sqlite")
    with Store(path, readonly=True) as st:
        yield st


@pytest.mark.parametrize("slug", registry.slugs())
def test_committed_cells_reproduce_the_committed_verdicts(store, slug):
    if not (ROOT / "reports" / slug / "paper_vs_ours.md").exists():
        pytest.skip("no committed report")
    bench = registry.benchmark(slug)
    grid, rows = grid_rows(bench, store.rows(slug))
    ours = {r.claim: r.verdict for r in judge(bench, rows, grid)}
    assert ours == committed_verdicts(slug)
