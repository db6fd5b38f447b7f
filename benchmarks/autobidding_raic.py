"""RAIC / OAIC (arXiv 2508.16823): does truthful constraint reporting win in auto-bidding?

Random markets of value-maximising advertisers whose auto-bidders bid uniformly (b_ij = alpha_i v_ij)
under a target-CPA or budget constraint. For every market we compute every equilibrium under truthful
reports and under single-advertiser misreports c' = f c, then compare: worst vs worst (RAIC), best
vs best (OAIC), worst truthful vs best misreport (AIC, Alimohammadi et al. 2023). Second price is
the paper's subject (two advertisers: exact equilibrium sets); first price is a control whose
equilibrium outcome is unique; three advertisers are explored with best-response dynamics from
many starts (outside the paper's uniform-bidding theorem, no claim).
"""
from __future__ import annotations

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                           output_metric, sweep)
from claimbench.baselines.first_price_autobidding import FirstPriceAutobidding
from claimbench.baselines.uniform_bidding_best_response import UniformBestResponse
from claimbench.checks import Exact
from claimbench.datasets.autobidding_auctions import AutobiddingAuctions
from claimbench.methods.autobidding_raic import AutobiddingIC

# Used only by the claims: an assignment rather than an import, so that the module's cell key
# (provenance.cell_hash drops judgement-only assignments, not imports) does not change.


def _read(key: str):
    def fn(inst, out):
        v = out.get(key)
        return None if v is None else float(v)
    return fn


METRICS = (
    Metric("raic_violation", _read("raic"), False,
           "1 if some market of the cell has an advertiser and a misreport whose worst equilibrium "
           "beats the worst truthful one by more than 1e-6 of its total value"),
    Metric("oaic_violation", _read("oaic"), False, "same, best equilibrium vs best truthful"),
    Metric("aic_violation", _read("aic"), False, "same, best misreport vs worst truthful"),
    Metric("raic_margin", _read("raic_margin"), False,
           "max over markets, advertisers, misreports of (worst misreport - worst truthful) / "
           "advertiser's total value; -1 when every misreport can break the true constraint"),
    Metric("oaic_margin", _read("oaic_margin"), False, "(best misreport - best truthful) / total"),
    Metric("aic_margin", _read("aic_margin"), False, "(best misreport - worst truthful) / total"),
    Metric("raic_rate", _read("raic_rate"), False, "share of the cell's markets with a RAIC violation"),
    Metric("oaic_rate", _read("oaic_rate"), False, "share of markets with an OAIC violation"),
    Metric("aic_rate", _read("aic_rate"), False, "share of markets with an AIC violation"),
    Metric("n_eq_truth", _read("n_eq_truth"), True,
           "mean number of distinct equilibrium outcomes under truthful reports"),
    Metric("multi_eq_share", _read("multi_eq_share"), True,
           "share of markets with at least two truthful equilibria"),
    Metric("missing_eq", _read("missing"), False,
           "misreports for which no equilibrium was found (best-response search only)"),
    Metric("misreports_tried", _read("misreports_tried"), True,
           "mean number of misreports solved per market (all advertisers): 13 grid factors per "
           "advertiser, more with the continuous search"),
    output_metric("time_s", description="wall time of all equilibrium solves and IC checks of the cell"),
)

_Q2 = sweep(AutobiddingAuctions, n=[2], m=[100], kind=["tcpa", "budget"],
            values=["lognormal", "correlated"], batch=[10])
_QM = (cfg(AutobiddingAuctions, n=2, m=100, kind="tcpa", regime="multi_eq", batch=10),)
_Q3 = sweep(AutobiddingAuctions, n=[3], m=[30], kind=["tcpa", "budget"], batch=[1])

_F2 = sweep(AutobiddingAuctions, n=[2], m=[50, 100, 200], kind=["tcpa", "budget"],
            values=["lognormal", "correlated"], batch=[25])
_FM = sweep(AutobiddingAuctions, n=[2], m=[100, 200], kind=["tcpa"], regime=["multi_eq"], batch=[25])
_F3 = sweep(AutobiddingAuctions, n=[3], m=[50], kind=["tcpa", "budget"], batch=[5])

# Foil only (methods/autobidding_raic.py, "Mutants for foils"): a misreport judged under the
# constraint it reports, requirement (7) removed.
REPORTED = "spa[mutant=reported_worth]"
# The paper's method with misreports searched over f in [0.1, 10] on top of the grid (issue 29:
# "max <= 0" must not be an artefact of the 0.5-2x grid); two advertisers only (applies_to).
CONTINUOUS = "spa[search=continuous]"
_MAIN = (cfg(AutobiddingIC), cfg(FirstPriceAutobidding),
         cfg(AutobiddingIC, label=REPORTED, mutant="reported_worth"),
         cfg(AutobiddingIC, label=CONTINUOUS, search="continuous"))

BENCHMARK = Benchmark(
    slug="autobidding_raic",
    paper=Paper(
        title="Risk-Averse and Optimistic Advertiser Incentive Compatibility in Auto-bidding",
        arxiv="2508.16823",
        url="https://arxiv.org/abs/2508.16823",
        version="arXiv v1 abstract (22 Aug 2025) and the PMLR abstract; body not read",
        authors="Christopher Liaw, Wennan Zhu",
    ),
    area="games",
    fidelity="proxy",
    fidelity_note=(
        "Theory paper without experiments. We check its statements numerically on random finite "
        "markets: exact equilibrium sets for two advertisers with uniform bidding (the arXiv v1 "
        "setting), misreports on a grid of 0.5-2x the truth. The model details (fractional "
        "tie-splitting, undominated tCPA bids alpha_i >= T_i, an infeasible outcome worth -inf, "
        "finitely many queries instead of a continuum) are our reconstruction from the abstracts."),
    methods=(AutobiddingIC,),
    baselines=(FirstPriceAutobidding, UniformBestResponse),
    datasets=(AutobiddingAuctions,),
    metrics=METRICS,
    primary_metric="raic_violation",
    cost_note=("~56 CPU-s over 120 cells (4 configs x 5 market sets x 6 seeds): each solves its "
               "markets' equilibria under truthful reports and every misreport (13 factors per "
               "advertiser); spa[search=continuous] adds a scalar search per margin, 36 s on its "
               "30 two-advertiser cells. c1_spa_raic, c2_spa_oaic, c1b/c2b (zero violations in "
               "every market) and c3 read only the two-advertiser (n = 2) markets. The "
               "three-advertiser markets (n = 3, m = 30; ~29 CPU-s, read by no claim or premise) "
               "run on the full grid only since issue 27."),
    nondeterministic={"time_s": TIMING_RTOL},
    claims=(
        Claim(
            id="c1_spa_raic", where="abstract (arXiv v1: two advertisers, uniform bidding)",
            text="SPA satisfies RAIC",
            paper_value="\"We demonstrate that SPA satisfies both RAIC and OAIC\" (abstract; "
                        "the arXiv v1 abstract states it for two advertisers with uniform "
                        "bidding)",
            check=Exact(method="spa", metric="raic_violation", hi=0.0, tol=0.0, where={"n": 2}),
            source="paper",
            foils=(REPORTED,),
            foil_note="SPA with requirement (7) removed: each misreport's equilibria judged under "
                      "the reported constraint, so a looser report that overspends is not "
                      "charged for breaking the true one. It must violate RAIC: it shows that "
                      "the grid's misreports do move advertisers to more value and that zero "
                      "violations come from the true-constraint accounting the definition "
                      "requires. (First price, the foil before issue 14, has a unique "
                      "equilibrium in our markets, worst = best, so it could not fail: no "
                      "control. It stays in the grid as a reported control.)",
            note="Over every two-advertiser market of the grid (tCPA and budget, both value models, "
                 "the multi-equilibrium family); violation = a misreport's worst equilibrium beats "
                 "the worst truthful one by more than 1e-6 of the advertiser's total value. "
                 "Exact (issue 26): equilibrium sets are computed exactly, so every cell must "
                 "show 0 (the 1e-6 numerical tolerance is inside the metric)."),
        Claim(
            id="c2_spa_oaic", where="abstract (arXiv v1: two advertisers, uniform bidding)",
            text="SPA satisfies OAIC",
            paper_value="\"We demonstrate that SPA satisfies both RAIC and OAIC\" (abstract; "
                        "the arXiv v1 abstract states it for two advertisers with uniform "
                        "bidding)",
            check=Exact(method="spa", metric="oaic_violation", hi=0.0, tol=0.0, where={"n": 2}),
            source="paper",
            foils=(REPORTED,),
            foil_note="As c1: SPA with misreports judged under the reported constraint must "
                      "violate OAIC (first price, a unique equilibrium, was no control).",
            note="As c1 with best equilibrium against best truthful equilibrium (exact, as c1)."),
        Claim(
            id="c3_spa_not_aic", where="abstract (citing Alimohammadi et al. 2023)",
            text="SPA is not AIC",
            paper_value="\"Alimohammadi et al. (2023) proposed a notion of Auto-bidding "
                        "Incentive Compatibility (AIC) which serves to highlight that standard "
                        "auctions may not incentivize truthful reporting of these constraints\" "
                        "(abstract; SPA not AIC is the cited paper's result)",
            check=Exact(method="spa", metric="aic_violation", lo=1.0, tol=0.0, stat="max",
                        where={"regime": "multi_eq"}),
            source="paper",
            foils=("fpa",),
            foil_note="In our model AIC can fail only through multiple equilibria; first price, "
                      "whose equilibrium is unique in our markets, must show none, so the check "
                      "does not fire on any mechanism. Caveat: Alimohammadi et al. show FPA is "
                      "not AIC either (outside our finite uniform-bidding model).",
            note="Our instantiation: tCPA markets built to have several equilibria (target ratio "
                 "placed inside the range of the equilibrium curve, see datasets/"
                 "autobidding_auctions.py), not the continuous-query counterexample of the cited "
                 "paper. AIC fails if some misreport's best equilibrium beats the worst truthful one. "
                 "Exact (issue 29): the multi-equilibrium markets have two advertisers, whose "
                 "equilibrium sets are computed exactly, so the largest violation indicator over "
                 "the cells is a deterministic count; as a sign-test 'max >= 1' (existential), a "
                 "foil with no violation could only be inconclusive, never refuted."),
        Claim(
            id="c1b_spa_raic_continuous",
            where="abstract (arXiv v1: two advertisers, uniform bidding)",
            text="SPA satisfies RAIC against misreports searched over a continuous range",
            paper_value="\"We demonstrate that SPA satisfies both RAIC and OAIC\" (abstract); "
                        "RAIC: \"truthful reporting is preferred if its least (most) favorable "
                        "equilibrium outcome is no worse than the least (most) favorable "
                        "equilibrium outcome from any misreport\" (abstract)",
            check=Exact(method=CONTINUOUS, metric="raic_violation", hi=0.0, tol=0.0,
                        where={"n": 2}),
            source="paper",
            foils=(REPORTED,),
            foil_note="As c1: SPA with misreports judged under the reported constraint must "
                      "violate RAIC.",
            note="As c1, with \"any misreport\" searched harder: besides the 13 grid factors, "
                 "32 scrambled Sobol factors over f in [0.1, 10] (log scale) and a bounded "
                 "scalar search (8 evaluations) near the best factor of each margin, per "
                 "advertiser and market (methods/autobidding_raic.py, deviation 3). A heuristic "
                 "search of a step function, not a proof over the continuum; it can only add "
                 "misreports to c1's."),
        Claim(
            id="c2b_spa_oaic_continuous",
            where="abstract (arXiv v1: two advertisers, uniform bidding)",
            text="SPA satisfies OAIC against misreports searched over a continuous range",
            paper_value="\"We demonstrate that SPA satisfies both RAIC and OAIC\" (abstract)",
            check=Exact(method=CONTINUOUS, metric="oaic_violation", hi=0.0, tol=0.0,
                        where={"n": 2}),
            source="paper",
            foils=(REPORTED,),
            foil_note="As c2: SPA with misreports judged under the reported constraint must "
                      "violate OAIC.",
            note="As c2 with c1b's continuous misreport search."),
    ),
    headlines=(
        Headline(quote="standard auctions may not incentivize truthful reporting of these "
                       "constraints",
                 claims=("c3_spa_not_aic",)),
        Headline(quote="We demonstrate that SPA satisfies both RAIC and OAIC",
                 claims=("c1_spa_raic", "c2_spa_oaic", "c1b_spa_raic_continuous",
                         "c2b_spa_oaic_continuous")),
    ),
    grids={
        "smoke": Grid(
            datasets=(cfg(AutobiddingAuctions, n=2, m=30, kind="tcpa", batch=3),
                      cfg(AutobiddingAuctions, n=2, m=30, kind="budget", batch=3),
                      cfg(AutobiddingAuctions, n=2, m=30, kind="tcpa", regime="multi_eq", batch=3),
                      cfg(AutobiddingAuctions, n=3, m=8, kind="tcpa", batch=1)),
            seeds=2, methods=_MAIN,
            note="tiny markets; every code path once"),
        "quick": Grid(
            # issue 27: the three-advertiser markets (_Q3, ~29 CPU-s), read by no claim or
            # premise, run on the full grid only
            datasets=_Q2 + _QM, seeds=6, methods=_MAIN,
            note="300 two-advertiser markets with 100 queries (5 configs x 6 cells x 10 markets); "
                 "the three-advertiser markets on the full grid only"),
        "full": Grid(
            datasets=_F2 + _FM + _F3, seeds=20,
            methods=_MAIN + (cfg(UniformBestResponse),),
            note="6000 + 1000 two-advertiser markets (>= 500 per config, research note), 200 "
                 "three-advertiser markets; adds the best-response-only search as a baseline"),
    },
    description=__doc__,
    amendments=(
        Amendment(date="2026-12-03",
                  claims=("c1_spa_raic", "c2_spa_oaic", "c3_spa_not_aic"),
                  what="source and foils declared (fpa for c1-c3); paper_value reworded as the "
                       "paper's statements",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c1_spa_raic", "c2_spa_oaic"),
                  what="foils fpa -> spa[mutant=reported_worth] (SPA with each misreport judged "
                       "under the reported constraint; added to all three grids); checks "
                       "unchanged",
                  why="issue 14: first price has a unique equilibrium in our markets, so it "
                      "met c1/c2 by construction and was no control; the mutant removes the "
                      "true-constraint requirement of the RAIC/OAIC definitions (abstract: the "
                      "advertiser's outcome under its true constraint), which the claims' "
                      "wording says must matter",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c1_spa_raic", "c2_spa_oaic"),
                  what="Value(stat='max', hi=0) -> Exact(hi=0, tol=0) on the same metric and "
                       "scope: every two-advertiser cell must show no violation, with no sign "
                       "test over cells and no place in the Holm family",
                  why="exact equilibrium sets make each cell's violation indicator a "
                      "deterministic count (its 1e-6 numerical tolerance is in the metric), "
                      "judged until now by a sign test over cells",
                  results_seen=True,
                  rule="issue 26: exact kind for a deterministic result"),
        Amendment(date="2026-12-06", claims=("c3_spa_not_aic",),
                  what="Value(stat='max', lo=1) -> Exact(stat='max', lo=1, tol=0) on the same "
                       "method, metric, bound, scope and foil (fpa); headlines declared (SPA "
                       "satisfies RAIC and OAIC -> c1, c2; standard auctions may not incentivize "
                       "truthful reporting -> c3)",
                  why="issue 29: an existential max >= 1 judged by a sign test can only be "
                      "inconclusive for a foil with no violation (first price), so its foil "
                      "could never be refuted; the multi-equilibrium markets have two "
                      "advertisers with exact equilibrium sets, so the largest violation over "
                      "the cells is deterministic, the kind c1 and c2 already use",
                  results_seen=True,
                  rule="issue 26: exact kind for a deterministic result"),
        Amendment(date="2026-12-06",
                  claims=("c1_spa_raic", "c2_spa_oaic", "c3_spa_not_aic"),
                  what="methods/autobidding_raic.py edited (its bytes are in every claim's "
                       "design): a search='continuous' option that only the new config "
                       "spa[search=continuous] runs, a misreports_tried output and metric; the "
                       "grid path these claims read computes the same misreports in the same "
                       "order",
                  why="issue 29: c1b/c2b (next amendment) search misreports over a continuous "
                      "range so that 'max <= 0' is not an artefact of the 0.5-2x grid",
                  results_seen=True,
                  rule="issue 29: a branch only a new config runs; same experiment, every "
                       "non-timing metric of the committed quick cells unchanged (claimbench "
                       "verify)"),
        Amendment(date="2026-12-06",
                  claims=("c1b_spa_raic_continuous", "c2b_spa_oaic_continuous"),
                  what="new claims: RAIC and OAIC of SPA against misreports searched over f in "
                       "[0.1, 10] (13 grid factors + 32 Sobol factors + 8-step bounded search per "
                       "margin), new config spa[search=continuous] in every grid (two-advertiser "
                       "cells only), foil spa[mutant=reported_worth]; same Exact(hi=0) as c1/c2",
                  why="issue 29: 'Misreports are a 0.5-2x grid: search the worst misreport over a "
                      "continuous range so max <= 0 is not an artefact of the grid'",
                  results_seen=True),
    ),
)
