"""Privacy accounting with privacy-loss distributions (PLDs): hockey-stick divergence,
discretisation with pessimistic rounding, and tight k-fold composition by FFT.

For a pair of output distributions (P, Q) of a mechanism on neighbouring inputs the privacy
loss is L = ln(dP/dQ)(X), X ~ P, and the mechanism is (eps, delta)-DP for this pair iff

    delta >= H_{e^eps}(P || Q) = E_P[(1 - e^{eps - L})_+] + P(L = +inf)        (hockey stick)

(Dwork & Rothblum 2016; Sommer, Meiser & Mohammadi 2019). Under composition privacy losses
add, so the PLD of a k-fold composition is the k-fold convolution of the one-shot PLD
(Koskela, Jalko & Honkela 2020 compute it by FFT; Gopi, Lee & Wutschitz 2021). Rounding each
loss *up* to a grid point gives an upper bound on delta, so the calibration stays valid.

Shared by any benchmark that needs numerical (eps, delta) accounting.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass
class PLD:
    """A privacy-loss distribution on the grid l0 + h * j, j = 0..n-1, plus mass at +inf."""

    l0: float
    h: float
    pmf: np.ndarray  # (n,)
    inf_mass: float = 0.0

    @property
    def losses(self) -> np.ndarray:
        return self.l0 + self.h * np.arange(self.pmf.size)  # (n,)


def pld_from_survival(survival: Callable[[np.ndarray], np.ndarray], l_min: float, l_max: float,
                      n_bins: int) -> PLD:
    """Discretise a loss with survival function S(l) = P(L > l), rounding losses up.

    Mass of (l_{j-1}, l_j] goes to l_j; mass at or below l_min goes to l_min; mass above
    l_max is treated as an infinite loss. All three choices can only increase delta.
    """
    edges = np.linspace(l_min, l_max, n_bins + 1)  # (n+1,)
    s = np.clip(np.asarray(survival(edges), dtype=float), 0.0, 1.0)
    s = np.minimum.accumulate(s)  # quadrature noise must not make S increase
    pmf = np.empty(n_bins + 1)
    pmf[0] = 1.0 - s[0]
    pmf[1:] = s[:-1] - s[1:]
    return PLD(l0=float(l_min), h=float(edges[1] - edges[0]), pmf=pmf, inf_mass=float(s[-1]))


def hockey_stick(pld: PLD, eps: float | np.ndarray) -> float | np.ndarray:
    """delta(eps) = E[(1 - e^{eps - L})_+] + P(L = inf) for a discretised PLD."""
    eps_arr = np.atleast_1d(np.asarray(eps, dtype=float))
    l = pld.losses
    out = np.empty(eps_arr.size)
    for i, e in enumerate(eps_arr):
        m = l > e
        out[i] = pld.inf_mass + float(np.sum(pld.pmf[m] * -np.expm1(e - l[m])))
    return out if np.ndim(eps) else float(out[0])


def compose(pld: PLD, k: int) -> PLD:
    """k-fold self-composition: the PLD of the sum of k independent copies of L (FFT)."""
    from scipy import fft

    if k == 1:
        return pld
    n = pld.pmf.size
    m = k * (n - 1) + 1  # support of the k-fold sum: no wrap-around at this length
    size = fft.next_fast_len(m, real=True)
    spec = fft.rfft(pld.pmf, size)
    out = fft.irfft(spec**k, size)[:m]
    out = np.maximum(out, 0.0)  # FFT round-off can leave tiny negatives
    finite = (1.0 - pld.inf_mass) ** k
    s = out.sum()
    if s > 0:
        out *= finite / s
    return PLD(l0=k * pld.l0, h=pld.h, pmf=out, inf_mass=1.0 - finite)


def convolve(a: PLD, b: PLD) -> PLD:
    """Composition of two different mechanisms whose PLDs share the grid spacing."""
    from scipy.signal import fftconvolve

    if not np.isclose(a.h, b.h, rtol=1e-9):
        raise ValueError("PLDs must share their grid spacing")
    out = np.maximum(fftconvolve(a.pmf, b.pmf), 0.0)
    return PLD(l0=a.l0 + b.l0, h=a.h, pmf=out, inf_mass=1.0 - (1.0 - a.inf_mass) * (1.0 - b.inf_mass))


def hockey_stick_discrete(p: np.ndarray, q: np.ndarray, eps: float) -> float:
    """H_{e^eps}(P || Q) = sum_x max(0, p(x) - e^eps q(x)) for two pmfs on one support."""
    return float(np.sum(np.maximum(0.0, np.asarray(p) - np.exp(eps) * np.asarray(q))))


def gaussian_pld_survival(mu: float) -> Callable[[np.ndarray], np.ndarray]:
    """S(l) of the Gaussian mechanism's loss, L ~ N(mu, 2 mu) with mu = Delta^2 / (2 sigma^2)."""
    from scipy.special import ndtr

    sd = np.sqrt(2.0 * mu)
    return lambda l: ndtr((mu - np.asarray(l)) / sd)
