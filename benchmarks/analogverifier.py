"""AnalogVerifier: A Neuro-Symbolic Framework for Analog Circuit Verification (ICML 2026 poster).

Generated RC low-pass, RLC band-pass and op-amp amplifier circuits with specifications (cut-off,
centre frequency, bandwidth, gain, settling), half of them with a faulty component; testbenches
(ngspice control blocks) generated from a dispersed specification and run in ngspice. The paper's
pipeline (task serialization, port-dependency-graph scheduling, a sympy symbolic threshold oracle,
closed-loop repair) against direct generation (the generator's own order and numbers, with and
without generic feedback repair) and random ordering. Checked: zero ordering violations, exact
thresholds, thresholds agreeing with the simulator, the functional pass rate, and the repair
loop's gain.
"""
from __future__ import annotations

import math

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
from claimbench.baselines.direct_testbench_generation import DirectTestbench
from claimbench.checks import Better, Exact, NotRun, Value
from claimbench.datasets.analog_testbenches import AnalogTestbenches, violations
from claimbench.methods.analogverifier import AnalogVerifier

# Used only by the claims and amendments: assignments rather than imports, so that the module's
# cell key (provenance.cell_hash drops judgement-only assignments, not imports) does not change.


def _rel(a: float, b: float) -> float:
    """|a - b| / |b|, capped at 1 (a missing or non-finite a counts 1)."""
    if a is None or not math.isfinite(a):
        return 1.0
    return min(1.0, abs(a - b) / abs(b))


def _functional_pass(inst, out):
    ok = [all(o["verdicts"][s] is not None and o["verdicts"][s] == t["verdict"][s]
              for s in c["specs"])
          for c, t, o in zip(inst.data["circuits"], inst.truth, out["circuits"])]
    return float(np.mean(ok))


def _violation_rate(inst, out):
    bad = tot = 0
    for c, o in zip(inst.data["circuits"], out["circuits"]):
        b, t = violations(o["order"], c["specs"])
        bad, tot = bad + b, tot + t
    return bad / tot if tot else 0.0


def _threshold_err(inst, out):
    return float(np.mean([_rel(o["thresholds"][s], t["threshold"][s])
                          for c, t, o in zip(inst.data["circuits"], inst.truth, out["circuits"])
                          for s in c["specs"]]))


def _oracle_sim_err(inst, out):
    errs = [min(1.0, abs(o["thresholds"][s] - o["measured"][s]) / abs(t["threshold"][s]))
            if math.isfinite(o["thresholds"][s]) else 1.0
            for c, t, o in zip(inst.data["circuits"], inst.truth, out["circuits"])
            if t["fault"] is None for s in c["specs"] if s in o["measured"]]
    return float(np.mean(errs)) if errs else None


def _measured(inst, out):
    return float(np.mean([s in o["measured"] for c, o in zip(inst.data["circuits"],
                                                             out["circuits"])
                          for s in c["specs"]]))


METRICS = (
    Metric("functional_pass", _functional_pass, True,
           "fraction of circuits whose testbench measures every spec and gives every spec's "
           "correct verdict (meets / violates its threshold within the tolerance)"),
    Metric("violation_rate", _violation_rate, False,
           "fraction of the ordering constraints (stimulus -> analysis -> measurement, and no "
           "other analysis between a measurement and its own) broken by the executed order"),
    Metric("threshold_rel_err", _threshold_err, False,
           "mean relative error of the stated thresholds against the closed form (capped at 1; "
           "an unparsable threshold counts 1)"),
    Metric("oracle_sim_err", _oracle_sim_err, False,
           "mean gap between the stated threshold and ngspice's measured value on fault-free "
           "circuits, relative to the true threshold (capped at 1; NaN threshold counts 1)"),
    Metric("measured_frac", _measured, True, "fraction of specs that ngspice measured"),
    output_metric("sim_runs", description="ngspice runs (repairs included)"),
    output_metric("unparsable", description="generator answers that could not be parsed"),
)

AV = "analogverifier"
PLAIN = "analogverifier[mutant=plain_toposort]"
NO_ORACLE = "analogverifier[mutant=no_oracle]"
NO_REPAIR = "analogverifier[mutant=no_repair]"
DIRECT = "direct_generation"
DIRECT_REPAIR = "direct_generation[max_repairs=3]"
RANDOM = "random_order"

SCRIPTED = {"arm": "scripted"}
LLM = {"arm": "llm"}


def _methods() -> tuple:
    return (cfg(AnalogVerifier, label=AV),
            cfg(AnalogVerifier, label=PLAIN, mutant="plain_toposort"),
            cfg(AnalogVerifier, label=NO_ORACLE, mutant="no_oracle"),
            cfg(AnalogVerifier, label=NO_REPAIR, mutant="no_repair"),
            cfg(DirectTestbench, label=DIRECT),
            cfg(DirectTestbench, label=DIRECT_REPAIR, max_repairs=3),
            cfg(DirectTestbench, label=RANDOM, order="random"))


_ABS = "abstract"
_STAGES = ("\"(2) Graph-Symbolic Scheduling satisfies analog design constraints through Port "
           "Dependency Graphs (PDG) for correct-by-construction sequencing\"")
_GROUND = ("\"(3) Numerical-Symbolic Grounding mitigates numerical hallucination by delegating "
           "threshold derivation to a deterministic symbolic oracle\"")
_REPAIR = ("\"(4) Closed-Loop Repair enables correctness and completeness of the generated "
           "testbenches by simulation feedback\"")
_SERIAL = ("\"(1) Context-Aware Task Serialization transforms complex specifications into "
           "atomic tasks via an agentic workflow\"")
_PASS = "\"AnalogVerifier achieves 82.3%--100% functional pass rate\" (five industrial circuits)"

BENCHMARK = Benchmark(
    slug="analogverifier",
    paper=Paper(
        title="AnalogVerifier: A Neuro-Symbolic Framework for Analog Circuit Verification",
        arxiv="",
        url="https://icml.cc/virtual/2026/poster/62139",
        version="ICML 2026 poster abstract only (body, tables and code not read)",
    ),
    area="llm_agents",
    fidelity="proxy",
    fidelity_note=("The paper generates testbenches with an LLM agent for five industrial analog "
                   "circuits and a commercial simulator; here toy RC / RLC / VCVS-op-amp "
                   "circuits in ngspice, a scripted generator with our omission and "
                   "numeric-guess noise (an LLM generator only as plumbing with the tiny model), "
                   "and our PDG over the testbench language's ports. The four stages follow the "
                   "abstract; every rule below them is reconstructed, so only the mechanism's "
                   "claims (ordering, thresholds, repair) are tested, not the paper's numbers."),
    methods=(AnalogVerifier,),
    baselines=(DirectTestbench,),
    datasets=(AnalogTestbenches,),
    metrics=METRICS,
    primary_metric="functional_pass",
    claims=(
        Claim(id="c1_correct_by_construction", where=_ABS,
              text="PDG scheduling gives correct-by-construction sequencing",
              paper_value=_STAGES,
              check=Exact(method=AV, metric="violation_rate", hi=0.0, tol=0.0,
                          where=SCRIPTED),
              source="derived", basis="construction", foils=(DIRECT, RANDOM, PLAIN),
              foil_note="The generator's own (document) order, a random order and a plain "
                        "topological sort that ignores the shared current-plot port must all "
                        "break some ordering constraint.",
              note="Every run's executed testbenches break no ordering constraint among the "
                   "tasks present (exact: 0 in every run). Holds by construction: our scheduler "
                   "is a topological sort of our own PDG, which encodes the very constraints "
                   "the metric counts, so it checks our code, not the paper's scheduler."),
        Claim(id="c2_symbolic_thresholds", where=_ABS,
              text="threshold derivation by a deterministic symbolic oracle (no numerical "
                   "hallucination)",
              paper_value=_GROUND,
              check=Exact(method=AV, metric="threshold_rel_err", hi=0.0, tol=1e-9,
                          where=SCRIPTED),
              source="derived", basis="construction", foils=(DIRECT, NO_ORACLE),
              foil_note="Thresholds stated by the generator (LLM-like numeric guesses) must "
                        "carry errors.",
              note="Exact up to float rounding: relative error <= 1e-9 in every run (the "
                   "oracle's sympy MNA against the closed form). Holds by construction: both "
                   "sides are our own derivations of the same circuit equations."),
        Claim(id="c3_oracle_matches_simulator", where="research note plan",
              text="the symbolic thresholds agree with the simulated values of fault-free "
                   "circuits",
              paper_value=_GROUND,
              check=Exact(method=AV, metric="oracle_sim_err", hi=0.0, tol=0.01,
                          where=SCRIPTED),
              source="derived", basis="construction", foils=(NO_ORACLE, DIRECT_REPAIR),
              foil_note="Numeric guesses (with or without the PDG and repair) must miss the "
                        "simulator by more than 1% somewhere.",
              note="Mean relative gap between the oracle's threshold and ngspice's measurement "
                   "on fault-free circuits at most 1% in every run (1% is ours, the declared "
                   "numerical tolerance: AC sweep at 100 points/decade and a tran step of "
                   "tau/200 measure to about 0.1%). A self-test of our oracle against our "
                   "simulator: by construction, not the paper's."),
        Claim(id="c4_functional_pass_rate",
              where="ours: a level check on the scripted arm (research note proxy)",
              text="with our scripted generator on generated toy circuits, the full pipeline's "
                   "mean functional pass rate clears a fixed level (0.823, declared before the "
                   "first run); not the paper's industrial pass rate, which is c8",
              paper_value="(none: derived; the paper's 82.3%-100% on five industrial circuits "
                          "is c8, not run here, and c7 with a capable model)",
              check=Value(method=AV, metric="functional_pass", lo=0.823, stat="mean",
                          where=SCRIPTED),
              source="derived", basis="construction",
              foils=(DIRECT_REPAIR, NO_REPAIR, NO_ORACLE, PLAIN),
              foil_note="The strongest baseline (direct generation with feedback repair) and "
                        "the method without repair, without the oracle or with a plain "
                        "topological sort must fall below the paper's lowest rate.",
              note="Scripted generator on generated toy circuits (not the paper's industrial "
                   "circuits): mean over runs of the fraction of circuits whose testbench "
                   "measures every spec and gets every verdict right, above 0.823. Holds by "
                   "construction: the rate is set by our scripted generator's error rates "
                   "(omissions the repair re-asks for, numeric guesses the oracle replaces), "
                   "not measured on the paper's circuits or generator. Issue 30: the paper's "
                   "number is not this claim's; the level 0.823 is kept as declared before "
                   "results, only as a threshold for our construction check."),
        Claim(id="c5_repair_helps", where=_ABS,
              text="closed-loop repair from simulation feedback makes testbenches correct and "
                   "complete",
              paper_value=_REPAIR,
              check=Better(method=AV, baseline=NO_REPAIR, metric="functional_pass",
                           margin=0.1, where=SCRIPTED),
              source="derived", basis="construction", foils=(DIRECT, NO_ORACLE),
              foil_note="Pipelines whose thresholds are numeric guesses must not gain 0.1 over "
                        "the no-repair pipeline, repair or not.",
              note="Ablation of stage (4): a paired gain of more than 0.1 in functional pass "
                   "rate (margin ours). Holds by construction: the repair re-asks for exactly "
                   "the tasks our scripted generator drops (p_omit = 0.25, ours), so the gain "
                   "is set by that rate."),
        Claim(id="c6_beats_feedback_baseline", where=_ABS,
              text="more reliable than LLM generation with simulator feedback",
              paper_value="\"establishing a new paradigm for reliable, automated analog "
                          "verification\"",
              check=Better(method=AV, baseline=DIRECT_REPAIR, metric="functional_pass",
                           margin=0.2, where=SCRIPTED),
              source="derived", basis="construction", foils=(NO_ORACLE,),
              foil_note="The pipeline without symbolic grounding keeps the numeric-guess "
                        "errors that feedback cannot see, so it must not clear the margin.",
              note="Paired gain of more than 0.2 in functional pass rate over direct generation "
                   "with 3 rounds of generic feedback repair (margin ours). Holds by "
                   "construction: the gap is the share of verdicts our scripted generator's "
                   "numeric-guess noise (ours) flips, which the oracle removes and feedback "
                   "cannot see."),
        Claim(id="c7_llm_functional_pass", where=_ABS,
              text="82.3%-100% functional pass rate with an LLM generator",
              paper_value=_PASS,
              check=Value(method=AV, metric="functional_pass", lo=0.823, stat="mean",
                          where=LLM),
              source="paper", foils=(DIRECT,), needs_capable_model=True,
              foil_note="One-shot direct LLM generation (its own order and numbers) must fall "
                        "below.",
              note="The same pipeline with the generator asked through --model; with the "
                   "default tiny model only plumbing."),
        Claim(id="c8_industrial_circuits", where=_ABS,
              text="82.3%-100% functional pass rate on five industrial analog circuits",
              paper_value=_PASS,
              check=NotRun(method=AV, reason="five proprietary industrial circuits, their "
                                             "specifications and a commercial simulator are not "
                                             "available"),
              source="paper"),
        Claim(id="c9_task_serialization", where=_ABS,
              text="context-aware task serialization turns complex specifications into atomic "
                   "tasks via an agentic workflow",
              paper_value=_SERIAL,
              check=NotRun(method=AV, reason="the paper's unstructured, heterogeneous industrial "
                           "specifications and its agentic workflow do not run here: our tasks "
                           "are serialized by a scripted generator whose omissions we set (or, "
                           "with --model, one generator call per circuit); not built yet (issue "
                           "30): the fraction of specs for which a capable model's serialization "
                           "yields every atomic task (stimulus, analysis, measurement) before "
                           "repair"),
              source="paper"),
    ),
    headlines=(
        Headline(quote="(1) Context-Aware Task Serialization transforms complex specifications "
                       "into atomic tasks via an agentic workflow",
                 claims=("c9_task_serialization",)),
        Headline(quote="(2) Graph-Symbolic Scheduling satisfies analog design constraints through "
                       "Port Dependency Graphs (PDG) for correct-by-construction sequencing",
                 claims=("c1_correct_by_construction",)),
        Headline(quote="(3) Numerical-Symbolic Grounding mitigates numerical hallucination by "
                       "delegating threshold derivation to a deterministic symbolic oracle",
                 claims=("c2_symbolic_thresholds", "c3_oracle_matches_simulator")),
        Headline(quote="(4) Closed-Loop Repair enables correctness and completeness of the "
                       "generated testbenches by simulation feedback",
                 claims=("c5_repair_helps",)),
        Headline(quote="Evaluation on five industrial analog circuits demonstrates that "
                       "AnalogVerifier achieves 82.3%--100% functional pass rate",
                 claims=("c8_industrial_circuits", "c7_llm_functional_pass")),
        Headline(quote="establishing a new paradigm for reliable, automated analog verification",
                 claims=("c6_beats_feedback_baseline", "c7_llm_functional_pass")),
    ),
    grids={
        "smoke": Grid(datasets=sweep(AnalogTestbenches, n_circuits=[2], arm=["scripted"]),
                      seeds=2, methods=_methods(), note="plumbing: 2 circuits, 2 seeds"),
        "quick": Grid(datasets=(*sweep(AnalogTestbenches, n_circuits=[8], arm=["scripted"]),
                                *sweep(AnalogTestbenches, n_circuits=[1], arm=["llm"])),
                      seeds=10, methods=_methods(),
                      note="8 circuits per run on the scripted arm; 1 circuit per run on the LLM "
                           "arm (tiny model, plumbing)"),
        "full": Grid(datasets=(*sweep(AnalogTestbenches, n_circuits=[40], arm=["scripted"]),
                               *sweep(AnalogTestbenches, n_circuits=[10], arm=["llm"])),
                     seeds=30, methods=_methods(),
                     note="40 circuits per run, 30 runs; 10 LLM circuits per run (meant for "
                          "--model)"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-06",
                  claims=("c1_correct_by_construction", "c2_symbolic_thresholds",
                          "c3_oracle_matches_simulator", "c4_functional_pass_rate",
                          "c5_repair_helps", "c6_beats_feedback_baseline"),
                  what="c1-c6: source 'derived', basis 'construction' (c1, c2, c4 were "
                       "'paper'); checks, foils and scopes unchanged",
                  why="on the scripted arm each holds by our own construction: c1 our "
                      "scheduler sorts our PDG, which encodes the constraints counted; c2 two "
                      "derivations of ours of the same equations; c3 a self-test of our oracle "
                      "against our simulator; c4-c6 rates and gains set by our scripted "
                      "generator's error model (omissions the repair re-asks for, numeric "
                      "guesses the oracle replaces), not by the paper's circuits or LLM",
                  results_seen=True,
                  rule="issue 26: construction basis (a check that holds by our own "
                       "construction is derived, never the paper's claim)"),
        Amendment(date="2026-12-06",
                  claims=("c1_correct_by_construction", "c2_symbolic_thresholds",
                          "c3_oracle_matches_simulator"),
                  what="Value(stat='max', hi=h) -> Exact(hi=0, tol=h): c1 tol 0, c2 tol 1e-9 "
                       "(float rounding), c3 tol 0.01 (simulator measurement accuracy); same "
                       "method, metric and scope",
                  why="deterministic results (an identity our code enforces, two exact "
                      "derivations, a simulator reading) judged until now by a sign test over "
                      "runs",
                  results_seen=True,
                  rule="issue 26: exact kind for a deterministic result"),
        Amendment(date="2026-12-06", claims=("c4_functional_pass_rate",),
                  what="where 'abstract' -> 'ours: a level check on the scripted arm'; text and "
                       "paper_value no longer give the paper's 82.3%-100% as this claim's; check "
                       "(level 0.823), foils and scope unchanged",
                  why="issue 30: c4 applies the paper's industrial pass rate to our toy circuits "
                      "and scripted generator, whose noise we chose; it is derived without the "
                      "paper's number, which stays with c8 (not run) and c7 (capable model)",
                  results_seen=True,
                  rule="issue 26: construction basis (a check that holds by our own "
                       "construction is derived, never the paper's claim)"),
        Amendment(date="2026-12-06", claims=("c9_task_serialization",),
                  what="not_run paper claim added for stage (1), task serialization; headlines "
                       "declared (6 statements of the ICML abstract)",
                  why="issue 30: every checkable statement of the abstract is mapped to a claim; "
                      "stage (1) had none",
                  results_seen=True),
    ),
)
