"""Benchmark: the finitely Y-convex (GCF) layer for optimal auctions and general-cost OT.

Auctions: one additive buyer with i.i.d. U[0,1] values for n goods. Every mechanism is fitted on
the training sample and its revenue is measured with the buyer's utility-maximising (hard-max)
choice on a fresh test sample kept in ``truth``. References: Myerson (n = 1), Manelli-Vincent
(n = 2) and the Straight-Jacket Auction (n <= 6), the optimum the paper's Table I compares with.
OT: Gaussian-mixture point clouds, cost ||x - y||^p; the layer's dual value is compared with
the exact optimum from POT.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                           output_metric, sweep)
from claimbench.baselines.exact_ot import ExactOT
from claimbench.baselines.input_convex_network import ICNNAuction, icnn_revenue
from claimbench.baselines.known_optimal_auctions import SJA_REVENUE, SizeBasedPricing
from claimbench.baselines.posted_prices import PostedPrice
from claimbench.checks import Better, NotRun, Value
from claimbench.datasets.auction_buyers import UniformAdditiveBuyer
from claimbench.datasets.transport_problems import GaussianMixtureOT
from claimbench.methods.gcf_layer import GCFAuction, GCFTransport, menu_revenue


def _revenue(instance, outputs) -> float | None:
    mech = outputs.get("mechanism")
    if mech is None:
        return None
    test = instance.truth["test_values"]
    if mech["kind"] == "menu":
        return menu_revenue(test, mech["y"], mech["b"], mech["symmetric"])
    if mech["kind"] == "icnn":
        params = {k: np.asarray(v) for k, v in mech["params"].items()}
        return icnn_revenue(test, params, mech["beta"])
    return None


def _revenue_ratio_sja(instance, outputs) -> float | None:
    rev = _revenue(instance, outputs)
    ref = SJA_REVENUE.get(instance.truth["n_goods"]) if rev is not None else None
    return None if ref is None else rev / ref


def _ot_rel_gap(instance, outputs) -> float | None:
    if "ot_cost" not in outputs:
        return None
    ref = instance.truth["ot_cost"]
    return abs(ref - outputs["ot_cost"]) / ref


def _map_err(instance, outputs) -> float | None:
    """Mean distance between the method's and the exact plan's target, over the mean step."""
    if "map_index" not in outputs:
        return None
    y = instance.truth["y"]
    exact = y[instance.truth["exact_map"]]  # (N, d)
    got = y[np.asarray(outputs["map_index"])]  # (N, d)
    scale = np.linalg.norm(exact - exact.mean(axis=0), axis=1).mean()
    return float(np.linalg.norm(got - exact, axis=1).mean() / scale)


METRICS = (
    Metric("revenue", _revenue, True, "expected revenue, hard-max choice on the fresh test sample"),
    Metric("revenue_ratio_sja", _revenue_ratio_sja, True, "revenue / SJA (optimal) revenue"),
    Metric("ot_rel_gap", _ot_rel_gap, False, "|OT* - reported cost| / OT*"),
    Metric("map_err", _map_err, False, "mean |T(x) - T*(x)| / mean spread of the target"),
    output_metric("time_s", description="fit time in seconds"),
)

# Tolerances (issue 14): the research note's precision for the paper's Table I comparison:
# +-0.003 absolute at n = 1, +-0.005 absolute at n = 2, +-1% relative from n = 3 (the paper's
# own Table I numbers could not be retrieved offline). Before issue 14: 2% relative for every n.
TOLS = {1: (0.003, False), 2: (0.005, False), 3: (0.01, True), 4: (0.01, True), 5: (0.01, True),
        6: (0.01, True)}

OT_QUADRATIC = "gcf_ot[mutant=quadratic_cost]"  # foil only (methods/gcf_layer.py, "Mutants")
# The abstract's checkable statements (ICML 2026 abstract), verbatim.
_Q_CONVEX = "We provide a new differentiable layer with a convex parameter space"
_Q_UNIVERSAL = ("show (Theorems 5.1 and 5.2) that it and its gradient are universal approximators for GCFs and "
                "their gradients")
_Q_OT = "(i) learning optimal transport maps with general cost functions"
_Q_AUCTIONS = "(ii) learning optimal auctions of multiple goods"
_Q_SINGLE_LEVEL = ("we show how our layer can be used to convert the existing bilevel or min-max formulations into "
                   "single-level problems that can be solved efficiently with first-order methods")
_NOT_BUILT = "not built yet (issue 29): "
_ABSTRACT_AUCTIONS = "\"(ii) learning optimal auctions of multiple goods\" (abstract)"
_REVENUE_FOIL_NOTE = ("Posted prices are the simple mechanisms a learned optimal menu must beat: "
                      "separate prices, and the grid-searched grand-bundle price, which lies "
                      "within 1-2% of the optimum for n >= 2 (and at n = 1 a posted price is "
                      "Myerson's optimum itself, so no posted price can fail c1).")


def _table_claim(n: int, target_note: str) -> Claim:
    tol, rel = TOLS[n]
    tol_note = f"{tol:.0%} relative" if rel else f"+-{tol} absolute"
    return Claim(
        id=f"c{n}_revenue_n{n}",
        where="Table I",
        text=f"the learned mechanism's revenue for {n} U[0,1] good(s) matches the optimum",
        paper_value=_ABSTRACT_AUCTIONS + "; Table I sets the learned revenue beside the "
                    "Straight-Jacket Auction optimum",
        check=Value(method="gcf_layer", metric="revenue", target=round(SJA_REVENUE[n], 4),
                    tol=tol, rel=rel, where={"dataset": "uniform_buyer", "n_goods": n}),
        source="paper",
        foils=("bundle_price", "separate_price"),
        foil_note=_REVENUE_FOIL_NOTE,
        note=(f"Target: {target_note}. Targets are the known optima the paper compares with "
              "(Myerson 0.25, Manelli-Vincent 0.5492, SJA for n >= 3 from our evaluation of the "
              "optimal size-based pricing; see baselines/known_optimal_auctions.py). The paper's "
              "own learned revenues in Table I could not be retrieved offline; tolerance "
              f"{tol_note}, the research note's precision (+-0.003 at n = 1, +-0.005 at n = 2, "
              "+-1% from n = 3; issue 14, replacing 2% for every n). At n = 1 a posted price is "
              "Myerson's optimum, so c1 cannot discriminate (a sanity check of the layer); the "
              "discriminating claim is c7 (beats the bundle price)."),
    )


# The best grand-bundle price for n = 2, 3 (the rest in the note of c2-c6): what a
# near-optimal menu must beat at every n, since the SJA optimum exceeds it at every n of Table I.
def _bundle_claim(n: int) -> Claim:
    return Claim(
        id=f"c7_beats_bundle_n{n}",
        where="Sec. on auctions (learning optimal multi-good auctions)",
        text=f"the learned menu earns more than the best grand-bundle price (n = {n})",
        paper_value=_ABSTRACT_AUCTIONS,
        check=Better(method="gcf_layer", baseline="bundle_price", metric="revenue",
                     where={"dataset": "uniform_buyer", "n_goods": n}),
        source="derived",
        grids=("full",),
        foils=("separate_price",),
        foil_note="Selling the goods separately earns less than the bundle price for n >= 2.",
        note=("The discriminating revenue claim (issue 14): a single grid-searched bundle price "
              "lies within 1-2% of the optimum, so the Table I tolerances alone cannot tell a "
              "learned optimal menu from it. Implied, not printed: for every n = 2..6 of Table I "
              "the SJA optimum exceeds the best bundle price (n = 2: 0.5492 vs 0.5443, n = 3: "
              "0.875 vs 0.848), so a near-optimal learned menu must beat it at every n. Paired "
              "per seed at this n (one claim per n: a pooled test hid the shortfall at n = 2 "
              "and n = 5 behind gains at the others). With 5 quick seeds the exact signed-rank "
              "floor (1/32) is above the claim's Holm level: the quick grid cannot decide it, "
              "so it is decided on the full grid only, whose 10 seeds can (issue 26)."),
    )


CLAIMS = (
    _table_claim(1, "0.25 (Myerson optimum, price 0.5)"),
    _table_claim(2, "0.5492 (Manelli-Vincent optimum)"),
    _table_claim(3, "SJA optimum, our evaluation 0.8750"),
    _table_claim(4, "SJA optimum, our evaluation 1.2198"),
    _table_claim(5, "SJA optimum, our evaluation 1.5766"),
    _table_claim(6, "SJA optimum, our evaluation 1.9428"),
    *(_bundle_claim(n) for n in (2, 3, 4, 5, 6)),
    Claim(
        id="c8_ot_cost",
        where="Sec. on optimal transport with general costs",
        text="the layer turns the min-max OT problem into a single-level one that recovers the OT cost",
        paper_value="\"(i) learning optimal transport maps with general cost functions\"; the layer "
                    "converts \"the existing bilevel or min-max formulations into single-level "
                    "problems\" (abstract)",
        check=Value(method="gcf_ot", metric="ot_rel_gap", hi=0.02,
                    where={"dataset": "gmm_ot"}),
        source="paper",
        foils=(OT_QUADRATIC,),
        foil_note="The squared-Euclidean special case (a convex potential) ignores the general "
                  "cost the claim is about.",
        note="Threshold from the research note (within 2% of EMD); the paper reports plots, no number.",
    ),
    Claim(
        id="c9_convex_parameter_space",
        where="abstract",
        text="the layer has a convex parameter space",
        paper_value='"' + _Q_CONVEX + '" (abstract)',
        check=NotRun(method="gcf_layer", reason=_NOT_BUILT + "no metric tests convexity of the parameter set; "
                     "the check would draw pairs of admissible parameter vectors (menu points y_j, offsets b_j) "
                     "and test that their convex combinations are admissible and represent functions of the "
                     "family. Our parameterisation (sorted / rescaled or sigmoid menu points, methods/"
                     "gcf_layer.py, deviation 8) is not claimed convex, and an audit found a counterexample, so "
                     "the check is expected to fail on our reconstruction"),
        source="paper",
    ),
    Claim(
        id="c10_universal_approximation",
        where="abstract; Theorems 5.1 and 5.2",
        text="the layer and its gradient are universal approximators for GCFs and their gradients",
        paper_value='"' + _Q_UNIVERSAL + '" (abstract)',
        check=NotRun(method="gcf_layer", reason=_NOT_BUILT + "fit a known GCF (e.g. the Straight-Jacket "
                     "Auction buyer's utility) with menus of growing size and show that the errors of the "
                     "function and of its gradient fall with the menu size (slope < 0); no such dataset or "
                     "metric exists, and every grid fixes the menu size"),
        source="paper",
    ),
)

HEADLINES = (
    Headline(quote=_Q_CONVEX, claims=("c9_convex_parameter_space",)),
    Headline(quote=_Q_UNIVERSAL, claims=("c10_universal_approximation",)),
    Headline(quote=_Q_OT, claims=("c8_ot_cost",)),
    Headline(quote=_Q_AUCTIONS, claims=("c2_revenue_n2", "c3_revenue_n3", "c4_revenue_n4", "c5_revenue_n5",
                                        "c6_revenue_n6", "c7_beats_bundle_n2", "c7_beats_bundle_n3",
                                        "c7_beats_bundle_n4", "c7_beats_bundle_n5", "c7_beats_bundle_n6")),
    Headline(quote=_Q_SINGLE_LEVEL, claims=("c8_ot_cost", "c1_revenue_n1", "c2_revenue_n2", "c3_revenue_n3",
                                            "c4_revenue_n4", "c5_revenue_n5", "c6_revenue_n6")),
)
_AUCTION_QUICK = dict(n_train=2000, n_test=100_000)
_OT_QUICK = dict(dim=[2], cost_power=[1.5, 3.0], n_points=[200])

GRIDS = {
    "smoke": Grid(
        datasets=(cfg(UniformAdditiveBuyer, n_goods=2, n_train=400, n_test=20_000),
                  cfg(GaussianMixtureOT, dim=2, n_points=40)),
        seeds=1,
        methods=(
            cfg(GCFAuction, label="gcf_layer", n_steps=60, temp_warmup_steps=20),
            cfg(PostedPrice, label="separate_price", kind="separate"),
            cfg(PostedPrice, label="bundle_price", kind="bundle"),
            cfg(SizeBasedPricing, label="sja", known=True),
            cfg(ICNNAuction, label="icnn", n_hidden=8, n_steps=40),
            cfg(GCFTransport, label="gcf_ot", n_steps=100, temp_warmup_steps=50),
            cfg(GCFTransport, label=OT_QUADRATIC, n_steps=100, temp_warmup_steps=50,
                mutant="quadratic_cost"),
            cfg(ExactOT, label="exact_ot"),
        ),
        note="wiring check only",
    ),
    "quick": Grid(
        datasets=sweep(UniformAdditiveBuyer, n_goods=[1, 2, 3, 4, 5, 6],
                       **{k: [v] for k, v in _AUCTION_QUICK.items()})
        + sweep(GaussianMixtureOT, **_OT_QUICK),
        seeds=5,
        methods=(
            cfg(GCFAuction, label="gcf_layer", n_steps=1500),
            cfg(PostedPrice, label="separate_price", kind="separate"),
            cfg(PostedPrice, label="bundle_price", kind="bundle"),
            cfg(SizeBasedPricing, label="sja", known=True),
            cfg(ICNNAuction, label="icnn", n_hidden=16, n_steps=800),
            cfg(GCFTransport, label="gcf_ot", n_steps=1000, temp_warmup_steps=500),
            cfg(GCFTransport, label=OT_QUADRATIC, n_steps=1000, temp_warmup_steps=500,
                mutant="quadratic_cost"),
            cfg(ExactOT, label="exact_ot"),
        ),
        note=("scaled down: 2000 training types, 1500 AdamW steps (paper code: 10k types, 20k "
              "steps) for every n = 1..6 of Table I (n = 4..6 added with the same settings, fixed "
              "before any n >= 4 run, so every Table I claim has quick-scale evidence); OT on "
              "200-point clouds in 2-D"),
    ),
    "full": Grid(
        datasets=sweep(UniformAdditiveBuyer, n_goods=[1, 2, 3, 4, 5, 6])
        + sweep(GaussianMixtureOT, dim=[2, 4], cost_power=[1.5, 3.0], n_points=[1000]),
        seeds=10,  # c7_beats_bundle_n*: 10 paired runs reach p = 2^-10 under their Holm level
        methods=(
            cfg(GCFAuction, label="gcf_layer"),
            cfg(PostedPrice, label="separate_price", kind="separate"),
            cfg(PostedPrice, label="bundle_price", kind="bundle"),
            cfg(SizeBasedPricing, label="sja", known=True),
            cfg(ICNNAuction, label="icnn"),
            cfg(GCFTransport, label="gcf_ot", n_steps=4000),
            cfg(GCFTransport, label=OT_QUADRATIC, n_steps=4000, mutant="quadratic_cost"),
            cfg(ExactOT, label="exact_ot"),
        ),
        note=("the code's scale: 10k training types, 20k steps, menus of 6n + 5 points (commit "
              "2e128b5; HEAD uses d + 10), n = 1..6"),
    ),
}

BENCHMARK = Benchmark(
    slug="gcf_layer",
    paper=Paper(
        title="Universal Representation of Generalized Convex Functions and their Gradients",
        arxiv="2509.04477",
        url="https://arxiv.org/abs/2509.04477",
        version="arXiv v2 (abstract/introduction) + author's code MoeenNehzati/gconvex",
        authors="Moeen Nehzati",
    ),
    area="games",
    fidelity="scaled_down",
    methods=(GCFAuction, GCFTransport),
    baselines=(PostedPrice, SizeBasedPricing, ICNNAuction, ExactOT),
    datasets=(UniformAdditiveBuyer, GaussianMixtureOT),
    metrics=METRICS,
    primary_metric="revenue",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    headlines=HEADLINES,
    grids=GRIDS,
    description=("Finitely Y-convex layer max_j [k(x, y_j) - b_j] with an annealed soft max, used "
                 "as a buyer's utility (menu auction, IC by construction) and as a c-concave OT "
                 "potential; revenue is measured with the hard max on fresh types."),
    fidelity_note=("The paper's algorithm and the code's hyperparameters (temperature 60 with "
                   "cosine warm-up from 1, AdamW lr 0.05 with weight decay 0.01, "
                   "sorted/symmetric menus) in numpy with "
                   "hand-written gradients; the quick grid trains on 2000 types for 1500 steps "
                   "for n = 1..6 goods, the full grid uses the code's 10k types, 20k steps, "
                   "1..6 goods. The paper's Table I values were not retrievable offline, so "
                   "targets are the optima it compares with (Myerson, Manelli-Vincent, SJA)."),
    amendments=(
        Amendment(date="2026-12-03",
                  claims=("c1_revenue_n1", "c2_revenue_n2", "c3_revenue_n3", "c4_revenue_n4",
                          "c5_revenue_n5", "c6_revenue_n6", "c7_beats_bundle", "c8_ot_cost"),
                  what="source and foils declared (bundle_price and separate_price for c1-c6, "
                       "separate_price for c7 (derived), mutant gcf_ot[mutant=quadratic_cost] "
                       "for c8, added to all three grids); paper_value now quotes the abstract, "
                       "the targets and our SJA evaluations moved to note",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c1_revenue_n1", "c2_revenue_n2", "c3_revenue_n3", "c4_revenue_n4",
                          "c5_revenue_n5", "c6_revenue_n6", "c7_beats_bundle"),
                  what="c1: mean within 0.25 +-2% -> +-0.003 absolute; c2: 0.5492 +-2% -> "
                       "+-0.005 absolute; c3-c6: SJA +-2% -> +-1% relative; c7: Better than "
                       "bundle_price on n = 2, 3 -> n = 2..6 (the discriminating revenue claim). "
                       "Settings: the sja reference is posted at its known optimal prices "
                       "(SizeBasedPricing(known=True)) instead of fitted on the 2000 training "
                       "types; the method trains with AdamW (decoupled weight decay 0.01, the "
                       "authors' torch default) instead of Adam",
                  why="issue 14: +-2% for every n is met by a single bundle price (n = 2: "
                      "learned 0.5427 below the bundle price 0.5434); tolerances are the "
                      "research note's precision for Table I (+-0.003 at n = 1, +-0.005 at "
                      "n = 2, 1% from n = 3), the paper's own Table I being unavailable offline; "
                      "the fitted sja earned 1.496 against its 1.5766 optimum at n = 5; the "
                      "authors' scripts call torch.optim.AdamW with only lr",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c7_beats_bundle", "c7_beats_bundle_n2", "c7_beats_bundle_n3",
                          "c7_beats_bundle_n4", "c7_beats_bundle_n5", "c7_beats_bundle_n6"),
                  what="c7 (Better than bundle_price pooled over n = 2..6) replaced by one claim "
                       "per n, c7_beats_bundle_n2 .. _n6, same check scoped to one n",
                  why="issue 14 asks for the discriminating claim at the n where the bundle price "
                      "came close (n = 2), and for per-setting checks where the paper's "
                      "statement is per setting; the pooled check passed in a trial run while "
                      "the learned menu was below the bundle price at n = 2 and n = 5 (the "
                      "stricter reading, adopted after seeing that run)",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c7_beats_bundle_n2", "c7_beats_bundle_n3", "c7_beats_bundle_n4",
                          "c7_beats_bundle_n5", "c7_beats_bundle_n6"),
                  what="decided on the full grid only (grids=('full',)); the full grid's seeds "
                       "5 -> 10; checks, foils and scopes unchanged",
                  why="5 paired runs allow a signed-rank p >= 2^-5, above the worst-case Holm "
                      "level 0.05/13 on either grid; 10 runs allow 2^-10",
                  results_seen=True,
                  rule="issue 26: an undecidable design is decided on the full grid only"),
        Amendment(date="2026-12-06",
                  claims=("c9_convex_parameter_space", "c10_universal_approximation"),
                  what="headlines declared (the ICML abstract's 5 checkable statements, mapped to claims); the "
                       "two with no claim get not_run claims: the convex parameter space (c9) and the universal "
                       "approximation of GCFs and their gradients, Theorems 5.1 and 5.2 (c10)",
                  why="issue 29: every checkable statement of the abstract is declared and mapped; the convex "
                      "parameter space is declared although our reconstruction concedes it is not convex "
                      "(deviation 8), so that the report shows it unchecked rather than absent",
                  results_seen=True),
    ),
)
