"""Contract tests generated over the registry: every benchmark's smoke grid runs, every claim
names an existing method, dataset and metric, and content modules import only light packages."""
import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from claimbench import registry
from claimbench.api import FIDELITIES, SOURCES, Benchmark
from claimbench.checks import NotRun, methods_named
from claimbench.claims import design, evaluate_benchmark, subject_of
from claimbench.lock import LOCK_NAME, read_lock, unamended
from claimbench.papers import AREAS, BY_SLUG
from claimbench.runner import execute_plan, plan, select_cells

ROOT = Path(__file__).resolve().parents[1]
BENCHES = registry.benchmarks()
SLUGS = sorted(BENCHES)
LIGHT = {"numpy", "claimbench", "__future__"} | set(sys.stdlib_module_names)


@pytest.mark.parametrize("slug", SLUGS)
def test_declaration(slug):
    b: Benchmark = BENCHES[slug]
    assert slug in BY_SLUG and b.area == BY_SLUG[slug].area and b.area in AREAS
    assert b.fidelity in FIDELITIES
    assert b.claims and b.paper.title
    for name in ("smoke", "quick", "full"):
        g = b.grids[name]
        labels = {c.label for c in b.method_configs(g)}
        assert len(labels) == len(b.method_configs(g)), f"{name}: duplicate method labels"
    quick = b.grids["quick"]
    labels = {c.label for c in b.method_configs(quick)}
    dataset_params = set().union(*(c.params for c in quick.datasets))
    dataset_names = {c.cls.name for c in quick.datasets} | {c.label for c in quick.datasets}
    metrics = {m.name for m in b.metrics}
    for claim in b.claims:
        c = claim.check
        assert claim.where, claim.id
        for m in methods_named(c):
            assert m in labels, f"{claim.id}: method {m!r} is not in the quick grid {sorted(labels)}"
        if isinstance(c, NotRun):
            continue  # nothing is measured: no metric, no scope
        assert c.metric in metrics, f"{claim.id}: metric {c.metric!r} unknown"
        scopes = {**c.where, **(getattr(c, "other_where", None) or {})}
        for key, want in scopes.items():
            if key == "dataset":
                wants = want if isinstance(want, (tuple, list)) else (want,)
                assert set(wants) <= dataset_names, f"{claim.id}: dataset {want!r} unknown"
            else:
                assert key in dataset_params, f"{claim.id}: where key {key!r} not a dataset param"
    ids = [c.id for c in b.claims]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("slug", SLUGS)
def test_every_claim_has_a_source_and_foils_in_every_grid(slug):
    b: Benchmark = BENCHES[slug]
    grids = {g: {c.label for c in b.method_configs(b.grids[g])} for g in ("smoke", "quick", "full")}
    for claim in b.claims:
        assert claim.source in SOURCES, f"{claim.id}: source {claim.source!r} not in {SOURCES}"
        if claim.source == "paper":
            assert claim.paper_value, f"{claim.id}: a paper claim quotes the paper's number"
        assert not re.search(r"\b(ours|our (evaluation|run|fit))\b", claim.paper_value, re.I), \
            f"{claim.id}: paper_value holds our own values: {claim.paper_value!r}"
        subject = subject_of(claim)
        if isinstance(claim.check, NotRun):
            assert claim.check.reason and not claim.foils, f"{claim.id}: not_run needs a reason, no foils"
            continue
        for g, labels in grids.items():
            assert subject in labels, f"{claim.id}: subject {subject!r} not in the {g} grid"
            for f in claim.foils:
                assert f != subject and f in labels, \
                    f"{claim.id}: foil {f!r} not in the {g} grid {sorted(labels)}"


@pytest.mark.parametrize("slug", SLUGS)
def test_foils_can_be_foils(slug):
    """No foil the check already names in another role (it would compare with itself), and no
    mutant whose class and parameters equal the subject's."""
    b = BENCHES[slug]
    for claim in b.claims:
        assert not design.role_conflicts(claim), (
            f"{claim.id}: foils {design.role_conflicts(claim)} are already named by the check in "
            "another role (Y against Y): name the foil its wording calls for, or none")
        assert not design.equal_mutants(b, claim), (
            f"{claim.id}: foils {design.equal_mutants(b, claim)} equal the subject's config")


@pytest.mark.parametrize("slug", SLUGS)
def test_claims_in_the_abstract_are_the_papers(slug):
    """A claim placed in the abstract is source='paper' (or ours by construction)."""
    b = BENCHES[slug]
    bad = [c.id for c in b.claims if design.misplaced(c)]
    assert not bad, f"{bad}: placed in the abstract, so source='paper' (or basis='construction')"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_statistical_claim_can_be_decided_on_the_quick_grid(slug):
    """The smallest p-value the quick grid's units allow reaches the claim's worst-case Holm
    level; otherwise enlarge the grid, decide it on full only (Claim.grids) or make it Exact."""
    bad = design.undecidable(BENCHES[slug])
    assert not bad, "; ".join(f"{cid}: p >= {floor:.3g} at best, Holm level {level:.3g}"
                              for cid, floor, level in bad)


@pytest.mark.parametrize("slug", SLUGS)
def test_premises_and_headlines_are_well_formed(slug):
    b = BENCHES[slug]
    metrics = {m.name for m in b.metrics}
    labels = {c.label for c in b.method_configs(b.grids["quick"])}
    for p in b.premises:
        assert not isinstance(p.check, NotRun), f"premise {p.id}: a premise must be checkable"
        assert p.check.metric in metrics, f"premise {p.id}: metric {p.check.metric!r} unknown"
        for m in methods_named(p.check):
            assert m in labels, f"premise {p.id}: method {m!r} not in the quick grid"
    for h in b.headlines:
        assert len(h.quote) >= 8, f"headline {h.quote!r}: quote the abstract's words"


@pytest.mark.parametrize("slug", SLUGS)
def test_committed_claims_are_locked_or_amended(slug):
    folder = ROOT / "reports" / slug
    if not (folder / "paper_vs_ours.md").exists():
        pytest.skip("no committed report yet")
    lock = read_lock(folder)
    assert lock is not None, f"reports/{slug} has no {LOCK_NAME}: run claimbench report"
    assert unamended(BENCHES[slug], lock) == [], (
        "claims changed since the committed report without an Amendment naming them")


@pytest.mark.parametrize("slug", SLUGS)
def test_smoke_grid_runs(slug, store):
    b = BENCHES[slug]
    planned = plan(store, {slug: registry.module_of(slug)}, select_cells(b, "smoke"), False)
    summary = execute_plan(store, {slug: b}, planned, jobs=2, timeout=180)
    rows = store.rows(slug)
    assert len(rows) == summary.total > 0
    bad = [(r["method"], r["dataset"], r["status"], (r["error"] or "")[-300:]) for r in rows
           if r["status"] not in ("ok", "not_applicable")]
    assert not bad, bad
    # The claims run on the smoke cells, with their foils: at least one foil ran and failed a
    # claim with an outcome of its own (not the subject's numbers under another name).
    results = evaluate_benchmark(b, rows)
    if not any(c.foils for c in b.claims):  # no foil anywhere: nothing can be reproduced
        assert not any(r.verdict == "reproduced" for r in results)
        return
    ran = [(r.claim, f) for r in results for f in r.foils if f.verdict not in ("not_run", "error")]
    assert ran, f"no foil of {slug} could be evaluated on the smoke grid"
    failing = [(c, f.foil) for c, f in ran if f.verdict != "reproduced"
               and f.ours != next(r.ours for r in results if r.claim == c)]
    # Every foil passing is a finding about the benchmark (its foils do not discriminate), not a
    # broken harness; what must hold is rule 1: then no claim is reproduced.
    assert failing or not any(r.verdict == "reproduced" for r in results), \
        f"every foil of {slug} passes its claims on the smoke grid, yet a claim is reproduced"


def _content_files():
    for folder in ("methods", "baselines", "datasets", "benchmarks"):
        yield from sorted((ROOT / folder).glob("*.py"))


@pytest.mark.parametrize("path", list(_content_files()), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_content_modules_import_only_light_packages_at_top_level(path):
    tree = ast.parse(path.read_text())
    for node in tree.body:
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module]
        for n in names:
            assert n.split(".")[0] in LIGHT, f"{path.name}: top-level import of {n}"


def test_loading_the_registry_imports_no_heavy_package():
    code = ("import sys; from claimbench import registry; registry.benchmarks();"
            "print([m for m in ('torch','scipy','pandas','matplotlib','sklearn','ot','rich')"
            " if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


@pytest.mark.parametrize("slug", SLUGS)
def test_paper_claims_in_the_abstract_quote_it(slug):
    """Every paper claim placed in the abstract quotes the ICML abstract's words verbatim (and
    headlines are its words)."""
    from claimbench.quotes import misquoted

    bad = misquoted(BENCHES[slug])
    assert not bad, "; ".join(f"{cid}: {why}" for cid, why in bad)
