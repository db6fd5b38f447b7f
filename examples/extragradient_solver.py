"""A new solver for the ssn_prm benchmark, written outside the project in one file.

Korpelevich's extragradient on the product of simplices, with a step of 1/||A||_2 and
uniform averaging. Run and rank it against the paper's method and every baseline:

    claimbench run ssn_prm --method examples/extragradient_solver.py:Extragradient
    claimbench compare ssn_prm --method examples/extragradient_solver.py:Extragradient \
        --against prm_plus --metric final_gap
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from claimbench.api import Method
from claimbench.baselines.simplex import project_simplex
from claimbench.datasets.matrix_games import GapTrace, duality_gap


@dataclass
class Extragradient(Method):
    name = "extragradient"
    max_iters: int = 20000  # our budget
    max_work: float = 100_000  # products with A: the cap ssn_prm's quick grid gives its solvers
    time_cap_s: float = 60.0  # a safety net; the work cap decides where a run stops

    def run(self, data, seed):
        A = data["A"]  # (n, m) payoff; the min player picks x, the max player y
        eta = 1.0 / np.linalg.norm(A, 2)
        x = np.full(A.shape[0], 1.0 / A.shape[0])
        y = np.full(A.shape[1], 1.0 / A.shape[1])
        xs, ys = np.zeros_like(x), np.zeros_like(y)
        trace = GapTrace()
        it = 0
        trace.work = 2.0 * min(A.shape)  # ||A||_2 (datasets/matrix_games.py counts work so)
        while (it < self.max_iters and trace.work < self.max_work
               and trace.elapsed() < self.time_cap_s):
            it += 1
            xh = project_simplex(x - eta * (A @ y))  # extrapolation step
            yh = project_simplex(y + eta * (A.T @ x))
            x = project_simplex(x - eta * (A @ yh))  # update with the extrapolated gradient
            y = project_simplex(y + eta * (A.T @ xh))
            xs += xh
            ys += yh
            trace.work += 6  # four products above, two in the gap below
            trace.record(duality_gap(A, xs / it, ys / it), it)
        return trace.outputs(xs / it, ys / it, it, self.time_cap_s, self.max_iters)
