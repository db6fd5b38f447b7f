"""PISD: exact Poisson data against a finite-difference solve, the sine transform, the guidance
losses on exact pairs, the EDM sampler on a Gaussian with a known denoiser, and the mutants."""
import math

import numpy as np
import pytest

from claimbench.baselines.edm_dps import GridDPS, dps_sample, edm_sigmas, fd_laplacian_torch
from claimbench.datasets.poisson_dirichlet import (PoissonDirichlet, fields_from_modes,
                                                   laplacian_fd, sine_basis)
from claimbench.methods.pisd import PISD, dst1_matrix


def _fd_solve(a):
    """Solve the 5-point system Delta_h u = a with zero Dirichlet data (scipy.sparse)."""
    import scipy.sparse as sp
    from scipy.sparse.linalg import spsolve

    n = a.shape[0]
    d1 = sp.diags([np.ones(n - 1), -2 * np.ones(n), np.ones(n - 1)], [-1, 0, 1]) * (n + 1) ** 2
    lap = sp.kronsum(d1, d1, format="csc")  # (n^2, n^2)
    return spsolve(lap, a.ravel()).reshape(n, n)


def test_single_mode_matches_fd_eigenvalue():
    # A single sine mode is an eigenvector of the discrete Laplacian: Delta_h u = a exactly
    # when u = -a / lambda_h, lambda_h = 4 (n+1)^2 (sin^2(j pi h / 2) + sin^2(k pi h / 2)).
    n, j, k = 12, 3, 5
    c = np.zeros((n, n))
    c[j - 1, k - 1] = 1.0
    a, u = fields_from_modes(c)
    h = 1.0 / (n + 1)
    lam_h = 4 / h ** 2 * (math.sin(j * math.pi * h / 2) ** 2 + math.sin(k * math.pi * h / 2) ** 2)
    np.testing.assert_allclose(_fd_solve(a), -a / lam_h, atol=1e-12)
    np.testing.assert_allclose(u, -a / (math.pi ** 2 * (j * j + k * k)), atol=1e-14)


def test_spectral_solution_converges_to_fd_solution_at_second_order():
    errs = []
    for n in (15, 31):
        rng = np.random.default_rng(0)
        c = np.zeros((n, n))
        c[:4, :4] = rng.standard_normal((4, 4))  # the same smooth source at both resolutions
        a, u = fields_from_modes(c)
        errs.append(np.max(np.abs(_fd_solve(a) - u)) / np.max(np.abs(u)))
    assert errs[0] < 0.05
    assert 3.0 < errs[0] / errs[1] < 5.0  # h halves: error / 4


def test_dataset_truth_solves_the_pde_and_masks_observe_truth():
    inst = PoissonDirichlet(n=8, n_train=16, n_test=3, obs_frac=0.1).make(1)
    d, t = inst.data, inst.truth
    assert d["train_a"].shape == (16, 8, 8) and t["a"].shape == (3, 8, 8)
    fwd, inv = d["tasks"]["forward"], d["tasks"]["inverse"]
    assert fwd["mask"].sum(axis=(1, 2)).tolist() == [6, 6, 6]
    np.testing.assert_array_equal(fwd["values"][fwd["mask"]], t["a"][fwd["mask"]])
    np.testing.assert_array_equal(inv["values"][inv["mask"]], t["u"][inv["mask"]])
    assert np.all(fwd["values"][~fwd["mask"]] == 0)
    again = PoissonDirichlet(n=8, n_train=16, n_test=3, obs_frac=0.1).make(1)
    np.testing.assert_array_equal(again.truth["a"], t["a"])


def test_fd_laplacians_agree():
    import torch

    u = np.random.default_rng(2).standard_normal((2, 6, 6))
    got = fd_laplacian_torch(torch.as_tensor(u)).numpy()
    np.testing.assert_allclose(got, laplacian_fd(u), rtol=1e-12)


def test_dst_matrix_is_scipy_orthonormal_dst1():
    from scipy.fft import dst

    s = dst1_matrix(9)
    x = np.random.default_rng(3).standard_normal(9)
    np.testing.assert_allclose(s @ x, dst(x, type=1, norm="ortho"), atol=1e-12)
    np.testing.assert_allclose(s @ s, np.eye(9), atol=1e-12)
    np.testing.assert_allclose(s * math.sqrt(5.0), sine_basis(9), atol=1e-12)  # sqrt(2/(n+1))


def _exact_pair(n, k, seed=4, count=64):
    rng = np.random.default_rng(seed)
    c = np.zeros((count, n, n))
    c[:, :k, :k] = rng.standard_normal((count, k, k))
    return fields_from_modes(c)


def test_encode_decode_roundtrip_and_zero_guidance_loss_on_exact_pairs():
    import torch

    n, k = 8, 4
    a, u = _exact_pair(n, k)
    m = PISD(keep=k)
    rep = m.fit_representation({"n": n, "train_a": a, "train_u": u})
    x = m.encode(rep, a[:2], u[:2])  # (2, 2 k^2)
    assert x.shape == (2, 2 * k * k)
    a2, u2 = m.decode(rep, torch.as_tensor(x, dtype=torch.float32))
    np.testing.assert_allclose(a2.numpy(), a[:2], atol=1e-5)
    np.testing.assert_allclose(u2.numpy(), u[:2], atol=1e-5)
    mask = np.zeros((2, n, n), bool)
    mask[:, 2, 3] = mask[:, 5, 1] = True
    for task in ({"observed": "a", "mask": mask, "values": np.where(mask, a[:2], 0)},
                 {"observed": "u", "mask": mask, "values": np.where(mask, u[:2], 0)}):
        loss, update, lr, _ = m.guidance(rep, task)
        assert update == "adam" and lr.shape == (2 * k * k,)
        assert float(loss(torch.as_tensor(x, dtype=torch.float32))) < 1e-6
    # The spectral PDE loss is Parseval's grid sum of the residual: perturb u, compare.
    xt = torch.as_tensor(x, dtype=torch.float32).clone()
    xt[:, k * k:] += 0.3
    ap, up = m.decode(rep, xt)
    lam = torch.as_tensor(rep["lam"], dtype=torch.float32)
    c = m._coeffs(rep, xt)
    spectral = (lam * c[:, 1] - c[:, 0]).pow(2).sum().item()
    s = torch.as_tensor(dst1_matrix(n)[:k], dtype=torch.float32)
    grid = (s.T @ (lam * c[:, 1]) @ s - ap).pow(2).sum().item()
    assert spectral == pytest.approx(grid, rel=1e-4)


def test_adam_step_sizes_follow_the_codes_logistic_blend():
    lr = PISD().step_sizes(8)
    w0 = 0.05 + 0.95 / (1 + math.exp(-1.0))  # |k| = 0: lr_high / lr_low + (1 - ratio) sigma
    assert lr[0, 0] == pytest.approx(0.2 * w0)
    assert np.all(np.diff(lr[0]) < 0) and lr.min() > 0.01


def test_euler_sampler_with_exact_gaussian_denoiser_has_unit_variance():
    # Data N(0, I), sigma_data = 1: the ideal denoiser is D(x, s) = x / (1 + s^2).
    import torch

    def exact(x, s):
        return x / (1 + s[:, None] ** 2)

    x = dps_sample(exact, 4000, 3, edm_sigmas(200, 0.002, 70.0, 7.0), None, seed=0,
                   update="none")
    assert torch.std(x).item() == pytest.approx(1.0, abs=0.05)


def test_adam_guidance_pulls_towards_observation():
    import torch

    def exact(x, s):
        return x / (1 + s[:, None] ** 2)

    target = torch.tensor([[2.0, -1.0]])

    def loss(x0):
        return ((x0 - target) ** 2).sum()

    x = dps_sample(exact, 1, 2, edm_sigmas(300, 0.002, 70.0, 7.0), loss, seed=1,
                   update="adam", lr=np.array([0.2, 0.2]), betas=(0.985, 0.98))
    assert torch.allclose(x, target, atol=0.5)


def test_mutants_and_flops_on_a_tiny_instance(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    inst = PoissonDirichlet(n=8, n_train=128, n_test=2, obs_frac=0.1).make(5)
    common = dict(width=32, depth=2, train_steps=20, sample_steps=10)
    out = PISD(keep=4, **common).run(inst.data, 0)
    grid = GridDPS(**common).run(inst.data, 0)
    full = PISD(keep=4, mutant="full_modes", **common).run(inst.data, 0)
    nopde = PISD(keep=4, mutant="no_pde", **common).run(inst.data, 0)
    assert out["forward"]["u"].shape == (2, 8, 8)
    assert out["latent_dim"] == 32 and grid["latent_dim"] == 128 and full["latent_dim"] == 128
    assert grid["flops_per_sample"] > out["flops_per_sample"]
    assert full["flops_per_sample"] >= grid["flops_per_sample"]
    assert nopde["flops_per_sample"] == out["flops_per_sample"]
    # Same trained model and noise: only the PDE term differs, so the samples differ.
    assert not np.allclose(nopde["forward"]["u"], out["forward"]["u"])
    with pytest.raises(ValueError):
        PISD(mutant="nonsense")
    # The quick grid's count-only full_modes: the run's operation count, without a run.
    counted = PISD(keep=4, mutant="full_modes", count_only=True, **common).run(inst.data, 0)
    assert counted == {"latent_dim": full["latent_dim"],
                       "flops_per_sample": full["flops_per_sample"]}
    with pytest.raises(ValueError, match="count_only"):
        PISD(count_only=True)


def test_tasks_sampled_together_equal_each_sampled_alone(tmp_path, monkeypatch):
    # run() samples both tasks in one batch; every row must be what sampling its task alone
    # (its own start noise, its own loss) gives: up to round-off, since at these tiny sizes the
    # BLAS may pick another kernel for another batch size (bit for bit at the quick grid's).
    import torch

    from claimbench.baselines.edm_dps import EDMConfig, train_denoiser
    from claimbench.grid import derive_seed

    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    inst = PoissonDirichlet(n=8, n_train=128, n_test=2, obs_frac=0.1).make(7)
    for m in (PISD(keep=4, width=32, depth=2, train_steps=20, sample_steps=10),
              GridDPS(width=32, depth=2, train_steps=20, sample_steps=10)):
        out = m.run(inst.data, 0)
        rep = m.fit_representation(inst.data)
        x_train = m.encode(rep, inst.data["train_a"], inst.data["train_u"])
        edm = EDMConfig(width=m.width, depth=m.depth, train_steps=m.train_steps)
        model = train_denoiser(x_train, edm, derive_seed("train", 0), m.model_key())  # cached
        sigmas = edm_sigmas(m.sample_steps, m.sigma_min, m.sigma_max, m.rho)
        for name, task in inst.data["tasks"].items():
            loss, update, lr, betas = m.guidance(rep, task)
            x = dps_sample(model, len(task["mask"]), x_train.shape[1], sigmas, loss,
                           derive_seed("sample", 0, name), update=update, lr=lr, betas=betas)
            with torch.no_grad():
                a, u = m.decode(rep, x)
            np.testing.assert_allclose(out[name]["a"], a.double().numpy(), rtol=1e-4, atol=1e-6)
            np.testing.assert_allclose(out[name]["u"], u.double().numpy(), rtol=1e-4, atol=1e-6)


# -- Helmholtz (issue 28): Delta u + k2 u = a, the code's k2 = 1 -------------------------------

def _fd_solve_helmholtz(a, k2):
    """Solve the 5-point system (Delta_h + k2) u = a with zero Dirichlet data."""
    import scipy.sparse as sp
    from scipy.sparse.linalg import spsolve

    n = a.shape[0]
    d1 = sp.diags([np.ones(n - 1), -2 * np.ones(n), np.ones(n - 1)], [-1, 0, 1]) * (n + 1) ** 2
    op = sp.kronsum(d1, d1, format="csc") + k2 * sp.identity(n * n, format="csc")
    return spsolve(op, a.ravel()).reshape(n, n)


def test_helmholtz_single_mode_and_poisson_limit():
    from claimbench.datasets.helmholtz_dirichlet import helmholtz_fields

    n, j, k, k2 = 10, 2, 3, 1.0
    c = np.zeros((n, n))
    c[j - 1, k - 1] = 1.0
    a, u = helmholtz_fields(c, k2)
    np.testing.assert_allclose(u, a / (k2 - math.pi ** 2 * (j * j + k * k)), atol=1e-14)
    rng = np.random.default_rng(1)
    c = rng.standard_normal((3, n, n))
    for got, want in zip(helmholtz_fields(c, 0.0), fields_from_modes(c)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)  # k2 = 0 is Poisson
    with pytest.raises(ValueError):  # resonance: k2 = 2 pi^2 is an eigenvalue of -Delta
        helmholtz_fields(c, 2 * math.pi ** 2)


def test_helmholtz_spectral_solution_converges_to_fd_solution_at_second_order():
    from claimbench.datasets.helmholtz_dirichlet import helmholtz_fields

    errs = []
    for n in (15, 31):
        c = np.zeros((n, n))
        c[:4, :4] = np.random.default_rng(0).standard_normal((4, 4))
        a, u = helmholtz_fields(c, 1.0)
        errs.append(np.max(np.abs(_fd_solve_helmholtz(a, 1.0) - u)) / np.max(np.abs(u)))
    assert errs[0] < 0.05
    assert 3.0 < errs[0] / errs[1] < 5.0


def test_helmholtz_dataset_shares_poissons_sources_and_masks():
    from claimbench.datasets.helmholtz_dirichlet import HelmholtzDirichlet

    kw = {"n": 8, "n_train": 16, "n_test": 3, "obs_frac": 0.1}
    h, p = HelmholtzDirichlet(**kw).make(2), PoissonDirichlet(**kw).make(2)
    assert h.data["k2"] == 1.0 and "k2" not in p.data
    np.testing.assert_array_equal(h.truth["a"], p.truth["a"])
    np.testing.assert_array_equal(h.data["tasks"]["forward"]["mask"],
                                  p.data["tasks"]["forward"]["mask"])
    assert not np.allclose(h.truth["u"], p.truth["u"])
    # the truth is the exact solution of Delta u + u = a, mode by mode
    from claimbench.datasets.helmholtz_dirichlet import helmholtz_fields

    bas = sine_basis(8) * (2.0 / 9.0)  # B B = (n + 1) / 2 I
    c = np.einsum("ij,tjk,kl->til", bas, h.truth["a"], bas)  # (3, n, n) sine coefficients
    np.testing.assert_allclose(helmholtz_fields(c, 1.0)[1], h.truth["u"], atol=1e-12)


def test_guidance_losses_vanish_on_exact_helmholtz_pairs_only():
    import torch
    from claimbench.datasets.helmholtz_dirichlet import helmholtz_fields

    n, k, k2 = 8, 4, 1.0
    c = np.zeros((64, n, n))
    c[:, :k, :k] = np.random.default_rng(4).standard_normal((64, k, k))
    a, u = helmholtz_fields(c, k2)
    mask = np.zeros((2, n, n), bool)
    mask[:, 2, 3] = True
    task = {"observed": "a", "mask": mask, "values": np.where(mask, a[:2], 0)}
    m = PISD(keep=k, zeta_obs=0.0)  # the PDE term alone
    for data_k2, vanishes in ((k2, True), (0.0, False)):
        data = {"n": n, "train_a": a, "train_u": u}
        if data_k2:
            data["k2"] = data_k2
        rep = m.fit_representation(data)
        x = torch.as_tensor(m.encode(rep, a[:2], u[:2]), dtype=torch.float32)
        loss = float(m.guidance(rep, task)[0](x))
        assert (loss < 1e-6) == vanishes, (data_k2, loss)
    # The grid baseline's FD residual: zero on an exact FD Helmholtz pair, not on Poisson's.
    g = GridDPS(zeta_obs=0.0)
    a1 = a[:1]
    u1 = _fd_solve_helmholtz(a1[0], k2)[None]
    for data_k2, vanishes in ((k2, True), (0.0, False)):
        data = {"n": n, "train_a": a, "train_u": u}
        if data_k2:
            data["k2"] = data_k2
        rep = g.fit_representation(data)
        x = torch.as_tensor(g.encode(rep, a1, u1), dtype=torch.float32)
        t1 = {"observed": "a", "mask": mask[:1], "values": np.where(mask[:1], a1, 0)}
        loss = float(g.guidance(rep, t1)[0](x))
        assert (loss < 1e-3) == vanishes, (data_k2, loss)


def test_configs_no_claim_reads_on_helmholtz_do_not_apply_there():
    from claimbench.datasets.helmholtz_dirichlet import HelmholtzDirichlet

    h, p = HelmholtzDirichlet(), PoissonDirichlet()
    assert PISD(mutant="full_modes").applies_to(h) and GridDPS(update="adam").applies_to(h)
    for m in (PISD(), PISD(mutant="no_pde"), GridDPS()):
        assert m.applies_to(h) is None
    for m in (PISD(), PISD(mutant="full_modes"), GridDPS(), GridDPS(update="adam")):
        assert m.applies_to(p) is None
