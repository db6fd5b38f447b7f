"""Equivariant covariance tensors: E(3)-equivariant mean and full 6x6 SPD covariance for a
symmetric rank-2 tensor target, trained with a Laplace-based log-Euclidean scoring loss.

Paper: Ruihan Liu, Yu Ji, Jianbo Yu, Shifu Yan, Qingchao Jiang, "Equivariant Covariance
Tensors: Guaranteed SPD Uncertainty for Tensor-Valued Geometric Learning", ICML 2026 (PMLR
v306, liu26bk; no arXiv id found). https://raw.githubusercontent.com/mlresearch/v306/main/
assets/liu26bk/liu26bk.pdf. Only the abstract could be read; everything beyond it is a
reconstruction (see Deviations).

Implemented (numbering ours):
 (1) Target in Kelvin-Mandel coordinates v(S) in R^6; a rotation acts by Q(R) (orthogonal).
 (2) Irreducible decomposition rho_c = (l=0) + (l=2): an orthogonal U (6x6) with
     U Q(R) U^T = diag(1, D2(R)); row 0 is v(I/sqrt3), rows 1..5 are v(B_m) for the unit
     traceless symmetric matrices of the real l=2 harmonics xy, yz, 2z^2-x^2-y^2, xz, x^2-y^2
     (so x^T B_m x is proportional to Y_2m(x) and D2 is the real Wigner matrix).
 (3) sym(6) = Sym^2(rho_c) = 2x(l=0) + 2x(l=2) + 1x(l=4) (2 + 10 + 9 = 21 dims). In the irrep
     basis L' = [[a, b^T/sqrt2], [b/sqrt2, c I5/sqrt5 + K(g) + P4(d)]] with scalars a, c,
     l=2 vectors b, g, an l=4 vector d; K(g) is the (normalised) equivariant embedding of l=2
     into Sym(R^5), T -> traceless part of (V T + T V) for the tensor V of g, and P4 an
     orthonormal basis of the remaining 9-dim l=4 subspace. L = U^T L' U.
 (4) Sigma = expm(L): SPD for every L, and expm(Q L Q^T) = Q expm(L) Q^T, so Sigma is exactly
     equivariant whenever L is; log det Sigma = tr L and Sigma^-1 = expm(-L) need no
     factorisation (the log-Euclidean parameterisation).
 (5) LE-ESO (loss): the negative log-likelihood of an elliptical Laplace-type law whose
     covariance is Sigma, per sample
         l(y) = 1/2 tr L + 1/2 sqrt(kappa r^T expm(-L) r),   r = y - mu,  kappa = 4 (d + 1),
     i.e. density prop. to |S|^-1/2 exp(-1/2 sqrt(r^T S^-1 r)) with S = Sigma / kappa (the
     multivariate exponential-power law with beta = 1/2, which is the Laplace law for d = 1;
     its covariance is kappa S). ``loss="gaussian"`` swaps in 1/2 tr L + 1/2 r^T expm(-L) r.
 (6) Network: invariant features (per point |r|, r^T M r, r^T M^-1 r, scale-free; per cloud
     log-eigenvalues of the second-moment matrix M, log mean radius, radial shape ratios) feed
     a per-point MLP, mean pooling and a head MLP with a linear skip from the per-cloud
     invariants. Equivariant l=0 / l=2 features are the parts of T_k = mean_i w_ik r_i r_i^T
     (w_ik invariant, per-point); l=4 features are the l=4 projections of u_j u_k^T for the
     (size-normalised) l=2 parts u_k. Every output irrep is an invariant-weighted sum of such
     features, so mean and L are exactly E(3)-equivariant (translations: centring; O(3):
     even-parity outer products; permutations: mean pooling).

Deviations:
 1. The LE-ESO form (5) is reconstructed from the abstract ("robust surrogate based on the
    Multivariate Laplace distribution", "Log-Euclidean"); the paper's exact loss, constants
    and any regularisers were not read. Ours is a proper log score, so NLL and coverage are
    computed for the same family.
 2. The network is a small invariant-feature MLP with outer-product tensor features, not the
    paper's E(3)-equivariant backbone (e3nn-style, not read); the irreps of (3) are built
    from fixed bases rather than by an e3nn tensor product.
 3. Trained on a few hundred synthetic solid primitives (datasets/point_cloud_tensors.py)
    instead of ModelNet40 inertia tensors and Materials Project dielectric tensors.
 4. Targets are normalised by one isotropic offset and one global scale (both equivariant).
 5. Float64 throughout (the equivariance check uses the float64 threshold).
 6. Training protocol shared with the baselines (ours, paper's not read): Adam, minibatches,
    early stopping on a held-out 20% of the training clouds.
 7. At prediction the eigenvalues of L are clipped to +-60 (normalised units) only to avoid
    float overflow far outside the training range; no training-range cloud comes near it.

Mutants for foils (not the paper's method; the default ``mutant=""`` is the model above unchanged):
  ``mutant="scalar_mean"`` drops the l=2 part of the mean (mu2 = 0), so the mean is an invariant
     multiple of the identity: an invariant-only head for an anisotropic tensor target. Still
     exactly equivariant.
  ``mutant="homoscedastic"`` makes L one learned constant: a, c from the head's bias only and
     the l=2 / l=4 parts b, g, d set to 0 (a constant Sigma must be invariant, hence this form).
     Same Sigma for every cloud, so log det Sigma cannot rank anything. Exactly equivariant.
"""
from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.cholesky_gaussian_nll import train_early_stopping
from claimbench.datasets.point_cloud_tensors import SQRT2, kelvin_mandel

D = 6  # Kelvin-Mandel dimension
KAPPA = 4.0 * (D + 1)  # covariance / scale-matrix ratio of the beta = 1/2 law
KM_IDENTITY = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])


# -- irreducible bases (2), (3) ---------------------------------------------------------------
def _l2_matrices() -> np.ndarray:
    """(5, 3, 3) orthonormal traceless symmetric matrices for m = -2..2 (real harmonics)."""
    b = np.zeros((5, 3, 3))
    b[0, 0, 1] = b[0, 1, 0] = 1 / SQRT2  # xy
    b[1, 1, 2] = b[1, 2, 1] = 1 / SQRT2  # yz
    b[2] = np.diag([-1.0, -1.0, 2.0]) / np.sqrt(6.0)  # 2z^2 - x^2 - y^2
    b[3, 0, 2] = b[3, 2, 0] = 1 / SQRT2  # xz
    b[4] = np.diag([1.0, -1.0, 0.0]) / SQRT2  # x^2 - y^2
    return b


def svec(s: np.ndarray) -> np.ndarray:
    """Orthonormal vectorisation of (..., n, n) symmetric matrices: diag, then sqrt2 * upper."""
    n = s.shape[-1]
    iu = np.triu_indices(n, 1)
    return np.concatenate([np.diagonal(s, axis1=-2, axis2=-1), SQRT2 * s[..., iu[0], iu[1]]], -1)


def unsvec(v: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(v.shape[:-1] + (n, n))
    idx = np.arange(n)
    out[..., idx, idx] = v[..., :n]
    iu = np.triu_indices(n, 1)
    out[..., iu[0], iu[1]] = v[..., n:] / SQRT2
    out[..., iu[1], iu[0]] = v[..., n:] / SQRT2
    return out


@functools.lru_cache(maxsize=None)
def irrep_bases() -> dict:
    """Fixed bases: U (6, 6) of (2); K (5, 5, 5) and P4 (9, 5, 5) of (3)."""
    b2 = _l2_matrices()
    u = np.vstack([kelvin_mandel(np.eye(3) / np.sqrt(3.0)), kelvin_mandel(b2)])  # (6, 6)
    # K[m][n', n] = <B_n', B_m B_n + B_n B_m>: the l=2 copy inside Sym(R^5).
    k = np.einsum("pij,mjk,nki->mpn", b2, b2, b2) + np.einsum("pij,njk,mki->mpn", b2, b2, b2)
    k /= np.linalg.norm(k[0])
    flat0 = svec(np.eye(5) / np.sqrt(5.0))  # (15,)
    flat2 = svec(k)  # (5, 15)
    proj = np.eye(15) - np.outer(flat0, flat0) - flat2.T @ flat2
    w, v = np.linalg.eigh(proj)
    p4 = unsvec(v[:, w > 0.5].T, 5)  # (9, 5, 5)
    return {"U": u, "B2": b2, "K": k, "P4": p4}


def irreps_of(v: np.ndarray) -> np.ndarray:
    """Kelvin-Mandel (..., 6) -> irrep coordinates (..., 6) = (l=0, l=2 x 5)."""
    return v @ irrep_bases()["U"].T


def wigner_d2(rot: np.ndarray) -> np.ndarray:
    """(..., 5, 5) l=2 block of U Q(R) U^T, computed by conjugating the l=2 matrices."""
    b2 = irrep_bases()["B2"]
    moved = np.einsum("...ab,mbc,...dc->...mad", rot, b2, rot)
    return np.einsum("nad,...mad->...nm", b2, moved)


def assemble_log_cov(a, c, b, g, d) -> np.ndarray:
    """(3): irreps -> L in Kelvin-Mandel coordinates, numpy. a, c (...,); b, g (..., 5);
    d (..., 9). Returns (..., 6, 6) symmetric."""
    bases = irrep_bases()
    lp = np.zeros(np.shape(a) + (6, 6))
    lp[..., 0, 0] = a
    lp[..., 0, 1:] = lp[..., 1:, 0] = b / SQRT2
    lp[..., 1:, 1:] = (np.asarray(c)[..., None, None] * np.eye(5) / np.sqrt(5.0)
                       + np.einsum("...m,mij->...ij", g, bases["K"])
                       + np.einsum("...q,qij->...ij", d, bases["P4"]))
    u = bases["U"]
    return u.T @ lp @ u


def expm_sym(lmat: np.ndarray, clip: float = 60.0, with_logdet: bool = False):
    """(4) for symmetric (..., n, n) L, by eigendecomposition (eigenvalues clipped to +-clip
    only to avoid float overflow far outside the training range). With ``with_logdet`` also
    returns log det expm(L) = sum of the (clipped) eigenvalues."""
    w, v = np.linalg.eigh(lmat)
    w = np.clip(w, -clip, clip)
    out = (v * np.exp(w)[..., None, :]) @ np.swapaxes(v, -1, -2)
    return (out, w.sum(-1)) if with_logdet else out


# -- the Laplace-type predictive law (5) --------------------------------------------------------
def laplace_logpdf(r: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """log density of the d-dim beta = 1/2 exponential-power law with covariance ``cov``."""
    d = r.shape[-1]
    kappa = 4.0 * (d + 1)
    q = np.einsum("...i,...i->...", r, np.linalg.solve(cov, r[..., None])[..., 0])
    _, logdet = np.linalg.slogdet(cov)
    # normaliser of |S|^-1/2 exp(-sqrt(q_S)/2): d Gamma(d/2) / (pi^(d/2) Gamma(d+1) 2^(d+1))
    log_c = (math.log(d) + math.lgamma(d / 2) - d / 2 * math.log(math.pi) - math.lgamma(d + 1)
             - (d + 1) * math.log(2.0))
    return log_c - 0.5 * (logdet - d * math.log(kappa)) - 0.5 * np.sqrt(kappa * np.maximum(q, 0))


def laplace_radial_cdf(q: np.ndarray, d: int = D) -> np.ndarray:
    """P(r^T Sigma^-1 r <= q) under the law: sqrt(kappa q) ~ Gamma(shape d, scale 2)."""
    from scipy.stats import gamma

    return gamma.cdf(np.sqrt(4.0 * (d + 1) * np.maximum(q, 0)), a=d, scale=2.0)


# -- invariant / equivariant features (6) --------------------------------------------------------
def cloud_features(x: np.ndarray) -> dict:
    """Centred points and their invariant features, x (n, N, 3). Size enters only through
    logs (log eigenvalues of M, log mean radius), everything else is scale-free, so that the
    covariance extrapolates like a power of the size on larger clouds."""
    r = x - x.mean(axis=1, keepdims=True)  # (n, N, 3)
    m = np.einsum("bni,bnj->bij", r, r) / r.shape[1]  # (n, 3, 3)
    evals = np.maximum(np.linalg.eigvalsh(m), 1e-12)  # (n, 3) ascending
    tr = evals.sum(1)  # (n,) = mean |r|^2
    minv = np.linalg.inv(m + 1e-12 * np.eye(3))
    rad = np.linalg.norm(r, axis=2)  # (n, N)
    per_point = np.stack([rad / np.sqrt(tr)[:, None],
                          np.einsum("bni,bij,bnj->bn", r, m, r) / (tr ** 2)[:, None],
                          np.einsum("bni,bij,bnj->bn", r, minv, r)], axis=2)  # (n, N, 3)
    mean_rad = rad.mean(1)
    glob = np.stack([*np.log(evals).T, np.log(mean_rad), (rad ** 4).mean(1) / tr ** 2,
                     rad.std(1) / mean_rad, rad.max(1) / mean_rad], axis=1)  # (n, 7)
    return {"r": r, "pp": per_point, "glob": glob}


def _init_params(torch, n_in: int, n_glob: int, hidden: int, channels: int, gen,
                 point_layers: int = 2) -> dict:
    """torch.nn.Linear-style init (uniform +-1/sqrt(fan_in)); the head starts near zero so
    that the first predictions are mean ~ offset and Sigma ~ the normalised identity."""
    n_pair = channels * (channels + 1) // 2
    # head: mean (bias, K l=0 coefs, K l=2 coefs); L (a, c, K b-coefs, K g-coefs, pair coefs)
    n_head = 1 + 2 * channels + 2 + 2 * channels + n_pair
    layers = {"1": (n_in, hidden), "2": (hidden, hidden), "k": (hidden, channels),
              "h1": (hidden + n_glob, hidden), "h2": (hidden, n_head)}
    params = {}
    for key, (fi, fo) in layers.items():
        bound = 1.0 / math.sqrt(fi)
        for name, shape in (("W" + key, (fi, fo)), ("b" + key, (fo,))):
            unit = torch.rand(shape, generator=gen, dtype=torch.float64)
            params[name] = (unit * 2 - 1) * bound
    params["Wh2"] = params["Wh2"] * 0.1
    # Linear skip from the per-cloud invariants (log sizes, shape ratios) to the head, so that
    # e.g. log det Sigma can follow a power law of the size beyond the training range.
    params["Ws"] = torch.zeros((n_glob, n_head), dtype=torch.float64)
    params["bh2"] = torch.zeros(n_head, dtype=torch.float64)
    params["bk"] = torch.ones(channels, dtype=torch.float64)  # T_k start near M
    if point_layers == 1:
        del params["W2"], params["b2"]
    for p in params.values():
        p.requires_grad_(True)
    return params


def equivariant_forward(torch, params: dict, feats: dict, consts: dict, channels: int,
                        mutant: str = ""):
    """(6): features -> (mean (n, 6), L (n, 6, 6)) in Kelvin-Mandel coordinates.
    ``mutant`` (foils only, see the header): "scalar_mean" or "homoscedastic"."""
    silu = torch.nn.functional.silu
    pp, glob, r = feats["pp"], feats["glob"], feats["r"]
    n, npts = pp.shape[0], pp.shape[1]
    inp = torch.cat([pp, glob[:, None, :].expand(n, npts, glob.shape[1])], dim=2)
    h = silu(inp @ params["W1"] + params["b1"])  # (n, N, H)
    if "W2" in params:
        h = silu(h @ params["W2"] + params["b2"])
    w = h @ params["Wk"] + params["bk"]  # (n, N, K) invariant weights
    t = torch.einsum("bnk,bni,bnj->bkij", w, r, r) / npts  # (n, K, 3, 3) equivariant
    s0 = torch.einsum("bkii->bk", t) / math.sqrt(3.0)  # (n, K) l=0 parts
    u2 = torch.einsum("mij,bkij->bkm", consts["B2"], t)  # (n, K, 5) l=2 parts
    # Scale-free copies for the covariance (tr M is invariant), so that L stays O(1) when a
    # cloud is larger than the training ones.
    u2n = u2 / (r ** 2).sum(2).mean(1)[:, None, None]
    z = torch.cat([h.mean(1), glob], dim=1)  # (n, H + G) invariant
    o = (silu(z @ params["Wh1"] + params["bh1"]) @ params["Wh2"] + params["bh2"]
         + glob @ params["Ws"])  # (n, n_head) invariant coefficients
    k = channels
    mu0 = o[:, 0] + (o[:, 1:1 + k] * s0).sum(1)
    mu2 = torch.einsum("bk,bkm->bm", o[:, 1 + k:1 + 2 * k], u2)
    i = 1 + 2 * k
    la, lc = o[:, i], o[:, i + 1]
    b = torch.einsum("bk,bkm->bm", o[:, i + 2:i + 2 + k], u2n)  # l=2, first copy
    g = torch.einsum("bk,bkm->bm", o[:, i + 2 + k:i + 2 + 2 * k], u2n)  # l=2, second copy
    ja, jb = consts["pairs"]
    d4 = torch.einsum("qij,bpi,bpj->bpq", consts["P4"], u2n[:, ja], u2n[:, jb])  # (n, P, 9)
    d = torch.einsum("bp,bpq->bq", o[:, i + 2 + 2 * k:], d4)  # l=4
    if mutant == "scalar_mean":
        mu2 = torch.zeros_like(mu2)
    elif mutant == "homoscedastic":
        la, lc = params["bh2"][i].expand(n), params["bh2"][i + 1].expand(n)
        b, g, d = torch.zeros_like(b), torch.zeros_like(g), torch.zeros_like(d)
    elif mutant:
        raise ValueError(f"unknown mutant {mutant!r}")
    lower = (lc[:, None, None] * consts["I5"] / math.sqrt(5.0)
             + torch.einsum("bm,mij->bij", g, consts["K"])
             + torch.einsum("bq,qij->bij", d, consts["P4"]))  # (n, 5, 5)
    top = torch.cat([la[:, None, None], b[:, None, :] / SQRT2], dim=2)  # (n, 1, 6)
    lp = torch.cat([top, torch.cat([b[:, :, None] / SQRT2, lower], dim=2)], dim=1)
    u = consts["U"]
    mu = torch.cat([mu0[:, None], mu2], dim=1) @ u  # irreps -> Kelvin-Mandel
    return mu, u.T @ lp @ u


@functools.lru_cache(maxsize=None)
def _sym_expm_fn(torch):
    """expm for batches of symmetric matrices by eigendecomposition, with the Daleckii-Krein
    backward (divided differences of exp; exact, also for repeated eigenvalues)."""

    class SymExpm(torch.autograd.Function):
        @staticmethod
        def forward(ctx, lmat):
            w, v = torch.linalg.eigh(lmat)
            ctx.save_for_backward(w, v)
            return (v * torch.exp(w)[..., None, :]) @ v.transpose(-1, -2)

        @staticmethod
        def backward(ctx, grad):
            w, v = ctx.saved_tensors
            dw = w[..., :, None] - w[..., None, :]
            near = dw.abs() < 1e-9
            safe = torch.where(near, torch.ones_like(dw), dw)
            phi = torch.where(near, torch.exp((w[..., :, None] + w[..., None, :]) / 2),
                              torch.exp(w[..., None, :]) * torch.expm1(dw) / safe)
            inner = v.transpose(-1, -2) @ grad @ v
            return v @ (phi * inner) @ v.transpose(-1, -2)

    return SymExpm.apply


def sym_expm(torch, lmat):
    """(4) in torch: expm of symmetric (..., n, n) matrices, differentiable."""
    return _sym_expm_fn(torch)(lmat)


def le_eso_loss(torch, mu, lmat, y, kind: str = "le_eso"):
    """(5), mean over the batch; ``kind="gaussian"`` is the Gaussian NLL with Sigma = expm(L)."""
    res = (y - mu)[:, :, None]  # (B, 6, 1)
    quad = (res.transpose(1, 2) @ sym_expm(torch, -lmat) @ res)[:, 0, 0]
    half_logdet = 0.5 * torch.einsum("bii->b", lmat)
    if kind == "le_eso":
        return (half_logdet + 0.5 * torch.sqrt(KAPPA * quad + 1e-12)).mean()
    if kind == "gaussian":
        return (half_logdet + 0.5 * quad).mean()
    raise ValueError(f"unknown loss {kind!r}")


@dataclass
class E3TensorUQ(Method):
    """Equivariant mean + expm-parameterised 6x6 covariance, trained with LE-ESO (5)."""

    name: ClassVar[str] = "e3_uq"

    loss: str = "le_eso"  # paper: LE-ESO; "gaussian" = Gaussian NLL ablation
    hidden: int = 32  # our choice: tiny CPU model (paper's backbone not read)
    channels: int = 4  # our choice: number of learned outer-product tensors T_k
    epochs: int = 60  # our choice: at most (early stopping on a held-out split)
    batch_size: int = 32  # our choice
    lr: float = 1e-2  # our choice: Adam
    point_layers: int = 1  # our choice: hidden layers of the per-point invariant MLP
    val_frac: float = 0.2  # our choice: held-out split for early stopping (all methods)
    patience: int = 15  # our choice
    mutant: str = ""  # foil only: "scalar_mean" | "homoscedastic" (see the header; not the paper's)

    def run(self, data: dict, seed: int) -> dict:
        import torch

        t0 = time.perf_counter()
        gen = torch.Generator().manual_seed(int(seed))
        consts = {k: torch.as_tensor(v, dtype=torch.float64) for k, v in irrep_bases().items()}
        consts["pairs"] = tuple(torch.as_tensor(i) for i in np.triu_indices(self.channels))
        consts["I5"] = torch.eye(5, dtype=torch.float64)

        tr = cloud_features(data["x_train"])
        # Invariant features are standardised with training statistics (keeps invariance).
        stats = {k: (tr[k].reshape(-1, tr[k].shape[-1]).mean(0),
                     tr[k].reshape(-1, tr[k].shape[-1]).std(0) + 1e-12) for k in ("pp", "glob")}

        def to_torch(f: dict) -> dict:
            out = {k: torch.as_tensor((f[k] - stats[k][0]) / stats[k][1]) for k in stats}
            out["r"] = torch.as_tensor(f["r"])
            return out

        # Deviation 4: y_n = (y - offset v(I)) / scale, both equivariant.
        y = np.asarray(data["y_train"], dtype=float)
        offset = float(y[:, :3].mean())
        centred = y - offset * KM_IDENTITY
        scale = float(np.sqrt((centred ** 2).sum(1).mean() / D))
        y_t = torch.as_tensor(centred / scale)
        feats = to_torch(tr)
        params = _init_params(torch, feats["pp"].shape[2] + feats["glob"].shape[1],
                              feats["glob"].shape[1], self.hidden, self.channels, gen,
                              self.point_layers)

        def batch_loss(idx):
            mu, lmat = equivariant_forward(torch, params, {k: v[idx] for k, v in feats.items()},
                                           consts, self.channels, self.mutant)
            return le_eso_loss(torch, mu, lmat, y_t[idx], self.loss)

        losses = train_early_stopping(torch, params, batch_loss, y_t.shape[0], gen, self.epochs,
                                      self.batch_size, self.lr, self.val_frac, self.patience)

        def predict(x: np.ndarray):
            with torch.no_grad():
                mu, lmat = equivariant_forward(torch, params, to_torch(cloud_features(x)),
                                               consts, self.channels, self.mutant)
            cov, logdet = expm_sym(lmat.numpy(), with_logdet=True)
            return (mu.numpy() * scale + offset * KM_IDENTITY, cov * scale ** 2,
                    logdet + D * math.log(scale ** 2))

        mean, cov, logdet = predict(data["x_test"])
        elapsed = time.perf_counter() - t0
        mean_g, cov_g, _ = predict(data["x_test_g"])
        return {"mean": mean, "cov": cov, "logdet": logdet,
                "family": "laplace" if self.loss == "le_eso" else "gaussian",
                "mean_g": mean_g, "cov_g": cov_g, "time_s": elapsed, "final_loss": losses[-1],
                "traces": {"train_loss_vs_epoch": {"x": list(range(1, len(losses) + 1)),
                                                   "y": losses, "xlabel": "epoch",
                                                   "ylabel": "training loss (normalised)"}}}
