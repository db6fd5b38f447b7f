"""Universal One-third Time Scaling in Learning Peaked Distributions (arXiv 2602.03685).

Softmax students learn a peaked teacher by gradient descent: a scalar logit-scale model,
the paper's linear-head toy (multinomial logistic student of a linear softmax teacher
at temperature 1e-3, fresh batches every step) and a residual MLP student. On peaked
targets the loss should fall as t^(-1/3), the logit scale grow as t^(1/3) and the gradient
fall as t^(-2/3); a non-peaked teacher, a finite separable set and a squared error on the
logits are the controls, which should not show the 1/3 law. Exponents are fitted on the
last decade of log-spaced checkpoints of each run.
"""
from __future__ import annotations

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Paper, cfg,
                            output_metric)
from claimbench.checks import NotRun, Value
from claimbench.datasets.teacher_student import ScalarTeacher, SoftmaxTeacher
from claimbench.methods.softmax_power_law import LinearSoftmax, MLPSoftmax, ScalarSoftmax

METRICS = (
    output_metric("loss_exponent", description="alpha in L ~ t^-alpha: minus the log-log slope "
                  "of the loss over the last decade of steps (points above the 1e-12 floor; "
                  "100 = at the floor before 3 checkpoints, see loss_censored)"),
    output_metric("logit_scale_exponent", description="gamma in scale ~ t^gamma over the same "
                  "window; scale = D (scalar model) or the mean std of the logits across the "
                  "vocabulary on the probe/training set"),
    output_metric("grad_exponent", description="delta in |grad L| ~ t^-delta over the same "
                  "window (full gradient on the probe/training set)"),
    output_metric("loss_exponent_wide", description="alpha fitted over the last two decades "
                  "(sensitivity of the window)"),
    output_metric("loss_fit_r2", higher_is_better=True,
                  description="R^2 of the log-log loss fit (1 = a clean power law)"),
    output_metric("loss_censored", description="1 when the loss reached its floor before 3 "
                  "checkpoints (loss_exponent is then the cap 100)"),
    output_metric("loss_final", description="loss at the last checkpoint (KL to the teacher, "
                  "or the squared error for the MSE variants)"),
    output_metric("scale_final", description="logit scale at the last checkpoint"),
    output_metric("time_s", description="wall time of the training loop"),
)

# Datasets carry labels so that claims can select them whatever their defaults are.
S_PEAKED = cfg(ScalarTeacher, label="scalar_peaked", temperature=0.0)
S_SOFT = cfg(ScalarTeacher, label="scalar_nonpeaked", temperature=1.0)
S_SEP = cfg(ScalarTeacher, label="scalar_separable", temperature=0.0, n_points=64, margin=0.5)
M_PEAKED = cfg(SoftmaxTeacher, label="softmax_peaked", temperature=1e-3)
M_SOFT = cfg(SoftmaxTeacher, label="softmax_nonpeaked", temperature=1.0)
M_SEP = cfg(SoftmaxTeacher, label="softmax_separable", temperature=0.0, n_train=16)


def _methods(**scale):
    """The grid's methods; ``scale`` overrides steps/batch of the softmax students."""
    s_steps = {"steps": scale["scalar_steps"]} if "scalar_steps" in scale else {}
    m_over = {k: v for k, v in scale.items() if k in ("steps", "batch")}
    return (
        cfg(ScalarSoftmax, label="scalar_gd", **s_steps),
        cfg(ScalarSoftmax, label="scalar_gd_mse_prob", loss="mse_prob", **s_steps),
        cfg(ScalarSoftmax, label="scalar_adam", optimizer="adam", **s_steps),
        cfg(LinearSoftmax, label="linear_gd", **m_over),
        cfg(LinearSoftmax, label="linear_adam", optimizer="adam", **m_over),
        cfg(LinearSoftmax, label="linear_gd_mse_logit", loss="mse_logit", **m_over),
        cfg(MLPSoftmax, label="mlp_gd", **m_over),
        # Foils only: hard-label mutants (methods/softmax_power_law.py), soft teachers only.
        cfg(ScalarSoftmax, label="scalar_gd[mutant=hard_labels]", mutant="hard_labels", **s_steps),
        cfg(LinearSoftmax, label="linear_gd[mutant=hard_labels]", mutant="hard_labels", **m_over),
    )


# The paper's tolerance around 1/3: the fitted exponents it presents as the universal 1/3 (its
# LLM evaluation, Fig. 6 b-c per the authors' README; the plot labels "alpha +- std" are built, and
# the values stored, in the authors' notebook LLMs/pythia-logit-0to3.ipynb): Pythia 70M 0.34 +- 0.03,
# 410M 0.37 +- 0.01, 2.8B 0.34 +- 0.01, 12B 0.31 +- 0.02. The largest deviation from 1/3 the paper
# accepts, at its printed precision, is 0.37 - 1/3.
THIRD = 1.0 / 3.0
THIRD_TOL = 0.37 - THIRD
_ONE_THIRD = ("Band 1/3 +- (0.37 - 1/3) = [0.297, 0.370], strict (issue 14): the largest deviation "
              "from 1/3 among the fitted exponents the paper presents as the universal 1/3 (its Fig. "
              "6 LLM fits, labels computed in the authors' notebook LLMs/pythia-logit-0to3.ipynb: 0.34, "
              "0.37, 0.34, 0.31). Mean over seeds, t-interval; window = last decade of 3000 steps for the "
              "softmax students, of 20000 for the scalar model.")
# The paper's ICML abstract, quoted verbatim by the claims below.
_ABS_THIRD = ("\"This ultimately leads to power-law time scaling of the loss with a universal exponent "
              "of $1/3$\" (abstract)")
_ABS_MICRO = ("\"When learning peaked probability distributions, e.g., next-token distributions, these "
              "components generically yield power-law vanishing losses and gradients, regardless of many "
              "microscopic details\" (abstract)")
_ABS_SOFTMAX = ("\"we show that this behavior can arise intrinsically from the use of softmax and "
                "cross-entropy\" (abstract)")
_ABS_PEAKED = ("\"When learning peaked probability distributions, e.g., next-token distributions, these "
               "components generically yield power-law vanishing losses\" (abstract)")
_MSE_FOIL = ("linear_gd_mse_logit",)
_MSE_NOTE = ("A squared error on the logits (no softmax, no cross-entropy) is what the abstract's "
             "attribution rules out: it learns the same peaked teacher exponentially fast.")
_ADAM_FOIL = ("scalar_adam",)
_ADAM_NOTE = ("Deterministic Adam on one scalar is sign descent: it divides the vanishing gradient by "
              "its own size, so D ~ t and L ~ 1/t; the mechanism (growth slowed by dL/dD ~ D^-2) rules it "
              "out. The paper's Adam runs are stochastic toys (c3), not this scalar model.")
_HARD_NOTE = ("Trained on the teacher's argmax labels, the student's target is peaked whatever the "
              "teacher's temperature, so it must not learn the soft teacher fast; every softmax+CE "
              "learner of the soft labels in the grid does.")
_ADAM_SEP_NOTE = ("The sentence says L ~ 1/t; Adam on separable data decays faster than any 1/t law "
                  "(exponent ~1.7-3.4 in our runs), which 'L ~ 1/t' rules out (a one-sided >= 0.7 "
                  "check cannot).")
# The paper's Adam setting of Fig. 2 (authors' exp/exp-0.py, "Adam Scanning Temperatures"): teacher
# temperatures logspace(-2, -1.2, 8), d = 32, V = 128, batch 1024, Adam lr 3e-3, 50,000 steps. Run in
# the full grid beside the scaled-down quick setting (issue 14); no claim reads it (claims are scoped
# to the quick grid's datasets).
FIG2_TEMPERATURES = tuple(round(10.0 ** (-2.0 + 0.8 * k / 7), 6) for k in range(8))
FIG2_DATASETS = tuple(cfg(SoftmaxTeacher, label=f"softmax_fig2_T{t:g}", temperature=t, d=32, vocab=128)
                      for t in FIG2_TEMPERATURES)
FIG2_ADAM = cfg(LinearSoftmax, label="linear_adam_fig2", optimizer="adam", steps=50_000, batch=1024)
_P = {"dataset": "softmax_peaked"}
_SP = {"dataset": "scalar_peaked"}

CLAIMS = (
    Claim(id="c1_scalar_one_third", where="abstract; theory (tests/test-2.ipynb numerics)",
          text="learning a peaked distribution with softmax and cross-entropy gives power-law "
               "time scaling of the loss with a universal exponent of 1/3",
          paper_value=_ABS_THIRD,
          check=Value(method="scalar_gd", metric="loss_exponent", target=THIRD, tol=THIRD_TOL,
                      where=_SP),
          note="Scalar model: one logit scale D on hard binary labels with a half-normal "
               "margin density; predicted D^3 = D_0^3 + 3 lr A t, L ~ t^-1/3. " + _ONE_THIRD,
          source="paper", foils=_ADAM_FOIL, foil_note=_ADAM_NOTE),
    Claim(id="c2_linear_one_third", where="abstract; App. D.2 (SGD on the toy)",
          text="the linear-head toy learning a peaked teacher shows loss ~ t^-1/3",
          paper_value=_ABS_THIRD,
          check=Value(method="linear_gd", metric="loss_exponent", target=THIRD, tol=THIRD_TOL,
                      where=_P),
          note="Linear head, d = 16, V = 32, teacher temperature 1e-3, online batches of "
               "256, SGD lr 3 (paper: d = 32, V = 128, batch 1024). " + _ONE_THIRD,
          source="paper", foils=_MSE_FOIL, foil_note=_MSE_NOTE),
    Claim(id="c3_linear_adam_one_third", where="abstract; Fig. 1-2 (Adam on the toy)",
          text="the same 1/3 scaling with Adam, the paper's main optimizer",
          paper_value=_ABS_THIRD,
          check=Value(method="linear_adam", metric="loss_exponent", target=THIRD, tol=THIRD_TOL,
                      where=_P),
          note="Adam lr 3e-3 (paper's exp-0 value), betas (0.9, 0.999), same scaled-down "
               "toy. " + _ONE_THIRD + " Caveat found after the first run (threshold and "
               "grid unchanged): the fitted exponent is ~0.57; one exploratory run at the "
               "paper's toy size (d = 32, V = 128, batch 1024, T = 1e-3, lr 3e-3, 1e4 "
               "steps, one seed) gave 0.54 over [1e3, 1e4]. Adam divides the vanishing "
               "gradient by its own running RMS, so the 1/D^2 slowdown of (5) is partly "
               "undone: deterministic Adam grows D ~ t and gives L ~ 1/t (scalar_adam, "
               "~1), SGD noise pulls it back toward 1/3. The paper's Fig. 2 Adam setting "
               "(exp/exp-0.py: T in logspace(-2, -1.2, 8), d = 32, V = 128, batch 1024, lr "
               "3e-3, 5e4 steps) runs in the full grid as linear_adam_fig2 on the "
               "softmax_fig2_T* teachers (issue 14); the quick grid keeps the scaled-down toy "
               "at T = 1e-3 (exp-1's most peaked teacher). The paper's fit windows were not "
               "seen. Decided on the full grid only (issue 29): the quick grid's Adam toy "
               "(d = 16, V = 32, batch 256, 3000 steps) is not the paper's Adam setting "
               "(quick: 0.574 against 1/3), so the paper's main optimizer is read at the "
               "paper's toy size (d = 32, V = 128, batch 1024) and 2e4 steps: the full grid's "
               "linear_adam on softmax_peaked. Measured cost of the paper's Adam toy here (one "
               "seed, one core): at Fig. 1's size and length (authors' exp/exp-1.py, Figs. 1 "
               "and 4: d = 32, V = 128, batch 1024, 2000 steps) 8.2 CPU-s, at the full grid's "
               "2e4 steps ~82 CPU-s. The quick grid runs 5 seeds of every softmax student on "
               "every softmax teacher (no per-pair restriction without a method change), so a "
               "paper-size teacher and a 2000-step Adam student would add ~125 CPU-s (41 CPU-s "
               "for the Adam cells alone) to a 41 CPU-s quick grid, against the ~30 CPU-s a "
               "quick grid may grow by: the cells stay in the full grid only.",
          source="paper", foils=_MSE_FOIL, foil_note=_MSE_NOTE, grids=("full",)),
    Claim(id="c4_mlp_one_third", where="abstract ('regardless of many microscopic details'); "
                                       "App. D.6 (residual toy)",
          text="a deeper (residual MLP) student also shows loss ~ t^-1/3",
          paper_value=_ABS_MICRO + "; " + _ABS_THIRD,
          check=Value(method="mlp_gd", metric="loss_exponent", target=THIRD, tol=THIRD_TOL,
                      where=_P),
          note="One residual relu^2 block (hidden 4d) + final rmsnorm + linear head, trained "
               "by SGD lr 3 on the linear teacher (paper: Adam, 6-48 blocks, residual "
               "teacher). " + _ONE_THIRD,
          source="paper", foils=_MSE_FOIL, foil_note=_MSE_NOTE),
    Claim(id="c5_scalar_logit_scale", where="theory (our derivation of the 1/3 law's mechanism)",
          text="the logit scale grows as t^(1/3) (power-law vanishing gradients slow its "
               "growth)",
          check=Value(method="scalar_gd", metric="logit_scale_exponent", lo=0.25, hi=0.40,
                      where=_SP),
          note="Band from the research note; our derivation predicts exactly 1/3 (t^(1/3) is "
               "implied by L ~ 1/beta and L ~ t^-1/3; the abstract states no scale exponent).",
          source="derived", foils=_ADAM_FOIL, foil_note=_ADAM_NOTE),
    Claim(id="c5b_linear_logit_scale", where="theory; exp-2 (logit std recorded)",
          text="in the toy the logit scale grows as t^(1/3)",
          check=Value(method="linear_gd", metric="logit_scale_exponent", lo=0.25, hi=0.40,
                      where=_P),
          note="Logit scale = mean std of the student's logits across the vocabulary on the "
               "probe set (the paper's exp-2 records the same quantity). Band from the note; "
               "t^(1/3) is our derivation (no scale exponent in what we read of the paper).",
          source="derived", foils=_MSE_FOIL,
          foil_note="Regressed on the teacher's logits W_t x / T, the student's logit scale "
                    "converges exponentially to the teacher's 1/T instead of growing as t^(1/3)."),
    Claim(id="c6_scalar_gradient", where="abstract ('power-law vanishing ... gradients'); "
                                         "test-2.ipynb (-dL/dbeta ~ beta^-2)",
          text="gradients vanish as a power law, |grad| ~ t^(-2/3)",
          paper_value=_ABS_MICRO,
          check=Value(method="scalar_gd", metric="grad_exponent", lo=0.55, hi=0.75, where=_SP),
          note="Deterministic scalar model only: in the online toys the SGD noise keeps the "
               "student off the teacher direction and the full-gradient norm is not the "
               "scale gradient (reported, not checked). Band from the research note. The "
               "t^(-2/3) rate is our derivation from -dL/dbeta ~ beta^-2 (fit -2.26 in the "
               "authors' notebook tests/test-2.ipynb).",
          source="paper", foils=_ADAM_FOIL, foil_note=_ADAM_NOTE),
    Claim(id="c7_scalar_nonpeaked", where="abstract ('when learning peaked distributions'); "
                                          "Fig. 2 (temperature scan)",
          text="the 1/3 law needs a peaked target: a non-peaked teacher is learned fast",
          paper_value=_ABS_PEAKED,
          check=Value(method="scalar_gd", metric="loss_exponent", lo=1.0,
                      where={"dataset": "scalar_nonpeaked"}),
          note="Expected before running (our derivation): the soft teacher (T = 1) is "
               "realizable with a curved optimum D* = 1/T, so the excess loss decays "
               "exponentially and the late log-log slope is steep; any alpha >= 1 (faster "
               "than 1/t) is outside the 1/3 band on the expected side. Fig. 2's temperature "
               "scan was not read.",
          source="paper", foils=("scalar_gd[mutant=hard_labels]",), foil_note=_HARD_NOTE),
    Claim(id="c7b_linear_nonpeaked", where="abstract; Fig. 2",
          text="a non-peaked teacher in the linear toy is learned fast (no 1/3 law)",
          paper_value=_ABS_PEAKED,
          check=Value(method="linear_gd", metric="loss_exponent", lo=1.0,
                      where={"dataset": "softmax_nonpeaked"}),
          note="Teacher temperature 1 (nearly uniform over V = 32). Per-sample gradients "
               "vanish at the teacher (KL to the full teacher distribution), so even online "
               "SGD converges exponentially; expected alpha >= 1.",
          source="paper", foils=("linear_gd[mutant=hard_labels]",), foil_note=_HARD_NOTE),
    Claim(id="c8_scalar_separable", where="contrast in the mechanism (finite margin data)",
          text="finite separable data with a margin give L ~ 1/t, not t^-1/3",
          check=Value(method="scalar_gd", metric="loss_exponent", lo=0.7,
                      where={"dataset": "scalar_separable"}),
          note="64 margins with |u| >= 0.5: L ~ e^(-0.5 D), D ~ log t, L ~ 1/t (classical "
               "separable logistic regression). Threshold 0.7 from the research note. Our "
               "contrast: no number from the paper.",
          source="derived", foils=("scalar_adam",), foil_note=_ADAM_SEP_NOTE),
    Claim(id="c8b_linear_separable", where="contrast in the mechanism (finite margin data)",
          text="a finite (separable) training set gives L ~ 1/t, not t^-1/3",
          check=Value(method="linear_gd", metric="loss_exponent", lo=0.7,
                      where={"dataset": "softmax_separable"}),
          note="16 inputs with argmax labels of the linear teacher (separable with a margin "
               "since n < d), full-batch GD lr 3. Threshold 0.7 from the research note. Our "
               "contrast: no number from the paper.",
          source="derived", foils=("linear_adam",), foil_note=_ADAM_SEP_NOTE),
    Claim(id="c9_linear_mse_logit", where="abstract ('intrinsically from the use of softmax "
                                          "and cross-entropy')",
          text="the slow law comes from softmax + cross-entropy: a squared error on the "
               "logits learns the same peaked teacher fast",
          paper_value=_ABS_SOFTMAX,
          check=Value(method="linear_gd_mse_logit", metric="loss_exponent", lo=1.0, where=_P),
          note="Our control: regression of the student logits on the teacher logits W_t x/T "
               "(T = 1e-3), no softmax, GD lr 0.1; a quadratic loss with curvature I, so "
               "exponential convergence is expected (alpha >= 1). A squared error on the "
               "softmax output is reported too (scalar_gd_mse_prob): our derivation "
               "predicts it keeps the 1/3 law, so we do not read the abstract as excluding "
               "it.",
          source="paper", foils=("linear_gd", "mlp_gd"),
          foil_note="Students trained with softmax + cross-entropy on the same peaked teacher are "
                    "the abstract's slow case: they must not be 'learned fast'."),
)

# Issue 29: statements of the abstract that no claim checked (not_run, with the reason).
ISSUE29_CLAIMS = (
    Claim(id="c10_llm_evidence", where="abstract; LLM evaluation (Fig. 6, Pythia)",
          text="the empirical evaluation of LLMs shows the same power-law time scaling of the "
               "loss with exponent 1/3",
          paper_value=("\"Through systematic analysis of toy models and empirical evaluation of "
                       "LLMs, we show that this behavior can arise intrinsically from the use of "
                       "softmax and cross-entropy\" (abstract)"),
          check=NotRun(method="linear_adam", reason="needs LLM training checkpoints (the paper "
                       "fits Pythia 70M-12B losses over training, Fig. 6): no language model is "
                       "trained or evaluated here, and the checkpoints' weights and evaluation "
                       "compute are not available offline"),
          source="paper"),
)

BENCHMARK = Benchmark(
    slug="softmax_power_law",
    paper=Paper(
        title="Universal One-third Time Scaling in Learning Peaked Distributions",
        arxiv="2602.03685",
        url="https://arxiv.org/abs/2602.03685",
        version="arXiv v1/v2 abstract + the authors' code (github.com/liuyz0/TimeScaling); "
                "body not read",
        authors="Yizhou Liu, Ziming Liu, Cengiz Pehlevan, Jeff Gore",
    ),
    area="optimization",
    fidelity="scaled_down",
    fidelity_note=("The paper's linear-head toy (rmsnorm'ed Gaussian inputs, linear softmax "
                   "teacher at temperature T, zero-initialised student, KL loss, fresh "
                   "batches) at d = 16, V = 32, batch 256 and 3000 steps instead of d = 32, "
                   "V = 128, batch 1024 and up to 1e5 steps; SGD as the main optimizer "
                   "(the paper's App. D.2; its main figures use Adam, also run). The scalar "
                   "model, the one-block MLP student of a linear teacher and the squared-"
                   "error and finite-set controls are ours. The LLM evidence is not "
                   "reproduced."),
    methods=(ScalarSoftmax, LinearSoftmax, MLPSoftmax),
    baselines=(),
    datasets=(ScalarTeacher, SoftmaxTeacher),
    metrics=METRICS,
    primary_metric="loss_exponent",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS + ISSUE29_CLAIMS,
    headlines=(
        Headline(quote="Through systematic analysis of toy models and empirical evaluation of "
                       "LLMs",
                 claims=("c10_llm_evidence",)),
        Headline(quote="we show that this behavior can arise intrinsically from the use of "
                       "softmax and cross-entropy",
                 claims=("c9_linear_mse_logit", "c1_scalar_one_third", "c2_linear_one_third")),
        Headline(quote="When learning peaked probability distributions, e.g., next-token "
                       "distributions, these components generically yield power-law vanishing "
                       "losses and gradients, regardless of many microscopic details",
                 claims=("c4_mlp_one_third", "c6_scalar_gradient", "c7_scalar_nonpeaked",
                         "c7b_linear_nonpeaked")),
        Headline(quote="This ultimately leads to power-law time scaling of the loss with a "
                       "universal exponent of $1/3$",
                 claims=("c1_scalar_one_third", "c2_linear_one_third",
                         "c3_linear_adam_one_third", "c4_mlp_one_third", "c10_llm_evidence")),
    ),
    grids={
        "smoke": Grid(datasets=(S_PEAKED, S_SEP, M_PEAKED, M_SEP), seeds=1,
                      methods=_methods(scalar_steps=300, steps=100, batch=32)),
        "quick": Grid(datasets=(S_PEAKED, S_SOFT, S_SEP, M_PEAKED, M_SOFT, M_SEP), seeds=5,
                      methods=_methods(),
                      note="scalar 2e4 GD steps, softmax students 3000 steps of batch 256; "
                           "the scalar model is deterministic (seeds move only its start)"),
        "full": Grid(datasets=(cfg(ScalarTeacher, label="scalar_peaked", temperature=0.0),
                               cfg(ScalarTeacher, label="scalar_t0.01", temperature=0.01),
                               S_SOFT, S_SEP,
                               cfg(SoftmaxTeacher, label="softmax_peaked", temperature=1e-3,
                                   d=32, vocab=128),
                               cfg(SoftmaxTeacher, label="softmax_t0.01", temperature=1e-2,
                                   d=32, vocab=128),
                               cfg(SoftmaxTeacher, label="softmax_t0.1", temperature=0.1,
                                   d=32, vocab=128),
                               cfg(SoftmaxTeacher, label="softmax_nonpeaked", temperature=1.0,
                                   d=32, vocab=128),
                               cfg(SoftmaxTeacher, label="softmax_separable", temperature=0.0,
                                   n_train=16, d=32, vocab=128)) + FIG2_DATASETS,
                     seeds=5,
                     methods=_methods(scalar_steps=100_000, steps=20_000, batch=1024) + (FIG2_ADAM,),
                     note="the paper's toy size (d = 32, V = 128, batch 1024) for 2e4 steps "
                          "and a temperature scan; beside it the paper's Fig. 2 Adam setting "
                          "(exp/exp-0.py: T in logspace(-2, -1.2, 8), Adam lr 3e-3, 5e4 steps, "
                          "linear_adam_fig2 on softmax_fig2_T*); several CPU-hours"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared; hard-label mutants scalar_gd[mutant=hard_labels] "
                       "and linear_gd[mutant=hard_labels] added to every grid (soft teachers only); "
                       "paper_value quotes the abstract, our derived exponents and the notebook fit "
                       "moved to note",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c1_scalar_one_third", "c2_linear_one_third", "c3_linear_adam_one_third",
                          "c4_mlp_one_third"),
                  what="loss-exponent band [0.28, 0.40] (research note) -> 1/3 +- (0.37 - 1/3) = "
                       "[0.297, 0.370]; the full grid also runs the paper's Fig. 2 Adam setting "
                       "(linear_adam_fig2 on eight softmax_fig2_T* teachers), read by no claim",
                  why="issue 14: c2/c4 passed the note's band although their intervals exclude 1/3; the "
                      "tolerance now comes from the paper: the largest deviation from 1/3 among the "
                      "fitted exponents it presents as the universal 1/3 (Fig. 6 LLM fits: 0.34 +- 0.03, "
                      "0.37 +- 0.01, 0.34 +- 0.01, 0.31 +- 0.02, from the authors' notebook "
                      "LLMs/pythia-logit-0to3.ipynb; the body's text was not readable offline). Results had "
                      "been seen (committed quick run: c2 0.364 [0.352, 0.377], c4 0.382 [0.369, 0.396])",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c6_scalar_gradient", "c7_scalar_nonpeaked", "c7b_linear_nonpeaked",
                          "c9_linear_mse_logit"),
                  what="source derived -> paper (checks, bands and foils unchanged); paper_values quote "
                       "the ICML abstract verbatim; c5's placement reworded (our derivation, not the "
                       "abstract's words)",
                  why="each is placed in the abstract: power-law vanishing gradients (c6), 'when learning "
                      "peaked probability distributions' (c7, c7b), 'intrinsically from the use of softmax "
                      "and cross-entropy' (c9)",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'"),
        Amendment(date="2026-12-06", claims=("c3_linear_adam_one_third", "c10_llm_evidence"),
                  what="c3 decided on the full grid only (Claim.grids=('full',)); check, band, "
                       "foils and scope unchanged. c10 added as not_run (the LLM evidence). "
                       "Headlines declared (the abstract's 4 checkable statements)",
                  why="issue 29: the paper's main optimizer, Adam, gives 0.574 against 1/3 in the "
                      "quick grid's scaled-down toy (d = 16, 3000 steps); the issue asks to run "
                      "the Adam toy at the paper's size and length before reading c3, and the "
                      "full grid runs it at the paper's size (d = 32, V = 128, batch 1024). The "
                      "LLM statement of the abstract had no claim. Chosen after the quick "
                      "verdict was seen",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c3_linear_adam_one_third",),
                  what="note only: the measured cost of the paper's Adam toy (Fig. 1 size and "
                       "length, exp/exp-1.py: 8.2 CPU-s a seed; 2e4 steps ~82 CPU-s) and why its "
                       "cells stay in the full grid; check, band, foils, scope and grids "
                       "unchanged (c3 stays not_run on the quick grid)",
                  why="issue 29 follow-up: the quick grid could take the paper-size Adam cells "
                      "only if a few seeds fit in ~30 extra CPU-s; they do not (5 seeds and the "
                      "grid's student x teacher pairing: ~125 CPU-s, 41 CPU-s for the Adam "
                      "cells alone), so c3 is decided on the full grid, which runs the paper's "
                      "size for 2e4 steps (longer than Fig. 1's 2000)",
                  results_seen=True),
    ),
)
