"""Seeded stiff, transiently stiff and unstable ODE / control-design simulation tasks.

Each task is a statement a code-writer sees (``Instance.data``): the right-hand side's family
and parameters, the initial state, the horizon ``T``, the sample times at which the trajectory
must be delivered, a physical plausibility bound on |y| and, for control design, the end
condition |x(T)| <= spec |x(0)|. The truth (reference trajectory at the sample times) is only
for the metrics.

Families (cycled over the tasks of an instance):
* ``stiff_linear``: y' = -lambda(t) (y - cos t) - sin t with a stiffness spike
  lambda(t) = L0 + L1 exp(-((t - tc) / w)^2); closed form
  y = cos t + (y0 - 1) exp(-Lambda(t)), Lambda(t) = L0 t + L1 w sqrt(pi)/2 (erf((t-tc)/w) + erf(tc/w)).
* ``vdp``: Van der Pol, y1'' = mu (1 - y1^2) y1' - y1, large mu, y(0) = (2, 0), horizon before the
  first relaxation jump; reference by scipy ``solve_ivp`` (Radau, rtol 1e-10).
* ``robertson``: Robertson's chemical kinetics (k = 0.04, 3e7, 1e4), y(0) = (1, 0, 0); reference
  by ``solve_ivp`` (Radau, rtol 1e-10, atol 1e-14).
* ``control``: a negatively damped oscillator x'' = 2 sigma x' - omega^2 x + u under
  u = -kp x - kd x' (the code-writer designs kd); the reference depends on the chosen gains and
  is the closed form expm((A - B K) t) x0, computed by :func:`control_reference`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

KINDS = ("stiff_linear", "vdp", "robertson", "control")


def stiff_linear_exact(p: dict, y0: float, t: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    lam_int = p["L0"] * t + p["L1"] * p["w"] * np.sqrt(np.pi) / 2 * (
        erf((t - p["tc"]) / p["w"]) + erf(p["tc"] / p["w"]))
    return np.cos(t) + (y0 - 1.0) * np.exp(-lam_int)


def _solve_ivp_ref(rhs, y0, times) -> np.ndarray:
    from scipy.integrate import solve_ivp

    sol = solve_ivp(rhs, (times[0], times[-1]), y0, method="Radau", t_eval=times, rtol=1e-10,
                    atol=1e-14)
    return sol.y.T  # (m + 1, d)


def vdp_rhs(mu: float):
    return lambda t, y: [y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]]


def robertson_rhs(t, y):
    return [-0.04 * y[0] + 1e4 * y[1] * y[2],
            0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
            3e7 * y[1] ** 2]


def control_reference(p: dict, y0, times, kp: float, kd: float) -> np.ndarray:
    """Closed-loop states at ``times`` (m + 1, 2) for gains (kp, kd): expm(A_cl t) x0."""
    from scipy.linalg import expm

    a_cl = np.array([[0.0, 1.0], [-(p["omega"] ** 2) - kp, 2 * p["sigma"] - kd]])  # (2, 2)
    return np.stack([expm(a_cl * t) @ np.asarray(y0, float) for t in times])


def reference(task: dict, kp: float = 0.0, kd: float = 0.0) -> np.ndarray:
    times = np.asarray(task["times"])
    kind, p = task["kind"], task["params"]
    if kind == "stiff_linear":
        return stiff_linear_exact(p, task["y0"][0], times)[:, None]
    if kind == "vdp":
        return _solve_ivp_ref(vdp_rhs(p["mu"]), task["y0"], times)
    if kind == "robertson":
        return _solve_ivp_ref(robertson_rhs, task["y0"], times)
    return control_reference(p, task["y0"], times, kp, kd)


def make_task(kind: str, rng: np.random.Generator, n_segments: int) -> dict:
    if kind == "stiff_linear":
        T = 10.0
        params = {"L0": float(rng.uniform(20, 80)), "L1": float(np.exp(rng.uniform(np.log(200),
                                                                                   np.log(3000)))),
                  "w": float(rng.uniform(0.05, 0.2)), "tc": float(rng.uniform(2, 8))}
        y0, bound, spec, design = [1.5], 10.0, None, False
    elif kind == "vdp":
        mu = float(rng.uniform(20, 200))
        T = float(min(20.0, 0.6 * mu))
        params, y0, bound, spec, design = {"mu": mu}, [2.0, 0.0], 10.0, None, False
    elif kind == "robertson":
        T = float(rng.uniform(5, 40))
        params, y0, bound, spec, design = {}, [1.0, 0.0, 0.0], 2.0, None, False
    elif kind == "control":
        T = 20.0
        params = {"sigma": float(rng.uniform(0.05, 0.2)), "omega": float(rng.uniform(0.5, 1.5))}
        y0, bound, spec, design = [1.0, 0.0], 100.0, 0.05, True
    else:
        raise ValueError(kind)
    return {"kind": kind, "params": params, "y0": y0, "T": T, "bound": bound, "spec": spec,
            "design": design, "times": list(np.linspace(0.0, T, n_segments + 1))}


@dataclass
class StiffControlTasks(Dataset):
    """``n_tasks`` simulation tasks cycling over ``kinds``; truth = reference trajectories."""

    name: ClassVar[str] = "stiff_control_odes"
    n_tasks: int = 8  # ours
    n_segments: int = 20  # sample times = segment boundaries (ours)
    kinds: tuple = KINDS
    rtol: float = 0.05  # success: |y - ref| <= rtol * max_t |ref_j| per component (ours)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        kinds = list(self.kinds)
        tasks = [make_task(kinds[i % len(kinds)], rng, self.n_segments)
                 for i in range(self.n_tasks)]
        refs = [None if t["design"] else reference(t) for t in tasks]
        return Instance(data={"tasks": tasks}, truth={"refs": refs, "rtol": self.rtol})


def task_success(task: dict, ref, out: dict, rtol: float) -> bool:
    """Delivered samples finite, within ``rtol`` of the reference per component scale, and the
    task's end condition met (control: for the gains the code-writer chose)."""
    samples = out.get("samples")
    if samples is None:
        return False
    y = np.asarray(samples, dtype=float)
    if task["design"]:
        cfg = out.get("config") or {}
        ref = control_reference(task["params"], task["y0"], task["times"],
                                float(cfg.get("kp", 0.0)), float(cfg.get("kd", 0.0)))
        if abs(ref[-1, 0]) > task["spec"] * abs(task["y0"][0]):
            return False
    ref = np.asarray(ref, dtype=float)
    if y.shape != ref.shape or not np.all(np.isfinite(y)):
        return False
    scale = np.max(np.abs(ref), axis=0)  # (d,)
    return bool(np.all(np.abs(y - ref) <= rtol * scale + 1e-12))
