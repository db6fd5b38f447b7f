"""dp_ridge: decoupled (alpha, c) vs single-lambda output perturbation for DP ridge regression.

Bounded Gaussian designs (||x|| <= 1, |y| <= 1) with condition number kappa, privacy budget eps,
delta = 1/n^2. Every output-perturbation method is tuned by the same DP-valid plug-in rule (the
risk decomposition evaluated on a public pilot sample); the decoupled grid contains the single
grid. Metrics see the truth; methods never do. The sensitivity audit replaces one row of the
private data by random and adversarial rows within the bounds and compares the observed change of
the non-private estimator with the bound that calibrated the noise.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg, output_metric,
                           sweep)
from claimbench.baselines.output_perturbation import OutputPerturbation, gram_stats
from claimbench.baselines.sufficient_statistics_perturbation import SufficientStatisticsPerturbation
from claimbench.checks import Better, BetterDiff, Exact, NotRun, Ratio, Value
from claimbench.datasets.gaussian_regression import GaussianRegression
from claimbench.methods.dp_ridge import DecoupledRidge, floor_filter

SIM_REPS = 400  # Monte Carlo replications of (label noise, DP noise) per cell for the theory check
_SIM_CACHE: dict = {}


def _is_op(out: dict) -> bool:
    return "alpha" in out and "c" in out


def _est_mse(inst, out):
    e = out["theta"] - inst.truth["theta"]
    return float(e @ e)


def _pred_mse(inst, out):
    r = inst.truth["X_test"] @ out["theta"] - inst.truth["f_test"]
    return float(np.mean(r * r))


def _risk(evals, evecs, theta, noise_var, n, alpha, c, sigma):
    """Eq. 5 of methods/dp_ridge.py: bias^2 + variance + DP variance."""
    h = floor_filter(evals, alpha, c)
    energy = (evecs.T @ theta) ** 2
    bias2 = float(np.sum((1.0 - evals / h) ** 2 * energy))
    var = noise_var / n * float(np.sum(evals / h**2))
    return bias2 + var + evals.size * sigma**2


def _eig(M):
    ev, U = np.linalg.eigh(M)
    return np.maximum(ev, 0.0), U


def _theory_risk(inst, out):
    if not _is_op(out):
        return None
    X = inst.data["X"]
    ev, U = _eig(X.T @ X / X.shape[0])
    return _risk(ev, U, inst.truth["theta"], inst.truth["noise_var"], X.shape[0], out["alpha"], out["c"],
                 out["sigma"])


def _simulated_risk(inst, out) -> float:
    """Monte Carlo E||theta_tilde - theta*||^2 over fresh label noise and DP noise, design fixed."""
    X, tr = inst.data["X"], inst.truth
    key = (X.shape, float(X[0, 0]), float(X[-1, -1]), out["alpha"], out["c"], out["sigma"])
    if key in _SIM_CACHE:
        return _SIM_CACHE[key]
    n, d = X.shape
    ev, U = _eig(X.T @ X / n)
    h = floor_filter(ev, out["alpha"], out["c"])
    f = X @ tr["theta"]  # (n,)
    rng = np.random.default_rng(20260101)
    by, t = inst.data["by"], tr["noise_clip"]
    total, done = 0.0, 0
    while done < SIM_REPS:
        r = min(50, SIM_REPS - done)
        Y = np.clip(f + np.clip(tr["noise_sd"] * rng.standard_normal((r, n)), -t, t), -by, by)  # (r, n)
        B = Y @ X / n  # (r, d)
        th = ((B @ U) / h) @ U.T + out["sigma"] * rng.standard_normal((r, d))  # (r, d)
        total += float(np.sum((th - tr["theta"]) ** 2))
        done += r
    if len(_SIM_CACHE) > 64:
        _SIM_CACHE.clear()
    _SIM_CACHE[key] = total / SIM_REPS
    return _SIM_CACHE[key]


def _theory_gap(inst, out):
    if not _is_op(out):
        return None
    sim = _simulated_risk(inst, out)
    return abs(_theory_risk(inst, out) - sim) / sim


def _theory_gap_population(inst, out):
    """Same check with the population second moment in place of the sample Gram matrix."""
    if not _is_op(out):
        return None
    ev, U = _eig(inst.truth["second_moment"])
    n = inst.data["X"].shape[0]
    theory = _risk(ev, U, inst.truth["theta"], inst.truth["noise_var"], n, out["alpha"], out["c"], out["sigma"])
    sim = _simulated_risk(inst, out)
    return abs(theory - sim) / sim


def _oracle_risk(inst, out):
    """Best exact risk over the method's own candidate grid (uses the truth: reference only)."""
    if not _is_op(out):
        return None
    X = inst.data["X"]
    n = X.shape[0]
    ev, U = _eig(X.T @ X / n)
    return min(_risk(ev, U, inst.truth["theta"], inst.truth["noise_var"], n, a, c, s)
               for a, c, s in zip(out["cand_alpha"], out["cand_c"], out["cand_sigma"]))


def neighbour_rows(X, y, theta_hat, evecs, rng, bx: float, by: float, n_random: int = 24):
    """Replace-one neighbours: random rows in the bounds and adversarial ones on the boundary."""
    n, d = X.shape
    pairs = []
    for _ in range(n_random):
        v = rng.standard_normal(d)
        pairs.append((int(rng.integers(n)), bx * v / np.linalg.norm(v) * rng.uniform() ** (1 / d),
                      float(rng.uniform(-by, by))))
    resid = np.abs(y - X @ theta_hat) * np.linalg.norm(X, axis=1)
    rows = {int(np.argmax(resid)), int(np.argmax(np.linalg.norm(X, axis=1))), int(rng.integers(n))}
    dirs = [evecs[:, 0], evecs[:, -1], evecs[:, d // 2]]
    if np.linalg.norm(theta_hat) > 0:
        dirs.append(theta_hat / np.linalg.norm(theta_hat))
    for i in rows:
        for u in dirs:
            for s in (1.0, -1.0):
                for yv in (by, -by):
                    pairs.append((i, s * bx * u, yv))
    return pairs


def _sensitivity_ratio(inst, out):
    """max over neighbours ||f(D) - f(D')|| / (bound used for the noise); must stay <= 1."""
    X, y = inst.data["X"], inst.data["y"]
    n, d = X.shape
    S, b = gram_stats(X, y)
    ev, U = _eig(S)
    rng = np.random.default_rng(7)
    if _is_op(out):
        h = floor_filter(ev, out["alpha"], out["c"])
        th = U @ ((U.T @ b) / h)
    else:
        th = np.linalg.lstsq(X, y, rcond=None)[0]  # only steers the adversarial rows
    worst = 0.0
    for i, xn, yn in neighbour_rows(X, y, th, U, rng, inst.data["bx"], inst.data["by"]):
        dS = (np.outer(xn, xn) - np.outer(X[i], X[i])) / n
        db = (xn * yn - X[i] * y[i]) / n
        if _is_op(out):
            ev2, U2 = _eig(S + dS)
            th2 = U2 @ ((U2.T @ (b + db)) / floor_filter(ev2, out["alpha"], out["c"]))
            change = float(np.linalg.norm(th2 - th))
        else:  # SSP releases (S, b): its query's change in the Frobenius-isometric coordinates
            change = float(np.sqrt(np.sum(dS * dS) + db @ db))
        worst = max(worst, change)
    return worst / out["sensitivity"]


METRICS = (
    Metric("est_mse", _est_mse, False, "||theta_tilde - theta*||^2 (one release)"),
    Metric("pred_mse", _pred_mse, False, "mean (x^T theta_tilde - x^T theta*)^2 on a clean test set"),
    Metric("theory_risk", _theory_risk, False, "bias^2 + variance + d sigma^2 at the chosen (alpha, c), fixed design"),
    Metric("theory_gap", _theory_gap, False,
           f"|theory - simulated risk| / simulated risk, simulation = {SIM_REPS} replications of label and DP noise"),
    Metric("theory_gap_pop", _theory_gap_population, False,
           "as theory_gap with the population second moment in the formula instead of X^T X / n"),
    Metric("oracle_risk", _oracle_risk, False, "min exact risk over the method's candidate grid (truth: reference)"),
    Metric("sensitivity_ratio", _sensitivity_ratio, False,
           "max observed neighbour change of the non-private query / its sensitivity bound (<= 1 required)"),
    output_metric("alpha", description="chosen statistical penalty (lambda for single-parameter OP)"),
    output_metric("c", description="chosen curvature floor (0 = none)"),
    output_metric("sigma", description="DP noise standard deviation per coordinate"),
    output_metric("time_s"),
)

METHODS = (
    cfg(DecoupledRidge, label="dp_ridge"),
    cfg(OutputPerturbation, label="op_single", bound="resolvent"),
    cfg(OutputPerturbation, label="op_chaudhuri"),
    cfg(SufficientStatisticsPerturbation, label="ssp"),
    cfg(DecoupledRidge, label="dp_ridge_val", tuning="validation"),
    cfg(OutputPerturbation, label="op_single_val", bound="resolvent", tuning="validation"),
    # Foils only: mutants of the paper's method (methods/dp_ridge.py, "Mutants for foils").
    cfg(DecoupledRidge, label="dp_ridge[mutant=no_theta_term]", mutant="no_theta_term"),
    cfg(DecoupledRidge, label="dp_ridge[mutant=no_floor]", mutant="no_floor"),
)
SMOKE_METHODS = METHODS[:4] + METHODS[5:]  # all but dp_ridge_val (every foil is in every grid)

# The paper's abstract (ICML 2026 page), quoted by the claims below.
_ABS_ACC = ("\"We derive an explicit bias--variance--DP-variance risk decomposition and characterize optimal "
            "(alpha, c) in several regimes, yielding sharp tuning guidance and improved accuracy relative to "
            "single-parameter regularization.\" (abstract)")
_ABS_THEORY = ("\"We derive an explicit bias--variance--DP-variance risk decomposition ... We support the theory "
               "with simulations.\" (abstract)")
_ABS_REGIMES = ("\"characterize optimal (alpha, c) in several regimes, yielding sharp tuning guidance and "
                "improved accuracy relative to single-parameter regularization\" (abstract); where the gain "
                "widens is the research note's reading")
# Single-parameter foils other than the check's own baseline (issue 26: no Y-vs-Y foil).
_SINGLE_NOT_OP = ("op_chaudhuri", "op_single_val")
_SINGLE_NOT_CH = ("op_single", "op_single_val")
_SINGLE_NOTE = ("Single-parameter output perturbation, however its lambda is tuned (plug-in or public validation) "
                "and whichever sensitivity bound it uses, is what the decoupling must improve on.")
_AUDIT_NOTE = ("A sensitivity bound that drops the (H' - H) theta term of the resolvent identity is invalid (too "
               "little noise); the audit must flag it.")

SMALL_EPS_ILL = {"eps": (0.1, 0.3), "kappa": 100.0}
LARGE_EPS_ILL = {"eps": (1.0, 3.0), "kappa": 100.0}  # the other half of the quick eps grid
SMALL_EPS_WELL = {"eps": (0.1, 0.3), "kappa": 10.0}
LARGE_EPS_WELL = {"eps": (1.0, 3.0), "kappa": 10.0}
# Issue 29: c1 per regime (the pooled ratio can hide a regime with no gain). The four (eps, kappa) quarters of
# the quick grid, each pooled over n and seeds (20 units).
_REGIMES = (("a", "small_eps_ill", SMALL_EPS_ILL, "eps in {0.1, 0.3}, kappa = 100"),
            ("b", "large_eps_ill", LARGE_EPS_ILL, "eps in {1, 3}, kappa = 100"),
            ("c", "small_eps_well", SMALL_EPS_WELL, "eps in {0.1, 0.3}, kappa = 10"),
            ("d", "large_eps_well", LARGE_EPS_WELL, "eps in {1, 3}, kappa = 10"))

# The abstract's checkable statements (ICML 2026 abstract), verbatim.
_Q_FLOOR = ("(ii) a privacy-stabilization parameter $c$, used only to enforce a curvature floor and hence a tight "
            "sensitivity bound")
_Q_DECOMP = "We derive an explicit bias--variance--DP-variance risk decomposition"
_Q_TUNING = "characterize optimal $(\\alpha,c)$ in several regimes, yielding sharp tuning guidance"
_Q_IMPROVED = "improved accuracy relative to single-parameter regularization"
_Q_ERM = "we extend the same decoupling principle to general ridge-regularized ERM"
_Q_SIMS = "We support the theory with simulations"
_NOT_BUILT = "not built yet (issue 29): "

CLAIMS = (
    Claim("c1_never_worse", "abstract",
          "decoupling ... yielding improved accuracy relative to single-parameter regularization",
          Ratio("dp_ridge", "op_single", "est_mse", at_most=1.0),
          note="Geometric-mean MSE ratio over all cells <= 1 (not worse). Both tuned by the same DP-valid "
               "plug-in rule; the decoupled grid contains every single-lambda candidate (c = 0), and "
               "op_single uses the same sensitivity analysis at c <= alpha, so only the decoupling differs.",
          paper_value=_ABS_ACC, source="paper", foils=_SINGLE_NOT_OP, foil_note=_SINGLE_NOTE),
    Claim("c2_small_eps_illcond", "abstract; research note",
          "the gap widens at small eps (ill-conditioned designs)",
          BetterDiff("dp_ridge", "op_single", "est_mse", where=SMALL_EPS_ILL, other_where=LARGE_EPS_ILL),
          note="Issue 14: 'widens' is an interaction, tested as one: the mean paired MSE gain of dp_ridge over "
               "op_single at eps in {0.1, 0.3} minus that at eps in {1, 3}, both at kappa = 100, > 0 (Welch t). "
               "Gains are absolute differences of est_mse, the metric of c1. The sentence is the research "
               "note's, not the abstract's.",
          paper_value=_ABS_REGIMES, source="paper", foils=_SINGLE_NOT_OP, foil_note=_SINGLE_NOTE),
    Claim("c2b_illcond_widens", "abstract; research note",
          "the gap widens for ill-conditioned designs (small eps)",
          BetterDiff("dp_ridge", "op_single", "est_mse", where=SMALL_EPS_ILL, other_where=SMALL_EPS_WELL),
          note="Issue 14: the other half of the note's sentence as an interaction: the gain at kappa = 100 minus "
               "the gain at kappa = 10, both at eps in {0.1, 0.3}, > 0 (Welch t).",
          paper_value=_ABS_REGIMES, source="paper", foils=_SINGLE_NOT_OP, foil_note=_SINGLE_NOTE),
    Claim("c3_oracle_gap", "research note (proposed threshold)",
          "best (alpha, c) beats best single lambda, ratio <= 0.9 for eps <= 0.3, kappa = 100",
          Ratio("dp_ridge", "op_single", "oracle_risk", at_most=0.9, where=SMALL_EPS_ILL),
          note="Exact fixed-design risk minimised over each method's grid with the truth (a property of "
               "the estimator families, not of the tuning rule). Threshold 0.9 from the note's plan.",
          source="derived", foils=("op_chaudhuri",),
          foil_note="A single-lambda family (Chaudhuri et al.'s output perturbation) in the subject's place: "
                    "the best single lambda must not beat the best single lambda by 10%. (op_single, the "
                    "reference, compared with itself: removed, issue 26; op_single_val is op_single's family "
                    "under another tuning rule, and the oracle risk does not read the tuning rule.)"),
    Claim("c4_theory_fixed", "abstract",
          "explicit bias-variance-DP-variance risk decomposition; theory supported by simulations",
          Value("dp_ridge", "theory_gap", hi=0.10, stat="max"),
          note=f"|theory - Monte Carlo| / Monte Carlo <= 10% in every cell (note's tolerance); Monte Carlo "
               f"over {SIM_REPS} draws of label and DP noise with the design fixed. The formula is our "
               f"reconstruction (methods/dp_ridge.py, Eq. 5), not the paper's: with the design fixed it is "
               f"the exact risk of the linear release we wrote, so it holds by our construction (issue 26) "
               f"up to Monte Carlo error; the 10% is a Monte Carlo margin, so it stays a Value check.",
          paper_value=_ABS_THEORY, source="derived", basis="construction", foils=("dp_ridge[mutant=no_floor]",),
          foil_note="The no_floor mutant releases an estimator that the decomposition does not describe; the "
                    "metric rebuilds the estimator from the reported (alpha, c, sigma), so only a check that "
                    "simulates the method's own release can reject it."),
    Claim("c5_theory_population", "abstract",
          "risk decomposition matches simulation (population form)",
          Value("dp_ridge", "theory_gap_pop", hi=0.10, stat="mean"),
          note="Formula with the population second moment of the clipped design; mean gap <= 10%.",
          paper_value=_ABS_THEORY, source="paper", foils=("dp_ridge[mutant=no_floor]",),
          foil_note="As c4: the no_floor mutant's release is not the estimator the decomposition describes."),
    Claim("c6_sensitivity_decoupled", "our DP audit",
          "the noise is calibrated to a valid L2 sensitivity bound",
          Exact("dp_ridge", "sensitivity_ratio", hi=1.0, tol=1e-9),
          note="Max over cells of max observed neighbour change / bound; random and adversarial "
               "replacement rows on the boundary ||x|| = 1, |y| = 1. Exact (issue 26): a deterministic "
               "audit of a bound proved in methods/dp_ridge.py (a self-test of our construction); 1e-9 is "
               "floating-point slack.",
          paper_value="c, used only to enforce a curvature floor and hence a tight sensitivity bound",
          source="derived", basis="construction", foils=("dp_ridge[mutant=no_theta_term]", "dp_ridge[mutant=no_floor]"),
          foil_note=_AUDIT_NOTE + " The no_floor mutant's release (no floor) is not covered by the bound its "
                                  "noise is calibrated to."),
    Claim("c7_sensitivity_chaudhuri", "Chaudhuri et al. 2011, Cor. 8",
          "ridge output perturbation sensitivity 2L/(n lambda) holds",
          Exact("op_chaudhuri", "sensitivity_ratio", hi=1.0, tol=1e-9),
          note="A check of the baseline's validity (Chaudhuri et al.'s bound), not of the paper: a "
               "deterministic audit of a proved bound (exact, construction; issue 26).",
          source="derived", basis="construction", foils=("dp_ridge[mutant=no_theta_term]",), foil_note=_AUDIT_NOTE),
    Claim("c8_sensitivity_ssp", "our DP audit",
          "SSP's statistics sensitivity bound holds",
          Exact("ssp", "sensitivity_ratio", hi=1.0, tol=1e-9),
          note="A check of the baseline's validity, not of the paper: a deterministic audit of a proved "
               "bound (exact, construction; issue 26).",
          source="derived", basis="construction", foils=("dp_ridge[mutant=no_theta_term]",), foil_note=_AUDIT_NOTE),
    Claim("c9_vs_classic", "abstract",
          "improved accuracy relative to (classic) single-parameter output perturbation",
          Better("dp_ridge", "op_chaudhuri", "est_mse"),
          note="Against Chaudhuri et al.'s Lipschitz bound: gains mix decoupling and the sharper analysis. Issue "
               "29: single-lambda output perturbation with the same sensitivity bound (op_single, a foil) shares "
               "the gain, so it is the bound's, not the decoupling's; not mapped to the abstract's 'improved "
               "accuracy relative to single-parameter regularization' headline.",
          paper_value=_ABS_ACC, source="paper", foils=_SINGLE_NOT_CH, foil_note=_SINGLE_NOTE),
) + tuple(
    Claim(f"c1{tag}_never_worse_{name}", "abstract",
          f"improved accuracy relative to single-parameter regularization, in the regime {words}",
          Ratio("dp_ridge", "op_single", "est_mse", at_most=1.0, where=scope),
          note=f"Issue 29: c1's check in one regime ({words}; pooled over n and seeds): the ratio pooled over "
               f"every cell can hide a regime with no gain. Same tuning rule and sensitivity analysis as c1.",
          paper_value=_ABS_ACC, source="paper", foils=_SINGLE_NOT_OP, foil_note=_SINGLE_NOTE)
    for tag, name, scope, words in _REGIMES
) + (
    Claim("c10_tuning_guidance", "abstract",
          "the optimal (alpha, c) characterized in several regimes gives sharp tuning guidance",
          NotRun("dp_ridge", reason=_NOT_BUILT + "the paper's characterization of the optimal (alpha, c) per "
                 "regime is not available (abstract only); the check would compare the characterized (alpha, c) "
                 "in each regime with the argmin of the exact risk over the candidate grid (the oracle_risk "
                 "metric's grid), and the risk it reaches with the oracle's"),
          paper_value="\"" + _Q_TUNING + "\" (abstract)", source="paper"),
    Claim("c11_erm_extension", "abstract",
          "the decoupling principle extends to general ridge-regularized ERM",
          NotRun("dp_ridge", reason=_NOT_BUILT + "only ridge regression is implemented; the check would be a "
                 "ridge-regularized ERM with another loss (e.g. logistic regression) under output perturbation, "
                 "decoupled (alpha, c) against a single lambda at the same (eps, delta), as c1"),
          paper_value="\"Finally, " + _Q_ERM + "\" (abstract)", source="paper"),
)

HEADLINES = (
    Headline(quote=_Q_FLOOR, claims=("c6_sensitivity_decoupled",)),
    Headline(quote=_Q_DECOMP, claims=("c5_theory_population", "c4_theory_fixed")),
    Headline(quote=_Q_TUNING, claims=("c10_tuning_guidance",)),
    Headline(quote=_Q_IMPROVED, claims=("c1_never_worse", "c1a_never_worse_small_eps_ill",
                                        "c1b_never_worse_large_eps_ill", "c1c_never_worse_small_eps_well",
                                        "c1d_never_worse_large_eps_well", "c3_oracle_gap")),
    Headline(quote=_Q_ERM, claims=("c11_erm_extension",)),
    Headline(quote=_Q_SIMS, claims=("c5_theory_population", "c4_theory_fixed")),
)

QUICK = sweep(GaussianRegression, n=[2000, 10000], kappa=[10.0, 100.0], eps=[0.1, 0.3, 1.0, 3.0])
FULL = sweep(GaussianRegression, d=[20], n=[500, 2000, 10000, 50000], kappa=[10.0, 100.0],
             eps=[0.1, 0.3, 1.0, 3.0])

BENCHMARK = Benchmark(
    slug="dp_ridge",
    paper=Paper(title="Decoupling Regularization and Privacy in Differentially Private Ridge Regression and ERM",
                arxiv="", url="https://icml.cc/virtual/2026/poster/61002", version="ICML 2026 abstract",
                authors="Wanjie Wang, Tathagata Banerjee"),
    area="privacy_estimation",
    fidelity="proxy",
    methods=(DecoupledRidge,),
    baselines=(OutputPerturbation, SufficientStatisticsPerturbation),
    datasets=(GaussianRegression,),
    metrics=METRICS,
    primary_metric="est_mse",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    headlines=HEADLINES,
    grids={
        "smoke": Grid(datasets=(cfg(GaussianRegression, n=400, d=4, n_pub=200, n_test=200),), seeds=2,
                      methods=SMOKE_METHODS),
        "quick": Grid(datasets=QUICK, seeds=5, methods=METHODS,
                      note="d = 10 (note: 20) so that n <= 10^4 leaves a non-trivial privacy regime"),
        "full": Grid(datasets=FULL, seeds=20, methods=METHODS, note="note's plan: d = 20, n up to 5e4"),
    },
    description="Output perturbation for DP ridge regression: statistical penalty alpha and curvature "
                "floor c tuned separately vs one lambda (Chaudhuri et al. 2011) and SSP.",
    fidelity_note="Only the abstract is available: the floor operator, sensitivity bound, risk formula and "
                  "tuning rule are our reconstruction (DP-valid, proved in methods/dp_ridge.py). Simulated "
                  "designs follow the research note's plan; d = 10 in the quick grid.",
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared; mutants dp_ridge[mutant=no_theta_term] and "
                       "dp_ridge[mutant=no_floor] added to every grid, op_single_val added to the smoke grid; "
                       "paper_value quotes the abstract",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03", claims=("c2_small_eps_illcond", "c2b_illcond_widens"),
                  what="c2: Better(dp_ridge, op_single, est_mse) at eps in {0.1, 0.3}, kappa = 100 -> "
                       "BetterDiff: that gain minus the gain at eps in {1, 3}, kappa = 100, > 0; c2b added: the "
                       "gain at kappa = 100 minus the gain at kappa = 10 (both eps in {0.1, 0.3}), > 0",
                  why="issue 14: 'the gap widens at small eps and for ill-conditioned designs' (research note) "
                      "is a statement about how the gain changes across regimes, which 'a gain exists there' did "
                      "not test. Results had been seen: in the committed quick run the mean gain is larger at "
                      "eps in {1, 3} than at {0.1, 0.3} for both kappas (absolute and relative) and no larger at "
                      "kappa = 100 than at 10, so neither interaction is expected to pass",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_never_worse", "c2_small_eps_illcond", "c2b_illcond_widens", "c3_oracle_gap",
                          "c9_vs_classic"),
                  what="foils the check already names removed: op_single (c1, c2, c2b: the baseline or "
                       "denominator; c3: the denominator, its only foil), op_chaudhuri (c9: the baseline)",
                  why="a foil in another role of the check compares with itself and fails by construction",
                  results_seen=True, rule="issue 26: Y-vs-Y foils removed"),
        Amendment(date="2026-12-06", claims=("c3_oracle_gap",),
                  what="foil op_chaudhuri named (c3 had no foil left)",
                  why="the wording 'best (alpha, c) beats best single lambda' rules out any single-lambda "
                      "family in the subject's place; op_chaudhuri is the other single-lambda family of every "
                      "grid (op_single_val has op_single's candidates, and the oracle risk ignores tuning)",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c2_small_eps_illcond", "c2b_illcond_widens", "c5_theory_population"),
                  what="source derived -> paper",
                  why="placed in the abstract ('characterize optimal (alpha, c) in several regimes'; 'We "
                      "support the theory with simulations'), so they are the paper's claims",
                  results_seen=True, rule="issue 26: a claim placed in the abstract is source='paper'"),
        Amendment(date="2026-12-06", claims=("c4_theory_fixed",),
                  what="source paper -> derived, basis construction",
                  why="it compares our own risk formula (our reconstruction, Eq. 5) with a simulation of the "
                      "release we wrote, with the design fixed: an identity of our construction up to Monte "
                      "Carlo error, not the paper's decomposition",
                  results_seen=True, rule="issue 26: construction basis"),
        Amendment(date="2026-12-06",
                  claims=("c6_sensitivity_decoupled", "c7_sensitivity_chaudhuri", "c8_sensitivity_ssp"),
                  what="Value(stat='max', hi=1) -> Exact(hi=1, tol=1e-9); basis construction",
                  why="deterministic audits of sensitivity bounds proved for our code (ours, Chaudhuri et "
                      "al.'s, SSP's): self-tests of the construction, one violating cell refutes them",
                  results_seen=True,
                  rule="issue 26: exact kind for a deterministic result; construction basis"),
        Amendment(date="2026-12-06",
                  claims=("c1a_never_worse_small_eps_ill", "c1b_never_worse_large_eps_ill",
                          "c1c_never_worse_small_eps_well", "c1d_never_worse_large_eps_well"),
                  what="added: c1's check (geometric-mean est_mse ratio dp_ridge / op_single <= 1, foils "
                       "op_chaudhuri and op_single_val) in each (eps, kappa) regime of the quick grid: eps in "
                       "{0.1, 0.3} or {1, 3}, kappa 100 or 10; c1 (pooled) kept",
                  why="issue 29: the ratio pooled over every cell (0.88) hides the regimes; the abstract "
                      "characterizes the optimal (alpha, c) 'in several regimes', so the improvement is "
                      "checked per regime. Chosen after results were seen",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c10_tuning_guidance", "c11_erm_extension"),
                  what="headlines declared (the ICML abstract's 6 checkable statements, mapped to claims); the "
                       "two with no claim get not_run claims: the optimal-(alpha, c) tuning guidance (c10) and "
                       "the extension to general ridge-regularized ERM (c11)",
                  why="issue 29: every checkable statement of the abstract is declared and mapped; what cannot "
                      "run here is listed with its reason instead of being absent",
                  results_seen=True),
    ),
)
