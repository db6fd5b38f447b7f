"""Demystifying Action Space Design for Robotic Manipulation Policies (arXiv 2602.23408).

Behaviour cloning with action chunks on a simulated planar 3-link arm reaching goals, from
scripted DLS-IK demonstrations, over joint / end-effector space and absolute / step-wise delta /
chunk-wise delta actions, at two numbers of demonstrations. Checked: delta beats absolute in
both spaces, chunk-wise delta beats step-wise delta, joint space is smoother, end-effector
space transfers better to a changed embodiment (link lengths).
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
from claimbench.baselines.chunked_behavior_cloning import ChunkedBC
from claimbench.checks import Better, NotRun
from claimbench.datasets.planar_arm import PlanarArmReaching
from claimbench.methods.action_space import ChunkDeltaBC

# Used only by the amendments: an assignment rather than an import, so that the module's cell
# key (provenance.cell_hash drops judgement-only assignments, not imports) does not change.


def _success(key_out: str, key_goal: str):
    def fn(inst, out):
        d = np.linalg.norm(out[key_out] - inst.truth[key_goal], axis=1)
        return float(np.mean(d < inst.truth["tol"]))
    return fn


METRICS = (
    Metric("success", _success("final_ee", "eval_goal"), True,
           "fraction of nominal-arm evaluation episodes ending within tol of the goal"),
    Metric("embodiment_success", _success("shift_final_ee", "shift_goal"), True,
           "success on the changed arm (links x 1.2, 0.8, 1.0), policy trained on the nominal arm"),
    output_metric("jerk", description="mean over episodes and steps of |third difference of q|^2 "
                  "(rad^2), nominal arm: lower is smoother control"),
    output_metric("train_loss", description="last minibatch MSE on standardised chunk targets"),
)

JOINT = "joint_chunk_delta"
EEF = "eef_chunk_delta"
JOINT_MUT = "joint_chunk_delta[mutant=decode_stepwise]"
EEF_MUT = "eef_chunk_delta[mutant=decode_stepwise]"


def _methods(extra: tuple = (), **train) -> tuple:
    out = [cfg(ChunkDeltaBC, label=JOINT, space="joint", **train),
           cfg(ChunkDeltaBC, label=EEF, space="eef", **train),
           cfg(ChunkDeltaBC, label=JOINT_MUT, space="joint", mutant="decode_stepwise", **train),
           cfg(ChunkDeltaBC, label=EEF_MUT, space="eef", mutant="decode_stepwise", **train)]
    for space, mode in (("joint", "abs"), ("joint", "step_delta"), ("eef", "abs")) + extra:
        out.append(cfg(ChunkedBC, label=f"{space}_{mode}", space=space, mode=mode, **train))
    return tuple(out)


_PAPER = "Sec. 4.1 / abstract"
_Q_COMPLEMENTARY = ("joint-space and task-space representations offer complementary strengths, "
                    "favoring control stability and generalization, respectively")
_DELTA_PV = ("\"properly designing the policy to predict delta actions consistently improves "
             "performance\"")
_MUT_NOTE = ("The mutant is the paper's representation with its decoding slipped to step-wise "
             "(the 'implementation nuance' the paper calls decisive). The absolute baseline, a "
             "foil until issue 26, is the check's own baseline: in the subject's place it "
             "compared with itself, so it was removed.")

BENCHMARK = Benchmark(
    slug="action_space",
    paper=Paper(
        title="Demystifying Action Space Design for Robotic Manipulation Policies",
        arxiv="2602.23408",
        url="https://arxiv.org/abs/2602.23408",
        version="arXiv v1 (abstract, section titles and third-party summaries; body not read)",
        authors="Yuchun Feng, Jinliang Zheng, Zhihao Wang, Dongxiu Liu, Jianxiong Li, "
                "Jiangmiao Pang, Tai Wang, Xianyuan Zhan",
    ),
    area="rl_systems",
    fidelity="proxy",
    fidelity_note=("The paper's evidence is 13,000+ real-world rollouts on bimanual 6-DoF arms "
                   "with image-based ACT/Diffusion-Policy-like models; here a simulated planar "
                   "3-link reaching task with state observations and an MLP chunk regressor "
                   "stands in for it. The action-space encodings are the paper's taxonomy; "
                   "the task, the policy class, the stability measure (jerk) and the embodiment "
                   "change are ours, so numbers are not comparable, only directions."),
    methods=(ChunkDeltaBC,),
    baselines=(ChunkedBC,),
    datasets=(PlanarArmReaching,),
    metrics=METRICS,
    primary_metric="success",
    unit=(),
    claims=(
        Claim(id="c1_delta_beats_abs_joint", where=_PAPER,
              text="delta actions beat absolute actions (joint space)",
              paper_value=_DELTA_PV,
              check=Better(method=JOINT, baseline="joint_abs", metric="success"),
              source="paper", foils=(JOINT_MUT,), foil_note=_MUT_NOTE,
              note="Paired over (n_demos, seed) cells, both n_demos pooled; margin 0."),
        Claim(id="c2_delta_beats_abs_eef", where=_PAPER,
              text="delta actions beat absolute actions (end-effector space)",
              paper_value=_DELTA_PV,
              check=Better(method=EEF, baseline="eef_abs", metric="success"),
              source="paper", foils=(EEF_MUT,), foil_note=_MUT_NOTE,
              note="As c1 in task space (targets executed through DLS IK)."),
        Claim(id="c3_chunk_delta_beats_step_delta", where="Sec. 4.1.1",
              text="chunk-wise delta beats step-wise delta",
              paper_value="Sec. 4.1.1, whose title begins \"Superiority of Ch\" (truncated in "
                          "the table of contents read); per a third-party summary (wispaper.ai), "
                          "chunk-wise delta in joint space is the superior configuration (the "
                          "paper's words not verified)",
              check=Better(method=JOINT, baseline="joint_step_delta", metric="success"),
              source="paper", foils=(JOINT_MUT, "joint_abs"),
              foil_note="Absolute actions and the mis-decoded chunk delta must not beat "
                        "step-wise delta if the chunk-relative convention is what helps.",
              note="Joint space (the paper's best configuration); margin 0. The issue words it "
                   "'at least'; the paper's section title says superiority, which we test."),
        Claim(id="c4_joint_smoother", where="abstract",
              text="joint space favours control stability",
              paper_value="\"joint-space and task-space representations offer complementary "
                          "strengths, favoring control stability and generalization, "
                          "respectively\"",
              check=Better(method=JOINT, baseline=EEF, metric="jerk"),
              source="paper", foils=("eef_abs", JOINT_MUT),
              foil_note="Another task-space policy and the mis-decoded joint policy (which "
                        "oscillates) must not be smoother than the task-space chunk-delta policy.",
              note="Stability measured as joint jerk (Deviation 5 of methods/action_space.py); "
                   "lower is better; margin 0."),
        Claim(id="c5_eef_transfers_embodiment",
              where="ours: embodiment-change test (the IK controller is given the new links)",
              text="task-space actions transfer to a changed embodiment better than joint-space "
                   "ones when the controller knows the new arm",
              check=Better(method=EEF, baseline=JOINT, metric="embodiment_success"),
              source="derived", basis="construction",
              foils=("joint_abs", "joint_step_delta"),
              foil_note="Joint-space policies map goals to the old arm's joint angles; they "
                        "must not transfer better than the joint chunk-delta policy.",
              note="Links x (1.2, 0.8, 1.0) at test time; margin 0. Holds by our construction "
                   "(issue 30): the DLS IK that executes end-effector targets is told the "
                   "changed link lengths, so task-space actions reach the same points on the "
                   "new arm while joint-space actions do not; it tests our controller, not the "
                   "paper's 'generalization' (c6). The paper_value quoted before came partly "
                   "from a third-party summary (wispaper.ai) and was removed."),
        Claim(id="c6_task_space_generalizes", where="abstract",
              text="task-space actions favour generalization (joint-space ones control "
                   "stability)",
              paper_value="\"" + _Q_COMPLEMENTARY + "\" (abstract)",
              check=NotRun(method=EEF,
                           reason="not built yet (issue 30): a generalisation test where the "
                                  "controller gives task space no built-in advantage: held-out "
                                  "goal regions or initial states outside the demonstrations' "
                                  "range (the evaluation goals now come from the training "
                                  "distribution); needs dataset configs the grids do not have"),
              source="paper"),
    ),
    headlines=(
        Headline(quote="confirming that the action space does have significant and complex "
                       "impacts on robotic policy learning",
                 claims=("c1_delta_beats_abs_joint", "c2_delta_beats_abs_eef",
                         "c3_chunk_delta_beats_step_delta", "c4_joint_smoother")),
        Headline(quote="properly designing the policy to predict delta actions consistently "
                       "improves performance",
                 claims=("c1_delta_beats_abs_joint", "c2_delta_beats_abs_eef")),
        Headline(quote=_Q_COMPLEMENTARY, claims=("c4_joint_smoother",
                                                 "c6_task_space_generalizes")),
    ),
    grids={
        "smoke": Grid(datasets=sweep(PlanarArmReaching, n_demos=[20], n_eval=[30]), seeds=2,
                      methods=_methods(steps=150),
                      note="150 Adam steps: plumbing only; 2 seeds cannot be significant"),
        "quick": Grid(datasets=sweep(PlanarArmReaching, n_demos=[20, 80]), seeds=5,
                      methods=_methods(),
                      note="800 Adam steps, MLP width 64, 100 evaluation episodes per arm; "
                           "about 1-2 CPU-min"),
        "full": Grid(datasets=sweep(PlanarArmReaching, n_demos=[25, 50, 100, 200, 500],
                                    n_eval=[200]), seeds=10,
                     methods=_methods(extra=(("eef", "step_delta"),), steps=5000, width=128),
                     note="the note's 50-500 demos scaling axis, plus eef_step_delta for the "
                          "table; roughly 1 CPU-hour"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-06", claims=("c1_delta_beats_abs_joint",
                                             "c2_delta_beats_abs_eef"),
                  what="foils joint_abs (c1) and eef_abs (c2) removed; the decode-stepwise "
                       "mutants remain the foils; checks unchanged",
                  why="each was the check's own Better baseline: in the subject's place it "
                      "compared with itself (improvement exactly 0) and failed by construction",
                  results_seen=True,
                  rule="issue 26: Y-vs-Y foil removed"),
        Amendment(date="2026-12-06", claims=("c5_eef_transfers_embodiment",),
                  what="source paper -> derived, basis construction; where and text name our "
                       "embodiment-change test; paper_value (abstract + a third-party summary) "
                       "removed; check and foils unchanged",
                  why="issue 30: the IK controller is told the new link lengths, so task-space "
                      "actions transfer by our construction; the summary's words are not the "
                      "paper's",
                  results_seen=True, rule="issue 26: construction basis; the paper's own words"),
        Amendment(date="2026-12-06", claims=("c6_task_space_generalizes",),
                  what="headlines declared (3 statements of the ICML abstract); 'task space "
                       "favours generalization' gets the not_run claim c6",
                  why="issue 30: with c5 ours by construction, no claim tests the paper's "
                      "generalization statement",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_delta_beats_abs_joint', 'c2_delta_beats_abs_eef', 'c3_chunk_delta_beats_step_delta', 'c4_joint_smoother', 'c5_eef_transfers_embodiment', 'c6_task_space_generalizes'),
                  what="chunked behaviour cloning trains through the checkpoint cache (the decode_stepwise mutants load their parent's model) with foreach Adam/AdamW (one call per step for the parameter list, the per-tensor loop's arithmetic)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c1_delta_beats_abs_joint', 'c2_delta_beats_abs_eef', 'c3_chunk_delta_beats_step_delta', 'c4_joint_smoother', 'c5_eef_transfers_embodiment', 'c6_task_space_generalizes'),
                  what='the behaviour-cloning checkpoint key names its data with claimbench.checkpoints.array_digest (was an inline hash)',
                  why='review: one shared content hash (claimbench.checkpoints.array_digest) instead of a hand-written one per cache; the cache holds the same results',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
