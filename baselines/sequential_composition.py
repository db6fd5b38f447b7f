"""Sequential (basic) composition of differential privacy.

k mechanisms that are each (eps_i, delta_i)-DP compose to (sum eps_i, sum delta_i)-DP
(Dwork, McSherry, Nissim, Smith 2006; Dwork & Roth 2014, Thm 3.16). To meet a total
(eps, delta) budget over k identical invocations one therefore calibrates each invocation
to (eps / k, delta / k). This is the baseline that tight (privacy-loss-distribution)
composition is compared against.
"""
from __future__ import annotations


def split_budget(eps: float, delta: float, k: int) -> tuple[float, float]:
    """Per-invocation (eps, delta) under basic composition of k identical mechanisms."""
    if k < 1:
        raise ValueError("k must be >= 1")
    return eps / k, delta / k


def composed_budget(eps: float, delta: float, k: int) -> tuple[float, float]:
    """The total guarantee that basic composition gives for k runs of an (eps, delta)-DP mechanism."""
    return k * eps, k * delta
