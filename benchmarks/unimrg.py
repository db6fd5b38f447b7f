"""UniMRG (auxiliary generation of pixels, depth and segmentation) on rendered spatial-QA scenes.

A small CNN encoder with a question-answering head is trained on generated scenes (coloured
shapes at known depths, with occlusion, size and brightness depth cues; exact depth and
segmentation maps) to answer spatial questions (which shape is closer / left / above, how many
shapes). The arms differ only in the auxiliary generation loss on the shared encoder: none
(understanding only), pixel reconstruction, depth, segmentation, or all three (UniMRG); a
mutant generates all three from another scene's targets (no spatial information about the
input). One seed is one training run, scored on 500 held-out scenes (4 questions each).
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
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
from claimbench.baselines.auxiliary_dense_decoding import ReconstructionAux, UnderstandingOnly
from claimbench.checks import Better, NotRun, Value
from claimbench.datasets.depth_scenes import QTYPES, DepthScenes
from claimbench.methods.unimrg import UniMRG

BASE = "understanding_only"
RECON = "recon_aux"
FULL = "unimrg"
DEPTH = "unimrg[depth]"
SEG = "unimrg[seg]"
SHUF = "unimrg[mutant=shuffled_targets]"


def _acc(types: tuple[str, ...]):
    cols = [QTYPES.index(t) for t in types]

    def fn(inst, out):
        return float(np.mean(out["answers"][:, cols] == inst.truth["answers"][:, cols]))

    return fn


def _depth_r2(inst, out):
    if "pred_depth" not in out:
        return None
    t, p = inst.truth["depth"], out["pred_depth"][:, 0]
    return float(1.0 - np.sum((p - t) ** 2) / np.sum((t - t.mean()) ** 2))


def _recon_psnr(inst, out):
    if "pred_recon" not in out:
        return None
    mse = float(np.mean((out["pred_recon"] - inst.truth["images"]) ** 2))
    return 10.0 * np.log10(1.0 / mse)


METRICS = (
    Metric("acc_spatial", _acc(("closer", "left", "above")), True,
           "accuracy on held-out spatial questions (closer, left, above)"),
    Metric("acc_depth", _acc(("closer",)), True,
           "accuracy on the depth-related question 'is <a> closer than <b>?'"),
    Metric("acc_2d", _acc(("left", "above")), True,
           "accuracy on the 2-D relation questions (left, above)"),
    Metric("acc_count", _acc(("count",)), True, "accuracy on 'how many shapes?'"),
    Metric("acc_all", _acc(QTYPES), True, "accuracy over all held-out questions"),
    Metric("depth_r2", _depth_r2, True, "R^2 of the depth decoder's held-out depth maps "
           "(defined only for arms with a depth decoder)"),
    Metric("recon_psnr", _recon_psnr, True, "PSNR (dB) of the reconstruction decoder on "
           "held-out images (arms with a reconstruction decoder)"),
    output_metric("train_qa_loss", False, "QA cross-entropy over the last 20 training steps"),
    output_metric("cpu_s", False, "process CPU seconds of the training run"),
)


def _methods(**kw) -> tuple:
    return (cfg(UnderstandingOnly, label=BASE, **kw),
            cfg(ReconstructionAux, label=RECON, **kw),
            cfg(UniMRG, label=FULL, **kw),
            cfg(UniMRG, label=DEPTH, representations="depth", **kw),
            cfg(UniMRG, label=SEG, representations="seg", **kw),
            cfg(UniMRG, label=SHUF, mutant="shuffled_targets", **kw))


_SHUF_NOTE = ("'Generating intrinsic representations of the input improves understanding' "
              "credits the information in the targets: the same decoders and losses fed "
              "another scene's pixels, depth and segmentation (a cyclic shift in the batch) "
              "carry no information about the input and must not produce the gain.")
_ABSTRACT = ("\"our method notably enhances fine-grained perception, reduces hallucinations, "
             "and improves spatial understanding\" (abstract)")
_FIG2 = ("image-to-depth post-training enables UMMs to generate coherent depth maps and "
         "significantly improves spatial understanding, such as correctly identifying which "
         "object is closer (Fig. 2, per a third-party summary, chatpaper.com/paper/230848; not "
         "verified)")

_SWEEP = (" Data-size sweep (round 4, private, declared in advance: quick's settings, 400 steps, "
          "n_train 600 / 2400 / 6000, 2 seeds, the five non-mutant arms; descriptive, a sign read "
          "as 'both seeds agree'): no size turns c3-c6 positive. Paired differences (seed 0, "
          "seed 1): c3 (spatial, unimrg - recon_aux) 600: -.10, -.09; 2400: -.15, +.04; 6000: "
          "-.05, -.12. c4 (closer, depth - understanding_only) -.41, -.01; -.01, +.31; -.01, "
          "-.44. c5 (closer, depth - recon_aux) -.34, -.20; -.31, -.05; +.01, -.43. c6 (closer, "
          "depth - seg) -.20, -.14; -.31, -.11; +.03, -.31. c1 (spatial, unimrg - "
          "understanding_only) -.15, +.01; +.16, +.38; -.04, -.10. At 400 steps 5 of 30 runs "
          "stay at chance (acc_spatial <= .55: understanding_only 2, depth arm 3; 6 of the 40 "
          "committed non-mutant quick cells), and these runs, not the data size, set the signs. "
          "With 5x the steps (2000) at 6000 scenes every arm reaches .93-.98 and the differences "
          "are within +-.01 except the depth arm's seed 1 (-.07): a saturated setting (p1's "
          "ceiling). The full grid carries n_train as a dimension. (That sweep and the committed "
          "quick cells before round 6 trained with constant-lr Adam for 400 steps. Round 6: "
          "800 steps with warm-up and clipping; no run of a compared arm stays at chance, "
          "premises p2-p6, and every arm reaches .81-.90 on the private quick run.)")

BENCHMARK = Benchmark(
    slug="unimrg",
    paper=Paper(
        title="Generation Enhances Understanding in Unified Multimodal Models via "
              "Multi-Representation Generation",
        arxiv="2601.21406",
        url="https://arxiv.org/abs/2601.21406",
        version="abstract, project page and the authors' public Harmon training config; "
                "tables not read (no numbers extracted)",
        authors="Zihan Su, Hongyang Wei, Kangrui Cen, Yong Wang, Guanhua Chen, Chun Yuan, "
                "Xiangxiang Chu",
    ),
    area="llm_agents",
    fidelity="proxy",
    fidelity_note=("Tests only the generic mechanism: a 3-layer CNN with a FiLM answer head "
                   "trained from scratch on 600 rendered 32 x 32 scenes, with one-shot "
                   "regression/classification decoders for pixels, depth and segmentation, "
                   "against 1.5B+ unified multimodal models post-trained on LLaVA-665k with "
                   "their native AR / MAR / diffusion generation losses and estimated depth "
                   "and segmentation targets. Questions are templated (closer / left / above "
                   "/ count) with exact answers; none of the paper's benchmarks run here."),
    methods=(UniMRG,),
    baselines=(UnderstandingOnly, ReconstructionAux),
    datasets=(DepthScenes,),
    metrics=METRICS,
    cost_note=("The quick grid is 48 training runs of a 3-layer CNN, 6 arms x 8 seeds, each 800 "
               "AdamW steps of 64 scenes on 600 training scenes, scored on 500 held-out scenes x 4 "
               "questions: ~11 CPU-s a run, 523 CPU-s measured (237 before round 6, at 400 "
               "constant-lr Adam steps). The doubling is what premises p2-p6 need: at 400 steps "
               "6 of 40 non-mutant runs stayed at chance (and most auxiliary-arm runs under a "
               "decaying schedule); at 800 none did. Every arm is read: unimrg and "
               "understanding_only by c1_improves_spatial_understanding and "
               "c2_spatial_gain_2_points (a 2-point margin), recon_aux by c3 and c5, the depth "
               "and seg arms by c4-c6, each arm by its premise, and the shuffled_targets mutant "
               "(111 s) is the foil of c1-c7. No cell serves tables only."),
    primary_metric="acc_spatial",
    nondeterministic={"cpu_s": TIMING_RTOL},
    premises=(
        Premise(id="p1_baseline_competent_not_saturated",
                text="understanding-only training answers the spatial questions above chance "
                     "and below saturation (mean held-out spatial accuracy in [0.5, 0.95]), so a "
                     "gain or a loss from auxiliary generation can show",
                check=Value(method=BASE, metric="acc_spatial", lo=0.5, hi=0.95),
                claims=("c1_improves_spatial_understanding", "c2_spatial_gain_2_points",
                        "c3_beats_reconstruction_only", "c4_depth_generation_helps_closer",
                        "c5_depth_helps_most_vs_recon", "c6_depth_helps_most_vs_seg"),
                note="Ours (issue 30 rule 4). 0.5: chance on the yes/no spatial questions "
                     "(roughly balanced answers); 0.95: a baseline within 5 points of perfect "
                     "leaves no room for c2's 2-point gain to be told apart. Declared after the "
                     "quick results were seen (post hoc; amendment of round 4)."),
    ) + tuple(
        Premise(id=pid,
                text=f"no training run of {arm} stays at chance: every run's held-out spatial "
                     f"accuracy is at least 0.60",
                check=Value(method=arm, metric="acc_spatial", stat="min", lo=0.60),
                claims=gated,
                note="Ours (round 6). A run at chance is a training failure, not the paper's "
                     "effect: before round 6, 6 of the 40 committed non-mutant quick runs "
                     "(understanding_only 2, unimrg[depth] 4) stayed at .49-.55 and set the "
                     "signs of c3-c6. 0.60 = chance (.5, yes/no questions) + .10: a model at "
                     "chance on 1500 held-out questions lies within .5 +- .04 (3 SE); competent "
                     "runs reach ~.8. Threshold fixed before the round-6 runs.")
        for pid, arm, gated in (
            ("p2_no_stuck_run_understanding_only", BASE,
             ("c1_improves_spatial_understanding", "c2_spatial_gain_2_points",
              "c4_depth_generation_helps_closer")),
            ("p3_no_stuck_run_recon_aux", RECON,
             ("c3_beats_reconstruction_only", "c5_depth_helps_most_vs_recon")),
            ("p4_no_stuck_run_unimrg", FULL,
             ("c1_improves_spatial_understanding", "c2_spatial_gain_2_points",
              "c3_beats_reconstruction_only")),
            ("p5_no_stuck_run_depth", DEPTH,
             ("c4_depth_generation_helps_closer", "c5_depth_helps_most_vs_recon",
              "c6_depth_helps_most_vs_seg")),
            ("p6_no_stuck_run_seg", SEG, ("c6_depth_helps_most_vs_seg",)))),
    claims=(
        Claim(id="c1_improves_spatial_understanding", where="abstract; project page",
              text="UniMRG improves spatial understanding over standard understanding training",
              paper_value=_ABSTRACT,
              check=Better(method=FULL, baseline=BASE, metric="acc_spatial", margin=0.0),
              source="paper", foils=(SHUF,), foil_note=_SHUF_NOTE,
              note="Spatial accuracy (closer, left, above) on held-out scenes, paired by "
                   "seed (same data and initialisation)." + _SWEEP),
        Claim(id="c2_spatial_gain_2_points", where="research note plan",
              text="all auxiliary targets add at least 2 points of spatial accuracy",
              paper_value="research note's proxy threshold (no paper number extracted)",
              check=Better(method=FULL, baseline=BASE, metric="acc_spatial", margin=0.02),
              source="derived", foils=(SHUF,), foil_note=_SHUF_NOTE,
              note="c1 with the research note's 2-point margin." + _SWEEP),
        Claim(id="c3_beats_reconstruction_only", where="abstract (complementary representations)",
              text="generating depth and segmentation as well as pixels beats pixel "
                   "reconstruction alone on spatial questions",
              paper_value="\"By synthesizing these diverse representations, UMMs capture rich "
                          "complementary information regarding appearance, spatial relations, "
                          "and structural layout\" (abstract)",
              check=Better(method=FULL, baseline=RECON, metric="acc_spatial", margin=0.0),
              source="paper", foils=(SHUF,), foil_note=_SHUF_NOTE,
              note="Our reading of the abstract; the paper's ablation table was not read. "
                   "Filed as the paper's since issue 26 (placed in the abstract)." + _SWEEP),
        Claim(id="c4_depth_generation_helps_closer", where="Fig. 2",
              text="image-to-depth training improves answering which object is closer",
              paper_value="\"improves spatial understanding\" (abstract); " + _FIG2,
              check=Better(method=DEPTH, baseline=BASE, metric="acc_depth", margin=0.0),
              source="paper", foils=(SHUF,), foil_note=_SHUF_NOTE,
              note="Depth-only auxiliary arm against understanding only, on the closer "
                   "question." + _SWEEP),
        Claim(id="c5_depth_helps_most_vs_recon", where="issue; Fig. 2",
              text="depth helps depth questions more than pixel reconstruction does",
              paper_value="issue: 'depth helps most' (no paper number extracted)",
              check=Better(method=DEPTH, baseline=RECON, metric="acc_depth", margin=0.0),
              source="derived", foils=(SHUF,),
              foil_note="An auxiliary target without information about the input (the "
                        "shuffled mutant) must not beat reconstruction on depth questions.",
              note="'Depth helps most', split in two pairwise comparisons (c5, c6)." + _SWEEP),
        Claim(id="c6_depth_helps_most_vs_seg", where="issue; Fig. 2",
              text="depth helps depth questions more than segmentation does",
              paper_value="issue: 'depth helps most' (no paper number extracted)",
              check=Better(method=DEPTH, baseline=SEG, metric="acc_depth", margin=0.0),
              source="derived", foils=(SHUF,),
              foil_note="As c5: uninformative auxiliary targets must not beat segmentation.",
              note="Second half of 'depth helps most'." + _SWEEP),
        Claim(id="c7_generates_coherent_depth",
              where="sanity check (ours), after Fig. 1-2 as read in third-party summaries",
              text="after UniMRG training the model generates coherent depth maps",
              paper_value="image-to-depth post-training enables UMMs to generate coherent "
                          "depth maps (Fig. 2, per a third-party summary; not verified); "
                          "off-the-shelf Harmon cannot (Fig. 1, per research note; not verified)",
              check=Value(method=FULL, metric="depth_r2", lo=0.5),
              source="derived", foils=(SHUF,),
              foil_note="A depth decoder trained on another scene's depth cannot predict this "
                        "scene's depth (R^2 near 0).",
              note="'Coherent' read as held-out depth R^2 above 0.5 (our threshold). A sanity "
                   "check (issue 30): a depth decoder trained on depth predicts depth; the "
                   "abstract does not state it, and the figure's claim was read only in "
                   "third-party summaries."),
        Claim(id="c8_fine_grained_perception", where="abstract; Table (MMVP etc.)",
              text="UniMRG enhances fine-grained perception",
              check=NotRun(method=FULL, reason="needs post-training a 1.5B+ unified multimodal "
                                                "model and the MMVP-type benchmarks"),
              paper_value=_ABSTRACT, source="paper"),
        Claim(id="c9_fewer_hallucinations", where="abstract; Table (POPE / HallusionBench)",
              text="UniMRG reduces hallucinations",
              check=NotRun(method=FULL, reason="needs a language-generating UMM and "
                                                "hallucination benchmarks (POPE, "
                                                "HallusionBench)"),
              paper_value=_ABSTRACT, source="paper"),
        Claim(id="c10_generation_boosted", where="abstract; Table (GenEval, DPG-Bench)",
              text="UniMRG simultaneously boosts generation capabilities",
              check=NotRun(method=FULL, reason="text-to-image generation of a UMM (GenEval, "
                                                "DPG-Bench) cannot run here"),
              paper_value="\"while simultaneously boosting generation capabilities\" (abstract)",
              source="paper"),
        Claim(id="c11_across_umm_architectures", where="abstract",
              text="UniMRG is architecture-agnostic and helps across diverse UMM architectures",
              paper_value="\"a simple yet effective architecture-agnostic post-training "
                          "method\"; \"Extensive experiments across diverse UMM architectures "
                          "demonstrate that our method notably enhances fine-grained "
                          "perception\" (abstract)",
              check=NotRun(method=FULL, reason="needs post-training several 1.5B+ unified "
                           "multimodal models with AR, MAR and diffusion generation heads; here "
                           "one small CNN with regression/classification decoders stands in"),
              source="paper"),
    ),
    headlines=(
        Headline(quote="UniMRG enhances the understanding capabilities of UMMs by incorporating "
                       "auxiliary generation tasks",
                 claims=("c1_improves_spatial_understanding",
                         "c2_spatial_gain_2_points")),
        Headline(quote="By synthesizing these diverse representations, UMMs capture rich "
                       "complementary information regarding appearance, spatial relations, and "
                       "structural layout",
                 claims=("c3_beats_reconstruction_only",)),
        Headline(quote="architecture-agnostic post-training method",
                 claims=("c11_across_umm_architectures",)),
        Headline(quote="Extensive experiments across diverse UMM architectures",
                 claims=("c11_across_umm_architectures",)),
        Headline(quote="notably enhances fine-grained perception",
                 claims=("c8_fine_grained_perception",)),
        Headline(quote="reduces hallucinations", claims=("c9_fewer_hallucinations",)),
        Headline(quote="improves spatial understanding",
                 claims=("c1_improves_spatial_understanding",
                         "c4_depth_generation_helps_closer")),
        Headline(quote="while simultaneously boosting generation capabilities",
                 claims=("c10_generation_boosted",)),
    ),
    grids={
        "smoke": Grid(datasets=sweep(DepthScenes, n_train=[64], n_test=[40]), seeds=1,
                      methods=_methods(steps=5, batch_size=16),
                      note="5 training steps: a wiring test, no claim can be decided"),
        "quick": Grid(datasets=sweep(DepthScenes, n_train=[600]), seeds=8, methods=_methods(),
                      note="600 training scenes, 800 AdamW steps of 64 scenes, 8 seeds (one "
                           "training run each), 500 held-out scenes x 4 questions; 523 "
                           "CPU-s measured (6 arms x 8 runs, 8-14 CPU-s per run)"),
        "full": Grid(datasets=sweep(DepthScenes, n_train=[600, 2400, 6000], n_test=[2000]),
                     seeds=20, methods=_methods(steps=4000, width=64),
                     note="a training-set-size dimension (600 / 2400 / 6000 scenes: whether the "
                          "signs of c1-c6 move with data), 5x the quick steps and a wider "
                          "encoder, 20 seeds: about 3 CPU-hours. Caution: with 2000 steps on "
                          "6000 scenes every arm reached .93-.98 spatial accuracy (2 private "
                          "seeds, constant-lr Adam), so p1's 0.95 ceiling may fail here (a "
                          "harder scene family would be needed)"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-06", claims=("c3_beats_reconstruction_only",),
                  what="source derived -> paper",
                  why="issue 26: a claim placed in the abstract is the paper's claim",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06", claims=("c7_generates_coherent_depth",),
                  what="source paper -> derived; where names it a sanity check of ours; check "
                       "and foil unchanged",
                  why="issue 30: a depth decoder trained on depth predicting depth is a sanity "
                      "check, not a statement of the abstract (the figure's claim was read only "
                      "in third-party summaries)",
                  results_seen=True,
                  rule="issue 26: source by placement (a check the abstract does not state is "
                       "derived)"),
        Amendment(date="2026-12-06", claims=("c11_across_umm_architectures",),
                  what="not_run paper claim added for 'architecture-agnostic' / 'across diverse "
                       "UMM architectures'; headlines declared (8 statements of the ICML "
                       "abstract)",
                  why="issue 30: every checkable statement of the abstract is mapped to a claim",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=(
                      "c1_improves_spatial_understanding", "c2_spatial_gain_2_points",
                      "c3_beats_reconstruction_only", "c4_depth_generation_helps_closer",
                      "c5_depth_helps_most_vs_recon", "c6_depth_helps_most_vs_seg",
                      "c7_generates_coherent_depth", "c8_fine_grained_perception",
                      "c9_fewer_hallucinations", "c10_generation_boosted",
                      "c11_across_umm_architectures"),
                  what="code only: the decoders are trained against targets permuted once into "
                       "their pre-PixelShuffle order (no shuffle and unshuffle at every step; "
                       "the same gradients), only the trained kinds' targets are gathered, "
                       "Adam with foreach (the same update), the renderer's pixel grid computed "
                       "once; grid, seeds, steps, models and data unchanged",
                  why="issue 27 item 5: quick-grid CPU 318 -> 284 CPU-s (48 cells, claimbench "
                      "verify, every committed quick cell re-run)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (claimbench verify)"),
        Amendment(date="2026-12-06", claims=('c10_generation_boosted', 'c11_across_umm_architectures', 'c1_improves_spatial_understanding', 'c2_spatial_gain_2_points', 'c3_beats_reconstruction_only', 'c4_depth_generation_helps_closer', 'c5_depth_helps_most_vs_recon', 'c6_depth_helps_most_vs_seg', 'c7_generates_coherent_depth', 'c8_fine_grained_perception', 'c9_fewer_hallucinations'),
                  what='baselines/auxiliary_dense_decoding.py takes the segmentation argmax with numpy (same indices and dtype); grids, seeds, steps, checks and foils unchanged',
                  why='issue 27 item 5 (quick-suite CPU): 336 values of the 48 quick cells compared with a fresh run: 0 differences; predict 0.62x (about 0.4 % of the benchmark)',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06",
                  claims=("c1_improves_spatial_understanding", "c2_spatial_gain_2_points",
                          "c3_beats_reconstruction_only", "c4_depth_generation_helps_closer",
                          "c5_depth_helps_most_vs_recon", "c6_depth_helps_most_vs_seg",
                          "p1_baseline_competent_not_saturated"),
                  what="premise p1_baseline_competent_not_saturated added (understanding_only "
                       "mean acc_spatial in [0.5, 0.95], gating c1-c6); the notes of c1-c6 "
                       "record a private data-size sweep (600 / 2400 / 6000 training scenes, "
                       "2 seeds, quick's settings; no sign of c3-c6 turns positive; runs stuck "
                       "at chance set the signs); full grid n_train [600, 5000] -> [600, 2400, "
                       "6000]; quick grid, checks, thresholds, foils and seeds unchanged",
                  why="issue 30: the auxiliary losses hurt at 600 scenes, so data size had to "
                      "be swept before reading c3-c6; rule 4: a premise that the baseline is "
                      "competent and not saturated. Sweep and threshold declared in a plan "
                      "before the sweep ran; the quick results had been seen",
                  results_seen=True),
        Amendment(date="2026-12-07",
                  claims=(
                      "c1_improves_spatial_understanding", "c2_spatial_gain_2_points",
                      "c3_beats_reconstruction_only", "c4_depth_generation_helps_closer",
                      "c5_depth_helps_most_vs_recon", "c6_depth_helps_most_vs_seg",
                      "c7_generates_coherent_depth", "c8_fine_grained_perception",
                      "c9_fewer_hallucinations", "c10_generation_boosted",
                      "c11_across_umm_architectures"),
                  what="code only (baselines/auxiliary_dense_decoding.py): the auxiliary loss "
                       "sum drops its exact no-ops (the zero start, unit-weight products, and "
                       "the zero added when an arm has no decoder), the batch's questions and "
                       "answers are one index_select each on flattened tensors, only the last "
                       "20 QA losses are read back, evaluation runs under inference_mode; "
                       "grid, seeds, steps, models, data and optimizer unchanged",
                  why="issue 27 item 5: quick grid CPU 260 -> about 252 CPU-s (estimate from "
                      "10 back-to-back training runs of the old and new code on a loaded "
                      "machine: 59.8 -> 55.0 CPU-s, about 3 % without the first warm-up pair; "
                      "per-step graph and indexing overhead)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (compared cell by cell with a fresh "
                       "run: 0 differences)"),
        Amendment(date="2026-12-07",
                  claims=(
                      "c1_improves_spatial_understanding", "c2_spatial_gain_2_points",
                      "c3_beats_reconstruction_only", "c4_depth_generation_helps_closer",
                      "c5_depth_helps_most_vs_recon", "c6_depth_helps_most_vs_seg",
                      "c7_generates_coherent_depth", "c8_fine_grained_perception",
                      "c9_fewer_hallucinations", "c10_generation_boosted",
                      "c11_across_umm_architectures", "p1_baseline_competent_not_saturated",
                      "p2_no_stuck_run_understanding_only",
                      "p3_no_stuck_run_recon_aux", "p4_no_stuck_run_unimrg",
                      "p5_no_stuck_run_depth", "p6_no_stuck_run_seg"),
                  what="every arm (method, baselines, mutant) trains with the optimiser of the "
                       "authors' code base (Harmon's training config, the base of the UniMRG "
                       "repository's Harmon branch): AdamW betas (0.9, 0.95), weight decay 0.02, "
                       "gradient-norm clipping 1.0, a linear warm-up from 1e-5 x lr over 10 % of "
                       "the steps (Harmon: 1 %), then constant lr 2e-3 (Harmon: cosine decay), "
                       "for 800 steps instead of 400 (method deviation 6); before: constant-lr "
                       "Adam, no clipping, no warm-up, 400 steps. Data, grid, seeds, checks, "
                       "thresholds and foils unchanged; quick CPU 237 -> 523 CPU-s (measured, "
                       "48 cells). Premises "
                       "p2-p6 added: no run of an arm the claims compare stays at chance (min "
                       "acc_spatial >= 0.60), each gating the claims that read its arm",
                  why="issue 30 / round 4: 6 of 40 non-mutant quick runs stayed at chance and "
                      "set the signs of c3-c6 (a training failure, not the paper's effect). "
                      "Diagnosis (committed stuck runs reproduced): the QA head sits on a chance "
                      "plateau of the order-dependent yes/no relation questions (answer = "
                      "relation XOR question order) and 400 steps are at the edge of the escape "
                      "time, which the auxiliary losses lengthen; in the stuck baseline run the "
                      "first full-lr Adam steps also silenced half the encoder's output units "
                      "(17 of 32 channels never active, vs 6 in a competent run). Steps, in "
                      "order, each written in a plan before it ran: (1) Harmon's recipe as is "
                      "(1 % warm-up, cosine): a pilot on the two baselines only (8 fresh seeds "
                      "no grid uses) left 2 of 16 runs below .60; (2) the declared fallback, a "
                      "10 % warm-up: 0 of 16 baseline pilot runs below .60, but the private "
                      "quick grid failed p2 and p4-p6 (understanding_only 2 of 8, auxiliary "
                      "arms 20 of 24 runs below .60: the decay leaves ~45 % of the lr a "
                      "constant-lr run gets); (3) the last try, declared before it ran with the "
                      "rule 'keep it if p2-p6 pass, else revert to the committed training': "
                      "constant lr after the warm-up and 800 steps; it passed. The committed "
                      "quick results had been seen (post hoc for c1-c7)",
                  results_seen=True),
    ),
)
