"""Each claim kind on evidence whose answer is known: a case that must reproduce, one that must
not, an inconclusive one; foils that pass or fail; ties, units, Holm across kinds."""
import math

import numpy as np
import pytest

import toybench as tb
from claimbench import stats
from claimbench.api import Claim
from claimbench.checks import Better, Equivalent, NotRun, Rank, Ratio, Slope, Value
from claimbench.claims import evaluate_benchmark, is_loose, substitute


def rows_from(values: dict, datasets=None, param="n", extra_params=None):
    """values: method -> list of metric values; one row per (dataset, rep)."""
    out = []
    for m, vals in values.items():
        for i, v in enumerate(vals):
            ds_param = datasets[i] if datasets else 10
            params = {param: ds_param, **((extra_params or {}).get(i, {}))}
            label = "noise[" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + "]"
            out.append({"method": m, "dataset": label, "dataset_params": params,
                        "rep": i if not datasets else 0, "status": "ok",
                        "metrics": {"abs_error": v}, "external": False, "method_ref": ""})
    return out


def results(claims, rows, unit=()):
    bench = tb.make_bench(claims=tuple(claims))
    if unit:
        import dataclasses

        bench = dataclasses.replace(bench, unit=unit)
    return evaluate_benchmark(bench, rows)


def verdict(check, rows, foils=()):
    """The claim's result; without foils, its verdict is the check's own (a claim with no foil
    is never reproduced: tests of a kind's statistic read what the check alone gives)."""
    import dataclasses

    (res,) = results([Claim("c", "Table 1", "claim", check, source="paper", foils=foils)], rows)
    if not foils and res.verdict == "not_discriminating" and res.reason == "no foil declared":
        return dataclasses.replace(res, verdict=res.check_verdict)
    return res


rng = np.random.default_rng(7)
BASE = rng.uniform(1, 2, size=12)


@pytest.mark.parametrize("delta,expected", [(0.5, "reproduced"), (-0.5, "not_reproduced")])
def test_better(delta, expected):
    rows = rows_from({"mean": list(BASE - delta), "noop": list(BASE)})
    res = verdict(Better("mean", "noop", "abs_error"), rows)
    assert res.verdict == expected
    assert res.estimate == pytest.approx(delta)
    # The interval shown is the one decided on: above the margin exactly when reproduced.
    assert (res.ci[0] > 0) == (expected == "reproduced")


def test_better_inconclusive_and_seed_estimate():
    noise = np.random.default_rng(3).normal(0, 1, size=6)
    rows = rows_from({"mean": list(BASE[:6] - 0.1 + noise), "noop": list(BASE[:6])})
    res = verdict(Better("mean", "noop", "abs_error"), rows)
    assert res.verdict == "inconclusive" and res.seeds_needed and res.seeds_needed > 6
    assert res.ci[0] <= 0 <= res.ci[1]


def test_better_ties_are_kept():
    # Tied on 94 of 100 pairs, better by 1e-12 on 6: dropping the zeros would call it better.
    imp = np.r_[np.zeros(94), np.full(6, 1e-12)]
    rows = rows_from({"mean": list(1.0 - imp), "noop": [1.0] * 100})
    res = verdict(Better("mean", "noop", "abs_error"), rows)
    assert res.verdict != "reproduced"
    assert res.p_value > 0.05


def test_rounding_noise_is_a_tie_not_a_win():
    base = np.linspace(1.0, 2.0, 20)
    noisy = base - np.where(np.arange(20) < 14, 1e-16 * base, 0.0)  # (20,) equal up to rounding
    noisy[14:] -= 0.01  # six real improvements
    res = verdict(Better("mean", "noop", "abs_error"), rows_from({"mean": list(noisy),
                                                                  "noop": list(base)}))
    assert res.ci[0] <= 0.0 and res.verdict != "reproduced"


def test_non_inferiority_is_tested_against_its_margin():
    rows = rows_from({"mean": list(BASE - 0.3), "noop": list(BASE)})
    assert verdict(Better("mean", "noop", "abs_error", margin=-0.1), rows).verdict == "reproduced"
    worse = rows_from({"mean": list(BASE + 0.5), "noop": list(BASE)})
    assert verdict(Better("mean", "noop", "abs_error", margin=-0.1),
                   worse).verdict == "not_reproduced"


@pytest.mark.parametrize("vals,expected", [
    ([1.0, 1.01, 0.99, 1.0, 1.02, 0.98], "reproduced"),
    ([3.0, 3.01, 2.99, 3.0, 3.02, 2.98], "not_reproduced"),
    ([0.2, 2.0, 0.5, 1.9, 0.3, 1.8], "inconclusive"),
])
def test_value_mean(vals, expected):
    res = verdict(Value("mean", "abs_error", target=1.0, tol=0.1), rows_from({"mean": vals}))
    assert res.verdict == expected


def test_a_value_with_no_spread_on_the_bound_is_outside_the_claimed_region():
    # the claimed region is open ("mean > 0" is not met by exactly 0): a foil whose every unit
    # sits exactly on the bound (a menu that never grows: slope 0) is refuted, not undecided
    on_bound = rows_from({"mean": [0.0] * 5})
    assert verdict(Value("mean", "abs_error", hi=0.0), on_bound).verdict == "not_reproduced"
    assert verdict(Value("mean", "abs_error", lo=0.0), on_bound).verdict == "not_reproduced"
    spread = rows_from({"mean": [-0.1, 0.1, 0.0, -0.05, 0.05]})
    assert verdict(Value("mean", "abs_error", hi=0.0), spread).verdict == "inconclusive"


def test_value_mean_t_interval_is_student():
    vals = [1.0, 1.2, 0.9, 1.1]
    res = verdict(Value("mean", "abs_error", lo=0.0), rows_from({"mean": vals}))
    from scipy import stats as sps

    half = sps.t.ppf(1 - res.alpha, 3) * np.std(vals, ddof=1) / 2
    assert res.ci == pytest.approx((np.mean(vals) - half, np.mean(vals) + half))


def test_value_median_uses_the_sign_test():
    vals = [1.0, 1.1, 0.9, 1.05, 0.95, 1.02, 0.98, 1.01]
    res = verdict(Value("mean", "abs_error", lo=0.5, hi=1.5, stat="median"),
                  rows_from({"mean": vals}))
    assert res.verdict == "reproduced" and res.p_value == pytest.approx(0.5 ** 8)
    few = verdict(Value("mean", "abs_error", lo=0.5, hi=1.5, stat="median"),
                  rows_from({"mean": vals[:4]}))
    assert few.verdict == "inconclusive"  # 4 runs: the sign test's floor is 1/16 > 0.05


def test_value_max_is_universal():
    ok = verdict(Value("mean", "abs_error", hi=0.0, stat="max"),
                 rows_from({"mean": [-5.0, -5.5, -6.0, -4.0, -3.0]}))
    assert ok.verdict == "reproduced" and ok.p_value == pytest.approx(0.5 ** 5)
    few = verdict(Value("mean", "abs_error", hi=0.0, stat="max"),
                  rows_from({"mean": [-5.0, -5.5, -6.0]}))
    assert few.verdict == "inconclusive" and few.seeds_needed == 5  # 2^-5 < 0.05 <= 2^-4
    refuted = verdict(Value("mean", "abs_error", hi=0.0, stat="max"),
                      rows_from({"mean": [-5.0] * 20 + [0.1]}))
    assert refuted.verdict == "not_reproduced"


def test_value_max_above_is_existential():
    res = verdict(Value("mean", "abs_error", lo=1.0, stat="max"),
                  rows_from({"mean": [0.0, 0.0, 2.0]}))
    assert res.verdict == "reproduced"
    assert verdict(Value("mean", "abs_error", lo=1.0, stat="max"),
                   rows_from({"mean": [0.0, 0.0]})).verdict == "inconclusive"


def test_value_with_no_bound_is_vacuous():
    res = verdict(Value("mean", "abs_error"), rows_from({"mean": [1.0, 2.0]}))
    assert res.verdict == "vacuous"


@pytest.mark.parametrize("factor,expected", [(20.0, "reproduced"), (2.0, "not_reproduced")])
def test_ratio(factor, expected):
    rows = rows_from({"slow": list(BASE * factor), "fast": list(BASE)})
    res = verdict(Ratio("slow", "fast", "abs_error", at_least=10.0), rows)
    assert res.verdict == expected
    assert res.estimate == pytest.approx(factor)


def test_ratio_inconclusive():
    r = np.exp(np.random.default_rng(2).normal(np.log(10), 1.0, size=6))
    rows = rows_from({"slow": list(BASE[:6] * r), "fast": list(BASE[:6])})
    assert verdict(Ratio("slow", "fast", "abs_error", at_least=10.0), rows).verdict == "inconclusive"


def _power_rows(exponent, noise=0.02, n=(64, 128, 256, 512, 1024), seed=0, name="rec"):
    g = np.random.default_rng(seed)
    x = np.repeat(n, 3)
    y = 1e-3 * x ** exponent * np.exp(g.normal(0, noise, size=x.size))
    return rows_from({name: list(y)}, datasets=list(x), param="T")


@pytest.mark.parametrize("exponent,expected", [(1.0, "reproduced"), (2.0, "not_reproduced")])
def test_slope(exponent, expected):
    res = verdict(Slope("rec", "abs_error", "T", lo=0.8, hi=1.2), _power_rows(exponent))
    assert res.verdict == expected
    assert res.estimate == pytest.approx(exponent, abs=0.05)


def test_slope_of_a_constant_metric_is_exactly_zero():
    # e.g. dense attention's density, 1 at every context length: no spread, no doubt
    rows = rows_from({"rec": [1.0] * 9}, datasets=[256, 256, 256, 512, 512, 512, 1024, 1024, 1024],
                     param="T")
    assert verdict(Slope("rec", "abs_error", "T", hi=-0.05), rows).verdict == "not_reproduced"
    assert verdict(Slope("rec", "abs_error", "T", lo=-0.01, hi=0.01), rows).verdict == "reproduced"


def test_slope_inconclusive():
    res = verdict(Slope("rec", "abs_error", "T", lo=0.8, hi=1.2), _power_rows(1.0, noise=1.0))
    assert res.verdict == "inconclusive"


@pytest.mark.parametrize("shift,expected", [(0.001, "reproduced"), (1.0, "not_reproduced")])
def test_equivalent(shift, expected):
    noise = np.random.default_rng(5).normal(0, 0.01, size=12)
    rows = rows_from({"a": list(BASE + shift + noise), "b": list(BASE)})
    assert verdict(Equivalent("a", "b", "abs_error", margin=0.1), rows).verdict == expected


def test_equivalent_inconclusive():
    noise = np.random.default_rng(5).normal(0, 0.3, size=6)
    rows = rows_from({"a": list(BASE[:6] + noise), "b": list(BASE[:6])})
    assert verdict(Equivalent("a", "b", "abs_error", margin=0.1), rows).verdict == "inconclusive"


def test_rank():
    rows = rows_from({"best": list(BASE - 1), "mid": list(BASE), "worst": list(BASE + 1)})
    assert verdict(Rank("best", "abs_error", k=1), rows).verdict == "reproduced"
    assert verdict(Rank("worst", "abs_error", k=1), rows).verdict == "not_reproduced"
    assert verdict(Rank("mid", "abs_error", k=2), rows).verdict == "reproduced"


def test_rank_on_pure_noise_is_not_reproduced():
    g = np.random.default_rng(11)
    vals = {m: list(g.normal(size=12)) for m in ("a", "b", "c", "d")}
    rows = rows_from(vals)
    best = min(vals, key=lambda m: np.mean(np.argsort(np.argsort(np.array(list(vals.values())),
                                                                  axis=0), axis=0)[list(vals).index(m)]))
    res = verdict(Rank(best, "abs_error", k=1), rows)
    assert res.verdict == "inconclusive"  # first by average rank, but no test says so


def test_missing_and_failed_methods():
    rows = rows_from({"mean": [1.0, 2.0]})
    assert verdict(Value("ghost", "abs_error", hi=1), rows).verdict == "not_run"
    for r in rows:
        r["status"] = "timeout"
    res = verdict(Value("mean", "abs_error", hi=1), rows)
    assert res.verdict == "error" and "timeout" in res.detail


def test_a_claim_declared_not_run_says_why_and_is_never_judged():
    rows = rows_from({"mean": [1.0, 2.0, 3.0]})
    res = verdict(NotRun("mean", "needs a 14B video model"), rows)
    assert res.verdict == "not_run" and "needs a 14B video model" in res.detail
    assert res.ours == "—" and res.foils == []


# -- foils ---------------------------------------------------------------------------------------
def test_a_foil_that_passes_makes_the_claim_not_discriminating():
    rows = rows_from({"mean": list(BASE - 0.5), "noop": list(BASE), "also": list(BASE - 0.4),
                      "bad": list(BASE + 0.2)})
    weak = verdict(Better("mean", "noop", "abs_error"), rows, foils=("also",))
    assert weak.verdict == "not_discriminating"
    assert [(f.foil, f.verdict) for f in weak.foils] == [("also", "reproduced")]
    strong = verdict(Better("mean", "noop", "abs_error"), rows, foils=("bad",))
    assert strong.verdict == "reproduced" and strong.foils[0].verdict == "not_reproduced"


def test_a_claim_whose_foils_cannot_be_evaluated_is_not_discriminating():
    rows = rows_from({"mean": list(BASE - 0.5), "noop": list(BASE)})
    res = verdict(Better("mean", "noop", "abs_error"), rows, foils=("ghost",))
    assert res.foils[0].verdict == "not_run" and res.verdict == "not_discriminating"
    assert res.reason.startswith("no foil refuted")


def test_a_loose_bound_is_flagged_by_its_foils():
    # "error below 100" holds for every method here: the foil shows the bound cannot fail.
    rows = rows_from({"mean": list(BASE - 0.5), "noop": list(BASE)})
    assert verdict(Value("mean", "abs_error", hi=100.0), rows,
                   foils=("noop",)).verdict == "not_discriminating"
    assert verdict(Value("mean", "abs_error", hi=1.2), rows, foils=("noop",)).verdict == \
        "reproduced"


def test_substitute_replaces_the_subject_everywhere():
    r = Rank("a", "m", among=("a", "b", "c"))
    assert substitute(r, "a", "b").among == ("b", "c")
    assert substitute(Ratio("x", "a", "m", at_least=2.0), "a", "z").denominator == "z"
    assert substitute(Better("a", "b", "m"), "a", "z") == Better("z", "b", "m")


def test_as_method_judges_another_method_by_the_same_claims():
    rows = rows_from({"mean": list(BASE - 0.5), "noop": list(BASE), "bad": list(BASE + 0.2)})
    claims = [Claim("c", "T", "x", Better("mean", "noop", "abs_error"), source="paper",
                    foils=("bad",))]
    (own,) = results(claims, rows)
    (other,) = evaluate_benchmark(tb.make_bench(claims=tuple(claims)), rows, as_method="bad")
    assert own.verdict == "reproduced" and other.verdict == "not_reproduced"
    assert other.subject == "bad"


# -- the unit of replication and the Holm family --------------------------------------------------
def test_rows_are_aggregated_to_the_unit_before_any_test():
    # 3 training runs (seeds), each scored on 44 test functions: 3 units, not 132 pairs.
    n_runs, n_funcs = 3, 44
    g = np.random.default_rng(1)
    rows = []
    for m, shift in (("mean", -0.2), ("noop", 0.0)):
        for run in range(n_runs):
            for f in range(n_funcs):
                rows.append({"method": m, "dataset": f"noise[f={f}]",
                             "dataset_params": {"f": f}, "rep": run, "status": "ok",
                             "metrics": {"abs_error": 1.0 + shift + 0.01 * g.normal()},
                             "external": False, "method_ref": ""})
    claim = Claim("c", "T", "x", Better("mean", "noop", "abs_error"), source="paper")
    (pseudo,) = results([claim], rows)
    (runs,) = results([claim], rows, unit=("seed",))
    assert pseudo.n == 132 and pseudo.check_verdict == "reproduced"
    assert runs.n == 3 and runs.verdict == "inconclusive"  # floor 1/8 with 3 runs
    assert runs.p_value == pytest.approx(1 / 8)


def test_holm_is_one_family_over_every_kind():
    small = rows_from({"mean": list(BASE[:6] - 0.3), "noop": list(BASE[:6])})
    claims = [Claim(f"c{i}", "T", "x", Better("mean", "noop", "abs_error")) for i in range(3)]
    res = results(claims, small)
    assert all(r.p_value == pytest.approx(1 / 64) for r in res)
    assert all(r.p_holm == pytest.approx(3 / 64) and r.check_verdict == "reproduced" for r in res)
    # A fourth claim of another kind joins the same family and tips it over.
    claims4 = claims + [Claim("v", "T", "x", Value("mean", "abs_error", hi=0.0, stat="max"))]
    res4 = {r.claim: r for r in results(claims4, small)}
    assert res4["v"].verdict == "not_reproduced"
    assert all(res4[f"c{i}"].p_holm == pytest.approx(min(1, 4 / 64)) for i in range(3))
    assert all(res4[f"c{i}"].verdict == "inconclusive" for i in range(3))
    # The level shown is Holm's: the raw p against alpha * p / p_holm.
    assert res4["c0"].alpha == pytest.approx(0.05 / 4)


def test_seeds_to_decide_says_when_no_design_would_do():
    assert stats.seeds_to_decide(5, 1.0, 1.0, 1.0, 0.05) == stats.CANNOT
    n = stats.seeds_to_decide(5, 0.5, 1.0, 0.0, 0.05)
    assert n > 5
    assert stats.seeds_to_decide(5, 0.5, 1.0, 0.0, 0.005) > n  # a larger family needs more
    assert stats.sign_test_floor(0.05) == 5 and stats.sign_test_floor(0.05 / 10) == 8


def test_is_loose():
    assert is_loose(Value("a", "m")) and is_loose(Slope("a", "m", "x"))
    assert is_loose(Better("a", "b", "m", margin=-math.inf))
    assert not is_loose(Value("a", "m", hi=1.0)) and not is_loose(Better("a", "b", "m"))


# -- differences of slopes, interactions, growth forms ----------------------------------------------
def _two_scope_rows(e1, e2, noise=0.02):
    rows = []
    for scope, e in (("smooth", e1), ("rough", e2)):
        g = np.random.default_rng(hash(scope) % 2**32)
        for i, T in enumerate(np.repeat([100, 200, 400, 800, 1600], 3)):
            y = 1e-2 * T ** e * np.exp(g.normal(0, noise))
            rows.append({"method": "rec", "dataset": f"noise[T={T},cost={scope}]",
                         "dataset_params": {"T": int(T), "cost": scope}, "rep": i,
                         "status": "ok", "metrics": {"abs_error": y}, "external": False,
                         "method_ref": ""})
    return rows


@pytest.mark.parametrize("e_rough,expected", [(0.9, "reproduced"), (0.5, "not_reproduced")])
def test_slope_diff_rough_worse_than_smooth(e_rough, expected):
    from claimbench.checks import SlopeDiff

    check = SlopeDiff("rec", "abs_error", "T", where={"cost": "rough"},
                      other_where={"cost": "smooth"}, lo=0.1)
    res = verdict(check, _two_scope_rows(0.55, e_rough))
    assert res.verdict == expected
    assert res.estimate == pytest.approx(e_rough - 0.55, abs=0.05)


def test_better_diff_is_an_interaction():
    from claimbench.checks import BetterDiff

    g = np.random.default_rng(0)
    rows = []
    for eps, gain in ((0.1, 0.5), (1.0, 0.05)):
        for i in range(10):
            base = 1 + g.uniform()
            for m, v in (("mean", base - gain + 0.01 * g.normal()), ("noop", base)):
                rows.append({"method": m, "dataset": f"noise[eps={eps}]",
                             "dataset_params": {"eps": eps}, "rep": i, "status": "ok",
                             "metrics": {"abs_error": v}, "external": False, "method_ref": ""})
    widens = verdict(BetterDiff("mean", "noop", "abs_error", {"eps": 0.1}, {"eps": 1.0}), rows)
    assert widens.verdict == "reproduced" and widens.estimate == pytest.approx(0.45, abs=0.02)
    from scipy import stats as sps

    pairs = {}
    for r in rows:
        pairs.setdefault((r["dataset_params"]["eps"], r["rep"]), {})[r["method"]] = \
            r["metrics"]["abs_error"]
    gains = {eps: [v["noop"] - v["mean"] for (e, _), v in pairs.items() if e == eps]
             for eps in (0.1, 1.0)}
    welch = sps.ttest_ind(gains[0.1], gains[1.0], equal_var=False, alternative="greater")
    assert widens.p_value == pytest.approx(welch.pvalue, rel=1e-9)
    narrows = verdict(BetterDiff("mean", "noop", "abs_error", {"eps": 1.0}, {"eps": 0.1}), rows)
    assert narrows.verdict == "not_reproduced"


def _growth_rows(fn):
    g = np.random.default_rng(1)
    out = []
    for m in range(2, 12):
        for i in range(3):
            y = fn(m) * np.exp(g.normal(0, 0.05))
            out.append({"method": "rec", "dataset": f"noise[m={m}]", "dataset_params": {"m": m},
                        "rep": i, "status": "ok", "metrics": {"abs_error": y},
                        "external": False, "method_ref": ""})
    return out


def test_growth_tells_exponential_from_polynomial():
    from claimbench.checks import Growth

    check = Growth("rec", "abs_error", "m", form="exponential")
    assert verdict(check, _growth_rows(lambda m: 2.0 ** m)).verdict == "reproduced"
    assert verdict(check, _growth_rows(lambda m: m ** 2)).verdict == "not_reproduced"
    assert verdict(Growth("rec", "abs_error", "m", form="polynomial"),
                   _growth_rows(lambda m: m ** 2)).verdict == "reproduced"
