"""AnalogVerifier: a neuro-symbolic framework for analog circuit verification (testbench
generation).

Paper: "AnalogVerifier: A Neuro-Symbolic Framework for Analog Circuit Verification", ICML 2026
poster 62139 (https://icml.cc/virtual/2026/poster/62139); no arXiv id found. Read: the abstract
and the research note /work/shared/papers/analogverifier.md; the body, the prompts, the PDG
construction rules, the repair policy and the hyperparameters were not read (the code is behind
an anonymous link that cannot be fetched), so everything below the abstract's four stages is
reconstructed.

Implemented, per circuit (datasets/analog_testbenches.py):
  (1) task serialization: a generator (scripted, or an LLM through claimbench.models) turns the
      specification into atomic tasks T (stimulus, analysis, measurement);
  (2) graph-symbolic scheduling: a Port Dependency Graph G = (T, E) with an edge u -> v when v
      reads a port u writes (input-source port: stimulus -> analysis; analysis plot:
      analysis -> measurement). The current plot is one shared port, so each analysis is
      contracted with the measurements that read its plot into one block, the quotient DAG is
      topologically sorted (networkx, ties by first mention) and blocks are expanded as
      [analysis, its measurements]: every precedence holds and no analysis intervenes between a
      measurement and its own analysis (correct by construction);
  (3) numerical-symbolic grounding: a symbolic oracle (sympy) builds the modified nodal
      analysis of the schematic netlist in the Laplace domain, H(s) = V_out(s)/V_in(s), and
      derives each threshold exactly: dc gain H(0); gain |H(j 2 pi 1 kHz)|; cut-off w_c > 0
      solving 2|N(jw)|^2 = H(0)^2 |D(jw)|^2; band edges w_1 < w_2 solving 2|N|^2 = H_pk^2|D|^2
      (H_pk at the root of d|H|^2/dw), f0 = sqrt(w_1 w_2)/2pi, bw = (w_2 - w_1)/2pi; settling
      t solving y(t) = 0.98 y(inf) for the step response y(t) = H(0) + sum_p N(p)/(p D'(p)) e^{pt};
  (4) closed-loop repair: run ngspice; for each spec left unmeasured by the simulator, or whose
      measurement reads a port no task of G writes (incomplete), re-ask the generator for its
      prerequisites with the simulator's feedback, add them to T, rebuild G, reschedule, rerun
      (at most ``max_repairs`` rounds).

Mutants (field ``mutant``; "" is the method):
- ``plain_toposort``: the PDG without the shared-plot contraction, sorted by networkx's plain
  topological sort (precedence right, read-after-write hazards on the current plot possible);
- ``no_oracle``: thresholds are the generator's own numeric guesses (no symbolic grounding);
- ``no_repair``: one simulation, no feedback loop.

Deviations:
1. Generated toy circuits (RC low-pass, series-RLC band-pass, inverting / non-inverting
   amplifiers with a VCVS op-amp) simulated by ngspice, instead of five industrial circuits and a
   commercial simulator.
2. The default generator is scripted (the document's task mentions, each stimulus/analysis
   dropped with probability p_omit; LLM-like numeric guesses with log-normal error and formula
   slips); the LLM generator runs with the tiny model as plumbing only.
3. The PDG's ports are the testbench language's (input-source fields and the current plot),
   ours; the paper's PDG is over circuit ports and was not read.
4. Repair re-asks for the prerequisites of unmeasured specs only; the paper's repair policy (and
   its "completeness" check) was not read. Round limits and noise levels are ours.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.ngspice_testbench import make_generator, run_testbench, verdicts
from claimbench.datasets.analog_testbenches import ANALYSES, ANALYSIS_OF, ports, tasks_of_spec

MUTANTS = ("", "plain_toposort", "no_oracle", "no_repair")


# -- (2) graph-symbolic scheduling ----------------------------------------------------------------
def pdg(tasks: list[str]):
    """Port dependency graph: u -> v when v reads a port u writes (the shared 'plot' port is
    left to the scheduler)."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(tasks)
    for u in tasks:
        for v in tasks:
            if u != v and set(ports(u)[1]) & set(ports(v)[0]):
                g.add_edge(u, v)
    return g


def schedule(tasks: list[str], plain: bool = False) -> list[str]:
    """Correct-by-construction order of ``tasks`` (or networkx's plain topological sort)."""
    import networkx as nx

    tasks = list(dict.fromkeys(tasks))
    g = pdg(tasks)
    if plain:
        return list(nx.topological_sort(g))
    rank = {t: i for i, t in enumerate(tasks)}
    block = {}
    for t in tasks:  # an analysis and the measurements that read its plot form one block
        an = ANALYSIS_OF[t[2:]] if t.startswith("m_") else t
        block[t] = an if (t in ANALYSES or (t.startswith("m_") and an in rank)) else t
    q = nx.DiGraph()
    q.add_nodes_from(set(block.values()))
    q.add_edges_from((block[u], block[v]) for u, v in g.edges if block[u] != block[v])
    members = {b: sorted([t for t in tasks if block[t] == b],
                         key=lambda t: (t not in ANALYSES, rank[t])) for b in q}
    first = {b: min(rank[t] for t in members[b]) for b in q}
    return [t for b in nx.lexicographical_topological_sort(q, key=lambda b: first[b])
            for t in members[b]]


def complete(tasks: list[str], spec: str) -> bool:
    """Whether the PDG resolves every port a spec's measurement depends on (its analysis, and a
    writer of the source field the analysis reads)."""
    st, an, m = tasks_of_spec(spec)
    return m in tasks and an in tasks and st in tasks


# -- (3) numerical-symbolic grounding -------------------------------------------------------------
def transfer_function(netlist: str):
    """H(s) = V(out)/V(in) of a netlist (r, c, l, vin, e elements) by symbolic MNA."""
    import sympy as sp

    s = sp.Symbol("s")
    elems = [ln.split() for ln in netlist.splitlines() if ln.strip() and ln[0] not in "*."]
    nodes = sorted({n for e in elems for n in e[1:3] if n != "0"}
                   | {n for e in elems if e[0][0] == "e" for n in e[3:5] if n != "0"})
    idx = {n: i for i, n in enumerate(nodes)}
    srcs = [e for e in elems if e[0][0] in "ve"]
    N = len(nodes) + len(srcs)
    M, b = sp.zeros(N, N), sp.zeros(N, 1)

    def stamp_y(a, c, y):
        for p, sg in ((a, 1), (c, -1)):
            for q, sq in ((a, 1), (c, -1)):
                if p != "0" and q != "0":
                    M[idx[p], idx[q]] += sg * sq * y

    for e in elems:
        k = e[0][0]
        if k in "rcl":
            val = sp.Rational(e[3])
            stamp_y(e[1], e[2], {"r": 1 / val, "c": s * val, "l": 1 / (s * val)}[k])
    for j, e in enumerate(srcs):
        r = len(nodes) + j
        for p, sg in ((e[1], 1), (e[2], -1)):
            if p != "0":
                M[idx[p], r] += sg
                M[r, idx[p]] += sg
        if e[0][0] == "v":
            b[r] = 1  # unit input
        else:  # e out 0 cp cn A: V(out) - A (V(cp) - V(cn)) = 0
            A = sp.Rational(e[5])
            for p, sg in ((e[3], 1), (e[4], -1)):
                if p != "0":
                    M[r, idx[p]] -= sg * A
    x = M.LUsolve(b)
    return sp.cancel(sp.together(x[idx["out"]])), s


def _mag2(poly, s, w):
    import sympy as sp

    return sp.expand(poly.subs(s, sp.I * w) * poly.subs(s, -sp.I * w))


def _pos_roots(expr, w):
    import sympy as sp

    return sorted(r for r in sp.Poly(expr, w).real_roots() if r > 0)


def oracle(circuit: dict) -> dict:
    """Every spec threshold of a circuit, derived from its schematic netlist (exact, then float)."""
    import sympy as sp

    H, s = transfer_function(circuit["netlist"])
    Nn, Dd = sp.fraction(H)
    w, t = sp.Symbol("w", positive=True), sp.Symbol("t", positive=True)
    H0 = sp.simplify(H.subs(s, 0))
    out = {}
    for spec in circuit["specs"]:
        if spec == "dc_gain":
            v = H0
        elif spec == "ac_gain":
            v = sp.sqrt(_mag2(Nn, s, w) / _mag2(Dd, s, w)).subs(w, 2 * sp.pi * 1000)
        elif spec == "fc":
            v = _pos_roots(2 * _mag2(Nn, s, w) - H0 ** 2 * _mag2(Dd, s, w), w)[0] / (2 * sp.pi)
        elif spec in ("f0", "bw"):
            n2, d2 = _mag2(Nn, s, w), _mag2(Dd, s, w)
            wp = _pos_roots(sp.numer(sp.together(sp.diff(n2 / d2, w))), w)[0]
            pk2 = (n2 / d2).subs(w, wp)
            w1, w2 = _pos_roots(sp.expand(2 * n2 - pk2 * d2), w)[:2]
            v = sp.sqrt(w1 * w2) / (2 * sp.pi) if spec == "f0" else (w2 - w1) / (2 * sp.pi)
        elif spec == "settling":
            poles = sp.roots(sp.Poly(Dd, s))
            dD = sp.diff(Dd, s)
            res = {p: Nn.subs(s, p) / (p * dD.subs(s, p)) for p in poles}  # residues of H/s
            if len(res) == 1:  # H0 + a e^{pt} = 49/50 H0  =>  t = log(-H0 / (50 a)) / p
                (p, a), = res.items()
                v = sp.log(-H0 / (50 * a)) / p
            else:
                y = H0 + sum(a * sp.exp(p * t) for p, a in res.items())
                v = sp.nsolve(y - sp.Rational(49, 50) * H0, t, 4 / min(abs(p) for p in res))
        else:
            raise ValueError(spec)
        out[spec] = float(sp.N(v, 30))
    return out


# -- the method -----------------------------------------------------------------------------------
@dataclass
class AnalogVerifier(Method):
    name: ClassVar[str] = "analogverifier"
    max_repairs: int = 3  # ours: repair rounds (the paper's limit was not read)
    p_omit: float = 0.25  # ours: scripted generator drops a stimulus/analysis task
    sigma: float = 0.1  # ours: numeric guesses (used by the no_oracle mutant only)
    p_slip: float = 0.2  # ours: as sigma
    model: str = "tiny:charlm-small"  # the LLM arm's generator (claimbench run --model)
    temperature: float = 0.0  # greedy decoding
    max_tokens: int = 16  # ours: short answers
    mutant: str = ""

    def applies_to(self, dataset) -> str | None:
        if self.mutant and getattr(dataset, "arm", "scripted") == "llm":
            return "mutants run on the scripted arm only"
        return None

    def run(self, data, seed):
        if self.mutant not in MUTANTS:
            raise ValueError(f"unknown mutant {self.mutant!r}")
        rng = np.random.default_rng(seed)
        gen = make_generator(self, data, rng, seed)
        plain = self.mutant == "plain_toposort"
        rounds = 0 if self.mutant == "no_repair" else self.max_repairs
        out, runs = [], 0
        for c in data["circuits"]:
            tasks = gen.serialize(c)
            if self.mutant == "no_oracle":
                thr = {s: gen.threshold(c, s) for s in c["specs"]}
            else:
                thr = oracle(c)
            order = schedule(tasks, plain)
            for r in range(rounds + 1):
                measured, fb = run_testbench(c, order)
                runs += 1
                failed = [s for s in c["specs"] if s not in measured or not complete(tasks, s)]
                if not failed or r == rounds:
                    break
                new = [t for s in failed for t in gen.regenerate(c, s, fb) + ["m_" + s]]
                tasks = list(dict.fromkeys(tasks + new))
                order = schedule(tasks, plain)
            out.append({"order": order, "thresholds": thr, "measured": measured,
                        "verdicts": verdicts(c, thr, measured)})
        return {"circuits": out, "sim_runs": runs, "unparsable": gen.unparsable}

