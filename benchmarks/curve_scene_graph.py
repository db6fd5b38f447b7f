"""Benchmark: CURVE (uncertainty-guided, prototype-debiased scene-graph GNN) under spurious shift.

Synthetic traffic scene graphs (datasets/synthetic_scene_graphs.py): the risk label is carried
by an invariant relation motif, while "weather" node features and clutter edges track the label
in three training environments (strengths 0.98 / 0.94 / 0.9) and flip in the OOD test
environment (0.1). A few-shot target domain with noisier features and no weather correlation
stands in for the paper's low-data sim-to-real transfer.

The foil gnn_centred (baselines/prototype_centred_gnn.py) is the plain GNN on CURVE's
prototype-centred node features and nothing else of CURVE (issue 30).

Methods output test probabilities, an uncertainty per OOD test graph and (CURVE only) the kept
edges of the OOD test graphs; every score is computed here against ``truth``:
  * ID / OOD / few-shot target accuracy (threshold 0.5);
  * ECE (15 equal-width bins of max(p, 1 - p)) on the OOD and the ID test graphs;
  * error detection: AUROC of the uncertainty for "the prediction is wrong" on the OOD graphs;
  * kept-edge fraction, recall of the invariant (motif) edges and the kept fraction of spurious
    (clutter) edges on the OOD graphs (None for methods without edge selection).
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise,
                            cfg, output_metric, sweep)
from claimbench.baselines.message_passing_gnn import MessagePassingGNN
from claimbench.baselines.prototype_centred_gnn import PrototypeCentredGNN
from claimbench.checks import Better, NotRun, Value
from claimbench.datasets.synthetic_scene_graphs import SyntheticSceneGraphs
from claimbench.methods.curve_scene_graph import CURVE


def expected_calibration_error(p1: np.ndarray, y: np.ndarray, n_bins: int = 15) -> float:
    """Binary ECE: sum over equal-width confidence bins of |accuracy - confidence| x bin share."""
    p1 = np.asarray(p1, float)
    conf = np.maximum(p1, 1 - p1)
    correct = ((p1 > 0.5) == np.asarray(y)).astype(float)
    edges = np.linspace(0.5, 1.0, n_bins + 1)  # binary confidences live in [0.5, 1]
    idx = np.clip(np.searchsorted(edges, conf, side="left") - 1, 0, n_bins - 1)
    ece = 0.0
    for b in range(n_bins):
        sel = idx == b
        if sel.any():
            ece += sel.mean() * abs(correct[sel].mean() - conf[sel].mean())
    return float(ece)


def auroc(score: np.ndarray, label: np.ndarray) -> float | None:
    """P(score of a positive > score of a negative), ties counted 1/2; None with one class only."""
    from scipy.stats import rankdata

    label = np.asarray(label, bool)
    n_pos, n_neg = int(label.sum()), int((~label).sum())
    if n_pos == 0 or n_neg == 0:
        return None
    ranks = rankdata(np.asarray(score, float))
    return float((ranks[label].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def _acc(split: str):
    key_p, key_y = {"id": ("p_id", "y_id_test"), "ood": ("p_ood", "y_ood_test"),
                    "target": ("p_target", "y_target_test")}[split]

    def fn(instance, outputs):
        if key_p not in outputs:
            return None
        return float(np.mean((np.asarray(outputs[key_p]) > 0.5) == instance.truth[key_y]))
    return fn


def _ece(split: str):
    key_p, key_y = {"id": ("p_id", "y_id_test"), "ood": ("p_ood", "y_ood_test")}[split]

    def fn(instance, outputs):
        if key_p not in outputs:
            return None
        return expected_calibration_error(outputs[key_p], instance.truth[key_y])
    return fn


def _err_auroc(instance, outputs):
    if "unc_ood" not in outputs:
        return None
    wrong = (np.asarray(outputs["p_ood"]) > 0.5) != instance.truth["y_ood_test"]
    return auroc(outputs["unc_ood"], wrong)


def _edge_stat(which: str):
    def fn(instance, outputs):
        keep = outputs.get("edge_keep_ood")
        if keep is None:
            return None
        keep = np.asarray(keep, bool)
        ref = {"kept": "edges_ood", "recall": "invariant_ood", "spurious": "spurious_ood"}[which]
        ref = np.asarray(instance.truth[ref], bool)
        return float((keep & ref).sum() / ref.sum()) if ref.sum() else None
    return fn


def _edge_selectivity(instance, outputs):
    """Recall of the invariant edges minus the kept share of the spurious ones (0 for any
    selection blind to the kind of edge: keeping all, or random edges)."""
    rec, spur = _edge_stat("recall")(instance, outputs), _edge_stat("spurious")(instance, outputs)
    return None if rec is None or spur is None else rec - spur


METRICS = (
    Metric("ood_acc", _acc("ood"), True, "accuracy on the OOD test environment (spurious cue flipped)"),
    Metric("id_acc", _acc("id"), True, "accuracy on held-out graphs of the training environments"),
    Metric("target_acc", _acc("target"), True,
           "few-shot target accuracy: head fine-tuned on the k labelled target graphs"),
    Metric("ece", _ece("ood"), False, "ECE (15 bins) on the OOD test graphs"),
    Metric("ece_id", _ece("id"), False, "ECE (15 bins) on the ID test graphs"),
    Metric("err_auroc", _err_auroc, True,
           "AUROC of the method's uncertainty for flagging its own errors on the OOD graphs"),
    Metric("kept_edge_frac", _edge_stat("kept"), False,
           "fraction of the OOD graphs' edges kept by the edge selection (None: no selection)"),
    Metric("inv_edge_recall", _edge_stat("recall"), True,
           "fraction of the invariant (motif) edges kept (None: no selection)"),
    Metric("spurious_edge_kept", _edge_stat("spurious"), False,
           "fraction of the spurious clutter edges kept (None: no selection)"),
    Metric("edge_selectivity", _edge_selectivity, True,
           "invariant-edge recall minus the kept fraction of spurious edges (None: no selection)"),
    output_metric("time_s", description="training + prediction time in seconds"),
)

IRM_LAMBDA = 1e4  # IRM paper, colour-MNIST penalty weight
MC_DROPOUT = 0.2  # our choice (a common MC-dropout rate)


# Foils only (methods/curve_scene_graph.py, not the paper's method): CURVE with the test-time
# pruning (6) replaced by keeping every edge, or by as many edges chosen at random.
NO_PRUNING = "curve[mutant=no_pruning]"
RANDOM_PRUNING = "curve[mutant=random_pruning]"
# Foil only (baselines/prototype_centred_gnn.py; issue 30): the plain GNN on CURVE's prototype-
# centred node features (eq. (0)) and nothing else of CURVE. Deviation 4 of the method file says
# the proxy's spurious cue is a scene-level shift that this centring removes by construction.
CENTRED = "gnn_centred"


def _methods(**common):
    return (cfg(MessagePassingGNN, label="gnn", **common),
            cfg(MessagePassingGNN, label="irm", irm_penalty=IRM_LAMBDA, **common),
            cfg(MessagePassingGNN, label="mc_dropout", mc_dropout=MC_DROPOUT, **common),
            cfg(CURVE, label="curve", **common),
            cfg(CURVE, label=NO_PRUNING, mutant="no_pruning", **common),
            cfg(CURVE, label=RANDOM_PRUNING, mutant="random_pruning", **common),
            cfg(PrototypeCentredGNN, label=CENTRED, **common))


# The ICML 2026 abstract's statement of the problem, verbatim (claim c8, a headline).
_Q_SPURIOUS = ("they often overfit to spurious correlations, severely hindering "
               "out-of-distribution generalization")

# Issue 30: the foil every OOD / transfer claim (c1-c3) gets (amendment of 2026-12-06).
_CENTRED_FOIL = ("The plain GNN with CURVE's prototype centring (eq. (0)) and nothing else of "
                 "CURVE (no variational embeddings, no uncertainty-guided pruning, no "
                 "environment bias or debiasing penalty) is not what the claim credits: the "
                 "centring is our construction (method deviation 4), which removes this "
                 "proxy's scene-level spurious cue by construction. If it passes, the gain is "
                 "the dataset's construction, not CURVE's mechanism.")

# which part of the prototype mechanism carries the OOD gain (full grid only)
ABLATIONS = (cfg(CURVE, label="curve_no_center", center_on_prototype=False),
             cfg(CURVE, label="curve_no_debias", lambda_debias=0.0))

CLAIMS = (
    Claim(
        id="c1_ood_vs_gnn",
        where="abstract (zero-shot transfer)",
        text="CURVE improves out-of-distribution (zero-shot transfer) risk prediction over a plain "
             "scene-graph GNN",
        paper_value="\"they often overfit to spurious correlations, severely hindering "
                    "out-of-distribution generalization. To address this limitation, we propose "
                    "CURVE\"; \"we evaluate CURVE in zero-shot transfer\" (abstract)",
        check=Better(method="curve", baseline="gnn", metric="ood_acc"),
        note="OOD = the test environment where the weather cue's correlation with the label "
             "flips. The abstract claims a gain, with no number (the absolute accuracies quoted "
             "here before came from a third-party summary, not the paper's words, and were no "
             "gain; issue 30). Ours is a paired gain on a synthetic proxy.",
        source="paper",
        foils=("mc_dropout", CENTRED),
        foil_note="An MC-dropout GNN is the plain GNN with no invariance mechanism, so it must "
                  "not improve OOD accuracy over the plain GNN. " + _CENTRED_FOIL,
    ),
    Claim(
        id="c2_ood_vs_irm",
        where="abstract (zero-shot transfer)",
        text="CURVE's invariant representation generalises out of distribution better than an "
             "invariant-learning baseline (IRM)",
        check=Better(method="curve", baseline="irm", metric="ood_acc"),
        paper_value="\"a causality-inspired framework\"; \"disentangle invariant interaction "
                    "dynamics from environment-dependent variations\"; \"we evaluate CURVE in "
                    "zero-shot transfer\" (abstract)",
        note="IRMv1 with the reference schedule (lambda 1e4 after 40% of the steps, L2 1e-3); "
             "whether the paper compares with IRM is unverified",
        source="paper",
        foils=("gnn", "mc_dropout", CENTRED),
        foil_note="GNNs without any invariance mechanism (plain, MC dropout) must not "
                  "generalise OOD better than the invariant-learning baseline. " + _CENTRED_FOIL,
    ),
    Claim(
        id="c3_target_vs_gnn",
        where="abstract (low-data sim-to-real adaptation)",
        text="CURVE adapts better in the low-data sim-to-real setting",
        paper_value="\"we evaluate CURVE in zero-shot transfer and low-data sim-to-real "
                    "adaptation\" (abstract)",
        check=Better(method="curve", baseline="gnn", metric="target_acc"),
        note="head fine-tuned on k = 10 labelled target graphs for every method. The abstract "
             "gives no number (the absolute accuracy quoted here before came from a third-party "
             "summary; issue 30); ours is a paired gain on a synthetic proxy. "
             "Issue 14: the quick grid (8 seeds) cannot decide this claim at the effect it has "
             "seen (~0.035 with a spread of ~0.1, about 94 units at the worst-case Holm level); "
             "only the full grid (20 seeds x 4 settings = 80 units) can.",
        source="paper",
        foils=("mc_dropout", "irm", CENTRED),
        foil_note="The other baselines (MC dropout, IRM) are not what the claim credits and must "
                  "not adapt better than the plain GNN. " + _CENTRED_FOIL,
    ),
    Claim(
        id="c4_uncertainty_flags_errors",
        where="abstract: 'reliable uncertainty estimates'",
        text="CURVE's uncertainty flags its own errors under distribution shift",
        paper_value="\"provide reliable uncertainty estimates to support risk prediction under "
                    "distribution shifts\" (abstract; no number)",
        check=Value(method="curve", metric="err_auroc", lo=0.6),
        note="threshold 0.6 fixed before running (the brief's proposal; the paper gives no number)",
        source="paper",
        foils=("gnn", "mc_dropout"),
        foil_note="A plain GNN's predictive entropy and MC dropout are the uncertainties known "
                  "to degrade under spurious shift; they must not flag their errors as CURVE's "
                  "is claimed to.",
    ),
    Claim(
        id="c5_uncertainty_vs_mc_dropout",
        where="abstract: 'reliable uncertainty estimates'",
        text="CURVE's uncertainty detects errors better than MC dropout",
        check=Better(method="curve", baseline="mc_dropout", metric="err_auroc"),
        paper_value="\"integrates variational uncertainty modeling\"; \"provide reliable "
                    "uncertainty estimates to support risk prediction under distribution "
                    "shifts\" (abstract; no comparator named)",
        note="MC-dropout GNN with rate 0.2 and 20 passes; our choice of comparator",
        source="paper",
        foils=("gnn", "irm"),
        foil_note="Networks with no uncertainty mechanism (plain GNN and IRM, entropy of one "
                  "pass) must not beat MC dropout at error detection, or beating it says "
                  "nothing about CURVE's uncertainty.",
    ),
    Claim(
        id="c6_sparse_topology",
        where="abstract: 'sparse and domain-stable topology'",
        text="CURVE learns a sparse topology",
        paper_value="\"promoting a sparse and domain-stable topology\" (abstract; no number)",
        check=Value(method="curve", metric="kept_edge_frac", hi=0.5),
        note="threshold fixed before running: at most half of the edges kept (the paper gives no "
             "number; the motif edges are about 5% of all edges)",
        source="paper",
        foils=(NO_PRUNING,),
        foil_note="No baseline selects edges; CURVE with its pruning step removed keeps every "
                  "edge and must fail 'sparse'.",
    ),
    Claim(
        id="c7_keeps_invariant_edges",
        where="abstract: 'suppress high-variance, environment-specific relations'",
        text="the learned topology keeps the invariant (domain-stable) relations and suppresses "
             "the environment-specific ones",
        paper_value="\"suppress high-variance, environment-specific relations\"; \"promoting "
                    "a sparse and domain-stable topology\" (abstract; no number)",
        check=Value(method="curve", metric="edge_selectivity", lo=0.6),
        note="Both sides of the abstract's sentence on the OOD graphs: recall of the motif "
             "(invariant) edges minus the kept fraction of the clutter (spurious) edges, > 0.6 "
             "= the earlier recall threshold 0.8 (ours; the paper gives no number) less at most "
             "0.2 of the spurious edges kept (its mirror, ours). Issue 14: recall alone (the "
             "earlier check, lo 0.8) was met by keeping every edge. The recall of the motif "
             "edges is our reading of 'domain-stable'.",
        source="paper",
        foils=(RANDOM_PRUNING, NO_PRUNING),
        foil_note="Keeping every edge, or as many edges as CURVE keeps chosen at random, is blind "
                  "to the kind of edge (selectivity 0 in expectation) and must fail.",
    ),
    Claim(
        id="c8_gnn_overfits_spurious",
        where="abstract (the problem addressed)",
        text="scene-graph models overfit to spurious correlations, which severely hinders "
             "their out-of-distribution generalisation",
        paper_value="\"" + _Q_SPURIOUS + "\" (abstract)",
        check=NotRun(method="curve",
                     reason="the statement is about real scene-graph models and data; in this "
                            "proxy the spurious cue and its flip are our construction, so a "
                            "plain GNN's fall out of distribution would show the dataset, not "
                            "the paper's observation. That the phenomenon is present here is "
                            "the premise p1_gnn_misled_ood of c1 and c2 (issue 30)"),
        source="paper",
    ),
)

# Positive controls (issue 30, rule 4; declared after results had been seen, amendment of
# 2026-12-06). Thresholds are chance (0.5: the labels are about balanced by design), not read
# off the results.
PREMISES = (
    Premise(id="p1_gnn_misled_ood",
            text="the phenomenon is present: the plain GNN follows the spurious cue, so its "
                 "accuracy on the OOD environment (cue flipped) is below chance",
            check=Value(method="gnn", metric="ood_acc", hi=0.5),
            claims=("c1_ood_vs_gnn", "c2_ood_vs_irm"),
            note="The abstract's problem statement, \"" + _Q_SPURIOUS + "\", made present here "
                 "by construction (the flipped weather cue): a model that read the motif would "
                 "be above chance, one that reads the cue falls below it. Without it an OOD gain "
                 "over the GNN has nothing to repair."),
    Premise(id="p2_gnn_adapts_above_chance",
            text="the low-data target task is learnable: the plain GNN, head fine-tuned on the "
                 "k labelled target graphs, is above chance on the target test graphs",
            check=Value(method="gnn", metric="target_acc", lo=0.5),
            claims=("c3_target_vs_gnn",),
            note="A competent baseline for the adaptation claim: below chance, 'adapts better' "
                 "would compare against a baseline that does not adapt at all."),
)

HEADLINES = (
    Headline(quote=_Q_SPURIOUS, claims=("c8_gnn_overfits_spurious",)),
    Headline(quote="suppress high-variance, environment-specific relations",
             claims=("c7_keeps_invariant_edges",)),
    Headline(quote="promoting a sparse and domain-stable topology",
             claims=("c6_sparse_topology", "c7_keeps_invariant_edges")),
    Headline(quote="we evaluate CURVE in zero-shot transfer",
             claims=("c1_ood_vs_gnn", "c2_ood_vs_irm")),
    Headline(quote="low-data sim-to-real adaptation", claims=("c3_target_vs_gnn",)),
    Headline(quote="provide reliable uncertainty estimates to support risk prediction under "
                   "distribution shifts",
             claims=("c4_uncertainty_flags_errors", "c5_uncertainty_vs_mc_dropout")),
)

# Issue 14: the claims form one Holm family of 7; a `better` claim's exact one-sided signed-rank
# p is at least 2^-n with n seeds, and the worst-case Holm level is 0.05 / 7 = 0.0071, so n >= 8
# is the least that lets a paired claim be decided at all (6 seeds: 1/64 = 0.016, never).
# c3 (about 94 units at its observed effect) is left to the full grid (its note says so).
QUICK_SEEDS = 8

SMOKE = dict(epochs=8, mc_samples=2, ft_steps=5)

BENCHMARK = Benchmark(
    slug="curve_scene_graph",
    paper=Paper(
        title="CURVE: Learning Causality-Inspired Invariant Representations for Robust Scene "
              "Understanding via Uncertainty-Guided Regularization",
        arxiv="2601.20355",
        url="https://arxiv.org/abs/2601.20355",
        version="arXiv v1 (abstract and introduction opening only)",
        authors="Yue Liang, Jiatong Du, Ziyi Yang, Yanjun Huang, Hong Chen",
    ),
    area="reliable_prediction",
    fidelity="proxy",
    fidelity_note=(
        "The paper's datasets (CARLA-SR, DeepAccident, DoTA) and method section were not "
        "available: CURVE is reconstructed from the abstract (Gaussian entity/relation "
        "embeddings with KL, uncertainty-guided edge pruning with a sparsity penalty, environment "
        "prototypes with conditional debiasing) and run on synthetic scene graphs whose label is "
        "a relation motif and whose spurious weather cue flips out of distribution."),
    methods=(CURVE,),
    baselines=(MessagePassingGNN, PrototypeCentredGNN),
    datasets=(SyntheticSceneGraphs,),
    metrics=METRICS,
    primary_metric="ood_acc",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared; mutants curve[mutant=no_pruning] and "
                       "curve[mutant=random_pruning] added to every grid; the abstract's words "
                       "quoted in paper_value (c4, c6, c7)",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03", claims=("c7_keeps_invariant_edges", "c3_target_vs_gnn"),
                  what="c7: Value(inv_edge_recall >= 0.8) -> Value(edge_selectivity > 0.6), "
                       "selectivity = invariant-edge recall minus kept fraction of spurious "
                       "edges; text adds the suppression side. c3: note declares that only the "
                       "full grid decides it (declaration unchanged). Quick grid 6 -> 8 seeds",
                  why="issue 14: c7 was met by keeping every edge (the no_pruning foil); the "
                      "abstract's sentence has two sides, 'suppress high-variance, "
                      "environment-specific relations' and a 'domain-stable topology', so both "
                      "are tested (0.6 = the earlier 0.8 recall less a mirrored 0.2 of spurious "
                      "edges kept; no paper number). With 6 seeds and one Holm family of 7 no "
                      "paired claim could reach significance (min p 1/64 > 0.05/7); 8 seeds is "
                      "the least that can",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c2_ood_vs_irm", "c5_uncertainty_vs_mc_dropout",
                          "c7_keeps_invariant_edges"),
                  what="source derived -> paper",
                  why="placed in the abstract (OOD generalisation, reliable uncertainty, "
                      "suppressing environment-specific relations), so they are the paper's "
                      "claims; the comparators and thresholds remain ours (notes)",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'"),
        Amendment(date="2026-12-06", claims=("c1_ood_vs_gnn", "c3_target_vs_gnn"),
                  what="paper_value: the absolute accuracies (CARLA-SR 92.92, DeepAccident "
                       "68.13; DoTA 65.5) removed, the ICML abstract's words only; notes say so",
                  why="issue 30: they came from a third-party summary and are CURVE's absolute "
                      "accuracies, not the OOD gains the claims test",
                  results_seen=True, rule="issue 26: the paper's own words"),
        Amendment(date="2026-12-06", claims=("c8_gnn_overfits_spurious",),
                  what="headlines declared (6 statements of the ICML abstract); the problem "
                       "statement (overfitting to spurious correlations) gets the not_run "
                       "claim c8",
                  why="issue 30: coverage of the abstract; it needs an ID-OOD gap metric that "
                      "does not exist yet",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=tuple(c.id for c in CLAIMS),
                  what="code only: CURVE's two test-time mutants reuse the seed's CURVE training "
                       "through the checkpoint cache (trained tensors and the generator state "
                       "where training left it), test batches built once per split, the gated "
                       "adjacency built by one index_put, Adam with foreach (the same update), "
                       "the scene-graph generator's Python loops vectorised (the same draws); "
                       "grid, seeds, steps, models and data unchanged",
                  why="issue 27 item 5: quick-grid CPU 122.5 -> about 74 CPU-s (48 cells, "
                      "claimbench verify, every committed quick cell re-run)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (claimbench verify)"),
        Amendment(date="2026-12-06",
                  claims=("c1_ood_vs_gnn", "c2_ood_vs_irm", "c3_target_vs_gnn"),
                  what="foil gnn_centred added to c1, c2 and c3 (baselines/"
                       "prototype_centred_gnn.py: the plain GNN on CURVE's prototype-centred "
                       "node features, eq. (0), with CURVE's prototype fit and settings, nothing "
                       "else of CURVE); the method added to every grid (quick: 8 cells); checks, "
                       "thresholds, seeds and data unchanged. where: 'abstract; zero-shot "
                       "transfer experiments' -> 'abstract (zero-shot transfer)' (c1, c2), "
                       "'abstract; low-data ...' -> 'abstract (low-data ...)' (c3): only the "
                       "abstract was read. Notes of c1, c3 no longer repeat the removed "
                       "third-party numbers",
                  why="issue 30: the method file's deviation 4 says the proxy's spurious cue is "
                      "a scene-level mean shift that the prototype centring removes by "
                      "construction; the OOD and transfer claims credit CURVE's mechanism, so "
                      "the centring alone must fail them, or the gains are the dataset's",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c4_uncertainty_flags_errors", "c5_uncertainty_vs_mc_dropout",
                          "c6_sparse_topology", "c7_keeps_invariant_edges",
                          "c8_gnn_overfits_spurious"),
                  what="the grids gain the method gnn_centred (the foil of c1-c3, amendment "
                       "above); these claims do not read it: their checks, foils and "
                       "thresholds are unchanged",
                  why="issue 30: the lock covers the design every claim reads (the grids)",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, cells or "
                       "branches); every non-timing metric of the committed quick cells "
                       "unchanged (compared cell by cell with the fresh run: 0 differences)"),
        Amendment(date="2026-12-06",
                  claims=("c1_ood_vs_gnn", "c2_ood_vs_irm", "c3_target_vs_gnn",
                          "c8_gnn_overfits_spurious", "p1_gnn_misled_ood",
                          "p2_gnn_adapts_above_chance"),
                  what="premises declared: p1_gnn_misled_ood (gnn ood_acc < 0.5) gates c1, c2; "
                       "p2_gnn_adapts_above_chance (gnn target_acc > 0.5) gates c3; thresholds "
                       "= chance. c8 stays not_run with a new reason: in this proxy the "
                       "phenomenon is our construction, shown by p1 (was: 'not built yet')",
                  why="issue 30 (rule 4: premises for the phenomenon and competent baselines); "
                      "the benchmark had none. Declared after results had been seen",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_ood_vs_gnn', 'c2_ood_vs_irm', 'c3_target_vs_gnn', 'c4_uncertainty_flags_errors', 'c5_uncertainty_vs_mc_dropout', 'c6_sparse_topology', 'c7_keeps_invariant_edges', 'c8_gnn_overfits_spurious'),
                  what='prototype_invariance_penalty skipped while its weight is 0 (it adds exact zeros); KL terms not computed in evaluation passes, where nothing reads them',
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
    headlines=HEADLINES,
    premises=PREMISES,
    grids={
        "smoke": Grid(datasets=(cfg(SyntheticSceneGraphs, n_train_per_env=20, n_test=30, k_shot=4),),
                      seeds=1, methods=_methods(**SMOKE), note="plumbing only"),
        # QUICK_SEEDS above: the least count at which every paired claim can be decided
        # (issue 14; 6 seeds could not, whatever the data). Sized from the test's attainable
        # p-values, not from the verdicts.
        "quick": Grid(datasets=(cfg(SyntheticSceneGraphs),), seeds=QUICK_SEEDS,
                      methods=_methods(),
                      note="450 training graphs, 300 per test split, 200 full-batch Adam steps; "
                           "8 seeds, the least with which a Holm-corrected paired claim of the "
                           "7 can be decided (2^-8 < 0.05/7); c3 only by the full grid"),
        "full": Grid(datasets=sweep(SyntheticSceneGraphs, n_train_per_env=[150, 500],
                                    ood_strength=[0.1, 0.3]),
                     seeds=20, methods=_methods() + ABLATIONS,
                     note="more data and a milder flip, plus CURVE ablations; still a synthetic proxy"),
    },
    cost_note=(
        "About 77 CPU-s for 7 methods x 8 seeds on 450 training graphs, 200 full-batch Adam steps "
        "and 100 fine-tuning steps: the four GNN baselines take 47 s (gnn 11.2, mc_dropout 13.4, "
        "irm 12.3, gnn_centred 10.4; about 1.5 s a cell), CURVE and its two mutants 29 s. Every "
        "method is read: gnn by p1_gnn_misled_ood, p2_gnn_adapts_above_chance and c1-c5, the "
        "others by c1_ood_vs_gnn to c7_keeps_invariant_edges. 8 seeds is the least with which a "
        "Holm-corrected paired claim of the 7 can be decided (2^-8 < 0.05/7)."),
    description=__doc__,
)
