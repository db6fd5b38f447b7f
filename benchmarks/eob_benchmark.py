"""Evolution of Benchmark (EoB, arXiv 2601.21877), as a genetic-programming proxy.

EoB searches for benchmark programs that (i) resemble target tasks in landscape and
(ii) separate a portfolio of black-box solvers. We keep both objectives and replace the LLM
with GP over expression trees (NSGA-II selection), then ask whether the evolved suite
separates the portfolio more than random programs from the same space, and whether it ranks
the solvers as the targets do. The targets are a few BBOB functions and one hyper-parameter
tuning surface (kernel ridge on diabetes, the paper's "proxy for an expensive problem" use).
Every suite, evolved, random or the targets themselves, is assessed by one protocol: fresh
solver seeds shared by the methods of a cell, a fixed budget, and the same landscape sample.
"""
from __future__ import annotations

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                            output_metric)
from claimbench.baselines.random_programs import RandomPrograms
from claimbench.baselines.target_suite import TargetSuite
from claimbench.checks import Better, NotRun, Value
from claimbench.datasets.eob_targets import BBOBTargets, TuningTargets
from claimbench.methods.eob_benchmark import EoB


def _kendall_tau(inst, out):
    from claimbench.baselines.suite_assessment import kendall_tau

    return kendall_tau(out["solver_perf"], inst.truth["solver_perf"])


def _adc_gain(inst, out):
    return float(out["adc"] - inst.truth["adc"])


METRICS = (
    output_metric("adc", higher_is_better=True,
                  description="algorithm-differentiation capability: std over the 6 solvers of "
                              "their normalized performance, averaged over the suite's functions"),
    output_metric("lsi", higher_is_better=True,
                  description="landscape similarity 1/(1 + min_target ||z_f - z_t||^2), ELA-lite "
                              "features z, averaged over the suite"),
    Metric("kendall_tau", _kendall_tau, True,
           "Kendall tau-b between the solvers' mean normalized performance on the suite and on "
           "the targets (targets run with independent seeds)"),
    Metric("adc_gain_over_targets", _adc_gain, True,
           "suite ADC minus the ADC of the target tasks themselves (independent seeds)"),
    output_metric("time_s", description="wall time of suite generation (assessment excluded)"),
)

NO_ADC, NO_LSI = "eob[mutant=no_adc]", "eob[mutant=no_lsi]"  # foils, not the paper's method

# Quick scale: 2-D, 100 d evaluations per solver run, 2 runs per solver and function.
_QUICK_DATA = (cfg(BBOBTargets, dim=2, budget_per_dim=100, reps=2),
               cfg(TuningTargets, budget_per_dim=100, reps=2))
_QUICK_METHODS = (cfg(EoB, label="eob", pop_size=6, generations=3, suite_size=4),
                  cfg(RandomPrograms, label="random_programs", suite_size=4),
                  cfg(TargetSuite, label="target_suite"),
                  # foils: EoB with one objective of (1) dropped (methods/eob_benchmark.py)
                  cfg(EoB, label=NO_ADC, pop_size=6, generations=3, suite_size=4, mutant="no_adc"),
                  cfg(EoB, label=NO_LSI, pop_size=6, generations=3, suite_size=4, mutant="no_lsi"))
_SMOKE_DATA = (cfg(BBOBTargets, dim=2, fids=(1, 15), budget_per_dim=20, reps=1,
                   sample_per_dim=25),)
_SMOKE_METHODS = (cfg(EoB, label="eob", pop_size=4, generations=1, suite_size=2),
                  cfg(RandomPrograms, label="random_programs", suite_size=2),
                  cfg(TargetSuite, label="target_suite"),
                  cfg(EoB, label=NO_ADC, pop_size=4, generations=1, suite_size=2, mutant="no_adc"),
                  cfg(EoB, label=NO_LSI, pop_size=4, generations=1, suite_size=2, mutant="no_lsi"))
_FULL_DATA = (cfg(BBOBTargets, dim=2), cfg(BBOBTargets, dim=5), cfg(TuningTargets))
_FULL_METHODS = (cfg(EoB, label="eob"), cfg(RandomPrograms, label="random_programs"),
                 cfg(TargetSuite, label="target_suite"), cfg(EoB, label=NO_ADC, mutant="no_adc"),
                 cfg(EoB, label=NO_LSI, mutant="no_lsi"))

_PROXY = ("GP proxy of an LLM method: none of EoB's mechanism remains (no LLM writes or "
          "reflects on programs; genetic programming searches expression trees); only its two "
          "objectives are kept, so this checks the objectives under our search, not EoB. ")

# The ICML abstract's words, quoted by the issue-29 claims and headlines.
_Q_LLM = ("EoB iteratively prompts LLM to evolve a population of benchmark programs and employs a "
          "reflection-based scheme to co-evolve the landscape and its corresponding program")
_Q_USES = ("Comprehensive experiments validate our EoB is a competitive candidate in "
           "multi-dimensional usages")

BENCHMARK = Benchmark(
    slug="eob_benchmark",
    paper=Paper(
        title=("Evolution of Benchmark: Black-Box Optimization Benchmark Design through Large "
               "Language Model"),
        arxiv="2601.21877",
        url="https://arxiv.org/abs/2601.21877",
        version="arXiv v1 abstract + third-party summaries (body not read)",
        authors="Chen Wang, Sijie Ma, Zeyuan Ma, Yue-Jiao Gong",
    ),
    area="optimization",
    fidelity="proxy",
    fidelity_note=("The LLM ingredient is absent. EoB's LLM writes and reflects on Python "
                   "benchmark programs; here genetic programming (ramped half-and-half trees, "
                   "subtree crossover and mutation, NSGA-II survival) searches expression trees "
                   "for the same two objectives: landscape similarity to targets (ELA-lite "
                   "features instead of NeurELA) and the spread of a 6-solver portfolio's "
                   "normalized performance (random search, (1+1)-ES, Nelder-Mead, CMA-ES via "
                   "`cma`, DE/rand/1/bin, PSO; the paper has 10 solvers). Targets are 5 BBOB "
                   "functions (f1, f8, f10, f15, f20; COCO instances) and one kernel-ridge "
                   "tuning surface, not all 24 BBOB functions nor the paper's UAV/HPO problems. Quick grid: 2-D, population 6, 3 "
                   "generations, 200 evaluations per solver run."),
    methods=(EoB,),
    baselines=(RandomPrograms, TargetSuite),
    datasets=(BBOBTargets, TuningTargets),
    metrics=METRICS,
    primary_metric="adc",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=(
        Claim(id="c1_separation_vs_random",
              where="research note's check (EoB's objective ii, Sec. 3)",
              text="EoB evolves benchmark programs that maximize algorithm-differentiation "
                   "ability across a portfolio of BBO solvers",
              paper_value="\"we formulate benchmark design as a bi-objective optimization "
                          "problem towards maximizing ... (ii) algorithm-differentiation ability "
                          "across a portfolio of BBO solvers\" (abstract; no number)",
              check=Better(method="eob", baseline="random_programs", metric="adc"),
              note=_PROXY + "The evolved suite's ADC should beat random programs of the same "
                   "program space and size budget (no evolution), paired on (dataset, seed) "
                   "with common solver seeds. The paper gives no number; any improvement "
                   "counts (margin 0). The comparison with random programs is the research "
                   "note's check: the abstract states the objective (a formulation), not this "
                   "result, so it is derived (issue 29).",
              source="derived",
              foils=(NO_ADC, "target_suite"),
              foil_note="A search with the ADC objective removed, and the hand-made target "
                        "suite that no search tuned for ADC, must not beat random programs on "
                        "ADC if the gain is the ADC objective's."),
        Claim(id="c2_rank_agreement", where="abstract (proxy for expensive problems); Sec. 5",
              text="generated benchmarks serve as proxies for an expensive target problem: "
                   "solvers rank on them as on that problem, more than on programs that were "
                   "not built for it",
              paper_value="\"Comprehensive experiments validate our EoB is a competitive "
                          "candidate in multi-dimensional usages: ... 3) Extending proxy for "
                          "expensive real-world problems\" (abstract; no number)",
              check=Better(method="eob", baseline="random_programs", metric="kendall_tau",
                           where={"dataset": "tuning_surface"}),
              note=_PROXY + "Kendall tau-b between the 6 solvers' mean normalized performance "
                   "on the evolved suite and on the target (independent runs), on the "
                   "expensive-problem stand-in (the kernel-ridge tuning surface), paired "
                   "against random programs of the same space; margin 0. Issue 14: the "
                   "earlier reading (mean tau > 0, pooled) was met by random programs (tau "
                   "0.34 vs EoB's 0.32): the 6-solver portfolio ranks alike on any program of "
                   "the space, so positive agreement alone says nothing about a proxy built "
                   "for the target. A third-party listing (wizwand) gives 'performance "
                   "consistency 0.396 (UAV)'; not used (definition and source not read). c3 is "
                   "the pooled version of this comparison (research note's check).",
              source="paper",
              grids=("full",),
              foils=(NO_LSI,),
              foil_note="EoB searching ADC alone never looks at the target, so it must not "
                        "rank the solvers more like the target than random programs do. "
                        "(random_programs, the former foil, is now the baseline.)"),
        Claim(id="c3_rank_agreement_vs_random", where="research note's proposal",
              text="the evolved suite ranks the solvers more like the targets than random "
                   "programs do",
              check=Better(method="eob", baseline="random_programs", metric="kendall_tau"),
              note=_PROXY + "The note's check (tau of EoB >= tau of random programs), as a "
                   "paired one-sided test with margin 0.",
              source="derived",
              foils=(NO_LSI,),
              foil_note="EoB with the similarity objective removed searches without the "
                        "targets, so it must not rank the solvers more like the targets than "
                        "random programs do."),
        Claim(id="c4_similarity_vs_random", where="ours (EoB's objective i, ICML wording)",
              text="benchmark design maximizes landscape similarity to target tasks",
              paper_value="\"towards maximizing (i) landscape similarity to target tasks\" "
                          "(ICML abstract; arXiv v1: 'maximizing (i) landscape diversity'); no "
                          "number",
              check=Better(method="eob", baseline="random_programs", metric="lsi"),
              note=_PROXY + "LSI of the evolved suite vs random programs. arXiv v1 names "
                   "this objective landscape diversity; we follow the ICML wording (read via "
                   "the research note). The comparison with random programs is ours: the "
                   "abstract states the objective (a formulation), not this result, so it is "
                   "derived (issue 29).",
              source="derived",
              foils=(NO_LSI,),
              foil_note="EoB with the similarity objective removed must not be more similar to "
                        "the targets than random programs if the gain is that objective's."),
        Claim(id="c5_separation_vs_bbob", where="abstract; research note",
              text="EoB suites rival or surpass human-designed benchmark suites (BBOB) in "
                   "algorithm differentiation",
              paper_value="\"Comprehensive experiments validate our EoB is a competitive "
                          "candidate in multi-dimensional usages: 1) Benchmarking BBO "
                          "algorithms\" (abstract; 'rival or surpass' is a third-party "
                          "summary's wording; no number)",
              check=Value(method="eob", metric="adc_gain_over_targets", lo=0.0,
                          where={"dataset": "bbob_targets"}),
              source="paper",
              foils=("random_programs", NO_ADC, "target_suite"),
              foil_note="Unsearched random programs, EoB without the ADC objective, and the "
                        "BBOB targets themselves must not surpass BBOB in ADC if the gain is "
                        "the search's (the note above already saw random programs pass).",
              note=_PROXY + "ADC of the evolved suite minus the ADC of the BBOB targets "
                   "(f1, f8, f10, f15, f20) under the same protocol; mean gain > 0. 'Rival or "
                   "surpass' comes from a third-party summary; we test 'surpass'. Caveat seen "
                   "in the first quick run (threshold and grid unchanged): random programs of "
                   "the same space also beat the targets' ADC (mean gain ~0.11 vs EoB's ~0.14), "
                   "so this gain says as much about the program space as about the search. "
                   "Issue 14, what it shows: random programs (gain ~0.11) and EoB without "
                   "the ADC objective (~0.09) pass it too, so it is kept as a derived check "
                   "of the program space (its programs separate the portfolio more than the "
                   "5 BBOB targets do), not of EoB's search; whether the search adds ADC is "
                   "c1's question (EoB vs random programs). Declaration unchanged; the "
                   "verdict stays not_discriminating by design."),
        Claim(id="c6_llm_program_evolution", where="abstract (EoB's LLM program evolution)",
              text="EoB's LLM evolves a population of benchmark programs, with a reflection "
                   "scheme that co-evolves the landscape and its program",
              paper_value="\"" + _Q_LLM + "\" (abstract)",
              check=NotRun(method="eob", reason="needs a capable LLM to write, evolve and "
                           "reflect on benchmark programs; the method here is a genetic-"
                           "programming stand-in with neither, so no result of this benchmark "
                           "speaks for EoB's LLM evolution or its reflection scheme"),
              source="paper"),
        Claim(id="c7_metabbo_train_test", where="abstract (usage 2: learning-assisted BBO)",
              text="EoB's suites serve to train and test learning-assisted (MetaBBO) optimizers",
              paper_value="\"" + _Q_USES + " ... 2) Training and testing learning-assisted BBO "
                          "algorithms\" (abstract)",
              check=NotRun(method="eob", reason="not built yet (issue 29): a learning-assisted "
                           "optimizer (e.g. a small learned ES) meta-trained on the evolved "
                           "suite, on random programs and on the BBOB targets, then tested on "
                           "held-out BBOB functions, with the gap after a fixed budget compared "
                           "paired over seeds; no MetaBBO training exists in this benchmark"),
              source="paper"),
    ),
    headlines=(
        Headline(quote=_Q_LLM, claims=("c6_llm_program_evolution",)),
        Headline(quote=_Q_USES + ": 1) Benchmarking BBO algorithms",
                 claims=("c5_separation_vs_bbob",)),
        Headline(quote="Training and testing learning-assisted BBO algorithms",
                 claims=("c7_metabbo_train_test",)),
        Headline(quote="Extending proxy for expensive real-world problems",
                 claims=("c2_rank_agreement", "c3_rank_agreement_vs_random")),
    ),
    amendments=(
        Amendment(date="2026-12-03",
                  claims=("c1_separation_vs_random", "c2_rank_agreement",
                          "c3_rank_agreement_vs_random", "c4_similarity_vs_random",
                          "c5_separation_vs_bbob"),
                  what="source and foils declared; mutants eob[mutant=no_adc] and "
                       "eob[mutant=no_lsi] added to every grid; c2's third-party 0.396 moved "
                       "from paper_value to note; abstract statements quoted in paper_value "
                       "(c1, c2, c4)",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03", claims=("c2_rank_agreement", "c5_separation_vs_bbob"),
                  what="c2: Value(kendall_tau > 0, pooled) -> Better(eob over random_programs, "
                       "kendall_tau, dataset tuning_surface, margin 0); foils (random_programs, "
                       "no_lsi) -> (no_lsi). c5: declaration unchanged, the note says what it "
                       "shows (a property of the program space, met by random programs)",
                  why="issue 14: both were met by their own foil (random programs). The "
                      "abstract's use is a 'proxy for expensive real-world problems': a proxy "
                      "of that problem must rank the solvers like it more than programs not "
                      "built for it do, and our stand-in for the expensive problem is the "
                      "tuning surface. c5's wording ('rival or surpass BBOB') is about the "
                      "suite, not the search; no re-declaration of it makes random programs "
                      "fail without duplicating c1, so it stays derived",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_separation_vs_random", "c4_similarity_vs_random",
                          "c5_separation_vs_bbob"),
                  what="source derived -> paper; paper_value quotes the ICML abstract verbatim",
                  why="placed in the abstract, so they are the paper's claims",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06", claims=("c2_rank_agreement",),
                  what="decided on the full grid only (grids=('full',)); paper_value quotes "
                       "the abstract verbatim",
                  why="6 units on the quick grid (one dataset x 6 seeds) give a floor "
                      "p = 2^-6 = 0.0156, above its worst-case Holm level 0.01: the quick "
                      "grid cannot decide it; the statistic is not deterministic",
                  results_seen=True, rule="issue 26: full-grid-only for an undecidable design"),
        Amendment(date="2026-12-06", claims=("c1_separation_vs_random", "c4_similarity_vs_random"),
                  what="source paper -> derived; where names the research note's check / ours "
                       "(no longer 'abstract'); checks, foils and paper_value unchanged",
                  why="the abstract states EoB's two objectives as its formulation of benchmark "
                      "design, not a result; beating random programs on each objective is the "
                      "research note's check (c1) and ours (c4), run with a GP search that keeps "
                      "none of EoB's LLM mechanism",
                  results_seen=True,
                  rule="issue 26: source by placement (a research-note check the abstract "
                       "does not state is derived)"),
        Amendment(date="2026-12-06", claims=("c6_llm_program_evolution", "c7_metabbo_train_test"),
                  what="two not_run claims added: the LLM program evolution with reflection "
                       "(c6) and the MetaBBO train/test usage (c7); every claim's note now says "
                       "that none of EoB's mechanism remains in the GP proxy; headlines declared "
                       "(the abstract's 4 checkable statements)",
                  why="issue 29: the LLM-specific statements and the second usage of the "
                      "abstract had no claim",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_separation_vs_random', 'c2_rank_agreement', 'c3_rank_agreement_vs_random', 'c4_similarity_vs_random', 'c5_separation_vs_bbob', 'c6_llm_program_evolution', 'c7_metabbo_train_test'),
                  what="a program's samples, features and ADC kept per instance (LastOf); evaluate() with less overhead per call (byte-identical on 18,000 inputs)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
    grids={
        "smoke": Grid(datasets=_SMOKE_DATA, seeds=1, methods=_SMOKE_METHODS,
                      note="tiny: 2 targets, 40 evaluations per run, population 4, 1 generation"),
        "quick": Grid(datasets=_QUICK_DATA, seeds=6, methods=_QUICK_METHODS,
                      note="2-D targets, population 6 x 3 generations, suites of 4, 200 "
                           "evaluations per solver run, 2 runs per solver"),
        "full": Grid(datasets=_FULL_DATA, seeds=10, methods=_FULL_METHODS,
                     note="note's plan: population 24 x 20 generations, 500 d evaluations, "
                          "5 runs per solver, d = 2 and 5 plus the tuning surface"),
    },
    cost_note=(
        ("Under its share since the issue 27 speed-ups of 2026-12-06 (every value "
               "unchanged): 39 CPU-s on idle cores (56 before), all of it runs of the six-solver "
               "portfolio; a program's samples and features are now computed once per instance.")),
    description=__doc__,
)
