"""Forgetting of a one-hidden-layer quadratic network trained by GD on a sequence of XOR tasks.

K XOR-cluster tasks with mutually orthogonal means are learned one after the other by full-batch
GD (T steps each) on f(x) = sum_j a_j (w_j . x)^2. We measure train- and test-time forgetting
(loss on task k after the last task minus right after task k), compare it with a bound on
forgetting derived from the GD dynamics (our reconstruction: the paper's theorems were not
available), and check how forgetting moves with width m, sample size n, number of tasks K and
iterations T. Joint training on all tasks at once is the non-continual reference.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise,
                            cfg, output_metric)
from claimbench.baselines.joint_training import JointTraining
from claimbench.checks import Exact, NotRun, Slope, Value
from claimbench.datasets.xor_clusters import XORClusterTasks
from claimbench.methods.continual_quadratic import (ContinualQuadraticGD, error, forgetting_report,
                                                    loss, pooled_stages, ratio)

METHOD = "continual_quadratic_gd"
# Foil: the same GD runs with a known-wrong bound, eq. (6b) without the sum over each later
# task's T steps (methods/continual_quadratic.py, "Mutants for foils").
WRONG_BOUND = "continual_quadratic_gd[mutant=no_step_sum]"
# Foil of the dependence claims: the same GD with full replay of the earlier tasks, a sequential
# learner that should not forget (methods/continual_quadratic.py, "Mutants for foils").
REPLAY = "continual_quadratic_gd[mutant=replay]"


# -- metrics on the held-out test sets (truth) ---------------------------------------------------
def _test_report(inst, out) -> dict | None:
    if "snapshots" not in out:  # joint training forgets nothing by construction
        return None
    if "_test_report" not in out:
        test, train = inst.truth["test"], inst.data["train"]
        fit = pooled_stages(train) if out.get("mutant") == "replay" else train
        rep = forgetting_report(out["snapshots"], out["a"], test, fit,
                                out["losses"], out["wopt"], out["eta"], out.get("mutant", ""))
        snaps, a = out["snapshots"], out["a"]
        rep["err_F"] = np.array([error(snaps[-1], a, *test[k]) - error(snaps[k], a, *test[k])
                                 for k in range(len(snaps) - 1)])
        out["_test_report"] = rep
    return out["_test_report"]


def _from_report(key, fn):
    def metric(inst, out):
        rep = _test_report(inst, out)
        return None if rep is None else fn(rep)
    metric.__name__ = key
    return metric


def _final_avg_test_err(inst, out):
    return float(np.mean([error(out["W_final"], out["a"], X, y) for X, y in inst.truth["test"]]))


def _final_old_test_loss(inst, out):
    old = inst.truth["test"][:-1]
    return float(np.mean([loss(out["W_final"], out["a"], X, y) for X, y in old]))


METRICS = (
    Metric("test_forgetting", _from_report("test_forgetting", lambda r: float(r["F"].mean())),
           False, "mean over k < K of test loss of task k after task K minus after task k"),
    output_metric("train_forgetting", description="as test_forgetting on the training sets"),
    output_metric("first_task_train_forgetting",
                  description="train-time forgetting of task 1 (it sees all K - 1 later tasks)"),
    Metric("test_err_forgetting", _from_report("test_err_forgetting",
                                               lambda r: float(r["err_F"].mean())),
           False, "as test_forgetting with the 0-1 test error instead of the logistic loss"),
    output_metric("bound_train", description="mean over k < K of the forgetting bound B_k "
                  "(methods/continual_quadratic.py eq. 6) on the training sets"),
    output_metric("ratio_train", description="max over k < K of train forgetting F_k / B_k"),
    Metric("bound_test", _from_report("bound_test", lambda r: float(r["B"].mean())), False,
           "bound_train on the test sets"),
    Metric("ratio_test", _from_report("ratio_test", lambda r: ratio(r["F"], r["B"])), False,
           "max over k < K of test forgetting F_k / B_k"),
    Metric("ratio_geom_test", _from_report("ratio_geom_test",
                                           lambda r: ratio(r["F"], r["B_geom"])), False,
           "as ratio_test with the realised ||Delta M||_op in place of its GD-dynamics bound"),
    Metric("final_avg_test_err", _final_avg_test_err, False,
           "mean test error over all K tasks at the end of training"),
    Metric("final_old_test_loss", _final_old_test_loss, False,
           "mean test loss of tasks 1..K-1 at the end of training"),
    output_metric("final_train_loss", description="mean training loss over all tasks at the end"),
    output_metric("time_s", description="wall time of the GD runs alone"),
)

# -- grids: one-at-a-time sweeps around a base setting ------------------------------------------
_BASE = {"n": 200, "width": 32, "K": 3, "iters": 400}
_AXES = {"width": [16, 32, 64, 128], "n": [100, 200, 400, 800], "K": [2, 3, 4, 5],
         "iters": [100, 200, 400, 800]}
# Full: the same base (so the claims' filters apply) with wider axes, including the paper's
# n = 2500 and 5000 per task at K = 3 (Fig. 1).
_FULL_AXES = {"width": [8, 16, 32, 64, 128, 256], "n": [100, 200, 400, 800, 2500, 5000],
              "K": [2, 3, 4, 5, 6], "iters": [100, 200, 400, 800, 1600]}


def _one_at_a_time(base: dict, axes: dict) -> tuple:
    seen, out = set(), []
    for key, values in axes.items():
        for v in values:
            params = {**base, key: v}
            ident = tuple(sorted(params.items()))
            if ident not in seen:
                seen.add(ident)
                out.append(cfg(XORClusterTasks, **params))
    return tuple(out)


def _others(base: dict, key: str) -> dict:
    return {k: v for k, v in base.items() if k != key}


# What of the paper's text we could read (issue 29, 2026-12-06): the ICML abstract, and in the
# pages corpus the arXiv v1 HTML (arxiv.org/html/2510.05573v1) only up to its abstract and the
# opening paragraph of Sec. 1.1 (Motivation); queries for the theorems, the stability result,
# the contributions list and related work returned that same opening and nothing deeper. No
# direction in T, n, K or m is stated in anything we read.
_TEXT_READ = ("the ICML abstract, and of arXiv v1 (arxiv.org/html/2510.05573v1, the copy in our "
              "pages corpus) only its abstract and the opening paragraph of Sec. 1.1; the "
              "theorem statements are not in that copy (searched 2026-12-06)")

_DIR_NOTE = ("Direction source: our bound (eq. 6 in methods/continual_quadratic.py) and the "
             "research note's reading of the abstract. Read of the paper: " + _TEXT_READ + "; "
             "none of it states a direction in T, n, K or m, so this is our check of our "
             "reading (derived), not the paper's claim: the paper's stated dependencies are "
             "c7 (not_run until its theorems can be read). Any fitted slope whose "
             "95% t-interval excludes 0 on the stated side counts (the paper gives no rate). "
             "Sweep around n = 200, m = 32, K = 3, T = 400, 5 seeds per value.")

# The ICML abstract's words; the theorems themselves were not read.
_RATE_QUOTE = ("\"explicit bounds on the rate of train-time forgetting as functions of the "
               "number of iterations, sample size, number of tasks, and hidden-layer width\" "
               "(abstract)")

_REPLAY_NOTE = ("Full replay (stage k trains the same T steps on tasks 1..k pooled) is a "
                "sequential learner that should not forget: the claim is about forgetting, so "
                "replay must not show the same dependence. It replaces joint_training (issue "
                "29), which forgets nothing by construction but whose forgetting metrics are "
                "undefined, so it errored and refuted nothing.")

# Seen after the foil was declared (issue 29 private quick run, 2026-12-06): replay forgets about
# 60 times less (mean train forgetting 0.0025 against 0.158) yet its slopes have the method's
# signs in m, T and K, significantly, so these one-sided checks cannot tell forgetting from its
# near absence; only a magnitude read from the theorems could.
_REPLAY_SEEN = (" What the replay foil shows (issue 29): it forgets about 60 times less (mean "
                "train forgetting 0.0025 against 0.158 over the quick grid) yet passes c3-c5 "
                "with the same signs, so a direction alone does not separate forgetting from "
                "its near absence; a magnitude would have to come from the theorems.")

CLAIMS = (
    Claim(id="c1_train_bound", where="abstract; Sec. 2 (Main results), train-time forgetting",
          text="explicit bounds on the rate of train-time forgetting",
          paper_value=_RATE_QUOTE,
          check=Exact(method=METHOD, metric="ratio_train", hi=1.0, tol=1e-9),
          note="Bound = our GD-dynamics bound B_k (eq. 6), evaluated from the run's loss and "
               "||W||_op traces; the check is that F_k <= B_k for every task k < K in every "
               "cell (largest ratio <= 1). It tests our derivation and code, not the paper's "
               "constants (the paper's closed form was not read); ratio_geom_test shows how "
               "loose the dynamics step is. What it shows (issue 14): only that our a-posteriori "
               "bound is never violated. It is about 2e4 times loose (largest F_k / B_k about "
               "5e-5 in the quick grid), so a bound T = 100..800 times too small (the "
               "no_step_sum foil) is never violated either: no check of 'forgetting <= bound' "
               "can tell the two apart on these runs, and the claim stays not_discriminating. "
               "It is no evidence about the paper's bounds, whose closed form and tightness "
               "(the abstract's 'tight characterization of gradient descent dynamics') we could "
               "not test.",
          source="derived", basis="construction",
          foils=(WRONG_BOUND,),
          foil_note="The same runs with the bound T times too small (the sum over steps "
                    "dropped): a check of 'bound >= forgetting' must reject a wrong bound."),
    Claim(id="c2_test_bound", where="abstract; test-time forgetting (stability) result",
          text="corresponding guarantees on test-time forgetting",
          paper_value="\"corresponding guarantees on test-time forgetting\" (abstract)",
          check=Exact(method=METHOD, metric="ratio_test", hi=1.0, tol=1e-9),
          note="Same bound B_k applied to fresh test points (eq. 6c holds pointwise), not the "
               "paper's algorithmic-stability route (its closed form was not read). What it "
               "shows (issue 14): as c1, only that our bound holds on test points; it is about "
               "2e4 times loose (largest ratio about 6e-5), which the no_step_sum foil's T-times "
               "smaller bound also meets, so the claim stays not_discriminating and says nothing "
               "about the paper's test-time guarantee.",
          source="derived", basis="construction",
          foils=(WRONG_BOUND,),
          foil_note="As c1: the bound without the sum over steps is T times too small and must "
                    "fail."),
    Claim(id="c1b_bound_grows_with_T",
          where="abstract (bounds as functions of the number of iterations); our eq. (6b)",
          text="the forgetting bound grows with the number of iterations T, as forgetting does",
          paper_value=_RATE_QUOTE,
          check=Slope(method=METHOD, metric="bound_train", x="iters", lo=0.0,
                      log_x=True, log_y=True, where=_others(_BASE, "iters")),
          note="Added in issue 14, because c1/c2 cannot reject a bound that is T times too "
               "small. Our bound (6b) sums over the T steps of every later task, so at a fixed "
               "(n, m, K) it must rise with T, as forgetting itself does (c4); a bound that "
               "falls with T while forgetting rises would be crossed at some larger T. Log-log "
               "slope of the mean bound against T in {100, 200, 400, 800} at n = 200, m = 32, "
               "K = 3, 5 seeds; any slope whose interval lies above 0 passes (our derivation "
               "gives no exponent: the later steps add less as their losses fall). Like c1, it "
               "checks our bound, not the paper's.",
          source="derived", basis="construction",
          foils=(WRONG_BOUND, "joint_training"),
          foil_note="The bound without the sum over steps averages the per-step terms, which "
                    "shrink as each later task is fit, so it falls with T: it must fail. Joint "
                    "training has no forgetting bound (it can only fail)."),
    Claim(id="c3_width", where="our reading: bound (6) in methods/continual_quadratic.py",
          text="train-time forgetting falls as the hidden-layer width m grows (direction ours)",
          paper_value=_RATE_QUOTE,
          check=Slope(method=METHOD, metric="train_forgetting", x="width", hi=0.0,
                      log_x=True, log_y=False, where=_others(_BASE, "width")),
          note="Direction: decreasing in m (expected from our bound; the theorem was not "
               "read). Bound (6): dM_k carries p_t = ||W_t||_op^2/m^2 = O(1/m) with the second "
               "layer +-1/m and a fixed step. " + _DIR_NOTE + _REPLAY_SEEN,
          source="derived",
          foils=(REPLAY,),
          foil_note=_REPLAY_NOTE),
    Claim(id="c4_iterations", where="our reading: bound (6) in methods/continual_quadratic.py",
          text="train-time forgetting grows with the iterations per task T (direction ours)",
          paper_value=_RATE_QUOTE,
          check=Slope(method=METHOD, metric="train_forgetting", x="iters", lo=0.0,
                      log_x=True, log_y=False, where=_others(_BASE, "iters")),
          note="Direction: increasing in T (expected from our bound; the theorem was not "
               "read). Bound (6): dM_k sums over the T steps of every later task. " + _DIR_NOTE
               + _REPLAY_SEEN,
          source="derived",
          foils=(REPLAY,),
          foil_note=_REPLAY_NOTE),
    Claim(id="c5_tasks", where="our reading: bound (6) in methods/continual_quadratic.py",
          text="train-time forgetting of task 1 grows with the number of tasks K "
               "(direction ours)",
          paper_value=_RATE_QUOTE,
          check=Slope(method=METHOD, metric="first_task_train_forgetting", x="K", lo=0.0,
                      log_x=False, log_y=False, where=_others(_BASE, "K")),
          note="Direction: increasing in K (expected from our bound; the theorem was not "
               "read). Forgetting of task 1, which sees the K - 1 later tasks; bound (6) sums "
               "over them. " + _DIR_NOTE + _REPLAY_SEEN,
          source="derived",
          foils=(REPLAY,),
          foil_note=_REPLAY_NOTE),
    Claim(id="c6_samples", where="our reading: the research note on the stability result",
          text="test-time forgetting falls as the per-task sample size n grows "
               "(direction ours)",
          paper_value=("\"leverage an algorithmic stability framework to bound the "
                       "generalization gap, leading to corresponding guarantees on test-time "
                       "forgetting\" (abstract)"),
          check=Slope(method=METHOD, metric="test_forgetting", x="n", hi=0.0,
                      log_x=True, log_y=False, where=_others(_BASE, "n")),
          note="Direction: decreasing in n, from the research note (stability generalization "
               "gaps shrink with n; the theorem was not read); our bound (6) does not predict it "
               "(its n-dependence is flat). " + _DIR_NOTE,
          source="derived",
          foils=(REPLAY,),
          foil_note=_REPLAY_NOTE),
)

# Issue 29: statements of the abstract that no claim checked (not_run, with the reason).
ISSUE29_CLAIMS = (
    Claim(id="c7_paper_train_bound", where="abstract; the train-time forgetting theorem",
          text="a tight characterization of the GD dynamics yields explicit (closed-form) bounds "
               "on train-time forgetting",
          paper_value=("\"Our analysis is based on a tight characterization of gradient descent "
                       "dynamics for the training loss, which yields explicit bounds on the rate "
                       "of train-time forgetting\" (abstract)"),
          check=NotRun(method=METHOD, reason="the theorem cannot be read here: we have "
                       + _TEXT_READ + ". Once read: the paper's closed-form train-time bound "
                       "evaluated on each run, as an Exact 'train_forgetting <= bound' with a "
                       "foil that undercuts it, and each direction in T, n, K and m the theorem "
                       "states as a Slope of the measured train_forgetting, thresholds from its "
                       "words. c1 checks only our own a-posteriori bound (eq. 6), which holds by "
                       "construction; c3-c5 check directions of our reading (derived)"),
          source="paper"),
    Claim(id="c8_paper_test_bound", where="abstract; the test-time (algorithmic stability) result",
          text="an algorithmic-stability bound on the generalization gap gives guarantees on "
               "test-time forgetting",
          paper_value=("\"We then leverage an algorithmic stability framework to bound the "
                       "generalization gap, leading to corresponding guarantees on test-time "
                       "forgetting\" (abstract)"),
          check=NotRun(method=METHOD, reason="the test-time theorem cannot be read here: we "
                       "have " + _TEXT_READ + ". Once read: its stability bound on the "
                       "generalization gap plus its train-time bound, evaluated on each run "
                       "against the measured test_forgetting, as an Exact 'test_forgetting <= "
                       "bound', and its stated n-dependence as a Slope of test_forgetting; c2 "
                       "applies our own bound to test points instead, and c6 checks a direction "
                       "of our reading (derived)"),
          source="paper"),
)

# The phenomenon the dependence claims read: without forgetting there is nothing to grow or
# fall with m, T, K or n.
PREMISES = (
    Premise(id="p1_forgetting_present",
            text="sequential GD forgets: the mean train-time forgetting over the quick grid's "
                 "cells is above 0",
            check=Value(method=METHOD, metric="train_forgetting", lo=0.0, stat="mean"),
            claims=("c3_width", "c4_iterations", "c5_tasks", "c6_samples"),
            note="Threshold 0 from the definition of forgetting (eq. 5: loss after task K minus "
                 "loss right after task k). The paper's premise, in its words (arXiv v1, "
                 "Sec. 1.1, Motivation): \"various learning systems, including deep learning "
                 "architectures, can be prone to catastrophic forgetting, that is, updating a "
                 "model on new data causes a dramatic drop in performance on previously learned "
                 "tasks\". With noiseless clusters it fails (tests: no forgetting when later "
                 "data is orthogonal), and then no dependence on m, T, K or n can show. "
                 "Declared in issue 29 after the quick grid's forgetting values had been seen."),
)

_METHODS = (cfg(ContinualQuadraticGD), cfg(JointTraining),
            cfg(ContinualQuadraticGD, label=WRONG_BOUND, mutant="no_step_sum"),
            cfg(ContinualQuadraticGD, label=REPLAY, mutant="replay"))

_SMOKE = (cfg(XORClusterTasks, d=8, K=2, n=40, n_test=50, width=8, iters=30),
          cfg(XORClusterTasks, d=8, K=3, n=40, n_test=50, width=8, iters=30))

BENCHMARK = Benchmark(
    slug="continual_quadratic",
    paper=Paper(
        title="On the Theory of Continual Learning with Gradient Descent for Neural Networks",
        arxiv="2510.05573",
        url="https://arxiv.org/abs/2510.05573",
        version=("ICML abstract; arXiv v2 abstract, table of contents and Fig. 1 caption; arXiv "
                 "v1 abstract and Sec. 1.1 opening (the stored copy of its HTML ends there); "
                 "theorems not read"),
        authors="Hossein Taheri, Avishek Ghosh, Arya Mazumdar",
    ),
    area="optimization",
    fidelity="proxy",
    fidelity_note=("The paper's setting (quadratic one-hidden-layer network, full-batch GD on "
                   "K XOR-cluster tasks with orthogonal means and Gaussian noise, logistic loss) "
                   "is run as described in its abstract, at n <= 800 per task (paper: 2500 and "
                   "5000). Its theorems were not available (the stored full text ends in "
                   "Sec. 1.1): the forgetting bound is our own "
                   "GD-dynamics bound for this setting, the +-1/m second layer, initialisation "
                   "and step size are our choices, and the directions of the parameter "
                   "dependence are our reading, not the theorem statements."),
    methods=(ContinualQuadraticGD,),
    baselines=(JointTraining,),
    datasets=(XORClusterTasks,),
    metrics=METRICS,
    primary_metric="test_forgetting",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS + ISSUE29_CLAIMS,
    premises=PREMISES,
    headlines=(
        Headline(quote="a tight characterization of gradient descent dynamics for the training "
                       "loss, which yields explicit bounds on the rate of train-time forgetting "
                       "as functions of the number of iterations, sample size, number of tasks, "
                       "and hidden-layer width",
                 claims=("c7_paper_train_bound", "c3_width", "c4_iterations", "c5_tasks")),
        Headline(quote="leverage an algorithmic stability framework to bound the generalization "
                       "gap, leading to corresponding guarantees on test-time forgetting",
                 claims=("c8_paper_test_bound", "c6_samples")),
        Headline(quote="show how key problem parameters jointly govern forgetting dynamics",
                 claims=("c7_paper_train_bound", "c8_paper_test_bound", "c3_width",
                         "c4_iterations", "c5_tasks", "c6_samples")),
    ),
    grids={
        "smoke": Grid(datasets=_SMOKE, seeds=1, methods=_METHODS),
        "quick": Grid(datasets=_one_at_a_time(_BASE, _AXES), seeds=5, methods=_METHODS,
                      note="one-at-a-time sweeps of m, n, K, T around n=200, m=32, K=3, T=400; "
                           "the wrong-bound mutant (a foil) reuses the method's cached GD runs; the "
                           "replay mutant (a foil) trains each stage on the tasks so far"),
        "full": Grid(datasets=_one_at_a_time(_BASE, _FULL_AXES), seeds=10, methods=_METHODS,
                     note="wider sweeps around the quick base, with the paper's n = 2500 "
                          "and 5000 per task"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared; mutant continual_quadratic_gd[mutant="
                       "no_step_sum] (the same GD runs with the bound's sum over steps dropped) "
                       "added to every grid, so the grids now list their methods; paper_value "
                       "text that was ours (directions, 'closed form not read') moved to note",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c1_train_bound", "c2_test_bound", "c1b_bound_grows_with_T"),
                  what="c1/c2: declarations unchanged (already derived); notes now say what the "
                       "checks show: validity of our own a-posteriori bound only, about 2e4 times "
                       "loose, so the no_step_sum foil (a bound T times too small) passes as well "
                       "and both stay not_discriminating. c1b added (derived): Slope of "
                       "bound_train against T (log-log) > 0 on the T sweep, foils no_step_sum "
                       "and joint_training",
                  why="issue 14: c1/c2 are met by their own foil because the bound is ~1e4x "
                      "loose; the paper's closed-form bounds (abstract: 'explicit bounds on the "
                      "rate of train-time forgetting') were not available, so no check of ours "
                      "can test their tightness, and a tighter bound of our own would be a new "
                      "derivation, not a reproduction; answered by marking them derived and "
                      "stating what they show rather than by picking a foil that fails. c1b "
                      "tests the one property of the bound that separates it from the foil, "
                      "its growth with T (eq. 6b); added after seeing the quick grid's bounds "
                      "(ours rises with T, the foil's falls)",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c1_train_bound", "c2_test_bound"),
                  what="Value(stat='max', hi=1) -> Exact(hi=1, tol=1e-9); basis construction",
                  why="F_k <= B_k holds pointwise by our own derivation of B_k (eq. 6): a "
                      "deterministic inequality our code enforces, not the paper's bound, so it "
                      "is an exact check and ours by construction",
                  results_seen=True,
                  rule="issue 26: exact kind for a deterministic result; construction basis"),
        Amendment(date="2026-12-06", claims=("c1b_bound_grows_with_T",),
                  what="basis construction",
                  why="the slope of our own bound (6b), a sum over the T steps of every later "
                      "task: it rises with T by how we wrote it",
                  results_seen=True,
                  rule="issue 26: construction basis"),
        Amendment(date="2026-12-06",
                  claims=("c3_width", "c4_iterations", "c5_tasks", "c6_samples"),
                  what="source derived -> paper",
                  why="placed in the abstract (forgetting as functions of width, iterations, "
                      "tasks and sample size), so they are the paper's claims; the directions "
                      "remain our reading (note)",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'"),
        Amendment(date="2026-12-06", claims=("c7_paper_train_bound", "c8_paper_test_bound"),
                  what="c7 (the paper's closed-form train-time bound) and c8 (its stability-based "
                       "test-time guarantee) added as not_run; headlines declared (the "
                       "abstract's 3 checkable statements)",
                  why="issue 29: all claims with a verdict check our own bound or directions of "
                      "our reading; the paper's train- and test-time guarantees had no claim. "
                      "Their theorem statements were not read in this session, so they are "
                      "declared with what the check would be rather than guessed",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c3_width", "c4_iterations", "c5_tasks", "c6_samples"),
                  what="source paper -> derived; where 'abstract (...)' -> our reading (bound "
                       "(6), research note); text states the direction and marks it ours; note "
                       "says what of the paper was read. Checks, thresholds, scopes and foils "
                       "unchanged",
                  why="issue 29 re-audit: the full text was searched for the theorems' stated "
                      "directions in T, n, K, m (pages corpus, arxiv.org/html/2510.05573v1): "
                      "the stored copy ends in Sec. 1.1, and neither it nor the abstract states "
                      "a direction, only that the bounds are 'functions of' the four "
                      "parameters. A one-sided slope whose side is our choice is our check of "
                      "our reading, not the paper's claim; the paper's dependencies stay with "
                      "c7/c8 (not_run). Verdicts were seen (c3 inconclusive, c4/c5 "
                      "not_discriminating, c6 not_reproduced) and are not what moved the label: "
                      "no threshold or side changed",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c7_paper_train_bound", "c8_paper_test_bound"),
                  what="not_run reasons: 'not read in this session' -> what of the text exists "
                       "here (the ICML abstract; v1 abstract and Sec. 1.1 opening) and the check "
                       "each becomes once the theorems are read (Exact bound on the measured "
                       "forgetting, and Slopes of the measured forgetting in the stated "
                       "directions)",
                  why="issue 29: the theorems were searched for and are not in our store; "
                      "declaring their directions without their words would be guessing",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("p1_forgetting_present", "c3_width", "c4_iterations", "c5_tasks",
                          "c6_samples"),
                  what="premise p1_forgetting_present added (mean train_forgetting over the "
                       "quick grid > 0), gating c3-c6",
                  why="issue 29 rule 4: the dependence claims need the phenomenon present; "
                      "threshold 0 from the definition of forgetting. Declared after the quick "
                      "grid's forgetting values (base cell mean 0.17) had been seen",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_train_bound", "c2_test_bound", "c1b_bound_grows_with_T",
                          "c3_width", "c4_iterations", "c5_tasks", "c6_samples",
                          "c7_paper_train_bound", "c8_paper_test_bound"),
                  what="methods/continual_quadratic.py: provenance header (what of the full "
                       "text was read) and the replay mutant (train_sequential's fit argument, "
                       "pooled_stages); the default method's path is unchanged (fit = the "
                       "tasks' own sets), so its results are the same bit for bit",
                  why="issue 29 rule 8 (the header says which sections were read) and the "
                      "replay foil below; the file's hash is part of every claim's design",
                  results_seen=True,
                  rule="issue 29: the method file's provenance header (sections read) and a "
                       "branch only a foil runs; same experiment, every non-timing metric of the "
                       "committed quick cells unchanged (compared cell by cell with the previous "
                       "store: 0 differences)"),
        Amendment(date="2026-12-06",
                  claims=("c3_width", "c4_iterations", "c5_tasks", "c6_samples"),
                  what="foil joint_training -> continual_quadratic_gd[mutant=replay] (the same "
                       "GD with full replay of the earlier tasks), added to every grid",
                  why="issue 29 rule 6: joint training's forgetting metrics are undefined, so "
                      "the foil errored and refuted nothing, and c4/c5 were not_discriminating "
                      "for want of a foil, not because one passed. A learner that should not "
                      "forget is the foil a dependence of forgetting calls for, and replay is "
                      "one whose forgetting is measured as the method's. Declared before any "
                      "replay result was seen; the claims' own results had been seen",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_train_bound', 'c1b_bound_grows_with_T', 'c2_test_bound', 'c3_width', 'c4_iterations', 'c5_tasks', 'c6_samples', 'c7_paper_train_bound', 'c8_paper_test_bound'),
                  what="gd takes every step's eigenvalues in one stacked eigvalsh after the loop; training goes through the array cache so the no_step_sum mutant reuses the method's run",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c1_train_bound', 'c1b_bound_grows_with_T', 'c2_test_bound', 'c3_width', 'c4_iterations', 'c5_tasks', 'c6_samples', 'c7_paper_train_bound', 'c8_paper_test_bound'),
                  what="the GD run's array-cache key names its arrays with claimbench.checkpoints.array_digest (was an inline hash)",
                  why='review: one shared content hash (claimbench.checkpoints.array_digest) instead of a hand-written one per cache; the cache holds the same results',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
