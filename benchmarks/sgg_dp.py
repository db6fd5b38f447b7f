"""sgg_dp: Spherical Generalized Gamma mechanisms vs the Gaussian and l2 mechanisms.

Fig. 2 (one invocation): least-MSE SGG member vs the analytic Gaussian and the l2 mechanism,
for T = 2 ... 50. Fig. 3 (k invocations): per-invocation MSE under tight composition
(Algorithm 7, PLD + FFT) vs sequential composition. All numbers are deterministic
computations (quadrature, root finding, FFT): one seed, many privacy regimes.
"""
from __future__ import annotations

import math

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise, cfg,
                           output_metric, sweep)
from claimbench.baselines.gaussian_mechanism import GaussianMechanism
from claimbench.checks import Better, Exact, Slope
from claimbench.datasets.privacy_regimes import PrivacyRegime
from claimbench.methods.sgg_dp import Quadrature, SGGMechanism, SGGSearch

COMPOSED_K = (2, 4, 8, 16, 32, 64)


def _reduction_vs_gauss(inst, out):
    return 100.0 * (1.0 - out["mse"] / inst.truth["gauss_mse"])


def _reduction_vs_best_baseline(inst, out):
    if "l2_mse" not in out:
        return None
    return 100.0 * (1.0 - out["mse"] / min(inst.truth["gauss_mse"], out["l2_mse"]))


def _gauss_relerr(inst, out):
    if "gauss_member_mse" not in out:
        return None
    return abs(out["gauss_member_mse"] / inst.truth["gauss_mse"] - 1.0)


def _composition_gain(inst, out):
    if "mse_sequential" not in out:
        return None
    return out["mse_sequential"] / out["mse"]


def gaussian_delta_by_quadrature(eps: float, sigma: float) -> float:
    """delta(eps) of N(0, sigma^2) against N(1, sigma^2) by adaptive quadrature of the densities
    (premise p1: a route that shares nothing with Balle & Wang's closed form but the model)."""
    from scipy.integrate import quad
    from scipy.stats import norm

    u_star = 0.5 / sigma - eps * sigma  # the likelihood ratio exceeds e^eps for x / sigma < u_star
    if u_star <= -40.0:
        return 0.0
    # (1 - e^{eps - L}) with L = (1 - 2 x) / (2 sigma^2), x = sigma u: stable for small delta.
    def f(u):
        return norm.pdf(u) * -math.expm1(eps - (1.0 - 2.0 * sigma * u) / (2.0 * sigma * sigma))
    val, _ = quad(f, -40.0, u_star, epsabs=0.0, epsrel=1e-11, limit=200)
    return val


def l2_delta_by_survival(eps: float, shift: float, T: int) -> float:
    """delta(eps) of the unit-beta l2 mechanism at `shift`, from the privacy loss's survival
    function (closed-form cap probabilities, finer radial rule): delta = int_eps^shift e^{eps-l} S(l) dl,
    since L lies in [-shift, shift] (premise p2: not the 2-D (r, theta) quadrature the calibration uses)."""
    from scipy.integrate import quad

    from claimbench.methods.sgg_dp import sgg_loss_survival

    if eps >= shift:
        return 0.0
    surv = sgg_loss_survival(shift, 0.0, 1.0, T, Quadrature(n_panels=96, n_per=8, n_theta=32))
    val, _ = quad(lambda l: math.exp(eps - l) * float(surv(l)[0]), eps, shift, epsabs=0.0, epsrel=1e-8,
                  limit=200)
    return val


def _gauss_delta_relerr(inst, out):
    if "sigma" not in out:
        return None
    d = inst.data
    # k invocations at sigma compose exactly to one at sigma / sqrt(k) (baselines/gaussian_mechanism.py).
    sigma = out["sigma"] / d.get("sensitivity", 1.0) / math.sqrt(d.get("k", 1))
    return abs(gaussian_delta_by_quadrature(d["eps"], sigma) / d["delta"] - 1.0)


def _l2_delta_relerr(inst, out):
    d = inst.data
    if "beta" not in out or out.get("a") != 0.0 or out.get("p") != 1.0 or d.get("k", 1) != 1:
        return None
    shift = out["beta"] * d.get("sensitivity", 1.0)  # unit-beta shift at unit sensitivity (p = 1)
    return abs(l2_delta_by_survival(d["eps"], shift, d["T"]) / d["delta"] - 1.0)


def _l2_gain_vs_gauss(inst, out):
    if "l2_mse" not in out:
        return None
    return 100.0 * (1.0 - out["l2_mse"] / inst.truth["gauss_mse"])


METRICS = (
    output_metric("mse", description="per-invocation E||X||^2 at unit l2-sensitivity"),
    Metric("reduction_vs_gauss_pct", _reduction_vs_gauss, True,
           "100 (1 - MSE / MSE of the analytic Gaussian mechanism, same (eps, delta, k))"),
    Metric("reduction_vs_best_baseline_pct", _reduction_vs_best_baseline, True,
           "100 (1 - MSE / min(MSE Gaussian, MSE l2 mechanism)); methods reporting the l2 MSE only"),
    Metric("gauss_relerr", _gauss_relerr, False,
           "|MSE of the SGG Gaussian member (p=2, alpha=T-1) / analytic Gaussian MSE - 1|"),
    Metric("composition_gain", _composition_gain, True,
           "MSE under sequential composition / MSE under tight composition (same member, k > 1)"),
    Metric("gauss_delta_relerr", _gauss_delta_relerr, False,
           "|delta of the reported sigma (k-fold composed) by quadrature of the densities / target delta - 1|"),
    Metric("l2_delta_relerr", _l2_delta_relerr, False,
           "|one-shot delta of the l2 member's calibrated scale from its loss survival function / target - 1|"),
    Metric("l2_gain_vs_gauss_pct", _l2_gain_vs_gauss, True,
           "100 (1 - MSE of the l2 mechanism / MSE of the analytic Gaussian mechanism, same (eps, delta, k))"),
    output_metric("time_s"),
)


MUTANT = "sgg_best[mutant=sphere_off_by_one]"  # foil: a miscalibrated privacy integral (methods/sgg_dp.py)
L2_PURE = "l2_pure_sequential"  # foil of c7: the l2 mechanism at its pure-DP (eps/k, 0), composed sequentially


def _methods(full: bool, smoke: bool = False) -> tuple:
    res = {"n_panels": 96, "n_theta": 32} if full else {}
    if smoke:
        box = dict(a_grid=(0.0,), p_grid=(1.0, 2.0), refine_evals=6)
    elif full:
        box = dict(a_grid=(-1.5, -1.0, -0.5, -0.25, 0.0, 0.5, 1.0, 2.0), p_grid=(0.75, 1.0, 1.25, 1.5, 2.0, 3.0),
                   refine_evals=120, **res)
    else:
        box = {}
    return (
        cfg(SGGSearch, label="sgg_best", **box),
        cfg(SGGMechanism, label="l2_mechanism", a=0.0, p=1.0, **res),
        cfg(SGGMechanism, label="l2_sequential", a=0.0, p=1.0, composition="sequential", **res),
        cfg(SGGMechanism, label="sgg_gauss", a=0.0, p=2.0, **res),
        cfg(GaussianMechanism, label="gaussian"),
        cfg(GaussianMechanism, label="gaussian_sequential", composition="sequential"),
        # Foils only (see the claims): a mutated calibration, and the Gaussian member composed sequentially.
        cfg(SGGSearch, label=MUTANT, mutant="sphere_off_by_one", **box),
        cfg(SGGMechanism, label="sgg_gauss_sequential", a=0.0, p=2.0, composition="sequential", **res),
        cfg(SGGMechanism, label=L2_PURE, a=0.0, p=1.0, composition="pure_sequential", **res),
    )


ONE_SHOT = {"k": 1}
COMPOSED = {"k": COMPOSED_K}

# The paper's ICML abstract, quoted verbatim (TeX as printed) by the claims below.
_ABS_ASYMP = ("\"as the dimension $T\\to\\infty$, no additive-noise mechanism can asymptotically improve on the "
              "Gaussian mechanism's privacy--utility tradeoff for the strong privacy settings typically used\" "
              "(abstract)")
_ABS_LOWDIM = ("\"We identify members of this family that outperform both the Gaussian and $\\ell_2$ mechanisms "
               "in certain low-dimensional settings\" (abstract)")
_ABS_TIGHT = "\"show tight composition of all mechanisms in this family\" (abstract)"
_ABS_TIGHT_L2 = ("\"show tight composition of all mechanisms in this family, answering an open question of "
                 "Joseph ... regarding the $\\ell_2$ mechanism\" (abstract)")
_FIG2_WHERE = ("research note (Fig. 2's values: 15.0 % from a third-party summary, 12.6 / 10.5 % from our note; "
               "the paper's figure was not read)")
# What the stored full text gives (arxiv.org/html/2606.08681v1, searched 2026-12-06): the abstract and the
# opening of Sec. 1 only; Fig. 2's caption, regime, members and values are not in it (methods/sgg_dp.py, Read).
_FIG2_UNREAD = ("not the paper's number: the stored full text (arXiv v1 HTML) ends in the opening of Sec. 1, "
                "so Fig. 2 (its regime, members and values) was not read; ")
_FIG2_EXACT = ("Deterministic (quadrature and root finding, one seed): the paper's 'up to' is the max over the "
               "declared regimes, judged exactly (Exact, stat='max') inside the band.")
_FIG2_FOILS = ("l2_mechanism", MUTANT)
_FIG2_FOIL_NOTE = ("The l2 mechanism is one of the two mechanisms the SGG members must beat (in sgg_best's place "
                   "its reduction is <= 0, below the band); the off-by-one mutant is not (eps, delta)-DP, so its "
                   "spurious extra reduction must not land in the band. The Gaussian reports no l2 MSE, so the "
                   "metric is undefined for it.")

CLAIMS = (
    Claim(
        id="c1_gauss_calibration",
        where="Sec. 4 (SGG family contains the Gaussian: p=2, alpha=T-1)",
        text="The SGG privacy calibration reproduces the Gaussian mechanism's exact calibration.",
        paper_value=("\"which contains both the Gaussian mechanism and the recently studied $\\ell_2$ mechanism\" "
                     "(abstract)"),
        check=Exact(method="sgg_best", metric="gauss_relerr", target=0.0, tol=1e-3, where=ONE_SHOT),
        note="Harness cross-check against Balle & Wang's analytic Gaussian mechanism (a self-test of our "
             "calibration: it holds by construction when the code is right); numerical tolerance 1e-3 from the "
             "brief.",
        source="derived", basis="construction",
        foils=(MUTANT,),
        foil_note="An exact identity that every correct calibration meets, so only a mutant can fail it: the "
                  "same search with an off-by-one in the sphere's dimension (angle law of S^T for S^{T-1}).",
    ),
    Claim(
        id="c2_fig2_T2",
        where=_FIG2_WHERE,
        text="SGG members outperform both the Gaussian and l2 mechanisms at T=2 (band around a summary's 15 %).",
        paper_value=_ABS_LOWDIM,
        check=Exact(method="sgg_best", metric="reduction_vs_best_baseline_pct", lo=12.0, hi=17.0,
                    stat="max", where={"k": 1, "T": 2}),
        note="The 15 % is " + _FIG2_UNREAD + "it is a third-party summary's (papernotes.org: 'reduces MSE by "
             "up to 15% in certain low-dimensional settings'). "
             "Fig. 2's (eps, delta) could not be read; the summary's 'up to' is read as the max over "
             "a log-spaced eps sweep and delta in {1e-2, 1e-5} (1e-3 too in full), against the better of "
             "the two baselines (the abstract: 'outperform both'). Band [12, 17] proposed by the research note. "
             "Issue 14 (answered, not fixed): this regime is a reconstruction (12.8 / 11.8 / 8.2 % against the "
             "15.0 / 12.6 / 10.5 attributed to the paper by a summary and our note, issue 29); "
             "another (eps, delta) regime with members the paper names reportedly "
             "lands within a point of all three, but the regime and members must be read from the paper's "
             "text and figure, which no stored copy gives beyond the introduction (methods/sgg_dp.py, "
             "Deviation 6; a third-party reproduction attributes eps = delta = 0.1 and a reduction over the "
             "Gaussian to Fig. 2: recorded there as a lead, not adopted, since it is not the paper's text); "
             "picking the regime from the numbers would fit the check to its answer. "
             "Re-checked 2026-12-06 (issue 29): the fetch tool retrieves that repository (commit c8447c1); "
             "its claim4 source audit attributes to arXiv v1 'Figure 2 and Section 4.3' eps = delta = 0.1, "
             "T = 2-5 and 'improvement up to 15%' over the Gaussian, and its own QMC computation of members "
             "(alpha, p) = (1, 4), (2, 4.5), (3.5, 6) gives 14.9 / 12.0 / 10.0 %. Our regime does not match "
             "it (delta in {1e-2, 1e-5}, eps >= 0.25, the better of two baselines, p searched from [1, 2]); "
             "third-party words and numbers, not adopted. "
             + _FIG2_EXACT,
        source="derived",
        foils=_FIG2_FOILS,
        foil_note=_FIG2_FOIL_NOTE,
    ),
    Claim(
        id="c3_fig2_T3",
        where=_FIG2_WHERE,
        text="Best SGG MSE reduction over the better baseline at T=3.",
        paper_value=_ABS_LOWDIM,
        check=Exact(method="sgg_best", metric="reduction_vs_best_baseline_pct", lo=9.6, hi=14.6,
                    stat="max", where={"k": 1, "T": 3}),
        note="12.6 % at T = 3 is our research note's value, " + _FIG2_UNREAD + "same reading as c2; band = the "
             "note's value -3 / +2 points, the offsets of the note's T=2 band.",
        source="derived",
        foils=_FIG2_FOILS,
        foil_note=_FIG2_FOIL_NOTE,
    ),
    Claim(
        id="c4_fig2_T5",
        where=_FIG2_WHERE,
        text="Best SGG MSE reduction over the better baseline at T=5.",
        paper_value=_ABS_LOWDIM,
        check=Exact(method="sgg_best", metric="reduction_vs_best_baseline_pct", lo=7.5, hi=12.5,
                    stat="max", where={"k": 1, "T": 5}),
        note="10.5 % at T = 5 is our research note's value, " + _FIG2_UNREAD + "same reading as c2; band = the "
             "note's value -3 / +2 points.",
        source="derived",
        foils=_FIG2_FOILS,
        foil_note=_FIG2_FOIL_NOTE,
    ),
    Claim(
        id="c5_shrinks_with_T",
        where="abstract; Thm 3.1",
        text="As T grows no additive noise improves on the Gaussian: the SGG gain shrinks with T.",
        paper_value=_ABS_ASYMP,
        check=Slope(method="sgg_best", metric="reduction_vs_best_baseline_pct", x="T", log_x=True, log_y=False,
                    hi=0.0, where=ONE_SHOT),
        note="Least-squares slope of the reduction (points per unit ln T) over all one-shot regimes; must be < 0. "
             "Fig. 2's values as our research note gives them (not read in the paper): 15.0 / 12.6 / 10.5 % at "
             "T = 2 / 3 / 5.",
        source="paper",
        foils=("l2_mechanism",),
        foil_note="The l2 mechanism never beats the better of itself and the Gaussian: its 'gain' is <= 0 and "
                  "rises towards 0 with T, so it has no gain that shrinks. The mutant's spurious gain also "
                  "shrinks (about 1/(T+1)), so the sentence does not rule it out.",
    ),
    Claim(
        id="c6_vanishes_T50",
        where="Thm 3.1",
        text="In high dimension the best SGG member is no better than the Gaussian/l2 mechanisms.",
        paper_value=_ABS_ASYMP,
        check=Exact(method="sgg_best", metric="reduction_vs_best_baseline_pct", hi=5.0,
                    where={"k": 1, "T": 50}),
        note="The theorem is asymptotic; 5% at T=50 is the power-law extrapolation of the three Fig. 2 "
             "values our research note gives (15.0, 12.6, 10.5 at T=2, 3, 5 give ~4.3%; not read in the "
             "paper), rounded up. Deterministic: every "
             "regime at T=50 must stay at or below it (exact).",
        source="derived",
        foils=(MUTANT,),
        foil_note="Only a mechanism that is not (eps, delta)-DP can beat the Gaussian at T = 50 (the theorem); the "
                  "off-by-one mutant under-noises every member (by about 1/(T+1) of the MSE). The l2 mechanism "
                  "is no better than itself and meets the sentence, so it is not a foil.",
    ),
    Claim(
        id="c7_tight_beats_sequential",
        where="abstract; Fig. 3 / Algorithm 7",
        text="Tight composition of the l2 mechanism needs less noise than sequential composition.",
        check=Better(method="l2_mechanism", baseline="l2_sequential", metric="mse", where=COMPOSED),
        paper_value=_ABS_TIGHT_L2,
        note="Paired over the (eps, k[, T]) regimes; per-invocation MSE with k invocations jointly (eps, delta)-DP. "
             "Fig. 3's regime was not read (a third-party reproduction gives the l2 mechanism at T = 10, (eps, "
             "delta) = (1, 1e-5), k = 2..32; ours is T = 2, eps in {0.5, 1}: methods/sgg_dp.py, Deviation 6).",
        source="paper",
        foils=(L2_PURE,),
        foil_note="The wording credits the saving to tight composition, so an untight composition of the same "
                  "mechanism must not beat sequential (eps/k, delta/k) composition: l2_pure_sequential composes "
                  "the l2 mechanism's pure-DP guarantee (eps/k, 0) sequentially, ignoring delta and the joint "
                  "privacy loss (valid, and never below l2_sequential's MSE: a one-sided foil that shows the check "
                  "is not passed by any composition). l2_sequential itself is the baseline (a method against "
                  "itself gives no evidence); the other sequential configs compose other mechanisms.",
    ),
    Claim(
        id="c8_gain_grows_with_k",
        where="Fig. 3",
        text="The advantage of tight over sequential composition grows with the number of compositions k.",
        check=Slope(method="l2_mechanism", metric="composition_gain", x="k", log_x=True, log_y=True, lo=0.0,
                    where=COMPOSED),
        note="The paper's Fig. 3 magnitudes were not readable, so only the direction is checked (log-log "
             "slope > 0). For the Gaussian the gain grows ~k (slope 1); the l2 mechanism is close to pure DP, "
             "for which sequential composition is nearly tight at small k, so its slope is expected lower.",
        source="derived",
        foils=(),
        foil_note="None exists. The sentence states what every valid accountant tighter than sequential "
                  "composition shows, not what Algorithm 7 alone shows: the k-fold privacy loss concentrates "
                  "(its mean grows like k, its spread like sqrt(k)), so already the advanced composition "
                  "theorem's eps ~ sqrt(2 k ln(1/delta')) eps_0 beats sequential's k eps_0, once k is large, by a "
                  "factor ~ sqrt(k / (2 ln(1/delta'))) that grows with k; a sound but untight accountant therefore meets the sentence too and cannot be its foil. "
                  "The grid's other configs that report composition_gain compose sequentially (l2_sequential, "
                  "sgg_gauss_sequential, l2_pure_sequential: gain = their MSE over itself, 1 by definition, a "
                  "method against itself) or are tight too (sgg_gauss: its gain grows ~k, as the sentence says). "
                  "A mutant built to flatten the gain would be chosen for its outcome (rule 6). The claim stays "
                  "without a foil (not_discriminating); Fig. 3's magnitudes, once read, would make it checkable "
                  "against a number.",
    ),
    Claim(
        id="c9_tight_is_tight",
        where="Algorithm 7",
        text="Algorithm 7 composes SGG mechanisms tightly (checked on the Gaussian member, whose k-fold "
             "composition is a Gaussian with sigma / sqrt(k)).",
        check=Exact(method="sgg_gauss", metric="gauss_relerr", target=0.0, tol=1e-2, where=COMPOSED),
        paper_value=_ABS_TIGHT,
        note="Our PLD grid rounds losses up with step 2e-3 eps / k, a bias of about 0.2% in MSE; the declared "
             "numerical tolerance is 1e-2. A self-test of our accountant against the closed form.",
        source="derived", basis="construction",
        foils=("sgg_gauss_sequential",),
        foil_note="The Gaussian member composed sequentially ((eps/k, delta/k) each) is valid but not tight: its "
                  "MSE must not match the exactly composed Gaussian.",
    ),
)

_GAUSS_GATED = ("c1_gauss_calibration", "c2_fig2_T2", "c3_fig2_T3", "c4_fig2_T5", "c5_shrinks_with_T",
                "c6_vanishes_T50", "c9_tight_is_tight")
_L2_GATED = ("c2_fig2_T2", "c3_fig2_T3", "c4_fig2_T5", "c5_shrinks_with_T", "c6_vanishes_T50",
             "c7_tight_beats_sequential", "c8_gain_grows_with_k")
PREMISES = (
    Premise(id="p1_gauss_baseline_exact",
            text="The Gaussian baseline (the reference of every reduction and of c1 / c9) is calibrated "
                 "exactly: at its reported sigma, k invocations are (eps, delta)-DP with equality.",
            check=Exact(method="gaussian", metric="gauss_delta_relerr", target=0.0, tol=1e-6),
            claims=_GAUSS_GATED,
            note="delta recomputed by adaptive quadrature of the two shifted Gaussian densities (not Balle & "
                 "Wang's closed form that calibrates it), k-fold composition as one Gaussian at sigma / sqrt(k). "
                 "Tolerance 1e-6: numerical (quadrature epsrel 1e-11, root finder xtol 1e-14 in ln sigma). Fails "
                 "if the closed form, its root finder or the composition rule is wrong: every reduction would "
                 "then be measured against a wrong reference."),
    Premise(id="p2_l2_baseline_calibrated",
            text="The l2 baseline is calibrated to its target: at its one-shot scale, delta(eps) recomputed by "
                 "another route equals the target delta.",
            check=Exact(method="l2_mechanism", metric="l2_delta_relerr", target=0.0, tol=1e-2, where=ONE_SHOT),
            claims=_L2_GATED,
            note="delta recomputed from the privacy loss's survival function (closed-form spherical-cap "
                 "probabilities, twice the radial panels; methods/sgg_dp.py item 6) integrated against "
                 "e^{eps - l}, not from the 2-D (r, theta) quadrature that calibrates it (item 3). Tolerance "
                 "1e-2 relative in delta, the numerical tolerance c9 declares for the accountant; it moves the "
                 "MSE by a fraction of a per cent, far inside the c2-c4 bands. A miscalibrated l2 mechanism "
                 "(too little noise: a spurious baseline; too much: a spurious SGG gain) fails it."),
    Premise(id="p3_l2_competitive_low_dim",
            text="The l2 mechanism behaves as its authors report in low dimension: at T = 2 it has lower MSE "
                 "than the analytic Gaussian mechanism in at least one one-shot regime of the grid, so 'outperform "
                 "both' asks more than beating the Gaussian.",
            check=Exact(method="l2_mechanism", metric="l2_gain_vs_gauss_pct", lo=0.0, stat="max",
                        where={"k": 1, "T": 2}),
            claims=("c2_fig2_T2", "c3_fig2_T3", "c4_fig2_T5"),
            note="Joseph, Kulesza, Yu, 'Approximate Differential Privacy of the l2 Mechanism' (arXiv 2502.15929, "
                 "abstract, as stored in the search tool's pages): \"Across a range of privacy parameters, we find "
                 "that the $\\ell_2$ mechanism obtains lower error than the Laplace and Gaussian mechanisms, "
                 "matching the former at $d=1$ and approaching the latter as $d \\to \\infty$\"; the SGG paper's "
                 "abstract names it one of the two mechanisms its members must beat. Threshold 0 from those "
                 "words (lower error). Declared after results were seen: the committed report's c2 foil line "
                 "(the l2 mechanism's reduction over the better baseline at T = 2 is 0) implies it."),
)

# The abstract's checkable statements (ICML 2026 abstract), verbatim.
HEADLINES = (
    Headline(quote="as the dimension $T\\to\\infty$, no additive-noise mechanism can asymptotically improve on "
                   "the Gaussian mechanism's privacy--utility tradeoff for the strong privacy settings typically "
                   "used", claims=("c5_shrinks_with_T", "c6_vanishes_T50")),
    Headline(quote="a new family of **Spherical Generalized Gamma** DP mechanisms, which contains both the "
                   "Gaussian mechanism and the recently studied $\\ell_2$ mechanism",
             claims=("c1_gauss_calibration",)),
    Headline(quote="We identify members of this family that outperform both the Gaussian and $\\ell_2$ mechanisms "
                   "in certain low-dimensional settings",
             claims=("c2_fig2_T2", "c3_fig2_T3", "c4_fig2_T5")),
    Headline(quote="show tight composition of all mechanisms in this family",
             claims=("c9_tight_is_tight", "c7_tight_beats_sequential")),
)

# k is always explicit so that claims can select on it.
_SMOKE = (cfg(PrivacyRegime, eps=0.5, delta=1e-2, T=2, k=1), cfg(PrivacyRegime, eps=1.0, delta=1e-5, T=2, k=4))
_QUICK = (sweep(PrivacyRegime, T=[2, 3, 5, 10, 50], eps=[0.25, 0.5, 1.0, 2.0], delta=[1e-2], k=[1])
          + sweep(PrivacyRegime, T=[2, 3, 5, 10, 50], eps=[1.0], delta=[1e-5], k=[1])
          + sweep(PrivacyRegime, T=[2], eps=[0.5, 1.0], delta=[1e-5], k=[2, 4, 8, 16, 32]))
_FULL_EPS = [0.125, 0.177, 0.25, 0.354, 0.5, 0.707, 1.0, 1.414, 2.0]
_FULL = (sweep(PrivacyRegime, T=[2, 3, 5, 10, 20, 50], eps=_FULL_EPS, delta=[1e-2, 1e-3, 1e-5], k=[1])
         + sweep(PrivacyRegime, T=[2, 5], eps=[0.5, 1.0, 2.0], delta=[1e-5], k=list(COMPOSED_K)))

BENCHMARK = Benchmark(
    slug="sgg_dp",
    paper=Paper(
        title="Asymptotic Optimality of the High-Dimensional Gaussian Mechanism and Improved "
              "Low-Dimensional Mechanisms for Differential Privacy",
        arxiv="2606.08681",
        url="https://arxiv.org/abs/2606.08681",
        version="arXiv v1 HTML (stored copy: abstract and the opening of Sec. 1 only; Fig. 2 not read, its "
                "values from a summary and our research note)",
        authors="Yu Wei, Alexander Bienstock, Antigoni Polychroniadou",
    ),
    area="privacy_estimation",
    fidelity="faithful",
    methods=(SGGSearch, SGGMechanism),
    baselines=(GaussianMechanism,),
    datasets=(PrivacyRegime,),
    metrics=METRICS,
    primary_metric="mse",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    premises=PREMISES,
    headlines=HEADLINES,
    grids={
        "smoke": Grid(datasets=_SMOKE, seeds=1, methods=_methods(False, smoke=True),
                      note="one one-shot and one composed regime, tiny (alpha, p) grid"),
        "quick": Grid(datasets=_QUICK, seeds=1, methods=_methods(False),
                      note="deterministic: one seed; eps on a factor-2 grid, delta 1e-2 and the note's 1e-5; "
                           "coarse (a, p) grid + 40 Nelder-Mead calibrations; composition at T=2"),
        "full": Grid(datasets=_FULL, seeds=1, methods=_methods(True),
                     note="eps on a factor-sqrt(2) grid, delta in {1e-2, 1e-3, 1e-5}, T up to 50; wide (a, p) "
                          "grid, finer quadrature; composition at T in {2, 5}, k up to 64"),
    },
    description="Least-MSE Spherical Generalized Gamma noise for (eps, delta)-DP vector queries: exact "
                "calibration of any spherically symmetric noise by a 2-D quadrature, search over (alpha, p), "
                "and tight k-fold composition by privacy-loss-distribution FFT.",
    fidelity_note="The paper's computations are reproduced exactly (no learning, no sampling). The regime of "
                  "Fig. 2 and the magnitudes of Fig. 3 could not be read offline, so the (eps, delta) sweep and "
                  "the reading 'reduction over the better of Gaussian and l2' are reconstructions (see claims); "
                  "issue 14's report of a closer regime with the paper's named members is answered in "
                  "methods/sgg_dp.py, Deviation 6 (the paper's body was not readable to take it from; searched "
                  "again for issue 29 on 2026-12-06: the stored arXiv HTML ends in the opening of Sec. 1).",
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared; added to every grid: the mutant "
                       "sgg_best[mutant=sphere_off_by_one] (privacy integral with the angle law of S^T) and "
                       "sgg_gauss_sequential (the Gaussian member composed sequentially); sequential SGG configs "
                       "now report mse_sequential = mse (composition_gain = 1); paper_value quotes the abstract",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_gauss_calibration", "c6_vanishes_T50", "c7_tight_beats_sequential",
                          "c8_gain_grows_with_k", "c9_tight_is_tight"),
                  what="c1, c9: Value(stat=max) -> Exact(target 0, tolerance 1e-3 / 1e-2, the same bounds) and "
                       "basis='construction'; c6: Value(stat=max, hi=5) -> Exact(hi=5); c7: foil l2_sequential "
                       "(its own baseline) removed, none left; c8: foil l2_sequential removed (its "
                       "composition_gain is its MSE over itself, 1 by definition), none left",
                  why="every number here is a deterministic computation: a sign test over regimes cannot "
                      "decide it (c6: p >= 2^-5 against a Holm level of 0.0056); c1 and c9 are self-tests of "
                      "our calibration and accountant against closed forms; c7's and c8's foils compared a "
                      "method with itself",
                  results_seen=True,
                  rule="issue 26: deterministic results use Exact; harness self-tests are "
                       "basis='construction'; Y-vs-Y foils removed"),
        Amendment(date="2026-12-06",
                  claims=("c2_fig2_T2", "c3_fig2_T3", "c4_fig2_T5"),
                  what="Value(stat='max', lo, hi) (a sign test over regimes) -> Exact(stat='max', the same lo "
                       "and hi); foils and scopes unchanged",
                  why="the computation is deterministic and the old design could not be decided (p >= 2^-5 "
                      "against a Holm level of 0.0056)",
                  results_seen=True,
                  rule="issue 26: deterministic results use Exact"),
        Amendment(date="2026-12-06",
                  claims=("c2_fig2_T2", "c3_fig2_T3", "c4_fig2_T5", "c5_shrinks_with_T"),
                  what="c2, c3, c4: source paper -> derived, where 'Fig. 2' -> the research note; paper_value "
                       "says where each number comes from (15.0 %: a third-party summary; 12.6 / 10.5 %: our "
                       "note), checks unchanged; c5: paper_value quotes only the ICML abstract (the note's "
                       "numbers moved to note), where 'Thm 3.1 / Fig. 2' -> 'abstract; Thm 3.1', check unchanged",
                  why="issue 29: the 12.6 % and 10.5 % quoted as the paper's come from our notes and the 15 % "
                      "from a third-party summary, not from the paper's text (its Fig. 2 was not read): checks "
                      "of numbers the abstract does not state are derived, and a paper claim quotes the ICML "
                      "abstract's words",
                  results_seen=True,
                  rule="issue 26: source by placement (research-note numbers are derived); the paper's own "
                       "words"),
        Amendment(date="2026-12-06",
                  claims=("c2_fig2_T2", "c3_fig2_T3", "c4_fig2_T5"),
                  what="paper_value -> the abstract's words only (c2 no longer carries the summary's 15 %, c3 / c4 "
                       "no longer the note's 12.6 / 10.5 %); those numbers and where they come from moved to note; "
                       "c2's text says the band is around a summary's number; checks, bands, scopes and foils "
                       "unchanged",
                  why="issue 29: paper_value holds the paper's number or words, and 15.0 / 12.6 / 10.5 % are not "
                      "the paper's: the stored full text (arxiv.org/html/2606.08681v1, ten queries on 2026-12-06) "
                      "gives the abstract and the opening of Sec. 1 only, so Fig. 2's caption, regime (eps, delta, "
                      "sensitivity, T range) and members could not be read and no regime amendment could be taken "
                      "from it (grid unchanged)",
                  results_seen=True,
                  rule="issue 26: the paper's own words (quotes)"),
        Amendment(date="2026-12-06",
                  claims=("c1_gauss_calibration", "c2_fig2_T2", "c3_fig2_T3", "c4_fig2_T5", "c5_shrinks_with_T",
                          "c6_vanishes_T50", "c8_gain_grows_with_k", "c9_tight_is_tight"),
                  what="methods/sgg_dp.py edited (its bytes are in every claim's design): provenance header "
                       "(what of the full text was read; Deviations 1 and 6) and a composition='pure_sequential' "
                       "branch that only c7's new foil config runs; no config these claims read computes anything "
                       "different",
                  why="issue 29: the method header says which sections were read; c7's foil (next amendment)",
                  results_seen=True,
                  rule="issue 29: the method file's provenance header (sections read) and a "
                       "branch only a foil runs; same experiment, every non-timing metric of the "
                       "committed quick cells unchanged (compared cell by cell with the previous "
                       "store: 0 differences)"),
        Amendment(date="2026-12-06",
                  claims=("c7_tight_beats_sequential",),
                  what="foil l2_pure_sequential added (new config in every grid: the l2 mechanism at its pure-DP "
                       "guarantee (eps/k, 0), composed sequentially; methods/sgg_dp.py composition="
                       "'pure_sequential'); where 'Fig. 3 / Algorithm 7' -> 'abstract; Fig. 3 / Algorithm 7' (its "
                       "paper_value quotes the abstract, now checked by check_quotes); check unchanged",
                  why="issue 29: c7's only foil was its own baseline (removed under issue 26), leaving a paper claim "
                      "with no foil; the wording credits the saving to tight composition, so an untight composition "
                      "of the same mechanism must fail it. A foil chosen after results were seen: post hoc",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("p2_l2_baseline_calibrated",),
                  what="premise p2_l2_baseline_calibrated added: Exact(l2_mechanism, l2_delta_relerr, target 0, "
                       "tol 1e-2, k = 1), a new metric (one-shot delta of the l2 member's calibrated scale from its "
                       "loss survival function, relative to the target), gating c2-c8",
                  why="issue 29 rule 4: the baselines must be competent before the reductions over them are read; "
                      "tolerance from c9's declared numerical tolerance. Declared before the metric was computed "
                      "on any grid regime",
                  results_seen=False),
        Amendment(date="2026-12-06", claims=("p1_gauss_baseline_exact", "p3_l2_competitive_low_dim"),
                  what="premises added: p1_gauss_baseline_exact (Exact(gaussian, gauss_delta_relerr, target 0, "
                       "tol 1e-6), a new metric: delta at the reported sigma by quadrature of the densities), gating "
                       "c1-c6 and c9; p3_l2_competitive_low_dim (Exact(l2_mechanism, l2_gain_vs_gauss_pct, lo 0, "
                       "stat max, k = 1, T = 2), a new metric), gating c2-c4",
                  why="issue 29 rule 4: the Gaussian reference must be exact, and the l2 mechanism must be the "
                      "competitor its authors report in low dimension (else 'outperform both' reduces to beating "
                      "the Gaussian). Results seen: p1's quadrature helper was checked against the closed-form "
                      "sigma at three one-shot (eps, delta) pairs (two in the grid; agreement 1e-14) before it was "
                      "declared (tolerance chosen first); p3 is implied by the committed report's c2 foil line",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=tuple(c.id for c in CLAIMS),
                  what="benchmarks/sgg_dp.py edited (its bytes are in every claim's design): the three premises "
                       "above now gate c1-c9 (p1: c1-c6, c9; p2: c2-c8; p3: c2-c4) and three metrics were added; "
                       "c8's foil_note says why no foil exists; c2's note records the issue 29 re-check of the "
                       "third-party lead. Checks, thresholds, foils, grids and methods unchanged: every "
                       "non-timing metric of the 315 quick cells equals the committed store's (975 values "
                       "compared: 0 differences)",
                  why="issue 29 rules 4 and 6: premises declared and judged; c8 has no foil its wording calls for",
                  results_seen=True),
    ),
)
