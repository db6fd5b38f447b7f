"""Equivariant covariance tensors (ICML 2026): E(3)-equivariant mean and full 6x6 covariance
for symmetric rank-2 tensors, on randomly rotated point clouds labelled with noisy inertia
tensors.

Every method sees a few hundred rotated clouds of solid ellipsoids, boxes and elliptic
cylinders with Student-t(3) noisy inertia tensors (Kelvin-Mandel coordinates), and predicts a
mean and a 6x6 covariance for evaluation clouds that mix held-out shapes with an unseen family
(solid tori, 1.5x larger). Metrics: squared Frobenius error of the mean against the clean
tensor, NLL and coverage calibration of the noisy tensor under each method's own predictive
law, the equivariance error on E(3)-moved copies of evaluation clouds, and the AUROC of
log det Sigma as an out-of-distribution score. Compared: the paper's model with its LE-ESO
loss, the same model with a Gaussian NLL, a non-equivariant DeepSets network with Cholesky,
diagonal or isotropic Gaussian covariance, and a 5-member deep ensemble.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                            output_metric, sweep)
from claimbench.baselines.cholesky_gaussian_nll import CholeskyGaussianNLL
from claimbench.baselines.deep_ensemble import DeepEnsemble
from claimbench.baselines.diagonal_variance import DiagonalVariance
from claimbench.checks import Better, Exact, NotRun, Ratio, Value
from claimbench.datasets.point_cloud_tensors import PointCloudTensors, km_rotation
from claimbench.methods.e3_tensor_uq import E3TensorUQ, laplace_logpdf, laplace_radial_cdf

LEVELS = np.arange(1, 20) / 20.0  # nominal coverage levels 0.05 .. 0.95
NLL_CAP = 1e6


def _in_dist(inst, out):
    keep = ~inst.truth["is_ood"]
    return keep, np.asarray(out["mean"])[keep], np.asarray(out["cov"])[keep]


def _mahalanobis(r: np.ndarray, cov: np.ndarray) -> np.ndarray:
    return np.einsum("bi,bi->b", r, np.linalg.solve(cov, r[..., None])[..., 0])


def error(inst, out) -> float:
    keep, mean, _ = _in_dist(inst, out)
    return float(((mean - inst.truth["y_clean"][keep]) ** 2).sum(1).mean())


def nll(inst, out) -> float:
    keep, mean, cov = _in_dist(inst, out)
    r = inst.truth["y_noisy"][keep] - mean  # (n, 6)
    if out["family"] == "laplace":
        per = -laplace_logpdf(r, cov)
    else:
        _, logdet = np.linalg.slogdet(cov)
        per = 0.5 * (_mahalanobis(r, cov) + logdet + r.shape[1] * np.log(2 * np.pi))
    per = np.nan_to_num(per, nan=NLL_CAP, posinf=NLL_CAP)
    return float(np.minimum(per, NLL_CAP).mean())


def radial_pit(inst, out) -> np.ndarray:
    """P(Mahalanobis radius <= observed) under the method's law: uniform when calibrated."""
    from scipy.stats import chi2

    keep, mean, cov = _in_dist(inst, out)
    r = inst.truth["y_noisy"][keep] - mean
    q = _mahalanobis(r, cov)
    if out["family"] == "laplace":
        return laplace_radial_cdf(q, r.shape[1])
    return chi2.cdf(q, r.shape[1])


def cal_err(inst, out) -> float:
    u = radial_pit(inst, out)
    return float(np.mean([abs((u <= a).mean() - a) for a in LEVELS]))


def coverage90(inst, out) -> float:
    return float((radial_pit(inst, out) <= 0.9).mean())


def equiv_err(inst, out) -> float | None:
    """max over moved copies of the relative error |f(gx) - g.f(x)| of mean and covariance."""
    if "mean_g" not in out:
        return None
    q = km_rotation(inst.truth["g_rot"])  # (m, 6, 6)
    m = q.shape[0]
    mean, cov = np.asarray(out["mean"])[:m], np.asarray(out["cov"])[:m]
    want_mu = np.einsum("bij,bj->bi", q, mean)
    want_cov = q @ cov @ np.swapaxes(q, 1, 2)
    e_mu = np.linalg.norm(out["mean_g"] - want_mu, axis=1) / np.linalg.norm(mean, axis=1)
    e_cov = (np.linalg.norm(out["cov_g"] - want_cov, axis=(1, 2))
             / np.linalg.norm(cov, axis=(1, 2)))
    worst = float(max(e_mu.max(), e_cov.max()))
    return worst if np.isfinite(worst) else NLL_CAP


def ood_auroc(inst, out) -> float:
    from sklearn.metrics import roc_auc_score

    score = np.nan_to_num(np.asarray(out["logdet"], dtype=float), nan=0.0, posinf=1e300,
                          neginf=-1e300)
    return float(roc_auc_score(inst.truth["is_ood"], score))


METRICS = (
    Metric("error", error, description="mean over in-distribution evaluation clouds of "
           "||mu - I_clean||_F^2 (Kelvin-Mandel norm = Frobenius norm)"),
    Metric("nll", nll, description="mean negative log-likelihood of the noisy tensor under the "
           "method's predictive law (Gaussian, or the Laplace-type law of LE-ESO)"),
    Metric("cal_err", cal_err, description="mean over nominal levels 0.05..0.95 of |empirical "
           "coverage of the Mahalanobis ellipsoid - level|"),
    Metric("coverage90", coverage90, higher_is_better=True,
           description="empirical coverage of the nominal 90% ellipsoid"),
    Metric("equiv_err", equiv_err, description="max relative error |f(gx) - g.f(x)| of mean and "
           "covariance over E(3)-moved copies (rotation/reflection, shift, point permutation)"),
    Metric("ood_auroc", ood_auroc, higher_is_better=True,
           description="AUROC of log det Sigma separating OOD tori from in-distribution shapes"),
    output_metric("time_s", description="training + prediction wall time"),
)

_HEAVY = {"noise_df": 3.0}
_NOT_BUILT = "not built yet (issue 30): "
_NO_NUMBER = "The abstract gives no number; "
# Foils only (methods/e3_tensor_uq.py, not the paper's method): exactly equivariant mutants.
SCALAR_MEAN = "e3_uq[mutant=scalar_mean]"  # invariant (isotropic) mean
HOMOSCEDASTIC = "e3_uq[mutant=homoscedastic]"  # one constant Sigma for every cloud
NON_EQUIVARIANT = ("cholesky_gaussian_nll", "diagonal_variance", "deep_ensemble")

CLAIMS = (
    Claim(id="c1_exact_equivariance", where="abstract",
          text="both mean and covariance preserve rotational symmetry; exact equivariance",
          paper_value="\"modeling the full predictive distribution where both mean and covariance "
                      "preserve rotational symmetry\"; \"while maintaining exact equivariance\" "
                      "(abstract; no number)",
          check=Exact(method="e3_uq", metric="equiv_err", target=0.0, tol=1e-10),
          note="Max over every cell of the relative equivariance error of mean and covariance "
               "on moved copies (O(3) incl. reflections, translations, point permutations); "
               "1e-10 is the float64 round-off threshold set in the brief. Ours by "
               "construction (issue 26): our network reads invariant features and builds the "
               "mean and expm(L) from equivariant tensor features, so exact equivariance is an "
               "identity our code enforces; it tests our implementation, not the paper's.",
          source="derived", basis="construction",
          foils=NON_EQUIVARIANT,
          foil_note="The non-equivariant networks (rotation-augmented Cholesky, diagonal, and "
                    "the deep ensemble) are at best approximately equivariant and must fail an "
                    "exact-equivariance bound."),
    Claim(id="c2_competitive_accuracy", where="abstract",
          text="our method achieves competitive performance",
          paper_value="\"our method achieves competitive performance\" (abstract; no number)",
          check=Ratio(numerator="e3_uq", denominator="cholesky_gaussian_nll", metric="error",
                      at_most=1.1),
          note=_NO_NUMBER + "'competitive' read as a geometric-mean error ratio to the "
               "non-equivariant Cholesky baseline of at most 1.1 (fixed before running).",
          source="paper",
          foils=(SCALAR_MEAN,),
          foil_note="Every baseline is a reasonable regressor that 'competitive' does not rule "
                    "out; the mutant with an invariant (isotropic) mean cannot represent the "
                    "anisotropic tensor and must not be competitive."),
    Claim(id="c3_calibration_vs_cholesky", where="abstract",
          text="provides physically consistent, symmetry-preserving uncertainty",
          paper_value="\"provides physically consistent, symmetry-preserving uncertainty "
                      "estimates\" (abstract; no number)",
          check=Better(method="e3_uq", baseline="cholesky_gaussian_nll", metric="cal_err",
                       where=_HEAVY),
          note=_NO_NUMBER + "read as: better coverage calibration than the non-equivariant "
               "full-covariance (Cholesky) Gaussian network; directional, margin 0, "
               "heavy-tailed (Student-t, 3 dof) noise. The calibration reading and the "
               "comparison are ours.",
          source="paper",
          foils=("deep_ensemble", "diagonal_variance", "isotropic_variance"),
          foil_note="Networks whose uncertainty is not symmetry-preserving (the deep ensemble, "
                    "diagonal and isotropic variances) must not beat the Cholesky network on "
                    "calibration if the gain comes from the equivariant covariance."),
    Claim(id="c4_ood_auroc", where="abstract, last sentence",
          text="the uncertainty is useful for risk ranking and OOD detection",
          paper_value="\"symmetry-preserving uncertainty estimates with useful risk and OOD "
                      "sensitivity\" (abstract; no number)",
          check=Value(method="e3_uq", metric="ood_auroc", lo=0.7),
          source="paper",
          foils=(HOMOSCEDASTIC,),
          foil_note="A homoscedastic covariance (one constant Sigma) carries no input-dependent "
                    "uncertainty, so its log det cannot detect OOD clouds (AUROC 0.5 exactly).",
          note=_NO_NUMBER + "threshold 0.7 is the research note's proposal. OOD = unseen "
               "family (solid tori) scaled 1.5x; score = log det Sigma. For reference the "
               "true noise covariance would score ~0.85 on this split. Issue 14: the quick "
               "grid does not decide this claim (mean 0.68-0.70 against 0.7 with a wide spread: "
               "thousands of units at the worst-case Holm level); only the full grid (60 units, "
               "larger clouds and training sets) can, and only if its mean moves away from "
               "0.7."),
    Claim(id="c5_le_eso_vs_gaussian", where="abstract (LE-ESO)",
          text="LE-ESO, a robust surrogate based on the multivariate Laplace distribution, "
               "provides robustness to heavy-tailed errors",
          paper_value="\"a robust surrogate loss based on the Multivariate Laplace "
                      "distribution---providing robustness to heavy-tailed errors\" (abstract; "
                      "no number)",
          check=Better(method="e3_uq", baseline="e3_uq_gaussian", metric="cal_err",
                       where=_HEAVY),
          note="Same equivariant model trained with the Gaussian NLL instead (ablation); "
               "calibration of each under its own law, Student-t(3) noise, margin 0. The "
               "comparison is the research note's proposal.",
          source="paper",
          foils=("cholesky_gaussian_nll", "deep_ensemble"),
          foil_note="Networks trained with a Gaussian NLL (no Laplace surrogate) must not beat "
                    "the Gaussian ablation on heavy-tailed calibration, or the gain is not "
                    "evidence for LE-ESO's robustness."),
    Claim(id="c6_nll_vs_cholesky", where="abstract",
          text="competitive performance with full predictive distributions",
          paper_value="\"modeling the full predictive distribution\"; \"our method "
                      "achieves competitive performance\" (abstract; no number)",
          check=Better(method="e3_uq", baseline="cholesky_gaussian_nll", metric="nll",
                       where=_HEAVY),
          note=_NO_NUMBER + "the research note proposes 'NLL <= baselines under heavy-tailed "
               "noise'; directional, margin 0.",
          source="paper",
          foils=("diagonal_variance", "isotropic_variance", SCALAR_MEAN, HOMOSCEDASTIC),
          foil_note="Diagonal and isotropic variances are not full predictive distributions, "
                    "and the invariant-mean and constant-covariance mutants are not competitive "
                    "ones: none should beat the full-covariance baseline on NLL."),
    Claim(id="c7_risk_sensitivity", where="abstract, last sentence",
          text="the predicted uncertainty is useful for risk: it ranks the clouds by how large "
               "their errors are",
          paper_value="\"symmetry-preserving uncertainty estimates with useful risk and OOD "
                      "sensitivity\" (abstract; no number)",
          check=NotRun(method="e3_uq",
                       reason=_NOT_BUILT + "no metric relates a cloud's predicted log det "
                              "Sigma to its own error; the check would be the rank "
                              "correlation (or an AUROC for the largest errors) of log det "
                              "Sigma with the squared error of the mean on in-distribution "
                              "clouds, against the homoscedastic mutant"),
          source="paper"),
    Claim(id="c8_spd_guaranteed", where="abstract",
          text="the matrix exponential of an element of sym(6) gives strictly positive-definite "
               "covariances",
          paper_value="\"we strictly ensure positive-definite covariances while maintaining "
                      "exact equivariance\" (abstract)",
          check=NotRun(method="e3_uq",
                       reason=_NOT_BUILT + "no metric reads the smallest eigenvalue of the "
                              "predicted covariances; for our code it would hold by "
                              "construction (Sigma = expm(L) of a symmetric L), so the check "
                              "would be derived, with construction basis"),
          source="paper"),
    Claim(id="c9_stable_optimization", where="abstract (LE-ESO)",
          text="LE-ESO gives stable optimization",
          paper_value="\"providing robustness to heavy-tailed errors and stable "
                      "optimization\" (abstract)",
          check=NotRun(method="e3_uq",
                       reason=_NOT_BUILT + "no training-curve metric is recorded; the check "
                              "would compare the spread and the non-finite steps of the loss "
                              "over training between LE-ESO and the Gaussian NLL of the same "
                              "model (e3_uq_gaussian)"),
          source="paper"),
)

# The ICML 2026 abstract's checkable statements (headlines), verbatim.
HEADLINES = (
    Headline(quote="both mean and covariance preserve rotational symmetry",
             claims=("c1_exact_equivariance",)),
    Headline(quote="we strictly ensure positive-definite covariances while maintaining exact "
                   "equivariance", claims=("c8_spd_guaranteed", "c1_exact_equivariance")),
    Headline(quote="providing robustness to heavy-tailed errors",
             claims=("c5_le_eso_vs_gaussian",)),
    Headline(quote="and stable optimization", claims=("c9_stable_optimization",)),
    Headline(quote="our method achieves competitive performance",
             claims=("c2_competitive_accuracy", "c6_nll_vs_cholesky")),
    Headline(quote="provides physically consistent, symmetry-preserving uncertainty estimates",
             claims=("c3_calibration_vs_cholesky",)),
    Headline(quote="with useful risk and OOD sensitivity",
             claims=("c7_risk_sensitivity", "c4_ood_auroc")),
)

_QUICK_METHODS = (
    cfg(E3TensorUQ, label="e3_uq"),
    cfg(E3TensorUQ, label="e3_uq_gaussian", loss="gaussian"),
    cfg(CholeskyGaussianNLL, label="cholesky_gaussian_nll"),
    cfg(DiagonalVariance, label="diagonal_variance"),
    cfg(DiagonalVariance, label="isotropic_variance", isotropic=True),
    cfg(DeepEnsemble, label="deep_ensemble"),
    cfg(E3TensorUQ, label=SCALAR_MEAN, mutant="scalar_mean"),
    cfg(E3TensorUQ, label=HOMOSCEDASTIC, mutant="homoscedastic"),
)
_SMOKE_METHODS = (
    cfg(E3TensorUQ, label="e3_uq", epochs=2),
    cfg(E3TensorUQ, label="e3_uq_gaussian", loss="gaussian", epochs=2),
    cfg(CholeskyGaussianNLL, label="cholesky_gaussian_nll", epochs=2),
    cfg(DiagonalVariance, label="diagonal_variance", epochs=2),
    cfg(DiagonalVariance, label="isotropic_variance", isotropic=True, epochs=2),
    cfg(DeepEnsemble, label="deep_ensemble", n_members=2, epochs=2),
    cfg(E3TensorUQ, label=SCALAR_MEAN, mutant="scalar_mean", epochs=2),
    cfg(E3TensorUQ, label=HOMOSCEDASTIC, mutant="homoscedastic", epochs=2),
)

BENCHMARK = Benchmark(
    slug="e3_tensor_uq",
    paper=Paper(
        title="Equivariant Covariance Tensors: Guaranteed SPD Uncertainty for Tensor-Valued "
              "Geometric Learning",
        arxiv="",
        venue="ICML 2026",
        url="https://raw.githubusercontent.com/mlresearch/v306/main/assets/liu26bk/liu26bk.pdf",
        version="PMLR v306 (liu26bk); abstract only",
        authors="Ruihan Liu, Yu Ji, Jianbo Yu, Shifu Yan, Qingchao Jiang",
    ),
    area="reliable_prediction",
    fidelity="proxy",
    fidelity_note=("Only the abstract was readable. The irrep decomposition of the 6x6 "
                   "covariance (2x l=0 + 2x l=2 + 1x l=4), Sigma = expm(L) and a "
                   "Laplace-based log-Euclidean loss are implemented from it; the exact LE-ESO "
                   "form and the paper's backbone are reconstructions (a tiny invariant-feature "
                   "network with outer-product tensor features, float64). Data are synthetic "
                   "rotated solid primitives with Student-t noisy inertia tensors instead of "
                   "ModelNet40 and Materials Project dielectric tensors."),
    methods=(E3TensorUQ,),
    baselines=(CholeskyGaussianNLL, DiagonalVariance, DeepEnsemble),
    datasets=(PointCloudTensors,),
    metrics=METRICS,
    primary_metric="nll",
    cost_note=("91 CPU-s: 8 configs x 10 seeds, each training a network (up to 60 epochs, early "
               "stopping) on 300 clouds of 32 points; the 5-member deep ensemble takes 31 s, the "
               "homoscedastic mutant 14 s, the other six 6-9 s each. The 10 seeds come from the "
               "p-value floor (issue 14): 6 seeds could not go below 2^-6, above the worst-case "
               "Holm level 0.05/6 of the six-claim family. The ensemble is read by "
               "c1_exact_equivariance, c3 and c5; the homoscedastic mutant is read by c6 and by "
               "c4_ood_auroc, which the quick grid does not decide."),
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared; mutants e3_uq[mutant=scalar_mean] and "
                       "e3_uq[mutant=homoscedastic] added to every grid; the abstract's words "
                       "quoted in paper_value",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c1_exact_equivariance",),
                  what="source paper -> derived, basis construction; Value(stat='max', "
                       "hi=1e-10) -> Exact(target=0, tol=1e-10)",
                  why="exact equivariance of our network is an identity our code enforces "
                      "(invariant features, equivariant tensor outputs), deterministic up to "
                      "float64 round-off",
                  results_seen=True,
                  rule="issue 26: construction basis; exact kind for a deterministic result"),
        Amendment(date="2026-12-06",
                  claims=("c3_calibration_vs_cholesky", "c6_nll_vs_cholesky"),
                  what="source derived -> paper",
                  why="placed in the abstract ('physically consistent, symmetry-preserving "
                      "uncertainty estimates'; 'competitive performance'), so they are the "
                      "paper's claims; the readings remain ours (notes)",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'"),
        Amendment(date="2026-12-06",
                  claims=("c7_risk_sensitivity", "c8_spd_guaranteed", "c9_stable_optimization"),
                  what="headlines declared (7 statements of the ICML abstract); the three no "
                       "claim checked (risk sensitivity, guaranteed SPD covariances, stable "
                       "optimization) get the not_run claims c7-c9",
                  why="issue 30: coverage of the abstract; each needs a metric that does not "
                      "exist yet",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_exact_equivariance', 'c2_competitive_accuracy', 'c3_calibration_vs_cholesky', 'c4_ood_auroc', 'c5_le_eso_vs_gaussian', 'c6_nll_vs_cholesky', 'c7_risk_sensitivity', 'c8_spd_guaranteed', 'c9_stable_optimization'),
                  what="the Cholesky Gaussian-NLL networks train with foreach Adam/AdamW (one call per step for the parameter list, the per-tensor loop's arithmetic)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
    headlines=HEADLINES,
    grids={
        "smoke": Grid(datasets=(cfg(PointCloudTensors, noise_df=3.0, n_train=60, n_test=20,
                                    n_ood=20, n_points=12, n_equiv=8),),
                      seeds=1, methods=_SMOKE_METHODS),
        # Issue 14: one Holm family of 6 claims, worst-case level 0.05 / 6 = 0.0083; the
        # paired signed-rank test and the sign test of c1 cannot go below p = 2^-n with n
        # seeds, so 6 seeds (1/64) sat on that floor whatever the data. 10 seeds (2^-10) lets
        # each claim be decided; sized from the attainable p-values, not from verdicts. c4 is
        # left to the full grid (see its note).
        "quick": Grid(datasets=(cfg(PointCloudTensors, noise_df=3.0),), seeds=10,
                      methods=_QUICK_METHODS,
                      note="300 training clouds of 32 points, Student-t(3) noise, 10 seeds (the "
                           "p-value floor 2^-10 is below the worst-case Holm level 0.05/6); "
                           "c4 is decided only by the full grid"),
        "full": Grid(datasets=sweep(PointCloudTensors, noise_df=[3.0, 0.0],
                                    n_train=[300, 1000, 3000], n_points=[64]),
                     seeds=10, methods=_QUICK_METHODS,
                     note="noise tails x training-set size; Gaussian noise as a control"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
)
