"""Classical secondary-structure inverse folding with ViennaRNA (``RNA.inverse_fold``: the
adaptive walk of Hofacker et al. 1994, RNAinverse), and the random-design floor.

For every target dot-bracket structure: draw a start sequence uniform over ACGU
(``numpy.random.default_rng(seed)``); with ``search=True`` return ``RNA.inverse_fold(start,
target)``'s sequence (an adaptive walk on the MFE base-pair distance, which often reaches the
exact target), with ``search=False`` return the random start itself (random sequence design).
No training data is used: the method sees only the target structures, so its recovery of the
native sequences is near chance by construction. RNAinverse draws from ViennaRNA's own C
generator, which is seeded (``RNA.init_rand``) from the run's seed so that runs reproduce.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method

NUC = "ACGU"


@dataclass
class RNAInverseFold(Method):
    name: ClassVar[str] = "rna_inverse_fold"
    search: bool = True  # False = random sequence design (the start sequence, unrefined)

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        rng = np.random.default_rng(seed)
        designs = []
        if self.search:
            import RNA

            RNA.init_rand(int(seed) % 2**31)  # RNAinverse's own C generator: reproducible runs
        for target in (g["structure"] for g in data["test"]):
            start = "".join(NUC[k] for k in rng.integers(0, 4, len(target)))
            if self.search:
                start = RNA.inverse_fold(start, target)[0]
            designs.append(start)
        return {"designs": designs, "edges_kept": None, "time_s": time.perf_counter() - t0}
