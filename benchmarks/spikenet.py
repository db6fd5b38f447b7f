"""SpikeNet: Sparse Spike-Driven Mask Vector Transformer for spiking point-cloud processing.

SpikeNet (spiking embedding, one spike-driven vector-mask attention block on k nearest
neighbours, a dynamic sparse spiking residual) against PointNet and a light Point Transformer
(ANNs), Spiking PointNet, and SpikeNet without DSSR or without its Q-K mask, on generated point
clouds of eight parametric shapes with random scale, rotation, jitter and outliers: overall
accuracy, firing rate, MACs and synaptic operations, the 45 nm energy estimate, and the
attention's count of real multiplications and softmax exponentials.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import (
    Amendment,
    Benchmark,
    Claim,
    Grid,
    Headline,
    Metric,
    Paper,
    cfg,
    output_metric,
    sweep,
)
from claimbench.baselines.point_transformer import PointTransformerClassifier
from claimbench.baselines.pointnet import PointNetClassifier, SpikingPointNetClassifier
from claimbench.checks import Better, Exact, NotRun, Ratio
from claimbench.datasets.parametric_point_clouds import ParametricPointClouds
from claimbench.methods.spikenet import SpikeNetClassifier


def _oa(inst, out):
    return float(np.mean(np.asarray(out["pred"]) == inst.truth["y_test"]))


METRICS = (
    Metric("oa", _oa, True, "overall test accuracy"),
    output_metric("energy_pJ", description="theoretical inference energy per sample (pJ), 45 nm: "
                  "MACs x 4.6 pJ + SOPs x 0.9 pJ"),
    output_metric("macs", description="multiply-accumulates per sample"),
    output_metric("sops", description="synaptic operations (spike- or count-driven additions) "
                  "per sample"),
    output_metric("firing_rate", description="spikes per neuron per time step (spiking models)"),
    output_metric("attn_real_ops", description="attention block: multiplications with a "
                  "non-binary operand plus softmax exponentials, per sample"),
)

NO_DSSR = "spikenet[mutant=no_dssr]"
NO_MASK = "spikenet[mutant=no_mask]"


def _methods(k: int, **kw) -> tuple:
    return (
        cfg(SpikeNetClassifier, label="spikenet", k=k, **kw),
        cfg(SpikeNetClassifier, label=NO_DSSR, k=k, mutant="no_dssr", **kw),
        cfg(SpikeNetClassifier, label=NO_MASK, k=k, mutant="no_mask", **kw),
        cfg(SpikingPointNetClassifier, label="spiking_pointnet", **kw),
        cfg(PointNetClassifier, label="pointnet", **kw),
        cfg(PointTransformerClassifier, label="point_transformer", k=k, **kw),
    )


_Q_PROPOSE = ("We propose SpikeNet, a novel spiking neural network architecture for "
              "energy-efficient and robust point cloud analysis")
_Q_SOTA = "state-of-the-art performance in shape classification and segmentation tasks"

BENCHMARK = Benchmark(
    slug="spikenet",
    paper=Paper(
        title="SpikeNet: Sparse Spike-Driven Mask Vector Transformer for Energy-Efficient and "
              "Stable Spiking Point Cloud Processing",
        arxiv="", venue="ICML 2026",
        url="https://openreview.net/forum?id=pCSx1ZjYcn",
        version="the ICML 2026 abstract; no ICML proceedings page, arXiv version or code was "
                "found, so the url is the ICLR 2026 OpenReview submission pCSx1ZjYcn, whose "
                "abstract is the same but for 'part segmentation' (no body, numbers or code "
                "read). The arXiv id 2502.15811 listed before is another paper (Spiking Point "
                "Transformer)"),
    area="generative_science",
    fidelity="proxy",
    fidelity_note=("Only the abstract was available: SVMT (binary Q AND K mask gating binary V, "
                   "accumulate only) and DSSR (a membrane shortcut) are our reconstruction. "
                   "ModelNet40/ScanObjectNN/ShapeNetPart are replaced by 64-point clouds of 8 "
                   "generated shapes; all networks are one-block, width-16 models trained 15 "
                   "epochs on 200 clouds; no part segmentation."),
    methods=(SpikeNetClassifier,),
    baselines=(SpikingPointNetClassifier, PointNetClassifier, PointTransformerClassifier),
    datasets=(ParametricPointClouds,),
    metrics=METRICS,
    primary_metric="oa",
    claims=(
        Claim(id="s1_beats_spiking_pointnet", where="abstract",
              text="SpikeNet is more accurate than the previous SNN, Spiking PointNet",
              paper_value="\"Experiments on benchmark datasets show that SpikeNet achieves "
                          "state-of-the-art performance in shape classification and segmentation "
                          "tasks\" (abstract); read here as among SNNs",
              check=Better(method="spikenet", baseline="spiking_pointnet", metric="oa",
                           margin=0.0),
              source="paper", foils=(NO_DSSR, NO_MASK),
              foil_note="SpikeNet with either of its two components (DSSR, the SVMT mask) "
                        "removed: the claim credits them, so the ablations must not beat "
                        "Spiking PointNet.",
              note="Margin 0 (state of the art); the research note's +1 point is stricter."),
        Claim(id="s2_near_ann_transformer", where="abstract",
              text="SpikeNet's accuracy is within 3 points of the ANN point transformer",
              paper_value="\"comparable to artificial neural network (ANN) based methods\" "
                          "(abstract)",
              check=Better(method="spikenet", baseline="point_transformer", metric="oa",
                           margin=-0.03),
              source="paper", foils=("spiking_pointnet", NO_DSSR),
              foil_note="The earlier SNN and the DSSR-less ablation are the 'trade-off' SpikeNet "
                        "claims to overcome: they must not be comparable to the ANN.",
              note="Research note: within 3 points (non-inferiority at margin -0.03 OA)."),
        Claim(id="s3_energy_fraction_of_ann", where="abstract",
              text="SpikeNet needs at most a third of the ANN transformer's theoretical energy",
              paper_value="\"a novel spiking neural network architecture for energy-efficient "
                          "and robust point cloud analysis\"; \"achieving collaborative "
                          "optimization of performance and energy-efficiency\" (abstract)",
              check=Ratio(numerator="spikenet", denominator="point_transformer",
                          metric="energy_pJ", at_most=1 / 3),
              source="paper", foils=(),
              foil_note="The ANN transformer was the foil, but it is the denominator (in "
                        "SpikeNet's place it compares with itself, ratio 1). PointNet is a far "
                        "smaller network than the transformer, Spiking PointNet is the "
                        "efficient earlier SNN the abstract concedes, and both ablations remove "
                        "computation: the wording rules out none of them, so none is declared.",
              note="Research note: energy <= 1/3 of the ANN's (45 nm: 4.6 pJ/MAC, 0.9 pJ/AC)."),
        Claim(id="s4_attention_no_softmax_no_mult", where="abstract",
              text="the spiking vector-mask attention performs no softmax and no multiplication",
              paper_value="\"SVMT eliminates the need for softmax and multiplication operations\"",
              check=Exact(method="spikenet", metric="attn_real_ops", hi=0.0),
              source="derived", basis="construction", foils=("point_transformer",),
              foil_note="Vector attention with softmax weights (Point Transformer) multiplies "
                        "and exponentiates; the other models have no attention block.",
              note="Counted on the test set: products in Q AND K and (.) AND V with a "
                   "non-binary operand, plus exponentials; every run must have none. Holds by "
                   "construction: our LIF neurons emit binary spikes, so the count is 0 by "
                   "definition (exact, no statistics)."),
        Claim(id="s5_segmentation", where="abstract",
              text="SpikeNet achieves state-of-the-art segmentation, comparable to ANNs",
              paper_value="\"" + _Q_SOTA + "\" (abstract)",
              check=NotRun(method="spikenet",
                           reason="not built yet (issue 28): a part-segmentation variant of the "
                                  "generated shapes (per-point part labels), scored by mIoU "
                                  "against Spiking PointNet and the ANN transformer; every grid "
                                  "runs classification only"),
              source="paper"),
        Claim(id="s6_robust", where="abstract",
              text="SpikeNet's point-cloud analysis is robust",
              paper_value="\"" + _Q_PROPOSE + "\" (abstract)",
              check=NotRun(method="spikenet",
                           reason="not built yet (issue 28): accuracy under stronger jitter, "
                                  "outliers or rotation than in training, set against the ANN "
                                  "transformer's and Spiking PointNet's drop; every grid trains "
                                  "and tests at one perturbation level"),
              source="paper"),
    ),
    headlines=(
        Headline(quote=_Q_PROPOSE, claims=("s3_energy_fraction_of_ann", "s6_robust")),
        Headline(quote="SVMT eliminates the need for softmax and multiplication operations",
                 claims=("s4_attention_no_softmax_no_mult",)),
        Headline(quote="SpikeNet overcomes the trade-off between accuracy and efficiency in "
                       "previous SNN methods",
                 claims=("s1_beats_spiking_pointnet", "s3_energy_fraction_of_ann")),
        Headline(quote=_Q_SOTA, claims=("s1_beats_spiking_pointnet", "s5_segmentation")),
        Headline(quote="comparable to artificial neural network (ANN) based methods",
                 claims=("s2_near_ann_transformer",)),
    ),
    grids={
        "smoke": Grid(datasets=sweep(ParametricPointClouds, n_points=[32], n_train=[40],
                                     n_test=[40]),
                      seeds=1, methods=_methods(k=4, epochs=2),
                      note="40 clouds of 32 points, 2 epochs: plumbing only"),
        "quick": Grid(datasets=(cfg(ParametricPointClouds),), seeds=8, methods=_methods(k=8),
                      note="200/200 clouds of 64 points, k=8, width 16, T=4, 15 epochs, 8 seeds: "
                           "1.6 CPU-minutes measured"),
        "full": Grid(datasets=sweep(ParametricPointClouds, n_points=[512], n_train=[2000],
                                    n_test=[800], rotation=["z", "so3"]),
                     seeds=10, methods=_methods(k=16, hidden=32, epochs=100),
                     note="the research note's scale: 512 points, 2000/800 clouds, k=16, width "
                          "32, 100 epochs, z and SO(3) rotations, 10 seeds: roughly 150 "
                          "CPU-hours (SpikeNet's k x N x H x T mask dominates)"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-06",
                  claims=("s2_near_ann_transformer", "s3_energy_fraction_of_ann",
                          "s4_attention_no_softmax_no_mult"),
                  what="s2, s3: source derived -> paper; s3's only foil, point_transformer (its "
                       "own denominator), removed, none left; s4: source paper -> derived with "
                       "basis='construction', Value(stat=max, hi=0) -> Exact(hi=0); thresholds "
                       "unchanged",
                  why="s2 and s3 are placed in the abstract; s3's foil compared the transformer "
                      "with itself; s4 counts real-valued operations of binary LIF outputs, 0 by "
                      "our construction",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'; Y-vs-Y foils "
                       "removed; checks that hold by construction are derived with "
                       "basis='construction' and exact"),
        Amendment(date="2026-12-06", claims=("s5_segmentation", "s6_robust"),
                  what="not_run claims added: segmentation (s5) and robustness (s6); headlines "
                       "declared (the ICML abstract's 5 checkable statements); the paper record "
                       "no longer names arXiv 2502.15811 (another paper) and gives the ICML venue",
                  why="issue 28: every abstract statement is checked or listed with the reason it "
                      "is not; the registry's arXiv id was Spiking Point Transformer's",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('s1_beats_spiking_pointnet', 's2_near_ann_transformer', 's3_energy_fraction_of_ann', 's4_attention_no_softmax_no_mult', 's5_segmentation', 's6_robust'),
                  what='SpikeNet and Spiking PointNet use the hand-written LIF of baselines/spiking_layers.py (bit-identical to autograd through the original)',
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
