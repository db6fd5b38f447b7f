"""Benchmark: the finitely Y-convex (GCF) layer for optimal auctions and general-cost OT.

Auctions: one additive buyer with i.i.d. U[0,1] values for n goods. Every mechanism is fitted on
the training sample and its revenue is measured with the buyer's utility-maximising (hard-max)
choice on a fresh test sample kept in ``truth``. References: Myerson (n = 1), Manelli-Vincent
(n = 2) and the Straight-Jacket Auction (n <= 6), the optimum the paper's Table I compares with.
OT: Gaussian-mixture point clouds, cost ||x - y||^p; the layer's dual value is compared with
the exact optimum from POT.
Universal approximation (Theorems 5.1 / 5.2): layers with menus of 4, 16 and 64 points are fitted to
sampled values of a known GCF (datasets/known_gcf.py); their sup-norm function error and mean
gradient error on fresh points must fall with the menu size.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise, cfg,
                           output_metric, sweep)
from claimbench.baselines.exact_ot import ExactOT
from claimbench.baselines.input_convex_network import ICNNAuction, icnn_revenue
from claimbench.baselines.known_optimal_auctions import SJA_REVENUE, SizeBasedPricing
from claimbench.baselines.posted_prices import PostedPrice
from claimbench.checks import Better, Exact, Value
from claimbench.datasets.auction_buyers import UniformAdditiveBuyer
from claimbench.datasets.known_gcf import KnownGCF
from claimbench.datasets.transport_problems import GaussianMixtureOT
from claimbench.memo import LastOf
from claimbench.methods.gcf_layer import (GCFAuction, GCFFit, GCFTransport, evaluate_fit, in_param_set,
                                         menu_revenue)


def _per_cell(fn):
    """``fn(instance, outputs)`` once per cell: several metrics read the same evaluation on the
    fresh test sample (100k buyers; 20k points for each of a fit's menus), and the harness calls
    them one after another on one cell's outputs (claimbench.memo: keyed on both objects)."""
    memo = LastOf()

    def cached(instance, outputs):
        return memo.get((instance, outputs), fn.__name__, lambda: fn(instance, outputs))

    return cached


@_per_cell
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


@_per_cell
def _fit_errors(instance, outputs) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Menu sizes, sup-norm function errors and mean gradient errors of a GCF fit's approximants
    on the fresh test sample."""
    fits = outputs.get("fits")
    if not fits:
        return None
    x, f, g = (np.asarray(instance.truth[k]) for k in ("x_test", "f_test", "grad_test"))
    sizes, fe, ge = [], [], []
    for fit in fits:
        v, grad = evaluate_fit(fit, x)  # (N,), (N, n)
        sizes.append(fit["size"])
        fe.append(np.abs(v - f).max())
        ge.append(np.linalg.norm(grad - g, axis=1).mean())
    return np.asarray(sizes, float), np.asarray(fe), np.asarray(ge)


def _loglog_slope(sizes: np.ndarray, err: np.ndarray) -> float:
    # rounded to 1e-9 so that floating-point noise on equal errors cannot read as a fall
    return round(float(np.polyfit(np.log(sizes), np.log(err), 1)[0]), 9)


def _fit_metric(which: int, reduce):
    def fn(instance, outputs) -> float | None:
        r = _fit_errors(instance, outputs)
        return None if r is None else reduce(r[0], r[which])
    return fn


def _midpoint_in_param_set(instance, outputs) -> float | None:
    """Fraction of fitted menus theta = (y, b) for which theta and the midpoint of theta and
    theta' (the same menu listed in reverse order: the same layer, so a second point of the
    parameter set) both lie in the method's declared parameter set."""
    layers = [f for f in outputs.get("fits") or () if f["kind"] == "layer"]
    if not layers:
        return None
    ok = []
    for f in layers:
        y = np.asarray(f["y"], float)  # (J, n)
        ok.append(in_param_set(y, f["param_set"]) and in_param_set(0.5 * (y + y[::-1]), f["param_set"]))
    return float(np.mean(ok))


METRICS = (
    Metric("revenue", _revenue, True, "expected revenue, hard-max choice on the fresh test sample"),
    Metric("revenue_ratio_sja", _revenue_ratio_sja, True, "revenue / SJA (optimal) revenue"),
    Metric("ot_rel_gap", _ot_rel_gap, False, "|OT* - reported cost| / OT*"),
    Metric("map_err", _map_err, False, "mean |T(x) - T*(x)| / mean spread of the target"),
    Metric("fn_err_slope", _fit_metric(1, _loglog_slope), False,
           "log-log slope of the sup-norm function error against the menu size"),
    Metric("grad_err_slope", _fit_metric(2, _loglog_slope), False,
           "log-log slope of the mean gradient error |grad f_J - grad f| against the menu size"),
    Metric("fn_err_smallest", _fit_metric(1, lambda s, e: float(e[np.argmin(s)])), False,
           "sup-norm function error of the smallest menu"),
    Metric("grad_err_smallest", _fit_metric(2, lambda s, e: float(e[np.argmin(s)])), False,
           "mean gradient error of the smallest menu"),
    Metric("fn_err_largest", _fit_metric(1, lambda s, e: float(e[np.argmax(s)])), False,
           "sup-norm function error of the largest menu"),
    Metric("grad_err_largest", _fit_metric(2, lambda s, e: float(e[np.argmax(s)])), False,
           "mean gradient error of the largest menu"),
    Metric("midpoint_in_param_set", _midpoint_in_param_set, True,
           "fraction of fitted menus whose midpoint with a second parameter vector stays in the "
           "declared parameter set"),
    output_metric("time_s", description="fit time in seconds"),
)

# Tolerances (issue 14): the research note's precision for the paper's Table I comparison:
# +-0.003 absolute at n = 1, +-0.005 absolute at n = 2, +-1% relative from n = 3 (the paper's
# own Table I numbers could not be retrieved offline). Before issue 14: 2% relative for every n.
TOLS = {1: (0.003, False), 2: (0.005, False), 3: (0.01, True), 4: (0.01, True), 5: (0.01, True),
        6: (0.01, True)}

OT_QUADRATIC = "gcf_ot[mutant=quadratic_cost]"  # foil only (methods/gcf_layer.py, "Mutants")
FIT_FIXED = "gcf_fit[mutant=fixed_menu]"  # foils only (methods/gcf_layer.py, "Mutants")
FIT_STEP = "gcf_fit[mutant=step]"
FIT_SORTED = "gcf_fit[mutant=sorted_rescaled]"
# The abstract's checkable statements (ICML 2026 abstract), verbatim.
_Q_CONVEX = "We provide a new differentiable layer with a convex parameter space"
_Q_UNIVERSAL = ("show (Theorems 5.1 and 5.2) that it and its gradient are universal approximators for GCFs and "
                "their gradients")
_Q_OT = "(i) learning optimal transport maps with general cost functions"
_Q_AUCTIONS = "(ii) learning optimal auctions of multiple goods"
_Q_SINGLE_LEVEL = ("we show how our layer can be used to convert the existing bilevel or min-max formulations into "
                   "single-level problems that can be solved efficiently with first-order methods")
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
        where="abstract; Sec. 1 (Introduction)",
        text="the layer has a convex parameter space",
        paper_value='"' + _Q_CONVEX + '" (abstract)',
        check=Exact(method="gcf_fit", metric="midpoint_in_param_set", target=1.0, tol=0.0,
                    where={"dataset": "known_gcf"}),
        source="paper",
        foils=(FIT_SORTED,),
        foil_note=("The auction code's sorted model (methods/gcf_layer.py, deviation 2; our GCFAuction "
                   "with symmetric=True) rescales every good's coordinate to span exactly [0, 1] across "
                   "the menu: a parameterisation whose parameter set is not convex, which the words "
                   "'a convex parameter space' rule out."),
        note=("Sec. 1 repeats it: 'provide a practical parameterization with universal approximation "
              "guarantees and a convex parameter space'. "
              "Exact, by construction: the layer's parameters are the menu points y_j in Y = [0, 1]^n "
              "and the intercepts b_j in R (the finitely Y-convex layer max_j [<x, y_j> - b_j]), the set "
              "Y^J x R^J, which is convex because Y is; every point of it is a layer of the family. Each "
              "unit takes every fitted menu theta of the known_gcf cells and a second parameter vector "
              "theta' (the same menu listed in reverse order, the same layer) and needs theta and "
              "(theta + theta') / 2 in the declared set (fraction 1; one miss refutes it). The sections "
              "that define the parameter space (Sec. 5) could not be read offline (the stored full text "
              "ends in Sec. 1), so Y^J x R^J is our reading of 'parameter space'. Our auction "
              "reconstruction uses the foil's parameterisation (deviation 8), so this claim is about the "
              "layer, not about GCFAuction."),
    ),
    Claim(
        id="c10a_function_approximation",
        where="abstract; Theorem 5.1",
        text="finite layers approximate a GCF: the function error falls as the menu grows",
        paper_value='"' + _Q_UNIVERSAL + '" (abstract)',
        check=Value(method="gcf_fit", metric="fn_err_slope", hi=0.0, where={"dataset": "known_gcf"}),
        source="paper",
        foils=(FIT_FIXED,),
        foil_note=("Universal approximation means the error goes to 0 as the layer grows; a fit whose menu "
                   "does not grow (the smallest size at every nominal size) is what the words rule out."),
        note=("Threshold from the words: 'universal approximators' states no rate, only that the error "
              "can be made as small as wanted by a larger layer, so on the ladder J = 4, 16, 64 the "
              "log-log slope of the sup-norm error (max over 20k fresh points) against J must be < 0 "
              "(mean over seeds, t-interval). Target: f(x) = |x|^2 / 2 on [0, 1]^2, kernel <x, y>, the "
              "utility of a buyer facing the continuum menu {(y, |y|^2 / 2)}: Y-convex and not finitely "
              "so (datasets/known_gcf.py). Layers are fitted to 1000 sampled values (no gradients) by "
              "Adam on a soft max. Theorem 5.1's text could not be read offline (the stored full text "
              "ends in Sec. 1): the norm (sup) is our reading of 'universal approximator'."),
    ),
    Claim(
        id="c10b_gradient_approximation",
        where="abstract; Theorem 5.2",
        text="the gradients of finite layers approximate the GCF's gradient: the error falls as the menu grows",
        paper_value='"' + _Q_UNIVERSAL + '" (abstract)',
        check=Value(method="gcf_fit", metric="grad_err_slope", hi=0.0, where={"dataset": "known_gcf"}),
        source="paper",
        foils=(FIT_FIXED, FIT_STEP),
        foil_note=("A non-growing fit cannot approach the gradient; and 'it and its gradient' rules out an "
                   "approximator of the function alone: a nearest-anchor piecewise-constant fit with J "
                   "pieces approximates f but its gradient is 0 almost everywhere."),
        note=("Threshold from the words, as for c10a: the log-log slope of the mean gradient error "
              "mean |y_{j*(x)} - grad f(x)| (the hard-max layer's gradient is its active point) against "
              "J = 4, 16, 64 must be < 0. The fit sees function values only, so a falling gradient error "
              "is a consequence, not a target. Theorem 5.2's mode of convergence could not be read "
              "offline; the mean (L1) error is the weaker of the usual readings (a.e. / L^p / uniform)."),
    ),
)

PREMISES = (
    Premise(id="p1_fit_function_room",
            text="the smallest layer (J = 4) leaves a sup-norm error of at least 0.005 (0.5% of the target's "
                 "range [0, 1]), so a fall with the menu size has room to show",
            check=Value(method="gcf_fit", metric="fn_err_smallest", lo=0.005, where={"dataset": "known_gcf"}),
            claims=("c10a_function_approximation",)),
    Premise(id="p2_fit_gradient_room",
            text="the smallest layer (J = 4) leaves a mean gradient error of at least 0.05 (about 6% of the "
                 "mean gradient norm 0.77), so a fall with the menu size has room to show",
            check=Value(method="gcf_fit", metric="grad_err_smallest", lo=0.05, where={"dataset": "known_gcf"}),
            claims=("c10b_gradient_approximation",)),
)

HEADLINES = (
    Headline(quote=_Q_CONVEX, claims=("c9_convex_parameter_space",)),
    Headline(quote=_Q_UNIVERSAL, claims=("c10a_function_approximation", "c10b_gradient_approximation")),
    Headline(quote=_Q_OT, claims=("c8_ot_cost",)),
    Headline(quote=_Q_AUCTIONS, claims=("c2_revenue_n2", "c3_revenue_n3", "c4_revenue_n4", "c5_revenue_n5",
                                        "c6_revenue_n6", "c7_beats_bundle_n2", "c7_beats_bundle_n3",
                                        "c7_beats_bundle_n4", "c7_beats_bundle_n5", "c7_beats_bundle_n6")),
    Headline(quote=_Q_SINGLE_LEVEL, claims=("c8_ot_cost", "c1_revenue_n1", "c2_revenue_n2", "c3_revenue_n3",
                                            "c4_revenue_n4", "c5_revenue_n5", "c6_revenue_n6")),
)
def _fit_configs(**kw):
    """The GCF fit (c9, c10a, c10b) and its foils; same settings on every grid but smoke."""
    return (cfg(GCFFit, label="gcf_fit", **kw),
            *(cfg(GCFFit, label=f"gcf_fit[mutant={m}]", mutant=m, **kw)
              for m in ("fixed_menu", "step", "sorted_rescaled")))


_AUCTION_QUICK = dict(n_train=2000, n_test=100_000)
_OT_QUICK = dict(dim=[2], cost_power=[1.5, 3.0], n_points=[200])

GRIDS = {
    "smoke": Grid(
        datasets=(cfg(UniformAdditiveBuyer, n_goods=2, n_train=400, n_test=20_000),
                  cfg(GaussianMixtureOT, dim=2, n_points=40),
                  cfg(KnownGCF, n_train=200, n_test=2000)),
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
            *_fit_configs(n_steps=20),
        ),
        note="wiring check only",
    ),
    "quick": Grid(
        datasets=sweep(UniformAdditiveBuyer, n_goods=[1, 2, 3, 4, 5, 6],
                       **{k: [v] for k, v in _AUCTION_QUICK.items()})
        + sweep(GaussianMixtureOT, **_OT_QUICK)
        + (cfg(KnownGCF),),
        seeds=5,
        methods=(
            cfg(GCFAuction, label="gcf_layer", n_steps=1500),
            cfg(PostedPrice, label="separate_price", kind="separate"),
            cfg(PostedPrice, label="bundle_price", kind="bundle"),
            cfg(SizeBasedPricing, label="sja", known=True),
            # issue 27: the icnn baseline (800 steps, ~21 CPU-s), read by no claim or premise,
            # runs on the full grid only
            cfg(GCFTransport, label="gcf_ot", n_steps=1000, temp_warmup_steps=500),
            cfg(GCFTransport, label=OT_QUADRATIC, n_steps=1000, temp_warmup_steps=500,
                mutant="quadratic_cost"),
            cfg(ExactOT, label="exact_ot"),
            *_fit_configs(),
        ),
        note=("scaled down: 2000 training types, 1500 AdamW steps (paper code: 10k types, 20k "
              "steps) for every n = 1..6 of Table I (n = 4..6 added with the same settings, fixed "
              "before any n >= 4 run, so every Table I claim has quick-scale evidence); OT on "
              "200-point clouds in 2-D; the icnn baseline on the full grid only"),
    ),
    "full": Grid(
        datasets=sweep(UniformAdditiveBuyer, n_goods=[1, 2, 3, 4, 5, 6])
        + sweep(GaussianMixtureOT, dim=[2, 4], cost_power=[1.5, 3.0], n_points=[1000])
        + (cfg(KnownGCF),),
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
            *_fit_configs(),
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
        version="arXiv v2 (abstract and the opening of Sec. 1; the stored copy ends there, so Sec. 5 "
                "and Table I were not read) + author's code MoeenNehzati/gconvex",
        authors="Moeen Nehzati",
    ),
    area="games",
    fidelity="scaled_down",
    methods=(GCFAuction, GCFTransport, GCFFit),
    baselines=(PostedPrice, SizeBasedPricing, ICNNAuction, ExactOT),
    datasets=(UniformAdditiveBuyer, GaussianMixtureOT, KnownGCF),
    metrics=METRICS,
    cost_note=("Most of the quick grid's CPU (~59 CPU-s, measured 2026-12-06) is the auctions: "
               "gcf_layer (1500 AdamW steps on soft-revenue gradients, 2000 training types) for n"
               " = 1..6 goods x 5 seeds, ~42 CPU-s; the gcf_fit family takes ~13 s and OT ~3 s. "
               "gcf_layer is read by c1_revenue_n1 to c6_revenue_n6 and c7_beats_bundle_n2 to n6;"
               " every n of Table I is kept so each table claim has quick-scale evidence. The "
               "icnn baseline (800 steps, ~21 s), read by no claim or premise, runs on the full "
               "grid only (issue 27)."),
    primary_metric="revenue",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    premises=PREMISES,
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
                   "targets are the optima it compares with (Myerson, Manelli-Vincent, SJA). Theorems "
                   "5.1 / 5.2: finite layers (4, 16, 64 points, fitted by Adam to 1000 sampled values) "
                   "of the known GCF |x|^2 / 2 on [0, 1]^2 (our construction; the paper's own "
                   "experiment for the theorems, if any, could not be read)."),
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
        Amendment(date="2026-12-06",
                  claims=("c1_revenue_n1", "c2_revenue_n2", "c3_revenue_n3", "c4_revenue_n4", "c5_revenue_n5",
                          "c6_revenue_n6", "c7_beats_bundle_n2", "c7_beats_bundle_n3", "c7_beats_bundle_n4",
                          "c7_beats_bundle_n5", "c7_beats_bundle_n6", "c8_ot_cost"),
                  what="methods/gcf_layer.py (provenance header: sections read; GCFFit, its helpers and "
                       "mutants, deviation 9) and benchmarks/gcf_layer.py (fit metrics, premises, the known_gcf "
                       "dataset and the gcf_fit configs added to every grid) edited; both are in every claim's "
                       "design; no config these claims read computes anything different",
                  why="issue 29: c10 (Theorems 5.1 / 5.2) and c9 (convex parameter space) get checks (next "
                      "amendments); the method header says which sections were read",
                  results_seen=True,
                  rule="issue 29: the method file's provenance header (sections read) and code that only new "
                       "configs run; same experiment, every non-timing metric of the committed quick cells "
                       "unchanged (compared cell by cell with the committed store: 0 differences in 720 "
                       "values of its 320 cells)"),
        Amendment(date="2026-12-06",
                  claims=("c9_convex_parameter_space",),
                  what="not_run -> Exact: gcf_fit's midpoint_in_param_set = 1 on known_gcf (every fitted menu "
                       "theta and the midpoint of theta and its reversed listing lie in the layer's parameter "
                       "set Y^J x R^J); foil gcf_fit[mutant=sorted_rescaled] (the auction code's span-normalised "
                       "sorted model); where 'abstract' -> 'abstract; Sec. 1' (its words in note)",
                  why="issue 29: declare the convex parameter space as a check that can fail; the layer's "
                      "parameter set is the one the abstract names, our auction parameterisation (deviation "
                      "8) is the foil",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c10_universal_approximation", "c10a_function_approximation",
                          "c10b_gradient_approximation", "p1_fit_function_room", "p2_fit_gradient_room"),
                  what="c10_universal_approximation (not_run) replaced by c10a (Theorem 5.1: mean log-log slope "
                       "of the sup-norm function error against J = 4, 16, 64 < 0; foil fixed_menu) and c10b "
                       "(Theorem 5.2: same for the mean gradient error; foils fixed_menu and step) on the new "
                       "known_gcf dataset (|x|^2 / 2 on [0, 1]^2, kernel <x, y>), gated by premises p1 (J = 4 "
                       "function error >= 0.005) and p2 (J = 4 gradient error >= 0.05)",
                  why="issue 29: Theorems 5.1 and 5.2 had no check; thresholds from the words (no rate is "
                      "stated: the errors must fall), fixed before the grid ran. Results seen: the fit's "
                      "settings (deviation 9) were chosen on a one-seed trial fit of this target, and one "
                      "seed-0 wiring run of the four gcf_fit configs was seen, before these claims were "
                      "declared; nothing was changed after that run",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c10a_function_approximation', 'c10b_gradient_approximation', 'c1_revenue_n1', 'c2_revenue_n2', 'c3_revenue_n3', 'c4_revenue_n4', 'c5_revenue_n5', 'c6_revenue_n6', 'c7_beats_bundle_n2', 'c7_beats_bundle_n3', 'c7_beats_bundle_n4', 'c7_beats_bundle_n5', 'c7_beats_bundle_n6', 'c8_ot_cost', 'c9_convex_parameter_space'),
                  what="methods/gcf_layer.py computes the same sums in the same order in fewer passes (row max read at the argmax, in-place softmax, fancy-indexed adds instead of np.add.at); the benchmark's revenue and fit-error metrics share one evaluation per cell (a one-entry cache holding the instance and outputs); baselines/input_convex_network.py computes revenue only on trace steps; grids, seeds, sizes, checks and foils unchanged",
                  why='issue 27 item 5 (quick-suite CPU): 495 values of the 540 quick cells compared with a fresh run (fresh checkpoints): 0 differences; about 0.76x the CPU (117 -> 89 CPU-s, measured under load)',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c10a_function_approximation', 'c10b_gradient_approximation', 'c1_revenue_n1', 'c2_revenue_n2', 'c3_revenue_n3', 'c4_revenue_n4', 'c5_revenue_n5', 'c6_revenue_n6', 'c7_beats_bundle_n2', 'c7_beats_bundle_n3', 'c7_beats_bundle_n4', 'c7_beats_bundle_n5', 'c7_beats_bundle_n6', 'c8_ot_cost', 'c9_convex_parameter_space'),
                  what='the one-entry identity caches of the issue 27 speed-up now use the shared claimbench.memo.LastOf instead of a copy of their own (the same values computed once per instance, cell or trace); grids, seeds, checks and foils unchanged',
                  why='review of issue 27: one helper instead of three copies; all 540 quick cells re-run: 495 non-timing values compared with the committed cells, 0 differences',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
