"""ShaplEIG (arXiv 2606.02247): adaptive, EIG-driven coalition selection for Shapley values.

Cheap stand-ins for the paper's costly games (p <= 10, every coalition value cached once per
instance so the exact Shapley values are known): sparse additive-plus-interaction games,
retrain-based feature importance (Ridge on load_diabetes) and data valuation (decision tree on
groups of load_breast_cancer points). The evaluation budget is a dataset parameter,
budget = budget_factor * p evaluations, with factors 1, 2, 4, 8 (the research note's grid;
the paper's budgets were not readable offline). Every method spends at most the budget; the
metric is the MSE of the estimated Shapley values against the exact ones. Error against budget
is the budget_factor sweep (each method also returns its anytime path in outputs["path"]).
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, TraceMetric,
                            cfg, output_metric, sweep)
from claimbench.baselines.kernel_shap import KernelSHAP
from claimbench.baselines.leverage_shap import LeverageSHAP
from claimbench.baselines.permutation_sampling_shapley import PermutationSampling
from claimbench.checks import Better, NotRun, Rank
from claimbench.datasets.cooperative_games import AdditiveInteractionGame, DataValuation, RetrainFeatureImportance
from claimbench.methods.shapleig import ShaplEIG

GAMES = (AdditiveInteractionGame, RetrainFeatureImportance, DataValuation)
BASELINE_LABELS = ("permutation_sampling", "kernel_shap", "leverage_shap")
RANDOM = "shapleig[selection=random]"
LOWEST = {"budget_factor": 1}
ABSTRACT = ("\"our method consistently improves sample efficiency in the low-budget regime over "
            "state-of-the-art baselines\" (abstract; no number)")
# The abstract's checkable statements (ICML 2026 abstract), verbatim.
_Q_EIG = "adaptively selects coalitions based on their expected information gain about the Shapley values"
_Q_CLOSED = "we show that the expected information gain is available in *closed form*"
_Q_ESP = ("reduces the complexity from exponential to polynomial in the number of players via elementary "
          "symmetric polynomials")
_Q_LOW_BUDGET = ("our method consistently improves sample efficiency in the low-budget regime over "
                 "state-of-the-art baselines")
_NOT_BUILT = "not built yet (issue 29): "
NO_EIG = ("The same GP and estimator with coalitions picked at random (EIG selection removed) must "
          "not do what the claim credits to EIG-driven selection.")


def _mse(inst, out):
    return float(np.mean((np.asarray(out["phi"]) - inst.truth["phi"]) ** 2))


def _nmse(inst, out):
    den = float(np.sum(inst.truth["phi"] ** 2))
    if den <= 0:
        return None
    return float(np.sum((np.asarray(out["phi"]) - inst.truth["phi"]) ** 2)) / den


def _mse_trace(inst, out):
    path = out.get("path")
    if not path or not path.get("n_evals"):
        return None
    phi = np.asarray(path["phi"], dtype=float)  # (steps, p)
    err = np.mean((phi - inst.truth["phi"]) ** 2, axis=1)  # (steps,)
    return {"x": [float(n) for n in path["n_evals"]], "y": [max(float(e), 1e-300) for e in err]}


TRACES = (TraceMetric("mse_vs_evaluations", _mse_trace, "value-function evaluations",
                      "MSE to exact Shapley values"),)


def _efficiency_gap(inst, out):
    return abs(float(np.sum(out["phi"])) - (inst.truth["v_full"] - inst.truth["v_empty"]))


METRICS = (
    Metric("mse", _mse, False, "mean over players of (phi_hat_i - phi_i)^2, exact phi by enumeration"),
    Metric("nmse", _nmse, False, "||phi_hat - phi||^2 / ||phi||^2"),
    Metric("efficiency_gap", _efficiency_gap, False, "|sum phi_hat - (v(N) - v(empty))|"),
    output_metric("n_evals", description="value-function evaluations spent (<= budget)"),
    output_metric("time_s", description="wall time of the estimator, game evaluations included"),
)


def _methods() -> tuple:
    return (cfg(ShaplEIG), cfg(ShaplEIG, selection="random"), cfg(PermutationSampling), cfg(KernelSHAP),
            cfg(LeverageSHAP))


def _games(ps, factors) -> tuple:
    out = ()
    for g in GAMES:
        out += sweep(g, p=ps, budget_factor=factors)
    return out


CLAIMS = (
    Claim(
        id="c1_rank1_lowest_budget",
        where="abstract / Sec. 5 (MSE vs budget figures)",
        text="ShaplEIG improves sample efficiency in the low-budget regime over state-of-the-art baselines.",
        check=Rank(method="shapleig", metric="mse", k=1, among=("shapleig",) + BASELINE_LABELS, where=LOWEST),
        paper_value=ABSTRACT,
        note="Lowest budget of our grid, p evaluations; average rank over (game, p, seed) blocks among "
             "ShaplEIG and the three baselines. The paper's exact budgets were not readable offline.",
        source="paper",
        foils=(RANDOM,),
        foil_note=NO_EIG + " The baselines already sit in the ranking, so only the mutant can take "
                           "ShaplEIG's place.",
    ),
) + tuple(
    Claim(
        id=f"c2{tag}_rank1_budget{f}p",
        where="abstract / Sec. 5",
        text=f"ShaplEIG is the most sample-efficient method at low budgets across applications "
             f"(budget {f}p).",
        check=Rank(method="shapleig", metric="mse", k=1, among=("shapleig",) + BASELINE_LABELS,
                   where={"budget_factor": f}),
        paper_value=ABSTRACT,
        note=f"'Low budget' = budgets <= 4p, the research note's proposal (the paper gives no "
             f"number we could read), checked per budget: this is budget {f}p (budget p is c1). "
             f"A first version ranked budgets 1p, 2p and 4p pooled as separate blocks (issue 14): "
             f"a win at one budget could hide a loss at another, and the three budgets of one "
             f"(game, p, seed) share the game instance, so they are not independent blocks. Per "
             f"budget, each block is one (game, p, seed) cell.",
        source="paper",
        foils=(RANDOM,),
        foil_note=NO_EIG + " The baselines already sit in the ranking, so only the mutant can take "
                           "ShaplEIG's place.",
    )
    for tag, f in (("a", 2), ("b", 4))
) + tuple(
    Claim(
        id=f"c{3 + k}_better_than_{b}",
        where="abstract / Sec. 5",
        text=f"At the lowest budget ShaplEIG has lower Shapley-value MSE than {b}.",
        paper_value=ABSTRACT,
        check=Better(method="shapleig", baseline=b, metric="mse", where=LOWEST),
        note="Paired one-sided Wilcoxon over (game, p, seed) cells at budget = p.",
        source="paper",
        foils=(RANDOM,),
        foil_note=NO_EIG,
    )
    for k, b in enumerate(BASELINE_LABELS)
) + tuple(
    Claim(
        id=f"c6{tag}_eig_beats_random_budget{f}p",
        where="ablation (EIG vs random selection with the same GP)",
        text=f"Selecting coalitions by expected information gain beats random selection with "
             f"the same GP surrogate (budget {f}p).",
        check=Better(method="shapleig", baseline=RANDOM, metric="mse",
                     where={"budget_factor": f}),
        paper_value="\"adaptively selects coalitions based on their expected information gain about "
                    "the Shapley values\" (abstract); the ablation itself was not read",
        note=f"Same GP, hyperparameter fitting, initial design and estimator; only the selection "
             f"differs. Budget {f}p: the research note's 'every budget <= 4p' is checked per "
             f"budget (issue 14: a first version pooled budgets 1p-4p, whose cells of one "
             f"(game, p, seed) share the game instance and are not independent units). That the "
             f"paper runs this ablation is unverified (body not read).",
        source="derived",
        foils=BASELINE_LABELS,
        foil_note="The baselines also pick coalitions non-adaptively at random (permutations, kernel- or "
                  "leverage-weighted draws) with no EIG: if they too beat the random-selection GP, beating "
                  "it is no evidence for EIG selection.",
    )
    for tag, f in (("a", 1), ("b", 2), ("c", 4))

) + (
    Claim(
        id="c7_closed_form_eig",
        where="abstract",
        text="By the linearity of the Shapley values in the value function, the EIG about them is available "
             "in closed form.",
        paper_value='"By the linearity of the Shapley values in the value function, ' + _Q_CLOSED + '" (abstract)',
        check=NotRun(method="shapleig", reason=_NOT_BUILT + "a derivation, which our method implements in "
                     "closed form by construction; the check would set a Monte Carlo estimate of the mutual "
                     "information between a coalition's observation and the Shapley values under the GP beside "
                     "the closed form, for random coalitions and GP states"),
        source="paper",
    ),
    Claim(
        id="c8_esp_polynomial_cost",
        where="abstract",
        text="The ESP scheme reduces the EIG computation from exponential to polynomial in the number of "
             "players.",
        paper_value='"we propose an *efficient* computation scheme that ' + _Q_ESP + '" (abstract)',
        check=NotRun(method="shapleig", reason=_NOT_BUILT + "only a unit test (tests/test_shapleig.py) checks "
                     "that the ESP and the naive exponential EIG agree; no metric records the EIG computation's "
                     "cost and p <= 10 here. The check would time or count the EIG computation against p "
                     "(ESP: polynomial growth; the naive sum over coalitions: exponential), Growth tests of "
                     "each form"),
        source="paper",
    ),
)

HEADLINES = (
    Headline(quote=_Q_EIG, claims=("c6a_eig_beats_random_budget1p", "c6b_eig_beats_random_budget2p",
                                   "c6c_eig_beats_random_budget4p")),
    Headline(quote=_Q_CLOSED, claims=("c7_closed_form_eig",)),
    Headline(quote=_Q_ESP, claims=("c8_esp_polynomial_cost",)),
    Headline(quote=_Q_LOW_BUDGET, claims=("c1_rank1_lowest_budget", "c2a_rank1_budget2p", "c2b_rank1_budget4p",
                                          "c3_better_than_permutation_sampling", "c4_better_than_kernel_shap",
                                          "c5_better_than_leverage_shap")),
)

BENCHMARK = Benchmark(
    slug="shapleig",
    paper=Paper(
        title="ShaplEIG: Bayesian Experimental Design for Shapley Value Estimation",
        arxiv="2606.02247",
        url="https://arxiv.org/abs/2606.02247",
        version="arXiv v1 abstract + third-party summaries (body not read)",
        authors="David Rundel, Fabian Fumagalli, Maximilian Muschalik, Bernd Bischl, Matthias Feurer",
    ),
    area="privacy_estimation",
    fidelity="scaled_down",
    fidelity_note=("The method follows the abstract (GP surrogate with a Hamming kernel, closed-form EIG about "
                   "the Shapley values, ESP computation), with the kernel's form, hyperparameter fitting and "
                   "initial design reconstructed. The paper's costly games (TabPFN, RF/GB retraining, HyperSHAP, "
                   "vision models) are replaced by cheap sklearn/synthetic games with p <= 10 so exact Shapley "
                   "values are available; budgets p..8p instead of the paper's (unread) budgets."),
    methods=(ShaplEIG,),
    baselines=(PermutationSampling, KernelSHAP, LeverageSHAP),
    datasets=GAMES,
    metrics=METRICS,
    traces=TRACES,
    primary_metric="mse",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    headlines=HEADLINES,
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared (no new mutant: shapleig[selection=random] was "
                       "already in every grid); the abstract's words quoted in paper_value",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c2_rank1_low_budgets", "c2a_rank1_budget2p", "c2b_rank1_budget4p",
                          "c6_eig_beats_random", "c6a_eig_beats_random_budget1p",
                          "c6b_eig_beats_random_budget2p", "c6c_eig_beats_random_budget4p"),
                  what="c2 (rank over budgets 1p-4p pooled) replaced by c2a (2p) and c2b (4p), "
                       "with c1 (1p) one rank per low budget; c6 (EIG vs random selection, "
                       "budgets 1p-4p pooled) replaced by c6a-c6c, one per budget",
                  why="issue 14: 'consistently ... in the low-budget regime' (abstract) was "
                      "checked pooled over budgets, where a win at one budget hides a loss at "
                      "another, and the pooled budgets of one (game, p, seed) share the game "
                      "instance, so they were counted as independent units; per budget the "
                      "unit is one (game, p, seed) cell",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=tuple(c.id for c in CLAIMS),
                  what="declarations unchanged; the method under them changed: coalitions whose "
                       "EIG scores tie within 100 eps / lambda are tied and one is drawn with the "
                       "method's seeded generator, and marginal-likelihood ties within 1e-6 nats "
                       "take the first grid point (methods/shapleig.py, deviation 6)",
                  why="issue 27: symmetric coalitions have exactly equal EIG after {empty, N}, and "
                      "round-off (1e-12, amplified by 1/lambda) chose among them: the selection "
                      "path, the fitted (r, lambda) and the efficiency gap moved with the BLAS "
                      "kernels (c4's verdict flipped between two machines); on the new code five "
                      "OpenBLAS kernel sets give the same phi",
                  results_seen=True,
                  rule="issue 27: a verdict must not depend on the machine (round-off ties "
                       "decided by a tolerance and a seed)"),
        Amendment(date="2026-12-06", claims=("c7_closed_form_eig", "c8_esp_polynomial_cost"),
                  what="headlines declared (the ICML abstract's 4 checkable statements, mapped to claims); the "
                       "two with no claim get not_run claims: the closed-form EIG (c7) and the ESP scheme's "
                       "exponential-to-polynomial cost (c8, until now a unit test only)",
                  why="issue 29: every checkable statement of the abstract is declared and mapped; what cannot "
                      "run here yet is listed with its reason instead of being absent",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_rank1_lowest_budget', 'c2a_rank1_budget2p', 'c2b_rank1_budget4p', 'c3_better_than_permutation_sampling', 'c4_better_than_kernel_shap', 'c5_better_than_leverage_shap', 'c6a_eig_beats_random_budget1p', 'c6b_eig_beats_random_budget2p', 'c6c_eig_beats_random_budget4p', 'c7_closed_form_eig', 'c8_esp_polynomial_cost'),
                  what="the data-valuation tree fits run without scikit-learn's parameter and finiteness checks",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
    grids={
        "smoke": Grid(datasets=_games([4], [2]), seeds=1, methods=_methods(),
                      note="p = 4, budget 2p: every cell in a fraction of a second"),
        "quick": Grid(datasets=_games([6, 8], [1, 2, 4, 8]), seeds=5, methods=_methods(),
                      note="3 games x p in {6, 8} x budget factor in {1, 2, 4, 8} x 5 seeds"),
        "full": Grid(datasets=_games([8, 10], [1, 2, 4, 8]), seeds=20, methods=_methods(),
                     note="p in {8, 10}, 20 seeds (the note's plan)"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
)
