"""An ODE simulation runtime in GNU Octave, a scripted code-writing policy and anomaly detectors.

Shared by the execute-then-respond loop (``baselines/execute_then_respond.py``) and by loops
that perceive the simulation while it runs (``methods/embodiedact.py``), so that both use the
same runtime, the same code-writer and the same repair rules ("equal policy").

* :class:`OctaveSession`: one persistent ``octave-cli`` process fed through a pipe (the stand-in
  for a MATLAB engine or WebSocket session); each :meth:`OctaveSession.eval` sends code and reads
  its output up to a sentinel, with a timeout. Start-up (~0.1-0.5 s) is paid once per run.
* :func:`simulate`: Octave code written from a config (solver ``euler`` fixed step, ``ode45`` or
  ``ode15s``; step ``h``; tolerances; controller gains) that integrates over consecutive
  segments ``times[0..m]`` and returns, per segment, the states at every solver step (what a
  runtime can stream) and the step count.
* :class:`ScriptedPolicy`: the naive initial code choice (fixed-step explicit Euler with
  ``T / n_steps0`` steps, zero derivative gain) and the repair rules: a numerical anomaly halves
  the Euler step up to ``max_halvings`` times, then switches to ``ode15s`` (then tightens its
  tolerance); a diverging physical oscillation doubles-plus-one the derivative gain.
* :func:`detect`: the anomaly detectors on a streamed trajectory: non-finite values, a state
  beyond the task's plausibility bound, a step-to-step sawtooth of growing amplitude (explicit
  integrator instability) and a growing envelope of oscillation peaks.
"""
from __future__ import annotations

import os
import re
import select
import subprocess
import time
from dataclasses import dataclass, field, replace

import numpy as np

from claimbench.tools import require_tool

SENTINEL = "__CLAIMBENCH_DONE__"
SOLVERS = ("euler", "ode45", "ode15s")


class OctaveError(RuntimeError):
    pass


class OctaveSession:
    """A persistent ``octave-cli`` process; ``eval(code)`` returns what the code printed."""

    def __init__(self, timeout: float = 60.0) -> None:
        exe = require_tool("octave-cli", "octave")
        self.timeout = timeout
        self.proc = subprocess.Popen([exe, "--no-gui", "--quiet", "--norc", "--no-history"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.calls = 0
        self.eval("more off; page_screen_output(false);")

    def eval(self, code: str, timeout: float | None = None) -> str:
        if self.proc.poll() is not None:
            raise OctaveError("octave-cli exited")
        wrapped = (f"try\n{code}\ncatch err\n  printf('__ERR__ %s\\n', err.message);\nend\n"
                   f"printf('{SENTINEL}\\n'); fflush(stdout);\n")
        self.proc.stdin.write(wrapped)
        self.proc.stdin.flush()
        self.calls += 1
        deadline = time.monotonic() + (timeout or self.timeout)
        fd = self.proc.stdout.fileno()
        buf = bytearray()
        end = (SENTINEL + "\n").encode()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise OctaveError(f"octave call timed out after {timeout or self.timeout} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise OctaveError("octave-cli closed its output")
            # Search only the new bytes (and a sentinel's length before them): decoding and
            # searching the whole buffer per chunk was quadratic in a long trajectory's output.
            # The sentinel is ASCII, so its first byte match is its first text match.
            start = max(0, len(buf) - len(end) + 1)
            buf += chunk
            marker = buf.find(end, start)
            if marker >= 0:
                return buf[:marker].decode(errors="replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("exit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=5)
            except Exception:  # noqa: BLE001 - best effort, then kill our own child
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> "OctaveSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# -- the simulation code a config writes -----------------------------------------------------------
@dataclass(frozen=True)
class SimConfig:
    """What the code-writer chose: solver, fixed step, tolerance, controller gains."""

    solver: str = "euler"
    h: float = 0.01
    rtol: float = 1e-4
    kp: float = 0.0
    kd: float = 0.0


def _num(x: float) -> str:
    return repr(float(x))


def octave_rhs(task: dict, cfg: SimConfig) -> str:
    """The right-hand side f(t, y) of a task as an Octave anonymous function."""
    kind, p = task["kind"], task["params"]
    if kind == "stiff_linear":
        lam = (f"({_num(p['L0'])} + {_num(p['L1'])}*exp(-((t-{_num(p['tc'])})/"
               f"{_num(p['w'])})^2))")
        return f"@(t,y) -{lam}*(y - cos(t)) - sin(t)"
    if kind == "vdp":
        return f"@(t,y) [y(2); {_num(p['mu'])}*(1-y(1)^2)*y(2) - y(1)]"
    if kind == "robertson":
        return ("@(t,y) [-0.04*y(1) + 1e4*y(2)*y(3); 0.04*y(1) - 1e4*y(2)*y(3) - 3e7*y(2)^2; "
                "3e7*y(2)^2]")
    if kind == "control":
        s, w = _num(p["sigma"]), _num(p["omega"])
        return (f"@(t,y) [y(2); 2*{s}*y(2) - {w}^2*y(1) - {_num(cfg.kp)}*y(1) - "
                f"{_num(cfg.kd)}*y(2)]")
    raise ValueError(f"unknown task kind {kind!r}")


def octave_code(task: dict, cfg: SimConfig, y0, times) -> str:
    """Octave code that integrates segment by segment and prints, per segment, its step count
    and every step's state (one line each: ``SEG n`` then ``Y t y1 y2 ...``)."""
    y0s = "; ".join(_num(v) for v in np.ravel(y0))
    ts = " ".join(_num(t) for t in times)
    head = (f"f = {octave_rhs(task, cfg)};\ny = [{y0s}];\ntimes = [{ts}];\n"
            f"fmt = [repmat('%.17g ', 1, numel(y) + 1) '\\n'];\n")
    # Each segment's rows are formatted by sprintf and printed in one write: printf(fmt, M)
    # alone reached the pipe about a line per write, and reading those chunks cost most of the
    # caller's CPU. The text is the same.
    if cfg.solver == "euler":
        body = (f"for s = 1:numel(times)-1\n  t0 = times(s); L = times(s+1) - t0;\n"
                f"  n = max(1, ceil(L / {_num(cfg.h)} - 1e-9)); h = L / n;\n"
                f"  Y = zeros(numel(y), n); T = t0 + h*(1:n);\n"
                f"  for k = 1:n\n    y = y + h*f(t0 + (k-1)*h, y); Y(:, k) = y;\n  end\n"
                f"  printf('SEG %d\\n', n); printf('%s', sprintf(fmt, [T; Y]));\nend\n")
    elif cfg.solver in ("ode45", "ode15s"):
        body = (f"o = odeset('RelTol', {_num(cfg.rtol)}, 'AbsTol', {_num(cfg.rtol * 1e-3)}, "
                f"'Refine', 1);\n"
                f"for s = 1:numel(times)-1\n"
                f"  [T, Y] = {cfg.solver}(f, [times(s) times(s+1)], y, o);\n"
                f"  y = Y(end, :).'; n = numel(T) - 1;\n"
                f"  printf('SEG %d\\n', n);\n"
                f"  printf('%s', sprintf(fmt, [T(2:end).'; Y(2:end, :).']));\nend\n")
    else:
        raise ValueError(f"unknown solver {cfg.solver!r}")
    return head + body


@dataclass
class Segment:
    steps: int
    t: np.ndarray  # (n,)
    y: np.ndarray  # (n, d) states after every step


def parse_segments(out: str, dim: int) -> tuple[list[Segment], str]:
    """Segments printed by :func:`octave_code`; the error message (or "") after them."""
    segs: list[Segment] = []
    rows: list[list[float]] = []
    err = ""
    for line in out.splitlines():
        if line.startswith("SEG "):
            if segs:
                segs[-1] = _close(segs[-1], rows, dim)
            segs.append(Segment(int(line.split()[1]), np.zeros(0), np.zeros((0, dim))))
            rows = []
        elif line.startswith("__ERR__"):
            err = line[8:].strip() or "error"
        elif segs and line.strip():
            vals = [float(v) for v in line.split()]
            rows.append(vals)
    if segs:
        segs[-1] = _close(segs[-1], rows, dim)
    return segs, err


def _close(seg: Segment, rows: list[list[float]], dim: int) -> Segment:
    arr = np.asarray(rows, dtype=float).reshape(-1, dim + 1)  # (n, 1 + d)
    return Segment(seg.steps, arr[:, 0], arr[:, 1:])


def simulate(session: OctaveSession, task: dict, cfg: SimConfig, y0, times) -> tuple[list[Segment], str]:
    """Run the code a config writes over the segments ``times``; returns segments and error."""
    out = session.eval(octave_code(task, cfg, y0, times))
    return parse_segments(out, len(np.ravel(y0)))


# -- the code-writing policy and its repair rules ------------------------------------------------------
@dataclass
class ScriptedPolicy:
    """A deliberately naive code-writer with fixed repair rules (the same in every loop)."""

    n_steps0: int = 1000  # initial Euler steps over the horizon (ours: "naive")
    max_halvings: int = 2  # Euler step halvings before switching to ode15s (ours)

    def initial(self, task: dict, seed: int = 0) -> SimConfig | None:
        return SimConfig(solver="euler", h=task["T"] / self.n_steps0)

    def repair(self, task: dict, cfg: SimConfig, anomaly: str, halvings: int,
               seed: int = 0) -> SimConfig | None:
        if anomaly == "growth" and task.get("design"):
            return replace(cfg, kd=2.0 * cfg.kd + 1.0)
        if cfg.solver == "euler" and halvings < self.max_halvings:
            return replace(cfg, h=cfg.h / 2.0)
        if cfg.solver != "ode15s":
            return replace(cfg, solver="ode15s")
        if cfg.rtol > 1e-8:
            return replace(cfg, rtol=cfg.rtol / 10.0)
        return None


# -- perception: anomaly detectors on a streamed trajectory ------------------------------------------------
@dataclass(frozen=True)
class Detectors:
    nonfinite: bool = True
    bound: bool = True
    sawtooth: bool = True
    growth: bool = True
    saw_run: int = 6  # consecutive alternating increments that count as a sawtooth (ours)
    saw_gain: float = 2.0  # amplitude growth over that run (ours)
    peak_gain: float = 1.2  # growth of successive oscillation peaks (ours)


def detect(y: np.ndarray, bound: float, det: Detectors = Detectors()) -> str:
    """The first anomaly on a trajectory ``y`` (n, d): "nonfinite", "bound", "sawtooth",
    "growth", or "" when none."""
    if y.size == 0:
        return ""
    finite = np.isfinite(y)
    if det.nonfinite and not finite.all():
        return "nonfinite"
    if det.bound and np.nanmax(np.abs(np.where(finite, y, 0.0))) > bound:
        return "bound"
    if not finite.all():
        return ""
    if det.sawtooth and _sawtooth(y, det.saw_run, det.saw_gain):
        return "sawtooth"
    if det.growth and _peaks_grow(y[:, 0], det.peak_gain):
        return "growth"
    return ""


def _sawtooth(y: np.ndarray, run: int, gain: float) -> bool:
    d = np.diff(y, axis=0)  # (n-1, d) step increments
    if d.shape[0] < run + 1:
        return False
    alt = (np.sign(d[1:]) * np.sign(d[:-1])) < 0  # (n-2, d) increment changes sign
    # length of the run of consecutive sign changes ending at each step
    idx = np.arange(alt.shape[0])[:, None]  # (n-2, 1)
    last_break = np.maximum.accumulate(np.where(alt, -1, idx), axis=0)  # (n-2, d)
    count = idx - last_break  # (n-2, d)
    k, j = np.nonzero(count >= run)
    if k.size == 0:
        return False
    hi, lo = np.abs(d[k + 1, j]), np.abs(d[k + 1 - run, j])
    return bool(np.any((hi > gain * lo) & (hi > 0)))


def _peaks_grow(x: np.ndarray, gain: float) -> bool:
    a = np.abs(x)
    inner = (a[1:-1] > a[:-2]) & (a[1:-1] >= a[2:])  # local maxima of |x|
    peaks = a[1:-1][inner]
    peaks = peaks[peaks > 1e-12]
    return bool(peaks.size >= 3 and peaks[-1] > gain * peaks[-2] and peaks[-2] > gain * peaks[-3])


@dataclass
class TaskLog:
    """What one loop did on one task (outputs of the method)."""

    samples: list | None = None  # states at the task's sample times, (m + 1, d), or None
    config: dict = field(default_factory=dict)
    steps_total: int = 0
    steps_kept: int = 0
    runs: int = 0  # Octave calls that simulated something
    repairs: int = 0
    anomalies: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"samples": self.samples, "config": self.config, "steps_total": self.steps_total,
                "steps_kept": self.steps_kept, "runs": self.runs, "repairs": self.repairs,
                "anomalies": self.anomalies}


def spec_ok(task: dict, y_final: np.ndarray) -> bool:
    """The task's own stated end condition (control tasks: |x(T)| <= spec * |x(0)|)."""
    if task.get("spec") is None:
        return True
    return bool(np.all(np.isfinite(y_final)) and
                abs(y_final[0]) <= task["spec"] * abs(task["y0"][0]))


def parse_llm_config(text: str, task: dict, cfg: SimConfig) -> SimConfig | None:
    """Read ``solver=<euler|ode45|ode15s> h=<num> [kd=<num>]`` from a model's reply; None when
    it cannot be read (counted as a failed attempt by the loops)."""
    m = re.search(r"solver\s*=\s*(euler|ode45|ode15s)", text)
    if not m:
        return None
    h = re.search(r"\bh\s*=\s*([0-9.eE+-]+)", text)
    kd = re.search(r"\bkd\s*=\s*([0-9.eE+-]+)", text)
    try:
        hv = float(h.group(1)) if h else cfg.h
        kdv = float(kd.group(1)) if kd else cfg.kd
    except ValueError:
        return None
    if not (np.isfinite(hv) and 0 < hv <= task["T"] and np.isfinite(kdv) and 0 <= kdv <= 1e3):
        return None
    if m.group(1) == "euler" and task["T"] / hv > 200_000:
        return None
    return replace(cfg, solver=m.group(1), h=hv, kd=kdv)


@dataclass
class LLMPolicy:
    """The code-writer as a language model through the adapter: it proposes the solver, step and
    gain; unreadable replies count as failed attempts."""

    model: str = "tiny:charlm-small"
    temperature: float = 0.0
    max_tokens: int = 48

    def _ask(self, prompt: str, seed: int) -> str:
        from claimbench.models import load_model

        gen = load_model(self.model).chat([{"role": "user", "content": prompt}],
                                         max_tokens=self.max_tokens,
                                         temperature=self.temperature, seed=seed)
        return gen.text

    def _describe(self, task: dict) -> str:
        return (f"Task: simulate the ODE {task['kind']} with parameters {task['params']} from "
                f"y0={list(task['y0'])} over [0, {task['T']}] in GNU Octave."
                + (" Choose a derivative gain kd so that |x(T)| <= "
                   f"{task['spec']}*|x(0)|." if task.get("design") else ""))

    def initial(self, task: dict, seed: int = 0) -> SimConfig | None:
        text = self._ask(self._describe(task) + " Reply with one line: solver=<euler|ode45|"
                         "ode15s> h=<step> kd=<gain>.", seed)
        return parse_llm_config(text, task, SimConfig(h=task["T"] / 1000))

    def repair(self, task: dict, cfg: SimConfig, anomaly: str, halvings: int,
               seed: int = 0) -> SimConfig | None:
        text = self._ask(self._describe(task) + f" The run with solver={cfg.solver} h={cfg.h} "
                         f"kd={cfg.kd} showed the anomaly '{anomaly}'. Reply with one line: "
                         "solver=<euler|ode45|ode15s> h=<step> kd=<gain>.", seed)
        return parse_llm_config(text, task, cfg)


def make_policy(method) -> "ScriptedPolicy | LLMPolicy":
    """The code-writer a loop method names by its ``policy`` field."""
    if method.policy == "scripted":
        return ScriptedPolicy(n_steps0=method.n_steps0, max_halvings=method.max_halvings)
    if method.policy == "llm":
        return LLMPolicy(model=method.model, temperature=method.temperature,
                         max_tokens=method.max_tokens)
    raise ValueError(f"unknown policy {method.policy!r}")


def halved(old: SimConfig, new: SimConfig | None) -> int:
    return int(new is not None and old.solver == "euler" and new.solver == "euler"
               and new.h < old.h)
