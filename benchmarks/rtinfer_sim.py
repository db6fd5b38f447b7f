"""RTInfer: concurrent real-time DNN inference on edge GPUs, as a discrete-event simulation.

Periodic inference tasks with bursts share one simulated edge GPU (processor sharing with a
concurrency overhead, a fragmenting activation arena, a PCIe-fed weight cache). Preemptive
EDF, early-exit degradation, concurrent EDF and an RTInfer-like policy (slack-chosen model
variants, concurrency, compaction-aware allocation, on-demand loading) are compared on
deadline-miss rate and accuracy. Simulation numbers, not the paper's hardware.
"""
from __future__ import annotations

from claimbench.api import (Amendment, Benchmark, Claim, Grid, Paper, cfg, output_metric,
                            sweep)
from claimbench.baselines.early_exit_scheduling import EarlyExitEDF
from claimbench.baselines.edf_scheduling import ConcurrentEDF, PreemptiveEDF
from claimbench.checks import Better, Rank, Value
from claimbench.datasets.inference_workloads import InferenceWorkload
from claimbench.methods.rtinfer_sim import RTInferLike

SERIAL = "rtinfer[mutant=serial]"
FIRST_FIT = "rtinfer[mutant=first_fit]"
BASELINES = ("preemptive_edf", "early_exit", "concurrent_edf")

METRICS = (
    output_metric("dmr", description="deadline-miss rate: jobs not finished by their deadline "
                  "/ jobs released"),
    output_metric("acc", True, "mean top-1 accuracy (%) credited over released jobs, 0 for a "
                  "missed deadline"),
    output_metric("acc_met", True, "mean accuracy (%) of the jobs that met their deadline"),
    output_metric("throughput", True, "jobs meeting their deadline per simulated second"),
    output_metric("frag", description="mean external fragmentation of the activation arena, "
                  "1 - largest hole / free space, over allocation attempts"),
    output_metric("blocked", description="allocations that failed although the total free "
                  "space sufficed"),
)

_METHODS = (cfg(PreemptiveEDF), cfg(EarlyExitEDF), cfg(ConcurrentEDF), cfg(RTInferLike),
            cfg(RTInferLike, label=SERIAL, mutant="serial"),
            cfg(RTInferLike, label=FIRST_FIT, mutant="first_fit"))

_DMR_FOIL = ("The claim says RTInfer beats the state of the art in DMR: each baseline in its "
             "place must not rank first (the ranking then holds the other baselines and the "
             "two mutants).")

_DMR_PAPER = ("\"RTInfer outperforms state-of-the-art methods by reducing average deadline miss "
              "rate (DMR) from 32.8% to 0%\" (abstract)")

BENCHMARK = Benchmark(
    slug="rtinfer_sim",
    paper=Paper(
        title="RTInfer: Exploiting Concurrency for Multiple Real-Time DNN Inference on Edge GPUs",
        arxiv="",
        url="https://icml.cc/virtual/2026/poster/65955",
        version="abstract only (poster page and the seed abstract; they differ in numbers)",
    ),
    area="rl_systems",
    fidelity="proxy",
    fidelity_note=("The paper's claims are measurements on edge-GPU hardware; here a simpy "
                   "simulation with our own device constants (per-job GPU occupancy, "
                   "interference, memory arena, PCIe bandwidth) tests the scheduling logic only. "
                   "Variant cost ratios are counted with torch's FLOP counter on small CNNs; "
                   "accuracies are MobileNetV2's published width-multiplier numbers. The "
                   "results are a simulation's numbers, not the paper's."),
    methods=(RTInferLike,),
    baselines=(PreemptiveEDF, EarlyExitEDF, ConcurrentEDF),
    datasets=(InferenceWorkload,),
    metrics=METRICS,
    primary_metric="dmr",
    unit=(),
    claims=(
        Claim(id="c1_lowest_dmr_load_1_0", where="abstract",
              text="lowest deadline-miss rate among the schedulers at serial load 1.0",
              paper_value=_DMR_PAPER,
              check=Rank(method="rtinfer", metric="dmr", k=1, where={"load": 1.0}),
              source="paper", foils=BASELINES, foil_note=_DMR_FOIL,
              note="The issue's 'lowest DMR at every load', at the load where a one-job-at-a-"
                   "time scheduler is just saturated; units = (burst rate, seed) cells."),
        Claim(id="c2_lowest_dmr_load_1_4", where="abstract",
              text="lowest deadline-miss rate among the schedulers at serial load 1.4",
              paper_value=_DMR_PAPER,
              check=Rank(method="rtinfer", metric="dmr", k=1, where={"load": 1.4}),
              source="paper", foils=BASELINES, foil_note=_DMR_FOIL,
              note="As c1 at overload for a serial scheduler."),
        Claim(id="c3_dmr_near_zero", where="abstract",
              text="RTInfer's average deadline-miss rate is (about) 0%",
              paper_value=_DMR_PAPER,
              check=Value(method="rtinfer", metric="dmr", hi=0.01, stat="mean",
                          where={"load": (0.6, 1.0)}),
              source="paper", foils=BASELINES,
              foil_note="The baselines are the systems whose average DMR the paper reports as "
                        "32.8%; none should be near 0%.",
              note="Mean DMR <= 1% (ours: 0% with a tolerance) over loads 0.6 and 1.0 and both "
                   "burst rates; load 1.4 is left out because the paper's workloads are "
                   "presumably feasible."),
        Claim(id="c4_acc_vs_early_exit_bursts", where="abstract",
              text="higher accuracy than early-exit degradation under bursts",
              paper_value="\"Existing preemption and early-exit mechanisms often underutilize "
                          "GPU resources through single-task queuing and sacrifice excessive "
                          "accuracy during task bursts\"; \"improving accuracy by up to "
                          "56.5%\" (abstract)",
              check=Better(method="rtinfer", baseline="early_exit", metric="acc",
                           where={"burst_rate": 0.3}),
              source="paper", foils=("preemptive_edf", SERIAL),
              foil_note="Preemptive EDF never degrades and the serial mutant degrades without "
                        "concurrency: the claim credits concurrency plus variant choice, so "
                        "neither should beat early exit in accuracy under bursts.",
              note="acc counts a missed deadline as 0 (a late answer is useless), so a policy "
                   "cannot gain accuracy by dropping jobs; all loads pooled."),
        Claim(id="c5_less_fragmentation", where="abstract, component (2)",
              text="the memory-layout-aware scheduler limits fragmentation",
              paper_value="\"a memory-layout-aware scheduler to mitigate fragmentation during "
                          "preemption\" (abstract)",
              check=Better(method="rtinfer", baseline="concurrent_edf", metric="frag",
                           where={"load": 1.4}),
              source="paper", foils=(FIRST_FIT,),
              foil_note="The first-fit mutant removes the layout-aware allocation (best fit "
                        "and compaction), so it should not lower fragmentation.",
              note="Lower mean external fragmentation of the activation arena "
                   "(1 - largest hole / free space, over allocation attempts) than concurrent "
                   "EDF at load 1.4, both burst rates."),
    ),
    grids={
        "smoke": Grid(datasets=sweep(InferenceWorkload, load=[1.0, 1.4], burst_rate=[0.3],
                                     horizon_ms=[500.0]),
                      seeds=2, methods=_METHODS, note="two loads, bursts, 0.5 s simulated"),
        "quick": Grid(datasets=sweep(InferenceWorkload, load=[0.6, 1.0, 1.4],
                                     burst_rate=[0.0, 0.3]),
                      seeds=5, methods=_METHODS,
                      note="3 loads x 2 burst rates x 5 seeds, 2 s simulated each"),
        "full": Grid(datasets=sweep(InferenceWorkload, load=[0.4, 0.6, 0.8, 1.0, 1.2, 1.4],
                                    burst_rate=[0.0, 0.1, 0.3], n_tasks=[3, 4, 6],
                                    horizon_ms=[10000.0]),
                     seeds=20, methods=_METHODS,
                     note="about 0.3 CPU-hours (6480 cells, ~0.17 CPU-s each, from the quick grid)"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-03", claims=("c3_dmr_near_zero", "c4_acc_vs_early_exit_bursts",
                                             "c5_less_fragmentation"),
                  what="paper_value now quotes the poster page's abstract (c3: source of the "
                       "32.8% -> 0% named; c4: the burst "
                       "sentence added; c5: the research note's paraphrase replaced by the "
                       "abstract's words); checks, thresholds, scopes and foils unchanged",
                  why="the abstract text was found after the first quick run",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c5_less_fragmentation",),
                  what="source derived -> paper (check, scope and foil unchanged); paper_values "
                       "of c1-c5 now quote the ICML abstract verbatim",
                  why="c5 is placed in the abstract (component (2) of RTInfer)",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'"),
    ),
)
