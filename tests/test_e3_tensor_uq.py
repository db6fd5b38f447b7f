"""Unit tests for the equivariant covariance-tensor benchmark (e3_tensor_uq)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.cholesky_gaussian_nll import cholesky_factor, gaussian_nll_chol
from claimbench.baselines.deep_ensemble import moment_match
from claimbench.benchmarks.e3_tensor_uq import BENCHMARK, cal_err, nll, ood_auroc
from claimbench.datasets.point_cloud_tensors import (PointCloudTensors, from_kelvin_mandel,
                                                     inertia_body, kelvin_mandel, km_rotation,
                                                     point_inertia, random_rotations,
                                                     sample_shape)
from claimbench.methods.e3_tensor_uq import (KAPPA, assemble_log_cov,
                                             cloud_features, equivariant_forward, expm_sym,
                                             irrep_bases, irreps_of, laplace_logpdf,
                                             laplace_radial_cdf, sym_expm, wigner_d2)
from claimbench.methods.e3_tensor_uq import _init_params


def _rots(n=3, seed=0, reflections=False):
    return random_rotations(n, np.random.default_rng(seed), reflections)


def _sym(rng, n=3, batch=()):
    a = rng.standard_normal(batch + (n, n))
    return (a + np.swapaxes(a, -1, -2)) / 2


# -- inertia tensors of known shapes -------------------------------------------------------------
def test_point_inertia_of_six_points_closed_form():
    a, b, c = 0.7, 1.3, 2.1
    pts = np.array([[a, 0, 0], [-a, 0, 0], [0, b, 0], [0, -b, 0], [0, 0, c], [0, 0, -c]])
    # M = diag(a^2, b^2, c^2)/3 about the centroid; I = tr(M) 1 - M.
    want = np.diag([b * b + c * c, a * a + c * c, a * a + b * b]) / 3
    np.testing.assert_allclose(point_inertia(pts), want, atol=1e-14)
    rot = _rots(1)[0]
    np.testing.assert_allclose(point_inertia(pts @ rot.T + 5.0), rot @ want @ rot.T, atol=1e-12)


@pytest.mark.parametrize("family,ext", [("ellipsoid", (0.6, 1.0, 1.4)), ("box", (0.6, 1.0, 1.4)),
                                        ("cylinder", (0.6, 1.0, 1.4)), ("torus", (1.2, 0.4, 0.0))])
def test_sampled_solids_match_closed_form_inertia(family, ext):
    pts = sample_shape(family, np.array(ext), 60000, np.random.default_rng(1))
    got = point_inertia(pts)
    want = inertia_body(family, np.array(ext))
    np.testing.assert_allclose(np.diag(got), want, rtol=0.02)
    assert np.abs(got - np.diag(np.diag(got))).max() < 0.02 * want.max()


def test_unit_sphere_and_cube_textbook_values():
    # solid sphere 2/5 r^2, cube of side 2: (1 + 1)/3 per unit mass
    np.testing.assert_allclose(inertia_body("ellipsoid", np.ones(3)), [0.4] * 3)
    np.testing.assert_allclose(inertia_body("box", np.ones(3)), [2 / 3] * 3)


# -- Kelvin-Mandel and the irrep decomposition -----------------------------------------------------
def test_kelvin_mandel_is_an_isometry_and_rotation_rep():
    rng = np.random.default_rng(2)
    s = _sym(rng, batch=(4,))
    v = kelvin_mandel(s)
    np.testing.assert_allclose(from_kelvin_mandel(v), s, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), np.linalg.norm(s, axis=(1, 2)))
    for rot in _rots(3, 3, reflections=True):
        q = km_rotation(rot)
        np.testing.assert_allclose(q @ q.T, np.eye(6), atol=1e-14)
        np.testing.assert_allclose(v @ q.T, kelvin_mandel(rot @ s @ rot.T), atol=1e-14)


def test_irrep_round_trip_and_block_diagonal_action():
    u = irrep_bases()["U"]
    np.testing.assert_allclose(u @ u.T, np.eye(6), atol=1e-15)
    v = np.random.default_rng(4).standard_normal((5, 6))
    np.testing.assert_allclose(irreps_of(v) @ u, v, atol=1e-14)
    # l=0 coordinate is tr/sqrt3, the l=2 block is traceless
    s = from_kelvin_mandel(v)
    np.testing.assert_allclose(irreps_of(v)[:, 0], np.trace(s, axis1=1, axis2=2) / math.sqrt(3))
    for rot in _rots(4, 5, reflections=True):
        m = u @ km_rotation(rot) @ u.T
        np.testing.assert_allclose(m[0], np.eye(6)[0], atol=1e-14)
        np.testing.assert_allclose(m[1:, 1:], wigner_d2(rot), atol=1e-14)


def _real_y2(x):
    """Real spherical harmonics l = 2, m = -2..2 (z axis), up to one common factor."""
    x, y, z = x[:, 0], x[:, 1], x[:, 2]
    return np.stack([math.sqrt(2) * x * y, math.sqrt(2) * y * z, (2 * z * z - x * x - y * y)
                     / math.sqrt(6), math.sqrt(2) * x * z, (x * x - y * y) / math.sqrt(2)], 1)


def test_d2_matches_spherical_harmonic_wigner_matrix_and_is_a_homomorphism():
    pts = np.random.default_rng(6).standard_normal((40, 3))
    r1, r2 = _rots(2, 7)
    for rot in (r1, r2):
        # Y(R^T x) = Y(x) D  fitted by least squares from the harmonics themselves
        d_sh, *_ = np.linalg.lstsq(_real_y2(pts), _real_y2(pts @ rot), rcond=None)
        np.testing.assert_allclose(wigner_d2(rot), d_sh, atol=1e-12)
    np.testing.assert_allclose(wigner_d2(r1 @ r2), wigner_d2(r1) @ wigner_d2(r2), atol=1e-13)
    np.testing.assert_allclose(wigner_d2(-r1), wigner_d2(r1), atol=1e-14)  # even parity


def _sym6_action(rot):
    """21x21 matrix of L -> M L M^T on svec(sym(6)) in the irrep basis, M = diag(1, D2)."""
    from claimbench.methods.e3_tensor_uq import svec, unsvec

    m = np.eye(6)
    m[1:, 1:] = wigner_d2(rot)
    basis = unsvec(np.eye(21), 6)  # (21, 6, 6)
    return svec(m @ basis @ m.T).T


def _d4(rot):
    p4 = irrep_bases()["P4"]
    d2 = wigner_d2(rot)
    return np.einsum("pij,qij->pq", p4, d2 @ p4 @ d2.T)


def test_sym6_splits_into_2x0_2x2_1x4_with_casimir_values():
    b = irrep_bases()
    k, p4 = b["K"], b["P4"]
    assert k.shape == (5, 5, 5) and p4.shape == (9, 5, 5)
    # orthonormal, traceless, mutually orthogonal and orthogonal to the identity
    np.testing.assert_allclose(np.einsum("mij,nij->mn", k, k), np.eye(5), atol=1e-14)
    np.testing.assert_allclose(np.einsum("mij,nij->mn", p4, p4), np.eye(9), atol=1e-14)
    np.testing.assert_allclose(np.einsum("mij,nij->mn", k, p4), 0, atol=1e-14)
    np.testing.assert_allclose(np.trace(p4, axis1=1, axis2=2), 0, atol=1e-14)
    # Casimir -sum_a ad(J_a)^2 on Sym(R^5): l(l+1) = 0, 6, 20
    eps = 1e-6
    gens = []
    for axis in range(3):
        w = np.zeros(3)
        w[axis] = eps
        from scipy.spatial.transform import Rotation

        gens.append((wigner_d2(Rotation.from_rotvec(w).as_matrix())
                     - wigner_d2(Rotation.from_rotvec(-w).as_matrix())) / (2 * eps))

    def casimir(x):
        out = np.zeros_like(x)
        for g in gens:
            ad = g @ x - x @ g
            out -= g @ ad - ad @ g
        return out

    np.testing.assert_allclose(casimir(np.eye(5)), 0, atol=1e-8)
    for m in range(5):
        np.testing.assert_allclose(casimir(k[m]), 6 * k[m], atol=1e-7)
    for q in range(9):
        np.testing.assert_allclose(casimir(p4[q]), 20 * p4[q], atol=1e-7)


def test_irrep_components_transform_by_their_d_matrices():
    rng = np.random.default_rng(8)
    k = irrep_bases()["K"]
    g = rng.standard_normal(5)
    for rot in _rots(3, 9, reflections=True):
        d2, d4 = wigner_d2(rot), _d4(rot)
        np.testing.assert_allclose(np.einsum("m,mij->ij", d2 @ g, k),
                                   d2 @ np.einsum("m,mij->ij", g, k) @ d2.T, atol=1e-13)
        np.testing.assert_allclose(d4 @ d4.T, np.eye(9), atol=1e-13)
        # block structure of the 21-dim action: nothing leaks out of the l=4 subspace
        act = _sym6_action(rot)
        np.testing.assert_allclose(act @ act.T, np.eye(21), atol=1e-13)
    r1, r2 = _rots(2, 10)
    np.testing.assert_allclose(_d4(r1 @ r2), _d4(r1) @ _d4(r2), atol=1e-13)


# -- the covariance map ---------------------------------------------------------------------------
def test_expm_map_gives_spd_equivariant_covariances():
    from scipy.linalg import expm

    rng = np.random.default_rng(11)
    n = 6
    a, c = rng.normal(0, 2, n), rng.normal(0, 2, n)
    b, g, d = rng.normal(0, 2, (n, 5)), rng.normal(0, 2, (n, 5)), rng.normal(0, 2, (n, 9))
    lmat = assemble_log_cov(a, c, b, g, d)
    sig = expm_sym(lmat)
    np.testing.assert_allclose(lmat, np.swapaxes(lmat, 1, 2), atol=1e-14)
    np.testing.assert_allclose(sig, np.swapaxes(sig, 1, 2), rtol=1e-12, atol=1e-12)
    assert np.all(np.linalg.eigvalsh(sig) > 0)
    np.testing.assert_allclose(sig[0], expm(lmat[0]), rtol=1e-10)
    np.testing.assert_allclose(np.linalg.slogdet(sig)[1], np.trace(lmat, axis1=1, axis2=2),
                               rtol=1e-10)
    for rot in _rots(3, 12, reflections=True):
        d2, d4, q = wigner_d2(rot), _d4(rot), km_rotation(rot)
        moved = expm_sym(assemble_log_cov(a, c, b @ d2.T, g @ d2.T, d @ d4.T))
        np.testing.assert_allclose(moved, q @ sig @ q.T, rtol=1e-10, atol=1e-10)


def test_sym_expm_matches_torch_matrix_exp_and_its_gradient():
    torch = pytest.importorskip("torch")
    gen = torch.Generator().manual_seed(0)
    lmat = torch.randn(3, 6, 6, generator=gen, dtype=torch.float64)
    lmat = (lmat + lmat.mT) / 2
    lmat[0] = 0.3 * torch.eye(6, dtype=torch.float64)  # repeated eigenvalues
    weight = torch.randn(3, 6, 6, generator=gen, dtype=torch.float64)
    a = lmat.clone().requires_grad_(True)
    b = lmat.clone().requires_grad_(True)
    (sym_expm(torch, a) * weight).sum().backward()
    (torch.linalg.matrix_exp(b) * weight).sum().backward()
    assert torch.allclose(sym_expm(torch, lmat), torch.linalg.matrix_exp(lmat), atol=1e-12)
    assert torch.allclose(a.grad, b.grad, atol=1e-11)


# -- the Laplace-type law behind LE-ESO ------------------------------------------------------------
def test_laplace_law_is_the_laplace_distribution_in_one_dimension():
    from scipy.stats import laplace

    var = 0.7
    x = np.linspace(-3, 3, 13)[:, None]
    cov = np.full((13, 1, 1), var)
    # Laplace with scale b has variance 2 b^2
    want = laplace.logpdf(x[:, 0], scale=np.sqrt(var / 2))
    np.testing.assert_allclose(laplace_logpdf(x, cov), want)
    assert KAPPA == 28.0


def test_laplace_law_normalised_in_two_dimensions():
    g = np.linspace(-40, 40, 801)
    xx, yy = np.meshgrid(g, g)
    pts = np.stack([xx.ravel(), yy.ravel()], 1)
    cov = np.array([[2.0, 0.6], [0.6, 1.0]])
    dens = np.exp(laplace_logpdf(pts, np.broadcast_to(cov, (pts.shape[0], 2, 2))))
    total = dens.sum() * (g[1] - g[0]) ** 2
    assert total == pytest.approx(1.0, abs=2e-3)
    mean_xy = (dens * pts[:, 0] * pts[:, 1]).sum() * (g[1] - g[0]) ** 2
    assert mean_xy == pytest.approx(0.6, abs=5e-3)  # covariance is `cov`


def test_laplace_samples_have_covariance_sigma_and_calibrated_radii():
    rng = np.random.default_rng(13)
    d, n = 6, 200000
    s = _sym(rng, 6) + 6 * np.eye(6)
    sigma = s @ s.T / 10  # the covariance
    u = rng.standard_normal((n, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    t = rng.gamma(d, 2.0, size=n)  # whitened radius for the scale matrix S = Sigma / kappa
    z = t[:, None] * u
    x = z @ np.linalg.cholesky(sigma / KAPPA).T
    np.testing.assert_allclose(np.cov(x.T), sigma, atol=0.03 * np.abs(sigma).max())
    q = np.einsum("bi,bi->b", x, np.linalg.solve(sigma, x.T).T)
    pit = laplace_radial_cdf(q, d)
    for level in (0.1, 0.5, 0.9):
        assert (pit <= level).mean() == pytest.approx(level, abs=0.01)


# -- models ---------------------------------------------------------------------------------------
def test_untrained_network_is_equivariant_in_float64():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(14)
    x = rng.standard_normal((3, 20, 3)) * np.array([1.0, 0.6, 0.3])
    rot = _rots(3, 15, reflections=True)
    perm = rng.permutation(20)
    moved = np.einsum("bij,bnj->bni", rot, x[:, perm]) + rng.normal(size=(3, 1, 3))
    consts = {k: torch.as_tensor(v) for k, v in irrep_bases().items()}
    consts["pairs"] = tuple(torch.as_tensor(i) for i in np.triu_indices(3))
    consts["I5"] = torch.eye(5, dtype=torch.float64)
    params = _init_params(torch, 3 + 7, 7, 8, 3, torch.Generator().manual_seed(0))
    with torch.no_grad():
        for p in params.values():  # a generic point, not the near-zero initial head
            p.add_(torch.randn(p.shape, generator=torch.Generator().manual_seed(1),
                               dtype=torch.float64) * 0.5)

    def run(pts):
        f = cloud_features(pts)
        feats = {k: torch.as_tensor(v) for k, v in f.items()}
        with torch.no_grad():
            mu, lmat = equivariant_forward(torch, params, feats, consts, 3)
        return mu.numpy(), expm_sym(lmat.numpy())

    mu, sig = run(x)
    mu_g, sig_g = run(moved)
    q = km_rotation(rot)
    np.testing.assert_allclose(mu_g, np.einsum("bij,bj->bi", q, mu), atol=1e-12)
    np.testing.assert_allclose(sig_g, q @ sig @ np.swapaxes(q, 1, 2), rtol=1e-10, atol=1e-12)


def test_noise_is_equivariant_with_the_stated_covariance():
    ds = PointCloudTensors(noise_df=0.0)
    rng = np.random.default_rng(16)
    clean = np.diag([0.9, 0.5, 0.3])
    rot = _rots(1, 17)[0]
    n = 40000
    tau = np.full(n, 0.1)
    e0 = kelvin_mandel(ds._noise(np.broadcast_to(clean, (n, 3, 3)), tau, rng))
    e1 = kelvin_mandel(ds._noise(np.broadcast_to(rot @ clean @ rot.T, (n, 3, 3)), tau, rng))
    half = np.diag(np.sqrt(np.diag(clean)))
    # Cov = tau^2 P P^T with P the Kelvin-Mandel matrix of X -> I^1/2 X I^1/2
    p = np.stack([kelvin_mandel(half @ e @ half) for e in from_kelvin_mandel(np.eye(6))], 1)
    want = 0.01 * p @ p.T
    np.testing.assert_allclose(np.cov(e0.T), want, atol=0.05 * want.max())
    q = km_rotation(rot)
    np.testing.assert_allclose(np.cov(e1.T), q @ want @ q.T, atol=0.05 * want.max())


def test_metrics_on_the_true_gaussian_law():
    ds = PointCloudTensors(noise_df=0.0, n_test=2000, n_ood=200, n_train=10)
    inst = ds.make(5)
    tr = inst.truth
    clean = from_kelvin_mandel(tr["y_clean"])
    w, v = np.linalg.eigh(clean)
    half = (v * np.sqrt(w)[:, None, :]) @ np.swapaxes(v, 1, 2)
    basis = from_kelvin_mandel(np.eye(6))
    p = np.stack([kelvin_mandel(half @ e @ half) for e in basis], 2)  # (n, 6, 6)
    cov = tr["tau"][:, None, None] ** 2 * p @ np.swapaxes(p, 1, 2)
    _, logdet = np.linalg.slogdet(cov)
    out = {"mean": tr["y_clean"], "cov": cov, "family": "gaussian", "logdet": logdet}
    assert cal_err(inst, out) < 0.02
    r = tr["y_noisy"] - tr["y_clean"]
    from scipy.stats import multivariate_normal

    keep = ~tr["is_ood"]
    want = -np.mean([multivariate_normal(np.zeros(6), c).logpdf(x)
                     for x, c in zip(r[keep][:50], cov[keep][:50])])
    sub = {"mean": out["mean"], "cov": out["cov"], "family": "gaussian"}
    inst_sub = type(inst)(data=inst.data, truth={**tr, "is_ood": ~keep | (np.cumsum(keep) > 50)})
    assert nll(inst_sub, sub) == pytest.approx(want, rel=1e-9)
    assert 0.5 < ood_auroc(inst, out) <= 1.0
    # a miscalibrated (inflated) covariance is detected
    assert cal_err(inst, {**out, "cov": 4 * cov}) > 0.2


def test_cholesky_nll_and_ensemble_moments():
    torch = pytest.importorskip("torch")
    from scipy.stats import multivariate_normal

    rng = np.random.default_rng(18)
    raw = torch.as_tensor(rng.normal(size=(2, 21)))
    lmat = cholesky_factor(torch, raw, 6, "full")
    mu = torch.as_tensor(rng.normal(size=(2, 6)))
    y = torch.as_tensor(rng.normal(size=(2, 6)))
    cov = (lmat @ lmat.mT).numpy()
    want = -np.mean([multivariate_normal(mu[i].numpy(), cov[i]).logpdf(y[i].numpy())
                     for i in range(2)]) - 3 * math.log(2 * math.pi)
    assert float(gaussian_nll_chol(torch, mu, lmat, y)) == pytest.approx(want, rel=1e-10)
    means = np.array([[[0.0, 0.0]], [[2.0, 0.0]]])
    covs = np.broadcast_to(np.eye(2), (2, 1, 2, 2))
    m, c = moment_match(means, covs)
    np.testing.assert_allclose(m, [[1.0, 0.0]])
    np.testing.assert_allclose(c, [[[2.0, 0.0], [0.0, 1.0]]])


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        for name, value in r["metrics"].items():
            assert value is None or np.isfinite(value), (r["cell"].method.label, name)
    by_label = {r["cell"].method.label: r for r in rows}
    # the trained model is equivariant to float64 round-off; the DeepSets baseline is not
    for label in ("e3_uq", "e3_uq_gaussian"):
        assert by_label[label]["metrics"]["equiv_err"] < 1e-10
        assert np.all(np.linalg.eigvalsh(by_label[label]["outputs"]["cov"]) > 0)
    assert by_label["cholesky_gaussian_nll"]["metrics"]["equiv_err"] > 1e-3
