"""gnnmim: node classification with missing node features, dense vs sparse, MCAR vs MNAR.

GNNmim (a GCN fed with [zero-filled features || missing-indicator flags]) against a GCN on
mean-imputed features, Feature Propagation + GCN, PCFI + GCN, GCNmf, and an MLP with
indicators (no graph). Two
graphs: the paper's dense synthetic graph (Barabasi-Albert, 5 N(0,1) features, 2 classes) and
a Cora-like sparse bag-of-words graph. Five missingness mechanisms (UMCAR, SMCAR, LDMCAR,
FDMNAR, CDMNAR) at several rates; stratified 70/10/20 splits; metric: test macro-F1.
"""
from __future__ import annotations

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise,
                            cfg, output_metric)
from claimbench.baselines.feature_propagation import FeaturePropagationGCN
from claimbench.baselines.gcn import GCN
from claimbench.baselines.gcnmf import GCNmf
from claimbench.baselines.mlp_indicators import MLPIndicators
from claimbench.baselines.pcfi import PCFIGCN
from claimbench.checks import Better, Equivalent, NotRun, Rank, Slope, Value
from claimbench.datasets.missing_feature_graphs import (MECHANISMS, BagOfWordsGraph,
                                                       DenseFeatureGraph)
from claimbench.methods.gnnmim import GNNmim


def macro_f1(instance, outputs) -> float | None:
    pred = outputs.get("pred_test")
    if pred is None:
        return None
    from sklearn.metrics import f1_score

    return float(f1_score(instance.truth["y_test"], pred, average="macro"))


def missing_rate(instance, outputs) -> float:
    return float(instance.truth["missing_rate"])


METRICS = (
    Metric("macro_f1", macro_f1, True, "macro-F1 on the test nodes (sklearn)"),
    Metric("missing_rate", missing_rate, False, "realised fraction of missing feature cells"),
    output_metric("time_s", description="imputation + training time in seconds"),
    output_metric("epochs_run", description="epochs until early stopping"),
)

MNAR = ("fdmnar", "cdmnar")
# Foil only (methods/gnnmim.py, not the paper's method): GNNmim without the feature values.
INDICATOR_ONLY = "gnnmim[mutant=indicator_only]"
DENSE_MCAR_CELLS = {"dataset": "dense_graph", "mechanism": "umcar", "p_miss": (0.5, 0.9)}

CLAIMS = (
    Claim(
        id="c1_sparse_hides_missingness",
        where="abstract; Sec. 3 (sparsity theorem)",
        text="high sparsity substantially limits the information loss caused by missingness, "
             "making all models appear robust",
        paper_value="\"we theoretically prove that high sparsity substantially limits the "
                    "information loss caused by missingness, making all models appear robust\" "
                    "(abstract; no number)",
        check=Slope(method="gcn", metric="macro_f1", x="p_miss", lo=-0.1, log_x=False,
                    log_y=False, where={"dataset": "bow_graph", "mechanism": "umcar"}),
        source="paper",
        foils=("mlp_mim",),
        foil_note="The claim is about the GNNs compared on these benchmarks; the MLP (no message "
                  "passing) is outside it and does lose accuracy here, so the slope bound must "
                  "fail it or it cannot tell a robust model from one that is not.",
        subject="gcn",
        note=("Slope of test macro-F1 against the MCAR rate (0, 0.5, 0.9) on the sparse "
              "bag-of-words graph, for the mean-imputation GCN. Bound -0.1 (at most ~9 F1 "
              "points lost at 90 % missing) is ours; with c2's -0.2 it encodes the note's "
              "proposal that the sparse drop is less than half of the dense drop."),
    ),
    *(Claim(
        id=f"c1{tag}_sparse_hides_missingness_{label}",
        where="abstract; Sec. 3 (sparsity theorem)",
        text=f"high sparsity makes all models appear robust: {who} loses little F1 as MCAR "
             f"missingness grows on the sparse graph",
        paper_value="\"we theoretically prove that high sparsity substantially limits the "
                    "information loss caused by missingness, making all models appear robust\" "
                    "(abstract; no number)",
        check=Slope(method=label, metric="macro_f1", x="p_miss", lo=-0.1, log_x=False,
                    log_y=False, where={"dataset": "bow_graph", "mechanism": "umcar"}),
        source="paper",
        foils=("mlp_mim",),
        foil_note="As c1: the MLP (no message passing) is outside the GNNs the claim speaks of "
                  "and loses accuracy here; the bound must fail it.",
        note=f"As c1 (bound -0.1, ours) for {who}: the abstract says 'all models', and c1 "
             f"checked the mean-imputation GCN only (issue 30).{extra}")
      for tag, label, who, extra in (
          ("b", "gnnmim", "GNNmim", ""),
          ("c", "fp", "Feature Propagation + GCN", ""),
          ("d", "pcfi", "PCFI + GCN", " Declared before PCFI was first run."),
          ("f", "gcnmf", "GCNmf", " Declared before GCNmf was first run."),
          ("e", "gnnmim_missing_flag", "GNNmim with the missing flag M",
           " methods/gnnmim.py notes that with hundreds of near-constant indicator columns "
           "(M at p = 0.9 on this graph) some seeds stall at chance level under Adam lr 0.01."))),
    Claim(
        id="c2_dense_reveals_missingness",
        where="abstract; Sec. 4 (dense datasets)",
        text="on dense, semantically meaningful features, missingness costs real accuracy",
        paper_value="\"To overcome this limitation, we introduce one synthetic and three "
                    "real-world datasets with dense, semantically meaningful features\" "
                    "(abstract; no number)",
        check=Slope(method="gcn", metric="macro_f1", x="p_miss", hi=-0.2, log_x=False,
                    log_y=False, where={"dataset": "dense_graph", "mechanism": "umcar"}),
        note="Same slope on the dense synthetic graph; bound -0.2 = twice c1's, see c1. The "
             "research note's reading of the paper's dense-data thesis; no sentence or number "
             "of the paper was read for it beyond the abstract's.",
        source="paper",
        subject="gcn",
        foils=(INDICATOR_ONLY,),
        foil_note="A GCN that never sees the feature values (only which are missing) loses "
                  "nothing when values go missing, so 'missingness costs real accuracy' must "
                  "fail for it.",
    ),
    Claim(
        id="c3_sparse_methods_alike",
        where="abstract; blog TL;DR",
        text="on bag-of-words benchmarks almost every method looks robust, preventing a "
             "meaningful comparison",
        check=Equivalent(a="gnnmim", b="gcn", metric="macro_f1", margin=0.03,
                         where={"dataset": "bow_graph", "mechanism": "umcar", "p_miss": 0.9}),
        paper_value="\"high-dimensional but sparse node features\" ... \"making all models "
                    "appear robust and preventing a meaningful comparison of their "
                    "performance\" (abstract; no number)",
        note="TOST at 90 % MCAR on the sparse graph; margin 3 F1 points (research note).",
        source="paper",
        foils=("mlp_mim",),
        foil_note="A model without the graph is not one of the GNNs the claim says look alike; "
                  "the equivalence test must be able to tell it apart from the GCN.",
    ),
    Claim(
        id="c4_mcar_benign",
        where="research note (its reading of thesis (b), MCAR as benign)",
        text="MCAR is a benign mechanism: it does not separate the methods",
        check=Equivalent(a="gnnmim", b="gcn", metric="macro_f1", margin=0.03,
                         where=DENSE_MCAR_CELLS),
        paper_value="\"Existing studies mostly address relatively benign scenarios, namely "
                    "... (b) incomplete data generated under Missing Completely At Random "
                    "(MCAR) mechanisms\" (abstract; no number; the equivalence reading is "
                    "the research note's)",
        note=("The research note's reading of thesis (b): under uniform MCAR on the dense graph "
              "GNNmim and the mean-imputation GCN agree within 3 F1 points (research note's "
              "margin). The abstract calls MCAR 'relatively benign' and states no such "
              "equivalence, so this is ours (issue 30)."),
        source="derived",
        foils=("mlp_mim", INDICATOR_ONLY),
        foil_note="Methods that drop an input the compared GNNs use (the graph; the feature "
                  "values) are separated from them by design, so the equivalence must fail for "
                  "them.",
    ),
    Claim(
        id="c5_mnar_gnnmim_beats_mean_imputation",
        where="Sec. 5 (MNAR results); blog",
        text="under MNAR most methods fall apart; a GNN told which entries are missing holds up",
        check=Better(method="gnnmim", baseline="gcn", metric="macro_f1",
                     where={"dataset": "dense_graph", "mechanism": MNAR, "p_miss": 0.9}),
        note="FD-MNAR and CD-MNAR at rate 0.9 on the dense graph, paired over seeds; margin 0. "
             "The wording is the authors' blog's; the paper's Sec. 5 was not read.",
        source="derived",
        foils=("fp", "mlp_mim"),
        foil_note="Feature Propagation is not told which entries are missing, and the MLP is not "
                  "a GNN: neither is what the claim credits, so neither should beat the "
                  "mean-imputation GCN under MNAR.",
    ),
    Claim(
        id="c6_mnar_gnnmim_at_least_fp",
        where="Sec. 5; research note check (iii)",
        text="GNNmim is competitive with specialised architectures (Feature Propagation)",
        check=Better(method="gnnmim", baseline="fp", metric="macro_f1",
                     where={"dataset": "dense_graph", "mechanism": MNAR, "p_miss": (0.5, 0.9)}),
        note=("Research note check (iii): under FD-/CD-MNAR at rates >= 0.5, GNNmim >= FP. "
              "Encoded with margin 0 (a non-inferiority margin of -0.03 was tried first: the "
              "harness's negative control, zero improvement, passes it, so it was vacuous)."),
        source="derived",
        foils=("gcn", "mlp_mim"),
        foil_note="Mean imputation with no indicator (gcn) and indicators with no graph "
                  "(mlp_mim) each lack half of GNNmim and must not beat FP under MNAR.",
    ),
    Claim(
        id="c7_gnnmim_competitive_everywhere",
        where="abstract",
        text="GNNmim is competitive with respect to specialized architectures across diverse "
             "datasets and missingness regimes",
        check=Rank(method="gnnmim", metric="macro_f1", k=2,
                   among=("gnnmim", "gcn", "fp", "pcfi", "gcnmf", "mlp_mim"),
                   where={"dataset": "dense_graph"}),
        paper_value="\"we show that a simple baseline adapted to the graph domain is "
                    "competitive with respect to specialized architectures across diverse "
                    "datasets and missingness regimes\" (abstract; no number)",
        note=("Average rank over every (mechanism, rate, seed) block of the dense graph is "
              "among the best two of the six main methods (research note: mean rank <= 2); "
              "the specialised architectures ranked are FP, PCFI and GCNmf (issue 30 added "
              "PCFI and GCNmf)."),
        source="paper",
        foils=(INDICATOR_ONLY,),
        foil_note="A GCN that ignores the observed feature values is no competitive method; the "
                  "other methods already sit in the ranking, so only a mutant can take GNNmim's "
                  "place.",
    ),
    Claim(
        id="c8_real_dense_datasets",
        where="abstract; Sec. 4 (AIR, ELECTRIC, TADPOLE)",
        text="on the three real-world dense datasets missingness costs real accuracy and "
             "separates the methods",
        paper_value="\"we introduce one synthetic and three real-world datasets with dense, "
                    "semantically meaningful features\" (abstract)",
        check=NotRun(method="gnnmim",
                     reason="the real dense datasets (AIR, ELECTRIC, TADPOLE) are not here; "
                            "only the synthetic dense graph is (c2)"),
        source="paper",
    ),
    Claim(
        id="c9_assumptions_implications",
        where="abstract; Sec. 3-4 (theory of the missingness process)",
        text="explicit assumptions on the missingness process decide which methods stay sound",
        paper_value="\"we provide a theoretical background to state explicit assumptions on "
                    "the missingness process and analyze their implications for different "
                    "methods\" (abstract)",
        check=NotRun(method="gnnmim",
                     reason="not built yet (issue 30): the paper's assumptions were not read "
                            "(body not read); the check would compare, per mechanism, the "
                            "methods the theory calls sound with those it does not"),
        source="paper",
    ),
)

# The ICML 2026 abstract's checkable statements (headlines), verbatim.
HEADLINES = (
    Headline(quote="high sparsity substantially limits the information loss caused by "
                   "missingness, making all models appear robust and preventing a meaningful "
                   "comparison of their performance",
             claims=("c1_sparse_hides_missingness", "c1b_sparse_hides_missingness_gnnmim",
                     "c1c_sparse_hides_missingness_fp", "c1d_sparse_hides_missingness_pcfi",
                     "c1e_sparse_hides_missingness_gnnmim_missing_flag",
                     "c1f_sparse_hides_missingness_gcnmf", "c3_sparse_methods_alike")),
    Headline(quote="we introduce one synthetic and three real-world datasets with dense, "
                   "semantically meaningful features",
             claims=("c2_dense_reveals_missingness", "c8_real_dense_datasets")),
    Headline(quote="Existing studies mostly address relatively benign scenarios",
             claims=("c4_mcar_benign", "c5_mnar_gnnmim_beats_mean_imputation")),
    Headline(quote="we provide a theoretical background to state explicit assumptions on the "
                   "missingness process and analyze their implications for different methods",
             claims=("c9_assumptions_implications",)),
    Headline(quote="a simple baseline adapted to the graph domain is competitive with respect to "
                   "specialized architectures across diverse datasets and missingness regimes",
             claims=("c6_mnar_gnnmim_at_least_fp", "c7_gnnmim_competitive_everywhere")),
)

PREMISES = (
    Premise(id="p1_gcn_learns_sparse_graph",
            text="the mean-imputation GCN learns the sparse bag-of-words task: test macro-F1 "
                 "with no missing features above chance, 1/4 (4 classes)",
            check=Value(method="gcn", metric="macro_f1", lo=0.25,
                        where={"dataset": "bow_graph", "mechanism": "umcar", "p_miss": 0.0}),
            claims=("c1_sparse_hides_missingness", "c1b_sparse_hides_missingness_gnnmim",
                    "c1c_sparse_hides_missingness_fp", "c1d_sparse_hides_missingness_pcfi",
                    "c1e_sparse_hides_missingness_gnnmim_missing_flag",
                    "c1f_sparse_hides_missingness_gcnmf", "c3_sparse_methods_alike"),
            note="Chance from the dataset's definition (BagOfWordsGraph.n_classes = 4, uniform "
                 "labels). A model at chance with every feature is flat in the missing rate "
                 "and alike to any other, so 'appears robust' (c1) and 'no meaningful "
                 "comparison' (c3) would hold trivially."),
    Premise(id="p2_gcn_learns_dense_graph",
            text="the mean-imputation GCN learns the dense synthetic task: test macro-F1 with "
                 "no missing features above chance, 1/2 (2 balanced classes)",
            check=Value(method="gcn", metric="macro_f1", lo=0.5,
                        where={"dataset": "dense_graph", "mechanism": "umcar", "p_miss": 0.0}),
            claims=("c2_dense_reveals_missingness", "c4_mcar_benign"),
            note="Chance from the dataset's definition (DenseFeatureGraph: 2 balanced classes). "
                 "A model at chance cannot lose accuracy to missingness (c2), and an "
                 "equivalence to it (c4) says nothing."),
)

QUICK_EPOCHS = 150  # cap for the quick grid; early stopping ends most runs at 50-130 epochs
_MAIN = (
    cfg(GNNmim, label="gnnmim", epochs=QUICK_EPOCHS),
    cfg(GCN, label="gcn", epochs=QUICK_EPOCHS),
    cfg(FeaturePropagationGCN, label="fp", no_propagate="test", epochs=QUICK_EPOCHS),
    cfg(PCFIGCN, label="pcfi", epochs=QUICK_EPOCHS),
    cfg(GCNmf, label="gcnmf", epochs=QUICK_EPOCHS),
    cfg(MLPIndicators, label="mlp_mim", epochs=QUICK_EPOCHS),
    cfg(GNNmim, label="gnnmim_missing_flag", indicator="missing", epochs=QUICK_EPOCHS),
    cfg(GNNmim, label=INDICATOR_ONLY, mutant="indicator_only", epochs=QUICK_EPOCHS),
)


def _dense(rates, n=1000, mechanisms=MECHANISMS, mcar_rates=None):
    """p = 0 once (as uniform MCAR), then every mechanism at ``rates``; the MCAR variants
    SMCAR and LDMCAR at ``mcar_rates`` when given."""
    cells = [cfg(DenseFeatureGraph, n=n, mechanism="umcar", p_miss=0.0)]
    for m in mechanisms:
        for p in (mcar_rates if mcar_rates and m in ("smcar", "ldmcar") else rates):
            cells.append(cfg(DenseFeatureGraph, n=n, mechanism=m, p_miss=p))
    return tuple(cells)


def _bow(rates, n=500):
    return tuple(cfg(BagOfWordsGraph, n=n, mechanism="umcar", p_miss=p) for p in (0.0, *rates))


GRIDS = {
    "smoke": Grid(
        datasets=(cfg(DenseFeatureGraph, n=120, mechanism="cdmnar", p_miss=0.5),
                  cfg(BagOfWordsGraph, n=120, vocab=60, mechanism="umcar", p_miss=0.5)),
        seeds=1,
        methods=(cfg(GNNmim, label="gnnmim", epochs=5, hidden=8),
                 cfg(GCN, label="gcn", epochs=5, hidden=8),
                 cfg(FeaturePropagationGCN, label="fp", no_propagate="test", epochs=5,
                     hidden=8),
                 cfg(PCFIGCN, label="pcfi", epochs=5, hidden=8),
                 cfg(GCNmf, label="gcnmf", epochs=5, hidden=8),
                 cfg(MLPIndicators, label="mlp_mim", epochs=5, hidden=8),
                 cfg(GNNmim, label="gnnmim_missing_flag", indicator="missing", epochs=5,
                     hidden=8),
                 cfg(GNNmim, label=INDICATOR_ONLY, mutant="indicator_only", epochs=5, hidden=8)),
        note="wiring check only",
    ),
    "quick": Grid(
        datasets=_dense((0.5, 0.9), mcar_rates=(0.9,)) + _bow((0.5, 0.9)),
        seeds=5,
        methods=_MAIN,
        note=("paper-size dense graph (n = 1000), 500-node bag-of-words graph; rates 0, 0.5, "
              "0.9 (p = 0 once, as uniform MCAR; SMCAR and LDMCAR at 0.9 only); paper "
              "hyperparameters but at most 150 epochs (early stopping usually ends runs "
              "earlier)"),
    ),
    "full": Grid(
        datasets=_dense((0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99))
        + _bow((0.3, 0.5, 0.7, 0.9, 0.99), n=1000),
        seeds=5,
        methods=(cfg(GNNmim, label="gnnmim"), cfg(GCN, label="gcn"),
                 cfg(FeaturePropagationGCN, label="fp", no_propagate="test"),
                 cfg(PCFIGCN, label="pcfi"), cfg(GCNmf, label="gcnmf"),
                 cfg(MLPIndicators, label="mlp_mim"),
                 cfg(GNNmim, label="gnnmim_missing_flag", indicator="missing"),
                 cfg(GNNmim, label=INDICATOR_ONLY, mutant="indicator_only")),
        note="the paper's rates and epoch budgets; 5 seeds as in the paper",
    ),
}

BENCHMARK = Benchmark(
    slug="gnnmim",
    paper=Paper(
        title="Rethinking GNNs and Missing Features: Challenges, Evaluation and a Robust "
              "Solution",
        arxiv="2601.04855",
        url="https://arxiv.org/abs/2601.04855",
        version="arXiv v2 (abstract, introduction) + authors' code and blog",
        authors="F. Ferrini, V. Lachi, A. Longa, B. Lepri, A. Matono, A. Passerini, X. Liu, "
                "M. Jaeger",
    ),
    area="reliable_prediction",
    fidelity="scaled_down",
    methods=(GNNmim,),
    baselines=(GCN, FeaturePropagationGCN, PCFIGCN, GCNmf, MLPIndicators),
    datasets=(DenseFeatureGraph, BagOfWordsGraph),
    metrics=METRICS,
    cost_note=("The quick grid trains a model with early stopping (at most 150 epochs) in each of "
               "480 cells, 8 methods x 12 missingness settings x 5 seeds: ~94 CPU-s on the "
               "paper-size 1000-node dense graph (9 settings), ~52 s on the 500-node bag-of-words "
               "graph (3). GCNmf is the largest arm (49 s, 26 s of it on bag-of-words), read by "
               "c1f_sparse_hides_missingness_gcnmf and c7_gnnmim_competitive_everywhere; the gcn "
               "cells at p = 0 gate p1_gcn_learns_sparse_graph and p2_gcn_learns_dense_graph. "
               "Every method is read by some claim or premise."),
    primary_metric="macro_f1",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    amendments=(
        # the ids this amendment named when the report was committed (a literal, so that claims
        # added later are not swept into it)
        Amendment(date="2026-12-03",
                  claims=("c1_sparse_hides_missingness", "c1b_sparse_hides_missingness_gnnmim",
                          "c1c_sparse_hides_missingness_fp", "c2_dense_reveals_missingness",
                          "c3_sparse_methods_alike", "c4_mcar_benign",
                          "c5_mnar_gnnmim_beats_mean_imputation", "c6_mnar_gnnmim_at_least_fp",
                          "c7_gnnmim_competitive_everywhere", "c8_real_dense_datasets",
                          "c9_assumptions_implications"),
                  what="source and foils declared; mutant gnnmim[mutant=indicator_only] added to "
                       "every grid; the abstract's words quoted in paper_value (c1, c3, c4, c7)",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c2_dense_reveals_missingness",),
                  what="source derived -> paper; paper_value quotes the abstract",
                  why="placed in the abstract, so it is the paper's claim",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06", claims=("c4_mcar_benign",),
                  what="source paper -> derived; where names the research note; paper_value "
                       "and note say the equivalence reading is the note's",
                  why="issue 30: the abstract calls MCAR 'relatively benign' but states no "
                      "equivalence of GNNmim and the GCN under MCAR: that is the research "
                      "note's reading, a check of ours",
                  results_seen=True, rule="issue 26: source by placement (a research-note "
                                          "check the abstract does not state is derived)"),
        Amendment(date="2026-12-06",
                  claims=("c1b_sparse_hides_missingness_gnnmim", "c1c_sparse_hides_missingness_fp",
                          "c8_real_dense_datasets", "c9_assumptions_implications",
                          "p1_gcn_learns_sparse_graph", "p2_gcn_learns_dense_graph"),
                  what="c1b, c1c: c1's slope bound for GNNmim and FP (the other GNNs of the "
                       "grid); headlines declared (5 statements of the ICML abstract), the real "
                       "dense datasets and the theory of the missingness process as not_run "
                       "claims c8, c9; premises p1 (GCN above chance 1/4 on the sparse graph, "
                       "gates c1-c1c, c3) and p2 (GCN above chance 1/2 on the dense graph, "
                       "gates c2, c4)",
                  why="issue 30: c1 checked one model where the abstract says 'all models "
                      "appear robust'; coverage of the abstract; positive controls (a model at "
                      "chance is flat in the missing rate and alike to any other). Chance "
                      "levels from the datasets' class counts",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c7_gnnmim_competitive_everywhere",),
                  what="PCFI + GCN (baselines/pcfi.py, Um et al. ICLR 2023) and GCNmf "
                       "(baselines/gcnmf.py, Taguchi et al. 2021), with the settings of the "
                       "authors' evaluate_pcfi / evaluate_gcnmf, join the ranking: among = "
                       "gnnmim, gcn, fp, pcfi, gcnmf, mlp_mim (was four methods); k = 2, scope "
                       "and foil unchanged",
                  why="issue 30: 'competitive with respect to specialized architectures' was "
                      "ranked against one specialised method (FP); PCFI and GCNmf are two more "
                      "the paper compares with (FairAC, GSPN, GOODIE not built). Order, for the "
                      "record: the five-method ranking (PCFI, no GCNmf) was judged first on a "
                      "private run (inconclusive: position 1, average rank 2.06, significantly "
                      "ahead of 2 of 4); GCNmf was then added because the issue names it, "
                      "not to move the verdict",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_sparse_hides_missingness", "c1b_sparse_hides_missingness_gnnmim",
                          "c1c_sparse_hides_missingness_fp", "c2_dense_reveals_missingness",
                          "c3_sparse_methods_alike", "c4_mcar_benign",
                          "c5_mnar_gnnmim_beats_mean_imputation", "c6_mnar_gnnmim_at_least_fp",
                          "c8_real_dense_datasets", "c9_assumptions_implications"),
                  what="design only: the methods pcfi and gcnmf added to the smoke, quick and "
                       "full grids "
                       "(the benchmark module's cell hash changes); none of these claims reads "
                       "pcfi or gcnmf, and their checks, scopes, foils and cells are unchanged",
                  why="issue 30 (PCFI and GCNmf for c7, c1d, c1f)",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1e_sparse_hides_missingness_gnnmim_missing_flag",
                          "p1_gcn_learns_sparse_graph"),
                  what="c1e: c1's slope bound (-0.1, ours) for gnnmim_missing_flag (GNNmim with "
                       "the missing flag M, the paper's text convention); p1 also gates c1d, "
                       "c1e, c1f",
                  why="issue 30: 'all models appear robust' covers every model of the grid: "
                      "gcn (c1), gnnmim (c1b), fp (c1c), pcfi (c1d), gnnmim_missing_flag (c1e), "
                      "gcnmf (c1f); "
                      "the MLP stays the foil (no message passing: not one of the GNNs the "
                      "abstract speaks of) and the indicator-only mutant is a foil, not a model. "
                      "gnnmim_missing_flag's sparse-graph cells were in the store before",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c1d_sparse_hides_missingness_pcfi",
                                             "c1f_sparse_hides_missingness_gcnmf"),
                  what="c1d, c1f: c1's slope bound (-0.1, ours) for PCFI + GCN and for GCNmf on "
                       "the sparse graph, foil mlp_mim, gated by p1",
                  why="issue 30: 'all models appear robust' checked for every model of the grid; "
                      "declared before PCFI and GCNmf were first run",
                  results_seen=False),
        Amendment(date="2026-12-06", claims=('c1_sparse_hides_missingness', 'c1b_sparse_hides_missingness_gnnmim', 'c1c_sparse_hides_missingness_fp', 'c1d_sparse_hides_missingness_pcfi', 'c1e_sparse_hides_missingness_gnnmim_missing_flag', 'c1f_sparse_hides_missingness_gcnmf', 'c2_dense_reveals_missingness', 'c3_sparse_methods_alike', 'c4_mcar_benign', 'c5_mnar_gnnmim_beats_mean_imputation', 'c6_mnar_gnnmim_at_least_fp', 'c7_gnnmim_competitive_everywhere', 'c8_real_dense_datasets', 'c9_assumptions_implications'),
                  what="baselines/gcn.py: one forward per epoch serves GCNmf's validation and next loss (it has no dropout), GCN-type models reuse the evaluation forward's first layer, Adam with foreach=True (bit-identical updates), the best epoch's predictions kept instead of restored weights and one more forward; gcnmf.py passes the no-dropout flag; grids, seeds, epochs, sizes, checks and foils unchanged",
                  why='issue 27 item 5 (quick-suite CPU): 1440 values of the 480 quick cells compared with a fresh run: 0 differences (traces too); about 0.74x the CPU (255 -> 190 CPU-s under load)',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-07",
                  claims=("c1_sparse_hides_missingness", "c1b_sparse_hides_missingness_gnnmim",
                          "c1c_sparse_hides_missingness_fp", "c1d_sparse_hides_missingness_pcfi",
                          "c1e_sparse_hides_missingness_gnnmim_missing_flag",
                          "c1f_sparse_hides_missingness_gcnmf", "c2_dense_reveals_missingness",
                          "c3_sparse_methods_alike", "c4_mcar_benign",
                          "c5_mnar_gnnmim_beats_mean_imputation", "c6_mnar_gnnmim_at_least_fp",
                          "c7_gnnmim_competitive_everywhere", "c8_real_dense_datasets",
                          "c9_assumptions_implications"),
                  what="baselines/gcn.py: normalized_adjacency memoised (the last 8 graphs, keyed "
                       "on the edge list's bytes; the methods of one instance and PCFI's stages "
                       "share it); dropout at p = 0.5 applied as one product h * (keep * 2) "
                       "(exact, forward and backward); baselines/gcnmf.py: the log-density term "
                       "reads m detached when there is no dropout (its path adds only exact "
                       "zeros to mu's gradient), and the variance branch is skipped when no "
                       "feature is missing (exact zeros); grids, seeds, epochs, sizes, checks "
                       "and foils unchanged",
                  why="issue 27 item 5: quick grid CPU ~151 -> ~139 CPU-s (0.92x; the same 96 "
                      "cells back to back: 29.6 -> 27.3 CPU-s, mean of 3 alternating runs "
                      "under load)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (compared cell by cell with a fresh run: "
                       "0 differences)"),
    ),
    headlines=HEADLINES,
    premises=PREMISES,
    grids=GRIDS,
    description=__doc__,
    fidelity_note=(
        "The dense graph copies the authors' synthetic.pt (BA n=1000, m=5, 5 N(0,1) features, "
        "2 balanced classes); its labelling rule is read off the file's labels (a threshold of "
        "the 2-hop GCN-propagated features; a GCN reaches ~0.97 F1 on the file and on ours, "
        "tests/test_gnnmim.py). FD-/CD-MNAR follow the authors' calibration (clipping without "
        "recalibration, CD-MNAR's fixed overrides; realised rates are the missing_rate "
        "metric), and FP keeps test nodes from propagating, as in the authors' code. The "
        "real dense sets (AIR, ELECTRIC, TADPOLE) and Cora/CiteSeer/PubMed are replaced by "
        "the synthetic graph and a 500-node Cora-like bag-of-words graph. Baselines: GCN + "
        "mean imputation, FP and PCFI (channel-wise pseudo-confidence, Um et al.'s setting for "
        "cell-wise masks; the authors call it in its structural mode) and GCNmf (FairAC, GSPN, "
        "GOODIE omitted) plus an MLP with indicators. Quick grid: rates 0/0.5/0.9 and at most "
        "150 epochs."),
)
