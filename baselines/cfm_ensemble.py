"""A deep ensemble of CFM-concat flows as the ensemble uncertainty baseline of generative inverse
design (the "ensemble alternative" that de Campos et al., arXiv 2603.15925, compare their
Zero-Deviation and Self-Consistency scores with).

Members: ``members`` CFM-concat flows (``conditional_flow_matching.ConcatCFM``, ordering 0, the
same data and architecture) that differ in their initialisation and training seeds (deep
ensembles, Lakshminarayanan et al., NeurIPS 2017); member 0 is the single CFM-concat model.
Candidates: member 0's designs, so the candidates are CFM-concat's. Score of a candidate (lower =
more reliable): the disagreement of the members on it, i.e. the mean over design coordinates of
the variance across members of the designs integrated from the same source point (label
coordinates y*, the same noise elsewhere). The same score of one candidate per out-of-range target
is the OOD score. Outputs use the keys of Diag-CFM's score (``zd``, ``ood_zd``) so that the same
selection, abstention and OOD metrics read both.

Deviations (ours; the paper's ensemble was not read): five members (the issue's "five quick
fits"); the disagreement over designs, not over a forward surrogate's labels, since the baseline
has no forward model of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.conditional_flow_matching import ConcatCFM, integrate
from claimbench.grid import derive_seed


def member_disagreement(designs: np.ndarray) -> np.ndarray:
    """(M, N, P) designs of M members from the same source points -> (N,) mean over coordinates
    of the across-member variance."""
    return np.asarray(designs).var(axis=0).mean(axis=-1)


@dataclass
class CFMEnsemble(ConcatCFM):
    """``members`` CFM-concat flows; member 0's designs scored by the members' disagreement."""

    name: ClassVar[str] = "cfm_ensemble"
    members: int = 5  # issue 28: "a 5-member ensemble of the CFM baseline"
    orderings: int = 1  # ordering 0 only (the ensemble is not an ordering study)

    def _designs(self, models, perm, yt, k, rng, P, K):
        """Members' designs (M, n k, P) in original coordinates from shared source points."""
        z0 = rng.standard_normal((len(yt) * k, P))  # (n k, P)
        z0[:, :K] = np.repeat(yt, k, axis=0)
        out = np.empty((len(models), len(z0), P))
        for m, model in enumerate(models):
            out[m][:, perm] = integrate(model, z0, 0.0, 1.0, self.ode_steps)  # (n k, P)
        return out

    def run(self, data, seed):
        P, K = np.asarray(data["x"]).shape[1], np.asarray(data["y"]).shape[1]
        fits = [self.fit(data, seed, 0, member=m) for m in range(self.members)]
        models = [f[0] for f in fits]
        _, hist, perm, mu, sd = fits[0]

        def scale(y):
            return (np.asarray(y) - mu) / sd * self.label_scale  # (n, K)

        # the same noise stream as ConcatCFM's ordering 0: member 0's designs are its designs
        rng = np.random.default_rng(derive_seed("noise", seed, 0))
        yt, k = scale(data["y_targets"]), self.n_candidates
        d = self._designs(models, perm, yt, k, rng, P, K)  # (M, n k, P)
        ood = self._designs(models, perm, scale(data["y_ood"]), 1, rng, P, K)  # (M, n_ood, P)
        return {"designs": d[0].reshape(len(yt), k, P),
                "zd": member_disagreement(d).reshape(len(yt), k),
                "ood_zd": member_disagreement(ood),
                "train_loss": float(hist["loss"][-1])}
