"""Frequency Matching in Spiking Neural Networks for mmWave Sensing (arXiv 2605.09983).

A two-layer LIF network whose membrane decay beta is set by matching the LIF low-pass cut-off to
the upper edge of the training data's discriminative spectrum, against the same network at fixed
betas, its non-spiking twin, and an MLP, a 1-D CNN and a GRU of the same width, on generated
radar-like sequences whose class pattern oscillates in a low (or high) frequency band under
high-frequency noise and frame dropout.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import (
    Amendment,
    Benchmark,
    Claim,
    Grid,
    Headline,
    Metric,
    Paper,
    Premise,
    cfg,
    output_metric,
    sweep,
)
from claimbench.baselines.sequence_classifiers import (CNN1DClassifier, GRUClassifier,
                                                       MLPClassifier)
from claimbench.checks import BetterDiff, Better, Rank, Ratio, Value
from claimbench.datasets.radar_sequences import RadarSequences
from claimbench.methods.snn_mmwave import FrequencyMatchedSNN


@dataclass
class BetaSweepSNN(FrequencyMatchedSNN):
    """The paper's network at a fixed beta; the beta study runs on ``bands`` only."""

    name: ClassVar[str] = "snn_beta"
    bands: str = "low,high"  # dataset bands this configuration runs on

    def applies_to(self, dataset):
        band = getattr(dataset, "band", None)
        return None if band in self.bands.split(",") else f"beta sweep not run on band {band}"


def _acc(inst, out):
    return float(np.mean(np.asarray(out["pred"]) == inst.truth["y_test"]))


def _energy_per_correct(inst, out):
    """Issue 28's 'matched accuracy': energy per sample / accuracy = pJ per correctly classified
    test sample, so a cheaper but less accurate model is charged in proportion; None at acc 0."""
    acc = _acc(inst, out)
    return None if acc <= 0 else float(out["energy_pJ"]) / acc


METRICS = (
    Metric("acc", _acc, True, "test accuracy"),
    output_metric("energy_pJ", description="theoretical inference energy per sample (pJ), 45 nm: "
                  "MACs x 4.6 pJ + SOPs x 0.9 pJ"),
    Metric("energy_per_correct_pJ", _energy_per_correct, False,
           "theoretical energy per correctly classified test sample (pJ): energy_pJ / acc"),
    output_metric("macs", description="multiply-accumulates per sample"),
    output_metric("sops", description="synaptic operations (spikes x fan-out) per sample"),
    output_metric("firing_rate", description="spikes per neuron per step (spiking models)"),
    output_metric("beta", description="membrane decay used (criterion or fixed)"),
    output_metric("cutoff", description="LIF half-power cut-off, cycles/sample"),
)

BETAS = (0.3, 0.5, 0.7, 0.9, 0.98)  # research note's sweep, thinned (ours)
SWEEP = tuple(f"snn_b{b}" for b in BETAS)
NO_SPIKE = "snn_fm[mutant=no_spike]"
LOW = {"band": "low", "snr_db": -15.0}
HIGH = {"band": "high", "snr_db": -15.0}


# issue 28: the MLP and the GRU sat at chance (0.215, 0.208) with the SNN's training recipe; found
# on private runs of generator seeds 0-2, low band (no grid cell run): the time-flattened MLP memorises 200 noisy sequences
# (training loss 0, test at chance) unless its batches are rolled in time and sign-flipped, with a
# smaller step and more epochs; the GRU needs standardised inputs and the SNN's time-averaged readout
# instead of its last state (baselines/sequence_classifiers.py). The CNN keeps the SNN's recipe.
MLP_TRAINING = {"standardize": True, "augment": True, "lr": 1e-3, "epochs": 300}
GRU_TRAINING = {"standardize": True, "pool": "mean", "epochs": 40}


def _methods(**kw) -> tuple:
    snn = dict(kw)
    return (
        cfg(FrequencyMatchedSNN, label="snn_fm", **snn),
        *(cfg(BetaSweepSNN, label=f"snn_b{b}", beta=b,
              bands="low,high" if b == 0.3 else "low", **snn) for b in BETAS),
        cfg(FrequencyMatchedSNN, label=NO_SPIKE, mutant="no_spike", **snn),
        cfg(MLPClassifier, label="mlp", **{**MLP_TRAINING, **kw}),
        cfg(CNN1DClassifier, label="cnn1d", **kw),
        cfg(GRUClassifier, label="gru", **{**GRU_TRAINING, **kw}),
    )


_PAPER_ACC = ("\"yielding an average test-accuracy improvement of 6.22% ... relative to ANN "
              "baselines\"")
_PAPER_ENERGY = ("\"a 3.64× reduction in theoretical energy consumption relative to ANN baselines\" "
                 "(abstract)")
_MISMATCH_FOILS = ("The same network with a mismatched beta: 0.3 (cut-off 0.22 f_s, inside the "
                   "noise band) and 0.98 (cut-off 0.003 f_s, below the signal band); the claim "
                   "credits the matching, so they must not show the advantage.")


def _beats(ann: str) -> Claim:
    return Claim(
        id=f"c1_beats_{ann}_low_snr", where="abstract",
        text=f"at low SNR with low-frequency discriminative content, the matched SNN is more "
             f"accurate than the {ann} ANN baseline",
        paper_value=_PAPER_ACC,
        check=Better(method="snn_fm", baseline=ann, metric="acc", where=LOW, margin=0.0),
        source="paper", foils=("snn_b0.3", "snn_b0.98"), foil_note=_MISMATCH_FOILS,
        note="Margin 0 (the note's 'beats the best ANN at low SNR'; the paper's +6.22 points is "
             "an average over four real datasets). One claim per ANN baseline.")


def _vanishes(ann: str) -> Claim:
    return Claim(
        id=f"c4_advantage_vanishes_high_band_vs_{ann}", where="abstract",
        text="the SNN's advantage holds when discriminative information is in low-to-mid "
             "frequencies and shrinks when the band moves above the LIF cut-off",
        paper_value="\"when discriminative information resides in low-to-mid frequencies, LIF "
                    "dynamics can inherently suppress high-frequency noise, clarifying when and "
                    "why SNNs outperform ANNs\"",
        check=BetterDiff(method="snn_fm", baseline=ann, metric="acc", where=LOW,
                         other_where=HIGH, margin=0.0),
        source="paper", foils=("snn_b0.3",),
        foil_note="A beta-0.3 SNN (cut-off inside the noise band) filters neither band, so its "
                  "gap to the ANN must not depend on the band.",
        note="Interaction: (acc_SNN - acc_ANN) on the low band minus the same on the high band "
             "(0.30-0.40 f_s, overlapping the noise) > 0.")


def _per_correct(letter: str, ann: str, foils: tuple) -> Claim:
    return Claim(
        id=f"c3{letter}_energy_per_correct_below_{ann}",
        where="abstract",
        text=f"at matched accuracy (energy per correct prediction) the matched SNN needs 3.64x "
             f"less theoretical energy than the {ann} ANN baseline",
        paper_value=_PAPER_ENERGY,
        check=Ratio(numerator="snn_fm", denominator=ann, metric="energy_per_correct_pJ",
                    at_most=1 / 3.64, where=LOW),
        source="paper", foils=foils,
        foil_note="The SNN's own network with the spikes removed (every synapse a MAC) must not "
                  "show the spike-driven reduction; nor must another MAC-based ANN baseline in "
                  "the SNN's place.",
        note="Issue 28: energy compared with the competent ANN baselines at matched accuracy, "
             "defined before running as energy per correctly classified test sample, E / acc "
             "per cell (a cheaper but less accurate model is charged in proportion; no extra "
             "cells). Threshold from the words '3.64× reduction': geometric mean of "
             "(E/acc)_SNN / (E/acc)_ANN <= 1/3.64 = 0.275 (the paper's figure is an average "
             "over its datasets and baselines; ours is per baseline). The MLP and the GRU only, "
             "the baselines issue 28 names: a third such claim (vs the 1-D CNN) would put 13 "
             "claims in the Holm family, whose level 0.05/13 a Wilcoxon test on 8 quick units "
             "(p >= 2^-8) could never reach for c1 and c2b.")


BENCHMARK = Benchmark(
    slug="snn_mmwave",
    paper=Paper(
        title="Frequency Matching in Spiking Neural Networks for mmWave Sensing",
        arxiv="2605.09983", url="https://arxiv.org/abs/2605.09983",
        version="arXiv v1 abstract (body not read)",
        authors="Zhenyu Liao, Di Yu, Changze Lv, Wentao Tong, Linshan Jiang, Sijie Ji, Xin Du, "
                "Hailiang Zhao, Xiaoqing Zheng, Shuiguang Deng"),
    area="generative_science",
    fidelity="proxy",
    fidelity_note=("The paper's four mmWave datasets and architectures are replaced by generated "
                   "8-channel radar-like sequences (datasets/radar_sequences.py) and a two-layer "
                   "fully connected LIF network of width 32; the discriminative-spectrum "
                   "estimator and matching rule are our instantiation of the abstract's "
                   "criterion (the body was not read). The LIF-as-low-pass algebra and the 45 nm "
                   "energy convention are exact."),
    methods=(FrequencyMatchedSNN,),
    baselines=(MLPClassifier, CNN1DClassifier, GRUClassifier),
    datasets=(RadarSequences,),
    metrics=METRICS,
    primary_metric="acc",
    cost_note=("76 CPU-s over 160 cells (10 configs, 2 bands, 8 seeds; 200 training sequences of "
               "64 steps): the GRU (40 epochs, 24 s with its hand-written recurrence) and the MLP"
               " (300 epochs, 15 s) take over half, the seven SNN configs 33 s. Those recipes are"
               " issue 28's fix: with the SNN's recipe both sat at chance, p_mlp_above_chance and"
               " p_gru_above_chance were inconclusive and five claims premise_failed. The MLP's "
               "high-band cells (7 s) and snn_fm[mutant=no_spike]'s (2 s) are read by no claim or"
               " premise (tables only; c4 compares with cnn1d and gru), but a grid cannot drop "
               "one method on one band only."),
    claims=(
        _beats("mlp"), _beats("cnn1d"), _beats("gru"),
        Claim(id="c2_accuracy_peaks_at_matched_beta", where="abstract",
              text="accuracy over membrane decays peaks at the beta the frequency-matching "
                   "criterion picks",
              paper_value="\"we derive a principled criterion for configuring the membrane decay "
                          "factor by matching the effective bandwidth of LIF dynamics to the "
                          "data's discriminative spectral content\"; \"Experimental results "
                          "across four widely used mmWave datasets validate the proposed "
                          "frequency-matching hypothesis\" (abstract)",
              check=Rank(method="snn_fm", metric="acc", k=3, among=SWEEP, where=LOW),
              source="paper", foils=(), grids=("full",),
              foil_note="The sweep's extremes (0.3, 0.98) were the foils, but they are ranked in "
                        "the check already (in the subject's place each would rank against "
                        "itself); no other grid method has a membrane decay the wording could "
                        "rule out, so none is declared.",
              note="Research note: 'accuracy as a function of beta peaks within one grid step of "
                   "beta*'. Top 3 of 6 (the criterion and the sweep 0.3..0.98): significantly "
                   "ahead of all but two, the sweep values adjacent to beta* (~0.6-0.7). Decided "
                   "on the full grid only: with 8 quick units a rank test against 5 others cannot "
                   "reach p < 5 x 2^-8 = 0.0195, above its worst-case Holm level. Reported (issue "
                   "28), quick grid, low band, 8 seeds: the criterion's beta* (mean 0.56, cut-off "
                   "0.10 f_s) reaches 0.61 mean test accuracy, a fixed beta = 0.9 (cut-off 0.017 "
                   "f_s) 0.94 and beta = 0.7 0.81: here the matching criterion's beta loses to a "
                   "fixed beta = 0.9 (declared as c2b_criterion_beta_beats_beta_0p9)."),
        Claim(id="c3_energy_vs_ann_twin", where="abstract",
              text="the spiking network needs 3.64x less theoretical energy than its ANN "
                   "counterpart",
              paper_value=_PAPER_ENERGY,
              check=Ratio(numerator="snn_fm", denominator=NO_SPIKE, metric="energy_pJ",
                          at_most=1 / 3.64, where=LOW),
              source="paper", foils=("gru", "cnn1d"),
              foil_note="ANNs in the SNN's place, against the same-architecture analog twin: "
                        "MAC-based models must not show the spike-driven reduction.",
              note="E_SNN / E_twin <= 1/3.64 = 0.275, the twin being the same network and beta* "
                   "without spikes (all MACs). The paper's comparison is against its ANN "
                   "baselines; which architecture it used per dataset was not read. The twin is "
                   "not one of the ANN baselines: against the MLP the SNN needs 1.16x more energy "
                   "(c3c_energy_below_mlp), against the GRU 12x less (c3b_energy_below_gru). Nor "
                   "is it at matched accuracy (the twin is the more accurate, 0.97 against 0.61 on "
                   "the committed quick low band; per correct prediction the SNN needs 0.43x the "
                   "twin's energy, not 1/3.64, issue 28's private quick run); the comparison with "
                   "the ANN baselines at matched accuracy is c3d, c3e (energy per correct "
                   "prediction)."),
        Claim(id="c3b_energy_below_gru", where="abstract",
              text="the matched SNN costs less theoretical energy than the GRU",
              paper_value=_PAPER_ENERGY,
              check=Ratio(numerator="snn_fm", denominator="gru", metric="energy_pJ",
                          at_most=1.0, where=LOW),
              source="paper", foils=("cnn1d",),
              foil_note="The 1-D CNN (more MACs than the GRU) must not pass.",
              note="Research note: 'the ANN/SNN energy ratio is > 1 (report the value)'. Energy "
                   "is fixed by the architecture (MACs) and the spikes, not by training: issue 28's "
                   "competent GRU costs what the chance-level one did. Not at matched accuracy: "
                   "on the quick grid's low band the competent GRU is the more accurate (0.72 "
                   "against the SNN's 0.61, c1_beats_gru_low_snr), so the SNN is cheaper but not "
                   "better; no accuracy-matched (narrower) GRU was run. At matched accuracy "
                   "(energy per correct prediction): c3e_energy_per_correct_below_gru."),
        Claim(id="c3c_energy_below_mlp", where="abstract",
              text="the matched SNN costs less theoretical energy than the time-flattened MLP",
              paper_value=_PAPER_ENERGY,
              check=Ratio(numerator="snn_fm", denominator="mlp", metric="energy_pJ",
                          at_most=1.0, where=LOW),
              source="paper", foils=("cnn1d",),
              foil_note="The 1-D CNN (more MACs than the MLP) must not pass.",
              note="Research note's energy check against the cheapest ANN here: its single "
                   "T*C*H first layer equals the SNN's encoding layer in MACs. Issue 28: the "
                   "competent MLP (0.73 low-band accuracy on the quick grid, against the SNN's "
                   "0.61) is both cheaper and more accurate, so matching accuracy (a narrower "
                   "MLP, not run) could only lower its energy further. At matched accuracy "
                   "(energy per correct prediction): c3d_energy_per_correct_below_mlp."),
        _per_correct("d", "mlp", ("cnn1d", NO_SPIKE)),
        _per_correct("e", "gru", ("cnn1d", NO_SPIKE)),
        Claim(id="c2b_criterion_beta_beats_beta_0p9", where="abstract",
              text="the membrane decay the frequency-matching criterion picks gives a more "
                   "accurate SNN than the fixed decay beta = 0.9",
              paper_value="\"we derive a principled criterion for configuring the membrane decay "
                          "factor by matching the effective bandwidth of LIF dynamics to the "
                          "data's discriminative spectral content\" (abstract)",
              check=Better(method="snn_fm", baseline="snn_b0.9", metric="acc", where=LOW,
                           margin=0.0),
              source="paper", foils=("snn_b0.3", "snn_b0.98"), foil_note=_MISMATCH_FOILS,
              note="Issue 28: the quick-grid form of c2 against one fixed decay. beta = 0.9 is "
                   "the research note's worked example (cut-off 0.017 f_s) and the usual fixed "
                   "value of snntorch's tutorials; a principled criterion that configures the "
                   "decay should not lose to it. Margin 0: the abstract gives no number. The "
                   "criterion here is our instantiation (methods/snn_mmwave.py deviation 1), so a "
                   "failure speaks to it first. Declared after issue 28 reported 0.61 (criterion, "
                   "mean beta* 0.56) against 0.94 (beta = 0.9) on the committed quick cells: post "
                   "hoc."),
        _vanishes("cnn1d"), _vanishes("gru"),
        Claim(id="c5_criterion_cutoff_between_signal_and_noise", where="abstract",
              text="the criterion's cut-off lies above the discriminative band and below the noise",
              paper_value="\"matching the effective bandwidth of LIF dynamics to the data's "
                          "discriminative spectral content\"",
              check=Value(method="snn_fm", metric="cutoff", lo=0.06, hi=0.15, where=LOW),
              source="derived", basis="construction", foils=("snn_b0.3", "snn_b0.98"),
              foil_note="Fixed betas 0.3 and 0.98 put the cut-off inside the noise band (0.22) "
                        "or below the signal band (0.003).",
              note="Generator: signal 0.02-0.06 f_s, noise 0.15-0.5 f_s; the mean cut-off over "
                   "seeds must lie in [0.06, 0.15] (ours). By construction: the bands are ours and "
                   "the estimator and matching rule are our instantiation, so this checks our "
                   "code, not the paper (the foils' cut-offs are fixed by their betas)."),
    ),
    grids={
        "smoke": Grid(datasets=sweep(RadarSequences, band=["low", "high"], snr_db=[-15.0],
                                     n_train=[40], n_test=[40], T=[32]),
                      seeds=1, methods=_methods(epochs=2),
                      note="2 epochs, 40 sequences of 32 steps: plumbing only"),
        "quick": Grid(datasets=sweep(RadarSequences, band=["low", "high"], snr_db=[-15.0]),
                      seeds=8, methods=_methods(),
                      note="200 train / 200 test sequences, T=64, 8 channels, 20 epochs (the "
                           "MLP 300, the GRU 40: MLP_TRAINING, GRU_TRAINING); 1.4 CPU-minutes "
                           "measured (0.9 before issue 28: its MLP and GRU recipes take 44 CPU-s "
                           "for their 32 cells, 16 before)"),
        "full": Grid(datasets=sweep(RadarSequences, band=["low", "high"], snr_db=[-15.0, -5.0],
                                    n_train=[1000], n_test=[1000], channels=[16]),
                     seeds=20, methods=_methods(epochs=60),
                     note="1000/1000 sequences, 16 channels, 60 epochs (the MLP too: as many "
                          "steps as its 300 quick epochs), two SNRs, 20 seeds: about 6 CPU-hours"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    premises=(
        Premise(id="p_mlp_above_chance",
                text="the MLP baseline is above chance on the low band, where the claims compare "
                     "with it",
                check=Value(method="mlp", metric="acc", lo=1.0 / RadarSequences().n_classes,
                            stat="mean", where=LOW),
                claims=("c1_beats_mlp_low_snr", "c3c_energy_below_mlp",
                        "c3d_energy_per_correct_below_mlp"),
                note="Chance = 1 / n_classes = 1/5: the generator draws the five classes "
                     "uniformly (datasets/radar_sequences.py). A baseline at chance has learned "
                     "nothing, so beating it (or costing less than it) says nothing of the paper's "
                     "ANNs."),
        Premise(id="p_gru_above_chance",
                text="the GRU baseline is above chance on the low band, where the claims compare "
                     "with it",
                check=Value(method="gru", metric="acc", lo=1.0 / RadarSequences().n_classes,
                            stat="mean", where=LOW),
                claims=("c1_beats_gru_low_snr", "c3b_energy_below_gru",
                        "c3e_energy_per_correct_below_gru",
                        "c4_advantage_vanishes_high_band_vs_gru"),
                note="As p_mlp_above_chance, for the GRU."),
        Premise(id="p_cnn1d_above_chance",
                text="the 1-D CNN baseline is above chance on the low band, where the claims "
                     "compare with it",
                check=Value(method="cnn1d", metric="acc", lo=1.0 / RadarSequences().n_classes,
                            stat="mean", where=LOW),
                claims=("c1_beats_cnn1d_low_snr", "c4_advantage_vanishes_high_band_vs_cnn1d"),
                note="As p_mlp_above_chance, for the third ANN baseline (same definition of "
                     "chance)."),
    ),
    headlines=(
        Headline(quote="when discriminative information resides in low-to-mid frequencies, LIF "
                       "dynamics can inherently suppress high-frequency noise, clarifying when and "
                       "why SNNs outperform ANNs",
                 claims=("c4_advantage_vanishes_high_band_vs_cnn1d",
                         "c4_advantage_vanishes_high_band_vs_gru", "c1_beats_mlp_low_snr",
                         "c1_beats_cnn1d_low_snr", "c1_beats_gru_low_snr")),
        Headline(quote="we derive a principled criterion for configuring the membrane decay factor "
                       "by matching the effective bandwidth of LIF dynamics to the data's "
                       "discriminative spectral content",
                 claims=("c2_accuracy_peaks_at_matched_beta", "c2b_criterion_beta_beats_beta_0p9",
                         "c5_criterion_cutoff_between_signal_and_noise")),
        Headline(quote="Experimental results across four widely used mmWave datasets validate the "
                       "proposed frequency-matching hypothesis",
                 claims=("c2_accuracy_peaks_at_matched_beta",)),
        Headline(quote="an average test-accuracy improvement of 6.22%",
                 claims=("c1_beats_mlp_low_snr", "c1_beats_cnn1d_low_snr",
                         "c1_beats_gru_low_snr")),
        Headline(quote="a 3.64× reduction in theoretical energy consumption relative to ANN "
                       "baselines",
                 claims=("c3_energy_vs_ann_twin", "c3b_energy_below_gru", "c3c_energy_below_mlp",
                         "c3d_energy_per_correct_below_mlp", "c3e_energy_per_correct_below_gru")),
    ),
    amendments=(
        Amendment(date="2026-12-06",
                  claims=("c2_accuracy_peaks_at_matched_beta", "c3b_energy_below_gru",
                          "c3c_energy_below_mlp", "c5_criterion_cutoff_between_signal_and_noise"),
                  what="c2: source derived -> paper, its foils snn_b0.3 and snn_b0.98 (ranked in "
                       "the check already) removed, none left, decided on the full grid only; "
                       "c3b, c3c: source derived -> paper; c5: basis='construction' (still "
                       "derived); checks and thresholds unchanged",
                  why="c2, c3b and c3c are placed in the abstract; c2's foils compared with "
                      "themselves, and 8 quick units cannot reach its worst-case Holm level "
                      "(p >= 0.0195 against 0.005); c5 checks that our estimator and matching rule "
                      "put the cut-off between bands we generated",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'; Y-vs-Y foils "
                       "removed; full grid only for an undecidable design; checks that hold by "
                       "construction are basis='construction'"),
        Amendment(date="2026-12-06",
                  claims=("p_mlp_above_chance", "p_gru_above_chance", "p_cnn1d_above_chance"),
                  what="premises added: the MLP, the GRU and the 1-D CNN above chance (1/5) in "
                       "mean test accuracy on the low band; each gates the claims that compare "
                       "with it (c1 vs mlp, c3c; c1 vs gru, c3b, c4 vs gru; c1 vs cnn1d, c4 vs "
                       "cnn1d); the claims are unchanged",
                  why="issue 26: the review found the MLP and GRU at 0.216 and 0.208 with chance "
                      "at 0.2, a setting where the paper's ANN comparison cannot appear; the CNN "
                      "gets the same control by the same definition",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_beats_cnn1d_low_snr", "c1_beats_gru_low_snr", "c1_beats_mlp_low_snr",
                          "c2_accuracy_peaks_at_matched_beta", "c3_energy_vs_ann_twin",
                          "c3b_energy_below_gru", "c3c_energy_below_mlp",
                          "c4_advantage_vanishes_high_band_vs_cnn1d",
                          "c4_advantage_vanishes_high_band_vs_gru",
                          "c5_criterion_cutoff_between_signal_and_noise"),
                  what="methods/snn_mmwave.py: the LIF layers' BPTT is written out by hand "
                       "(_fast_lif_class: the forward without an autograd graph, the backward the "
                       "recursion autograd evaluates through baselines/spiking_layers.LIF, the same "
                       "operations in the same order; tests/test_snn_mmwave.py checks spikes, "
                       "gradients and spike counts bit for bit); grids, seeds, epochs, sizes, "
                       "checks and foils unchanged",
                  why="issue 27 item 5: quick-grid CPU 2.73 -> 1.04 CPU-minutes (claimbench verify "
                      "re-ran all 128 ok cells: every metric bit for bit, no verdict, estimate or "
                      "foil verdict moved)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (claimbench verify)"),
        Amendment(date="2026-12-06",
                  claims=("c1_beats_gru_low_snr", "c1_beats_mlp_low_snr",
                          "c3b_energy_below_gru", "c3c_energy_below_mlp",
                          "c4_advantage_vanishes_high_band_vs_gru",
                          "p_mlp_above_chance", "p_gru_above_chance"),
                  what="the MLP and GRU baselines get their own training recipe (MLP_TRAINING, "
                       "GRU_TRAINING; new fields of baselines/sequence_classifiers.py, defaults "
                       "off): the MLP z-scores its input channels with training statistics, "
                       "rolls each training batch by a random time shift and flips its sign, lr "
                       "1e-3, 300 epochs; the GRU z-scores its inputs, reads out its states "
                       "averaged over time (the SNN's readout) instead of the last state, 40 "
                       "epochs; SNNs, CNN, datasets, seeds, checks, thresholds and foils "
                       "unchanged (all 96 SNN and CNN quick cells bit for bit equal); notes on "
                       "c2 (the criterion's beta against a fixed 0.9), c3, c3b, c3c (energy "
                       "against competent baselines, not at matched accuracy)",
                  why="issue 28: the MLP and GRU sat at chance (0.215, 0.208 against 1/5; "
                      "p_mlp_above_chance and p_gru_above_chance inconclusive, five claims "
                      "premise_failed). Found on private runs of generator seeds 0-2, low band "
                      "(no grid cell run): the MLP memorised the 200 noisy training sequences "
                      "(loss 0, test at chance; standardising, weight decay, dropout or a smaller "
                      "step alone did not help, the roll and sign flip did), the GRU's last state "
                      "did not average out the noise. These claims read the MLP's or GRU's "
                      "accuracy, or are gated by their competence premises",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_beats_cnn1d_low_snr", "c2_accuracy_peaks_at_matched_beta",
                          "c3_energy_vs_ann_twin", "c4_advantage_vanishes_high_band_vs_cnn1d",
                          "c5_criterion_cutoff_between_signal_and_noise"),
                  what="the files every design reads changed (this module, "
                       "baselines/sequence_classifiers.py: the MLP/GRU recipe above); these "
                       "claims read the SNNs, the CNN and the baselines' energy only, and none "
                       "is gated by the MLP/GRU premises; notes on c2 and c3",
                  why="issue 28 (the amendment above); split from it by the lead's review: of "
                      "the committed quick cells only the MLP's and GRU's acc changed (31 "
                      "values), energy_pJ did not",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, "
                       "cells or branches); every non-timing metric of the committed quick "
                       "cells unchanged (compared cell by cell with the fresh run: 0 "
                       "differences)"),
        Amendment(date="2026-12-06", claims=('c1_beats_cnn1d_low_snr', 'c1_beats_gru_low_snr', 'c1_beats_mlp_low_snr', 'c2_accuracy_peaks_at_matched_beta', 'c3_energy_vs_ann_twin', 'c3b_energy_below_gru', 'c3c_energy_below_mlp', 'c4_advantage_vanishes_high_band_vs_cnn1d', 'c4_advantage_vanishes_high_band_vs_gru', 'c5_criterion_cutoff_between_signal_and_noise'),
                  what="the mean-readout GRU's recurrence and backward by hand (torch's exact operations and gradient order); the hand-written LIF moved to baselines/spiking_layers.py",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06",
                  claims=("c2b_criterion_beta_beats_beta_0p9", "c3d_energy_per_correct_below_mlp",
                          "c3e_energy_per_correct_below_gru", "p_mlp_above_chance",
                          "p_gru_above_chance"),
                  what="claims added: c3d, c3e (the matched SNN's energy per correct prediction, "
                       "new metric energy_per_correct_pJ = energy_pJ / acc, at most 1/3.64 of "
                       "the MLP's, the GRU's; foils the no-spike twin and a MAC-based ANN); c2b "
                       "(the criterion's beta more accurate than a fixed beta = 0.9, margin 0; "
                       "foils beta 0.3, 0.98); p_mlp_above_chance and p_gru_above_chance gate "
                       "c3d and c3e too; headlines map them; grid, cells, methods unchanged",
                  why="issue 28: c3 compared energy with the SNN's own twin, not with the ANN "
                      "baselines at matched accuracy ('matched' defined, before the run, as "
                      "energy per correct prediction: no extra cells, the quick suite being over "
                      "its CPU budget); the criterion's beta losing to beta = 0.9 (0.61 vs 0.94) "
                      "was a note, now a declared check of the abstract's criterion. Both "
                      "compare numbers (accuracy, energy of committed cells) already reported",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_beats_cnn1d_low_snr", "c1_beats_gru_low_snr",
                          "c1_beats_mlp_low_snr", "c2_accuracy_peaks_at_matched_beta",
                          "c3_energy_vs_ann_twin", "c3b_energy_below_gru", "c3c_energy_below_mlp",
                          "c4_advantage_vanishes_high_band_vs_cnn1d",
                          "c4_advantage_vanishes_high_band_vs_gru",
                          "c5_criterion_cutoff_between_signal_and_noise"),
                  what="this module gained a metric (energy_per_correct_pJ, computed from each "
                       "cell's energy_pJ and acc) that none of these claims reads, and the MLP "
                       "and GRU premises gate two more claims (above); checks, thresholds, "
                       "foils, methods, grids and seeds unchanged; notes of c3, c3b, c3c point "
                       "to c3d, c3e",
                  why="issue 28 (the amendment above); the benchmark module's hash is part of "
                      "every claim's design",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, "
                       "cells or branches); every non-timing metric of the committed quick cells "
                       "unchanged (compared cell by cell with a fresh private run)"),
    ),
)
