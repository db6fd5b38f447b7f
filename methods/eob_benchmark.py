"""Evolution of Benchmark (EoB) with genetic programming in place of the LLM.

Paper: Chen Wang, Sijie Ma, Zeyuan Ma, Yue-Jiao Gong, "Evolution of Benchmark: Black-Box
Optimization Benchmark Design through Large Language Model", arXiv 2601.21877,
https://arxiv.org/abs/2601.21877 (v1 abstract and third-party summaries read; body not read).

EoB casts benchmark design as a bi-objective search over benchmark programs f and keeps a
population of them:

    maximize  ( O1(f | T), O2(f) )                                              (1)
    O1(f | T) = 1 / (1 + min_{p in T} ||z_f - z_p||^2 / sigma^2)   landscape similarity (LSI)
    O2(f)     = std_{s in portfolio} perf_s(f)                    algorithm differentiation (ADC)

(definitions in :mod:`claimbench.baselines.suite_assessment`). Our loop, per generation:

    1. parents by binary tournament on (non-domination rank, crowding distance);
    2. each child = subtree crossover of two parents (prob. ``p_crossover``) or subtree
       mutation of one (:mod:`claimbench.baselines.expression_trees`), depth <= ``max_depth``;
    3. evaluate (1) for every child: ELA-lite features on a fixed uniform sample, one run of
       each portfolio solver with seeds fixed for the whole evolution (common random numbers);
    4. (mu + lambda) survival: NSGA-II non-dominated sorting, ties broken by crowding distance
       (Deb et al. 2002).

The suite is the ``suite_size`` best distinct programs of the last population in NSGA-II
order. It is then assessed with fresh solver seeds and a fresh sample
(:func:`~claimbench.baselines.suite_assessment.suite_outputs`), like every baseline suite.

Deviations:
  1. No LLM: programs are GP expression trees (sin, cos, exp, abs, square, ..., shifted and
     rotated inputs, coordinate reductions) varied by subtree crossover/mutation; the paper's
     LLM writes and reflects on Python programs. The reflection step is absent.
  2. Landscape features are our 9 ELA-lite features, not NeurELA's 16 learned ones; sigma^2 = 1.
  3. Objective (i): the ICML abstract says landscape *similarity* to targets (used here);
     arXiv v1 says landscape *diversity*.
  4. Selection is NSGA-II (the paper's scheme was not read); survivors are (mu + lambda).
  5. Portfolio: 6 solvers (random search, (1+1)-ES, Nelder-Mead, CMA-ES, DE, PSO), not the
     paper's 10; the performance normalisation of ADC is ours (log-precision, eq. 2 of
     baselines/suite_assessment); population, generations and budgets are the note's plan, not the paper's.

Mutants for foils (not the paper's method; the default ``mutant=""`` is EoB unchanged):
  ``mutant="no_adc"`` drops objective (ii): the ADC of every program is scored 0, so NSGA-II
     selects on landscape similarity alone and no portfolio runs happen during the search.
  ``mutant="no_lsi"`` drops objective (i): LSI is scored 0, so the search maximizes ADC alone and
     never looks at the targets.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.memo import LastOf

_MEMO = LastOf()  # per instance: program features and ADC during the evolution (EoB.run)


# -- NSGA-II building blocks (objectives are maximized) -------------------------------------
def dominates(a, b) -> bool:
    return bool(np.all(a >= b) and np.any(a > b))


def nondominated_sort(F) -> list[list[int]]:
    """Fronts of the (n, m) objective matrix, best first (Deb et al. 2002, fast sort)."""
    F = np.asarray(F, dtype=float)
    n = F.shape[0]
    dominated_by = [[] for _ in range(n)]  # i dominates these
    count = np.zeros(n, dtype=int)  # how many dominate i
    for i in range(n):
        for j in range(i + 1, n):
            if dominates(F[i], F[j]):
                dominated_by[i].append(j)
                count[j] += 1
            elif dominates(F[j], F[i]):
                dominated_by[j].append(i)
                count[i] += 1
    fronts, current = [], [i for i in range(n) if count[i] == 0]
    while current:
        fronts.append(current)
        nxt = []
        for i in current:
            for j in dominated_by[i]:
                count[j] -= 1
                if count[j] == 0:
                    nxt.append(j)
        current = sorted(nxt)
    return fronts


def crowding_distance(F) -> np.ndarray:
    """(k,) crowding distance within one front; boundary points get +inf."""
    F = np.asarray(F, dtype=float)
    k, m = F.shape
    dist = np.zeros(k)
    if k <= 2:
        return np.full(k, np.inf)
    for j in range(m):
        order = np.argsort(F[:, j], kind="stable")
        span = F[order[-1], j] - F[order[0], j]
        dist[order[0]] = dist[order[-1]] = np.inf
        if span > 0:
            dist[order[1:-1]] += (F[order[2:], j] - F[order[:-2], j]) / span
    return dist


def nsga2_order(F) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All indices sorted by (rank, -crowding), with each index's rank and crowding."""
    F = np.asarray(F, dtype=float)
    rank, crowd = np.zeros(len(F), dtype=int), np.zeros(len(F))
    for r, front in enumerate(nondominated_sort(F)):
        rank[front] = r
        crowd[front] = crowding_distance(F[front])
    order = np.lexsort((-crowd, rank))
    return order, rank, crowd


def tournament(rng, rank, crowd) -> int:
    i, j = rng.integers(len(rank), size=2)
    if rank[i] != rank[j]:
        return int(i if rank[i] < rank[j] else j)
    return int(i if crowd[i] >= crowd[j] else j)


# -- the method ---------------------------------------------------------------------------
@dataclass
class EoB(Method):
    name: ClassVar[str] = "eob"
    pop_size: int = 24  # note's plan (the paper's LLM population size was not read)
    generations: int = 20  # note's plan
    suite_size: int = 5  # programs in the returned suite; our choice (= number of BBOB targets)
    p_crossover: float = 0.5  # our choice (else subtree mutation)
    max_depth: int = 6  # tree depth limit; our choice
    init_depth: tuple = (2, 4)  # ramped half-and-half depths of the first population; our choice
    sigma2: float = 1.0  # LSI normaliser of eq. (1); our choice (features lie in [-1, 1])
    mutant: str = ""  # foil only: "no_adc" | "no_lsi" drops one objective of (1); not the paper's

    def run(self, data, seed: int) -> dict:
        from claimbench.baselines.solver_portfolio import PORTFOLIO_NAMES
        from claimbench.datasets.eob_targets import target_function
        from claimbench.baselines import suite_assessment as ea
        from claimbench.baselines import expression_trees as et

        dim, budget = data["dim"], data["budget"]
        rng = np.random.default_rng([seed, 1])  # evolution stream, apart from the assessment's
        t0 = time.perf_counter()
        X = ea.feature_sample(rng, dim, data["n_sample"])
        Z_t = np.array([ea.landscape_features(target_function(s)(X), X) for s in data["targets"]])
        seeds = ea.run_seeds(int(rng.integers(2**62)), len(PORTFOLIO_NAMES), 1)

        if self.mutant not in ("", "no_adc", "no_lsi"):
            raise ValueError(f"unknown mutant {self.mutant!r}")

        # A program's features and ADC are functions of (program, X, solver seeds, budget), all
        # fixed for the whole evolution: they are kept per instance (claimbench.memo), so a
        # program met again -- a child equal to its parent, a survivor of the same initial
        # population in EoB and its mutants, which share the cell's seed -- is not re-run
        # through the portfolio. repr(tree) keeps -0.0 and 0.0 constants apart.
        ctx = (X.tobytes(), seeds.tobytes(), dim, budget)

        def memo(what: str, prog, compute):
            key = (what, repr(prog["tree"]), prog["shift"].tobytes(), prog["rot"].tobytes(), ctx)
            return _MEMO.get((data,), key, compute)

        def objectives(prog) -> tuple[float, float]:
            f = et.program_function(prog)
            y = memo("y", prog, lambda: f(X))  # (n_sample,)
            # A dropped objective is a constant 0: NSGA-II then ranks on the other one alone.
            lsi = 0.0 if self.mutant == "no_lsi" else ea.lsi(
                memo("z", prog, lambda: ea.landscape_features(y, X)), Z_t, self.sigma2)
            if self.mutant == "no_adc":
                return lsi, 0.0
            return lsi, memo("adc", prog, lambda: ea.adc(ea.normalized_performance(
                ea.portfolio_best(f, dim, budget, seeds), y)))

        pop = [et.new_program(rng, dim, *self.init_depth) for _ in range(self.pop_size)]
        F = np.array([objectives(p) for p in pop])  # (P, 2): (LSI, ADC)
        hist_lsi, hist_adc = [float(F[:, 0].mean())], [float(F[:, 1].mean())]
        for _ in range(self.generations):
            _, rank, crowd = nsga2_order(F)
            children = []
            for _ in range(self.pop_size):
                a = pop[tournament(rng, rank, crowd)]
                if rng.random() < self.p_crossover:
                    b = pop[tournament(rng, rank, crowd)]
                    tree = et.subtree_crossover(rng, a["tree"], b["tree"], self.max_depth)
                else:
                    tree = et.subtree_mutation(rng, a["tree"], self.max_depth)
                children.append({**a, "tree": tree})
            F_all = np.vstack([F, [objectives(c) for c in children]])
            pool = pop + children
            keep = nsga2_order(F_all)[0][: self.pop_size]
            pop, F = [pool[i] for i in keep], F_all[keep]
            hist_lsi.append(float(F[:, 0].mean()))
            hist_adc.append(float(F[:, 1].mean()))
        suite, seen = [], set()
        for i in nsga2_order(F)[0]:
            key = (et.to_string(pop[i]["tree"]), tuple(np.round(pop[i]["shift"], 12)))
            if key not in seen:
                seen.add(key)
                suite.append(pop[i])
            if len(suite) == self.suite_size:
                break
        time_s = time.perf_counter() - t0
        out = ea.suite_outputs([et.program_function(p) for p in suite],
                               [et.to_string(p["tree"]) for p in suite], data, seed)
        gens = [float(g) for g in range(self.generations + 1)]
        out.update(time_s=time_s, n_programs_evaluated=self.pop_size * (self.generations + 1),
                   traces={"population_adc": {"x": gens, "y": hist_adc, "xlabel": "generation",
                                              "ylabel": "mean ADC of the population"},
                           "population_lsi": {"x": gens, "y": hist_lsi, "xlabel": "generation",
                                              "ylabel": "mean LSI of the population"}})
        return out
