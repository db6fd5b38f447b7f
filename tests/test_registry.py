"""The static index of benchmarks (issue 27): regenerated from the modules it must equal the
committed one, and `list`, `show` and `run SLUG` import only the benchmark modules they need."""
import subprocess
import sys

import pytest

from claimbench import registry
from claimbench.cli import main
from claimbench.errors import UserError


def test_index_is_the_one_the_modules_generate():
    """Fails while src/claimbench/index.py is stale (a benchmark added, renamed, retitled, moved
    to another area or fidelity): run `python -m claimbench.registry --write-index`."""
    fresh = registry.render_index(registry.build_index())
    assert registry.INDEX_PATH.read_text() == fresh, (
        "src/claimbench/index.py is stale: run python -m claimbench.registry --write-index")


def test_index_lists_every_benchmark_module_once():
    slugs = registry.slugs()
    assert len(slugs) == len(set(slugs))
    assert sorted(slugs) == registry.discover()
    benches = registry.benchmarks()
    assert list(benches) == slugs
    for e in registry.INDEX:
        b = benches[e.slug]
        assert (b.slug, b.area, b.fidelity, b.paper.title) == tuple(e)


def test_module_of_an_unknown_slug_is_a_key_error():
    with pytest.raises(KeyError):
        registry.module_of("no_such_paper")
    assert registry.module_of("ssd_duality").BENCHMARK.slug == "ssd_duality"


def test_a_module_missing_from_the_index_is_named(monkeypatch):
    monkeypatch.setattr(registry, "_BY_SLUG", {k: v for k, v in registry._BY_SLUG.items()
                                              if k != "ssd_duality"})
    monkeypatch.setattr(registry, "INDEX", tuple(e for e in registry.INDEX
                                                 if e.slug != "ssd_duality"))
    assert registry.unindexed("ssd_duality") and not registry.unindexed("nope")
    from claimbench.cli import _bench

    with pytest.raises(UserError, match="not in the index: run python -m claimbench.registry"):
        _bench("ssd_duality")
    assert "ssd_duality" in registry.discover()
    assert "ssd_duality" in [e.slug for e in registry.build_index()]  # appended when regenerated


def _benchmark_modules_after(args):
    code = ("import sys; from claimbench.cli import main; main(sys.argv[1:]);"
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules "
            "if m.startswith('claimbench.benchmarks.')))")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()[-1]


def test_list_and_show_import_only_what_they_need(tmp_path):
    assert _benchmark_modules_after(["list"]) == "[]"
    assert _benchmark_modules_after(["list", "--area", "games"]) == "[]"
    assert _benchmark_modules_after(["show", "bandit_ot"]) == "['bandit_ot']"
    assert _benchmark_modules_after(
        ["run", "ssd_duality", "--grid", "smoke", "--seeds", "1", "--method", "ssm_recurrence",
         "--dataset", "ssm_sequences[N=2,T=16,scalar=False]",
         "--store", str(tmp_path / "s.sqlite")]) == "['ssd_duality']"


def test_list_prints_the_index(capsys):
    assert main(["list", "--area", "games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    games = sorted(e.slug for e in registry.INDEX if e.area == "games")
    assert [ln.split()[0] for ln in lines] == games
    e = registry.entry(games[0])
    assert lines[0].split(None, 3)[1:] == [e.area, e.fidelity, e.title]
