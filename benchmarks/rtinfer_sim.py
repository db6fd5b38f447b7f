"""RTInfer: concurrent real-time DNN inference on edge GPUs, as a discrete-event simulation.

Periodic inference tasks with bursts share one simulated edge GPU (processor sharing with a
concurrency overhead, a fragmenting activation arena, a PCIe-fed weight cache). Preemptive
EDF, early-exit degradation, concurrent EDF and an RTInfer-like policy (slack-chosen model
variants, concurrency, compaction-aware allocation, on-demand loading) are compared on
deadline-miss rate and accuracy. Simulation numbers, not the paper's hardware.

Issue 30: a calibrated regime (load 2.7, both burst rates; rule at CAL_LOADS) where the strongest
baseline misses about the abstract's 32.8% carries the DMR claims c1c/c3c; c8 reads the
host-to-GPU stall against an eager-loading mutant. Round 4: a burst-calibrated regime (serial
load 0.8, burst sizes calibrated at burst rates 0.3 and 1.0; rule at BC_SIZES) where bursts make
the strongest baseline miss about 32.8% carries c1b/c3b/c4d/c4e; c6 reads throughput. Round 6:
c8 gains a second foil, the preload mutant (everything loaded up front, not on demand).
"""
from __future__ import annotations

from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Paper, Premise, cfg,
                            output_metric, sweep)
from claimbench.baselines.early_exit_scheduling import EarlyExitEDF
from claimbench.baselines.edf_scheduling import ConcurrentEDF, PreemptiveEDF
from claimbench.checks import Better, NotRun, Rank, Value
from claimbench.datasets.inference_workloads import InferenceWorkload
from claimbench.methods.rtinfer_sim import RTInferLike

SERIAL = "rtinfer[mutant=serial]"
FIRST_FIT = "rtinfer[mutant=first_fit]"
EAGER = "rtinfer[mutant=eager_load]"
PRELOAD = "rtinfer[mutant=preload]"
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
    output_metric("load_stall", description="host-to-GPU latency: mean ms a started job waits "
                  "for its weights before it computes (0 on a weight-cache hit)"),
)

_METHODS = (cfg(PreemptiveEDF), cfg(EarlyExitEDF), cfg(ConcurrentEDF), cfg(RTInferLike),
            cfg(RTInferLike, label=SERIAL, mutant="serial"),
            cfg(RTInferLike, label=FIRST_FIT, mutant="first_fit"),
            cfg(RTInferLike, label=EAGER, mutant="eager_load"),
            cfg(RTInferLike, label=PRELOAD, mutant="preload"))

# Calibrated regime (issue 30). Rule, fixed before the calibration was run: for each burst rate
# of the quick grid, the serial load among CAL_CANDIDATES at which the strongest baseline (the
# lowest mean DMR of the three) misses closest to the abstract's 32.8% (ties: the lower load),
# over CAL_REPS seeds derive_seed("rtinfer_sim/calibration", burst_rate, load, rep) that no grid
# uses; only the baselines run. Candidates are odd tenths, so no grid load is among them.
CAL_TARGET = 0.328  # abstract: "from 32.8% to 0%"
CAL_CANDIDATES = tuple(round(1.1 + 0.2 * i, 1) for i in range(20))  # 1.1 .. 4.9
CAL_REPS = 5
# calibrate_loads() (run 2026-12-06, ~7 CPU-s): strongest baseline early_exit at both rates,
# DMR 0.315 (burst 0.0) and 0.351 (burst 0.3) at load 2.7; concurrent EDF 0.78 / 0.88.
CAL_LOADS = {0.0: 2.7, 0.3: 2.7}  # burst rate -> load
# Why c1c/c3c fail (round-4 diagnostic on seeds no grid uses, no claim reads it): at load 2.7 a
# policy that always runs the cheapest variant 4-way concurrently misses 0% (credited accuracy
# 65.4), but RTInfer's per-job slack rule, which sees only the started jobs and not later
# releases, keeps choosing full models (acc_met ~70.6) and misses 0.77 / 0.70 there; counting
# the queued jobs in the slack estimate does not help at load 2.7. What fails is our online
# variant rule (deviation 3 of the method), not concurrency plus lightweight variants.
# Round 6: the paper's run-time variant rule is not in the available text (abstract only: the
# variants are "co-optimized" to be generated, nothing says how one is chosen per job or
# window), so no departure from the paper can be shown and the rule is kept: a workload-level
# rule chosen after this diagnostic would be tuned to it.


def calibrate_loads(burst_rates=(0.0, 0.3), candidates=CAL_CANDIDATES, reps=CAL_REPS):
    """The rule above; returns ({burst rate: load}, {(burst rate, load): {baseline: mean DMR}})."""
    from claimbench.grid import derive_seed
    runs = (PreemptiveEDF(), EarlyExitEDF(), ConcurrentEDF())
    chosen, table = {}, {}
    for b in burst_rates:
        for load in candidates:
            data = [InferenceWorkload(load=load, burst_rate=b).make(
                derive_seed("rtinfer_sim/calibration", b, load, r)).data for r in range(reps)]
            table[b, load] = {m.name: sum(m.run(d, 0)["dmr"] for d in data) / reps for m in runs}
        chosen[b] = pick_load({lo: min(table[b, lo].values()) for lo in candidates})
    return chosen, table


def pick_load(strongest_dmr: dict) -> float:
    """The load whose strongest-baseline DMR is closest to CAL_TARGET; ties to the lower load."""
    return min(strongest_dmr, key=lambda lo: (abs(strongest_dmr[lo] - CAL_TARGET), lo))


# Burst-calibrated regime (round 4; rule fixed before the calibration was run): at serial load
# BC_LOAD (a serial EDF scheduler carries it without bursts; no quick claim's scope reads it),
# for each burst rate in BC_RATES, the burst size among BURST_CANDIDATES at which the strongest
# baseline misses closest to CAL_TARGET (ties: the smaller size), over CAL_REPS seeds
# derive_seed("rtinfer_sim/burst_calibration", burst_rate, size, rep) that no grid uses; only the
# baselines run. 3 (every other config's burst size) is not a candidate, so the claims' scope
# {"burst_size": ...} selects these cells alone.
BC_LOAD = 0.8
BC_RATES = (0.3, 1.0)
BURST_CANDIDATES = tuple(range(4, 61, 2))
# calibrate_bursts() (run 2026-12-06, ~15 CPU-s): strongest baseline early_exit at both rates,
# DMR 0.329 (rate 0.3, size 38) and 0.344 (rate 1.0, size 22); preemptive EDF 0.51 / 0.66.
BC_SIZES = {0.3: 38, 1.0: 22}  # burst rate -> burst size


def calibrate_bursts(rates=BC_RATES, candidates=BURST_CANDIDATES, reps=CAL_REPS, load=BC_LOAD):
    """The rule above; returns ({burst rate: size}, {(burst rate, size): {baseline: mean DMR}})."""
    from claimbench.grid import derive_seed
    runs = (PreemptiveEDF(), EarlyExitEDF(), ConcurrentEDF())
    chosen, table = {}, {}
    for b in rates:
        for n in candidates:
            data = [InferenceWorkload(load=load, burst_rate=b, burst_size=n).make(
                derive_seed("rtinfer_sim/burst_calibration", b, n, r)).data for r in range(reps)]
            table[b, n] = {m.name: sum(m.run(d, 0)["dmr"] for d in data) / reps for m in runs}
        chosen[b] = pick_load({n: min(table[b, n].values()) for n in candidates})
    return chosen, table


_DMR_FOIL = ("The claim says RTInfer beats the state of the art in DMR: each baseline in its "
             "place must not rank first (the ranking then holds the other baselines and the "
             "mutants).")

_FEASIBLE = {"load": (0.6, 1.0)}  # c3's scope: the loads a serial scheduler can carry
_MAIN = {"load": (0.6, 1.0, 1.4)}  # the quick grid's swept loads (not the calibrated regime)
_CAL = {"load": tuple(sorted(set(CAL_LOADS.values())))}  # the calibrated regime
_CAL_CONFIGS = tuple(cfg(InferenceWorkload, load=lo, burst_rate=b) for b, lo in CAL_LOADS.items())
_BC = {"burst_size": tuple(sorted(set(BC_SIZES.values())))}  # the burst-calibrated regime
_BC_CONFIGS = tuple(cfg(InferenceWorkload, load=BC_LOAD, burst_rate=b, burst_size=n)
                    for b, n in BC_SIZES.items())
_Q_BURSTS = ("Existing preemption and early-exit mechanisms often underutilize GPU resources "
             "through single-task queuing and sacrifice excessive accuracy during task bursts")
_Q_BALANCE = "enables concurrent RT task execution while balancing throughput and accuracy"
_Q_VARIANTS = ("an accuracy-calibrated lightweight variant co-optimization to generate efficient "
               "models")
_Q_LOADING = "an on-demand loading strategy to minimize host-to-GPU latency"

HEADLINES = (
    Headline(quote=_Q_BURSTS, claims=("c4_acc_vs_early_exit_bursts", "c4b_acc_met_vs_early_exit",
                                      "c4d_acc_vs_early_exit_bursts_calibrated",
                                      "c4e_acc_met_vs_early_exit_bursts_calibrated",
                                      "c6_throughput_and_accuracy")),
    Headline(quote=_Q_BALANCE, claims=("c6_throughput_and_accuracy",)),
    Headline(quote=_Q_VARIANTS, claims=("c7_variant_co_optimization",)),
    Headline(quote="a memory-layout-aware scheduler to mitigate fragmentation during preemption",
             claims=("c5_less_fragmentation",)),
    Headline(quote=_Q_LOADING, claims=("c8_on_demand_loading",)),
    Headline(quote="reducing average deadline miss rate (DMR) from 32.8% to 0%",
             claims=("c1_lowest_dmr_load_1_0", "c2_lowest_dmr_load_1_4", "c3_dmr_near_zero",
                     "c1c_lowest_dmr_calibrated", "c3c_dmr_near_zero_calibrated",
                     "c1b_lowest_dmr_bursts_calibrated", "c3b_dmr_near_zero_bursts_calibrated")),
    Headline(quote="improving accuracy by up to 56.5%",
             claims=("c4_acc_vs_early_exit_bursts", "c4b_acc_met_vs_early_exit",
                     "c4c_acc_vs_early_exit_calibrated", "c4f_acc_met_vs_early_exit_calibrated",
                     "c4d_acc_vs_early_exit_bursts_calibrated",
                     "c4e_acc_met_vs_early_exit_bursts_calibrated")),
)

PREMISES = tuple(
    Premise(id=f"p_{b}_misses_deadlines",
            text=f"the paper's starting point is present: {b} misses deadlines at loads 0.6 and "
                 f"1.0 (mean deadline-miss rate above 0)",
            check=Value(method=b, metric="dmr", lo=0.0, stat="mean", where=_FEASIBLE),
            claims=("c1_lowest_dmr_load_1_0", "c3_dmr_near_zero"),
            note="The abstract's 'from 32.8% to 0%' starts from state-of-the-art systems that "
                 "miss deadlines; one premise per baseline, so the strongest one must miss "
                 "them too (no baseline is picked from the results). Bound 0 by definition of "
                 "'misses deadlines'; the paper's 32.8% is not a threshold here. Where a "
                 "baseline misses nothing, 'the lowest DMR' (c1) and 'DMR near 0' (c3) do "
                 "not separate RTInfer from it.")
    for b in BASELINES) + tuple(
    Premise(id=f"p_{b}_misses_calibrated",
            text=f"the paper's starting point is present in the calibrated regime: {b} misses "
                 f"at least 10% of the deadlines (mean DMR >= 0.1)",
            check=Value(method=b, metric="dmr", lo=0.1, stat="mean", where=_CAL),
            claims=("c1c_lowest_dmr_calibrated", "c3c_dmr_near_zero_calibrated"),
            note="Declared with the calibration rule, before any run: the regime is set so the "
                 "strongest baseline misses about 32.8% (abstract) on calibration seeds; 0.1 "
                 "(about a third of that) asks that misses be substantial on the grid's own "
                 "seeds too. One premise per baseline, none picked from results.")
    for b in BASELINES) + tuple(
    Premise(id=f"p_{b}_misses_bursts",
            text=f"the paper's starting point is present in the burst-calibrated regime: {b} "
                 f"misses at least half the abstract's 32.8% of the deadlines (mean DMR >= 0.164)",
            check=Value(method=b, metric="dmr", lo=0.164, stat="mean", where=_BC),
            claims=("c1b_lowest_dmr_bursts_calibrated", "c3b_dmr_near_zero_bursts_calibrated"),
            note="Round 4, declared with the burst calibration rule before any run: the issue "
                 "asks that the strongest baseline miss 'about' 32.8% (read as within a factor "
                 "of 2: >= 16.4%) on the grid's own seeds; every baseline must, so the strongest "
                 "does (no baseline picked from results).")
    for b in BASELINES) + (
    Premise(id="p_eager_loading_stalls",
            text="weights miss the cache: concurrent EDF (eager loading) waits for "
                 "host-to-GPU transfers (mean load_stall above 0)",
            check=Value(method="concurrent_edf", metric="load_stall", lo=0.0, stat="mean",
                        where=_MAIN),
            claims=("c8_on_demand_loading",),
            note="Room for the effect: with every model resident there is no transfer latency "
                 "to minimise."),)

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
              source="paper", foils=BASELINES, foil_note=_DMR_FOIL, grids=("full",),
              note="The issue's 'lowest DMR at every load', at the load where a one-job-at-a-"
                   "time scheduler is just saturated; units = (burst rate, seed) cells."),
        Claim(id="c2_lowest_dmr_load_1_4", where="abstract",
              text="lowest deadline-miss rate among the schedulers at serial load 1.4",
              paper_value=_DMR_PAPER,
              check=Rank(method="rtinfer", metric="dmr", k=1, where={"load": 1.4}),
              source="paper", foils=BASELINES, foil_note=_DMR_FOIL, grids=("full",),
              note="As c1 at overload for a serial scheduler. Decided on the full grid only "
                   "since the quick grid's 10 blocks cannot separate 6 others at its Holm "
                   "level (issue 30)."),
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
                           where={"burst_rate": 0.3, **_MAIN}),
              source="paper", foils=("preemptive_edf", SERIAL),
              foil_note="Preemptive EDF never degrades and the serial mutant degrades without "
                        "concurrency: the claim credits concurrency plus variant choice, so "
                        "neither should beat early exit in accuracy under bursts.",
              note="acc counts a missed deadline as 0 (a late answer is useless), so a policy "
                   "cannot gain accuracy by dropping jobs; all loads pooled. The gain is partly "
                   "a miss-rate gain: c4b reads the accuracy of the jobs that met their "
                   "deadline alone (issue 30)."),
        Claim(id="c4b_acc_met_vs_early_exit", where="abstract",
              text="higher accuracy than early-exit degradation under bursts, on the jobs that "
                   "met their deadline",
              paper_value="\"" + _Q_BURSTS + "\"; \"improving accuracy by up to 56.5%\" "
                          "(abstract)",
              check=Better(method="rtinfer", baseline="early_exit", metric="acc_met",
                           where={"burst_rate": 0.3, **_MAIN}),
              source="paper", foils=("preemptive_edf", SERIAL),
              foil_note="As c4: preemptive EDF never degrades the model, and the serial mutant "
                        "degrades without concurrency; the claim credits concurrency plus "
                        "variant choice.",
              note="As c4 on acc_met (mean accuracy of the jobs that met their deadline), so "
                   "that the accuracy gain is read apart from the miss-rate gain (issue 30); "
                   "all loads pooled, margin 0."),
        Claim(id="c4c_acc_vs_early_exit_calibrated", where="abstract",
              text="higher accuracy than early-exit degradation where the strongest baseline "
                   "misses about 32.8% of the deadlines",
              paper_value="\"" + _Q_BURSTS + "\"; \"improving accuracy by up to 56.5%\" "
                          "(abstract)",
              check=Better(method="rtinfer", baseline="early_exit", metric="acc", where=_CAL),
              source="paper", foils=("preemptive_edf", SERIAL),
              foil_note="As c4.",
              note="Added after the first run of the calibrated regime (post hoc): c4's scope "
                   "(loads 0.6-1.4) leaves that regime out, so c4 alone would not show how the "
                   "accuracy comparison fares there. acc counts a miss as 0; both burst rates "
                   "(10 units), margin 0."),
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
        Claim(id="c6_throughput_and_accuracy", where="abstract",
              text="RTInfer runs RT tasks concurrently while balancing throughput and accuracy",
              paper_value="\"" + _Q_BALANCE + "\" (abstract)",
              check=Better(method="rtinfer", baseline=SERIAL, metric="throughput", where=_MAIN),
              source="derived", basis="construction", foils=("preemptive_edf",),
              foil_note="The abstract says preemption mechanisms \"underutilize GPU resources "
                        "through single-task queuing\": preemptive EDF (one job at a time, full "
                        "model) in RTInfer's place must not out-throughput RTInfer with a single "
                        "queue. Early exit is the foil of the accuracy half (c4b, c4e), not of "
                        "this one: it buys throughput with accuracy.",
              note="The throughput half of the statement: jobs meeting their deadline per "
                   "simulated second, RTInfer over its serial mutant (the same policy with "
                   "single-task queuing), so the gain is the concurrency's; loads 0.6, 1.0, 1.4, "
                   "both burst rates (30 units), margin 0. The accuracy half is read apart, on "
                   "acc_met against early exit (c4b, c4e). Derived, by construction: our "
                   "simulator's processor sharing (baselines/gpu_inference_sim.py: one job alone "
                   "fills only U_FULL = 0.5 of the GPU, our number) is what concurrency recovers, "
                   "so the gain over single-task queuing is our model's, not evidence about the "
                   "paper's system."),
        Claim(id="c7_variant_co_optimization", where="abstract, component (1)",
              text="accuracy-calibrated co-optimization generates efficient lightweight variants",
              paper_value="\"" + _Q_VARIANTS + "\" (abstract)",
              check=NotRun(method="rtinfer",
                           reason="the variants are fixed here (MobileNetV2's published "
                                  "width-multiplier accuracies, FLOP-counted costs); no variant "
                                  "generation or co-optimization is run"),
              source="paper"),
        Claim(id="c8_on_demand_loading", where="abstract, component (3)",
              text="on-demand loading minimises host-to-GPU latency",
              paper_value="\"" + _Q_LOADING + "\" (abstract)",
              check=Better(method="rtinfer", baseline="concurrent_edf", metric="load_stall",
                           where=_MAIN),
              source="paper", foils=(EAGER, PRELOAD),
              foil_note="The claim credits on-demand loading, so RTInfer with either "
                        "alternative to it should not lower the host-to-GPU latency: the "
                        "eager_load mutant (whole model transferred before each job starts, as "
                        "the baselines do) and the preload mutant (everything loaded up front: "
                        "every variant that fits in the weight memory crosses PCIe before "
                        "serving, and a later miss loads the whole model). eager_load equals "
                        "concurrent EDF wherever both run the full models, so it alone cannot "
                        "be refuted (round 6).",
              note="Lower mean host-to-GPU stall per started job (load_stall, ms) than "
                   "concurrent EDF (eager loading) over the quick grid's loads 0.6, 1.0, 1.4 and "
                   "both burst rates, margin 0. The simulator's on-demand stall is the first of "
                   "4 layers' transfer (our construction); what is measured is whether that "
                   "survives RTInfer's extra variants in the weight cache (more misses). The preload "
                   "foil's up-front wait is set by our WEIGHT_CAP and PCIE_BW."),
        Claim(id="c1c_lowest_dmr_calibrated", where="abstract",
              text="lowest deadline-miss rate among RTInfer and the state-of-the-art "
                   "schedulers, in the regime where the strongest baseline misses about 32.8%",
              paper_value=_DMR_PAPER,
              check=Rank(method="rtinfer", metric="dmr", k=1, among=("rtinfer", *BASELINES),
                         where=_CAL),
              source="paper", foils=(SERIAL,),
              foil_note="The serial mutant is RTInfer with single-task queuing, which the "
                        "abstract blames for the baselines' misses (\"underutilize GPU "
                        "resources through single-task queuing\"): in RTInfer's place it should "
                        "not rank first. The baselines cannot be foils of a ranking among "
                        "themselves (one of them ranks first by definition).",
              note="Issue 30: the calibrated regime (CAL_LOADS, rule above), both burst rates, "
                   "5 seeds each = 10 blocks; ranked against the three baselines only (the "
                   "abstract's 'outperforms state-of-the-art methods')."),
        Claim(id="c3c_dmr_near_zero_calibrated", where="abstract",
              text="RTInfer's average deadline-miss rate is (about) 0% where the strongest "
                   "baseline misses about 32.8%",
              paper_value=_DMR_PAPER,
              check=Value(method="rtinfer", metric="dmr", hi=0.01, stat="mean", where=_CAL),
              source="paper", foils=BASELINES,
              foil_note="The baselines are the systems whose average DMR the paper reports as "
                        "32.8%; none should be near 0%.",
              note="As c3 (mean DMR <= 1%, the abstract's 0% with a tolerance) in the "
                   "calibrated regime, both burst rates (issue 30)."),
        Claim(id="c4f_acc_met_vs_early_exit_calibrated", where="abstract",
              text="higher accuracy than early-exit degradation where the strongest baseline "
                   "misses about 32.8% of the deadlines, on the jobs that met their deadline",
              paper_value="\"" + _Q_BURSTS + "\"; \"improving accuracy by up to 56.5%\" "
                          "(abstract)",
              check=Better(method="rtinfer", baseline="early_exit", metric="acc_met",
                           where=_CAL),
              source="paper", foils=("preemptive_edf", SERIAL),
              foil_note="As c4b.",
              note="Round 4 (post hoc: the load-2.7 cells had been seen): c4c's check on "
                   "acc_met, so that accuracy is read apart from the miss rate in the "
                   "load-calibrated regime as well (issue 30); both burst rates, margin 0."),
        Claim(id="c1b_lowest_dmr_bursts_calibrated", where="abstract",
              text="lowest deadline-miss rate among RTInfer and the state-of-the-art "
                   "schedulers, where bursts make the strongest baseline miss about 32.8%",
              paper_value=_DMR_PAPER,
              check=Rank(method="rtinfer", metric="dmr", k=1, among=("rtinfer", *BASELINES),
                         where=_BC),
              source="paper", foils=(SERIAL,),
              foil_note="As c1c: the serial mutant is RTInfer with the single-task queuing the "
                        "abstract blames; in RTInfer's place it should not rank first.",
              note="Round 4: the burst-calibrated regime (BC_SIZES, rule above): serial load "
                   "0.8, burst rates 0.3 and 1.0 with the calibrated burst sizes, 5 seeds each "
                   "= 10 blocks, ranked against the three baselines."),
        Claim(id="c3b_dmr_near_zero_bursts_calibrated", where="abstract",
              text="RTInfer's average deadline-miss rate is (about) 0% where bursts make the "
                   "strongest baseline miss about 32.8%",
              paper_value=_DMR_PAPER,
              check=Value(method="rtinfer", metric="dmr", hi=0.01, stat="mean", where=_BC),
              source="paper", foils=BASELINES,
              foil_note="As c3: the baselines are the systems whose average DMR the paper "
                        "reports as 32.8%; none should be near 0%.",
              note="As c3 (mean DMR <= 1%) in the burst-calibrated regime (round 4)."),
        Claim(id="c4d_acc_vs_early_exit_bursts_calibrated", where="abstract",
              text="higher accuracy than early-exit degradation where bursts make the strongest "
                   "baseline miss about 32.8% (a miss scores 0)",
              paper_value="\"" + _Q_BURSTS + "\"; \"improving accuracy by up to 56.5%\" "
                          "(abstract)",
              check=Better(method="rtinfer", baseline="early_exit", metric="acc", where=_BC),
              source="paper", foils=("preemptive_edf", SERIAL),
              foil_note="As c4.",
              note="As c4 in the burst-calibrated regime (10 units), margin 0; acc counts a "
                   "miss as 0, so c4e reads the met jobs' accuracy apart."),
        Claim(id="c4e_acc_met_vs_early_exit_bursts_calibrated", where="abstract",
              text="higher accuracy than early-exit degradation where bursts make the strongest "
                   "baseline miss about 32.8%, on the jobs that met their deadline",
              paper_value="\"" + _Q_BURSTS + "\"; \"improving accuracy by up to 56.5%\" "
                          "(abstract)",
              check=Better(method="rtinfer", baseline="early_exit", metric="acc_met",
                           where=_BC),
              source="paper", foils=("preemptive_edf", SERIAL),
              foil_note="As c4b.",
              note="As c4b in the burst-calibrated regime (10 units), margin 0: the accuracy "
                   "gain apart from the miss-rate gain."),
    ),
    grids={
        "smoke": Grid(datasets=sweep(InferenceWorkload, load=[1.0, 1.4], burst_rate=[0.3],
                                     horizon_ms=[500.0]),
                      seeds=2, methods=_METHODS, note="two loads, bursts, 0.5 s simulated"),
        "quick": Grid(datasets=sweep(InferenceWorkload, load=[0.6, 1.0, 1.4],
                                     burst_rate=[0.0, 0.3]) + _CAL_CONFIGS + _BC_CONFIGS,
                      seeds=5, methods=_METHODS,
                      note="3 loads x 2 burst rates x 5 seeds, 2 s simulated each, and the "
                           "calibrated regime (one load per burst rate, issue 30) and the "
                           "burst-calibrated one (load 0.8, two burst rates and sizes, round 4)"),
        "full": Grid(datasets=sweep(InferenceWorkload, load=[0.4, 0.6, 0.8, 1.0, 1.2, 1.4],
                                    burst_rate=[0.0, 0.1, 0.3], n_tasks=[3, 4, 6],
                                    horizon_ms=[10000.0]) + _CAL_CONFIGS + _BC_CONFIGS,
                     seeds=20, methods=_METHODS,
                     note="about 0.41 CPU-hours (9280 cells: 8640 at ~0.17 CPU-s each, from the "
                          "quick grid, and the two calibrated regimes' 640 at their 2 s "
                          "horizon)"),
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
        Amendment(date="2026-12-06",
                  claims=("c4b_acc_met_vs_early_exit", "c6_throughput_and_accuracy",
                          "c7_variant_co_optimization", "c8_on_demand_loading",
                          *(p.id for p in PREMISES)),
                  what="c4b: c4 on acc_met (accuracy of the jobs that met their deadline); "
                       "headlines declared (7 statements of the ICML abstract), the three no "
                       "claim checked as not_run claims c6-c8; premises: each baseline misses "
                       "deadlines at loads 0.6 and 1.0 (mean DMR > 0), gating c1 and c3",
                  why="issue 30: c4 scores a missed deadline as accuracy 0, so its win is partly "
                      "a miss-rate win (read apart now); on-demand loading had no claim; "
                      "concurrent EDF and early exit miss nothing at loads 0.6 and 1.0, so the "
                      "paper's starting point (32.8% misses) never appears there and the "
                      "near-zero and lowest-DMR claims cannot separate RTInfer from them",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1c_lowest_dmr_calibrated", "c3c_dmr_near_zero_calibrated",
                          "c8_on_demand_loading",
                          *(f"p_{b}_misses_calibrated" for b in BASELINES),
                          "p_eager_loading_stalls"),
                  what="a calibrated regime joins the quick and full grids: load 2.7 at burst "
                       "rates 0.0 and 0.3, the load at which the strongest baseline misses "
                       "closest to 32.8% by the rule written above CAL_LOADS (calibration seeds "
                       "no grid uses, baselines only). New claims c1c (RTInfer ranks first "
                       "among itself and the three baselines, foil: the serial mutant) and c3c "
                       "(mean DMR <= 1%, foils: the baselines) read it, gated by new premises "
                       "(each baseline's mean DMR >= 0.1 there). c8 becomes a check: lower "
                       "load_stall (new simulator output: mean ms a started job waits for its "
                       "weights) than concurrent EDF over loads 0.6-1.4, foil: the new "
                       "eager_load mutant, gated by p_eager_loading_stalls (concurrent EDF "
                       "stalls at all)",
                  why="issue 30: the paper's starting point (baselines missing 32.8%) never "
                      "appeared at loads 0.6 and 1.0, so c1/c3 could not separate RTInfer from "
                      "the baselines; on-demand loading had no check. Rule, thresholds and "
                      "foils were written before the calibration and before any grid run of "
                      "the new cells or of load_stall",
                  results_seen=False),
        Amendment(date="2026-12-06",
                  claims=("c4_acc_vs_early_exit_bursts", "c4b_acc_met_vs_early_exit",
                          "c1_lowest_dmr_load_1_0", "c2_lowest_dmr_load_1_4"),
                  what="c4/c4b: scope restated as burst rate 0.3 at loads 0.6, 1.0, 1.4, so "
                       "that the new calibrated cells (load 2.7) are not pooled in (the cells "
                       "they read, checks, thresholds and foils unchanged); c1/c2 rank every "
                       "method of the grid, which now also holds the eager_load mutant, so on "
                       "the quick grid their best p (10 blocks, 6 others: 0.00586) exceeds "
                       "their worst-case Holm level (9 claims or more: <= 0.00556): they are "
                       "decided on the full grid only (checks, thresholds, scopes and foils "
                       "unchanged)",
                  why="issue 30: the calibrated regime is for the DMR claims (c1c, c3c); the "
                      "eager_load mutant is c8's foil",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c3_dmr_near_zero", "c5_less_fragmentation",
                          "c6_throughput_and_accuracy", "c7_variant_co_optimization"),
                  what="the grids gain the eager_load mutant and the load-2.7 cells, the "
                       "simulator a load_stall output and methods/rtinfer_sim.py the eager_load "
                       "mutant; checks, thresholds, foils and the cells c3/c5 read unchanged "
                       "(c6/c7 are not_run and read none)",
                  why="issue 30 (amendment above); recorded because the lock hashes the grids "
                      "and source files every claim reads",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, "
                       "cells or branches); every non-timing metric of the committed quick "
                       "cells unchanged (compared cell by cell with the fresh run: 0 "
                       "differences in 1080 values of its 180 cells)"),
        Amendment(date="2026-12-06", claims=("c4c_acc_vs_early_exit_calibrated",),
                  what="new claim c4c: c4's check (acc, RTInfer over early exit, foils as c4) "
                       "in the calibrated regime, both burst rates",
                  why="issue 30 (review of the first run of the calibrated cells): c4's scope "
                      "leaves the regime out, and the accuracy there must be read with the "
                      "DMR claims; declared after that run's results were seen",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_lowest_dmr_load_1_0', 'c2_lowest_dmr_load_1_4'),
                  what="the lock's design of a rank over the whole grid (Rank with among=None) now lists every method of the grid, which its verdict reads; before, only the subject and foils were locked. Nothing else changed: checks, grids, cells and verdicts are the same",
                  why="review of issue 27's budget.readers: the lock missed methods a rank-all claim reads, so adding one to the grid would not have shown as a design change",
                  results_seen=True,
                  rule='issue 27 review: a lock fix (the design records every method a rank over the grid reads); no check, grid, cell or verdict changed'),
        Amendment(date="2026-12-06",
                  claims=("c1b_lowest_dmr_bursts_calibrated", "c3b_dmr_near_zero_bursts_calibrated",
                          "c4d_acc_vs_early_exit_bursts_calibrated",
                          "c4e_acc_met_vs_early_exit_bursts_calibrated",
                          *(f"p_{b}_misses_bursts" for b in BASELINES)),
                  what="a burst-calibrated regime joins the quick and full grids: serial load 0.8, "
                       "burst rates 0.3 and 1.0 with burst sizes 38 and 22, the sizes at which "
                       "the strongest baseline misses closest to 32.8% by the rule written above "
                       "BC_SIZES (calibration seeds no grid uses, baselines only). New claims "
                       "c1b (RTInfer ranks first among itself and the baselines, foil: the serial "
                       "mutant), c3b (mean DMR <= 1%, foils: the baselines), c4d/c4e (acc and "
                       "acc_met over early exit, foils as c4) read it; c1b/c3b are gated by new "
                       "premises (each baseline's mean DMR >= 0.164, half of 32.8%, there)",
                  why="issue 30 (round 4): the load-calibrated regime (load 2.7) is a persistent "
                      "overload (the full models' demand exceeds the GPU even run concurrently), "
                      "while the abstract names task bursts as the stressor and c3's note reads "
                      "the paper's workloads as feasible; the issue asks to calibrate load and "
                      "bursts. Declared after c1c/c3c's not_reproduced was seen (that motivated "
                      "it; c1c/c3c/c4c are kept unchanged), but rule, thresholds and foils were "
                      "written before the burst calibration and before any run of these cells",
                  results_seen=False),
        Amendment(date="2026-12-06", claims=("c6_throughput_and_accuracy",),
                  what="not_run -> a check: throughput (jobs meeting their deadline per second) "
                       "of RTInfer over its serial mutant at loads 0.6, 1.0, 1.4 and both burst "
                       "rates, margin 0, foil preemptive_edf; the accuracy half is read by "
                       "c4b/c4e (acc_met against early exit); derived with basis "
                       "construction (the lead's review: the throughput gain of concurrency is "
                       "set by our simulator's U_FULL = 0.5), no longer a paper claim",
                  why="issue 30 (round 4): c6 was not_run although the simulator measures "
                      "throughput; the committed cells (throughput included) had been seen",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c4f_acc_met_vs_early_exit_calibrated",),
                  what="new claim c4f: c4c's check on acc_met (accuracy of the jobs that met "
                       "their deadline) in the load-calibrated regime, foils as c4b",
                  why="issue 30 (round 4): report accuracy and miss rate apart; c4c (acc, a miss "
                      "scores 0) had no acc_met counterpart; the load-2.7 cells had been seen",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c7_variant_co_optimization",),
                  what="the grids gain the burst-calibrated cells (round 4); c7 is not_run and "
                       "reads none; nothing else changed",
                  why="recorded because the lock hashes the grids every claim reads",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, "
                       "cells or branches)"),
        Amendment(date="2026-12-07", claims=("c8_on_demand_loading",),
                  what="c8 gains a second foil, the new preload mutant (RTInfer loading "
                       "everything up front: before serving, every variant that fits in the "
                       "weight memory crosses PCIe and every job admitted meanwhile waits; a "
                       "later miss loads the whole model); check, baseline, scope, margin and "
                       "premise unchanged; eager_load stays a foil",
                  why="issue 30 (round 6): the eager_load foil equals concurrent EDF wherever "
                      "both run the full models (0 [-0.011, 0]), so it can never be refuted and "
                      "c8 was not_discriminating by design; 'on-demand' is opposed to per-job "
                      "and to up-front loading, and only the first had a foil. Declared after "
                      "c8's results were seen, before any run of the mutant",
                  results_seen=True),
        Amendment(date="2026-12-07",
                  claims=("c1_lowest_dmr_load_1_0", "c2_lowest_dmr_load_1_4"),
                  what="the grids gain the preload mutant, which these rank-over-the-grid "
                       "claims (full grid only) now also rank; checks, thresholds, scopes and "
                       "foils unchanged",
                  why="issue 30 (round 6): the preload mutant is c8's foil",
                  results_seen=True),
        Amendment(date="2026-12-07",
                  claims=tuple(c for c in (
                      "c3_dmr_near_zero", "c4_acc_vs_early_exit_bursts",
                      "c4b_acc_met_vs_early_exit", "c4c_acc_vs_early_exit_calibrated",
                      "c5_less_fragmentation", "c6_throughput_and_accuracy",
                      "c7_variant_co_optimization", "c1c_lowest_dmr_calibrated",
                      "c3c_dmr_near_zero_calibrated", "c4f_acc_met_vs_early_exit_calibrated",
                      "c1b_lowest_dmr_bursts_calibrated", "c3b_dmr_near_zero_bursts_calibrated",
                      "c4d_acc_vs_early_exit_bursts_calibrated",
                      "c4e_acc_met_vs_early_exit_bursts_calibrated")),
                  what="the grids gain the preload mutant, the simulator a 'preload' loading "
                       "branch and methods/rtinfer_sim.py the mutant and a provenance note (the "
                       "abstract names no run-time variant rule); checks, thresholds, foils and "
                       "the cells these claims read unchanged",
                  why="issue 30 (round 6): c8's new foil; recorded because the lock hashes the "
                      "grids and source files every claim reads",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, "
                       "cells or branches); every non-timing metric of the committed quick "
                       "cells unchanged (compared cell by cell with the fresh run: 0 "
                       "differences in 2450 values of its 350 cells)"),
    ),
    cost_note=("Quick grid: 350 cells, about 7 CPU-s on the shared 2-core machine (round 4): the "
               "burst-calibrated cells (70, large bursts) add about 1.3 CPU-s (+23%) to the 280 "
               "earlier cells' 5.6 CPU-s measured in the same run; they carry c1b/c3b/c4d/c4e. "
               "calibrate_bursts() (not part of any grid) costs about 15 CPU-s. Round 6: the "
               "preload mutant (c8's second foil) adds 50 cells, 0.42 of the 5.3 CPU-s of the "
               "400-cell quick run measured in one run on the loaded machine (+8%)."),
    headlines=HEADLINES,
    premises=PREMISES,
)
