"""The quick suite's CPU budget: a benchmark over its share says why (brief: 30 minutes on
2 cores; a benchmark that needs more says why), and saying why keys no cell."""
import re

import pytest

from claimbench import budget, registry
from claimbench.provenance import cell_hash


def test_share_splits_the_suite_budget_evenly():
    assert budget.share_cpu_s(1) == 30 * 60 * 2
    assert budget.share_cpu_s(60) == pytest.approx(60.0)
    with pytest.raises(ValueError, match="n_benchmarks=0"):
        budget.share_cpu_s(0)


def test_over_share_lists_only_the_benchmarks_above_it():
    cpu = {"a": 10.0, "b": 1900.0, "c": 1800.0}  # share of 2 benchmarks: 1800 CPU-s
    assert budget.over_share(["a", "b"], cpu) == {"b": 1900.0}
    assert budget.over_share(["a", "c"], cpu) == {}  # at the share is not over it


@pytest.mark.parametrize("slug", sorted(budget.over_share(registry.slugs(), budget.committed_cpu_s())))
def test_a_benchmark_over_its_share_says_why(slug):
    bench = registry.benchmark(slug)
    assert bench.cost_note.strip(), (
        f"{slug}: its committed quick cells took {budget.committed_cpu_s()[slug] / 60:.2f} "
        f"CPU-minutes, over the share of {budget.share_cpu_s(len(registry.slugs())) / 60:.2f}; "
        "declare cost_note= (the claims that read the expensive cells and why less would not do)")
    ids = {c.id for c in bench.claims} | {p.id for p in bench.premises}
    named = set(re.findall(r"[A-Za-z0-9_]+", bench.cost_note)) & ids
    assert named, f"{slug}: cost_note names none of its claims or premises {sorted(ids)}"


def test_cost_note_keys_no_cell(tmp_path):
    body = "from claimbench.api import Benchmark\nB = Benchmark(slug='x', {}paper=None)\n"
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text(body.format(""))
    b.write_text(body.format("cost_note='training 8 models: c1 reads them', "))
    assert cell_hash(str(a)) == cell_hash(str(b))


def test_readers_name_the_claims_that_read_a_method():
    bench = registry.benchmark("mp_moe")
    who = budget.readers(bench)
    assert "c8_greedy_approximation" in who["mp_moe[mutant=identity_sigma]"]
    assert all(set(v) <= {c.id for c in bench.claims} | {p.id for p in bench.premises}
               for v in who.values())


def test_readers_skip_claims_judged_on_other_grids_only():
    bench = registry.benchmark("gcf_layer")
    full_only = {c.id for c in bench.claims if c.grids and "quick" not in c.grids}
    assert full_only  # c7_beats_bundle_n2 ... are judged on the full grid
    assert not full_only & {cid for ids in budget.readers(bench).values() for cid in ids}


def test_a_method_defined_in_its_benchmark_module_is_not_keyed_by_the_judgement():
    """snn_mmwave defines its SNN configs in the benchmark module: its cells were keyed by the
    whole file, so a cost_note (or a claim) re-ran them. The module's entry is its cell hash."""
    from claimbench.grid import expand
    from claimbench.registry import module_of
    from claimbench.runner import cell_files

    bench = registry.benchmark("snn_mmwave")
    mod = module_of("snn_mmwave")
    cells = [c for c in expand(bench, "smoke") if c.method.cls.__module__ == mod.__name__]
    assert cells, "snn_mmwave no longer defines a method in its benchmark module"
    files = cell_files(mod, cells[0])
    assert files["benchmarks/snn_mmwave.py"] == cell_hash(mod.__file__)
