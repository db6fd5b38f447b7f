"""Adam converges linearly on highly degenerate polynomials (arXiv 2603.09581).

Adam with a constant learning rate on f(x) = x^k / k (k = 4, 6, 8) against gradient
descent, heavy-ball momentum, RMSprop and sign descent. Every run is read through the
same declared windows of its trajectory (see ``window``): a linear rate fitted to
ln||x_t|| over the last half of the trusted iterates, the ratio of that rate to the one
over the quarter before (1 for linear convergence, exactly 0.5 for a power law), the
log-log slope of f(x_t) against t, sign changes and loss spikes. A grid over
(beta1, beta2) places each Adam run in a regime and compares it with the stability
conditions of ``methods/adam_degenerate.py`` (our reconstruction of the paper's).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                            output_metric, sweep)
from claimbench.baselines.gradient_descent import GradientDescent
from claimbench.baselines.heavy_ball import HeavyBall
from claimbench.baselines.rmsprop import RMSprop
from claimbench.baselines.sign_descent import SignDescent
from claimbench.checks import Better, Exact, Value
from claimbench.datasets.degenerate_polynomials import DegeneratePolynomial, log_loss, norms
from claimbench.methods.adam_degenerate import Adam, decoupled_rate, stability

# Used only by the claims: an assignment rather than an import, so that the module's cell key
# (provenance.cell_hash drops judgement-only assignments, not imports) does not change.

MIN_POINTS = 20  # a fitting window with fewer iterates gives no rate (None)
# A spike (the authors' own wording, arXiv 2506.04805 Sec. 1: "a sudden and sharp surge in the
# loss function that subsequently subsides"): the envelope of ||x|| (its max over the last
# SPIKE_ENVELOPE steps, longer than the oscillation periods of the unstable points, so a zero
# crossing or a 2-cycle is not a surge) rises above 10x its minimum over the previous 100 steps
# (factor and look-back from the research note). Issue 14: the envelope replaced the raw ||x||,
# whose dips at every zero crossing counted any oscillation as a spike.
SPIKE_LOOKBACK, SPIKE_FACTOR, SPIKE_ENVELOPE = 100, 10.0, 20
LINEAR_RATIO = (0.8, 1.25)  # rate_ratio band read as "constant rate" (power law gives 0.5)
# c1's band (issue 14): linear convergence gives a late/early rate ratio of 1, every power law
# exactly 0.5 (the paper's dichotomy: linear Adam vs sub-linear GD / momentum); the band is the
# set of ratios closer to 1 than to 0.5 on the log scale, symmetric about 1: (2^-1/2, 2^1/2).
C1_BAND = (2 ** -0.5, 2 ** 0.5)
SIGN_STABLE, SIGN_SIGNGD = 0.01, 0.5  # sign-change fractions: monotone / SignGD-like


# -- trajectory diagnostics (also used by the tests) -------------------------------------------
def _memo(fn):
    """Cache a diagnostic in the outputs dict: every metric of a cell reads the same dict."""
    @functools.wraps(fn)
    def wrapped(out: dict):
        cache = out.setdefault("_diagnostics", {})
        if fn.__name__ not in cache:
            cache[fn.__name__] = fn(out)
        return cache[fn.__name__]
    return wrapped


def window(out: dict) -> tuple[int, int]:
    """The declared rate window: the last half [t_valid // 2, t_valid] of the trusted iterates."""
    end = int(out["t_valid"])
    return end // 2, end


def fit_slope(y: np.ndarray, a: int, b: int) -> float | None:
    """Least-squares slope of y[a..b] against the index; None when the window is too short."""
    if b - a + 1 < MIN_POINTS:
        return None
    t = np.arange(a, b + 1, dtype=float)
    seg = y[a:b + 1]
    if not np.all(np.isfinite(seg)):
        return None
    tc = t - t.mean()
    return float(np.dot(tc, seg - seg.mean()) / np.dot(tc, tc))


@_memo
def log_norm(out: dict) -> np.ndarray:
    return np.log(np.maximum(norms(out["x_traj"]), 1e-320))


@_memo
def fitted_rate(out: dict) -> float | None:
    a, b = window(out)
    return fit_slope(log_norm(out), a, b)


@_memo
def rate_ratio(out: dict) -> float | None:
    """Late/early rate: slope over [T/2, T] divided by slope over [T/4, T/2] (T = t_valid)."""
    a, b = window(out)
    y = log_norm(out)
    late, early = fit_slope(y, a, b), fit_slope(y, b // 4, a)
    if late is None or early is None or early == 0.0:
        return None
    return late / early


def loglog_slope(out: dict, k: int) -> float | None:
    """Slope of ln f(x_t) against ln t at 60 log-spaced t in [t_valid / 10, t_valid]."""
    end = int(out["t_valid"])
    if end < 100:
        return None
    t = np.unique(np.geomspace(max(1, end // 10), end, 60).astype(int))
    lf = log_loss(out["x_traj"][t], k)
    return float(np.polyfit(np.log(t), lf, 1)[0])


@_memo
def sign_change_frac(out: dict) -> float | None:
    a, b = window(out)
    xs = np.asarray(out["x_traj"][a:b + 1])
    if len(xs) < MIN_POINTS:
        return None
    s = np.sign(xs)
    return float(np.mean(s[1:] != s[:-1]))


@_memo
def spike_count(out: dict) -> int | None:
    """Spike events in the rate window: runs of iterates t whose envelope e_t = max ||x_s|| over
    s in (t - 20, t] exceeds 10 x the minimum of e over the 100 iterates before t (a sudden
    surge of the loss; the envelope keeps zero crossings and 2-cycles from counting)."""
    a, b = window(out)
    r = norms(out["x_traj"][:b + 1])
    start = max(a, SPIKE_LOOKBACK)
    if b - start + 1 < MIN_POINTS:
        return None
    from numpy.lib.stride_tricks import sliding_window_view

    W = SPIKE_ENVELOPE
    env = sliding_window_view(np.concatenate([np.full(W - 1, r[0]), r]), W).max(axis=1)
    low = sliding_window_view(env[:b], SPIKE_LOOKBACK).min(axis=1)  # low[j] = min env[j:j+L]
    up = env[start:b + 1] > SPIKE_FACTOR * low[start - SPIKE_LOOKBACK:b + 1 - SPIKE_LOOKBACK]
    return int(up[0]) + int(np.count_nonzero(up[1:] & ~up[:-1]))


@_memo
def regime(out: dict) -> int | None:
    """0 linear convergence, 1 spikes, 2 SignGD-like sign flipping, 3 anything else."""
    sc, sp = sign_change_frac(out), spike_count(out)
    rate, ratio = fitted_rate(out), rate_ratio(out)
    if sc is None or sp is None:
        return None
    if sc >= SIGN_SIGNGD:
        return 2
    if sp >= 1:
        return 1
    if (sc <= SIGN_STABLE and rate is not None and rate < 0 and ratio is not None
            and LINEAR_RATIO[0] <= ratio <= LINEAR_RATIO[1]):
        return 0
    return 3


# -- metrics ---------------------------------------------------------------------------------
def _k(inst) -> int:
    return int(inst.truth["k"])


def _adaptive(out: dict) -> bool:
    return "beta2" in out and 0.0 < out["beta2"] < 1.0


def _rate_over_theory(inst, out):
    rate = fitted_rate(out)
    if rate is None or not _adaptive(out) or out.get("eps", 0.0) > 0.0:
        return None
    return rate / decoupled_rate(out["beta2"], _k(inst))


def _loglog_over_theory(inst, out):
    s = loglog_slope(out, _k(inst))
    return None if s is None else s / (-_k(inst) / (_k(inst) - 2))


def _theory_regime(inst, out):
    if not _adaptive(out):
        return None
    return float(stability(out["beta1"], out["beta2"], _k(inst))["regime"])


def _converged_linearly(inst, out):
    r = regime(out)
    return None if r is None else float(r == 0)


def _regime_match(inst, out):
    r = regime(out)
    if r is None or not _adaptive(out):
        return None
    return float((r == 0) == stability(out["beta1"], out["beta2"], _k(inst))["stable"])


def _final_log10_norm(inst, out):
    return float(np.log10(max(norms(out["x_traj"][-1:])[0], 1e-300)))


def _final_log10_loss(inst, out):
    return float(max(log_loss(out["x_traj"][-1:], _k(inst))[0] / math.log(10), -300.0))


def _float_or_none(fn):
    def read(inst, out):
        v = fn(out)
        return None if v is None else float(v)
    return read


METRICS = (
    Metric("log10_final_loss", _final_log10_loss, False,
           "log10 f(x) at the last simulated iterate (floored at -300; see stopped_early)"),
    Metric("log10_final_norm_x", _final_log10_norm, False,
           "log10 ||x|| at the last simulated iterate (floored at -300)"),
    Metric("stopped_early", lambda i, o: float(o["t_run"] < i.data["n_iter"]), False,
           "1 when the run left the float64 range before the budget: its final values are "
           "then upper bounds"),
    Metric("fitted_rate", _float_or_none(fitted_rate), False,
           "least-squares slope of ln||x_t|| vs t over the window [t_valid/2, t_valid]"),
    Metric("rate_ratio", _float_or_none(rate_ratio), False,
           "fitted rate over [t_valid/2, t_valid] / over [t_valid/4, t_valid/2]: 1 = linear, "
           "0.5 = power law"),
    Metric("rate_over_theory", _rate_over_theory, False,
           "fitted_rate / (ln beta2 / (2(k-2))), adaptive methods with eps = 0"),
    Metric("loglog_slope", lambda i, o: loglog_slope(o, _k(i)), False,
           "slope of ln f(x_t) vs ln t over [t_valid/10, t_valid]"),
    Metric("loglog_over_theory", _loglog_over_theory, False,
           "loglog_slope / (-k/(k-2)), the GD/momentum power law f ~ t^(-k/(k-2))"),
    Metric("sign_change_frac", _float_or_none(sign_change_frac), False,
           "fraction of steps in the window where x changes sign (mean over coordinates)"),
    Metric("spike_count", _float_or_none(spike_count), False,
           "spike events in the window: runs of t whose 20-step envelope max ||x|| exceeds 10 x "
           "the envelope's min over the 100 steps before (a sudden surge of the loss)"),
    Metric("regime", _float_or_none(regime), False,
           "empirical regime: 0 linear, 1 spikes, 2 SignGD-like, 3 other"),
    Metric("converged_linearly", _converged_linearly, True, "1 when regime == 0"),
    Metric("theory_regime", _theory_regime, False,
           "regime predicted by the reconstructed stability conditions (0 stable, 1 spike "
           "side, 2 SignGD-like side)"),
    Metric("regime_match", _regime_match, True,
           "1 when 'converged linearly' agrees with the predicted local stability"),
    Metric("fit_start", lambda i, o: float(window(o)[0]), False, "first iterate of the window"),
    Metric("fit_end", lambda i, o: float(window(o)[1]), False,
           "last trusted iterate (|x|, v >= 1e-300; sqrt(v^) >= 10 eps)"),
    output_metric("time_s", description="wall time of the optimizer loop"),
)

# -- grids -----------------------------------------------------------------------------------
KS = (4, 6, 8)
ADAM_FAST = cfg(Adam, beta2=0.99)  # label adam[beta2=0.99]
STABLE_POINT = cfg(Adam, beta1=0.8, beta2=0.9)  # stable for every k (6a: 0.8 < 0.9)
SPIKE_POINT = cfg(Adam, beta1=0.95, beta2=0.9)  # 6a fails for k <= 8 (0.95 > 0.9^(k/(2(k-2))))
SIGNGD_POINT = cfg(Adam, beta1=0.0, beta2=0.01)  # 6b fails for k = 4, 6, 8
K_BOUNDARY_POINT = cfg(Adam, beta1=0.56, beta2=0.5)  # 6a fails at k = 4 only (0.5, 0.59, 0.63)
NAMED = (cfg(Adam), ADAM_FAST, cfg(Adam, eps=1e-8), STABLE_POINT, SPIKE_POINT, SIGNGD_POINT,
         K_BOUNDARY_POINT)
BASELINES = (cfg(GradientDescent), cfg(HeavyBall), cfg(RMSprop), cfg(SignDescent))
# Foils: Adam with AMSGrad's running max of v^ (methods/adam_degenerate.py, "Mutants for foils"),
# which removes the decoupling of v_t from g_t^2, at the default point and at the k-boundary point.
MAX_V = cfg(Adam, mutant="max_v")  # label adam[mutant=max_v]
MAX_V_BOUNDARY = cfg(Adam, beta1=0.56, beta2=0.5, mutant="max_v")
MUTANTS = (MAX_V, MAX_V_BOUNDARY)


def _phase(beta1s, beta2s) -> tuple:
    named = {c.label for c in NAMED}
    grid = (cfg(Adam, beta1=b1, beta2=b2) for b1 in beta1s for b2 in beta2s)
    return tuple(c for c in grid if c.label not in named)


QUICK_PHASE = _phase((0.0, 0.56, 0.8, 0.95, 0.995), (0.01, 0.5, 0.9, 0.99, 0.999))
FULL_PHASE = _phase(tuple(round(float(b), 3) for b in np.linspace(0.0, 0.99, 12)),
                    tuple(round(float(b), 3) for b in np.linspace(0.01, 0.999, 12)))

# Issue 29: c4/c4b's 4 decades cannot show at the quick horizon whatever Adam does.
_HORIZON = ("Decided on the full grid only (issue 29): at beta2 = 0.999 the linear rate "
            "ln(beta2)/(2(k-2)) is about -2.5e-4 (k = 4) to -8.3e-5 (k = 8) per step in ln||x||, "
            "i.e. about 2.2 to 0.7 decades in the quick grid's 2e4 steps, so a 4-decade lead "
            "over GD cannot appear there (a horizon artefact, not evidence against the claim); "
            "the full grid runs 1e5 steps (about 10.9 to 3.6 decades). The contrast as rates "
            "(linear against sub-linear) is c1 with its gd and heavy_ball foils, and c3/c3b.")
_RATE_NOTE = ("Window: the last half [t_valid/2, t_valid] of the trusted iterates (t_valid = "
              "budget, or the last iterate before v_t or |x_t| fell below 1e-300); recorded "
              "as fit_start / fit_end. ")

BENCHMARK = Benchmark(
    slug="adam_degenerate",
    paper=Paper(
        title="Towards Understanding Adam Convergence on Highly Degenerate Polynomials",
        arxiv="2603.09581",
        url="https://arxiv.org/abs/2603.09581",
        version="arXiv v1 abstract + third-party summaries (body not read)",
        authors="Zhiwei Bai, Jiajie Zhao, Zhangchen Zhou, Zhi-Qin John Xu, Yaoyu Zhang",
    ),
    area="optimization",
    fidelity="scaled_down",
    fidelity_note=("The paper's own problem (f = x^k/k, constant learning rate, plain Adam with "
                   "bias correction) run in float64 with eps = 0, k = 4, 6, 8, starts |x0| in "
                   "[0.8, 1.2], lr = 0.01, 2e4 iterations (quick) or 1e5 (full). The theorems, "
                   "phase boundaries and experimental hyperparameters were not read: the linear "
                   "rate ln(beta2)/(2(k-2)) and the stability conditions (det = beta1/rho^k < 1; "
                   "no period-2 flip) are our derivation of the decoupling mechanism the "
                   "abstract names, and the spike / SignGD-like labels of the two unstable sides "
                   "are our reading of its three regimes."),
    methods=(Adam,),
    baselines=(GradientDescent, HeavyBall, RMSprop, SignDescent),
    datasets=(DegeneratePolynomial,),
    metrics=METRICS,
    primary_metric="log10_final_loss",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=(
        Claim(id="c1_adam_linear", where="abstract; Thm (local linear convergence)",
              text="Adam achieves local linear convergence on degenerate polynomials without "
                   "a scheduler",
              paper_value="\"We prove that Adam achieves local linear convergence on these "
                          "degenerate functions\" (abstract)",
              check=Value(method="adam", metric="rate_ratio", lo=C1_BAND[0], hi=C1_BAND[1]),
              note="Adam with beta = (0.9, 0.999), eps = 0. A constant rate over the window's two "
                   "halves (late/early = 1) is linear convergence; any power law t^-a gives "
                   "exactly 0.5. " + _RATE_NOTE + "Band (issue 14): the paper's statement is "
                   "the dichotomy linear (Adam) vs sub-linear (GD, momentum), so the band is "
                   "the ratios closer to 1 than to a power law's 0.5 on the log scale, "
                   "(2^-1/2, 2^1/2); it replaces our earlier 1 +- 0.1, which had no source. "
                   "A ratio a little below 1 (0.96 at 2e4 steps) is the transient towards the "
                   "asymptotic rate, which the late window already matches (c2); the paper "
                   "claims local (asymptotic) linear convergence, not a constant rate from t = 0.",
              source="paper",
              foils=("gd", "heavy_ball", "sign_gd", MAX_V.label),
              foil_note="The abstract contrasts Adam's linear rate with GD's and momentum's "
                        "sub-linear ones; sign descent and Adam without the decay of v^ "
                        "(AMSGrad's max) are not linear either."),
        Claim(id="c2_rate_matches_theory", where="Thm (rate; reconstructed)",
              text="the decoupling of v_t from g_t^2 amplifies the effective learning rate "
                   "exponentially, giving a geometric rate",
              paper_value="\"a decoupling mechanism between the second moment $v_t$ and "
                          "squared gradient $g_t^2$, which exponentially amplifies the effective "
                          "learning rate\" (abstract; no rate formula seen)",
              check=Value(method="adam", metric="rate_over_theory", target=1.0, tol=0.2,
                          rel=True),
              note="Fitted ln-rate / predicted ln-rate, beta2 = 0.999. The prediction "
                   "ln|x_t+1/x_t| -> ln(beta2)/(2(k-2)) is our derivation "
                   "(methods/adam_degenerate.py Eq. 5), the paper's formula was not seen. "
                   "Tolerance 20% from the research note, fixed before the run.",
              source="derived",
              foils=(MAX_V.label, SPIKE_POINT.label, SIGNGD_POINT.label),
              foil_note="Without the decay of v^ (AMSGrad's max) there is no decoupling, and "
                        "outside the stable region (spike, SignGD-like points) the decoupled "
                        "fixed point is unstable: none may match the decoupled rate."),
        Claim(id="c2b_rate_matches_theory_b2_099", where="Thm (rate; reconstructed)",
              text="(as c2, second beta2)",
              paper_value="",
              check=Value(method=ADAM_FAST.label, metric="rate_over_theory", target=1.0,
                          tol=0.2, rel=True),
              note="As c2 with beta2 = 0.99: a predicted rate (ours: ln(beta2)/(2(k-2))) ten "
                   "times faster.",
              source="derived",
              foils=(MAX_V.label, SPIKE_POINT.label, SIGNGD_POINT.label),
              foil_note="As c2."),
        Claim(id="c3_gd_sublinear", where="abstract; Sec. on GD (Theta(t^(-1/(k-2))))",
              text="gradient descent converges sub-linearly, x_t = Theta(t^(-1/(k-2)))",
              paper_value="\"the sub-linear convergence of Gradient Descent\" (abstract); "
                          "the rate x_t = Theta(t^(-1/(k-2))) per a third-party summary of the "
                          "paper (not verified)",
              check=Value(method="gd", metric="loglog_over_theory", target=1.0, tol=0.15,
                          rel=True),
              note="GD with lr = 1/L. Measured slope of ln f vs ln t over [t_valid/10, t_valid] "
                   "divided by -k/(k-2) (f ~ t^(-k/(k-2)) follows from the rate of x_t). "
                   "Tolerance 15% from the research note.",
              source="paper",
              foils=("adam", "rmsprop", "sign_gd"),
              foil_note="Linearly convergent Adam / RMSprop and sign descent (which stalls at "
                        "its step size) must not show GD's t^(-1/(k-2)) rate."),
        Claim(id="c3b_momentum_sublinear", where="abstract",
              text="momentum also converges sub-linearly, Theta(t^(-1/(k-2)))",
              paper_value="\"the sub-linear convergence of Gradient Descent and Momentum\" "
                          "(abstract); the rate x_t = Theta(t^(-1/(k-2))) per a third-party "
                          "summary of the paper (not verified)",
              check=Value(method="heavy_ball", metric="loglog_over_theory", target=1.0,
                          tol=0.15, rel=True),
              note="Heavy ball, lr = 1/L, momentum 0.9. As c3.",
              source="paper",
              foils=("adam", "rmsprop", "sign_gd"),
              foil_note="As c3."),
        Claim(id="c4_adam_beats_gd", where="abstract",
              text="Adam significantly outperforms the sub-linear convergence of GD",
              paper_value="\"significantly outperforming the sub-linear convergence of "
                          "Gradient Descent and Momentum\" (abstract)",
              check=Better(method="adam", baseline="gd", metric="log10_final_norm_x",
                           margin=4.0),
              note="Adam at the default beta = (0.9, 0.999) (issue 14: the paper's setting; "
                   "until then this claim ran beta2 = 0.99, kept as the derived c4c). Final "
                   "||x|| after the same budget (2e4 quick, 1e5 full), at least 4 decades "
                   "(1e4x) smaller than GD's: margin from the research note. Adam's runs that "
                   "left the float64 range count with their last trusted iterate (an upper "
                   "bound). With beta2 = 0.999 the linear phase ln(beta2)/(2(k-2)) is slow, "
                   "so the quick budget may not suffice; the full grid (1e5) decides. " + _HORIZON,
              source="paper", grids=("full",),
              foils=("heavy_ball", "sign_gd", MAX_V.label),
              foil_note="Momentum is sub-linear like GD, sign descent stalls at its step size "
                        "and Adam without the decay of v^ is GD-like: none may beat GD by 1e4x."),
        Claim(id="c4b_adam_beats_momentum", where="abstract",
              text="Adam significantly outperforms the sub-linear convergence of momentum",
              paper_value="\"significantly outperforming the sub-linear convergence of "
                          "Gradient Descent and Momentum\" (abstract)",
              check=Better(method="adam", baseline="heavy_ball",
                           metric="log10_final_norm_x", margin=4.0),
              note="As c4 against heavy ball (lr = 1/L, momentum 0.9); Adam at the default "
                   "beta2 = 0.999 (issue 14; the beta2 = 0.99 variant is the derived c4d). "
                   + _HORIZON,
              source="paper", grids=("full",),
              foils=("gd", "sign_gd", MAX_V.label),
              foil_note="As c4, against momentum."),
        Claim(id="c4c_adam_b2_099_beats_gd", where="abstract (non-default beta2)",
              text="(as c4, with beta2 = 0.99)",
              paper_value="\"significantly outperforming the sub-linear convergence of "
                          "Gradient Descent and Momentum\" (abstract)",
              check=Better(method=ADAM_FAST.label, baseline="gd", metric="log10_final_norm_x",
                           margin=4.0),
              note="c4's declaration before issue 14, kept as a variant: beta2 = 0.99 is not "
                   "the default the paper's Adam is read to use (issue 14), but the abstract's "
                   "sentence names no beta2 (and contrasts Adam with studies 'requiring "
                   "beta2 near 1'), so the claim is the abstract's (issue 26: placed there, "
                   "filed as the paper's). A ten times faster predicted rate overtakes GD by "
                   "1e4x within the quick budget.",
              source="paper",
              foils=("heavy_ball", "sign_gd", MAX_V.label),
              foil_note="As c4."),
        Claim(id="c4d_adam_b2_099_beats_momentum", where="abstract (non-default beta2)",
              text="(as c4b, with beta2 = 0.99)",
              paper_value="\"significantly outperforming the sub-linear convergence of "
                          "Gradient Descent and Momentum\" (abstract)",
              check=Better(method=ADAM_FAST.label, baseline="heavy_ball",
                           metric="log10_final_norm_x", margin=4.0),
              note="c4b's declaration before issue 14, kept as a variant (as c4c; the "
                   "abstract's claim, so the paper's).",
              source="paper",
              foils=("gd", "sign_gd", MAX_V.label),
              foil_note="As c4, against momentum."),
        Claim(id="c5_stable_regime", where="abstract (phase diagram: stable convergence)",
              text="a stable-convergence regime of (beta1, beta2)",
              paper_value="\"identifying three distinct behavioral regimes: stable "
                          "convergence, spikes, and SignGD-like oscillation\" (abstract)",
              check=Exact(method=STABLE_POINT.label, metric="converged_linearly", lo=1.0,
                          tol=0.0),
              note="(beta1, beta2) = (0.8, 0.9), inside our reconstructed stable region "
                   "beta1 < beta2^(k/(2(k-2))) for k = 4, 6, 8 (the paper's region was not "
                   "seen). Every run must converge linearly: at most 1% sign changes, no "
                   "spike, negative rate and rate_ratio in [0.8, 1.25] (bands ours).",
              source="paper",
              foils=(SPIKE_POINT.label, SIGNGD_POINT.label, "gd"),
              foil_note="The spike and SignGD-like points are the other two regimes and GD is "
                        "sub-linear: none may count as stable linear convergence."),
        Claim(id="c6_spike_regime", where="abstract (phase diagram: spikes)",
              text="a spike regime of (beta1, beta2)",
              paper_value="\"identifying three distinct behavioral regimes: stable "
                          "convergence, spikes, and SignGD-like oscillation\" (abstract)",
              check=Exact(method=SPIKE_POINT.label, metric="spike_count", lo=1.0, tol=0.0),
              note="(beta1, beta2) = (0.95, 0.9): momentum too slow for the decoupled fixed "
                   "point (det > 1 for k = 4, 6, 8; our region, past "
                   "beta1 = beta2^(k/(2(k-2))); the paper's was not seen). Every run must show "
                   "at least one spike in the window: a sudden surge of the loss (the authors' "
                   "wording in arXiv 2506.04805: 'a sudden and sharp surge in the loss function "
                   "that subsequently subsides'), read as the 20-step envelope of ||x|| rising "
                   "above 10x its minimum over the previous 100 steps (factor and look-back from "
                   "the research note; the later subsiding is not checked separately). Issue 14: the raw ||x|| used until then dipped to ~0 at "
                   "every zero crossing, so any oscillation counted (about 1000 'spikes' per "
                   "window at this point); the envelope (20 steps, longer than this point's "
                   "oscillation periods of about 7-13 steps) counts none for a 2-cycle or a "
                   "decaying oscillation. Quick grid after the change: 0-9 surges per window, "
                   "one k = 8 run with none.",
              source="paper",
              foils=("sign_gd", STABLE_POINT.label, SIGNGD_POINT.label),
              foil_note="Sign descent oscillates without spiking (a 2-cycle: no surge), and "
                        "the stable and SignGD-like points are the other regimes."),
        Claim(id="c7_signgd_regime", where="abstract (phase diagram: SignGD-like oscillation)",
              text="a SignGD-like oscillation regime of (beta1, beta2)",
              paper_value="\"identifying three distinct behavioral regimes: stable "
                          "convergence, spikes, and SignGD-like oscillation\" (abstract)",
              check=Exact(method=SIGNGD_POINT.label, metric="sign_change_frac", lo=0.9,
                          tol=0.0, where={"k": 4}),
              note="(beta1, beta2) = (0, 0.01) at k = 4 (our region: small beta2, period-2 "
                   "flip; the paper's was not seen): v_t tracks g_t^2, the update is "
                   "~lr*sign(g) and x is caught in sign descent's 2-cycle at +-lr/2. Every run "
                   "must flip sign on >= 90% of the window's steps (bound ours). Restricted to "
                   "k = 4 after exploratory runs (before any claim was evaluated): at k = 6, 8 "
                   "the same point is also outside our stable region (an eigenvalue below -1), "
                   "yet x converges linearly without sign changes at the predicted average rate "
                   "(the scale-free orbit stays bounded and irregular), so the SignGD-like "
                   "regime is a k = 4 phenomenon in our runs; the paper's k was not seen.",
              source="paper",
              foils=("adam", STABLE_POINT.label, SPIKE_POINT.label),
              foil_note="Default Adam and the stable point converge monotonically and the "
                        "spike point oscillates slowly: none is SignGD-like (sign descent "
                        "itself is not a foil: it is the regime's namesake)."),
        Claim(id="c8_boundary_moves_with_k", where="Thm (stability conditions; reconstructed)",
              text="theoretical stability bounds align with the experiments",
              paper_value="\"demonstrate strong alignment between theoretical bounds and "
                          "experimental results\" (abstract)",
              check=Exact(method=K_BOUNDARY_POINT.label, metric="regime_match", lo=1.0,
                          tol=0.0),
              note="The stability bounds checked are our reconstruction (methods/"
                   "adam_degenerate.py Eq. 6), not the paper's. "
                   "(beta1, beta2) = (0.56, 0.5) lies outside our predicted stable region at "
                   "k = 4 (beta1 > beta2) and inside at k = 6, 8 (beta1 < 0.59, 0.63): every "
                   "run's observed linear convergence must agree with the prediction. The whole "
                   "(beta1, beta2) grid reports regime_match per point without a claim.",
              source="derived",
              foils=(MAX_V_BOUNDARY.label,),
              foil_note="Every Adam point agrees with the bounds, so only a mutant can fail: "
                        "at the same (beta1, beta2), Adam without the decay of v^ loses the "
                        "linear convergence the bounds predict at k = 6, 8."),
    ),
    headlines=(
        Headline(quote="We identify a class of highly degenerate polynomials where Adam converges "
                       "automatically without additional schedulers",
                 claims=("c1_adam_linear",)),
        Headline(quote="demonstrate strong alignment between theoretical bounds and experimental "
                       "results",
                 claims=("c8_boundary_moves_with_k",)),
        Headline(quote="We prove that Adam achieves local linear convergence on these degenerate "
                       "functions",
                 claims=("c1_adam_linear",)),
        Headline(quote="significantly outperforming the sub-linear convergence of Gradient "
                       "Descent and Momentum",
                 claims=("c3_gd_sublinear", "c3b_momentum_sublinear", "c4_adam_beats_gd",
                         "c4b_adam_beats_momentum", "c4c_adam_b2_099_beats_gd",
                         "c4d_adam_b2_099_beats_momentum")),
        Headline(quote="a decoupling mechanism between the second moment $v_t$ and squared "
                       "gradient $g_t^2$, which exponentially amplifies the effective learning "
                       "rate",
                 claims=("c2_rate_matches_theory", "c2b_rate_matches_theory_b2_099")),
        Headline(quote="identifying three distinct behavioral regimes: stable convergence, "
                       "spikes, and SignGD-like oscillation",
                 claims=("c5_stable_regime", "c6_spike_regime", "c7_signgd_regime")),
    ),
    grids={
        "smoke": Grid(
            datasets=(cfg(DegeneratePolynomial, k=4, n_iter=1500),
                      cfg(DegeneratePolynomial, k=6, dim=3, n_iter=500)),
            seeds=1,
            methods=(*NAMED, *BASELINES, *MUTANTS),
            note="two tiny problems, one vector-valued; seconds"),
        "quick": Grid(
            datasets=sweep(DegeneratePolynomial, k=list(KS)),
            seeds=5,
            methods=(*NAMED, *BASELINES, *MUTANTS, *QUICK_PHASE),
            note="k = 4, 6, 8, 2e4 iterations, 5 seeded starts; 5 x 5 (beta1, beta2) grid plus "
                 "the named points"),
        "full": Grid(
            datasets=(*sweep(DegeneratePolynomial, k=list(KS), n_iter=[100_000]),
                      cfg(DegeneratePolynomial, k=4, dim=8, n_iter=20_000)),
            seeds=5,
            methods=(*NAMED, *BASELINES, *MUTANTS, *FULL_PHASE),
            note="1e5 iterations (2e4 for the separable 8-D problem), 5 starts, 12 x 12 "
                 "(beta1, beta2) grid; about an hour on one core"),
    },
    description=("Adam with a constant learning rate on f(x) = x^k/k: linear convergence at the "
                 "rate set by beta2, against the t^(-1/(k-2)) of GD and momentum, and the "
                 "(beta1, beta2) regimes of stable convergence, spikes and SignGD-like "
                 "oscillation."),
    amendments=(
        Amendment(date="2026-12-03",
                  claims=("c1_adam_linear", "c2_rate_matches_theory",
                          "c2b_rate_matches_theory_b2_099", "c3_gd_sublinear",
                          "c3b_momentum_sublinear", "c4_adam_beats_gd", "c4b_adam_beats_momentum",
                          "c5_stable_regime", "c6_spike_regime", "c7_signgd_regime",
                          "c8_boundary_moves_with_k"),
                  what="source and foils declared; mutants adam[mutant=max_v] and "
                       "adam[beta1=0.56,beta2=0.5,mutant=max_v] (AMSGrad's running max of v^) "
                       "added to every grid, and the smoke grid now runs every named point; "
                       "paper_value text that was ours (reconstructed regions and rates) moved "
                       "to note, paper_value now quotes the abstract",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c1_adam_linear", "c4_adam_beats_gd", "c4b_adam_beats_momentum",
                          "c4c_adam_b2_099_beats_gd", "c4d_adam_b2_099_beats_momentum",
                          "c6_spike_regime"),
                  what="c1: band 1 +- 0.1 -> (2^-1/2, 2^1/2); c4/c4b: subject adam[beta2=0.99] "
                       "-> adam (beta2 = 0.999), margin unchanged; c4c/c4d added (derived): the "
                       "old c4/c4b at beta2 = 0.99; c6: check unchanged, spike_count redefined "
                       "on a 20-step envelope of ||x|| (also changes the regime label)",
                  why="issue 14: the paper's Adam uses the default beta2 = 0.999 (the issue's "
                      "reading of the paper; the abstract's comparison is with plain Adam, and "
                      "no other beta2 is named for it), and c4/c4b passed only at beta2 = 0.99; c1's tolerance had no source, the "
                      "paper's statement is linear vs sub-linear (ratio 1 vs 0.5) and the band "
                      "is the half-way point on the log scale; c6's metric fired at every zero "
                      "crossing (the spike point scored ~1000 per window), while the authors "
                      "call a spike a sudden surge of the loss that subsides",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c4c_adam_b2_099_beats_gd", "c4d_adam_b2_099_beats_momentum"),
                  what="source derived -> paper (paper_value quotes the abstract); checks, "
                       "foils and scope unchanged",
                  why="both are placed in the abstract (its comparison of Adam with GD and "
                      "momentum, which names no beta2): a claim placed in the abstract is the "
                      "paper's",
                  results_seen=True,
                  rule="issue 26: source by placement (a claim placed in the abstract is the "
                       "paper's)"),
        Amendment(date="2026-12-06",
                  claims=("c5_stable_regime", "c6_spike_regime", "c7_signgd_regime",
                          "c8_boundary_moves_with_k"),
                  what="Value(stat='min', lo=...) -> Exact(lo=..., tol=0) on the same method, "
                       "metric, bound and scope: every run must lie in the bound, with no sign "
                       "test over runs and no place in the Holm family",
                  why="each is a regime label of a deterministic iteration (seeds only move the "
                      "start), a universal 'every run' statement judged until now by a sign "
                      "test over runs; c7's 5 runs (k = 4) could never reach its Holm level "
                      "(p >= 2^-5 against 0.0038)",
                  results_seen=True,
                  rule="issue 26: exact kind for a deterministic result"),
        Amendment(date="2026-12-06",
                  claims=("c4_adam_beats_gd", "c4b_adam_beats_momentum"),
                  what="decided on the full grid only (Claim.grids=('full',)); check, margin, "
                       "foils and scope unchanged; headlines declared (the abstract's 6 "
                       "checkable statements, each mapped to existing claims)",
                  why="issue 29: at beta2 = 0.999 the linear rate ln(beta2)/(2(k-2)) gives "
                      "about 0.7-2.2 decades in the quick grid's 2e4 steps, so the 4-decade "
                      "margin cannot be met there whatever Adam does (a horizon artefact); the "
                      "full grid's 1e5 steps can show it. Chosen after the quick verdicts "
                      "(not_reproduced) were seen",
                  results_seen=True),
    ),
)
