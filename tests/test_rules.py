"""Each rule of what a verdict means (issue 26), on evidence whose answer is known. Every test
here fails under the rules before them: a reproduced claim with only inconclusive foils, a foil
that compares with itself or is another method under a new name, a failed positive control, an
undecidable design, a post hoc amendment counted as pre-registered, a misquote, an unmapped
headline, an exact result judged by a sign test."""
import dataclasses

import numpy as np
import pytest

import toybench as tb
from claimbench.api import Amendment, Claim, Headline, Premise
from claimbench.checks import Better, Exact, NotRun, Value
from claimbench.claims import count_verdicts, design, evaluate_benchmark
from claimbench.claims.coverage import coverage, headline_rows
from claimbench.lock import lock_of, unamended
from claimbench.quotes import misquoted

rng = np.random.default_rng(3)
BASE = rng.uniform(1, 2, size=12)  # the baseline's error per unit


def rows_from(values: dict) -> list[dict]:
    """method -> metric values, one unit (dataset, rep) each."""
    return [{"method": m, "dataset": "noise[n=10]", "dataset_params": {"n": 10}, "rep": i,
             "status": "ok", "metrics": {"abs_error": float(v)}, "external": False,
             "method_ref": ""} for m, vals in values.items() for i, v in enumerate(vals)]


def judge(claims, rows, **bench_fields):
    bench = dataclasses.replace(tb.make_bench(claims=tuple(claims)), **bench_fields)
    return {r.claim: r for r in evaluate_benchmark(bench, rows)}


BETTER = Better("mean", "noop", "abs_error")
GOOD = BASE - 0.5  # clearly better than the baseline on every unit


def test_reproduced_needs_a_refuted_foil_not_an_inconclusive_one():
    wobble = BASE + rng.normal(0, 0.3, size=BASE.size)  # neither better nor worse: inconclusive
    rows = rows_from({"mean": GOOD, "noop": BASE, "wobble": wobble, "bad": BASE + 0.5})
    res = judge([Claim("weak", "T", "x", BETTER, source="paper", foils=("wobble",)),
                 Claim("strong", "T", "x", BETTER, source="paper", foils=("wobble", "bad"))],
                rows)
    assert res["weak"].foils[0].verdict == "inconclusive"
    assert res["weak"].verdict == "not_discriminating"
    assert res["weak"].reason.startswith("no foil refuted")
    assert res["strong"].verdict == "reproduced"
    assert [f.refuted for f in res["strong"].foils] == [False, True]


def test_a_claim_without_foils_is_never_reproduced():
    res = judge([Claim("c", "T", "x", BETTER, source="paper")], rows_from({"mean": GOOD,
                                                                           "noop": BASE}))
    assert res["c"].check_verdict == "reproduced"
    assert (res["c"].verdict, res["c"].reason) == ("not_discriminating", "no foil declared")


def test_a_foil_named_in_another_role_is_refused_and_gives_no_evidence():
    claim = Claim("c", "T", "x", BETTER, source="paper", foils=("noop",))
    assert design.role_conflicts(claim) == ["noop"]
    res = judge([claim], rows_from({"mean": GOOD, "noop": BASE}))
    assert "compares with itself" in res["c"].foils[0].note
    assert res["c"].verdict == "not_discriminating"


def test_a_foil_identical_to_a_method_of_the_check_gives_no_evidence():
    # "renamed" is the baseline under a new name: substituted, Better compares it with itself.
    rows = rows_from({"mean": GOOD, "noop": BASE, "renamed": BASE, "bad": BASE + 0.5,
                      "bad_copy": BASE + 0.5})
    res = judge([Claim("c", "T", "x", BETTER, source="paper", foils=("renamed",)),
                 Claim("d", "T", "x", BETTER, source="paper", foils=("bad_copy",))], rows)
    f = res["c"].foils[0]
    assert f.note == "identical to noop" and not f.refuted
    assert res["c"].verdict == "not_discriminating"
    # The same values as another grid method (not in the check) are shown, and still count.
    g = res["d"].foils[0]
    assert g.refuted and g.twin == "identical to bad"
    assert res["d"].verdict == "reproduced" and "same values as" in res["d"].control


def test_a_foil_mirroring_the_subject_gives_no_evidence():
    value = Value("mean", "abs_error", lo=0.0)
    rows = rows_from({"mean": BASE, "swap": -BASE})
    res = judge([Claim("c", "T", "x", value, source="paper", foils=("swap",))], rows)
    assert res["c"].foils[0].note.startswith("mirror of mean")
    assert res["c"].verdict == "not_discriminating"


def test_a_failed_premise_makes_its_claims_premise_failed():
    rows = rows_from({"mean": GOOD, "noop": BASE, "bad": BASE + 0.5})
    claims = [Claim("c1", "T", "x", BETTER, source="paper", foils=("bad",)),
              Claim("c2", "T", "x", BETTER, source="paper", foils=("bad",))]
    chance = Premise("p_competent", "the baseline's error is below 1", Value("noop", "abs_error",
                                                                               hi=1.0),
                     claims=("c1",))
    res = judge(claims, rows, premises=(chance,))
    assert res["c1"].verdict == "premise_failed" and "p_competent" in res["c1"].reason
    assert res["c1"].check_verdict == "reproduced"
    assert res["c2"].verdict == "reproduced"  # not gated
    met = dataclasses.replace(chance, check=Value("noop", "abs_error", hi=3.0))
    assert judge(claims, rows, premises=(met,))["c1"].verdict == "reproduced"


def test_an_undecidable_design_is_refused():
    # 2 datasets x 2 seeds = 4 units: a signed-rank test can reach p = 1/16, never 0.05 / 3.
    bench = tb.make_bench(claims=tuple(Claim(f"c{i}", "T", "x", BETTER, source="paper",
                                             foils=("mean",)) for i in range(3)))
    assert [cid for cid, *_ in design.undecidable(bench)] == ["c0", "c1", "c2"]
    full_only = dataclasses.replace(bench, claims=tuple(dataclasses.replace(c, grids=("full",))
                                                        for c in bench.claims))
    assert design.undecidable(full_only) == []
    exact = Claim("e", "T", "x", Exact("mean", "abs_error", hi=1.0), source="paper")
    assert design.undecidable(dataclasses.replace(bench, claims=(exact,))) == []


def test_an_exact_check_is_decided_without_statistics_and_outside_holm():
    rows = rows_from({"mean": np.full(12, 1e-12), "bad": np.r_[np.full(11, 1e-12), 0.1]})
    claim = Claim("c", "T", "x", Exact("mean", "abs_error", target=0.0, tol=1e-9),
                  source="paper", foils=("bad",))
    res = judge([claim], rows)["c"]
    assert res.verdict == "reproduced" and res.p_value is None and res.p_holm is None
    assert res.foils[0].verdict == "not_reproduced"  # one unit outside refutes it


def test_a_post_hoc_amendment_is_counted_apart():
    rows = rows_from({"mean": GOOD, "noop": BASE, "bad": BASE + 0.5})
    claims = [Claim("c1", "T", "x", BETTER, source="paper", foils=("bad",)),
              Claim("c2", "T", "x", BETTER, source="paper", foils=("bad",))]
    chosen = Amendment("2026-12-06", ("c1",), "margin changed", "t", results_seen=True)
    ruled = Amendment("2026-12-06", ("c2",), "foil removed", "t", results_seen=True,
                      rule="issue 26: Y-vs-Y foils removed")
    bench = dataclasses.replace(tb.make_bench(claims=tuple(claims)), amendments=(chosen, ruled))
    res = {r.claim: r for r in evaluate_benchmark(bench, rows, before={"c1": "inconclusive"})}
    assert res["c1"].post_hoc and res["c1"].verdict_before == "inconclusive"
    assert not res["c2"].post_hoc
    counts = count_verdicts(res.values())
    assert counts["paper:reproduced"] == 1 and counts["post_hoc:reproduced"] == 1


def test_the_lock_covers_the_design_not_only_the_declaration():
    claim = Claim("c", "T", "x", BETTER, source="paper", foils=("mean",))
    bench = tb.make_bench(claims=(claim,))
    lock = lock_of(bench)
    more_seeds = tb.make_bench(claims=(claim,), seeds=5)
    assert unamended(more_seeds, lock) == ["c"]
    premise = Premise("p", "baseline competent", Value("noop", "abs_error", hi=3.0))
    assert unamended(dataclasses.replace(bench, premises=(premise,)), lock) == ["c", "p"]


def test_misquotes_and_unmapped_headlines_are_found():
    text = "We show that our method is twice as fast as the dense baseline at equal accuracy."
    good = Claim("g", "abstract", "x", NotRun("mean", "r"), source="paper",
                 paper_value="\"twice as fast as the dense baseline\" (abstract)")
    para = Claim("p", "abstract", "x", NotRun("mean", "r"), source="paper",
                 paper_value="\"roughly 2x faster than dense attention\" (abstract, v1)")
    silent = Claim("s", "abstract", "x", NotRun("mean", "r"), source="paper",
                   paper_value="2x (abstract)")
    bench = dataclasses.replace(tb.make_bench(claims=(good, para, silent)), headlines=(
        Headline("twice as fast as the dense baseline", ("g",)),
        Headline("at equal accuracy", ())))
    bad = dict(misquoted(bench, text))
    assert set(bad) == {"p", "s"} and "not in the abstract" in bad["p"]
    assert coverage(bench) == (1, 2)
    rows = headline_rows(bench, evaluate_benchmark(bench, []))
    assert rows[1] == ["at equal accuracy", "—", "not checked"]


def test_claims_in_the_abstract_are_the_papers_unless_ours_by_construction():
    ours = Claim("o", "abstract", "x", NotRun("mean", "r"), source="derived")
    built = dataclasses.replace(ours, basis="construction")
    assert design.misplaced(ours) and not design.misplaced(built)
    with pytest.raises(ValueError, match="construction"):
        tb.make_bench(claims=(dataclasses.replace(built, source="paper"),))


def test_an_exact_max_puts_the_largest_unit_in_the_band():
    # "up to 15 %" over a declared deterministic sweep: the best regime lies in [12, 17].
    rows = rows_from({"mean": [3.0, 9.0, 14.0], "over": [3.0, 9.0, 21.0], "under": [1.0, 2.0, 3.0]})
    up_to = Exact("mean", "abs_error", lo=12.0, hi=17.0, stat="max")
    res = judge([Claim("c", "T", "x", up_to, source="paper", foils=("over", "under"))], rows)["c"]
    assert res.verdict == "reproduced" and res.estimate == 14.0
    assert [f.verdict for f in res.foils] == ["not_reproduced", "not_reproduced"]


def test_a_post_hoc_claim_shows_the_verdict_its_lock_recorded():
    from claimbench.lock import verdicts_before

    claim = Claim("c", "T", "x", BETTER, source="paper", foils=("bad",))
    bench = tb.make_bench(claims=(claim,))
    lock = lock_of(bench, {"c": "inconclusive"})
    later = dataclasses.replace(bench, amendments=(
        Amendment("2026-12-06", ("c",), "margin changed", "t", results_seen=True),))
    assert verdicts_before(later, lock) == {"c": "inconclusive"}
    assert lock_of(later, {"c": "reproduced"}, lock)["before"] == {"c": "inconclusive"}


def test_a_rank_over_the_whole_grid_locks_every_method_of_the_grid():
    """A Rank with among=None ranks the subject against every method of the grid: a method added
    to the grid changes what it reads, so the lock must see it (before, only the subject and
    foils were locked)."""
    from claimbench.api import cfg
    from claimbench.checks import Rank

    claim = Claim("c", "T", "x", Rank("mean", "abs_error"), source="paper", foils=("noop",))
    lock = lock_of(tb.make_bench(claims=(claim,)))
    grown = tb.make_bench(claims=(claim,), methods=(cfg(tb.MeanEstimator), cfg(tb.Noop),
                                                     cfg(tb.Spin)))
    assert unamended(grown, lock) == ["c"]
