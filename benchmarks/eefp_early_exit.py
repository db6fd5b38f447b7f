"""Benchmark: is calibration enough for early-exit networks, and does EEFP track the trade-off?

A 4-exit MLP is trained on 8x8 digits (clean and with pixel noise) and on a noisy 10-class
``make_classification`` task. Methods output per-exit test probabilities and exit confidences
only; every score is computed here against the test labels (``truth``):
  * ECE of each exit's confidence (15 equal-width bins), averaged over the exits;
  * EEFP (methods/eefp_early_exit.py, eqs. 1-3);
  * the cost-accuracy curve of the shared-threshold exit rule (a metric-side trace) and its
    area (mean accuracy over mean-cost budgets from the first exit's cost to the full cost);
  * for the proxy study, Spearman correlations across perturbed networks of EEFP and of -ECE
    with the area, and their difference.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper,
                            TraceMetric, cfg, output_metric)
from claimbench.baselines.early_exit_network import (PlainEarlyExit, accuracy_at_cost,
                                                     cost_accuracy_curve, curve_area)
from claimbench.baselines.temperature_scaling import (TemperatureScaledEarlyExit,
                                                      expected_calibration_error)
from claimbench.checks import Better, Equivalent, Value
from claimbench.datasets.early_exit_tasks import DigitsExitTask, SyntheticExitTask
from claimbench.methods.eefp_early_exit import EEFPEarlyExit, EEFPProxyStudy, eefp_score


def _correct(instance, probs) -> np.ndarray:
    return np.asarray(probs).argmax(axis=-1) == np.asarray(instance.truth["y_test"])[None, :]  # (E, N)


def mean_ece(conf: np.ndarray, correct: np.ndarray) -> float:
    return float(np.mean([expected_calibration_error(c, k) for c, k in zip(conf, correct)]))


def _curve(instance, outputs):
    if "conf" not in outputs:
        return None
    return cost_accuracy_curve(outputs["conf"], _correct(instance, outputs["probs"]),
                               np.asarray(outputs["costs"]))


def _ece(instance, outputs):
    if "conf" not in outputs:
        return None
    return mean_ece(outputs["conf"], _correct(instance, outputs["probs"]))


def _eefp(instance, outputs):
    if "conf" not in outputs:
        return None
    return eefp_score(outputs["conf"], _correct(instance, outputs["probs"]))


def _area(instance, outputs):
    c = _curve(instance, outputs)
    return None if c is None else curve_area(*c)


def _acc_at(budget: float):
    def fn(instance, outputs):
        c = _curve(instance, outputs)
        return None if c is None else accuracy_at_cost(*c, budget)
    return fn


def _final_acc(instance, outputs):
    if "probs" not in outputs:
        return None
    return float(_correct(instance, outputs["probs"])[-1].mean())


def _proxy_table(instance, outputs):
    """(ECE, EEFP, area) per perturbed network of the proxy study."""
    rows = []
    costs = np.asarray(outputs["costs"])
    for v in outputs["variants"]:
        correct = _correct(instance, v["probs"])
        rows.append((mean_ece(v["conf"], correct), eefp_score(v["conf"], correct),
                     curve_area(*cost_accuracy_curve(v["conf"], correct, costs))))
    return rows


def _spearman(x, y) -> float | None:
    from scipy.stats import spearmanr

    if len(set(x)) < 2 or len(set(y)) < 2:
        return None
    return float(spearmanr(x, y)[0])


def _rho(which: str):
    def fn(instance, outputs):
        if "variants" not in outputs:
            return None
        rows = [r for r in _proxy_table(instance, outputs) if r[1] is not None]
        ece, eefp, area = (list(col) for col in zip(*rows)) if rows else ([], [], [])
        r_eefp = _spearman(eefp, area)
        r_ece = _spearman([-e for e in ece], area)
        if outputs.get("swap_proxies"):  # foil mutant: ECE in EEFP's place, EEFP in ECE's
            r_eefp, r_ece = r_ece, r_eefp
        if which == "eefp":
            return r_eefp
        if which == "ece":
            return r_ece
        return None if r_eefp is None or r_ece is None else r_eefp - r_ece
    return fn


def _curve_trace(instance, outputs):
    c = _curve(instance, outputs)
    return None if c is None else {"x": c[0].tolist(), "y": c[1].tolist()}


METRICS = (
    Metric("auc_cost_acc", _area, True,
           "area under accuracy vs mean cost (fraction of full FLOPs), over [exit-1 cost, 1], "
           "divided by the interval width"),
    Metric("ece", _ece, False, "ECE of the exit confidences, 15 bins, mean over exits"),
    Metric("eefp", _eefp, True, "EEFP: AUROC of the exit confidence for 'exiting loses nothing', "
           "mean over intermediate exits"),
    Metric("acc_at_25", _acc_at(0.25), True, "accuracy at 25% of the full cost"),
    Metric("acc_at_50", _acc_at(0.50), True, "accuracy at 50% of the full cost"),
    Metric("acc_at_75", _acc_at(0.75), True, "accuracy at 75% of the full cost"),
    Metric("final_acc", _final_acc, True, "accuracy of the last exit"),
    Metric("rho_eefp_area", _rho("eefp"), True,
           "proxy study: Spearman(EEFP, area) across the perturbed networks"),
    Metric("rho_ece_area", _rho("ece"), True,
           "proxy study: Spearman(-ECE, area) across the perturbed networks"),
    Metric("rho_gap", _rho("gap"), True, "rho_eefp_area - rho_ece_area (the swap_proxies foil "
           "exchanges the two proxies in all three rho metrics)"),
    output_metric("time_s", description="training + post-hoc fitting time in seconds"),
)

TRACES = (TraceMetric("cost_accuracy", _curve_trace, xlabel="mean cost (fraction of full FLOPs)",
                      ylabel="test accuracy"),)

# The research note's 0.5 accuracy point of the curve area, used for both readings of one effect
# size (issue 14): below it a difference is "no change" (c2), above it "an improvement" (c3, c4).
# It is not from the paper's words (issue 30): "changes AUC by < 0.5 pt" is the note's own plan,
# not a quote; the abstract gives no size, and the v1 table (as rendered) no baseline accuracies.
EFFECT_MARGIN = 0.005
# What the notes of c2-c4 say of the margin's origin (issue 30).
_MARGIN_ORIGIN = ("Not from the paper's words: the abstract says 'not sufficient', 'improve' and "
                  "'superior' with no size, and the v1 table, as our sources render it (research "
                  "note; a third-party copy), gives accuracies at 25/50/75% FLOPs for the "
                  "procedure only, none for the baseline or the calibrated network; the "
                  "0.5 pt is the research note's planning resolution ('calibration ... changes "
                  "AUC by < 0.5 pt', its own expectation, not a quote). Kept as declared: no "
                  "words of the paper give another threshold, and changing it after the results "
                  "were seen would be post hoc. The authors' code, which might fix one, is not "
                  "in the store (issue 30).")
SWAP = "proxy_study[mutant=swap_proxies]"  # c7's foil (methods/eefp_early_exit.py, Mutants)

CLAIMS = (
    Claim(
        id="c1_ts_lowers_ece",
        where="v1 results table, ECE column",
        text="calibration (temperature scaling) lowers the intermediate classifiers' ECE",
        paper_value="MSDNet/CIFAR-100 0.21 -> 0.02; ViT-S/ImageNet 0.16 -> 0.02 (v1 results "
                    "table, ECE column, per research note; not verified)",
        check=Better(method="temp_scaled", baseline="plain_ee", metric="ece"),
        note="per-exit temperatures fitted on the validation split; ECE averaged over exits",
        source="paper", foils=(),
        foil_note="None: the uncalibrated network, its only foil, is the baseline (compared with "
                  "itself; issue 26), and the paper's EEFP procedure is no foil (its table gives "
                  "it 0.15 < 0.21); no other method of the grid is ruled out by the wording, so "
                  "the claim cannot be reproduced.",
    ),
    Claim(
        id="c2_ts_same_tradeoff",
        where="abstract (v1 and v3)",
        text="calibration alone is not sufficient: it barely changes the cost-accuracy trade-off",
        paper_value="\"we challenge this assumption and show that calibration alone is not "
                    "sufficient for EENNs to exploit adaptive computation\" (abstract)",
        source="paper", foils=("eefp",),
        foil_note="The EEFP procedure is what the abstract says does change the trade-off "
                  "('superior cost-accuracy trade-offs'): it must not count as 'no change'.",
        check=Equivalent(a="temp_scaled", b="plain_ee", metric="auc_cost_acc",
                         margin=EFFECT_MARGIN),
        note=("Margin 0.005 (0.5 accuracy point of the curve area): the research note's "
              "resolution, the same one above which c3 and c4 count an improvement (issue 14; "
              "a first version used 1 pt here and 0 in c3/c4, so one effect size read as "
              "'no change' in c2 and 'an improvement' in c3). The paper prints no number. Our "
              "test splits hold 540-900 samples, where 0.5 pt is 3-4 samples. "
              + _MARGIN_ORIGIN),
    ),
    Claim(
        id="c3_eefp_beats_plain",
        where="abstract; v1 results table",
        text="the EEFP-motivated procedure improves the cost-accuracy trade-off",
        paper_value="\"We also propose a lightweight, EEFP-motivated procedure to improve the "
                    "intermediate classifiers\"; \"our approach achieves superior cost-accuracy "
                    "trade-offs\" (abstract); MSDNet/CIFAR-100 73.27/75.66/75.58 at 25/50/75% "
                    "FLOPs, no baseline accuracies (v1 results table, per research note; not "
                    "verified)",
        check=Better(method="eefp", baseline="plain_ee", metric="auc_cost_acc",
                     margin=EFFECT_MARGIN),
        note="EEFP procedure is our reconstruction (methods/eefp_early_exit.py, eq. 4). "
             "Improvement of the curve area above 0.5 pt, the research note's resolution and "
             "c2's equivalence margin (one effect size, one reading; issue 14). "
             + _MARGIN_ORIGIN,
        source="paper", foils=("temp_scaled",),
        foil_note="Calibration 'alone is not sufficient' (abstract): temperature scaling in "
                  "the procedure's place must not improve the trade-off.",
    ),
    Claim(
        id="c4_eefp_beats_calibration",
        where="abstract",
        text="our approach achieves superior cost-accuracy trade-offs compared to calibration",
        check=Better(method="eefp", baseline="temp_scaled", metric="auc_cost_acc",
                     margin=EFFECT_MARGIN),
        note="Improvement of the curve area above 0.5 pt, as c3 (the research note's "
             "resolution, c2's equivalence margin; issue 14). " + _MARGIN_ORIGIN,
        paper_value="\"Extensive experiments demonstrate that our approach achieves superior "
                    "cost-accuracy trade-offs compared to calibration\" (abstract)",
        source="paper", foils=("plain_ee",),
        foil_note="The uncalibrated network is not 'our approach', and by c2 calibration "
                  "barely changes its trade-off: it must not beat calibration.",
    ),
    Claim(
        id="c5_eefp_score_higher",
        where="v1 results table, EEFP column",
        text="the proposed procedure has a higher EEFP than the calibrated network",
        paper_value="0.86 vs 0.83 (MSDNet/CIFAR-100); 0.84 vs 0.82 (ViT-S/ImageNet) (v1 results "
                    "table, EEFP column, per research note; not verified)",
        check=Better(method="eefp", baseline="temp_scaled", metric="eefp"),
        source="paper", foils=("plain_ee",),
        foil_note="The paper's own table has the uncalibrated network below the calibrated "
                  "one (0.82 < 0.83, 0.81 < 0.82): it must not pass.",
        note=("EEFP definition reconstructed (eqs. 1-3). Temperature scaling keeps the "
              "predictions and changes the max-softmax ranking only through the shape of the "
              "logit vectors, as in the paper's 0.82 -> 0.83."),
    ),
    Claim(
        id="c6_calibrated_lower_ece_than_ours",
        where="v1 results table, ECE column",
        text="the proposed procedure is worse calibrated than temperature scaling (ECE) "
             "while giving the better trade-off",
        paper_value="0.15 vs 0.02, both models (v1 results table, ECE column, per research note; "
                    "not verified)",
        check=Better(method="temp_scaled", baseline="eefp", metric="ece"),
        source="paper", foils=("plain_ee",),
        foil_note="The paper's table has the uncalibrated network worse calibrated than the "
                  "procedure (0.21 and 0.16 vs 0.15): in calibration's place it must not pass.",
        note="our EEFP confidence predicts 'exiting loses nothing', not correctness",
    ),
    Claim(
        id="c7_eefp_tracks_tradeoff",
        where="abstract (v1 and v3)",
        text="EEFP reflects overall EENN performance more reliably than calibration (ECE)",
        check=Value(method="proxy_study", metric="rho_gap", lo=0.0),
        paper_value="\"EEFP more reliably reflects overall EENN performance\" (abstract)",
        source="paper", foils=(),
        foil_note="None: a claim comparing two metrics of one study has no other method to put "
                  "in the study's place. The swap_proxies mutant (ECE in EEFP's place, the "
                  "check's other arm) was its foil until issue 26: its rho_gap is exactly minus "
                  "the subject's on the same networks, so it failed whenever the claim passed "
                  "(Y against Y). The claim cannot be reproduced.",
        note=("Reconstruction: per dataset and seed, 8 networks with random label smoothing, "
              "epochs, weight decay and per-exit temperatures; Spearman(EEFP, area) minus "
              "Spearman(-ECE, area) must have a bootstrap CI of its mean above 0."),
    ),
)

# The ICML 2026 abstract's checkable statements (headlines), verbatim.
HEADLINES = (
    Headline(quote="calibration alone is not sufficient for EENNs to exploit adaptive "
                   "computation", claims=("c2_ts_same_tradeoff",)),
    Headline(quote="a lightweight, EEFP-motivated procedure to improve the intermediate "
                   "classifiers", claims=("c3_eefp_beats_plain",)),
    Headline(quote="which can directly replace calibration in EENNs",
             claims=("c4_eefp_beats_calibration",)),
    Headline(quote="our approach achieves superior cost-accuracy trade-offs compared to "
                   "calibration", claims=("c4_eefp_beats_calibration",)),
    Headline(quote="EEFP more reliably reflects overall EENN performance",
             claims=("c7_eefp_tracks_tradeoff",)),
)

_QUICK_DATA = (cfg(DigitsExitTask), cfg(DigitsExitTask, pixel_noise=4.0), cfg(SyntheticExitTask))

GRIDS = {
    "smoke": Grid(
        datasets=(cfg(DigitsExitTask, pixel_noise=4.0),),
        seeds=1,
        methods=(cfg(PlainEarlyExit, label="plain_ee", epochs=4),
                 cfg(TemperatureScaledEarlyExit, label="temp_scaled", epochs=4),
                 cfg(EEFPEarlyExit, label="eefp", epochs=4),
                 cfg(EEFPProxyStudy, label="proxy_study", n_variants=3, epoch_choices=(2, 4)),
                 cfg(EEFPProxyStudy, label=SWAP, n_variants=3, epoch_choices=(2, 4),
                     mutant="swap_proxies")),
        note="wiring check only",
    ),
    "quick": Grid(
        datasets=_QUICK_DATA,
        seeds=5,
        methods=(cfg(EEFPEarlyExit), cfg(EEFPProxyStudy), cfg(PlainEarlyExit),
                 cfg(TemperatureScaledEarlyExit),
                 cfg(EEFPProxyStudy, label=SWAP, mutant="swap_proxies")),
        note="4-exit MLP, 40 epochs; proxy study with 8 perturbed networks per cell (and its "
             "swapped-proxies foil on the same networks)",
    ),
    "full": Grid(
        datasets=_QUICK_DATA + (cfg(DigitsExitTask, label_noise=0.1),
                                cfg(SyntheticExitTask, class_sep=2.0)),
        seeds=20,
        methods=(cfg(PlainEarlyExit, label="plain_ee"),
                 cfg(TemperatureScaledEarlyExit, label="temp_scaled"),
                 cfg(EEFPEarlyExit, label="eefp"),
                 cfg(EEFPProxyStudy, label="proxy_study", n_variants=20),
                 cfg(EEFPProxyStudy, label=SWAP, n_variants=20, mutant="swap_proxies")),
        note="more seeds and data variants; 20 perturbed networks per proxy-study cell",
    ),
}

BENCHMARK = Benchmark(
    slug="eefp_early_exit",
    paper=Paper(
        title="Rethinking Calibration for Early-Exit Neural Networks",
        arxiv="2508.21495",
        url="https://arxiv.org/abs/2508.21495",
        version="arXiv v1 (table) and v3 (abstract)",
        authors="Piotr Kubaty, Grzegorz Choczynski, Filip Szatkowski, Metod Jazbec, "
                "Eric Nalisnick, Bartosz Wojcik",
    ),
    area="reliable_prediction",
    fidelity="proxy",
    methods=(EEFPEarlyExit, EEFPProxyStudy),
    baselines=(PlainEarlyExit, TemperatureScaledEarlyExit),
    datasets=(DigitsExitTask, SyntheticExitTask),
    metrics=METRICS,
    primary_metric="auc_cost_acc",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    grids=GRIDS,
    traces=TRACES,
    cost_note=(
        ("Under its share since the issue 27 speed-ups of 2026-12-06 (every value "
               "unchanged): 28 CPU-s on idle cores (52 before): the multi-exit networks are "
               "trained once per (data, configuration, seed) and shared by the arms and the swap-"
               "proxies foil that evaluate them.")),
    description=__doc__.split("\n\n")[0],
    fidelity_note=("A 4-exit MLP with input skips on 8x8 digits and make_classification instead "
                   "of MSDNet / ViT on CIFAR-100 / ImageNet. The paper's body was not available "
                   "offline: the EEFP formula and the EEFP-motivated procedure are "
                   "reconstructions from the abstract (see methods/eefp_early_exit.py). The "
                   "authors' code (gmum/rethinking-calibration-for-eenns) is not in the store "
                   "either (checked again for issue 30), so neither could be checked against "
                   "it."),
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared (mutant proxy_study[mutant=swap_proxies] "
                       "added to all grids as c7's foil); paper_value quotes the v3 abstract "
                       "for c2, c4, c7, and c3's '(ours)' now reads as the paper's 'Ours' row",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c2_ts_same_tradeoff", "c3_eefp_beats_plain",
                          "c4_eefp_beats_calibration"),
                  what="one margin for the curve area, 0.005 (0.5 pt): c2's equivalence margin "
                       "0.01 -> 0.005; c3's and c4's improvement margin 0 -> 0.005",
                  why="issue 14: the same effect size read as 'no change' in c2 (margin 1 pt) "
                      "and as 'an improvement' in c3 (margin 0); the paper prints no "
                      "threshold, so both readings use the research note's 0.5 pt (its "
                      "'calibration changes AUC by < 0.5 pt')",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c1_ts_lowers_ece", "c7_eefp_tracks_tradeoff"),
                  what="c1: foil plain_ee (the check's baseline) removed; c7: foil "
                       "proxy_study[mutant=swap_proxies] removed; neither has a foil left",
                  why="each compared the claim with itself: plain_ee in temp_scaled's place "
                      "against plain_ee; the swap mutant puts ECE, the check's other arm, in "
                      "EEFP's place and gives exactly minus the subject's rho_gap",
                  results_seen=True,
                  rule="issue 26: Y-vs-Y foils removed"),
        Amendment(date="2026-12-06",
                  claims=("c2_ts_same_tradeoff", "c3_eefp_beats_plain",
                          "c4_eefp_beats_calibration", "c5_eefp_score_higher",
                          "c6_calibrated_lower_ece_than_ours", "c7_eefp_tracks_tradeoff"),
                  what="methods/eefp_early_exit.py: provenance text only (the authors' code "
                       "could not be read; deviations 1 and 2 say so), no code changed; c2, "
                       "c3, c4: notes say the 0.5 pt margin is not from the paper's words; "
                       "thresholds, checks, foils and grids unchanged",
                  why="issue 30 asked to take the EEFP label and procedure from "
                      "gmum/rethinking-calibration-for-eenns: the store has no snapshot or file "
                      "of it, so the reconstruction stays and the provenance records the "
                      "attempt; and to trace c3's 0.5 pt margin: the paper's words give no "
                      "threshold, it is the research note's, and it is kept, since changing it "
                      "now would be post hoc",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_ts_lowers_ece', 'c2_ts_same_tradeoff', 'c3_eefp_beats_plain', 'c4_eefp_beats_calibration', 'c5_eefp_score_higher', 'c6_calibrated_lower_ece_than_ours', 'c7_eefp_tracks_tradeoff'),
                  what='the multi-exit network trains through the checkpoint cache (the plain, temperature-scaled and EEFP arms and the swap foil load the identical networks)',
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c1_ts_lowers_ece', 'c2_ts_same_tradeoff', 'c3_eefp_beats_plain', 'c4_eefp_beats_calibration', 'c5_eefp_score_higher', 'c6_calibrated_lower_ece_than_ours', 'c7_eefp_tracks_tradeoff'),
                  what="the multi-exit network's checkpoint key names its data with claimbench.checkpoints.array_digest (was a local copy)",
                  why='review: one shared content hash (claimbench.checkpoints.array_digest) instead of a hand-written one per cache; the cache holds the same results',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
    headlines=HEADLINES,
)
