"""Chain-of-Thought Gradient Descent (ICML 2026 FoGen workshop): CoT lets a constant-depth
transformer run in-context gradient descent (ICGD) on an N-layer network, and dynamical masking
cuts the attention cost of the single-pass construction of Wu et al. (ICML 2025) by O(N).

Three studies on seeded in-context regression prompts. (a) A fixed one-layer attention executor
writes forward, backward and update blocks as CoT tokens and is compared with numpy GD (N <= 4,
L <= 50). (b) Attention cost (counted multiply-adds of scores and value sums) of the executor
with dynamical masking, without it (plain causal CoT) and of Wu et al.'s single-pass layout, over
N and L. (c) A 2-layer tiny transformer trained to emit the next GD iterate of linear
regression and rolled out k steps, against the same model predicting w_k in one pass.
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
    TraceMetric,
    cfg,
    output_metric,
    sweep,
)
from claimbench.baselines.icl_weight_prediction import DirectWeightPredictor
from claimbench.baselines.mlp_gradient_descent import MLPGradientDescent, mse
from claimbench.baselines.single_pass_icgd import SinglePassICGD
from claimbench.checks import Exact, NotRun, Slope, SlopeDiff, Value
from claimbench.datasets.in_context_regression import ICGDRegression, InContextLinearRegression
from claimbench.methods.cot_icgd import CoTExecutor, CoTWeightPredictor

KS = (1, 2, 4, 8, 16)  # research note: k in {1, 2, 4, 8, 16}


def _param_err(inst, out):
    # Max-norm error of the final weights against numpy GD, relative to the largest reference
    # weight; None (not defined) when the weights are not finite.
    if "weights" not in out or not isinstance(inst.truth, dict) or "W" not in inst.truth:
        return None
    ref = inst.truth["W"]
    err = max(float(np.max(np.abs(a - b))) for a, b in zip(out["weights"], ref))
    return err / max(float(np.max(np.abs(w))) for w in ref) if np.isfinite(err) else None


def _test_mse(inst, out):
    if "weights" not in out or "X_test" not in (inst.truth or {}):
        return None
    value = mse(out["weights"], inst.truth["X_test"], inst.truth["y_test"])
    return value if np.isfinite(value) else None


def _rollout_errors(inst, out):
    """Mean over test prompts of ||w_hat_k - w_k|| / ||w_k||, k = 1..K."""
    if "pred" not in out:
        return None
    W, P = inst.truth["W_gd"], out["pred"]  # (T, K + 1, d) each
    num = np.linalg.norm(P[:, 1:] - W[:, 1:], axis=2)  # (T, K)
    return (num / np.linalg.norm(W[:, 1:], axis=2)).mean(axis=0)  # (K,)


def _err_at(k):
    def fn(inst, out):
        e = _rollout_errors(inst, out)
        return None if e is None or len(e) < k else float(e[k - 1])
    return fn


def _err_growth(inst, out):
    e = _rollout_errors(inst, out)
    return None if e is None or len(e) < 16 else float(e[15] - e[0])


def _wstar_err(inst, out):
    if "pred" not in out:
        return None
    w, p = inst.truth["w_star"], out["pred"][:, -1]
    return float(np.mean(np.linalg.norm(p - w, axis=1) / np.linalg.norm(w, axis=1)))


def _err_trace(inst, out):
    e = _rollout_errors(inst, out)
    return None if e is None else {"x": list(range(1, len(e) + 1)), "y": [float(v) for v in e]}


METRICS = (
    Metric("param_err", _param_err, False,
           "max_l max|W_l - W_l^GD| / max|W^GD|: executor's weights after L steps vs numpy GD "
           "(None when not finite)"),
    Metric("test_mse", _test_mse, False, "held-out MSE of the network with the output weights"),
    *(Metric(f"param_err_k{k}", _err_at(k), False,
             f"mean over test prompts of ||w_hat_{k} - w_{k}|| / ||w_{k}|| (w_k: GD iterate)")
      for k in KS),
    Metric("err_growth", _err_growth, False, "param_err_k16 - param_err_k1"),
    Metric("wstar_err_k16", _wstar_err, False, "mean ||w_hat_16 - w*|| / ||w*||"),
    output_metric("attn_flops", description="attention multiply-adds: scores (query . key) and "
                  "weighted value sums over the keys each query may see (methods/cot_icgd.py (4); "
                  "baselines/single_pass_icgd.py)"),
    output_metric("attn_pairs", description="query-key pairs scored"),
    output_metric("n_layers", description="attention layers of the executing transformer"),
    output_metric("width", description="token width of the executing transformer"),
    output_metric("cot_tokens", description="CoT tokens generated"),
    output_metric("train_loss", description="last logged training loss"),
    output_metric("wall_s", description="wall time of the run (not used by any claim)"),
)

TRACES = (TraceMetric("rollout_error_vs_k", _err_trace, "GD step k",
                      "||w_hat_k - w_k|| / ||w_k||"),)

NO_RELU = "cot_dynamic[mutant=no_relu_grad]"
STALE = "cot_dynamic[mutant=stale_weights]"


def _methods(train_steps: int) -> tuple:
    return (
        cfg(CoTExecutor),
        cfg(CoTExecutor, label="cot_full", masking="full"),
        cfg(CoTExecutor, label=NO_RELU, mutant="no_relu_grad"),
        cfg(CoTExecutor, label=STALE, mutant="stale_weights"),
        cfg(SinglePassICGD),
        cfg(MLPGradientDescent),
        cfg(CoTWeightPredictor, label="cot_transformer", train_steps=train_steps),
        cfg(DirectWeightPredictor, label="nocot_transformer", train_steps=train_steps),
    )


def _cost(Ns, L_at, Ls, N_at) -> tuple:
    return (sweep(ICGDRegression, N=list(Ns), L=[L_at], study=["cost"])
            + sweep(ICGDRegression, N=[N_at], L=[x for x in Ls if x != L_at], study=["cost"]))


_QUOTE_CONST = ("\"CoT removes this limitation by providing an expandable workspace via the "
                "sequence trajectory. This enables arbitrary-step and arbitrary-capacity ICGD "
                "within a constant-depth Transformer.\"")
_QUOTE_MASK = ("\"we provide a provable efficient guarantee unique to CoT through dynamical "
               "masking. The attention mechanism only process the relevant tokens for the "
               "current update step.\"")
_COUNT_NOTE = ("Costs are counted, not timed (deterministic; issue 14): methods/cot_icgd.py (4) "
               "and baselines/single_pass_icgd.py.")

BENCHMARK = Benchmark(
    slug="cot_icgd",
    paper=Paper(
        title="Chain-of-Thought Gradient Descent",
        venue="ICML 2026 FoGen Workshop",
        url="https://openreview.net/forum?id=C5OIkV6jzM",
        version="OpenReview abstract and the opening of the introduction (PMLR v306 chen26ae); "
                "body not read",
        authors="Hong-Yu Chen, Venkat Sripad Ganti, Hude Liu, Jerry Yao-Chieh Hu, Han Liu",
    ),
    area="tiny_lm",
    fidelity="proxy",
    fidelity_note=("Only the abstract was available: the CoT block schedule, the fixed-attention "
                   "executor with exact hard retrieval and exact block arithmetic, the dynamical "
                   "mask and the attention-cost count (ours and Wu et al.'s layout) are our "
                   "reconstruction, so the claims test that reconstruction against the "
                   "abstract's statements. The paper's numerical validations were not seen; the "
                   "learned study (2-layer tiny transformer, CoT weight prediction vs direct) is "
                   "the research note's proposal at CPU scale (d = 4, n = 16, 800 training "
                   "steps)."),
    methods=(CoTExecutor, CoTWeightPredictor),
    baselines=(SinglePassICGD, MLPGradientDescent, DirectWeightPredictor),
    datasets=(ICGDRegression, InContextLinearRegression),
    metrics=METRICS,
    traces=TRACES,
    primary_metric="param_err",
    nondeterministic={"wall_s": TIMING_RTOL},
    claims=(
        Claim(id="c1_executor_matches_gd", where="abstract",
              text="a constant-depth transformer with CoT simulates GD on an N-layer network "
                   "for any number of steps",
              paper_value=_QUOTE_CONST,
              check=Exact(method="cot_dynamic", metric="param_err", target=0.0, tol=1e-5,
                          where={"study": "exec"}),
              source="derived", basis="construction",
              foils=(NO_RELU, STALE),
              foil_note="An exact simulation: baselines that run GD pass it too, so only "
                        "mutants of the executor can fail it: back-propagation without the "
                        "ReLU derivative, and a dynamical mask that reads the prompt's initial "
                        "weights instead of the latest update.",
              note="Executor's weights after L steps vs numpy GD, N in {1, 2, 4}, L in {10, "
                   "50}, n = 32, d = 4, width 8 (research note); 1e-5 relative max-norm is the "
                   "note's tolerance, far above float64 round-off. Ours by construction (issue "
                   "26): the executor's block arithmetic is exact numpy arithmetic with exact "
                   "hard retrieval, so it matches numpy GD by how we built it; it shows our "
                   "reconstruction is correct, not the paper's construction. What it settles "
                   "(issue 28): our CoT schedule (1), operand retrieval by one fixed attention "
                   "layer (2) and the dynamical mask (3) deliver the right operands to every "
                   "block. What it does not: the token-wise map is numpy arithmetic, not a "
                   "fixed-size network with an error to measure; retrieval is one-hot because "
                   "beta = 1e8 (exact only while gamma * sequence length < beta / 2, about "
                   "1.7e5 tokens, so arbitrary L needs beta to grow); and token width is "
                   "71 + the largest block, max((d + 1) n, (w + 1) n, |W_l|), padded, so it "
                   "grows with the prompt length n and the network's width w (231 at N = 1, "
                   "359 at N >= 2 here), not the paper's fixed hidden dimension. The paper's "
                   "statement is c8 (not_run)."),
        Claim(id="c2_constant_depth", where="abstract",
              text="the CoT executor's depth does not grow with the number of steps or layers",
              paper_value=("\"Simulating larger models or more optimization steps in-context "
                           "requires deeper or wider Transformers. CoT removes this "
                           "limitation\" ... \"within a constant-depth Transformer\""),
              check=Exact(method="cot_dynamic", metric="n_layers", target=1.0, tol=0.0),
              source="derived", basis="construction",
              foils=("wu_single_pass",),
              foil_note="Wu et al.'s single pass needs (2N + 4) L layers.",
              note="One attention layer over every N (1..64) and L (2..50) of the grid; true by "
                   "construction of our executor, so this records the construction's depth "
                   "against Wu et al.'s rather than testing an algorithm. It settles depth only "
                   "(issue 28): the width (metric width) is not fixed, see c1's note and c8."),
        Claim(id="c3_cost_improvement_O_N", where="abstract",
              text="dynamical masking improves the attention cost of Wu et al. by a factor O(N)",
              paper_value=("\"we prove this CoT mechanism improves the computational cost of "
                           "the prior best in-context result [Wu et al., ICML 2025] by O(N)\""),
              check=SlopeDiff(method="cot_dynamic", other="wu_single_pass",
                              metric="attn_flops", x="N", lo=-1.2, hi=-0.8,
                              where={"study": "cost", "L": 4}),
              source="derived", basis="construction",
              foils=("cot_full",),
              foil_note="CoT without dynamical masking scores the whole prefix (quadratic in "
                        "the chain, i.e. in N): the paper credits the O(N) gain to the mask.",
              note="Log-log exponent in N of cot_dynamic's cost minus Wu et al.'s, N = 4..64, "
                   "L = 4: a ratio growing as N^1. Band +-0.2 (ours) around the paper's factor "
                   "N, wide enough for Wu's lower-order depth term (2N + 4). Ours by "
                   "construction (issue 26): both costs are our counts of our layouts. It settles "
                   "that our masked layout costs N^1 less than our count of Wu et al.'s "
                   "layout (issue 28), not the paper's proved bound over its own construction "
                   "(c9, not_run). " + _COUNT_NOTE),
        Claim(id="c4_dynamic_cost_linear_in_N", where="abstract",
              text="with dynamical masking each CoT token processes only the relevant tokens, "
                   "so the cost of one GD step is linear in N",
              paper_value=_QUOTE_MASK,
              check=Slope(method="cot_dynamic", metric="attn_flops", x="N", lo=0.9, hi=1.1,
                          where={"study": "cost", "L": 4}),
              source="derived", basis="construction",
              foils=("cot_full",),
              foil_note="Plain causal CoT scores every earlier token: ~N^2 for a chain of 3NL "
                        "tokens.",
              note="Our consequence of the quoted sentence: O(1) keys per token and 3N tokens "
                   "per step give exponent 1 in N. " + _COUNT_NOTE),
        Claim(id="c5_dynamic_cost_linear_in_L", where="abstract",
              text="with dynamical masking the cost of L GD steps is linear in L",
              paper_value=_QUOTE_MASK,
              check=Slope(method="cot_dynamic", metric="attn_flops", x="L", lo=0.9, hi=1.1,
                          where={"study": "cost", "N": 4}),
              source="derived", basis="construction",
              foils=("cot_full",),
              foil_note="Plain causal CoT is quadratic in the length of the chain, 3NL tokens.",
              note="L = 2..16 at N = 4; exponent 1 +-0.1 (ours). " + _COUNT_NOTE),
        Claim(id="c6_cot_rollout_accurate", where="research note (numerical validations unseen)",
              text="a tiny transformer trained to emit the next GD iterate tracks GD for 16 "
                   "rolled-out steps",
              paper_value="\"Numerical validations support our theory.\"",
              check=Value(method="cot_transformer", metric="param_err_k16", hi=0.1,
                          stat="mean"),
              source="derived",
              foils=("nocot_transformer",),
              foil_note="The same 2-layer model predicting w_16 in one pass has no workspace "
                        "for 16 steps.",
              note="Research note's check: CoT rollout error < 0.1 up to k = 16 (relative "
                   "error to the GD iterate, mean over 128 test prompts, mean over training "
                   "seeds). Why it fails (issue 28, from the report of 2026-12-06, seen after "
                   "the run): the error does not accumulate over the rollout (0.113, 0.078, "
                   "0.071, 0.084, 0.120 at k = 1, 2, 4, 8, 16); the CoT model is above 0.1 "
                   "already at k = 1, which points to its training (800 quick-grid steps; the "
                   "full grid trains 10000), not to the task's size; untested here."),
        Claim(id="c7_nocot_error_grows", where="research note (numerical validations unseen)",
              text="without CoT, the error of predicting the k-th GD iterate grows with k",
              paper_value=("\"a Transformer with fixed depth and hidden dimension has fixed ICL "
                           "capacity in one forward pass\""),
              check=Value(method="nocot_transformer", metric="err_growth", lo=0.1, stat="mean"),
              source="derived",
              foils=("cot_transformer",),
              foil_note="A CoT model whose rollout error stays below the note's 0.1 cannot "
                        "grow by 0.1.",
              note="Research note: non-CoT error grows with k; instantiated as param_err_k16 - "
                   "param_err_k1 > 0.1 (the note's error tolerance). Why it fails (issue 28, "
                   "from the report of 2026-12-06, seen after the run): at d = 4, n = 16, "
                   "lr 0.5 GD has converged by k = 16 (w_16 is 2.4% from w*, w_8 7% and w_4 "
                   "20% from w_16, mean over the data seeds), so the one-pass target barely "
                   "moves after k = 4: its error is 0.304, 0.175, 0.117, 0.114, 0.144 at k = "
                   "1, 2, 4, 8, 16 (highest at k = 1), a growth of -0.159. p_one_pass_fails_"
                   "at_16_steps (0.144 > 0.1) does not test room for growth. A size where GD "
                   "has not converged by k = 16, d = n / 2 (d = 16, n = 32: w_16 10% from w*, "
                   "w_8 12% from w_16), would keep the k-th iterate a moving target; whether "
                   "one pass then fails is untested (grid unchanged)."),
        Claim(id="c8_fixed_width_arbitrary_capacity", where="abstract",
              text="one transformer of fixed depth and fixed hidden dimension, with CoT, runs "
                   "GD for any number of steps on networks of any size",
              paper_value=("\"a Transformer with fixed depth and hidden dimension has fixed ICL "
                           "capacity in one forward pass\" ... \"This enables arbitrary-step and "
                           "arbitrary-capacity ICGD within a constant-depth Transformer\""),
              check=NotRun(method="cot_dynamic",
                           reason="not built (issue 28): a fixed-width learned or neuron-built "
                                  "token-wise map over fixed-width tokens, with its error "
                                  "measured against GD as N, L and the network's width grow; "
                                  "our executor's map is exact numpy arithmetic and its token "
                                  "width grows with the prompt length and the network's width "
                                  "(c1's note), so c1 and c2 only check our construction"),
              source="paper",
              note="The abstract's contrast: capacity without growing depth or width. c1 "
                   "(exact GD) and c2 (one layer) are derived by construction and settle only "
                   "the schedule, retrieval and mask of our reconstruction."),
        Claim(id="c9_paper_cost_bound", where="abstract",
              text="the paper's CoT construction costs O(N) less than Wu et al.'s single pass",
              paper_value=("\"we prove this CoT mechanism improves the computational cost of "
                           "the prior best in-context result [Wu et al., ICML 2025] by O(N)\""),
              check=NotRun(method="cot_dynamic",
                           reason="the paper's construction, its cost model and its proof were "
                                  "not read (abstract only); c3 compares our count of our "
                                  "masked layout with our count of our reading of Wu et al.'s "
                                  "layout, a construction-derived check"),
              source="paper"),
    ),
    grids={
        "smoke": Grid(datasets=(sweep(ICGDRegression, N=[1, 2], L=[3], study=["exec"])
                                + _cost([4, 8], 4, [2, 4], 4)
                                + (cfg(InContextLinearRegression, n_test=16),)),
                      seeds=2, methods=_methods(train_steps=20),
                      note="tiny: executor N <= 2, L = 3; 20 training steps"),
        "quick": Grid(datasets=(sweep(ICGDRegression, N=[1, 2, 4], L=[10, 50], study=["exec"])
                                + _cost([4, 8, 16, 32, 64], 4, [2, 4, 8, 16], 4)
                                + (cfg(InContextLinearRegression),)),
                      seeds=5, methods=_methods(train_steps=800),
                      note="executor N in {1, 2, 4}, L in {10, 50}; costs N = 4..64 (L = 4), "
                           "L = 2..16 (N = 4); learned: 800 steps per model, 5 seeds"),
        "full": Grid(datasets=(sweep(ICGDRegression, N=[1, 2, 4, 8], L=[10, 50, 200],
                                     study=["exec"])
                               + _cost([4, 8, 16, 32, 64], 4, [2, 4, 8, 16, 32], 4)
                               + (cfg(InContextLinearRegression),)),
                     seeds=10, methods=_methods(train_steps=10000),
                     note="about 2.5 CPU-hours, mostly the 20 training runs (10000 steps) "
                          "and plain causal CoT at N = 64 or L = 200"),
    },
    cost_note=("The two learned models on icl_linear_regression take ~183 of 186 CPU-s: 800 "
               "training steps x 5 seeds for cot_transformer (~116 s, ~23 s a seed) and "
               "nocot_transformer (~67 s); the 450 executor, GD and cost cells of the other 6 "
               "methods take ~3 s. They are read by c6_cot_rollout_accurate, "
               "c7_nocot_error_grows, p_nocot_above_chance and p_one_pass_fails_at_16_steps. c6's "
               "note traces its failure (error above 0.1 already at k = 1) to the 800-step "
               "training (the full grid trains 10000), so fewer steps would not do. No expensive "
               "cell feeds tables only."),
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    headlines=(
        Headline(quote="Chain-of-Thought (CoT) expands the expressiveness of Transformer "
                       "in-context learning (ICL)",
                 claims=("c6_cot_rollout_accurate", "c7_nocot_error_grows")),
        Headline(quote="CoT enable efficient simulation of In-Context Gradient Descent (ICGD) for "
                       "$N$-layer neural network",
                 claims=("c1_executor_matches_gd", "c8_fixed_width_arbitrary_capacity")),
        Headline(quote="a Transformer with fixed depth and hidden dimension has fixed ICL "
                       "capacity in one forward pass",
                 claims=("c7_nocot_error_grows", "c8_fixed_width_arbitrary_capacity")),
        Headline(quote="This enables arbitrary-step and arbitrary-capacity ICGD within a "
                       "constant-depth Transformer",
                 claims=("c1_executor_matches_gd", "c2_constant_depth",
                         "c8_fixed_width_arbitrary_capacity")),
        Headline(quote="The attention mechanism only process the relevant tokens for the current "
                       "update step",
                 claims=("c4_dynamic_cost_linear_in_N", "c5_dynamic_cost_linear_in_L")),
        Headline(quote="this CoT mechanism improves the computational cost of the prior best "
                       "in-context result [Wu et al., ICML 2025] by $O(N)$",
                 claims=("c3_cost_improvement_O_N", "c9_paper_cost_bound")),
        Headline(quote="Numerical validations support our theory",
                 claims=("c6_cot_rollout_accurate", "c7_nocot_error_grows")),
    ),
    premises=(
        Premise(id="p_nocot_above_chance",
                text="the one-pass (no-CoT) transformer has learned to predict GD iterates: its "
                     "relative error at k = 1 is below 1, that of predicting w = 0",
                check=Value(method="nocot_transformer", metric="param_err_k1", hi=1.0,
                            stat="mean"),
                claims=("c7_nocot_error_grows",),
                note="Chance from the dataset's definition: GD starts at w_0 = 0 "
                     "(datasets/in_context_regression.py, linear_gd_iterates), so the trivial "
                     "prediction w_hat_k = 0 has relative error ||w_k|| / ||w_k|| = 1 at every k. "
                     "A model that has not beaten it shows no growth with k for reasons of "
                     "training, not of capacity."),
        Premise(id="p_one_pass_fails_at_16_steps",
                text="the task exceeds what one forward pass can do: the no-CoT transformer's "
                     "error on the 16th GD iterate is above the note's tolerance 0.1",
                check=Value(method="nocot_transformer", metric="param_err_k16", lo=0.1,
                            stat="mean"),
                claims=("c7_nocot_error_grows",),
                note="Issue 28: at d = 4 the task may be too easy for one pass to fail, and then "
                     "the paper's fixed one-pass capacity has no room to show (an error that "
                     "stays below 0.1 cannot grow by 0.1). Threshold: the research note's error "
                     "tolerance, the one c6 and c7 use."),
    ),
    amendments=(
        Amendment(date="2026-12-06",
                  claims=("c1_executor_matches_gd", "c2_constant_depth"),
                  what="source paper -> derived, basis construction; Value(stat='max') -> "
                       "Exact (c1: param_err within 1e-5 of 0, the note's tolerance; c2: "
                       "n_layers = 1)",
                  why="c1: the executor does exact numpy arithmetic, so it matches numpy GD by "
                      "construction; c2: one attention layer by definition of our executor. "
                      "Both deterministic",
                  results_seen=True,
                  rule="issue 26: construction basis; exact kind for a deterministic result"),
        Amendment(date="2026-12-06", claims=("c3_cost_improvement_O_N",),
                  what="source paper -> derived, basis construction",
                  why="the exponent difference of two attention-cost counts we wrote (our "
                      "layout and our reading of Wu et al.'s)",
                  results_seen=True, rule="issue 26: construction basis"),
        Amendment(date="2026-12-06",
                  claims=("c4_dynamic_cost_linear_in_N", "c5_dynamic_cost_linear_in_L"),
                  what="basis construction",
                  why="slopes of our own count of the masked attention cost (methods/cot_icgd.py "
                      "(4)): fixed by the formula we wrote",
                  results_seen=True, rule="issue 26: construction basis"),
        Amendment(date="2026-12-06",
                  claims=("p_nocot_above_chance", "p_one_pass_fails_at_16_steps"),
                  what="premises added: the no-CoT transformer beats the w = 0 prediction "
                       "(relative error < 1 at k = 1) and its error at k = 16 exceeds the note's "
                       "0.1; both gate c7; headlines declared (the ICML abstract's 7 checkable "
                       "statements, each mapped to existing claims)",
                  why="issue 28: the learned checks fail on a task (d = 4) that may be too easy "
                      "for one pass to fail; thresholds from the definition of the trivial "
                      "predictor (GD starts at w_0 = 0) and the research note's tolerance, not "
                      "from results",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_executor_matches_gd", "c2_constant_depth",
                          "c3_cost_improvement_O_N"),
                  what="notes only (checks, thresholds, foils, grids and seeds unchanged; "
                       "already derived, basis construction): each says what our construction "
                       "settles and what it does not (exact numpy token-wise map, one-hot "
                       "retrieval at beta = 1e8 bounded by sequence length, token width growing "
                       "with n and the network's width; costs of our layouts); headlines for "
                       "these statements now also map to c8, c9",
                  why="issue 28: c1-c3 hold by construction and were the only claims behind "
                      "the abstract's capacity and cost statements",
                  results_seen=True,
                  rule="issue 28-30 review: notes only; the locked declaration, the cells and "
                       "the verdict unchanged"),
        Amendment(date="2026-12-06",
                  claims=("c8_fixed_width_arbitrary_capacity", "c9_paper_cost_bound"),
                  what="not_run paper claims added for the abstract's fixed-width, "
                       "arbitrary-capacity statement and its proved O(N) cost gain over Wu et "
                       "al.",
                  why="issue 28: the paper's statements stay visible next to the derived checks "
                      "of our construction; neither is run (reasons in the claims)",
                  results_seen=False),
        Amendment(date="2026-12-06",
                  claims=("c6_cot_rollout_accurate", "c7_nocot_error_grows"),
                  what="notes only (checks, thresholds, foils, grids and seeds unchanged): why "
                       "each fails, with the committed report's numbers and the GD iterates' "
                       "convergence at d = 4, n = 16 computed from the dataset",
                  why="issue 28: the learned checks fail and the issue asks whether d = 4 is "
                      "too easy for one pass to fail",
                  results_seen=True,
                  rule="issue 28-30 review: notes only; the locked declaration, the cells and "
                       "the verdict unchanged"),
        Amendment(date="2026-12-06", claims=('c1_executor_matches_gd', 'c2_constant_depth', 'c3_cost_improvement_O_N', 'c4_dynamic_cost_linear_in_N', 'c5_dynamic_cost_linear_in_L', 'c6_cot_rollout_accurate', 'c7_nocot_error_grows', 'c8_fixed_width_arbitrary_capacity', 'c9_paper_cost_bound'),
                  what='methods/cot_icgd.py run_executor reads the key prefix as array views instead of copies and builds each query vector once per tag (the same arithmetic on the same inputs); training unchanged; grids, seeds, steps, checks and foils unchanged',
                  why='issue 27 item 5 (quick-suite CPU): 2040 values of the 600 quick cells compared with a fresh run: 0 differences; the executor cells 0.66x the CPU (4.4 -> 2.9 s; training, 95 % of the benchmark, unchanged)',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-07",
                  claims=("c1_executor_matches_gd", "c2_constant_depth",
                          "c3_cost_improvement_O_N", "c4_dynamic_cost_linear_in_N",
                          "c5_dynamic_cost_linear_in_L", "c6_cot_rollout_accurate",
                          "c7_nocot_error_grows", "c8_fixed_width_arbitrary_capacity",
                          "c9_paper_cost_bound"),
                  what="baselines/icl_weight_prediction.py: the evaluation passes (rollout, "
                       "direct) run the last block at the last 4 tokens only (last_rows), the "
                       "same numbers as the full forward's last row (the other rows were "
                       "computed and not read); training, grids, seeds, steps, checks and foils "
                       "unchanged",
                  why="issue 27 item 5: quick grid CPU 192.9 -> ~192.3 CPU-s (the evaluation "
                      "passes of the 10 learned cells 2.95 -> 2.35 CPU-s, timed back to back)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (compared cell by cell with a fresh "
                       "run: 0 differences)"),
    ),
)
