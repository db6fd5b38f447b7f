"""Each claim kind: a case that must reproduce, one that must not, an inconclusive one, and its
negative control failing."""
import numpy as np
import pytest

import toybench as tb
from claimbench.api import Claim
from claimbench.checks import Better, Equivalent, Rank, Ratio, Slope, Value
from claimbench.claims import evaluate_benchmark


def rows_from(values: dict, datasets=None, param="n"):
    """values: method -> list of metric values; one row per (dataset, rep)."""
    out = []
    for m, vals in values.items():
        for i, v in enumerate(vals):
            ds_param = datasets[i] if datasets else 10
            out.append({"method": m, "dataset": f"noise[{param}={ds_param}]",
                        "dataset_params": {param: ds_param}, "rep": i if not datasets else 0,
                        "status": "ok", "metrics": {"abs_error": v}, "external": False,
                        "method_ref": ""})
    return out


def verdict(check, rows, metric_hib=False):
    bench = tb.make_bench(claims=(Claim("c", "Table 1", "claim", check),))
    (res,) = evaluate_benchmark(bench, rows)
    return res


rng = np.random.default_rng(7)
BASE = rng.uniform(1, 2, size=12)


@pytest.mark.parametrize("delta,expected", [
    (0.5, "reproduced"),        # method clearly lower error
    (-0.5, "not_reproduced"),   # clearly higher
])
def test_better(delta, expected):
    rows = rows_from({"mean": list(BASE - delta), "noop": list(BASE)})
    res = verdict(Better("mean", "noop", "abs_error"), rows)
    assert res.verdict == expected and res.control == "fails (ok)"


def test_better_inconclusive_and_seed_estimate():
    noise = np.random.default_rng(3).normal(0, 1, size=6)
    rows = rows_from({"mean": list(BASE[:6] - 0.1 + noise), "noop": list(BASE[:6])})
    res = verdict(Better("mean", "noop", "abs_error"), rows)
    assert res.verdict == "inconclusive" and res.seeds_needed and res.seeds_needed > 6


@pytest.mark.parametrize("vals,expected", [
    ([1.0, 1.01, 0.99, 1.0, 1.02, 0.98], "reproduced"),
    ([3.0, 3.01, 2.99, 3.0, 3.02, 2.98], "not_reproduced"),
    ([0.2, 2.0, 0.5, 1.9, 0.3, 1.8], "inconclusive"),
])
def test_value(vals, expected):
    res = verdict(Value("mean", "abs_error", target=1.0, tol=0.1), rows_from({"mean": vals}))
    assert res.verdict == expected
    assert res.control == "fails (ok)"


def test_value_with_no_bound_is_vacuous():
    res = verdict(Value("mean", "abs_error"), rows_from({"mean": [1.0, 2.0]}))
    assert res.verdict == "vacuous"


@pytest.mark.parametrize("factor,expected", [(20.0, "reproduced"), (2.0, "not_reproduced")])
def test_ratio(factor, expected):
    rows = rows_from({"slow": list(BASE * factor), "fast": list(BASE)})
    res = verdict(Ratio("slow", "fast", "abs_error", at_least=10.0), rows)
    assert res.verdict == expected and res.control == "fails (ok)"
    assert res.estimate == pytest.approx(factor)


def test_ratio_inconclusive():
    r = np.exp(np.random.default_rng(2).normal(np.log(10), 1.0, size=6))
    rows = rows_from({"slow": list(BASE[:6] * r), "fast": list(BASE[:6])})
    assert verdict(Ratio("slow", "fast", "abs_error", at_least=10.0), rows).verdict == "inconclusive"


def _power_rows(exponent, noise=0.02, n=(64, 128, 256, 512, 1024), seed=0):
    g = np.random.default_rng(seed)
    x = np.repeat(n, 3)
    y = 1e-3 * x ** exponent * np.exp(g.normal(0, noise, size=x.size))
    return rows_from({"rec": list(y)}, datasets=list(x), param="T")


@pytest.mark.parametrize("exponent,expected", [(1.0, "reproduced"), (2.0, "not_reproduced")])
def test_slope(exponent, expected):
    res = verdict(Slope("rec", "abs_error", "T", lo=0.8, hi=1.2, null_slope=2.0),
                  _power_rows(exponent))
    assert res.verdict == expected and res.control == "fails (ok)"
    assert res.estimate == pytest.approx(exponent, abs=0.05)


def test_slope_inconclusive():
    res = verdict(Slope("rec", "abs_error", "T", lo=0.8, hi=1.2), _power_rows(1.0, noise=1.0))
    assert res.verdict == "inconclusive"


@pytest.mark.parametrize("shift,expected", [(0.001, "reproduced"), (1.0, "not_reproduced")])
def test_equivalent(shift, expected):
    noise = np.random.default_rng(5).normal(0, 0.01, size=12)
    rows = rows_from({"a": list(BASE + shift + noise), "b": list(BASE)})
    res = verdict(Equivalent("a", "b", "abs_error", margin=0.1), rows)
    assert res.verdict == expected and res.control == "fails (ok)"


def test_equivalent_inconclusive():
    noise = np.random.default_rng(5).normal(0, 0.3, size=6)
    rows = rows_from({"a": list(BASE[:6] + noise), "b": list(BASE[:6])})
    assert verdict(Equivalent("a", "b", "abs_error", margin=0.1), rows).verdict == "inconclusive"


def test_rank():
    rows = rows_from({"best": list(BASE - 1), "mid": list(BASE), "worst": list(BASE + 1)})
    res = verdict(Rank("best", "abs_error", k=1), rows)
    assert res.verdict == "reproduced" and res.control == "fails (ok)"
    assert verdict(Rank("worst", "abs_error", k=1), rows).verdict == "not_reproduced"
    assert verdict(Rank("mid", "abs_error", k=2), rows).verdict == "reproduced"


def test_rank_inconclusive_with_few_blocks():
    rows = rows_from({"a": [1.0, 2.0], "b": [2.0, 1.0], "c": [3.0, 3.0]})
    assert verdict(Rank("b", "abs_error", k=1, among=("a", "b")), rows).verdict in (
        "reproduced", "inconclusive")
    assert verdict(Rank("c", "abs_error", k=1), rows).verdict == "inconclusive"


def test_missing_and_failed_methods():
    rows = rows_from({"mean": [1.0, 2.0]})
    assert verdict(Value("ghost", "abs_error", hi=1), rows).verdict == "not_run"
    for r in rows:
        r["status"] = "timeout"
    res = verdict(Value("mean", "abs_error", hi=1), rows)
    assert res.verdict == "error" and "timeout" in res.detail


def test_holm_applies_across_better_claims():
    small = rows_from({"mean": list(BASE[:6] - 0.3), "noop": list(BASE[:6])})
    # One-sided Wilcoxon on 6 positive pairs: p = 1/64; Holm over 3 claims: 3/64 < 0.05.
    claims = tuple(Claim(f"c{i}", "T", "x", Better("mean", "noop", "abs_error")) for i in range(3))
    res = evaluate_benchmark(tb.make_bench(claims=claims), small)
    assert all(r.p_value == pytest.approx(1 / 64) for r in res)
    assert all(r.p_holm == pytest.approx(3 / 64) for r in res)
    claims4 = claims + (Claim("c3", "T", "x", Better("mean", "noop", "abs_error")),)
    res4 = evaluate_benchmark(tb.make_bench(claims=claims4), small)
    assert all(r.p_holm == pytest.approx(4 / 64) and r.verdict == "inconclusive" for r in res4)


def test_value_control_survives_rounding_far_from_a_zero_bound():
    # max of values near -5 against hi=0: the null shift must not vanish in rounding.
    res = verdict(Value("mean", "abs_error", hi=0.0, stat="max"),
                  rows_from({"mean": [-5.0, -5.5, -6.0]}))
    assert res.verdict == "reproduced" and res.control == "fails (ok)"
