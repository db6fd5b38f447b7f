"""EmbodiedAct: Grounding LLMs in Scientific Discovery via Embodied Actions (arXiv 2602.20639).

Generated stiff, transiently stiff and unstable ODE / control-design tasks simulated in GNU
Octave by one naive scripted code-writer (explicit Euler, fixed repair rules), run in two loops:
execute-then-respond (run the whole horizon, read the result, repair, rerun) and EmbodiedAct's
perception-execution loop (stream every solver step, stop at a non-finite value, a blow-up, an
integrator sawtooth or a growing oscillation, hot-fix from the last checkpoint and continue).
Checked: success rate and wasted simulation steps at equal policy, the hot fix, and (with a
capable model through --model) the LLM-driven loop against CodeAct-style execute-then-respond.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                            sweep)
from claimbench.baselines.execute_then_respond import ExecuteThenRespond
from claimbench.checks import Better, NotRun, Value
from claimbench.datasets.stiff_control_odes import StiffControlTasks, task_success
from claimbench.methods.embodiedact import EmbodiedAct


def _per_task(inst, out):
    tasks, refs, rtol = inst.data["tasks"], inst.truth["refs"], inst.truth["rtol"]
    return [(task_success(t, r, o, rtol), o) for t, r, o in zip(tasks, refs, out["tasks"])]


def _success(inst, out):
    rows = _per_task(inst, out)
    return float(np.mean([ok for ok, _ in rows])) if rows else None


def _wasted(inst, out):
    rows = _per_task(inst, out)
    return (float(np.mean([o["steps_total"] - (o["steps_kept"] if ok else 0) for ok, o in rows]))
            if rows else None)


def _total(inst, out):
    return float(np.mean([o["steps_total"] for o in out["tasks"]])) if out["tasks"] else None


def _runs(inst, out):
    return float(np.mean([o["runs"] for o in out["tasks"]])) if out["tasks"] else None


METRICS = (
    Metric("success", _success, True,
           "fraction of tasks whose delivered trajectory (all sample times) is finite, within "
           "5% of the reference per component scale, and meets the end condition"),
    Metric("steps_wasted", _wasted, False,
           "mean per task of solver steps executed but not in the delivered trajectory (all "
           "steps of a failed task)"),
    Metric("steps_total", _total, False, "mean solver steps executed per task"),
    Metric("octave_calls", _runs, False, "mean Octave simulation calls per task"),
)

EA = "embodiedact"
NAN_ONLY = "embodiedact[mutant=nan_only]"
NO_STREAM = "embodiedact[mutant=no_stream]"
RESTART = "embodiedact[mutant=restart]"
ETR = "execute_then_respond[observe=final]"
ETR_TRAJ = "execute_then_respond[observe=trajectory]"
EA_LLM = "embodiedact[policy=llm]"
EA_LLM_NOSTREAM = "embodiedact[policy=llm,mutant=no_stream]"
CODEACT_LLM = "execute_then_respond[policy=llm]"


def _methods(llm_tasks: int, llm_tokens: int) -> tuple:
    llm = dict(policy="llm", max_tasks=llm_tasks, max_tokens=llm_tokens)
    return (cfg(EmbodiedAct, label=EA),
            cfg(EmbodiedAct, label=NAN_ONLY, mutant="nan_only"),
            cfg(EmbodiedAct, label=NO_STREAM, mutant="no_stream"),
            cfg(EmbodiedAct, label=RESTART, mutant="restart"),
            cfg(ExecuteThenRespond, label=ETR, observe="final"),
            cfg(ExecuteThenRespond, label=ETR_TRAJ, observe="trajectory"),
            cfg(EmbodiedAct, label=EA_LLM, **llm),
            cfg(EmbodiedAct, label=EA_LLM_NOSTREAM, mutant="no_stream", **llm),
            cfg(ExecuteThenRespond, label=CODEACT_LLM, observe="final", **llm))


_ABS = ("\"Existing solutions operate in a passive 'execute-then-response' loop and thus lack "
        "runtime perception, obscuring agents to transient anomalies (e.g., numerical "
        "instability or diverging oscillations)\"; \"EmbodiedAct significantly outperforms "
        "existing baselines ... ensuring satisfactory reliability and stability in "
        "long-horizon simulations\" (abstract)")

BENCHMARK = Benchmark(
    slug="embodiedact",
    paper=Paper(
        title="Grounding LLMs in Scientific Discovery via Embodied Actions",
        arxiv="2602.20639",
        url="https://arxiv.org/abs/2602.20639",
        version="arXiv v1 (abstract, third-party summaries and the code README; body and "
                "tables not read)",
        authors="Bo Zhang, Jinfeng Zhou, Yuxuan Chen, Jianing Yin, Minlie Huang, Hongning Wang",
    ),
    area="llm_agents",
    fidelity="proxy",
    fidelity_note=("The paper runs GPT-class LLMs against MATLAB/Simulink on EngDesign and "
                   "SciBench-107 (not released). Here GNU Octave is the runtime, the tasks are "
                   "generated stiff / transiently stiff / unstable ODE and control-design "
                   "problems, and the default code-writer is a scripted naive policy with fixed "
                   "repair rules, identical in both loops: only the monitoring idea (runtime "
                   "perception + hot fix against execute-then-respond) is tested, never the "
                   "paper's LLM numbers. The LLM arms run through the model adapter; with the "
                   "tiny model they fail by construction (needs_capable_model)."),
    methods=(EmbodiedAct,),
    baselines=(ExecuteThenRespond,),
    datasets=(StiffControlTasks,),
    metrics=METRICS,
    primary_metric="success",
    claims=(
        Claim(id="c1_success_vs_execute_then_respond", where="abstract",
              text="runtime perception catches transient anomalies that execute-then-response "
                   "misses, so the loop succeeds more often",
              paper_value=_ABS,
              check=Better(method=EA, baseline=ETR, metric="success", margin=0.0),
              source="derived", basis="construction", foils=(NAN_ONLY,),
              foil_note="Perception reduced to crash signals (non-finite values, errors) cannot "
                        "see finite transient blow-ups or oscillations and must not beat "
                        "execute-then-respond on success.",
              note="Same scripted code-writer and repair rules in both loops; execute-then-"
                   "respond reads the final state (and errors) of each whole-horizon run. "
                   "Paired over instances (4 tasks each); margin 0 (the abstract gives no "
                   "number for this setting). A mechanism check (issue 30): a scripted naive-"
                   "Euler policy with fixed repair rules stands in for the LLM agent in both "
                   "loops, and our detectors and tasks settle what it can see, so it is ours by "
                   "construction; the paper's claim about LLM agents is c6-c8. The committed "
                   "results show the nan_only foil identical to execute_then_respond"
                   "[observe=final] per dataset, so that foil gives no evidence."),
        Claim(id="c2_fewer_wasted_steps", where="abstract; research note",
              text="the perception loop wastes fewer simulation steps than execute-then-respond "
                   "at equal policy",
              paper_value=_ABS,
              check=Better(method=EA, baseline=ETR_TRAJ, metric="steps_wasted", margin=0.0),
              source="paper", foils=(),
              foil_note="None: the same loop with streaming removed (no_stream), its foil until "
                        "issue 26, is by construction the baseline execute_then_respond"
                        "[observe=trajectory] (the method's header: 'with the same detectors "
                        "this is execute-then-respond with a post-hoc check'), so it compared the "
                        "baseline with itself. No other method of the grid is ruled out by the "
                        "wording; the claim cannot be reproduced.",
              note="Compared with the stronger execute-then-respond variant that checks the "
                   "whole returned trajectory post hoc with the same detectors, so both reach "
                   "the same repairs; the saving is only early stopping and hot fixes. "
                   "Steps of a failed task all count as wasted."),
        Claim(id="c3_hotfix_saves_steps", where="code README (M_ref: repair locally or "
                                                "re-plan globally); research note",
              text="hot-fixing from the checkpoint wastes fewer steps than restarting the run",
              paper_value="README: the reflective module decides \"whether to accept, repair "
                          "locally, or re-plan globally\" (no number)",
              check=Better(method=EA, baseline=RESTART, metric="steps_wasted", margin=0.0),
              source="derived", foils=(NO_STREAM,),
              foil_note="Without streaming every repair reruns the whole horizon; it must not "
                        "waste fewer steps than perceive-and-restart.",
              note="Restart mutant: same detectors and repairs, but each repair restarts at "
                   "t = 0."),
        Claim(id="c4_success_noninferior_to_posthoc", where="research note",
              text="stopping early loses no success against a full post-hoc trajectory check",
              paper_value="(none: derived)",
              check=Better(method=EA, baseline=ETR_TRAJ, metric="success", margin=-0.1),
              source="derived", foils=(NAN_ONLY,),
              foil_note="Crash-only perception must fall more than 0.1 below the post-hoc "
                        "trajectory check.",
              note="Non-inferiority margin 0.1 in success rate (ours)."),
        Claim(id="c5_reliable", where="abstract",
              text="ensuring satisfactory reliability and stability in long-horizon simulations",
              paper_value=_ABS,
              check=Value(method=EA, metric="success", lo=0.9, stat="mean"),
              source="derived", basis="construction", foils=(NAN_ONLY,),
              foil_note="Crash-only perception must not reach a mean success of 0.9.",
              note="'Satisfactory reliability' fixed as a mean success rate of at least 0.9 "
                   "(our threshold) on these tasks. Ours by construction (issue 26): the level "
                   "is that of our scripted stand-in code-writer and repair rules on tasks we "
                   "generate, not the paper's LLM agent's."),
        Claim(id="c6_llm_beats_codeact", where="abstract; Table (SciBench-107)",
              text="with an LLM code-writer, EmbodiedAct outperforms CodeAct "
                   "(execute-then-respond)",
              paper_value="\"Extensive experiments show that EmbodiedAct significantly "
                          "outperforms existing baselines\" (abstract); SciBench-107 62.5, above "
                          "CodeAct (Table, per research note via wizwand.com; not verified)",
              check=Better(method=EA_LLM, baseline=CODEACT_LLM, metric="success", margin=0.0),
              source="paper", foils=(EA_LLM_NOSTREAM,), needs_capable_model=True,
              foil_note="The LLM loop with streaming removed must not beat CodeAct.",
              note="The model proposes solver, step and gain in a fixed template; one task per "
                   "instance in smoke/quick (LLM arms kept small)."),
        Claim(id="c7_engdesign", where="abstract; main results",
              text="state-of-the-art on EngDesign (Core / Extended)",
              paper_value="\"evaluate it on complex engineering design and scientific modeling "
                          "tasks\"; \"achieving SOTA performance\" (abstract); EngDesign Core "
                          "70.6, Extended 65.4 (main results, per research note via wizwand.com; "
                          "not verified)",
              check=NotRun(method=EA_LLM, reason="needs MATLAB/Simulink, a GPT-class LLM and the "
                                                 "EngDesign tasks, none of which run here"),
              source="paper"),
        Claim(id="c8_scibench_multistep", where="abstract; main results",
              text="beats CodeAct and GPT-5.2 zero-shot on SciBench-107 and multi-step reasoning",
              paper_value="\"achieving SOTA performance\"; \"enhanced accuracy in scientific "
                          "modeling\" (abstract); SciBench-107 62.5, multi-step reasoning 61.6 "
                          "(main results, per research note via wizwand.com; not verified)",
              check=NotRun(method=EA_LLM, reason="SciBench-107 is curated by the authors and not "
                                                 "released; needs a GPT-class LLM and MATLAB"),
              source="paper"),
        Claim(id="c9_llm_reliable_long_horizon", where="abstract",
              text="the LLM-driven EmbodiedAct ensures satisfactory reliability and stability in "
                   "long-horizon simulations",
              paper_value="\"achieving SOTA performance by ensuring satisfactory reliability and "
                          "stability in long-horizon simulations\" (abstract)",
              check=NotRun(method=EA_LLM, reason="the paper's long-horizon MATLAB/Simulink "
                           "simulations with a GPT-class LLM do not run here, and c5 measures only "
                           "our scripted stand-in's level (by construction); not built yet "
                           "(issue 30): the LLM arm's success and wasted steps on the stiff and "
                           "unstable families at a declared level, with a capable model"),
              source="paper"),
    ),
    headlines=(
        Headline(quote="Existing solutions operate in a passive \"execute-then-response\" loop "
                       "and thus lack runtime perception, obscuring agents to transient "
                       "anomalies",
                 claims=("c1_success_vs_execute_then_respond", "c2_fewer_wasted_steps")),
        Headline(quote="EmbodiedAct significantly outperforms existing baselines",
                 claims=("c6_llm_beats_codeact", "c7_engdesign", "c8_scibench_multistep")),
        Headline(quote="achieving SOTA performance",
                 claims=("c7_engdesign", "c8_scibench_multistep")),
        Headline(quote="ensuring satisfactory reliability and stability in long-horizon "
                       "simulations",
                 claims=("c9_llm_reliable_long_horizon", "c5_reliable")),
        Headline(quote="enhanced accuracy in scientific modeling",
                 claims=("c8_scibench_multistep",)),
    ),
    grids={
        "smoke": Grid(datasets=sweep(StiffControlTasks, n_tasks=[1], n_segments=[5]), seeds=1,
                      methods=_methods(llm_tasks=1, llm_tokens=8),
                      note="one stiff-linear task per instance: plumbing only"),
        "quick": Grid(datasets=sweep(StiffControlTasks, n_tasks=[4]), seeds=10,
                      methods=_methods(llm_tasks=1, llm_tokens=24),
                      note="10 instances x 4 tasks (one per family); LLM arms on the first task "
                           "only, 24 tokens"),
        "full": Grid(datasets=sweep(StiffControlTasks, n_tasks=[40]), seeds=30,
                     methods=_methods(llm_tasks=40, llm_tokens=256),
                     note="30 instances x 40 tasks, LLM arms on every task; about 1 CPU-hour "
                          "plus the model's time"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-06", claims=("c2_fewer_wasted_steps",),
                  what="source derived -> paper",
                  why="placed in the abstract, so it is the paper's claim",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'"),
        Amendment(date="2026-12-06", claims=("c2_fewer_wasted_steps",),
                  what="foil embodiedact[mutant=no_stream] removed (no foil left)",
                  why="the mutant is the check's baseline execute_then_respond[observe="
                      "trajectory] by construction (whole horizon in one call, same detectors, "
                      "post-hoc check): in the subject's place it compares the baseline with "
                      "itself",
                  results_seen=True,
                  rule="issue 26: Y-vs-Y foils removed"),
        Amendment(date="2026-12-06", claims=("c5_reliable",),
                  what="basis construction",
                  why="an absolute success level of our scripted stand-in code-writer on tasks "
                      "we generate: ours by construction, not the paper's LLM agent's",
                  results_seen=True,
                  rule="issue 26: construction basis"),
        Amendment(date="2026-12-06", claims=("c1_success_vs_execute_then_respond",),
                  what="source paper -> derived, basis construction; check, foil and scope "
                       "unchanged",
                  why="issue 30: c1 runs one scripted naive-Euler code-writer with fixed repair "
                      "rules in both loops, so it checks our mechanism (our detectors on tasks we "
                      "generate), not the paper's LLM agents, whose claim is c6-c8",
                  results_seen=True,
                  rule="issue 26: construction basis"),
        Amendment(date="2026-12-06", claims=("c9_llm_reliable_long_horizon",),
                  what="not_run paper claim added for the abstract's 'satisfactory reliability "
                       "and stability in long-horizon simulations' of the LLM agent; headlines "
                       "declared (5 statements of the ICML abstract)",
                  why="issue 30: every checkable statement of the abstract is mapped to a claim; "
                      "only c5, our scripted stand-in's level by construction, touched this one",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_success_vs_execute_then_respond', 'c2_fewer_wasted_steps', 'c3_hotfix_saves_steps', 'c4_success_noninferior_to_posthoc', 'c5_reliable', 'c6_llm_beats_codeact', 'c7_engdesign', 'c8_scibench_multistep', 'c9_llm_reliable_long_horizon'),
                  what="the Octave simulation prints each segment's rows in one write and the reader searches only new bytes for the end marker (the same text)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
