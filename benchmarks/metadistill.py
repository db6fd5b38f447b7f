"""MetaDistill: distilled learnable optimizers generalise better than their original training.

A Learned Evolution Strategy (LES) is trained on five simple shifted functions in d = 5
(the code's CEC f2-f6 training set) either by MetaDistill (KL distillation of the
best-per-interval CMA-ES / DE trajectory) or by its original MetaBBO meta-training
(outer CMA-ES on the final best value, 13x more training rollouts, the code's ratio),
then frozen and run on held-out BBOB functions f1-f20, f23, f24 in d = 10 and 20 with a
budget of 50 generations. The score is the log10 optimality gap of the best point found.
CMA-ES and DE (the teachers) run on the same tasks for reference. The same frozen students
also run on one control task of the paper, Acrobot neuro-evolution (a 323-weight policy,
``datasets/metabbo_control.py``), scored by the steps their last generation's best policy
needs to reach the goal (c6).

The MetaBBO run yields two baselines: ``les_original`` takes the outer CMA-ES's final
mean; ``les_original_code`` takes the candidate the authors' script keeps (lowest
per-generation z-score over all meta-generations), which stops changing after an early
outlier.

Each training split (``split``) trains one optimizer per method that every held-out cell
of that split reuses, as one checkpoint is evaluated over all of BBOB in the paper. The
unit of replication is therefore the training run (``unit = ("split", "train_dim")``): the
cells of one run are averaged before any test, so the quick grid has 8 replicates, not 360:
the fewest whose exact one-sided signed-rank p (>= 2^-8 = 1/256) can pass the family's
worst-case Holm level 0.05 / 7 = 0.0071 (7 runs: 1/128 > 0.0071).

c5 repeats c1 with a second student, the Learned Genetic Algorithm (LGA), distilled from the
same teacher trajectories and trained by its own MetaBBO run (``lga_original``).
"""
from __future__ import annotations

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper,
                            Premise, TraceMetric, cfg, output_metric, sweep)
from claimbench.baselines.cma_es import CMAES
from claimbench.baselines.differential_evolution import DifferentialEvolution
from claimbench.baselines.learned_ga_original import LearnedGAOriginal
from claimbench.baselines.learned_optimizer_original import LearnedOptimizerOriginal
from claimbench.checks import Better, NotRun, Rank, Value
from claimbench.datasets.bbob_functions import IMPLEMENTED, log10_gap
from claimbench.datasets.metabbo_control import MAX_STEPS, MetaBBOControl
from claimbench.datasets.metabbo_transfer import MetaBBOTransfer
from claimbench.methods.metadistill import MetaDistill, MetaDistillLGA

MD, BASE, BASE_CODE, SSFT = "metadistill", "les_original", "les_original_code", "metadistill_ssft_j1"
# c5's second student: LGA distilled the same way, and LGA trained by MetaBBO (two selection rules)
MD_LGA, LGA, LGA_CODE = "metadistill_lga", "lga_original", "lga_original_code"
# Foil of c4 (not the paper's method): SSFT with the sign of its step flipped, i.e. ascent on
# the same self-supervised objective (methods/metadistill.py, Mutants). A test-time setting,
# so it reuses MetaDistill's trained weights.
SSFT_ASCENT = "metadistill_ssft_j1[mutant=ssft_ascent]"
# The authors' metric: the best of the last generation's population ("best-gen", the default
# curve of scripts/eval_compare_frameworks.py), not the best point found so far (issue 14).
METRIC = "log10_gap_last"
_METRIC_NOTE = (" Metric: log10 gap of the last generation's best (the authors'), not best-so-far "
                "(issue 14).")
# 8 training runs (units) in the quick and full grids: the exact one-sided signed-rank p can
# reach 2^-8 = 1/256 < 0.0071, the worst-case Holm level of the 7 judged claims (c1-c6);
# 7 runs could not (1/128 = 0.0078), and the former quick grid's 3 runs (1/8) never could.
_UNITS_NOTE = (" Units: 8 training runs in the quick and full grids, the fewest whose exact "
               "one-sided signed-rank p (>= 2^-8 = 1/256) can pass the worst-case Holm level "
               "0.05 / 7 = 0.0071 of the 7 judged claims (7 runs: 1/128 > 0.0071).")
# The ICML 2026 poster abstract, quoted in paper_value.
_GENERALIZES = ('"The results demonstrate that \\texttt{MetaDistill} significantly improves the generalization '
                'ability of various learnable optimizers compared to their original training paradigms" (abstract)')


def _log10_gap(inst, out):
    if "f_opt" not in inst.truth:  # a control cell (c6): no optimum, its own metrics
        return None
    return log10_gap(out["best_f"], inst.truth["f_opt"])


def _log10_gap_last(inst, out):
    if "last_f" not in out or "f_opt" not in inst.truth:
        return None
    return log10_gap(out["last_f"], inst.truth["f_opt"])


def _gap_trace(inst, out):
    tr = (out.get("traces") or {}).get("best_vs_evals")
    if not tr or "f_opt" not in inst.truth:
        return None
    return {"x": tr["x"], "y": [log10_gap(v, inst.truth["f_opt"]) for v in tr["y"]]}


def _control_steps_last(inst, out):
    """Control cells: -return (steps before the goal) of the last generation's best policy."""
    if "control" not in inst.truth or "last_f" not in out:
        return None
    return float(out["last_f"])


def _control_gain(inst, out):
    """Control cells: steps saved by the run, first traced best (the initial random population's
    for the learnable optimizers) minus the last generation's best."""
    tr = (out.get("traces") or {}).get("best_vs_evals")
    if "control" not in inst.truth or "last_f" not in out or not tr:
        return None
    return float(tr["y"][0]) - float(out["last_f"])


METHODS = (
    cfg(MetaDistill),
    cfg(MetaDistill, label=SSFT, ssft_interval=1),
    cfg(MetaDistill, label=SSFT_ASCENT, ssft_interval=1, mutant="ssft_ascent"),
    cfg(LearnedOptimizerOriginal),
    cfg(LearnedOptimizerOriginal, label=BASE_CODE, selection="best_zscore"),
    cfg(CMAES),
    cfg(DifferentialEvolution),
    cfg(MetaDistillLGA),
    cfg(LearnedGAOriginal),
    cfg(LearnedGAOriginal, label=LGA_CODE, selection="best_zscore"),
)
_SMOKE_METHODS = (  # tiny training runs: the smoke grid only exercises the code paths
    cfg(MetaDistill, label=MD, epochs=2, teacher_epochs=1, train_generations=10, popsize=8),
    cfg(MetaDistill, label=SSFT, epochs=2, teacher_epochs=1, train_generations=10, popsize=8,
        ssft_interval=1),
    cfg(MetaDistill, label=SSFT_ASCENT, epochs=2, teacher_epochs=1, train_generations=10,
        popsize=8, ssft_interval=1, mutant="ssft_ascent"),
    cfg(LearnedOptimizerOriginal, label=BASE, meta_generations=1, meta_popsize=4,
        train_generations=10, popsize=8),
    cfg(LearnedOptimizerOriginal, label=BASE_CODE, meta_generations=1, meta_popsize=4,
        train_generations=10, popsize=8, selection="best_zscore"),
    cfg(CMAES, label="cma_es", popsize=8),  # labelled as in the other grids: a foil of c1-c3
    cfg(DifferentialEvolution, popsize=8),
    cfg(MetaDistillLGA, label=MD_LGA, epochs=2, teacher_epochs=1, train_generations=10, popsize=8),
    cfg(LearnedGAOriginal, label=LGA, meta_generations=1, meta_popsize=4, train_generations=10,
        popsize=8),
    cfg(LearnedGAOriginal, label=LGA_CODE, meta_generations=1, meta_popsize=4,
        train_generations=10, popsize=8, selection="best_zscore"),
)

BENCHMARK = Benchmark(
    slug="metadistill",
    paper=Paper(
        title="MetaDistill: Unlocking the Performance Ceiling for Pretrained Optimizers",
        arxiv="",
        url="https://icml.cc/virtual/2026/poster/62149",
        version="ICML 2026 abstract + authors' code (github.com/Roki-Xing/MetaDistill)",
        authors="Muqi Han, Ruoqi Xing, Kai Wu, Xiaoyu Zhang, Handing Wang, Zilong Wang",
    ),
    area="optimization",
    fidelity="scaled_down",
    methods=(MetaDistill,),
    baselines=(LearnedOptimizerOriginal, CMAES, DifferentialEvolution, LearnedGAOriginal),
    datasets=(MetaBBOTransfer, MetaBBOControl),
    metrics=(
        Metric("log10_gap_last", _log10_gap_last, False,
               "log10(f(best of the final generation's population) - f*), floored at -8: the "
               "authors' metric (eval_compare_frameworks.py, curve 'best-gen', its default)"),
        Metric("log10_gap", _log10_gap, False,
               "log10(f(best point found so far) - f*), floored at -8 (best-so-far)"),
        Metric("control_steps_last", _control_steps_last, False,
               f"control cells (Acrobot): -return of the last generation's best policy, i.e. the "
               f"steps before it reaches the goal ({MAX_STEPS} if never); the authors' final_best"),
        Metric("control_gain", _control_gain, True,
               "control cells: steps-to-goal of the first traced best (the initial uniform "
               "population for the learnable optimizers) minus the last generation's best"),
        output_metric("time_s", description="seconds of the test-time run (training excluded)"),
        output_metric("train_time_s", description="seconds of (cached) training, learnable optimizers only"),
    ),
    primary_metric="log10_gap_last",
    nondeterministic={"time_s": TIMING_RTOL, "train_time_s": TIMING_RTOL},
    traces=(TraceMetric("log10_gap_vs_evals", _gap_trace, "evaluations", "log10 gap"),),
    claims=(
        Claim(
            id="c1_beats_original_training",
            grids=("quick", "full"),  # 8 units each (smoke's 1 cannot decide it)
            where="abstract; BBOB figures",
            text="MetaDistill significantly improves the generalization ability of learnable "
                 "optimizers compared to their original training paradigms",
            check=Better(MD, BASE, METRIC),
            note="LES student; paired over training runs (splits), each the mean over its held-out "
                 "(BBOB function, dimension) cells; one-sided test at 0.05 ('significantly'). Both "
                 "students are frozen (no SSFT). Baseline weights = the final mean of the outer "
                 "CMA-ES (the usual MetaBBO output)."
                 + _METRIC_NOTE + _UNITS_NOTE,
            paper_value=_GENERALIZES, source="paper", foils=(BASE_CODE, "cma_es"),
            foil_note="The authors' checkpoint of the same original meta-training is a product "
                      "of the original paradigm, and CMA-ES (a teacher, run directly) is no "
                      "learnable optimizer: neither may pass as improving on original training.",
        ),
        Claim(
            id="c1b_beats_original_training_code_checkpoint",
            grids=("quick", "full"),  # 8 units each (smoke's 1 cannot decide it)
            where="abstract; authors' code (scripts/train_metabbo_les.py)",
            text="MetaDistill significantly improves the generalization ability of learnable "
                 "optimizers compared to their original training paradigms",
            check=Better(MD, BASE_CODE, METRIC),
            note="Same meta-training run as c1, but the baseline keeps the candidate with the lowest "
                 "per-generation z-score over all meta-generations, as the authors' script does."
                 + _METRIC_NOTE + _UNITS_NOTE,
            paper_value=_GENERALIZES, source="paper", foils=(BASE, "cma_es"),
            foil_note="The original paradigm's own final mean (les_original) and the CMA-ES "
                      "teacher run directly are no distilled optimizer: if they also beat the "
                      "code's checkpoint, beating it says nothing about distillation.",
        ),
        Claim(
            id="c2_wins_most_functions",
            grids=("quick", "full"),  # 8 units each (smoke's 1 cannot decide it)
            where="abstract; BBOB figures",
            text="MetaDistill improves the learnable optimizer on unseen objective landscapes",
            check=Rank(MD, METRIC, k=1, among=(MD, BASE)),
            note="'Improves generalization' read as: a lower average rank than the originally "
                 "trained LES, over training runs (splits) as blocks, each the mean over its "
                 "held-out (function, dim) cells (the research note's '>= 60% of cells' is not "
                 "the paper's number)."
                 + _METRIC_NOTE + _UNITS_NOTE,
            paper_value=_GENERALIZES, source="paper", foils=(BASE_CODE, "cma_es"),
            foil_note="As c1: the code's checkpoint of the original training and the CMA-ES "
                      "teacher in MetaDistill's place must not rank first against les_original.",
        ),
        Claim(
            id="c3_beats_original_largest_dim",
            grids=("quick", "full"),  # 8 units each (smoke's 1 cannot decide it)
            where="BBOB figures (d = 30-300, trained at d = 10)",
            text="the improvement holds in dimensions far above the training dimension",
            check=Better(MD, BASE, METRIC, where={"dim": 20}),
            note="Our largest quick-grid dimension, 4x the training dimension 5 (paper: 3-30x). "
                 "The paper's figures were not read: the dimensions come from the authors' "
                 "evaluation scripts, so this is our derivation of the abstract's claim."
                 + _METRIC_NOTE + _UNITS_NOTE,
            paper_value=_GENERALIZES, source="derived", foils=(BASE_CODE, "cma_es"),
            foil_note="As c1, at d = 20.",
        ),
        Claim(
            id="c4_ssft_refines",
            grids=("quick", "full"),  # 8 units each (smoke's 1 cannot decide it)
            where="abstract (optional fine-tuning stage)",
            text="self-supervised fine-tuning further refines the distilled knowledge on unseen tasks",
            check=Better(SSFT, MD, METRIC),
            note="SSFT with j = 1 and lr 1e-4 (the code's settings); the objective's gradient is "
                 "replaced by a least-squares linear fit over the population (black box)."
                 + _METRIC_NOTE + _UNITS_NOTE,
            paper_value='"In the optional fine-tuning stage, we perform self-supervised fine-tuning as a '
                        'warm-start procedure to further refine the distilled knowledge on unseen tasks" '
                        '(abstract)',
            source="paper", foils=(SSFT_ASCENT,),
            foil_note="SSFT with its step's sign flipped (ascent on the same objective) cannot "
                      "refine anything: if it also passes, SSFT's effect is noise.",
        ),
        Claim(
            id="c5_various_learnable_optimizers",
            grids=("quick", "full"),  # 8 units each (smoke's 1 cannot decide it)
            where="abstract ('various learnable optimizers'); authors' code (optimizers/lga.py)",
            text="the improvement holds for various learnable optimizers, not LES alone: here LGA, "
                 "distilled against LGA trained by its original paradigm",
            check=Better(MD_LGA, LGA, METRIC),
            paper_value=_GENERALIZES, source="paper",
            note="Second student: the Learned Genetic Algorithm (LGA, the authors' optimizers/lga.py; "
                 "baselines/learned_ga_original.py), MetaBBO-trained as the code's "
                 "scripts/train_metabbo_lga.py (same settings as LES's), and distilled from the same "
                 "teacher trajectories with the same loss and optimiser as the authors' GradBasedLGA "
                 "(soft parents, straight-through selection). Paired over training runs on the same "
                 "held-out BBOB cells as c1; one-sided at the Holm level ('significantly'). LDE "
                 "(policy gradient) and POM are not built."
                 + _METRIC_NOTE + _UNITS_NOTE,
            foils=(LGA_CODE, "cma_es"),
            foil_note="As c1 for LGA: the code's checkpoint rule applied to the same original "
                      "meta-training is a product of the original paradigm, and CMA-ES (a "
                      "teacher, run directly) is no distilled learnable optimizer.",
        ),
        Claim(
            id="c6_control_tasks",
            grids=("quick", "full"),  # 8 units each (smoke's 1 cannot decide it)
            where="abstract (three control tasks); authors' code (tasks/neuroevolution, Acrobot)",
            text="MetaDistill improves the learnable optimizer over its original training on the "
                 "control tasks as on BBOB (here Acrobot, one of the three)",
            check=Better(MD, BASE, "control_steps_last"),
            paper_value=('"We evaluate our \\texttt{MetaDistill} framework on the BBOB test '
                         'suite and three control tasks" and ' + _GENERALIZES),
            source="paper",
            note="Acrobot-v1 neuro-evolution as the authors' tasks/neuroevolution (6-32-3 "
                 "leaky-ReLU policy, 323 weights in [-5, 5], episodes of at most 256 steps), "
                 "in numpy (datasets/metabbo_control.py); score = steps before the goal of the "
                 "last generation's best policy (256 if never), lower is better; paired over "
                 "the training runs (splits), one Acrobot cell each, with each split's frozen "
                 "BBOB-trained students (the authors use a separately distilled LES checkpoint "
                 "for control, of unstated training, and the same MetaBBO baseline). Threshold: "
                 "improvement > 0, one-sided at the Holm level ('significantly')." + _UNITS_NOTE + " "
                 "LunarLander and BipedalWalker need Box2D (not installed): not checked.",
            foils=(BASE_CODE, "cma_es"),
            foil_note="As c1: the code's checkpoint of the same original meta-training is a "
                      "product of the original paradigm, and CMA-ES (a teacher, run directly) is "
                      "no distilled learnable optimizer: neither may pass as improving on "
                      "original training.",
        ),
    ),
    premises=(
        Premise(id="p1_baseline_not_saturated",
                text="The originally trained LES (the reference of c1, c2, c3) is not at the "
                     "metric's floor on the held-out functions: its mean log10 gap over training "
                     "runs is above -7 (the floor -8 means solved to 1e-8), so there is room to "
                     "improve on it.",
                check=Value(method=BASE, metric=METRIC, lo=-7.0),
                claims=("c1_beats_original_training", "c2_wins_most_functions",
                        "c3_beats_original_largest_dim"),
                note="Threshold: one decade above the floor of log10_gap_last (-8), fixed before "
                     "the 7-run quick grid was run. A baseline that solves every held-out "
                     "function cannot be improved on, and c1-c3 would then test nothing."),
        Premise(id="p4_lga_baseline_not_saturated",
                text="The LGA trained by MetaBBO (c5's reference) is not at the metric's floor on "
                     "the held-out functions: its mean log10 gap over training runs is above -7.",
                check=Value(method=LGA, metric=METRIC, lo=-7.0),
                claims=("c5_various_learnable_optimizers",),
                note="As p1 for the second student; threshold fixed before any LGA cell was run "
                     "(round-6 plan addendum)."),
        Premise(id="p2_control_baseline_above_chance",
                text="On Acrobot the originally trained LES (c6's reference) does better than "
                     "the uniform random policies it starts from: its mean over training runs of "
                     "(steps-to-goal of the initial population's best - of the last generation's "
                     "best) is above 0.",
                check=Value(method=BASE, metric="control_gain", lo=0.0),
                claims=("c6_control_tasks",),
                note="Threshold fixed before any control cell was run (round-6 plan). A "
                     "baseline that never improves on random policies is not a competent "
                     "optimizer of the task, and beating it would say nothing."),
        Premise(id="p3_control_baseline_not_saturated",
                text="On Acrobot the originally trained LES is not at the task's floor: its mean "
                     "steps-to-goal over training runs is above 50, so there is room to improve.",
                check=Value(method=BASE, metric="control_steps_last", lo=50.0),
                claims=("c6_control_tasks",),
                note="Threshold fixed before any control cell was run (round-6 plan): the "
                     "fastest Acrobot-v1 swing-ups take roughly 40-60 steps (our estimate, no "
                     "number of the paper); below 50 a better optimizer could hardly gain."),
    ),
    headlines=(
        Headline(quote="The results demonstrate that \\texttt{MetaDistill} significantly "
                       "improves the generalization ability of various learnable optimizers "
                       "compared to their original training paradigms",
                 claims=("c1_beats_original_training",
                         "c1b_beats_original_training_code_checkpoint",
                         "c2_wins_most_functions", "c3_beats_original_largest_dim",
                         "c5_various_learnable_optimizers", "c6_control_tasks")),
        Headline(quote="we perform self-supervised fine-tuning as a warm-start procedure to "
                       "further refine the distilled knowledge on unseen tasks",
                 claims=("c4_ssft_refines",)),
    ),
    grids={
        "smoke": Grid(datasets=sweep(MetaBBOTransfer, split=[0], dim=[10], fid=[1, 15], budget=[160])
                      + sweep(MetaBBOControl, split=[0], budget=[160]),
                      seeds=1, methods=_SMOKE_METHODS),
        "quick": Grid(datasets=sweep(MetaBBOTransfer, split=list(range(8)), dim=[10, 20],
                                     fid=list(IMPLEMENTED))
                      + sweep(MetaBBOControl, split=list(range(8))),
                      seeds=1, methods=METHODS,
                      note="8 training splits x (2 held-out dims x 22 BBOB functions + Acrobot) "
                           "= 360 cells, 8 units (training runs): the fewest whose exact "
                           "one-sided p (1/256) can pass the worst-case Holm level 0.0071 of "
                           "the 7 judged claims"),
        "full": Grid(datasets=sweep(MetaBBOTransfer, split=list(range(8)), dim=[10, 20, 40],
                                    fid=list(IMPLEMENTED))
                     + sweep(MetaBBOControl, split=list(range(8))),
                     seeds=1, methods=METHODS,
                     note="8 training splits (the paper has 7 seeds; 8 for the Holm level of 7 "
                          "claims) x (3 held-out dims x 22 functions + Acrobot)"),
    },
    description=__doc__,
    # One training run per (split, train_dim) serves every held-out (fid, dim) cell of it (the
    # dataset's train seed is a function of these two alone); the grids use one seed each.
    unit=("split", "train_dim"),
    amendments=(
        Amendment(date="2026-12-03",
                  claims=("c1_beats_original_training",
                          "c1b_beats_original_training_code_checkpoint",
                          "c2_wins_most_functions", "c3_beats_original_largest_dim",
                          "c4_ssft_refines"),
                  what="source and foils declared (mutant metadistill_ssft_j1[mutant=ssft_ascent], "
                       "SSFT stepping up its objective, added to all grids as c4's foil; the smoke "
                       "grid's CMA-ES labelled cma_es as elsewhere); unit of replication "
                       "set to the training run (split, train_dim), so the quick grid's 132 "
                       "cells are 3 replicates; paper_value quotes the poster abstract",
                  why="claims layer rebuilt around foils (issue 13), and the 132 'pairs' were "
                      "3 training runs (pseudo-replication); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c1_beats_original_training",
                          "c1b_beats_original_training_code_checkpoint",
                          "c2_wins_most_functions", "c3_beats_original_largest_dim",
                          "c4_ssft_refines"),
                  what="metric log10_gap (best point found so far) -> log10_gap_last (best of "
                       "the final generation's population); MetaDistill's CMA-ES teacher now "
                       "starts as the authors' (x0 ~ U(0, 1)^D, sigma0 ~ U(0, 1)); the notes "
                       "say that only the full grid (7 training runs) can decide the claims",
                  why="issue 14: the authors' evaluation (scripts/eval_compare_frameworks.py, "
                      "default curve 'best-gen') scores each generation's best, not the best "
                      "so far, and their teacher (optimizers/cmaes.py) starts at U(0, 1)^D; "
                      "the quick grid's 3 training runs cannot reach p < 1/8, and 7 runs "
                      "would exceed the quick budget",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_beats_original_training",
                          "c1b_beats_original_training_code_checkpoint",
                          "c2_wins_most_functions", "c3_beats_original_largest_dim",
                          "c4_ssft_refines"),
                  what="decided on the full grid only (Claim.grids=('full',)); not_run on quick",
                  why="the quick grid's 3 training runs give an exact p >= 1/8 (1/4 for c2's rank), "
                      "which never reaches the worst-case Holm level 0.01 of 5 claims: the claims "
                      "sat in the totals as inconclusive though no result could decide them",
                  results_seen=True, rule="issue 26: full-grid-only for an undecidable design"),
        Amendment(date="2026-12-06",
                  claims=("c5_various_learnable_optimizers", "c6_control_tasks"),
                  what="two not_run claims added: the other learnable optimizers (only LES is "
                       "built) and the three control tasks; headlines declared (the abstract's "
                       "2 checkable statements)",
                  why="issue 29: 'various learnable optimizers' and the control tasks are "
                      "statements of the abstract that no claim checked",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_beats_original_training', 'c1b_beats_original_training_code_checkpoint', 'c2_wins_most_functions', 'c3_beats_original_largest_dim', 'c4_ssft_refines', 'c5_various_learnable_optimizers', 'c6_control_tasks'),
                  what="the original LES step calls numpy's reductions directly and memoises its time embedding",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06",
                  claims=("c1_beats_original_training",
                          "c1b_beats_original_training_code_checkpoint",
                          "c2_wins_most_functions", "c3_beats_original_largest_dim",
                          "c4_ssft_refines", "c5_various_learnable_optimizers",
                          "c6_control_tasks", "p1_baseline_not_saturated"),
                  what="quick grid: 3 -> 7 training splits (split 0-6, the full grid's seven; "
                       "dims 10, 20 and the 22 functions unchanged, 132 -> 308 cells); c1-c4 "
                       "judged on quick and full (were full only); their notes give the unit "
                       "arithmetic; words, checks, thresholds and foils unchanged; premise "
                       "p1_baseline_not_saturated added, gating c1, c2, c3 (c5, c6 stay not_run: "
                       "only the grid they are declared on changed)",
                  why="issue 29: the quick grid's 3 training runs could never decide a claim; 7 "
                      "is the fewest whose exact one-sided p (1/128) passes the worst-case Holm "
                      "level 0.01 of 5 claims (6 runs: 1/64); rule 4 of the re-audit asks a "
                      "premise that the baseline is not saturated",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_beats_original_training",
                          "c1b_beats_original_training_code_checkpoint",
                          "c2_wins_most_functions", "c3_beats_original_largest_dim",
                          "c4_ssft_refines", "c5_various_learnable_optimizers",
                          "c6_control_tasks", "p1_baseline_not_saturated"),
                  what="the original MetaBBO meta-training runs its 16 candidates' LES rollouts on "
                       "a task in lockstep (baselines/learned_optimizer_original.py, "
                       "run_les_batch): its random draws first, in the sequential order, then "
                       "les_step's operations row by row",
                  why="issue 29 / issue 27 item 5: the 7-run quick grid must stay near its CPU "
                      "budget; the meta-training was half of its CPU (about 11 s of 20 per run; "
                      "now about 2 s)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; the trained weights are bit for "
                       "bit those of the sequential code (compared on splits 0 and 5; unit test "
                       "against run_les), and the quick cells of splits 0-2 are compared with "
                       "the committed ones"),
        Amendment(date="2026-12-07",
                  claims=("c6_control_tasks", "p2_control_baseline_above_chance",
                          "p3_control_baseline_not_saturated"),
                  what="c6 built (was not_run): Acrobot neuro-evolution in numpy "
                       "(datasets/metabbo_control.py, the authors' tasks/neuroevolution setting), "
                       "one cell per split in the quick and full grids (smoke: one short cell); "
                       "check Better(metadistill, les_original, control_steps_last) > 0 at the "
                       "Holm level, foils les_original_code and cma_es (as c1); premises p2 "
                       "(baseline beats its random initial population: control_gain > 0) and p3 "
                       "(baseline mean steps-to-goal > 50) gate it; metrics control_steps_last "
                       "and control_gain added",
                  why="issue 29: the abstract's control tasks were unchecked; Acrobot needs no "
                      "Box2D. Words, threshold, foils and premises were fixed in the round-6 plan "
                      "before any control cell was run (a pilot ran only the baseline and CMA-ES "
                      "on split 99, which no grid uses)",
                  results_seen=False),
        Amendment(date="2026-12-07",
                  claims=("c5_various_learnable_optimizers", "p4_lga_baseline_not_saturated"),
                  what="c5 built (was not_run): a second student, LGA (baselines/learned_ga_original.py: "
                       "the authors' optimizers/lga.py), MetaBBO-trained as LES (lga_original, and "
                       "lga_original_code with the code's z-score rule) and distilled as LES "
                       "(metadistill_lga, the code's GradBasedLGA); check Better(metadistill_lga, "
                       "lga_original, log10_gap_last) > 0 at the Holm level on the BBOB cells, foils "
                       "lga_original_code and cma_es (as c1); premise p4 (LGA baseline above -7, as p1) "
                       "gates it; the LGA methods do not apply to the Acrobot cells",
                  why="issue 29: 'various learnable optimizers' was checked on LES alone. Words, "
                      "threshold, foils and premise were fixed in the round-6 plan addendum before "
                      "any LGA cell of a grid was run; a timing pilot ran the two LGA students on one "
                      "cell (f1, d = 10) of split 99, which no grid uses, and nothing was changed "
                      "after it",
                  results_seen=False),
        Amendment(date="2026-12-07",
                  claims=("c1_beats_original_training",
                          "c1b_beats_original_training_code_checkpoint",
                          "c2_wins_most_functions", "c3_beats_original_largest_dim",
                          "c4_ssft_refines", "c6_control_tasks", "p1_baseline_not_saturated",
                          "p2_control_baseline_above_chance", "p3_control_baseline_not_saturated"),
                  what="quick and full grids: 7 -> 8 training splits (split 7 added); the grids "
                       "gain the Acrobot cells of c6 (on which the log10-gap metrics are None, so "
                       "c1-c4 and p1 read BBOB cells only) and the LGA methods of c5; SSFT does not "
                       "apply to Acrobot; the notes give the 7-claim Holm arithmetic",
                  why="issue 29: with c5 and c6 judged the family has 7 claims, whose worst-case "
                      "Holm level 0.05 / 7 = 0.0071 no 7-run p (>= 1/128 = 0.0078) can pass; 8 "
                      "runs (1/256) can. c1-c4 and c6 (inconclusive on 7 runs of the round-6 run) "
                      "had been seen",
                  results_seen=True),
    ),
    cost_note=("Quick grid: 8 training runs (splits) x (44 held-out BBOB cells + 1 Acrobot cell) x "
               "10 methods (the 2 SSFT variants and the 3 LGA methods do not apply to Acrobot). "
               "The 8 runs are the fewest that can decide any claim (exact one-sided p >= 2^-n "
               "must pass the worst-case Holm level 0.0071 of 7 claims); each run trains the LES "
               "student both ways once (the original MetaBBO meta-training, 1,600 LES rollouts, "
               "is about a fifth of that CPU since its rollouts run in lockstep) and the LGA "
               "student both ways once (c5_various_learnable_optimizers, premise "
               "p4_lga_baseline_not_saturated: about 17 CPU-s a run, 133 CPU-s in all, with "
               "the 8th run of the others 22 CPU-s more); the LES training is "
               "optimizers once (the original MetaBBO meta-training, 1,600 LES rollouts, is about "
               "a fifth of the CPU since its rollouts run in lockstep), which every claim reads "
               "(c1_beats_original_training to c4_ssft_refines, premise p1_baseline_not_saturated). "
               "Measured 1.24 CPU-min with 7 runs before round 6 (74 CPU-s). The Acrobot cells "
               "(c6_control_tasks, premises p2 and p3; 1,600 episodes of up to 256 steps per cell "
               "and method) add 108 CPU-s, 12-14 s a run; CMA-ES, the foil of c6, is the "
               "costliest there (about 3 s a cell). Measured in round 6 on loaded cores: the whole "
               "8-run quick grid 334 CPU-s (5.6 CPU-min; its LES part of runs 0-6 took 83 CPU-s "
               "there against 69 committed, so about 4.7 CPU-min on idle cores)."),
    fidelity_note="The paper's pipeline at reduced scale: LES with population 32 (200), training in "
                  "d = 5 (10) for 50 generations (100), 2 teachers (7), 16 distillation epochs (128), "
                  "20 meta-generations of MetaBBO (200); test on 22 of the 24 BBOB functions in "
                  "d = 10, 20 (30-300) for 50 generations; Acrobot (1 of the 3 control tasks) "
                  "with the BBOB-trained students; LGA as a second student (2 of the 4). SSFT uses "
                  "a surrogate gradient. The "
                  "paper has no arXiv text; method details come from the authors' code.",
)
