"""PUMA (progressive unmasking) against uniform-masking MDM training on generated Sudoku.

A bidirectional tiny transformer is trained as a masked diffusion model twice per seed, with the
same data, initialisation, optimiser and steps: once with the standard uniform forward process,
once with PUMA's streaming pool that reveals the model's most confident masked cells (teacher
forced) across K stages. Both are scored along training by top-1-confidence decoding of held-out
puzzles; steps-to-target is the first evaluated step reaching 90% of the uniform run's final
accuracy. Random-order decoding is reported too. Mutants of PUMA (random reveal order, least
confident first) are the foils.
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
from claimbench.baselines.masked_diffusion import MaskedDiffusion
from claimbench.checks import Better, NotRun, Ratio, Value
from claimbench.datasets.sudoku import Sudoku
from claimbench.methods.puma import PUMA


BASE = "mdm_uniform"
RANDOM_REVEAL = "puma[mutant=random_reveal]"
ANTI = "puma[mutant=anti_confidence]"


def _cell_acc(inst, out):
    # Blank cells equal to the generator's solution (a puzzle may have other valid completions,
    # so this is a lower bound on per-cell correctness; final_acc is the primary metric).
    puzzles, sol = inst.data["test_puzzles"], inst.truth["test_solutions"]
    blank = puzzles == 0
    return float(np.sum((out["answers"] == sol) & blank) / np.sum(blank))


METRICS = (
    output_metric("final_acc", True, "fraction of test puzzles solved (valid grid agreeing with "
                  "every clue) by top-1-confidence decoding, 1 cell per forward pass"),
    output_metric("steps_to_target", False, "first evaluated step (every eval_every steps, on "
                  "n_eval test puzzles) whose confidence-decoding accuracy reaches 0.9 x the "
                  "uniform-masking run's final accuracy (same seed); steps + eval_every if never"),
    output_metric("random_order_acc", True, "fraction of test puzzles solved by random-order "
                  "decoding (uniformly random masked cell each pass, argmax token)"),
    output_metric("order_gap", True, "final_acc - random_order_acc: how much the model relies "
                  "on confidence-ordered decoding ('higher' = more reliance, not better)"),
    Metric("cell_acc", _cell_acc, True, "blank cells equal to the generator's solution "
           "(confidence decoding)"),
    output_metric("target_reached", True, "1 if the target was reached within the run"),
    output_metric("cpu_s", False, "process CPU seconds of the cell (training unless cached)"),
)

# Blank cells (min, max) of the quick grid's 4 x 4 puzzles, chosen on the uniform baseline
# alone (pilot seeds 9001-9003, never a PUMA arm) by a rule fixed beforehand: the first of
# (12, 13), (13, 14), (14, 15) whose baseline solves 0.5-0.95 of the test puzzles (pilot means:
# (12, 13) 0.952, (13, 14) 0.866). The default 9-11 blanks (the research note's 45-55 of 81)
# left the baseline saturated (0.996).
_QUICK_BLANKS = (13, 14)

_SMOKE = dict(steps=40, eval_every=20, n_eval=16, warmup=5)
# Full: the research note's model (4 layers, d = 128) at 6 x 6 and 9 x 9.
_FULL = dict(d_model=128, n_layers=4, steps=20000, eval_every=200, n_eval=256, warmup=500,
             lr=3e-4)


def _methods(**kw) -> tuple:
    return (cfg(MaskedDiffusion, label=BASE, **kw),
            cfg(PUMA, label="puma", **kw),
            cfg(PUMA, label=RANDOM_REVEAL, mutant="random_reveal", **kw),
            cfg(PUMA, label=ANTI, mutant="anti_confidence", **kw))


_SPEED_FOILS = (RANDOM_REVEAL, ANTI)
_SPEED_FOIL_NOTE = ("'Inference-aligned masks speed training up' says that the confidence order "
                    "is what helps: the same K-stage pool revealing random cells (alignment "
                    "removed) or the least confident cells first (anti-aligned) must not reach "
                    "the target that much sooner.")
_PAPER_SPEED = ('"Empirically, PUMA speeds up pretraining at the 125M scale by $\\approx 2.3 \\times$" '
                '(abstract; the arXiv v1 abstract said about 2.5x; TinyGSM per the research note)')

# c1 reads the abstract's "speeding up training" (a direction: speed-up ratio >= 1); the 2.3x
# belongs to the 125M TinyGSM run (c6, not run); c2 carries the research note's 1.5x reading.
_PAPER_C1 = ('"focusing optimization on *inference-aligned masks* and speeding up training" '
             '(abstract): a speed-up, ratio >= 1 by the words; the number, "$\\approx 2.3 '
             '\\times$", is at the 125M scale (c6)')

# The ICML abstract's words, quoted by the headlines and the claims placed there.
_Q_ALIGN = ("focusing optimization on *inference-aligned masks* and speeding up training")
_Q_125M = "PUMA speeds up pretraining at the 125M scale by"
_Q_AR_INIT = ("offers complementary advantages on top of common recipes like autoregressive "
              "initialization")

BENCHMARK = Benchmark(
    slug="puma",
    paper=Paper(
        title="Stop Training for the Worst: Progressive Unmasking Accelerates Masked Diffusion "
              "Training",
        arxiv="2602.10314",
        url="https://arxiv.org/abs/2602.10314",
        version="official code JaeyeonKim01/PUMA (progressive.py, train.py, sampling.py, "
                "Sudoku yaml); paper text not read, numbers via the research note",
        authors="Jaeyeon Kim, Jonas Geuter, David Alvarez-Melis, Sham Kakade, Sitan Chen",
    ),
    area="tiny_lm",
    fidelity="scaled_down",
    fidelity_note=("PUMA's pool and the MDM loss follow the official code step for step; the "
                   "scale does not: a 2-layer d = 64 transformer on 4 x 4 Sudoku (13-14 of 16 "
                   "cells blank) for 600 steps (quick), against an 8-layer d = 256 model on "
                   "9 x 9 Sudoku for 2 epochs; "
                   "generated puzzles with the clues as in-place prompt tokens and row/column/"
                   "box embeddings instead of the code's 162-token [puzzle | solution] layout "
                   "with RoPE. The paper's headline speedup is at 125M on TinyGSM, which "
                   "cannot run here."),
    methods=(PUMA,),
    baselines=(MaskedDiffusion,),
    datasets=(Sudoku,),
    metrics=METRICS,
    primary_metric="final_acc",
    nondeterministic={"cpu_s": TIMING_RTOL},
    unit=("size",),
    claims=(
        Claim(id="c1_fewer_steps_to_target", where="abstract; issue 15",
              text="PUMA reaches the uniform-masking baseline's target accuracy in fewer steps",
              paper_value=_PAPER_C1,
              check=Ratio(numerator=BASE, denominator="puma", metric="steps_to_target",
                          at_least=1.0),
              subject="puma", source="paper",
              foils=_SPEED_FOILS, foil_note=_SPEED_FOIL_NOTE,
              note="Speedup = baseline steps / PUMA steps to 0.9 x the baseline's final "
                   "accuracy (same seed, same data, same optimiser and steps), geometric mean "
                   "over seeds; > 1 is the paper's direction. Our setting (Sudoku, tiny model) "
                   "differs from the 2.5x measurement (TinyGSM, 125M)."),
        Claim(id="c2_speedup_at_least_1p5", where="research note plan (abstract's 2.3-2.5x)",
              text="the speedup to the target is at least 1.5x",
              check=Ratio(numerator=BASE, denominator="puma", metric="steps_to_target",
                          at_least=1.5),
              paper_value=_PAPER_SPEED,
              subject="puma", source="paper",
              foils=_SPEED_FOILS, foil_note=_SPEED_FOIL_NOTE,
              note="The research note's threshold (1.5x, below the paper's 2.3-2.5x at 125M "
                   "scale). Issue 26: a reading of the abstract's speed-up, so the paper's "
                   "claim (by placement); the 1.5x bound is the research note's."),
        Claim(id="c3_final_accuracy_not_worse", where="issue 15; research note plan",
              text="PUMA's final accuracy is no worse than the baseline's (within 2 points)",
              check=Better(method="puma", baseline=BASE, metric="final_acc", margin=-0.02),
              source="derived",
              foils=(ANTI,),
              foil_note="Training only on masks that confidence decoding never produces "
                        "(least confident revealed first) must cost final accuracy.",
              note="Non-inferiority at -0.02 (2 points of puzzle accuracy), the research note's "
                   "margin; paired by seed."),
        Claim(id="c4_relies_on_confidence_order", where="research note (Confidence-Shortcut "
                                                        "counterpoint, arXiv 2605.29123)",
              text="PUMA loses more than the baseline when decoding in random order",
              check=Better(method="puma", baseline=BASE, metric="order_gap", margin=0.0),
              source="derived",
              foils=(RANDOM_REVEAL, ANTI),
              foil_note="Pools that reveal cells in random or anti-confidence order do not "
                        "train on confidence-ordered states, so they must not specialise to "
                        "confidence decoding more than the uniform baseline.",
              note="order_gap = confidence-decoding accuracy - random-order accuracy; the "
                   "research note expects PUMA to lose more under random order."),
        Claim(id="c5_cell_accuracy_not_worse", where="issue 15; research note plan",
              text="PUMA's per-cell accuracy is no worse than the baseline's (within 2 points)",
              check=Better(method="puma", baseline=BASE, metric="cell_acc", margin=-0.02),
              source="derived",
              foils=(ANTI,),
              foil_note="As c3: anti-aligned training masks must cost accuracy.",
              note="The research note's table column cell_acc with c3's margin: blank cells "
                   "equal to the generator's solution under confidence decoding (a lower "
                   "bound on correctness when a puzzle has several solutions)."),
        Claim(id="c6_speedup_125m", where="abstract",
              text="about 2.3x faster pretraining at the 125M scale",
              paper_value=_PAPER_SPEED,
              check=NotRun(method="puma", reason=(
                  "needs 125M-parameter masked-diffusion pretraining (TinyGSM per the research "
                  "note), GPU-days per run; c1 and c2 check the speed-up's direction and the "
                  "note's 1.5x on Sudoku with a tiny model")),
              source="paper"),
        Claim(id="c7_complementary_to_ar_init", where="abstract",
              text="PUMA's advantage adds to autoregressive initialisation",
              paper_value="\"" + _Q_AR_INIT + "\" (abstract)",
              check=NotRun(method="puma", reason=(
                  "needs an autoregressive pre-training stage (a causal copy of the model "
                  "trained left to right, then converted to bidirectional masked diffusion) "
                  "before both arms, i.e. a second training recipe the toolkit's masked-"
                  "diffusion trainer does not have; the paper shows it at 125M on TinyGSM "
                  "(Figure 1). Check to build: PUMA and uniform masking both started from the "
                  "same AR-pretrained copy; PUMA's speed-up to the target must persist there")),
              source="paper"),
    ),
    headlines=(
        Headline(quote=_Q_ALIGN, claims=("c1_fewer_steps_to_target", "c2_speedup_at_least_1p5")),
        Headline(quote=_Q_125M, claims=("c1_fewer_steps_to_target", "c2_speedup_at_least_1p5",
                                        "c6_speedup_125m")),
        Headline(quote=_Q_AR_INIT, claims=("c7_complementary_to_ar_init",)),
    ),
    premises=(
        Premise(id="p_uniform_not_saturated",
                text="the uniform-masking baseline is not saturated: its mean final puzzle "
                     "accuracy is below 0.99 (more than 1 point below the maximum, 1)",
                check=Value(method=BASE, metric="final_acc", hi=0.99, stat="mean"),
                claims=("c1_fewer_steps_to_target", "c2_speedup_at_least_1p5",
                        "c3_final_accuracy_not_worse", "c5_cell_accuracy_not_worse"),
                note="Issue 28: on 4 x 4 Sudoku with 9-11 blanks the baseline solved 0.996; both "
                     "arms then reach the target a few evaluations apart and tie at the end, so "
                     "a speed-up or a non-inferiority says nothing of the method. 'Saturated' = "
                     "within 1 point of the maximum, by definition."),
        Premise(id="p_uniform_competent",
                text="the uniform-masking baseline is competent: its mean final puzzle accuracy "
                     "is at least 0.5 (it solves at least half of the test puzzles)",
                check=Value(method=BASE, metric="final_acc", lo=0.5, stat="mean"),
                claims=("c1_fewer_steps_to_target", "c2_speedup_at_least_1p5",
                        "c3_final_accuracy_not_worse", "c5_cell_accuracy_not_worse"),
                note="Issue 28 (round 4): the harder quick puzzles (13-14 of 16 cells blank) "
                     "must not push the baseline to where it learns nothing, which would make "
                     "a speed-up to 0.9 x its final accuracy meaningless. 0.5 was fixed before "
                     "any run at 13-14 blanks; the blank range was then chosen (on the baseline "
                     "alone, pilot seeds) so that this should hold."),
    ),
    grids={
        "smoke": Grid(datasets=sweep(Sudoku, size=[4], n_train=[500], n_test=[32]), seeds=1,
                      methods=_methods(**_SMOKE),
                      note="40 training steps: a wiring test, no claim can be decided"),
        "quick": Grid(datasets=sweep(Sudoku, size=[4], min_blank=[_QUICK_BLANKS[0]],
                                     max_blank=[_QUICK_BLANKS[1]]),
                      seeds=7, methods=_methods(),
                      note="4 x 4 Sudoku with 13-14 of the 16 cells blank (2-3 clues; any "
                           "valid completion counts), 2-layer d = 64, 600 steps, 7 seeds "
                           "(~4.7 CPU-min); with 9-11 blanks the baseline saturated (0.996) and "
                           "6 x 6 did not learn within this budget on one core"),
        "full": Grid(datasets=sweep(Sudoku, size=[6, 9], n_train=[200000], n_test=[500]),
                     seeds=5, methods=_methods(**_FULL),
                     note="research note's model (4 layers, d = 128, lr 3e-4) for 20k steps on "
                          "6 x 6 and 9 x 9; about 6 CPU-hours per 9 x 9 run and 2 per 6 x 6 run "
                          "on one core (training plus the accuracy curve), ~160 CPU-hours in "
                          "all: meant for a GPU"),
    },
    amendments=(
        Amendment(date="2026-12-06", claims=("c2_speedup_at_least_1p5",),
                  what="source derived -> paper; paper_value quotes the ICML abstract's ~2.3x",
                  why="placed in the abstract (the research note's 1.5x reading of the "
                      "abstract's speed-up), so filed as the paper's claim",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06",
                  claims=("c6_speedup_125m", "c7_complementary_to_ar_init",
                          "p_uniform_not_saturated"),
                  what="headlines declared (3 checkable statements of the ICML abstract); not_run "
                       "c6 (the 2.3x at 125M) and c7 (complementary to AR initialisation); premise "
                       "p_uniform_not_saturated (baseline final accuracy < 0.99) gates c1, c2, c3, "
                       "c5",
                  why="issue 28: abstract statements with no claim are listed with their reason; "
                      "the 4 x 4 baseline saturates (0.996), which leaves the speed-up no room; "
                      "the bound is the definition of saturation",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_fewer_steps_to_target', 'c2_speedup_at_least_1p5', 'c3_final_accuracy_not_worse', 'c4_relies_on_confidence_order', 'c5_cell_accuracy_not_worse', 'c6_speedup_125m', 'c7_complementary_to_ar_init'),
                  what="the masked-diffusion models train with foreach Adam/AdamW (one call per step for the parameter list, the per-tensor loop's arithmetic)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06",
                  claims=("c1_fewer_steps_to_target", "c2_speedup_at_least_1p5",
                          "c3_final_accuracy_not_worse", "c4_relies_on_confidence_order",
                          "c5_cell_accuracy_not_worse", "c6_speedup_125m",
                          "p_uniform_not_saturated"),
                  what="quick grid data: 4 x 4 puzzles with 13-14 of the 16 cells blank (was "
                       "9-11, the research note's 45-55 of 81 scaled); model, steps, lr, seeds, "
                       "arms and thresholds unchanged",
                  why="issue 28: the uniform baseline saturated (0.996 solved), so "
                      "p_uniform_not_saturated failed and c1, c2, c3, c5 could not be read; "
                      "harder puzzles (fewer clues) are the cheapest way to a baseline that is "
                      "competent but not saturated (6 x 6 did not learn in the budget). The "
                      "range was picked on the uniform baseline alone (pilot seeds 9001-9003, "
                      "no PUMA arm run) by a rule written down beforehand: the first of "
                      "(12, 13), (13, 14), (14, 15) blanks whose baseline solves 0.5-0.95 "
                      "(pilot: 0.952, 0.866)",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("p_uniform_competent",),
                  what="new premise: the baseline's mean final accuracy >= 0.5, gating c1, c2, "
                       "c3, c5",
                  why="issue 28: a premise that the baseline is competent (a speed-up to 0.9 x "
                      "a baseline that learned nothing says nothing); declared before any run "
                      "at the new blank range",
                  results_seen=False),
        Amendment(date="2026-12-06", claims=("c1_fewer_steps_to_target",),
                  what="paper_value re-pointed from the abstract's 2.3x at 125M to its words "
                       "'speeding up training' (threshold unchanged: ratio >= 1)",
                  why="issue 28: c1's ratio >= 1 is the direction the words state; the 2.3x is "
                      "the 125M TinyGSM number (c6, not run) and the 1.5x reading is c2's",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c7_complementary_to_ar_init",),
                  what="not_run reason restated: what is missing (an AR pre-training stage) and "
                       "the check to build",
                  why="issue 28: 'complementary to AR initialisation' stays not_run with its "
                      "reason",
                  results_seen=True),
        Amendment(date="2026-12-07",
                  claims=("c1_fewer_steps_to_target", "c2_speedup_at_least_1p5",
                          "c3_final_accuracy_not_worse", "c4_relies_on_confidence_order",
                          "c5_cell_accuracy_not_worse", "c6_speedup_125m",
                          "c7_complementary_to_ar_init"),
                  what="datasets/sudoku.py random_solutions draws each run of equal-length "
                       "permutations with one rng.permuted call (the same draws in the same "
                       "order as the per-permutation calls) and assembles all grids at once; "
                       "the generated data are equal bit for bit (a test compares them with the "
                       "one-at-a-time loop)",
                  why="issue 27 item 5: quick grid CPU of the data generation (7 Sudoku.make "
                      "calls, once per rep) 3.3 -> 0.9 CPU-s; the cells' own cpu_s is unchanged",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (compared cell by cell with a fresh "
                       "run: 0 differences)"),
    ),
    cost_note=("The quick grid trains 28 models, 4 arms (mdm_uniform, puma, 2 puma mutants) x 7 "
               "seeds of a 2-layer d = 64 transformer for 600 steps on 4 x 4 Sudoku with 13-14 "
               "of 16 cells blank, ~10 CPU-s each (280 CPU-s measured, 4.7 CPU-min). Issue 28 "
               "(round 4): with 9-11 blanks the grid cost 246 CPU-s (4.1 CPU-min) but the "
               "baseline saturated (0.996 solved), failing p_uniform_not_saturated; the harder "
               "puzzles add about 34 CPU-s (+14 %: 13-14 decoding passes per puzzle instead of "
               "9-11) and are what that premise needs. All four arms are read by "
               "c1_fewer_steps_to_target, c2_speedup_at_least_1p5 and "
               "c4_relies_on_confidence_order, the baseline also by p_uniform_not_saturated and "
               "p_uniform_competent; 6 x 6 did not learn in this budget. No cell feeds tables "
               "only."),
    description=__doc__.split("\n\n")[1].replace("\n", " "),
)
