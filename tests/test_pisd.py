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
